# filemicro_rwritefsync.f - micro: batches of random writes to one file, each followed by fsync
#
# One thread writes $nwrites blocks of $iosize at random, $iosize-aligned
# offsets of one preallocated $filesize file, then fsyncs it; after
# $count fsyncs the run ends (quit mode firstdone).  It measures how the
# file system flushes scattered dirty blocks of one file.  The file is
# kept between runs (reuse).
#
# Scale it without editing:
#   flowbench run filemicro_rwritefsync -D dir=/mnt/test -D nwrites=1024 -D count=16
#
set $dir=/tmp
set $runtime=60
set $filesize=1g
set $iosize=8k
set $nwrites=16384
set $count=64

set mode quit firstdone

define file name=bigfile,path=$dir,size=$filesize,prealloc,reuse

define process name=filerandwrite,instances=1
{
  thread name=writer,memsize=10m,instances=1
  {
    flowop write name=rand-write,filename=bigfile,iosize=$iosize,random,
	iters=$nwrites
    flowop fsync name=flush
    flowop finishoncount name=enough-flushes,target=flush,value=$count
  }
}

echo "filemicro_rwritefsync: $count batches of $nwrites random $iosize writes + fsync on a $filesize file in $dir"

run $runtime
