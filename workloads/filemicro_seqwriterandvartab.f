# filemicro_seqwriterandvartab.f - micro: appends with sizes from a table to files of a fileset
#
# One thread opens a file of a small fileset ($nfiles files of
# $filesize), appends one block whose size is drawn from a table (mostly
# small writes, some medium, a few large, in 1 KiB steps), and closes
# it, moving to the next file each time; after $count appends the run
# ends (quit mode firstdone).  Edit the table to model another
# application's write-size histogram.
#
# Scale it without editing:
#   flowbench run filemicro_seqwriterandvartab -D dir=/mnt/test -D count=4096
#
set $dir=/tmp
set $runtime=60
set $nfiles=10
set $meandirwidth=100
set $filesize=1m
set $count=65536

set mode quit firstdone

# {percent of appends, smallest size, largest size}
set $appendsizes=randvar(type=tabular,min=1k,round=1k,
	randtable={{60, 1k, 4k}, {25, 4k, 16k}, {10, 16k, 64k}, {5, 64k, 256k}})

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

echo "filemicro_seqwriterandvartab: $count table-sized appends to $nfiles files in $dir"

run $runtime
