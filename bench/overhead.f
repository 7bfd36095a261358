# one thread of random 8 KiB reads on a cached 256 MiB file: measures per-op overhead
#
# Run by bench/overhead, alternately with bench/rawloop.c and fio on the same
# file; see docs/benchmarks.md.  The file is created (once) at
# $dir/overhead/00000001/00000001 and reused by later runs.
set $dir=/tmp
set $filesize=256m
set $iosize=8k
set $runtime=5
define file name=overhead,path=$dir,size=$filesize,prealloc,reuse
define process name=reader,instances=1
{
  thread name=reader,memsize=$iosize,instances=1
  {
    flowop read name=rand-read1,filename=overhead,iosize=$iosize,random
  }
}
run $runtime
