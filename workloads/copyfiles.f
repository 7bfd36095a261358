# copyfiles.f - copies a tree of files into an empty tree, file by file, until done
#
# Models `cp -r` of a source tree: $nthreads threads each open a file of
# the source tree ($nfiles files of $filesize, directories about
# $meandirwidth wide, all preallocated in parallel), read it whole in
# $iosize chunks, create the matching new file in the destination tree
# and write it whole with the size of the source (srcfd), then close
# both.  The destination starts empty; when every destination file exists
# the copy is complete and the run ends (quit mode firstdone).
#
# Scale it without editing:
#   flowbench run copyfiles -D dir=/mnt/test -D nfiles=5000 -D filesize=64k
#
set $dir=/tmp
set $runtime=60
set $nfiles=1000
set $meandirwidth=20
set $filesize=16k
set $iosize=1m
set $nthreads=1

set mode quit firstdone

define fileset name=srctree,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=100,paralloc
define fileset name=dsttree,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=0

define process name=copier,instances=1
{
  thread name=cp,memsize=10m,instances=$nthreads
  {
    flowop openfile name=src-open,filesetname=srctree,fd=1
    flowop readwholefile name=src-read,filesetname=srctree,fd=1,iosize=$iosize
    flowop createfile name=dst-create,filesetname=dsttree,fd=2
    flowop writewholefile name=dst-write,filesetname=dsttree,fd=2,srcfd=1,iosize=$iosize
    flowop closefile name=src-close,fd=1
    flowop closefile name=dst-close,fd=2
  }
}

echo "copyfiles: copying $nfiles files of $filesize in $dir with $nthreads thread(s)"

run $runtime
