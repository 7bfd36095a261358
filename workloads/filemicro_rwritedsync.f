# filemicro_rwritedsync.f - micro: synchronous (O_SYNC) random writes to one file, a fixed count
#
# One thread writes $iosize blocks at random, $iosize-aligned offsets of
# one preallocated $filesize file opened with O_SYNC, so each write
# returns only once it is on stable storage; after $count writes the run
# ends (quit mode firstdone).  The file is kept between runs (reuse).
#
# Scale it without editing:
#   flowbench run filemicro_rwritedsync -D dir=/mnt/test -D count=2000
#
set $dir=/tmp
set $runtime=60
set $filesize=1g
set $iosize=2k
set $count=32768

set mode quit firstdone

define file name=bigfile,path=$dir,size=$filesize,prealloc,reuse

define process name=filerandwrite,instances=1
{
  thread name=writer,memsize=10m,instances=1
  {
    flowop write name=sync-write,filename=bigfile,iosize=$iosize,random,dsync
    flowop finishoncount name=enough-writes,target=sync-write,value=$count
  }
}

echo "filemicro_rwritedsync: $count O_SYNC random writes of $iosize to a $filesize file in $dir"

run $runtime
