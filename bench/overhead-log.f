# bench/overhead.f with per-op logs: what fio's logs cost an op
#
# The same thread of random 8 KiB reads on a cached 256 MiB file, writing
# fio's latency, bandwidth and IOPS logs ($dir/ovl_lat.1.log, ...) with
# offsets: a line per op in each ($avg=0), or a line per $avg ms.  Run by
# bench/oplog beside bench/overhead.f, and by bench/opinsns; see
# docs/benchmarks.md, "Per-op logs".
set $dir=/tmp
set $filesize=256m
set $iosize=8k
set $runtime=5
set $avg=0
define file name=overhead,path=$dir,size=$filesize,prealloc,reuse
define process name=reader,instances=1,latlog="$dir/ovl",bwlog="$dir/ovl",iopslog="$dir/ovl",logoffset,logavgmsec=$avg
{
  thread name=reader,memsize=$iosize,instances=1
  {
    flowop read name=rand-read1,filename=overhead,iosize=$iosize,random
  }
}
run $runtime
