# dio-smallblock.f - small direct I/Os through a 2 MB buffer: page locking
#
# Reproduces the direct-I/O page-locking measurement: 20,000 single-page
# O_DIRECT I/Os each of sequential read, sequential write, random read
# and random write, through a 2 MB buffer that is either hugepage-backed
# or ordinary anonymous memory; then the same at 512 B, 1k, 2k and 4k,
# and 4k misaligned by 2k; average and stdev of 25 runs.  The thread
# does $count I/Os of each kind in turn (the seq-read, seq-write,
# rand-read and rand-write lines: their ms/op is the mean latency of
# that kind), then the run ends (finishoncount: $nops = 4 x $count).
#
#   $memtype   anon (default), thp or hugetlb: the pages of the 2 MB
#              buffer (hugetlb needs reserved pages: sysctl vm.nr_hugepages)
#   $iosize    512, 1k, 2k, 4k (the device must accept it with O_DIRECT:
#              flowbench checks and names both numbers if not)
#   $misalign  0, or 2k: every offset moved 2 KiB off its natural alignment
#
# The published series, 25 runs each:
#   for m in anon hugetlb; do
#     flowbench run dio-smallblock -D dir=/mnt/test -D memtype=$m \
#       --repeat 25 --output page-$m.json
#   done
#   for bs in 512 1k 2k 4k; do
#     flowbench run dio-smallblock -D dir=/mnt/test -D iosize=$bs --repeat 25 \
#       --output bs-$bs.json
#   done
#   flowbench run dio-smallblock -D dir=/mnt/test -D misalign=2k --repeat 25 \
#     --output bs-4k-misaligned.json
#
set $dir=/tmp
set $runtime=600
set $filesize=100m
set $iosize=4k
set $misalign=0
set $memtype=anon
set $count=20000
set $nops=80000

define file name=smallfile,path=$dir,size=$filesize,prealloc,reuse

define process name=dio-small,instances=1
{
  thread name=dio-small-thread,memsize=2m,memtype=$memtype,instances=1
  {
    flowop read name=seq-read,filename=smallfile,iosize=$iosize,directio,misalign=$misalign,iters=$count
    flowop write name=seq-write,filename=smallfile,iosize=$iosize,directio,misalign=$misalign,iters=$count
    flowop read name=rand-read,filename=smallfile,iosize=$iosize,random,directio,misalign=$misalign,iters=$count
    flowop write name=rand-write,filename=smallfile,iosize=$iosize,random,directio,misalign=$misalign,iters=$count
    flowop finishoncount name=done,value=$nops
  }
}

echo "dio-smallblock: $count O_DIRECT $iosize I/Os of each kind (misalign $misalign) through 2 MB of $memtype memory, on $dir"

run $runtime
