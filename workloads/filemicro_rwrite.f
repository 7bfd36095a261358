# filemicro_rwrite.f - micro: random overwrites of one file until a byte budget is written
#
# One thread writes $iosize blocks at random, $iosize-aligned offsets of
# one preallocated $filesize file, kept between runs (reuse), until it
# has written more than $totalbytes; then the run ends (quit mode
# firstdone).  Set $sync to true to make every write synchronous.
#
# Scale it without editing:
#   flowbench run filemicro_rwrite -D dir=/mnt/test -D filesize=256m -D sync=true
#
set $dir=/tmp
set $runtime=60
set $filesize=1g
set $iosize=2k
set $totalbytes=128m
set $sync=false

set mode quit firstdone

define file name=bigfile,path=$dir,size=$filesize,prealloc,reuse

define process name=filerandwrite,instances=1
{
  thread name=writer,memsize=10m,instances=1
  {
    flowop write name=rand-write,filename=bigfile,iosize=$iosize,random,dsync=$sync
    flowop finishonbytes name=enough-written,target=rand-write,value=$totalbytes
  }
}

echo "filemicro_rwrite: $iosize random writes to a $filesize file in $dir until $totalbytes"

run $runtime
