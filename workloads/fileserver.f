# fileserver.f - a busy file server: whole-file create, append, read, stat and delete
#
# Models the mix a departmental file server sees from many clients at
# once.  $nthreads threads share one fileset of $nfiles files spread over
# directories about $meandirwidth entries wide, with gamma-distributed
# sizes around $filesize.  Each thread repeatedly creates a new file and
# writes it whole, appends a random amount (mean $meanappendsize) to
# another, reads a third from start to end in $iosize chunks, deletes one
# and stats one.  80% of the files exist before the timed phase, so
# creates and deletes both find work from the start.
#
# Scale it without editing:
#   flowbench run fileserver -D dir=/mnt/test -D nfiles=2000 -D nthreads=8
#
set $dir=/tmp
set $runtime=60
set $nfiles=10000
set $meandirwidth=20
set $filesize=128k
set $nthreads=50
set $iosize=1m
set $meanappendsize=16k

# every file draws its own size: gamma, shape 1.5, mean $filesize
set $filesizes=cvar(type=cvar-gamma,parameters="mean:$filesize;gamma:1.5")

define fileset name=srvfiles,path=$dir,size=$filesizes,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=80

define process name=fileserver,instances=1
{
  thread name=client,memsize=10m,instances=$nthreads
  {
    flowop createfile name=new-create,filesetname=srvfiles,fd=1
    flowop writewholefile name=new-write,filesetname=srvfiles,fd=1,srcfd=1,iosize=$iosize
    flowop closefile name=new-close,fd=1
    flowop openfile name=upd-open,filesetname=srvfiles,fd=1
    flowop appendfilerand name=upd-append,filesetname=srvfiles,fd=1,iosize=$meanappendsize
    flowop closefile name=upd-close,fd=1
    flowop openfile name=get-open,filesetname=srvfiles,fd=1
    flowop readwholefile name=get-read,filesetname=srvfiles,fd=1,iosize=$iosize
    flowop closefile name=get-close,fd=1
    flowop deletefile name=old-delete,filesetname=srvfiles
    flowop statfile name=any-stat,filesetname=srvfiles
  }
}

echo "fileserver: $nthreads clients on $nfiles files (mean size $filesize) in $dir"

run $runtime
