# fivestreamwritedirect.f - five threads each write their own file sequentially, with O_DIRECT
#
# Models five concurrent sequential writers, each on its own file (five
# recordings or logs at once): thread N writes $iosize blocks one after
# another from offset 0 of file N, preallocated to $filesize, and grows
# it for the rest of the run.  Interleaving five streams tests the file
# system's allocator and write-back.
# Every I/O bypasses the page cache (O_DIRECT).
#
# Scale it without editing:
#   flowbench run fivestreamwritedirect -D dir=/mnt/test -D filesize=256m -D iosize=256k
#
set $dir=/tmp
set $runtime=60
set $filesize=1m
set $iosize=1m

define file name=stream1,path=$dir,size=$filesize,prealloc
define file name=stream2,path=$dir,size=$filesize,prealloc
define file name=stream3,path=$dir,size=$filesize,prealloc
define file name=stream4,path=$dir,size=$filesize,prealloc
define file name=stream5,path=$dir,size=$filesize,prealloc

define process name=fivestreamwritedirect,instances=1
{
  thread name=writer1,memsize=10m,instances=1
  {
    flowop write name=seqwrite1,filename=stream1,iosize=$iosize,directio
  }
  thread name=writer2,memsize=10m,instances=1
  {
    flowop write name=seqwrite2,filename=stream2,iosize=$iosize,directio
  }
  thread name=writer3,memsize=10m,instances=1
  {
    flowop write name=seqwrite3,filename=stream3,iosize=$iosize,directio
  }
  thread name=writer4,memsize=10m,instances=1
  {
    flowop write name=seqwrite4,filename=stream4,iosize=$iosize,directio
  }
  thread name=writer5,memsize=10m,instances=1
  {
    flowop write name=seqwrite5,filename=stream5,iosize=$iosize,directio
  }
}

echo "fivestreamwritedirect: five streams of $iosize sequential writes on $filesize files in $dir"

run $runtime
