# filemicro_statfile.f - micro: many threads stat the files of a tree
#
# $nthreads threads call stat() on files of a preallocated tree of
# $nfiles files ($filesize each, directories about $meandirwidth wide),
# picking them in turn.  No file is opened; it measures path lookup and
# inode attribute reads, mostly from the dentry and inode caches.
#
# Scale it without editing:
#   flowbench run filemicro_statfile -D dir=/mnt/test -D nfiles=10000 -D nthreads=4
#
set $dir=/tmp
set $runtime=60
set $nfiles=10000
set $meandirwidth=20
set $filesize=4k
set $nthreads=20

define fileset name=stattree,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=100

define process name=filestat,instances=1
{
  thread name=stater,memsize=1m,instances=$nthreads
  {
    flowop statfile name=stat,filesetname=stattree
  }
}

echo "filemicro_statfile: $nthreads threads stat-ing $nfiles files in $dir"

run $runtime
