# one thread opening a file of a 1,000-file tree, writing 4 KiB, closing it: an open that writes
#
# bench/ab's per-file workloads (docs/benchmarks.md): run on tmpfs
# (TMPDIR=/dev/shm).  Every open that writes costs flowbench one fstat,
# the check that the file is its own (docs/robustness.md).
set $dir=/tmp
set $runtime=3
define fileset name=openwrite,path=$dir,entries=1000,dirwidth=20,size=4k,prealloc
define process name=p
{
  thread name=t
  {
    flowop openfile name=open,filesetname=openwrite,fd=1
    flowop write name=write,fd=1,iosize=4k
    flowop closefile name=close,fd=1
  }
}
run $runtime
