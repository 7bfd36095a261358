# randomwrite.f - random overwrites of one large file
#
# Models in-place updates of a big file (database pages, VM images):
# $nthreads threads write $iosize blocks at uniformly random,
# $iosize-aligned offsets of one $filesize file, never growing it.  The
# offsets fall in the first $workingset bytes (0: the whole file); set
# $directio to 1 to bypass the page cache.  The file is preallocated once
# and kept between runs (reuse).
#
# Scale it without editing:
#   flowbench run randomwrite -D dir=/mnt/test -D filesize=1g -D nthreads=4
#
set $dir=/tmp
set $runtime=60
set $filesize=5g
set $iosize=8k
set $nthreads=1
set $workingset=0
set $directio=0

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse,paralloc

define process name=rand-write,instances=1
{
  thread name=rand-thread,memsize=5m,instances=$nthreads
  {
    flowop write name=rand-write1,filename=largefile1,iosize=$iosize,random,
	workingset=$workingset,directio=$directio
  }
}

echo "randomwrite: $nthreads threads, $iosize random writes to a $filesize file in $dir"

run $runtime
