# randomread.f - random reads of one large file
#
# Models a read-mostly database or key-value store serving lookups from a
# data file larger than memory: $nthreads threads read $iosize blocks at
# uniformly random, $iosize-aligned offsets of one $filesize file.  The
# offsets fall in the first $workingset bytes (0: the whole file); set
# $directio to 1 to bypass the page cache.  The file is preallocated once
# and kept between runs (reuse).
#
# Scale it without editing:
#   flowbench run randomread -D dir=/mnt/test -D filesize=1g -D nthreads=4
#
set $dir=/tmp
set $runtime=60
set $filesize=5g
set $iosize=8k
set $nthreads=1
set $workingset=0
set $directio=0

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse,paralloc

define process name=rand-read,instances=1
{
  thread name=rand-thread,memsize=5m,instances=$nthreads
  {
    flowop read name=rand-read1,filename=largefile1,iosize=$iosize,random,
	workingset=$workingset,directio=$directio
  }
}

echo "randomread: $nthreads threads, $iosize random reads of a $filesize file in $dir"

run $runtime
