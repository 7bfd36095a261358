# createfiles.f - fills an empty directory tree with new files as fast as possible
#
# Models unpacking an archive or a build writing its output: $nthreads
# threads create files of $filesize in a tree of $nfiles entries with
# directories about $meandirwidth wide, each file written whole in $iosize
# writes and closed.  Nothing exists at the start; when every file has
# been created the run ends (quit mode firstdone), so the result measures
# file creation, directory growth and allocation together.
#
# Scale it without editing:
#   flowbench run createfiles -D dir=/mnt/test -D nfiles=5000 -D nthreads=4
#
set $dir=/tmp
set $runtime=60
set $nfiles=50000
set $meandirwidth=100
set $filesize=16k
set $iosize=1m
set $nthreads=16

set mode quit firstdone

define fileset name=newtree,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth

define process name=creator,instances=1
{
  thread name=mkfile,memsize=10m,instances=$nthreads
  {
    flowop createfile name=create,filesetname=newtree,fd=1
    flowop writewholefile name=fill,filesetname=newtree,fd=1,iosize=$iosize
    flowop closefile name=close,fd=1
  }
}

echo "createfiles: $nthreads threads creating $nfiles files of $filesize in $dir"

run $runtime
