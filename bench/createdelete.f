# one thread creating, closing and deleting files of a 1,000-file tree: the create and unlink paths
#
# bench/ab's per-file workloads (docs/benchmarks.md): run on tmpfs
# (TMPDIR=/dev/shm).  Half the files exist at the start.
set $dir=/tmp
set $runtime=3
define fileset name=createdelete,path=$dir,entries=1000,dirwidth=20,size=0,prealloc=50
define process name=p
{
  thread name=t
  {
    flowop createfile name=create,filesetname=createdelete,fd=1
    flowop closefile name=close,fd=1
    flowop deletefile name=delete,filesetname=createdelete
  }
}
run $runtime
