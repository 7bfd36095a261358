# singlestreamreaddirect.f - one thread reads one large file sequentially, with O_DIRECT
#
# Models a single sequential reader (a backup, a media player, a scan):
# one thread reads one $filesize file in $iosize reads, starting again at
# the beginning when it reaches the end.
# Every I/O bypasses the page cache (O_DIRECT), so the device and the
# file system's direct path are measured, not memory.
#
# Scale it without editing:
#   flowbench run singlestreamreaddirect -D dir=/mnt/test -D filesize=1g -D iosize=256k
#
set $dir=/tmp
set $runtime=60
set $filesize=5g
set $iosize=1m

define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse

define process name=seqread,instances=1
{
  thread name=seqread-thread,memsize=10m,instances=1
  {
    flowop read name=seqread1,filename=largefile1,iosize=$iosize,directio
  }
}

echo "singlestreamreaddirect: $iosize sequential reads of a $filesize file in $dir"

run $runtime
