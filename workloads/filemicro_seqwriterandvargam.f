# filemicro_seqwriterandvargam.f - micro: appends of gamma-distributed sizes to files of a fileset
#
# One thread opens a file of a small fileset ($nfiles files of
# $filesize), appends one block whose size is drawn from a gamma
# distribution (mean $meaniosize, rounded to 1 KiB, at least 1 KiB), and
# closes it, moving to the next file each time; after $count appends the
# run ends (quit mode firstdone).  Varying write sizes stress the
# allocator differently from fixed ones.
#
# Scale it without editing:
#   flowbench run filemicro_seqwriterandvargam -D dir=/mnt/test -D count=4096
#
set $dir=/tmp
set $runtime=60
set $nfiles=10
set $meandirwidth=100
set $filesize=1m
set $meaniosize=16k
set $count=65536

set mode quit firstdone

set $appendsizes=randvar(type=gamma,min=1k,mean=$meaniosize,gamma=1500,round=1k)

define fileset name=logs,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc

define process name=fileseqwriterand,instances=1
{
  thread name=appender,memsize=10m,instances=1
  {
    flowop openfile name=log-open,filesetname=logs,fd=1
    flowop appendfile name=log-append,filesetname=logs,fd=1,iosize=$appendsizes
    flowop closefile name=log-close,fd=1
    flowop finishoncount name=enough-appends,target=log-append,value=$count
  }
}

echo "filemicro_seqwriterandvargam: $count gamma-sized appends (mean $meaniosize) to $nfiles files in $dir"

run $runtime
