# mongo.f - a document store: appends, whole-file reads, dropping old chunk files
#
# Models the file traffic of a document store such as MongoDB with its
# storage in many files.  $nthreads threads each open a data file of the
# $nfiles-file collection, append a document of random size (mean
# $meanappendsize) and close it, open another and read it whole in
# $iosize chunks (a collection scan), then drop one file of a second set
# of $nchunks old chunk files.  When every old chunk has been dropped the
# run ends (quit mode firstdone), so $nchunks and the thread count bound
# how long it lasts; both sets are preallocated in parallel.
#
# Scale it without editing:
#   flowbench run mongo -D dir=/mnt/test -D nfiles=100 -D nchunks=5000 -D nthreads=4
#
set $dir=/tmp
set $runtime=60
set $nfiles=500
set $nchunks=100000
set $meandirwidth=100
set $filesize=256k
set $chunksize=16k
set $nthreads=16
set $iosize=1m
set $meanappendsize=8k

set mode quit firstdone

define fileset name=collection,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc,paralloc
define fileset name=oldchunks,path=$dir,size=$chunksize,entries=$nchunks,
	dirwidth=$meandirwidth,prealloc,paralloc

define process name=mongod,instances=1
{
  thread name=conn,memsize=10m,instances=$nthreads
  {
    flowop openfile name=doc-open,filesetname=collection,fd=1
    flowop appendfilerand name=doc-insert,filesetname=collection,fd=1,iosize=$meanappendsize
    flowop closefile name=doc-close,fd=1
    flowop openfile name=scan-open,filesetname=collection,fd=1
    flowop readwholefile name=scan-read,filesetname=collection,fd=1,iosize=$iosize
    flowop closefile name=scan-close,fd=1
    flowop deletefile name=chunk-drop,filesetname=oldchunks
  }
}

echo "mongo: $nthreads connections on $nfiles data files and $nchunks old chunks in $dir"

run $runtime
