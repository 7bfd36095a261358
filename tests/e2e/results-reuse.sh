#!/bin/sh
# results-reuse.sh - results you can reuse (issue 14), on a real run:
# `compare` reads the YAML file `run` writes (and agrees with the JSON
# one); every flowop's latency histogram is in the file, and each
# percentile recomputed from it is the file's own; compare has p50/p99/
# p99.9 tables and names a variable that differs; the text output gives
# latencies in automatic units (the breakdown keeps filebench's fixed
# ms) and the aggregate's interval never goes below 0.
. "$(dirname "$0")/lib.sh"
need python3

wl=$WORKLOADS/randomrw.f
run() {
	"$FLOWBENCH" run "$wl" -D dir="$tmp" -D nthreads=1 --cache keep --runtime 1 "$@"
}
run -D filesize=8m --repeat 3 --output "$tmp/a.yaml" --output "$tmp/a.json" \
	>"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "run --repeat 3 failed"; }

"$FLOWBENCH" compare "$tmp/a.yaml" "$tmp/a.json" >"$tmp/cmp" 2>"$tmp/err" ||
	fail "compare of the YAML file: $(cat "$tmp/err")"
grep -q '^rand-read1 .*+0\.0% *no (p=1)$' "$tmp/cmp" ||
	fail "the YAML and JSON files of one run differ: $(cat "$tmp/cmp")"
! grep -Eq 'warning|differs' "$tmp/cmp" || fail "warnings for the same run: $(cat "$tmp/cmp")"
ok "compare reads the YAML results file: the same numbers as the JSON one"

for p in p50 p99 p99.9; do
	grep -q "^$p latency " "$tmp/cmp" || fail "no $p table: $(cat "$tmp/cmp")"
done
grep -Eq '^rand-write1 +[0-9.]+(ns|µs|ms|s) ± [0-9.]+(ns|µs|ms|s) ' "$tmp/cmp" ||
	fail "percentile rows not in automatic units: $(grep '^rand-write1' "$tmp/cmp")"
ok "compare: p50, p99 and p99.9 tables, mean ± stdev over the runs"

python3 - "$tmp/a.json" <<'PY' || fail "the histograms do not reproduce the file's percentiles"
import json, math, sys
doc = json.load(open(sys.argv[1]))
def pct(hist, q, lo, hi):
    # docs/results-format.md: nearest rank, bucket midpoint clamped to [min, max]
    n = sum(b[2] for b in hist)
    rank = max(1, min(n, math.ceil(round(q / 100 * n, 9))))
    if rank == 1: return lo
    if rank == n: return hi
    seen = 0
    for a, b, c in hist:
        seen += c
        if seen >= rank:
            return min(max((a + b) / 2, lo), hi)
checked = 0
for run in doc["runs"]:
    for fo in run["flowops"]:
        lat = fo.get("latency_ns")
        if not lat:
            continue
        h = lat["histogram"]
        assert sum(b[2] for b in h) == fo["ops"], (fo["name"], fo["ops"])
        assert all(h[i][1] < h[i + 1][0] for i in range(len(h) - 1)), "not ascending"
        for q, v in lat["percentiles"].items():
            assert pct(h, float(q), lat["min"], lat["max"]) == v, (fo["name"], q, v)
            checked += 1
assert checked >= 3 * 2 * 6, checked
print("checked %d percentiles" % checked)
PY
ok "each flowop's histogram: counts add up to its ops, every percentile recomputes exactly"

# text: percentiles in automatic units, the breakdown unchanged
grep -Eq '^[0-9.]+: Latency percentiles +p50 ' "$tmp/out" || fail "no percentile header"
grep -E '^[0-9.]+: rand-read1 ' "$tmp/out" | head -1 |
	grep -Eq '^[0-9.]+: rand-read1( +[0-9.]+(ns|µs|ms|s)){6}$' ||
	fail "percentile line: $(grep -E '^[0-9.]+: rand-read1 ' "$tmp/out" | head -1)"
grep -Eq '^rand-read1 +[0-9]+ops +[0-9]+ops/s +[0-9.]+mb/s +[0-9.]+ms/op \[[0-9.]+ms - +[0-9.]+ms\]$' "$tmp/out" ||
	fail "the breakdown line changed: $(grep '^rand-read1 ' "$tmp/out")"
ok "percentile lines in automatic units; filebench's breakdown line as before"

# the aggregate: latency per op with a unit and 4 significant digits, no
# interval below 0 (in the text and in the file)
grep -Eq '^ +lat/op mean [0-9.]+(ns|µs|ms|s) sd ' "$tmp/out" ||
	fail "aggregate latency: $(grep -A3 Aggregate "$tmp/out")"
! grep -Eq 'ci95 \[-' "$tmp/out" || fail "a negative interval: $(grep 'ci95 \[-' "$tmp/out")"
python3 - "$tmp/a.json" <<'PY' || fail "a negative interval in the file"
import json, sys
agg = json.load(open(sys.argv[1]))["aggregate"]
for part in agg["flowops"] + [agg["summary"]]:
    for k in ("ops_per_s", "mb_per_s", "ms_per_op"):
        assert part[k]["ci95"][0] >= 0, (k, part[k])
PY
ok "aggregate: latency in automatic units, intervals never below 0"

run -D filesize=4m --output "$tmp/b.yaml" >"$tmp/out2" 2>&1 ||
	{ cat "$tmp/out2"; fail "the second run failed"; }
compare_tables "$tmp/a.json" "$tmp/b.yaml" >"$tmp/cmp2" 2>"$tmp/err" ||
	fail "compare a.json b.yaml: $(cat "$tmp/err")"
grep -q "^warning: $tmp/a.json and $tmp/b.yaml ran with different variables: filesize 8388608 vs 4194304$" "$tmp/cmp2" ||
	fail "no warning about filesize: $(head -8 "$tmp/cmp2")"
ok "compare warns that the two files ran with different variables, and names them"
