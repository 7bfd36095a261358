#!/bin/sh
# results.sh - --output and --repeat: a JSON and a YAML results file from
# the same 3 runs hold the same tree, with the op counts of the printed
# breakdowns, the aggregate and the workload's SHA-256; an interrupted
# session and a failed run still leave a valid file saying so; bad
# --output/--repeat values are usage errors.
. "$(dirname "$0")/lib.sh"
need python3
YAML2JSON=$(dirname "$FLOWBENCH")/tests/yaml2json
[ -x "$YAML2JSON" ] || fail "$YAML2JSON is missing (make check builds it)"

wl=$WORKLOADS/randomrw.f
"$FLOWBENCH" run "$wl" -D dir="$tmp" -D filesize=8m -D nthreads=1 --cache warm \
	--runtime 1 --repeat 3 --output "$tmp/a.json" --output "$tmp/a.yaml" --percentiles 50,99.9 \
	>"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "run --repeat 3 failed"; }
[ "$(grep -c 'Per-Operation Breakdown' "$tmp/out")" -eq 3 ] ||
	fail "expected 3 breakdowns: $(cat "$tmp/out")"
grep -q 'Aggregate over 3 runs' "$tmp/out" || fail "no aggregate block"
ok "--repeat 3 prints 3 breakdowns and the aggregate"

"$YAML2JSON" "$tmp/a.yaml" >"$tmp/y.json" || fail "a.yaml is not valid YAML"
# each run's op counts as printed: "name ops" lines in breakdown order
awk '$1 ~ /^rand-(read|write)1$/ && $2 ~ /ops$/ { sub(/ops$/, "", $2); print $1, $2 }' \
	"$tmp/out" >"$tmp/printed"
kclock=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null || true)
python3 - "$tmp/a.json" "$tmp/y.json" "$tmp/printed" "$(sha256sum "$wl" | cut -d' ' -f1)" "$kclock" <<'PY' ||
import json, sys
a = json.load(open(sys.argv[1]))
y = json.load(open(sys.argv[2]))
assert a == y, "the JSON and YAML files hold different trees"
assert a["format"] == "flowbench-results/1"
assert a["status"] == "ok" and a["error"] is None, (a["status"], a["error"])
assert a["workload"]["sha256"] == sys.argv[4], a["workload"]["sha256"]
assert a["workload"]["defines"] == {"dir": a["workload"]["defines"]["dir"],
                                   "filesize": "8m", "nthreads": "1"}
assert "--repeat" in a["command"]
# the warm fill of the one 8 MiB file, as the run logged it (how much of it
# stayed resident is not asserted: another run may drop the whole cache)
c = a["environment"]["cache"]
assert c["state"] == "warm" and c["method"].startswith("warm: 1 file, 8.0 MiB "), c
assert c["filled_by"] == "sequential 64 KiB reads after fdatasync and POSIX_FADV_DONTNEED", c
assert c["files"] == 1 and c["bytes"] == 8 << 20, c
assert 0 <= c["resident_bytes"] <= c["bytes"], c
assert abs(c["resident_pct"] - 100.0 * c["resident_bytes"] / c["bytes"]) < 1e-9, c
assert a["environment"]["cpus"] >= 1 and a["environment"]["filesystems"]
# the op clock, and how far the TSC strayed from CLOCK_MONOTONIC (NTP may
# slew that by 500 ppm; more is a TSC that changed rate)
clk = a["environment"]["clock"]
assert clk["kernel_source"] == (sys.argv[5] or None), clk
if clk["source"] == "tsc":
    assert clk["kernel_source"] == "tsc", clk
    assert isinstance(clk["drift_ppm"], float) and abs(clk["drift_ppm"]) < 1000, clk
else:
    assert clk["source"] == "monotonic" and clk["drift_ppm"] is None, clk
assert len(a["runs"]) == 3, len(a["runs"])
assert a["percentiles"] == [50, 99.9], a["percentiles"]
printed = [l.split() for l in open(sys.argv[3])]
assert len(printed) == 6, printed
for i, run in enumerate(a["runs"]):
    assert run["index"] == i + 1
    got = {f["name"]: f["ops"] for f in run["flowops"]}
    want = {n: int(c) for n, c in printed[2 * i: 2 * i + 2]}
    assert got == want, (i, got, want)
    s = run["summary"]
    assert s["ops"] >= sum(got.values()) > 0
    r = run["flowops"][0]
    lat = r["latency_ns"]
    assert r["name"] == "rand-read1" and sorted(lat["percentiles"]) == ["50", "99.9"]
    assert lat["min"] <= lat["percentiles"]["50"] <= lat["percentiles"]["99.9"] <= lat["max"]
    assert lat["stdev"] >= 0
agg = a["aggregate"]
assert agg["runs"] == 3
for f, name in zip(agg["flowops"], ["rand-read1", "rand-write1"]):
    assert f["name"] == name
    for k in ("ops_per_s", "mb_per_s", "ms_per_op"):
        st = f[k]
        vals = [run["flowops"][[x["name"] for x in run["flowops"]].index(name)][k] for run in a["runs"]]
        assert abs(st["mean"] - sum(vals) / 3) <= 1e-9 * max(1, st["mean"]), (k, st, vals)
        assert st["min"] == min(vals) and st["max"] == max(vals)
        lo, hi = st["ci95"]
        assert lo <= st["mean"] <= hi
PY
	fail "results files do not match the run"
ok "a.json and a.yaml: same tree, 3 runs, op counts as printed, aggregate, sha256"

second_running() {
	[ "$(grep -c 'Running\.\.\.' "$tmp/iout.out")" -ge 2 ] || ! alive "$1"
}
# an interrupted session: the runs completed before the interrupt, status
# "interrupted".  The SIGINT comes once the second run said Running; if
# on a loaded machine that run had ended first (it is not partial), the
# session is run again with runs 4 times longer.
for secs in 2 8 32; do
	bg_run iout "$wl" -D dir="$tmp" -D filesize=8m -D nthreads=1 --cache warm \
		--runtime $secs --repeat 3 --output "$tmp/i.json"
	wait_for 120 "the second run" second_running $pid ||
		{ kill -9 $pid; cat "$tmp/iout.out"; fail "the second run did not start"; }
	kill -INT $pid
	wait_end $pid 120
	rc=$st
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"]; sys.exit(0 if len(r) == 2 and r[1]["partial"] else 1)' \
		"$tmp/i.json" && break
	echo "the ${secs} s second run ended before the SIGINT: again, longer"
done
cp "$tmp/iout.out" "$tmp/iout"
[ $rc -eq 130 ] || fail "interrupted session exited $rc, not 130: $(cat "$tmp/iout")"
python3 - "$tmp/i.json" <<'PY' || fail "interrupted session: bad results file: $(cat "$tmp/i.json")"
import json, sys
a = json.load(open(sys.argv[1]))
assert a["status"] == "interrupted", a["status"]
assert a["error"] == "interrupted", a["error"]
assert len(a["runs"]) == 2, len(a["runs"])
assert a["runs"][0]["partial"] is False and a["runs"][1]["partial"] is True
assert "aggregate" not in a   # one complete run only
PY
ok "SIGINT during the second run: valid file, status interrupted, 1 run + 1 partial"

# a failed run: status "failed" with the error, no run
: >"$tmp/notadir"
rc=0
"$FLOWBENCH" run "$wl" -D dir="$tmp/notadir" -D filesize=1m -D nthreads=1 --cache warm \
	--runtime 1 --output "$tmp/f.yml" >"$tmp/fout" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "a run on a file as directory exited $rc: $(cat "$tmp/fout")"
"$YAML2JSON" "$tmp/f.yml" >"$tmp/f.json" || fail "f.yml is not valid YAML"
python3 - "$tmp/f.json" <<'PY' || fail "failed run: bad results file: $(cat "$tmp/f.yml")"
import json, sys
a = json.load(open(sys.argv[1]))
assert a["status"] == "failed" and a["error"], (a["status"], a["error"])
assert a["runs"] == []
PY
ok "a failed run still writes a valid file with status failed"

# the results file cannot be written: a clear error, status 1
rc=0
"$FLOWBENCH" run "$wl" -D dir="$tmp" -D filesize=8m -D nthreads=1 --cache warm \
	--runtime 0.2 --output "$tmp/missing/r.json" >"$tmp/wout" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "an unwritable results file gave status $rc"
grep -q "cannot write $tmp/missing/r.json" "$tmp/wout" || fail "no clear message: $(cat "$tmp/wout")"
ok "an unwritable results file: message and status 1"

for bad in "--output $tmp/r.txt" "--output $tmp/r" "--repeat 0" "--repeat x" "--repeat"; do
	rc=0
	# shellcheck disable=SC2086
	"$FLOWBENCH" run "$wl" $bad >"$tmp/uout" 2>&1 || rc=$?
	[ $rc -eq 2 ] || fail "'$bad' exited $rc, not 2 (usage)"
done
ok "bad --output names and --repeat values are usage errors"
