# removedirs.f - removes a tree of empty directories as fast as possible
#
# The reverse of makedirs.f: $ndirs empty leaf directories, in parents
# about $meandirwidth wide, all exist at the start; $nthreads threads
# remove them.  When none is left the run ends (quit mode firstdone); the
# result is a measure of rmdir and of directory shrinking.
#
# Scale it without editing:
#   flowbench run removedirs -D dir=/mnt/test -D ndirs=5000 -D nthreads=4
#
set $dir=/tmp
set $runtime=60
set $ndirs=10000
set $meandirwidth=100
set $nthreads=16

set mode quit firstdone

define fileset name=dirtree,path=$dir,leafdirs=$ndirs,dirwidth=$meandirwidth,
	prealloc

define process name=rmdirs,instances=1
{
  thread name=rmdir,memsize=1m,instances=$nthreads
  {
    flowop removedir name=rmdir,filesetname=dirtree
  }
}

echo "removedirs: $nthreads threads removing $ndirs directories in $dir"

run $runtime
