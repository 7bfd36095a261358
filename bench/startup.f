# bench/startup's default workload: fileserver's thread memory (issue 15)
#
# One process of $nthreads threads of memsize 10m, fileserver's shape,
# each reading a cached 10 MiB file in 1 MiB chunks (fileserver's
# readwholefile).  -D reads=1 ends the run at the first read: the CPU
# time is then the start-up's and the teardown's.
set $dir=/tmp
set $runtime=1
set $nthreads=50
set $reads=1000000000
define file name=big,path=$dir,size=10m,prealloc,reuse
define process name=p
{
  thread name=t,memsize=10m,instances=$nthreads
  {
    flowop read name=rd,filename=big,iosize=1m
    flowop finishoncount name=fin,target=rd,value=$reads
  }
}
run $runtime
