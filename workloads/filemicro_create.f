# filemicro_create.f - micro: creates one file and grows it by appends to a fixed size
#
# One thread appends $iosize blocks to one file that starts empty, until
# it has done $count appends ($count * $iosize bytes, 1 GiB by default);
# then the run ends (quit mode firstdone).  With $sync set to true every
# append is synchronous (O_SYNC), which measures the cost of allocating
# and committing new blocks one write at a time.
#
# Scale it without editing:
#   flowbench run filemicro_create -D dir=/mnt/test -D count=256 -D sync=true
#
set $dir=/tmp
set $runtime=60
set $iosize=1m
set $count=1024
set $sync=false

set mode quit firstdone

define file name=growfile,path=$dir,size=0,prealloc

define process name=filecreate,instances=1
{
  thread name=appender,memsize=10m,instances=1
  {
    flowop appendfile name=append,filename=growfile,iosize=$iosize,dsync=$sync
    flowop finishoncount name=enough-appends,target=append,value=$count
  }
}

echo "filemicro_create: $count appends of $iosize to a new file in $dir (sync: $sync)"

run $runtime
