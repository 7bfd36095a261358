# webproxy.f - a caching web proxy: objects replaced, then read back several times
#
# Models a proxy cache such as a squid spool.  $nthreads threads share a
# flat cache of $nfiles objects with gamma-distributed sizes around
# $filesize.  Each thread evicts one object, stores a new one (create,
# append a random amount with mean $meanappendsize, close), then serves
# five hits (open, read whole, close).  The `opslimit` step caps the
# proxy at about $eventrate operations per second when $eventrate > 0;
# with the default 0 there is no cap and the step records nothing.
#
# Scale it without editing:
#   flowbench run webproxy -D dir=/mnt/test -D nfiles=1000 -D nthreads=10
#
set $dir=/tmp
set $runtime=60
set $nfiles=10000
set $meandirwidth=1000000
set $filesize=16k
set $nthreads=100
set $iosize=1m
set $meanappendsize=16k
set $eventrate=0

eventgen rate=$eventrate

set $objsizes=cvar(type=cvar-gamma,parameters="mean:$filesize;gamma:1.5")

define fileset name=cachedir,path=$dir,size=$objsizes,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=80

define process name=proxy,instances=1
{
  thread name=proxyworker,memsize=10m,instances=$nthreads
  {
    flowop deletefile name=evict,filesetname=cachedir
    flowop createfile name=store-create,filesetname=cachedir,fd=1
    flowop appendfilerand name=store-write,filesetname=cachedir,fd=1,iosize=$meanappendsize
    flowop closefile name=store-close,fd=1
    flowop openfile name=hit1-open,filesetname=cachedir,fd=1
    flowop readwholefile name=hit1-read,filesetname=cachedir,fd=1,iosize=$iosize
    flowop closefile name=hit1-close,fd=1
    flowop openfile name=hit2-open,filesetname=cachedir,fd=1
    flowop readwholefile name=hit2-read,filesetname=cachedir,fd=1,iosize=$iosize
    flowop closefile name=hit2-close,fd=1
    flowop openfile name=hit3-open,filesetname=cachedir,fd=1
    flowop readwholefile name=hit3-read,filesetname=cachedir,fd=1,iosize=$iosize
    flowop closefile name=hit3-close,fd=1
    flowop openfile name=hit4-open,filesetname=cachedir,fd=1
    flowop readwholefile name=hit4-read,filesetname=cachedir,fd=1,iosize=$iosize
    flowop closefile name=hit4-close,fd=1
    flowop openfile name=hit5-open,filesetname=cachedir,fd=1
    flowop readwholefile name=hit5-read,filesetname=cachedir,fd=1,iosize=$iosize
    flowop closefile name=hit5-close,fd=1
    flowop opslimit name=throttle
  }
}

echo "webproxy: $nthreads threads on a cache of $nfiles objects (mean size $filesize) in $dir"

run $runtime
