# filemicro_delete.f - micro: deletes the files of a large tree as fast as possible
#
# $nfiles files of $filesize, in directories about $meandirwidth wide,
# are preallocated in parallel; $nthreads threads then delete them.  The
# run ends when a thread has done $count deletions or no file is left
# (quit mode firstdone).  An $eventrate above 0 caps the deletions at about that
# many per second (the `opslimit` step); with 0 it does nothing.
#
# Scale it without editing:
#   flowbench run filemicro_delete -D dir=/mnt/test -D nfiles=10000 -D nthreads=4
#
set $dir=/tmp
set $runtime=60
set $eventrate=0
set $nfiles=50000
set $meandirwidth=100
set $filesize=16k
set $count=50000
set $nthreads=16

set mode quit firstdone

eventgen rate=$eventrate

define fileset name=doomed,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc,paralloc

define process name=filedelete,instances=1
{
  thread name=deleter,memsize=1m,instances=$nthreads
  {
    flowop deletefile name=delete,filesetname=doomed
    flowop opslimit name=delete-cap,target=delete
    flowop finishoncount name=enough-deletes,target=delete,value=$count
  }
}

echo "filemicro_delete: $nthreads threads deleting $nfiles files of $filesize in $dir"

run $runtime
