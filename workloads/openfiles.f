# openfiles.f - opens and closes files of a large tree, nothing else
#
# Models the path-lookup and open/close cost that dominates tools which
# touch many files without reading much (build systems checking
# timestamps, indexers): $nthreads threads open and close files of a
# preallocated tree of $nfiles files (size $filesize, 0 by default) in
# directories about $meandirwidth wide.
#
# Scale it without editing:
#   flowbench run openfiles -D dir=/mnt/test -D nfiles=10000 -D nthreads=4
#
set $dir=/tmp
set $runtime=60
set $nfiles=50000
set $meandirwidth=100
set $filesize=0
set $nthreads=16

define fileset name=opentree,path=$dir,size=$filesize,entries=$nfiles,
	dirwidth=$meandirwidth,prealloc

define process name=opener,instances=1
{
  thread name=opener,memsize=1m,instances=$nthreads
  {
    flowop openfile name=open,filesetname=opentree,fd=1
    flowop closefile name=close,fd=1
  }
}

echo "openfiles: $nthreads threads opening files of a $nfiles-file tree in $dir"

run $runtime
