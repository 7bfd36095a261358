# filemicro_seqwriterand.f - micro: open, append a random amount, close; one file, fixed count
#
# One thread repeatedly opens one preallocated file, appends a random
# amount to it (uniform, up to $iosize) and closes it again, as a
# program that logs by reopening its log each time does; after $count
# appends the run ends (quit mode firstdone).
#
# Scale it without editing:
#   flowbench run filemicro_seqwriterand -D dir=/mnt/test -D count=4096
#
set $dir=/tmp
set $runtime=60
set $filesize=1m
set $iosize=8k
set $count=65536

set mode quit firstdone

define file name=logfile,path=$dir,size=$filesize,prealloc

define process name=fileseqwriterand,instances=1
{
  thread name=appender,memsize=10m,instances=1
  {
    flowop openfile name=log-open,filename=logfile,fd=1
    flowop appendfilerand name=log-append,filename=logfile,fd=1,iosize=$iosize
    flowop closefile name=log-close,fd=1
    flowop finishoncount name=enough-appends,target=log-append,value=$count
  }
}

echo "filemicro_seqwriterand: $count random appends (up to $iosize) to a file in $dir"

run $runtime
