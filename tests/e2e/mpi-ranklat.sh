#!/bin/sh
# mpi-ranklat.sh - each rank's own latency in a flowbench-mpi results
# file (3 ranks under a real mpirun): every rank's flowop carries its
# histogram and percentiles in the merged flowop's form; the merge is
# checked from the file alone (the ranks' buckets added up are the merged
# histogram, bucket for bucket, and the merged percentiles recomputed
# from them by the documented rule are the file's); each rank's own
# percentiles follow from its own histogram; rank 2, which reads 1 MiB
# where the others read 8 KiB ($rank in the workload), is the only
# outlier, first in the "Slowest clients" table with the file's p99.
# The Clients line shows the window's error, the merge's own time apart
# from the wait, and the start's lead.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"
need python3

cat >"$tmp/slow.f" <<'EOF'
define file name=f,path=$dir,size=8m,prealloc
define process name=p {
  thread name=t {
    flowop read name=rd,filename=f,iosize=8k + $rank * ($rank - 1) * 512k,random
    flowop write name=wr,filename=f,iosize=4k,random
  }
}
run 2
EOF
mkdir "$tmp/d"
# shellcheck disable=SC2086
timeout 300 "$MPIRUN" $mpi_flags -np 3 "$FBM" run "$tmp/slow.f" --cache warm -D dir="$tmp/d" \
	--output "$tmp/r.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$tmp/out"; fail "flowbench-mpi failed"; }

python3 - "$tmp/r.json" >"$tmp/expect" <<'PY' || { cat "$tmp/out"; fail "the ranks' latencies in the file are wrong"; }
import json, math, sys
a = json.load(open(sys.argv[1]))
run = a["runs"][0]
ranks = run["ranks"]
assert len(ranks) == 3, len(ranks)

def pct(hist, q, lo, hi):
    # docs/results-format.md: nearest rank, bucket midpoint, clamped
    n = sum(c for _, _, c in hist)
    r = max(1, math.ceil(round(q / 100 * n, 9)))
    if r == 1:
        return lo
    if r == n:
        return hi
    seen = 0
    for l, u, c in hist:
        seen += c
        if seen >= r:
            return min(max((l + u) / 2, lo), hi)

checked = 0
for j, fo in enumerate(run["flowops"]):
    merged = {}
    for k in ranks:
        f = k["flowops"][j]
        assert f["name"] == fo["name"]
        lat = f["latency_ns"]
        h = lat["histogram"]
        assert sum(c for _, _, c in h) == f["ops"], (k["rank"], fo["name"])
        for key, v in lat["percentiles"].items():
            want = pct(h, float(key), lat["min"], lat["max"])
            assert abs(v - want) < 1e-6, (k["rank"], fo["name"], key, v, want)
            checked += 1
        for l, u, c in h:
            merged[(l, u)] = merged.get((l, u), 0) + c
    mh = [[l, u, c] for (l, u), c in sorted(merged.items())]
    assert mh == fo["latency_ns"]["histogram"], (fo["name"], "merged histogram != the ranks' sum")
    lo = min(k["flowops"][j]["latency_ns"]["min"] for k in ranks)
    hi = max(k["flowops"][j]["latency_ns"]["max"] for k in ranks)
    assert lo == fo["latency_ns"]["min"] and hi == fo["latency_ns"]["max"], fo["name"]
    for key, v in fo["latency_ns"]["percentiles"].items():
        want = pct(mh, float(key), lo, hi)
        assert abs(v - want) < 1e-6, (fo["name"], key, v, want)
        checked += 1
out = [k["rank"] for k in ranks if k["outlier"]]
assert out == [2], ("outliers", out, [(k["p99_ns"], k["ops_per_s"]) for k in ranks])
assert "outlier_why" in ranks[2] and "outlier_why" not in ranks[0], ranks[2]
c = run["clients"]
assert 0 <= c["wait_s"] and 0 <= c["merge_s"], c
# the window: the run's 2 s, less at most the latest rank's lateness
tol = c["clock_error_s"] + 1e-4
assert -c["late_s"] - tol <= c["window_error_s"] <= tol, c
assert abs(c["window_error_s"] - (c["window_s"] - 2)) < 1e-9, c
# the lead: 50 ms at least, 4 spreads when that is more, plus 20 us a rank
assert abs(c["lead_s"] - (max(0.05, 4 * c["spread_s"]) + 3 * 20e-6)) < 1e-6, c
top = max(ranks, key=lambda k: k["p99_ns"])
print(top["rank"], "%.3f" % (top["p99_ns"] / 1e6), checked)
PY
read -r top p99 checked <"$tmp/expect"
ok "the merged histograms are the ranks' summed bucket for bucket, $checked percentiles recomputed from the file equal it; rank 2 alone is an outlier"

sed -n '/^Slowest clients/,/^[^ ]/p' "$tmp/out" >"$tmp/slowest"
grep -q '^Slowest clients (by p99 over all flowops; 1 outlier):' "$tmp/slowest" ||
	{ cat "$tmp/out"; fail "no Slowest clients table naming one outlier"; }
first=$(sed -n '3p' "$tmp/slowest")
echo "$first" | grep -Eq "^ +$top +$(hostname | cut -c1-24) +[0-9]+ +[0-9.]+ +$p99  p99 " ||
	{ cat "$tmp/slowest"; fail "the table's first row is not rank $top with p99 $p99 ms, flagged"; }
[ "$(grep -c '  -$' "$tmp/slowest")" = 2 ] || { cat "$tmp/slowest"; fail "ranks 0 and 1 not listed unflagged"; }
ok "Slowest clients: rank $top first, p99 $p99 ms as in the file, flagged; the others listed"

grep -Eq '^Clients: 3, .*window [0-9.]+ s \([-+][0-9.]+ ms from the run.s 2 s\), merged in [0-9.]+ ms after [0-9.]+ ms waiting for the last rank$' "$tmp/out" ||
	{ grep '^Clients' "$tmp/out"; fail "the Clients line lacks the window's error or the wait"; }
grep -Eq '^Start: lead [0-9.]+ ms \(barrier spread [0-9.]+ ms\), latest rank [0-9.]+ ms late$' "$tmp/out" ||
	{ cat "$tmp/out"; fail "no Start line"; }
ok "$(grep '^Clients' "$tmp/out" | sed 's/.*window/window/')"
