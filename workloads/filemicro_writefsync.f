# filemicro_writefsync.f - micro: appends to a new file with an fsync after each group
#
# One thread appends $iosize blocks to a file that starts empty, $nappends
# at a time, and fsyncs after each group, as a database log or a mail
# spool does; after $count fsyncs the run ends (quit mode firstdone).
# It measures the cost of making appended data durable.
#
# Scale it without editing:
#   flowbench run filemicro_writefsync -D dir=/mnt/test -D count=512 -D nappends=4
#
set $dir=/tmp
set $runtime=60
set $iosize=8k
set $nappends=1
set $count=8192

set mode quit firstdone

define file name=logfile,path=$dir,size=0,prealloc

define process name=filewritefsync,instances=1
{
  thread name=appender,memsize=10m,instances=1
  {
    flowop appendfile name=append,filename=logfile,iosize=$iosize,
	iters=$nappends
    flowop fsync name=flush
    flowop finishoncount name=enough-flushes,target=flush,value=$count
  }
}

echo "filemicro_writefsync: $count x ($nappends appends of $iosize + fsync) to a new file in $dir"

run $runtime
