# bench/startup's default workload: fileserver's thread memory (issue 15)
#
# One process of $nthreads threads of memsize 10m, fileserver's shape;
# each op reads a cached 10 MiB file into the whole of its thread's
# memory, so a page left unpopulated at the release would fault in the
# timed window (bench/startup counts the faults).
set $dir=/tmp
set $runtime=1
set $nthreads=50
define file name=big,path=$dir,size=10m,prealloc,reuse
define process name=p
{
  thread name=t,memsize=10m,instances=$nthreads
  {
    flowop read name=rd,filename=big,iosize=10m
  }
}
run $runtime
