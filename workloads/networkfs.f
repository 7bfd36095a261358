# networkfs.f - a network file server for several clients, with parameterised requests
#
# Like netsfs, a request mix of an NFS-style server, but with $nclients
# client processes sharing one export tree of $nfiles files (computed as
# $nclients * $filesperclient), paced together at $eventrate requests per
# second.  The request types are composite flowops with
# local variables, so one definition serves several uses: `getfile`
# reads whole files in chunks of its local $chunk (small interactive
# reads and large bulk copies), `putfile` appends its local $grow bytes
# on average.  File sizes come from a gamma random
# variable defined with the older `define randvar` form; 70% of the files
# exist at the start.
#
# Scale it without editing:
#   flowbench run networkfs -D dir=/mnt/test -D nclients=2 -D filesperclient=500
#
set $dir=/tmp
set $runtime=60
set $eventrate=200
set $nclients=4
set $filesperclient=2500
set $nfiles=$nclients * $filesperclient
set $meandirwidth=20
set $filesize=32k
set $smalliosize=8k
set $bulkiosize=1m
set $meanappendsize=8k

eventgen rate=$eventrate

define randvar name=$homesizes,type=gamma,min=1k,mean=$filesize,gamma=1500,round=1k

define fileset name=homes,path=$dir,size=$homesizes,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=70

define flowop name=getfile,$chunk=64k
{
  flowop openfile name=open,filesetname=homes,fd=1
  flowop readwholefile name=read,filesetname=homes,fd=1,iosize=$chunk
  flowop closefile name=close,fd=1
}

define flowop name=putfile,$grow=8k
{
  flowop openfile name=open,filesetname=homes,fd=1
  flowop appendfilerand name=append,filesetname=homes,fd=1,iosize=$grow
  flowop closefile name=close,fd=1
}

define process name=client,instances=$nclients
{
  thread name=session,memsize=10m,instances=1
  {
    flowop statfile name=lookup,filesetname=homes,iters=4
    flowop getfile name=smallread,iters=3,$chunk=$smalliosize
    flowop getfile name=bulkread,iters=1,$chunk=$bulkiosize
    flowop putfile name=update,iters=2,$grow=$meanappendsize
    flowop createfile name=newfile,filesetname=homes,fd=2
    flowop writewholefile name=newfile-write,filesetname=homes,fd=2,iosize=$smalliosize
    flowop closefile name=newfile-close,fd=2
    flowop deletefile name=remove,filesetname=homes,fd=2
    flowop eventlimit name=pace
  }
}

echo "networkfs: $nclients clients, $nfiles files (mean size $filesize), $eventrate requests/s, in $dir"

run $runtime
