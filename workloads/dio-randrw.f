# dio-randrw.f - parallel direct-I/O random reads and writes on one file
#
# Reproduces the ext4 "parallel DIO reads" regression measurement: fio
# with ioengine=psync, direct=1, rw=randrw, iodepth=1, numjobs=8 on one
# 20 GB file, run once per block size (4k, 16k, 64k, 512k, 1m) and
# reported as READ and WRITE KB/s, IOPS and mean latency.  Here each of
# $nthreads threads draws each I/O an O_DIRECT pread or pwrite of
# $iosize with odds $rwmixread in 100, as fio's rw=randrw does, at a
# random offset from fio's random map (every block once per pass, the
# reads and writes of a thread sharing one map).  The dio-rw.dio-read
# line gives the READ numbers (mb/s x 1024 = KB/s, ops/s = IOPS, ms/op =
# mean latency), dio-rw.dio-write the WRITE ones.
#
# The block sizes of the published table, three runs each:
#   for bs in 4k 16k 64k 512k 1m; do
#     flowbench run dio-randrw -D dir=/mnt/test -D iosize=$bs --repeat 3 \
#       --output dio-$bs.json
#   done
# docs/reproducing.md walks through it and the comparison of two kernels.
#
set $dir=/tmp
set $runtime=60
set $filesize=20g
set $iosize=4k
set $nthreads=8
set $rwmixread=50

define file name=diofile,path=$dir,size=$filesize,prealloc,reuse

define flowop name=dio-rw,choose
{
  flowop read name=dio-read,weight=$rwmixread,filename=diofile,iosize=$iosize,random,randommap,directio
  flowop write name=dio-write,weight=100 - $rwmixread,filename=diofile,iosize=$iosize,random,randommap,directio
}

define process name=dio-rw,instances=1
{
  thread name=dio-rw-thread,memsize=$iosize,instances=$nthreads
  {
    flowop dio-rw name=dio-rw
  }
}

echo "dio-randrw: $nthreads threads, O_DIRECT random $iosize reads ($rwmixread %) and writes on a $filesize file in $dir"

run $runtime
