#!/bin/sh
# mpi-phases.sh - flowbench-mpi refuses run phases (after=, startdelay=,
# runtime= of `define process`): their windows are not merged across
# ranks, so the run is refused once, on every rank, before any file.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"

cat >"$tmp/phases.f" <<W
define file name=fa,path=$tmp/files,size=1m,prealloc
define process name=a
{
  thread name=ta
  {
    flowop read name=ra,filename=fa,iosize=4k
  }
}
define process name=b,after=a,runtime=1
{
  thread name=tb
  {
    flowop read name=rb,filename=fa,iosize=4k
  }
}
run 2
W
rc=0
mpi "$FBM" run "$tmp/phases.f" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -ne 0 ] || fail "flowbench-mpi ran a workload with run phases: $(cat "$tmp/out")"
n=$(grep -c "process 'b': run phases (after=, startdelay=, runtime=) are not supported by flowbench-mpi" "$tmp/err" || true)
[ "$n" -eq 1 ] || fail "the refusal was said $n times, not once: $(cat "$tmp/err")"
grep -q "phases.f:9:8: process 'b'" "$tmp/err" || fail "the refusal has no location: $(cat "$tmp/err")"
[ ! -e "$tmp/files" ] || fail "files were prepared before the refusal"
ok "flowbench-mpi refuses run phases once, with the process's location, before any file"
