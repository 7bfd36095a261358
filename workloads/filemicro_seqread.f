# filemicro_seqread.f - micro: sequential reads of one file, over and over
#
# One thread reads one preallocated $filesize file from start to end in
# $iosize reads, and starts again at the beginning, for $runtime
# seconds.  The file is kept between runs (reuse).  With --cache warm
# and a file smaller than memory this measures reads from the page
# cache; with the default cold cache the first pass comes from the
# device.
#
# Scale it without editing:
#   flowbench run filemicro_seqread -D dir=/mnt/test -D filesize=256m -D iosize=64k
#
set $dir=/tmp
set $runtime=60
set $filesize=1g
set $iosize=128k

define file name=bigfile,path=$dir,size=$filesize,prealloc,reuse

define process name=fileseqread,instances=1
{
  thread name=reader,memsize=10m,instances=1
  {
    flowop read name=seq-read,filename=bigfile,iosize=$iosize
  }
}

echo "filemicro_seqread: $iosize sequential reads of a $filesize file in $dir"

run $runtime
