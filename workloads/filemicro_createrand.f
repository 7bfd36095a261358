# filemicro_createrand.f - micro: grows a new file by random-sized appends with periodic fsync
#
# One thread appends random amounts (uniform, mean about $iosize / 2) to
# a file that starts empty, $nappends appends at a time, then fsyncs it;
# when the file holds more than $totalbytes the run ends (quit mode
# firstdone).  It measures small, unaligned appends with regular
# flushes, as a logger or a database journal does.
#
# Scale it without editing:
#   flowbench run filemicro_createrand -D dir=/mnt/test -D totalbytes=64m
#
set $dir=/tmp
set $runtime=60
set $iosize=1m
set $nappends=10
set $totalbytes=1g

set mode quit firstdone

define file name=growfile,path=$dir,size=0,prealloc

define process name=filecreaterand,instances=1
{
  thread name=appender,memsize=10m,instances=1
  {
    flowop appendfilerand name=append-rand,filename=growfile,iosize=$iosize,
	iters=$nappends
    flowop fsync name=flush
    flowop finishonbytes name=enough-bytes,target=append-rand,value=$totalbytes
  }
}

echo "filemicro_createrand: random appends (up to $iosize) to a new file in $dir until $totalbytes"

run $runtime
