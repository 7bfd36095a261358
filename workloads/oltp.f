# oltp.f - a database's transactions: random reads, async writes, a log writer
#
# Models the I/O of an OLTP database engine with three kinds of processes
# that pace one another through semaphores:
#  - $nshadows shadow processes run transactions: a random $iosize read of
#    the data files, some CPU work ($usermode byte stores), then they post
#    one unit to the log writer and to the database writers (blocking if
#    those fall more than their high-water mark behind);
#  - one log writer collects a group of commits and writes them to the
#    redo log with asynchronous, synchronous-on-disk writes;
#  - $ndbwriters database writers flush batches of dirty $iosize blocks to
#    random places in the data files with asynchronous writes.
# The $nfiles data files of $filesize and the log are kept between runs
# (reuse).  Set $directio to 1 to bypass the page cache, $workingset to
# confine the random offsets, and $eventrate above 0 to pace the
# shadows at that many transactions per second in total.
#
# Scale it without editing:
#   flowbench run oltp -D dir=/mnt/test -D filesize=100m -D nshadows=20
#
set $dir=/tmp
set $runtime=60
set $eventrate=0
set $nfiles=10
set $filesize=1g
set $logfilesize=10m
set $iosize=2k
set $logiosize=256k
set $nshadows=200
set $ndbwriters=10
set $usermode=200000
set $memperthread=1m
set $workingset=0
set $directio=0

eventgen rate=$eventrate

define fileset name=datafiles,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=1024,prealloc=100,reuse
define fileset name=redolog,path=$dir,size=$logfilesize,entries=1,
	dirwidth=1024,prealloc=100,reuse

define process name=logwriter,instances=1
{
  thread name=lgwr,memsize=$memperthread,useism
  {
    flowop aiowrite name=lg-write,filesetname=redolog,iosize=$logiosize,
	random,dsync,directio=$directio
    flowop aiowait name=lg-reap
    flowop semblock name=lg-commits,value=100,highwater=1000
  }
}

define process name=dbwriter,instances=$ndbwriters
{
  thread name=dbwr,memsize=$memperthread,useism
  {
    flowop aiowrite name=dbw-write,filesetname=datafiles,iosize=$iosize,
	workingset=$workingset,random,iters=10,opennext,dsync,
	directio=$directio
    flowop hog name=dbw-cpu,value=10000
    flowop semblock name=dbw-dirty,value=100,highwater=2000
    flowop aiowait name=dbw-reap
  }
}

define process name=shadow,instances=$nshadows
{
  thread name=shadow,memsize=$memperthread,useism
  {
    flowop read name=sh-read,filesetname=datafiles,iosize=$iosize,
	workingset=$workingset,random,opennext,directio=$directio
    flowop hog name=sh-cpu,value=$usermode
    flowop sempost name=sh-commit,target=lg-commits,value=1,blocking
    flowop sempost name=sh-dirty,target=dbw-dirty,value=1,blocking
    flowop eventlimit name=sh-pace
  }
}

echo "oltp: $nshadows shadows, $ndbwriters db writers, 1 log writer on $nfiles x $filesize files in $dir"

run $runtime
