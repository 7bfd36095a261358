# makedirs.f - creates an empty tree of directories as fast as possible
#
# Models the directory-creation phase of a checkout or an installer:
# $nthreads threads create $ndirs empty leaf directories, spread over
# parent directories about $meandirwidth wide, none of which exist at the
# start.  When every leaf directory exists the run ends (quit mode
# firstdone); the result is a measure of mkdir and of directory growth.
#
# Scale it without editing:
#   flowbench run makedirs -D dir=/mnt/test -D ndirs=5000 -D nthreads=4
#
set $dir=/tmp
set $runtime=60
set $ndirs=10000
set $meandirwidth=100
set $nthreads=16

set mode quit firstdone

define fileset name=dirtree,path=$dir,leafdirs=$ndirs,dirwidth=$meandirwidth

define process name=mkdirs,instances=1
{
  thread name=mkdir,memsize=1m,instances=$nthreads
  {
    flowop makedir name=mkdir,filesetname=dirtree
  }
}

echo "makedirs: $nthreads threads creating $ndirs directories in $dir"

run $runtime
