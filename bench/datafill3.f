# The cost of fio's data rules per write, timed: three threads of one run,
# each 4 KiB random writes on its own cached 64 MiB file, one writing
# flowbench's pattern (data set once), one fio's default (data=random,
# scramble: each 512-byte block stamped per write), one refill (new random
# bytes per write).  The ratio of their ops/s is the cost, under the same
# load (docs/benchmarks.md, "Written data"); bench/datafill.f counts
# instructions per op instead.
set $dir=/tmp
set $filesize=64m
set $runtime=2
define file name=pattern,path=$dir,size=$filesize,prealloc,reuse
define file name=scramble,path=$dir,size=$filesize,prealloc,reuse
define file name=refill,path=$dir,size=$filesize,prealloc,reuse
define process name=writers,instances=1
{
  thread name=pattern,memsize=4k,instances=1
  {
    flowop write name=pattern,filename=pattern,iosize=4k,random
  }
  thread name=scramble,memsize=4k,instances=1
  {
    flowop write name=scramble,filename=scramble,iosize=4k,random,data=random,scramble
  }
  thread name=refill,memsize=4k,instances=1
  {
    flowop write name=refill,filename=refill,iosize=4k,random,data=random,refill
  }
}
run $runtime
