# createdelete-swing.f - swings a directory tree between full and empty, one batch at a time
#
# Models a spool or a scratch area that fills up and is then emptied
# (builds, batch jobs, caches flushed wholesale).  Two processes take
# turns, handing over with wakeup/block: the filler creates all $nfiles
# files of $filesize (a composite of create, write whole, close, run
# $nfiles times), wakes the drainer and sleeps; the drainer deletes all
# $nfiles files, wakes the filler and sleeps.  The tree has exact,
# non-random directories of $meandirwidth entries (dirgamma=0).  With
# $eventrate above 0 the filler also waits for one event per batch.
#
# Scale it without editing:
#   flowbench run createdelete-swing -D dir=/mnt/test -D nfiles=2000
#
set $dir=/tmp
set $runtime=60
set $eventrate=0
set $nfiles=10000
set $meandirwidth=100
set $filesize=4k
set $iosize=1m

eventgen rate=$eventrate

define fileset name=swingtree,
	path=$dir,
	size=$filesize,
	entries=$nfiles,
	dirwidth=$meandirwidth,
	dirgamma=0

define flowop name=makeone
{
  flowop createfile name=create,filesetname=swingtree,fd=1
  flowop writewholefile name=write,filesetname=swingtree,fd=1,
	iosize=$iosize
  flowop closefile name=close,fd=1
}

define process name=filler,instances=1
{
  thread name=filler,memsize=1m,instances=1
  {
    flowop eventlimit name=fill-pace
    flowop makeone name=fill,
	iters=$nfiles
    flowop wakeup name=fill-done,
	target=drain-wait
    flowop block name=fill-wait
  }
}

define process name=drainer,instances=1
{
  thread name=drainer,memsize=1m,instances=1
  {
    flowop block name=drain-wait
    flowop deletefile name=drain,filesetname=swingtree,
	iters=$nfiles
    flowop wakeup name=drain-done,
	target=fill-wait
  }
}

echo "createdelete-swing: batches of $nfiles files of $filesize in $dir"

run $runtime
