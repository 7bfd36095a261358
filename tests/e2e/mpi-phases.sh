#!/bin/sh
# mpi-phases.sh - run phases (after=, startdelay=, runtime= of `define
# process`) under flowbench-mpi, 3 ranks: each phased process's window is
# merged over the ranks, [earliest start, latest end], and its flowops'
# rates divide by that window (text and results), the others' by the run's.
# Rank r's phase starts 0.5 r s after its `a` ends and lasts 1 s.
#
# No bound here is a fixed time: under load a rank's `a` ends late and its
# startdelay wakes late, so the merged window is 2 s only on an idle host
# (2.27 s was seen on a loaded one).  With `quit alldone` and nothing else
# running after it, a rank's run ends when its phase does, so each rank's
# measured end (ranks[].end_s) is its phase's end, and its phase's start
# is that end minus the exact runtime=1: the merged window is checked
# against these, the run's own measurements.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"

mkdir "$tmp/files"
cat >"$tmp/phases.f" <<W
set mode quit alldone
define file name=fa,path=$tmp/files,size=1m,prealloc
define process name=a
{
  thread name=ta
  {
    flowop write name=wa,filename=fa,iosize=4k
    flowop delay name=slow,value=0.002
    flowop finishoncount name=fin,value=200
  }
}
define process name=b,after=a,startdelay=\$rank * 0.5,runtime=1
{
  thread name=tb
  {
    flowop read name=rb,filename=fa,iosize=4k
    flowop delay name=nap,value=0.001
  }
}
run 30
W
mpi "$FBM" run "$tmp/phases.f" --cache keep --output "$tmp/r.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$tmp/out"; fail "flowbench-mpi failed with run phases"; }
grep -q "Phase b: [0-9.]* s - [0-9.]* s ([0-9.]* s)" "$tmp/out" ||
	fail "no 'Phase b' line: $(cat "$tmp/out")"
python3 - "$tmp/r.json" <<'PY' || fail "the merged window or the rates are wrong: $(cat "$tmp/out")"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
ph = r["phases"]
assert [p["process"] for p in ph] == ["b"], ph
b = ph[0]
skew = r["clients"]["start_skew_s"] + r["clients"]["clock_error_s"]
fo = {f["name"]: f for f in r["flowops"]}
print("b: %.4f s - %.4f s (%.4f s), start skew %.4f s; rb %d ops -> %.1f ops/s; wa %d ops in %.4f s -> %.1f ops/s" %
      (b["start_s"], b["end_s"], b["window_s"], skew, fo["rb"]["ops"], fo["rb"]["ops_per_s"],
       fo["wa"]["ops"], r["elapsed_s"], fo["wa"]["ops_per_s"]))
assert b["started"]
assert abs(b["end_s"] - b["start_s"] - b["window_s"]) < 1e-6
# each rank's run ended with its phase (alldone): its phase is [end - 1 s, end]
err = r["clients"]["clock_error_s"] + 1e-6
ends = [k["end_s"] for k in r["ranks"]]
assert len(ends) == 3, ends
assert abs(b["start_s"] - (min(ends) - 1.0)) <= err, (b, ends)
assert abs(b["end_s"] - max(ends)) <= err, (b, ends)
assert abs(b["window_s"] - (max(ends) - min(ends) + 1.0)) <= 2 * err, (b, ends)
# startdelay: rank r's phase began at least 0.5 r s after its release
# (lateness only adds to that)
for k in r["ranks"]:
    assert k["end_s"] - 1.0 >= k["start_s"] + 0.5 * k["rank"] - err, k
# within the merged run, and not the run's window: every rank ran `a`
# (200 writes, 2 ms apart) before its phase; the run's window counts from
# the earliest rank's start
first = min(k["start_s"] for k in r["ranks"])
assert b["start_s"] > first + 0.3 and b["end_s"] <= max(ends) + err, (b, first)
assert abs(r["elapsed_s"] - (max(ends) - first)) <= 2 * err, (r["elapsed_s"], ends, first)
assert fo["wa"]["ops"] == 600 and fo["rb"]["ops"] > 0
assert abs(fo["rb"]["ops_per_s"] - fo["rb"]["ops"] / b["window_s"]) <= 0.01 * fo["rb"]["ops_per_s"]
assert abs(fo["wa"]["ops_per_s"] - fo["wa"]["ops"] / r["elapsed_s"]) <= 0.01 * fo["wa"]["ops_per_s"]
PY
ok "3 ranks: the phase's window merged over the ranks, its rates over it, the others' over the run"
