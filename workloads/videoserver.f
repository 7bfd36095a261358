# videoserver.f - video on demand: rate-capped streaming while new videos arrive
#
# Models a video server.  $nthreads client threads each stream one video
# of a library of $nactive videos of $filesize each (the threads spread
# over the videos in turn), sequentially in $readiosize reads, starting
# again at the end; the `bwlimit` step holds the clients together to
# about $eventrate MiB/s (0: no cap).  One ingest thread replaces a video of a
# separate set of $npassive videos every $repintval seconds: it deletes
# one, then creates and writes a new one whole in $writeiosize writes.
# Both sets are preallocated in parallel; set $reusevideos=1 to keep them
# between runs (they are large).
#
# Scale it without editing:
#   flowbench run videoserver -D dir=/mnt/test -D filesize=64m -D nactive=8 -D npassive=16
#
set $dir=/tmp
set $runtime=60
set $eventrate=96
set $filesize=1g
set $nactive=32
set $npassive=192
set $nthreads=48
set $readiosize=256k
set $writeiosize=1m
set $repintval=10
set $reusevideos=0
set $activeset=activevids
set $passiveset=passivevids

eventgen rate=$eventrate

define fileset name=$activeset,path=$dir,size=$filesize,entries=$nactive,
	dirwidth=4,prealloc,paralloc,reuse=$reusevideos
define fileset name=$passiveset,path=$dir,size=$filesize,entries=$npassive,
	dirwidth=20,prealloc=50,paralloc,reuse=$reusevideos

define process name=vidserver,instances=1
{
  thread name=ingest,memsize=$writeiosize,instances=1
  {
    flowop deletefile name=ingest-drop,filesetname=$passiveset
    flowop createfile name=ingest-create,filesetname=$passiveset,fd=1
    flowop writewholefile name=ingest-write,filesetname=$passiveset,fd=1,
	iosize=$writeiosize
    flowop closefile name=ingest-close,fd=1
    flowop delay name=ingest-wait,value=$repintval
  }
  thread name=client,memsize=$readiosize,instances=$nthreads
  {
    flowop read name=stream-read,filesetname=$activeset,iosize=$readiosize
    flowop bwlimit name=stream-cap,target=stream-read
  }
}

echo "videoserver: $nthreads clients streaming $nactive x $filesize videos at $eventrate MiB/s, one new video every $repintval s, in $dir"

run $runtime
