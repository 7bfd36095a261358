# bench/overhead.f with its read drawn from a choice of two identical random reads
#
# What a choice's draw costs per op (docs/benchmarks.md, "A choice's
# draw"): bench/opinsns flowbench FLOWBENCH DIR bench/choice.f, against
# bench/overhead.f.  The file is overhead.f's, at $dir/overhead/...
set $dir=/tmp
set $filesize=256m
set $iosize=8k
set $runtime=5
define file name=overhead,path=$dir,size=$filesize,prealloc,reuse
define flowop name=mix, choose
{
  flowop read name=a,filename=overhead,iosize=$iosize,random,weight=70
  flowop read name=b,filename=overhead,iosize=$iosize,random,weight=30
}
define process name=reader,instances=1
{
  thread name=reader,memsize=$iosize,instances=1
  {
    flowop mix name=m
  }
}
run $runtime
