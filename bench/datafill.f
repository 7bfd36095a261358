# 4 KiB random writes on a cached 64 MiB file, with the written data chosen
# by -D data=pattern|random and -D refill=0|1, -D scramble=0|1: the cost of
# fio's data rules per write (docs/benchmarks.md, "Written data").
#
# Counted with bench/opinsns (instructions per op, one variant a run);
# bench/datafill3.f times the three side by side in one run.
set $dir=/tmp
set $filesize=64m
set $runtime=5
set $data=pattern
set $refill=0
set $scramble=0
define file name=datafill,path=$dir,size=$filesize,prealloc,reuse
define process name=writer,instances=1
{
  thread name=writer,memsize=4k,instances=1
  {
    flowop write name=write,filename=datafill,iosize=4k,random,data=$data,refill=$refill,scramble=$scramble
  }
}
run $runtime
