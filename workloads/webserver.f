# webserver.f - a static web server: many threads read whole pages and append to a log
#
# Models an HTTP server handing out static content.  $nthreads threads
# each fetch ten pages in a row (open, read the whole file in $iosize
# chunks, close) from a read-only document tree of $nfiles files with
# gamma-distributed sizes around $filesize, then append one access-log
# record (mean $meanappendsize bytes) to a shared log file kept open in
# its own descriptor slot.  Reads dominate; the log append adds a steady
# trickle of small writes to a single file.
#
# Scale it without editing:
#   flowbench run webserver -D dir=/mnt/test -D nfiles=200 -D nthreads=10
#
set $dir=/tmp
set $runtime=60
set $nfiles=1000
set $meandirwidth=20
set $filesize=16k
set $nthreads=100
set $iosize=1m
set $meanappendsize=16k
set $logsize=1m

set $pagesizes=cvar(type=cvar-gamma,parameters="mean:$filesize;gamma:1.5")

define fileset name=docroot,path=$dir,size=$pagesizes,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=100,readonly
define fileset name=accesslog,path=$dir,size=$logsize,entries=1,
	dirwidth=$meandirwidth,prealloc=100

define process name=httpd,instances=1
{
  thread name=worker,memsize=10m,instances=$nthreads
  {
    flowop openfile name=page1-open,filesetname=docroot,fd=1
    flowop readwholefile name=page1-read,filesetname=docroot,fd=1,iosize=$iosize
    flowop closefile name=page1-close,fd=1
    flowop openfile name=page2-open,filesetname=docroot,fd=1
    flowop readwholefile name=page2-read,filesetname=docroot,fd=1,iosize=$iosize
    flowop closefile name=page2-close,fd=1
    flowop openfile name=page3-open,filesetname=docroot,fd=1
    flowop readwholefile name=page3-read,filesetname=docroot,fd=1,iosize=$iosize
    flowop closefile name=page3-close,fd=1
    flowop openfile name=page4-open,filesetname=docroot,fd=1
    flowop readwholefile name=page4-read,filesetname=docroot,fd=1,iosize=$iosize
    flowop closefile name=page4-close,fd=1
    flowop openfile name=page5-open,filesetname=docroot,fd=1
    flowop readwholefile name=page5-read,filesetname=docroot,fd=1,iosize=$iosize
    flowop closefile name=page5-close,fd=1
    flowop openfile name=page6-open,filesetname=docroot,fd=1
    flowop readwholefile name=page6-read,filesetname=docroot,fd=1,iosize=$iosize
    flowop closefile name=page6-close,fd=1
    flowop openfile name=page7-open,filesetname=docroot,fd=1
    flowop readwholefile name=page7-read,filesetname=docroot,fd=1,iosize=$iosize
    flowop closefile name=page7-close,fd=1
    flowop openfile name=page8-open,filesetname=docroot,fd=1
    flowop readwholefile name=page8-read,filesetname=docroot,fd=1,iosize=$iosize
    flowop closefile name=page8-close,fd=1
    flowop openfile name=page9-open,filesetname=docroot,fd=1
    flowop readwholefile name=page9-read,filesetname=docroot,fd=1,iosize=$iosize
    flowop closefile name=page9-close,fd=1
    flowop openfile name=page10-open,filesetname=docroot,fd=1
    flowop readwholefile name=page10-read,filesetname=docroot,fd=1,iosize=$iosize
    flowop closefile name=page10-close,fd=1
    flowop appendfilerand name=log-append,filesetname=accesslog,fd=2,iosize=$meanappendsize
  }
}

echo "webserver: $nthreads workers serving $nfiles pages (mean size $filesize) from $dir"

run $runtime
