# singlestreamread.f - one thread reads one large file sequentially
#
# Models a single sequential reader (a backup, a media player, a scan):
# one thread reads one $filesize file in $iosize reads, starting again at
# the beginning when it reaches the end.
# The page cache is used as an application would use it; see
# singlestreamreaddirect.f for the same without it.
#
# Scale it without editing:
#   flowbench run singlestreamread -D dir=/mnt/test -D filesize=1g -D iosize=256k
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
    flowop read name=seqread1,filename=largefile1,iosize=$iosize
  }
}

echo "singlestreamread: $iosize sequential reads of a $filesize file in $dir"

run $runtime
