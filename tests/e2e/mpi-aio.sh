#!/bin/sh
# mpi-aio.sh - an asynchronous flowop under flowbench-mpi (3 ranks under
# a real mpirun): the merged run has its "async" block, every client's
# requests in it (its latency buckets and IO depths count the merged
# ops, the sum of the ranks' ops), and fio's lines in rank 0's report.
# Skipped where flowbench-mpi was not built or mpirun is missing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"
need python3

mkdir "$tmp/files" "$tmp/w"
cat >"$tmp/aio.f" <<F
define file name=big,path=\$dir,size=8m,prealloc,reuse
define process name=p {
  thread name=t {
    flowop aioread name=rd,filename=big,iosize=4k,random,ioengine=libaio,iodepth=4,iodepth_batch_submit=1,iodepth_batch_complete_max=1
  }
}
run 2
F
# shellcheck disable=SC2086
timeout 300 "$MPIRUN" $mpi_flags -np 3 sh -c 'eval "r=\$$1"; shift; mkdir -p "$0/r$r" && cd "$0/r$r" && exec "$@"' \
	"$tmp/w" "$rank_var" "$FBM" run "$tmp/aio.f" --cache keep \
	-D dir="$tmp/files" --output x.json >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$tmp/out"; fail "flowbench-mpi of an aioread failed or hung"; }
python3 - "$tmp/w/r0/x.json" <<'PY' || { cat "$tmp/out"; fail "the merged async block"; }
import json, sys
a = json.load(open(sys.argv[1]))
run = a["runs"][0]
f = [x for x in run["flowops"] if x["name"] == "rd"][0]
ranks = [r for r in run["ranks"]]
per_rank = [[x for x in r["flowops"] if x["name"] == "rd"][0]["ops"] for r in ranks]
assert len(per_rank) == 3 and all(n > 0 for n in per_rank), per_rank
assert f["ops"] == sum(per_rank), (f["ops"], per_rank)
s = f["async"]
assert s["ioengine"] == "libaio" and s["iodepth"] == 4, s["ioengine"]
n = s["counts"]
assert sum(n["latency_buckets"]) == f["ops"], (sum(n["latency_buckets"]), f["ops"])
# every request submitted alone: the calls of one request are all of them
assert n["iodepth_submit"][1] == sum(n["iodepth_submit"]) >= f["ops"], n["iodepth_submit"]
assert abs(s["lat_ns"]["mean"] - s["slat_ns"]["mean"] - s["clat_ns"]["mean"]) <= 1.0
print("ok: merged async block of %d ops (ranks %s)" % (f["ops"], per_rank))
PY
grep -q "Async I/O of rd (ioengine=libaio, iodepth=4): " "$tmp/out" ||
	{ cat "$tmp/out"; fail "no fio lines in rank 0's report"; }
ok "flowbench-mpi: the async block and fio's lines cover every rank's requests"
