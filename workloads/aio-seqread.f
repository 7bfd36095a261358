# aio-seqread.f - sequential direct reads at queue depth 16 on io_uring
#
# Reproduces the ext4 dioread_nolock measurement: fio with
# ioengine=libaio, iodepth=16, direct=1, rw=read, with 1, 8 and 24 jobs
# and bs 4k and 1m, averaged over 3 runs.  All $nthreads threads read
# the one $filesize file sequentially from its start, each with its own
# offset (as fio's numjobs clones of one job sharing a filename do), and
# each keeps $iodepth O_DIRECT reads of $iosize in flight (aioread
# iodepth: io_uring, every request timed from its own submission to its
# completion).  The seqread line's mb/s is fio's READ bandwidth, ops/s
# its IOPS, ms/op its mean completion latency; the requests in flight
# when the run ends are reported as "Not counted".
#
# The published matrix, three runs each:
#   for n in 1 8 24; do for bs in 4k 1m; do
#     flowbench run aio-seqread -D dir=/mnt/test -D nthreads=$n -D iosize=$bs \
#       --repeat 3 --output aio-$n-$bs.json
#   done; done
#
set $dir=/tmp
set $runtime=60
set $filesize=20g
set $iosize=4k
set $nthreads=1
set $iodepth=16

define file name=aiofile,path=$dir,size=$filesize,prealloc,reuse

define process name=aio-reader,instances=1
{
  thread name=aio-reader-thread,instances=$nthreads
  {
    flowop aioread name=seqread,filename=aiofile,iosize=$iosize,directio,iodepth=$iodepth
  }
}

echo "aio-seqread: $nthreads threads, $iodepth O_DIRECT $iosize reads in flight each, on a $filesize file in $dir"

run $runtime
