# netsfs.f - a network file server's paced request mix on realistically sized files
#
# Models the operations an NFS-style server executes on behalf of its
# clients, one request at a time at $eventrate requests per second:
# attribute lookups, whole-file reads, appends, creation of new files and
# their removal.  File sizes follow a table of typical home-directory
# sizes (most files a few KiB, a few over a MiB); which file a request
# touches is skewed by a gamma-distributed index, so some files are hot.
# Three composite flowops group the steps of a read, an append and a
# create; $readiters, $appenditers and $createiters set the mix.  60% of
# the $nfiles files exist at the start.
#
# Scale it without editing:
#   flowbench run netsfs -D dir=/mnt/test -D nfiles=1000 -D eventrate=500
#
set $dir=/tmp
set $runtime=60
set $eventrate=100
set $nfiles=10000
set $meandirwidth=20
set $iosize=64k
set $meanappendsize=8k
set $readiters=4
set $appenditers=2
set $createiters=1

eventgen rate=$eventrate

# sizes in bytes: {percent of files, smallest, largest}
set $nfssizes=randvar(type=tabular,min=1k,round=1k,
	randtable={{32, 1k, 2k}, {22, 2k, 4k}, {14, 4k, 8k}, {10, 8k, 16k},
		   {8, 16k, 32k}, {6, 32k, 64k}, {4, 64k, 256k},
		   {2, 256k, 512k}, {1, 512k, 1m}, {1, 1m, 2m}})

# hot files: the index is gamma distributed, most requests hit low indexes
set $hotfile=randvar(type=gamma,mean=$nfiles / 8,gamma=1500)

define fileset name=exports,path=$dir,size=$nfssizes,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=60

define flowop name=nfsread
{
  flowop openfile name=open,filesetname=exports,indexed=$hotfile,fd=1
  flowop readwholefile name=read,filesetname=exports,fd=1,iosize=$iosize
  flowop closefile name=close,fd=1
}

define flowop name=nfsappend
{
  flowop openfile name=open,filesetname=exports,indexed=$hotfile,fd=1
  flowop appendfilerand name=append,filesetname=exports,fd=1,iosize=$meanappendsize
  flowop closefile name=close,fd=1
}

define flowop name=nfscreate
{
  flowop createfile name=create,filesetname=exports,fd=2
  flowop writewholefile name=write,filesetname=exports,fd=2,iosize=$iosize
  flowop closefile name=close,fd=2
}

define process name=nfsd,instances=1
{
  thread name=nfsd,memsize=10m,instances=1
  {
    flowop statfile name=getattr,filesetname=exports,indexed=$hotfile
    flowop nfsread name=reads,iters=$readiters
    flowop nfsappend name=appends,iters=$appenditers
    flowop nfscreate name=creates,iters=$createiters
    flowop deletefile name=remove,filesetname=exports,fd=2
    flowop eventlimit name=pace
  }
}

echo "netsfs: $eventrate requests/s on $nfiles files in $dir"

run $runtime
