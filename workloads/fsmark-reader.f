# fsmark-reader.f - fsync-heavy file creation next to a streaming reader
#
# Reproduces the "fsync starvation" measurement: an fs_mark-like thread
# creates files of $filesize (64 KiB), writing each whole and fsyncing
# it before closing it, while another thread reads one large file
# sequentially through the page cache.  The published comparison reports
# fs_mark's files/s and the reader's KB/s: here the `create` line's ops/s
# is files/s (one file per loop) and the `stream` line's mb/s x 1024 is
# the reader's KB/s.  A scheduler or file system that starves fsync shows
# as low files/s and a long fsync max latency; one that starves the
# reader, as low mb/s.
#
# The run ends when every one of the $nfiles files has been created
# (quit mode firstdone: the reader never ends by itself) or at $runtime.
#
# Scale it without editing:
#   flowbench run fsmark-reader -D dir=/mnt/test -D nfiles=20000 -D readsize=16g
#
set $dir=/tmp
set $runtime=60
set $nfiles=50000
set $filesize=64k
set $readsize=8g
set $readiosize=1m

set mode quit firstdone

define fileset name=fsmark,path=$dir,size=$filesize,entries=$nfiles,dirwidth=1000
define file name=bigfile,path=$dir,size=$readsize,prealloc,reuse

define process name=fsmark,instances=1
{
  thread name=fsmark-thread,memsize=$filesize,instances=1
  {
    flowop createfile name=create,filesetname=fsmark,fd=1
    flowop writewholefile name=write,filesetname=fsmark,fd=1,iosize=$filesize
    flowop fsync name=fsync,fd=1
    flowop closefile name=close,fd=1
  }
}

define process name=reader,instances=1
{
  thread name=reader-thread,memsize=$readiosize,instances=1
  {
    flowop read name=stream,filename=bigfile,iosize=$readiosize
  }
}

echo "fsmark-reader: creating $nfiles files of $filesize with fsync while reading a $readsize file in $dir"

run $runtime
