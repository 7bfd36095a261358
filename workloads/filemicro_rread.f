# filemicro_rread.f - micro: random reads of one file until a byte budget is read
#
# One thread reads $iosize blocks at random, $iosize-aligned offsets of
# one preallocated $filesize file, kept between runs (reuse), until it
# has read more than $totalbytes; then the run ends (quit mode
# firstdone).  Whether the reads come from the page cache depends on
# --cache and on $filesize against memory.
#
# Scale it without editing:
#   flowbench run filemicro_rread -D dir=/mnt/test -D filesize=256m -D iosize=4k
#
set $dir=/tmp
set $runtime=60
set $filesize=1g
set $iosize=2k
set $totalbytes=128m

set mode quit firstdone

define file name=bigfile,path=$dir,size=$filesize,prealloc,reuse

define process name=filerandread,instances=1
{
  thread name=reader,memsize=10m,instances=1
  {
    flowop read name=rand-read,filename=bigfile,iosize=$iosize,random
    flowop finishonbytes name=enough-read,target=rand-read,value=$totalbytes
  }
}

echo "filemicro_rread: $iosize random reads of a $filesize file in $dir until $totalbytes"

run $runtime
