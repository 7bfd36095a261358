# ratelimcopyfiles.f - copies a tree of files at a capped number of files per second
#
# The copy of copyfiles.f with a throttle, as a background backup or
# migration job would run: an `iopslimit` step tied to the destination
# write lets the $nthreads copier threads together write at most about
# $eventrate files per second.  Each copy reads a source file whole and
# writes a new destination file of the same size; the run ends when the
# destination tree is complete (quit mode firstdone) or at $runtime.
#
# Scale it without editing:
#   flowbench run ratelimcopyfiles -D dir=/mnt/test -D nfiles=2000 -D eventrate=500
#
set $dir=/tmp
set $runtime=60
set $eventrate=100
set $nfiles=1000
set $meandirwidth=20
set $filesize=16k
set $iosize=1m
set $nthreads=1

set mode quit firstdone

eventgen rate=$eventrate

define fileset name=srctree,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=100,paralloc
define fileset name=dsttree,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=0

define process name=copier,instances=1
{
  thread name=cp,memsize=10m,instances=$nthreads
  {
    flowop openfile name=src-open,filesetname=srctree,fd=1
    flowop readwholefile name=src-read,filesetname=srctree,fd=1,iosize=$iosize
    flowop createfile name=dst-create,filesetname=dsttree,fd=2
    flowop writewholefile name=dst-write,filesetname=dsttree,fd=2,srcfd=1,iosize=$iosize
    flowop closefile name=src-close,fd=1
    flowop closefile name=dst-close,fd=2
    flowop iopslimit name=copy-throttle,target=dst-write
  }
}

echo "ratelimcopyfiles: copying $nfiles files of $filesize in $dir at most $eventrate files/s"

run $runtime
