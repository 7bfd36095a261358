#!/bin/sh
# comparability.sh - the note after a run saying where filebench's rules
# differed from flowbench's in that run (docs/differences.md section 10):
# printed only for the rules that applied (a finish limit fired, implicit
# opens happened, appends ran, the run ended by itself in a fraction of a
# second), silent when none did; the results file records the mode and
# the notes; --compat filebench says whose rules ran and what is not
# emulated; compare warns when two files were run in different modes.
. "$(dirname "$0")/lib.sh"
need python3

# ---- a finish limit on appends: four rules apply --------------------------
mkdir "$tmp/a"
cat >"$tmp/app.f" <<EOF
define file name=f1, path=$tmp/a, size=0, prealloc
define process name=p {
  thread name=t {
    flowop appendfile name=app, filename=f1, iosize=4k
    flowop finishoncount name=fin, value=1000
  }
}
run 10
EOF
"$FLOWBENCH" run --cache keep "$tmp/app.f" --output "$tmp/app.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the finish-limit run failed"; }
grep -q "^Comparability: these numbers follow flowbench's rules" "$tmp/out" ||
	{ cat "$tmp/out"; fail "no comparability note after a run where filebench's rules differ"; }
for rule in finish-limits implicit-opens appends; do
	grep -q "^  $rule (10\.[0-9]*)" "$tmp/out" || { cat "$tmp/out"; fail "the note lacks $rule"; }
done
# timeout mode: filebench's limit would end the run without results, so no rate
grep -q "^  finish-limits (10.1): .*after about 500 of these 1001 I/O ops .*without results" "$tmp/out" ||
	{ cat "$tmp/out"; fail "finish-limits does not say filebench stops at 500 appends without results"; }
for rule in rate-limits direct-io-buffers aiowrite-latency thread-memory whole-seconds; do
	! grep -q "^  $rule " "$tmp/out" || { cat "$tmp/out"; fail "the note has $rule, which did not apply"; }
done
grep -q "use --compat filebench" "$tmp/out" || fail "no advice to use --compat filebench"
grep -q "^  implicit-opens (10.3): 1 implicit open was counted" "$tmp/out" ||
	{ cat "$tmp/out"; fail "the implicit opens are not counted in the note"; }
python3 - "$tmp/app.json" <<'EOF' || fail "the results file's comparability"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["compat"] == "flowbench", d["compat"]
rules = [n["rule"] for n in d["comparability"]]
assert rules == ["finish-limits", "implicit-opens", "appends"], rules
assert [n["emulated"] for n in d["comparability"]] == [True, True, True]
assert "filebench_ops_per_s" not in d["comparability"][0], d["comparability"][0]
assert all(n["effect"] and n["section"].startswith("10.") for n in d["comparability"])
assert "not_emulated" not in d
EOF
ok "a finish limit on appends in timeout mode: the note names finish-limits (filebench: 500 appends, no results), implicit-opens, appends, and so does the results file"

# ---- filebench's limit would fire where flowbench's cannot ----------------
# filemicro_delete's shape: 8 threads delete 300 files with a finish limit
# of 400 each.  flowbench's counts each thread's own deletes (at most 300:
# it never fires, the run ends when the files run out); filebench's counts
# the process's deletes and finishoncount calls and stops at 200 deletes.
mkdir "$tmp/del"
cat >"$tmp/del.f" <<EOF
set mode quit firstdone
define fileset name=fs, path=$tmp/del, size=1k, entries=300, dirwidth=100, prealloc
define process name=p {
  thread name=t, instances=8 {
    flowop deletefile name=del, filesetname=fs
    flowop finishoncount name=fin, value=400
  }
}
run 30
EOF
"$FLOWBENCH" run --cache keep "$tmp/del.f" --output "$tmp/del.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the delete run failed"; }
grep -q "IO Summary:   300 ops" "$tmp/out" || { cat "$tmp/out"; fail "the delete run did not delete all 300 files"; }
grep -q "^  finish-limits (10.1): .*stopped this run after about 200 of these 300 I/O ops" "$tmp/out" ||
	{ cat "$tmp/out"; fail "no finish-limits note though filebench's limit would have stopped the run at 200 deletes"; }
python3 - "$tmp/del.json" <<'PY' || fail "the delete run's estimate in the results file"
import json, sys
d = json.load(open(sys.argv[1]))
notes = {n["rule"]: n for n in d["comparability"]}
assert notes["finish-limits"]["filebench_ops_per_s"] == 200, notes["finish-limits"]
assert notes["whole-seconds"]["filebench_ops_per_s"] == 200, notes["whole-seconds"]
PY
ok "a finish limit that never fired here: the note says filebench stops at 200 of 300 deletes, 200 ops/s over 1 s"

# ---- whole seconds are rounded up, as filebench's run loop does ----------
# 3 creates 0.7 s apart in a fileset of 2 entries: the third finds no file
# at about 2.1 s and ends the run; filebench's loop has slept 3 s by then.
mkdir "$tmp/slow"
cat >"$tmp/slow.f" <<EOF
set mode quit firstdone
define fileset name=fs, path=$tmp/slow, size=0, entries=2, dirwidth=10
define process name=p {
  thread name=t {
    flowop delay name=wait, value=0.7
    flowop createfile name=make, filesetname=fs, fd=1
    flowop closefile name=close, fd=1
  }
}
run 30
EOF
"$FLOWBENCH" run --cache keep "$tmp/slow.f" --output "$tmp/slow.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the slow run failed"; }
took=$(awk '/Run took/ { print $4; exit }' "$tmp/out")
python3 - "$tmp/slow.json" "$took" <<'PY' || { cat "$tmp/out"; fail "the slow run's whole seconds"; }
import json, math, sys
d = json.load(open(sys.argv[1]))
took = float(sys.argv[2])
notes = {n["rule"]: n for n in d["comparability"]}
whole = max(1, math.ceil(took))
ops = d["runs"][0]["summary"]["ops"]
assert ops == 4, ops
assert took > 1, took
assert abs(notes["whole-seconds"]["filebench_ops_per_s"] - ops / whole) < 1e-9, (notes, whole, ops)
assert f"divides by {whole} s and would show about {ops / whole:.1f} ops/s" in notes["whole-seconds"]["effect"], notes
PY
ok "a run that ended by itself after $took s: filebench divides by the whole seconds above it"

# ---- --compat filebench: whose rules, and what is not emulated ----------
rm -rf "$tmp/a" && mkdir "$tmp/a"
"$FLOWBENCH" run --cache keep --compat filebench "$tmp/app.f" --output "$tmp/fb.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the --compat filebench run failed"; }
grep -q "^Comparability: filebench's rules (--compat filebench)" "$tmp/out" ||
	{ cat "$tmp/out"; fail "--compat filebench: no note saying whose rules ran"; }
grep -q "^  finish-limits (10.1): .*in timeout mode filebench would have ended it without results (not emulated)" "$tmp/out" ||
	{ cat "$tmp/out"; fail "--compat filebench: the timeout-mode limit does not say filebench gives no results"; }
grep -q "^  not emulated (filebench defects that only corrupt its measurement): .*32-bit op counters" "$tmp/out" ||
	{ cat "$tmp/out"; fail "--compat filebench: the defects not emulated are not listed"; }
! grep -q "use --compat filebench" "$tmp/out" || fail "--compat filebench advises itself"
python3 - "$tmp/fb.json" <<'EOF' || fail "the --compat results file"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["compat"] == "filebench", d["compat"]
assert "32-bit op counters" in d["not_emulated"], d["not_emulated"]
assert "finish-limits" in [n["rule"] for n in d["comparability"]]
EOF
ok "--compat filebench: the note and the results file say filebench's rules ran and list what is not emulated"

# the delete run under filebench's limit: it stops itself at about 200
# deletes, and filebench would divide by 1 s (not emulated)
rm -rf "$tmp/del" && mkdir "$tmp/del"
"$FLOWBENCH" run --cache keep --compat filebench "$tmp/del.f" --output "$tmp/delfb.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the --compat filebench delete run failed"; }
grep -q "^  whole-seconds (10.9) \[not emulated\]" "$tmp/out" ||
	{ cat "$tmp/out"; fail "--compat filebench: whole-seconds not marked as not emulated"; }
python3 - "$tmp/delfb.json" <<'PY' || { cat "$tmp/out"; fail "--compat filebench: the delete run's estimate"; }
import json, sys
d = json.load(open(sys.argv[1]))
ops = d["runs"][0]["summary"]["ops"]
assert 190 <= ops <= 215, ops
notes = {n["rule"]: n for n in d["comparability"]}
assert notes["whole-seconds"]["filebench_ops_per_s"] == ops, (notes, ops)
PY
ok "--compat filebench: a delete run stopped by filebench's limit at about 200: whole-seconds [not emulated] gives its ops over 1 s"

# ---- silent when no rule applies ----------------------------------------
mkdir "$tmp/b"
cat >"$tmp/quiet.f" <<EOF
define file name=f2, path=$tmp/b, size=64k, prealloc
define process name=p {
  thread name=t {
    flowop openfile name=open, filename=f2, fd=1
    flowop read name=rd, filename=f2, fd=1, iosize=4k
    flowop closefile name=close, fd=1
  }
}
run 1
EOF
"$FLOWBENCH" run --cache keep "$tmp/quiet.f" --output "$tmp/quiet.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the quiet run failed"; }
grep -q 'IO Summary' "$tmp/out" || { cat "$tmp/out"; fail "the quiet run printed no report"; }
! grep -q "Comparability" "$tmp/out" || { cat "$tmp/out"; fail "a note where no rule applied"; }
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["compat"] == "flowbench" and d["comparability"] == [], d["comparability"]' "$tmp/quiet.json" ||
	fail "the quiet run's results file has notes"
ok "explicit opens, a timed run: no note, an empty comparability list"

# ---- compare warns across modes, not within one -------------------------
compare_tables "$tmp/app.json" "$tmp/fb.json" >"$tmp/cmp" 2>&1 || { cat "$tmp/cmp"; fail "compare failed"; }
grep -q "^warning: .*app.json ran by flowbench's rules and .*fb.json by filebench's (--compat)" "$tmp/cmp" ||
	{ cat "$tmp/cmp"; fail "compare does not warn about different modes"; }
"$FLOWBENCH" compare "$tmp/app.json" "$tmp/app.json" >"$tmp/cmp" 2>&1 || fail "compare of one mode failed"
! grep -q "warning: .*rules" "$tmp/cmp" || { cat "$tmp/cmp"; fail "compare warns within one mode"; }
ok "compare warns when A and B ran in different modes, and only then"

# ---- report: each file's rules in its files table -----------------------
"$FLOWBENCH" report "$tmp/app.json" "$tmp/fb.json" -o "$tmp/r.html" >"$tmp/rep" 2>&1 ||
	{ cat "$tmp/rep"; fail "report failed"; }
grep -q 'compat</th><td>flowbench</td><td>filebench</td>' "$tmp/r.html" ||
	fail "the report does not show each file's rules"
ok "report: the files table shows flowbench's and filebench's rules side by side"
