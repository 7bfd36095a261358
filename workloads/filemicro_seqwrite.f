# filemicro_seqwrite.f - micro: grows a new file by fixed-size appends to a fixed count
#
# One thread appends $iosize blocks to a file that starts empty, in
# groups of $nappends, until it has done $count appends; then the run
# ends (quit mode firstdone).  It measures streaming allocation of new
# blocks through the page cache.
#
# Scale it without editing:
#   flowbench run filemicro_seqwrite -D dir=/mnt/test -D count=4096 -D iosize=64k
#
set $dir=/tmp
set $runtime=60
set $iosize=32k
set $nappends=10
set $count=32768

set mode quit firstdone

define file name=growfile,path=$dir,size=0,prealloc

define process name=fileseqwrite,instances=1
{
  thread name=appender,memsize=10m,instances=1
  {
    flowop appendfile name=append,filename=growfile,iosize=$iosize,
	iters=$nappends
    flowop finishoncount name=enough-appends,target=append,value=$count
  }
}

echo "filemicro_seqwrite: $count appends of $iosize to a new file in $dir"

run $runtime
