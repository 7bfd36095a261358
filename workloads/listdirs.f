# listdirs.f - lists directories of a large, narrow tree over and over
#
# Models `ls -R`, `find` or a backup scanner walking metadata: $nthreads
# threads read directory after directory (opendir, read every entry,
# closedir) of a preallocated tree of $nfiles empty files whose
# directories hold about $meandirwidth entries each, so the tree is deep
# and has many directories.  No file data is read; the file size is
# $filesize (0 by default).
#
# Scale it without editing:
#   flowbench run listdirs -D dir=/mnt/test -D nfiles=10000 -D nthreads=4
#
set $dir=/tmp
set $runtime=60
set $nfiles=50000
set $meandirwidth=5
set $filesize=0
set $nthreads=16

define fileset name=scantree,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc

define process name=lister,instances=1
{
  thread name=ls,memsize=1m,instances=$nthreads
  {
    flowop listdir name=readdir,filesetname=scantree
  }
}

echo "listdirs: $nthreads threads listing the directories of $nfiles files in $dir"

run $runtime
