# singlestreamwritedirect.f - one thread writes one file sequentially, with O_DIRECT
#
# Models a single sequential writer (a log, a recording, a download): one
# thread writes $iosize blocks one after another from offset 0 of a file
# preallocated to $filesize; past that size it grows the file for the
# rest of the run.
# Every I/O bypasses the page cache (O_DIRECT), so the device and the
# file system's direct path are measured, not memory.
#
# Scale it without editing:
#   flowbench run singlestreamwritedirect -D dir=/mnt/test -D filesize=1g -D iosize=256k
#
set $dir=/tmp
set $runtime=60
set $filesize=1m
set $iosize=1m

define file name=largefile1,path=$dir,size=$filesize,prealloc

define process name=seqwrite,instances=1
{
  thread name=seqwrite-thread,memsize=10m,instances=1
  {
    flowop write name=seqwrite1,filename=largefile1,iosize=$iosize,directio
  }
}

echo "singlestreamwritedirect: $iosize sequential writes to one file in $dir"

run $runtime
