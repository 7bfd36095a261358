# compflow-demo.f - demo of composite flowops: nested composites and local variables
#
# Shows how composite flowops (`define flowop`) group steps into a named,
# reusable operation, how one composite can use another, and how local
# variables ($name=value in the definition, overridden per use) let one
# definition serve several sizes.  The model is a small document archive:
#  - `readdoc` opens a document of the inbox, reads it whole in chunks of
#    its local $rdchunk, and closes it;
#  - `filedoc` uses `readdoc`, then creates an archive copy of the same
#    size (srcfd), writes it whole in chunks of $chunk, and appends a note
#    of random size (mean $grow);
#  - one thread files documents with small and with large chunks, another
#    browses the inbox and stats the archive, a third works on scratch
#    files.
# In the results each use of a composite has its own line (0 ops) and
# each of its steps a line named <use>.<step> (or <use>.<inner use>.<step>).
#
# Scale it without editing:
#   flowbench run compflow-demo -D dir=/mnt/test -D nfiles=200 -D filesize=64k
#
set $dir=/tmp
set $runtime=60
set $nfiles=1000
set $meandirwidth=20
set $filesize=32k
set $iosize=1m
set $meanappendsize=4k

define fileset name=inbox,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=80,paralloc
define fileset name=archive,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=80,paralloc
define fileset name=scratch,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=80,paralloc

define flowop name=readdoc,$rdchunk=64k
{
  flowop openfile name=open,filesetname=inbox,fd=1
  flowop readwholefile name=read,filesetname=inbox,fd=1,iosize=$rdchunk
  flowop closefile name=close,fd=1
}

define flowop name=filedoc,$chunk=64k,$grow=1k
{
  flowop readdoc name=fetch,$rdchunk=$chunk
  flowop createfile name=create,filesetname=archive,fd=2
  flowop writewholefile name=store,filesetname=archive,fd=2,srcfd=1,iosize=$chunk
  flowop appendfilerand name=note,filesetname=archive,fd=2,iosize=$grow
  flowop closefile name=close,fd=2
}

define process name=docs,instances=1
{
  thread name=filer,memsize=10m,instances=1
  {
    flowop filedoc name=file-small,iters=2,$chunk=8k,$grow=$meanappendsize
    flowop filedoc name=file-large,$chunk=$iosize,$grow=$meanappendsize
    flowop deletefile name=expire,filesetname=archive,iters=3
  }
  thread name=browser,memsize=10m,instances=1
  {
    flowop readdoc name=browse,iters=4,$rdchunk=$iosize
    flowop statfile name=archive-stat,filesetname=archive
  }
  thread name=scratcher,memsize=10m,instances=1
  {
    flowop createfile name=scratch-create,filesetname=scratch,fd=3
    flowop writewholefile name=scratch-write,filesetname=scratch,fd=3,iosize=$iosize
    flowop closefile name=scratch-close,fd=3
    flowop deletefile name=scratch-delete,filesetname=scratch,fd=3
  }
}

echo "compflow-demo: $nfiles documents of $filesize in $dir"

run $runtime
