# tpcso.f - an order-entry database on 30 files: shadows, log writer, db writers
#
# Models a TPC-C-like order-entry database laid out as a database
# administrator would lay it out: 25 data files (system, undo, temp,
# users, tools, and five each of stock, orders, customer and index
# files), three redo logs and two control files, 30 `define file`s in all.
#  - $nshadows shadow processes read $iosize blocks at random from every
#    data file in turn (one descriptor slot per file), burn $usermode
#    byte stores of CPU per transaction, and post to the log writer and
#    the database writers;
#  - one log writer gathers commits and writes them to the current redo
#    log with asynchronous synchronous-on-disk writes, then updates a
#    block of each control file after every group commit;
#  - $ndbwriters database writers flush dirty blocks to every data file
#    with asynchronous writes.
# The files are kept between runs (reuse).  $directio=1 bypasses the page
# cache; $workingset limits the random offsets (0: whole file); an
# $eventrate above 0 paces the shadows to that many transactions/s.
#
# Scale it without editing:
#   flowbench run tpcso -D dir=/mnt/test -D datasize=64m -D nshadows=10
#
set $dir=/tmp
set $runtime=60
set $eventrate=0
set $datasize=1g
set $logsize=64m
set $ctlsize=8m
set $iosize=8k
set $logiosize=128k
set $nshadows=100
set $ndbwriters=4
set $usermode=100000
set $memperthread=1m
set $workingset=0
set $directio=0

eventgen rate=$eventrate

# control files, redo logs, then data files: all created once, kept
define file name=control1.ctl,path=$dir,size=$ctlsize,prealloc,reuse
define file name=control2.ctl,path=$dir,size=$ctlsize,prealloc,reuse
define file name=redo1.log,path=$dir,size=$logsize,prealloc,reuse
define file name=redo2.log,path=$dir,size=$logsize,prealloc,reuse
define file name=redo3.log,path=$dir,size=$logsize,prealloc,reuse
define file name=system.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=undo.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=temp.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=users.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=tools.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=stock1.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=stock2.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=stock3.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=stock4.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=stock5.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=orders1.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=orders2.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=orders3.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=orders4.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=orders5.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=cust1.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=cust2.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=cust3.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=cust4.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=cust5.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=index1.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=index2.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=index3.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=index4.dbf,path=$dir,size=$datasize,prealloc,reuse
define file name=index5.dbf,path=$dir,size=$datasize,prealloc,reuse

define process name=logwriter,instances=1
{
  thread name=lgwr,memsize=$memperthread,useism
  {
    flowop aiowrite name=lgwr-redo,filename=redo1.log,iosize=$logiosize,
	random,dsync,directio=$directio
    flowop aiowait name=lgwr-reap
    flowop semblock name=lgwr-commits,value=50,highwater=1000
    flowop write name=lgwr-ctl1,filename=control1.ctl,fd=1,iosize=$iosize,
	random,dsync
    flowop write name=lgwr-ctl2,filename=control2.ctl,fd=2,iosize=$iosize,
	random,dsync
  }
}

define process name=dbwriter,instances=$ndbwriters
{
  thread name=dbwr,memsize=$memperthread,useism
  {
    flowop aiowrite name=dbwr-system,filename=system.dbf,fd=1,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-undo,filename=undo.dbf,fd=2,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-temp,filename=temp.dbf,fd=3,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-users,filename=users.dbf,fd=4,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-tools,filename=tools.dbf,fd=5,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-stock1,filename=stock1.dbf,fd=6,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-stock2,filename=stock2.dbf,fd=7,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-stock3,filename=stock3.dbf,fd=8,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-stock4,filename=stock4.dbf,fd=9,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-stock5,filename=stock5.dbf,fd=10,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-orders1,filename=orders1.dbf,fd=11,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-orders2,filename=orders2.dbf,fd=12,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-orders3,filename=orders3.dbf,fd=13,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-orders4,filename=orders4.dbf,fd=14,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-orders5,filename=orders5.dbf,fd=15,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-cust1,filename=cust1.dbf,fd=16,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-cust2,filename=cust2.dbf,fd=17,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-cust3,filename=cust3.dbf,fd=18,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-cust4,filename=cust4.dbf,fd=19,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-cust5,filename=cust5.dbf,fd=20,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-index1,filename=index1.dbf,fd=21,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-index2,filename=index2.dbf,fd=22,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-index3,filename=index3.dbf,fd=23,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-index4,filename=index4.dbf,fd=24,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowrite name=dbwr-index5,filename=index5.dbf,fd=25,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop aiowait name=dbwr-reap
    flowop hog name=dbwr-cpu,value=10000
    flowop semblock name=dbwr-dirty,value=100,highwater=2000
  }
}

define process name=shadow,instances=$nshadows
{
  thread name=shadow,memsize=$memperthread,useism
  {
    flowop read name=sh-system,filename=system.dbf,fd=1,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-undo,filename=undo.dbf,fd=2,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-temp,filename=temp.dbf,fd=3,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-users,filename=users.dbf,fd=4,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-tools,filename=tools.dbf,fd=5,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-stock1,filename=stock1.dbf,fd=6,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-stock2,filename=stock2.dbf,fd=7,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-stock3,filename=stock3.dbf,fd=8,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-stock4,filename=stock4.dbf,fd=9,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-stock5,filename=stock5.dbf,fd=10,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-orders1,filename=orders1.dbf,fd=11,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-orders2,filename=orders2.dbf,fd=12,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-orders3,filename=orders3.dbf,fd=13,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-orders4,filename=orders4.dbf,fd=14,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-orders5,filename=orders5.dbf,fd=15,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-cust1,filename=cust1.dbf,fd=16,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-cust2,filename=cust2.dbf,fd=17,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-cust3,filename=cust3.dbf,fd=18,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-cust4,filename=cust4.dbf,fd=19,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-cust5,filename=cust5.dbf,fd=20,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-index1,filename=index1.dbf,fd=21,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-index2,filename=index2.dbf,fd=22,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-index3,filename=index3.dbf,fd=23,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-index4,filename=index4.dbf,fd=24,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop read name=sh-index5,filename=index5.dbf,fd=25,iosize=$iosize,
	workingset=$workingset,random,directio=$directio
    flowop hog name=sh-cpu,value=$usermode
    flowop sempost name=sh-commit,target=lgwr-commits,value=1,blocking
    flowop sempost name=sh-dirty,target=dbwr-dirty,value=1,blocking
    flowop eventlimit name=sh-pace
  }
}

echo "tpcso: $nshadows shadows, $ndbwriters db writers, 1 log writer on 30 files in $dir"

run $runtime
