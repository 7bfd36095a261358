# randomfileaccess.f - whole-file reads and appends on files picked at random, some hot
#
# Models applications that touch many files in no particular order
# (a content store, a home-directory server): $nthreads threads each open
# a file picked at random, append a random amount to it (mean
# $meanappendsize), close it, then open another random file and read it
# whole in $iosize chunks.  The file index is drawn from a gamma
# distribution (mean $nfiles / 4), so low-numbered files are hot; file
# sizes are gamma distributed around $filesize.  Both random variables
# use the older `define randvar` form.
#
# Scale it without editing:
#   flowbench run randomfileaccess -D dir=/mnt/test -D nfiles=1000 -D nthreads=4
#
set $dir=/tmp
set $runtime=60
set $nfiles=10000
set $meandirwidth=20
set $filesize=64k
set $iosize=1m
set $meanappendsize=8k
set $nthreads=8

define randvar name=$filesizes,type=gamma,min=4k,mean=$filesize,gamma=1500,round=4k
define randvar name=$pick,type=gamma,mean=$nfiles / 4,gamma=1000

define fileset name=store,path=$dir,size=$filesizes,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc

define process name=accessor,instances=1
{
  thread name=accessor,memsize=10m,instances=$nthreads
  {
    flowop openfile name=wr-open,filesetname=store,indexed=$pick,fd=1
    flowop appendfilerand name=wr-append,filesetname=store,fd=1,iosize=$meanappendsize
    flowop closefile name=wr-close,fd=1
    flowop openfile name=rd-open,filesetname=store,indexed=$pick,fd=1
    flowop readwholefile name=rd-read,filesetname=store,fd=1,iosize=$iosize
    flowop closefile name=rd-close,fd=1
  }
}

echo "randomfileaccess: $nthreads threads on $nfiles files (mean size $filesize) in $dir"

run $runtime
