#!/bin/sh
# mpi-phases.sh - run phases (after=, startdelay=, runtime= of `define
# process`) under flowbench-mpi, 3 ranks: each phased process's window is
# merged over the ranks, [earliest start, latest end], and its flowops'
# rates divide by that window (text and results), the others' by the run's.
# Rank r's phase starts 0.5 r s after the first one's ends, and lasts
# 1 s: the merged window is about 2 s, in a run of 3 s.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"

mkdir "$tmp/files"
cat >"$tmp/phases.f" <<W
define file name=fa,path=$tmp/files,size=1m,prealloc
define process name=a
{
  thread name=ta
  {
    flowop write name=wa,filename=fa,iosize=4k
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
define process name=all
{
  thread name=tall
  {
    flowop delay name=napall,value=0.01
  }
}
run 3
W
mpi "$FBM" run "$tmp/phases.f" --cache warm --output "$tmp/r.json" >"$tmp/out" 2>"$tmp/err" ||
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
# every rank's own window is 1 s, rank r's starting 0.5 r s later: their union
assert abs(b["end_s"] - b["start_s"] - b["window_s"]) < 1e-6
assert 2.0 - 0.05 <= b["window_s"] <= 2.0 + skew + 0.05, b
# within the merged run: from the common start to the last rank's end
assert b["start_s"] >= 0 and b["end_s"] <= max(k["end_s"] for k in r["ranks"]) + 1e-6
assert fo["wa"]["ops"] == 600 and fo["rb"]["ops"] > 0
assert abs(fo["rb"]["ops_per_s"] - fo["rb"]["ops"] / b["window_s"]) <= 0.01 * fo["rb"]["ops_per_s"]
assert abs(fo["wa"]["ops_per_s"] - fo["wa"]["ops"] / r["elapsed_s"]) <= 0.01 * fo["wa"]["ops_per_s"]
PY
ok "3 ranks: the phase's window merged over the ranks, its rates over it, the others' over the run"
