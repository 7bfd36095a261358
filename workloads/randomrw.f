#
# randomrw.f - random reads and random writes on one preallocated file.
#
# $nthreads reader threads and $nthreads writer threads (8 + 8 by default)
# do $iosize I/O at uniformly random, $iosize-aligned offsets of one
# $filesize file for $runtime seconds.  The file is created once and kept
# (reuse), so later runs start from the same file; flowbench makes the
# page cache cold before the timed phase unless run with --cache warm.
#
# Scale it without editing:
#   flowbench run workloads/randomrw.f -D dir=/mnt/test -D filesize=64m \
#       -D nthreads=2 -D runtime=10
#
set $dir=/tmp
set $filesize=5g
set $nthreads=8
set $iosize=8k
set $runtime=60

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse

define process name=rand-rw,instances=1
{
  thread name=rand-r-thread,memsize=5m,instances=$nthreads
  {
    flowop read name=rand-read1,filename=largefile1,iosize=$iosize,random
  }
  thread name=rand-w-thread,memsize=5m,instances=$nthreads
  {
    flowop write name=rand-write1,filename=largefile1,iosize=$iosize,random
  }
}

echo "randomrw: $nthreads readers + $nthreads writers, $iosize random I/O on a $filesize file in $dir"

run $runtime
