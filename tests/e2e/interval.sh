#!/bin/sh
# interval.sh - --interval records a series per flowop without pausing the
# workers: the intervals tile the measured window (t_s increasing, the
# last one ending at the run's elapsed time) and their ops add up to the
# run's ops exactly, in both results formats; each interval is logged.
. "$(dirname "$0")/lib.sh"
need python3

out=$tmp/out
"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp" \
	-D filesize=16m -D nthreads=2 --runtime 3 --interval 0.5 \
	--output "$tmp/r.json" --output "$tmp/r.yaml" >"$out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$out"; fail "run with --interval failed"; }

n=$(grep -c 'Interval [0-9]* (' "$out" || true)

# The cadence, bounded by the measured times of the rows.  A row is
# taken at the first point k x 0.5 s after the previous row, or later:
# never early, and late by what the master's wake-up took.  A stall of
# the machine (0.74 s was seen) makes one row late, maybe past the next
# point, which is then lost; a wrong cadence makes every row late.  So
# at most one row may be half a period late or more, and one point in
# all may be lost (also the last, to a tick late past the run's end).
# The last row ends at the run's measured end.  Its log has a line per row.
python3 - "$tmp/r.json" "$n" <<'PY' || fail "the JSON interval series is wrong"
import json, math, sys
r = json.load(open(sys.argv[1]))
assert r["interval_s"] == 0.5, r["interval_s"]
period = r["interval_s"]
run = r["runs"][0]
end = run["elapsed_s"]
for f in run["flowops"]:
    iv = f["intervals"]
    assert len(iv) == int(sys.argv[2]), (f["name"], len(iv), "rows,", sys.argv[2], "log lines")
    prev, late, lost = 0.0, [], 0
    for i in iv:
        due = (math.floor(prev / period + 1e-9) + 1) * period   # the next point
        if i is iv[-1]:
            lost += max(0, math.ceil((end - due) / period - 1e-9))   # points left
        else:
            assert i["t_s"] >= due - 1e-6, (f["name"], "a row before its point", i["t_s"], due)
            late.append(i["t_s"] - due)
            lost += math.floor((i["t_s"] - due) / period + 1e-9)
        prev = i["t_s"]
    assert sum(x >= period / 2 for x in late) <= 1 and lost <= 1, \
        (f["name"], "rows late by", [round(x, 3) for x in late], "points lost", lost)
    assert sum(i["ops"] for i in iv) == f["ops"], (f["name"], "ops do not add up")
    assert sum(i["bytes"] for i in iv) == f["bytes"], (f["name"], "bytes do not add up")
    ts = [i["t_s"] for i in iv]
    assert ts == sorted(ts) and len(set(ts)) == len(ts), ts
    assert abs(ts[-1] - run["elapsed_s"]) < 1e-6, (ts[-1], run["elapsed_s"])
    assert abs(sum(i["dt_s"] for i in iv) - run["elapsed_s"]) < 1e-6
    for i in iv:
        # (a last row a late tick left a moment long may hold nothing)
        assert i["ops"] > 0 or i["dt_s"] < period / 2, ("an empty interval in a busy run", i["dt_s"])
        assert abs(i["ops_per_s"] * i["dt_s"] - i["ops"]) <= 1e-6 * i["ops"] + 1e-9
        p = i["latency_ns"]["percentiles"]
        assert p["50"] <= p["99"] <= p["99.99"], p
        assert i["latency_ns"]["mean"] > 0
print("intervals add up:", [(f["name"], len(f["intervals"])) for f in run["flowops"]],
      "ends", [round(i["t_s"], 3) for i in run["flowops"][0]["intervals"]])
PY
ok "$n interval lines logged, one per row"
ok "JSON: the intervals tile the run and add up to its ops and bytes"

YAML2JSON=$(dirname "$FLOWBENCH")/tests/yaml2json
if [ -x "$YAML2JSON" ]; then
	"$YAML2JSON" "$tmp/r.yaml" >"$tmp/y.json" ||
		fail "the YAML results file does not parse"
	python3 - "$tmp/r.json" "$tmp/y.json" <<'PY' || fail "YAML and JSON series differ"
import json, sys
a = json.load(open(sys.argv[1]))["runs"][0]["flowops"]
b = json.load(open(sys.argv[2]))["runs"][0]["flowops"]
assert [f["intervals"] for f in a] == [f["intervals"] for f in b]
PY
	ok "YAML holds the same series"
fi

# without --interval: an empty series
"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp" \
	-D filesize=16m -D nthreads=1 --runtime 1 --output "$tmp/n.json" >"$out" 2>&1 ||
	fail "plain run failed"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert all(f["intervals"] == [] for f in r["runs"][0]["flowops"]); assert r["interval_s"] == 0' "$tmp/n.json" ||
	fail "a run without --interval has a series"
grep -q 'Interval [0-9]' "$out" && fail "interval lines without --interval"
ok "no --interval: no series, no interval lines"

# usage errors
for bad in 0 0.001 -1 abc; do
	st=0
	"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --interval "$bad" >"$out" 2>&1 || st=$?
	[ "$st" -eq 2 ] || fail "--interval $bad: exit status $st, not 2"
	grep -q -- "--interval needs a number of seconds" "$out" || fail "--interval $bad: no clear error"
done
ok "bad --interval values are usage errors"
