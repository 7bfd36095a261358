# varmail.f - a mail server spool: small files created, appended, fsynced, read and deleted
#
# Models a /var/mail style spool where every delivery is a small file that
# must reach stable storage before it is acknowledged.  $nthreads threads
# share $nfiles messages of gamma-distributed size around $filesize in one
# flat directory ($meandirwidth is large on purpose).  Each thread deletes
# an old message, delivers a new one (create, append, fsync), updates
# another (append, fsync: a flag change), and reads a whole message as a
# mail reader would.  The fsyncs make it a test of the file system's
# journal and of small synchronous writes.
#
# Scale it without editing:
#   flowbench run varmail -D dir=/mnt/test -D nfiles=500 -D nthreads=4
#
set $dir=/tmp
set $runtime=60
set $nfiles=1000
set $meandirwidth=1000000
set $filesize=16k
set $nthreads=16
set $iosize=1m
set $meanappendsize=16k

set $msgsizes=cvar(type=cvar-gamma,parameters="mean:$filesize;gamma:1.5")

define fileset name=mailspool,path=$dir,size=$msgsizes,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=80

define process name=mailserver,instances=1
{
  thread name=mailer,memsize=10m,instances=$nthreads
  {
    flowop deletefile name=expunge,filesetname=mailspool
    flowop createfile name=deliver-create,filesetname=mailspool,fd=1
    flowop appendfilerand name=deliver-append,filesetname=mailspool,fd=1,iosize=$meanappendsize
    flowop fsync name=deliver-fsync,fd=1
    flowop closefile name=deliver-close,fd=1
    flowop openfile name=flag-open,filesetname=mailspool,fd=1
    flowop appendfilerand name=flag-append,filesetname=mailspool,fd=1,iosize=$meanappendsize
    flowop fsync name=flag-fsync,fd=1
    flowop closefile name=flag-close,fd=1
    flowop openfile name=fetch-open,filesetname=mailspool,fd=1
    flowop readwholefile name=fetch-read,filesetname=mailspool,fd=1,iosize=$iosize
    flowop closefile name=fetch-close,fd=1
  }
}

echo "varmail: $nthreads mailers on $nfiles messages (mean size $filesize) in $dir"

run $runtime
