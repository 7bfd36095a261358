# filemicro_createfiles.f - micro: creates files in one huge flat directory
#
# Half of $nfiles file slots exist at the start, all in one directory
# (the directory width is larger than the file count).  One thread
# creates new files of $filesize there, each written whole and closed,
# until it has created $count files or no slot is free; then the run
# ends (quit mode firstdone).  It measures file creation in a directory
# that is already large.
#
# Scale it without editing:
#   flowbench run filemicro_createfiles -D dir=/mnt/test -D nfiles=20000 -D count=5000
#
set $dir=/tmp
set $runtime=60
set $nfiles=100000
set $meandirwidth=1000000
set $filesize=16k
set $iosize=1m
set $count=50000
set $nthreads=1

set mode quit firstdone

define fileset name=flatdir,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc=50

define process name=filecreate,instances=1
{
  thread name=creator,memsize=10m,instances=$nthreads
  {
    flowop createfile name=create,filesetname=flatdir,fd=1
    flowop writewholefile name=fill,filesetname=flatdir,fd=1,iosize=$iosize
    flowop closefile name=close,fd=1
    flowop finishoncount name=enough-files,target=create,value=$count
  }
}

echo "filemicro_createfiles: creating $count files of $filesize next to $nfiles / 2 others in $dir"

run $runtime
