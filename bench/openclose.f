# one thread opening and closing the files of a 1,000-file tree: the open path
#
# bench/ab's per-file workloads (docs/benchmarks.md): run on tmpfs
# (TMPDIR=/dev/shm) so that the file system's own cost does not hide
# flowbench's.
set $dir=/tmp
set $runtime=3
define fileset name=openclose,path=$dir,entries=1000,dirwidth=20,size=0,prealloc
define process name=p
{
  thread name=t
  {
    flowop openfile name=open,filesetname=openclose,fd=1
    flowop closefile name=close,fd=1
  }
}
run $runtime
