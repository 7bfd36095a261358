# fivestreamreaddirect.f - five threads each read their own large file sequentially, with O_DIRECT
#
# Models five concurrent sequential readers, each on its own file (five
# streams served at once: a media server, parallel backups): thread N
# reads file N, a $filesize file, in $iosize reads and starts again at
# the beginning when it reaches the end.  Interleaving five streams
# tests the file system's read-ahead and allocation locality.
# Every I/O bypasses the page cache (O_DIRECT).
#
# Scale it without editing:
#   flowbench run fivestreamreaddirect -D dir=/mnt/test -D filesize=256m -D iosize=256k
#
set $dir=/tmp
set $runtime=60
set $filesize=1g
set $iosize=1m

define file name=stream1,path=$dir,size=$filesize,prealloc,reuse
define file name=stream2,path=$dir,size=$filesize,prealloc,reuse
define file name=stream3,path=$dir,size=$filesize,prealloc,reuse
define file name=stream4,path=$dir,size=$filesize,prealloc,reuse
define file name=stream5,path=$dir,size=$filesize,prealloc,reuse

define process name=fivestreamreaddirect,instances=1
{
  thread name=reader1,memsize=10m,instances=1
  {
    flowop read name=seqread1,filename=stream1,iosize=$iosize,directio
  }
  thread name=reader2,memsize=10m,instances=1
  {
    flowop read name=seqread2,filename=stream2,iosize=$iosize,directio
  }
  thread name=reader3,memsize=10m,instances=1
  {
    flowop read name=seqread3,filename=stream3,iosize=$iosize,directio
  }
  thread name=reader4,memsize=10m,instances=1
  {
    flowop read name=seqread4,filename=stream4,iosize=$iosize,directio
  }
  thread name=reader5,memsize=10m,instances=1
  {
    flowop read name=seqread5,filename=stream5,iosize=$iosize,directio
  }
}

echo "fivestreamreaddirect: five streams of $iosize sequential reads on $filesize files in $dir"

run $runtime
