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
"$FLOWBENCH" run --cache warm "$tmp/app.f" --output "$tmp/app.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the finish-limit run failed"; }
grep -q "^Comparability: these numbers follow flowbench's rules" "$tmp/out" ||
	{ cat "$tmp/out"; fail "no comparability note after a run where filebench's rules differ"; }
for rule in finish-limits implicit-opens appends whole-seconds; do
	grep -q "^  $rule (10\.[0-9]*)" "$tmp/out" || { cat "$tmp/out"; fail "the note lacks $rule"; }
done
for rule in rate-limits direct-io-buffers aiowrite-latency thread-memory; do
	! grep -q "^  $rule " "$tmp/out" || { cat "$tmp/out"; fail "the note has $rule, which did not apply"; }
done
grep -q "use --compat filebench" "$tmp/out" || fail "no advice to use --compat filebench"
grep -q "^  implicit-opens (10.3): 1 implicit open was counted" "$tmp/out" ||
	{ cat "$tmp/out"; fail "the implicit opens are not counted in the note"; }
# filebench's figure for a run that ended by itself: its ops over 1 s
ops=$(awk '/IO Summary:/ { print $4; exit }' "$tmp/out")
grep -q "would show about $ops ops/s for these $ops ops" "$tmp/out" ||
	{ cat "$tmp/out"; fail "whole-seconds does not give filebench's figure ($ops ops over 1 s)"; }
python3 - "$tmp/app.json" <<'EOF' || fail "the results file's comparability"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["compat"] == "flowbench", d["compat"]
rules = [n["rule"] for n in d["comparability"]]
assert rules == ["finish-limits", "implicit-opens", "appends", "whole-seconds"], rules
assert [n["emulated"] for n in d["comparability"]] == [True, True, True, False]
assert all(n["effect"] and n["section"].startswith("10.") for n in d["comparability"])
assert "not_emulated" not in d
EOF
ok "a finish limit on appends: the note names finish-limits, implicit-opens, appends, whole-seconds (with filebench's $ops ops/s), and so does the results file"

# ---- --compat filebench: whose rules, and what is not emulated ----------
rm -rf "$tmp/a" && mkdir "$tmp/a"
"$FLOWBENCH" run --cache warm --compat filebench "$tmp/app.f" --output "$tmp/fb.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the --compat filebench run failed"; }
grep -q "^Comparability: filebench's rules (--compat filebench)" "$tmp/out" ||
	{ cat "$tmp/out"; fail "--compat filebench: no note saying whose rules ran"; }
grep -q "^  whole-seconds (10.9) \[not emulated\]" "$tmp/out" ||
	{ cat "$tmp/out"; fail "--compat filebench: whole-seconds not marked as not emulated"; }
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
"$FLOWBENCH" run --cache warm "$tmp/quiet.f" --output "$tmp/quiet.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the quiet run failed"; }
grep -q 'IO Summary' "$tmp/out" || { cat "$tmp/out"; fail "the quiet run printed no report"; }
! grep -q "Comparability" "$tmp/out" || { cat "$tmp/out"; fail "a note where no rule applied"; }
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["compat"] == "flowbench" and d["comparability"] == [], d["comparability"]' "$tmp/quiet.json" ||
	fail "the quiet run's results file has notes"
ok "explicit opens, a timed run: no note, an empty comparability list"

# ---- compare warns across modes, not within one -------------------------
"$FLOWBENCH" compare "$tmp/app.json" "$tmp/fb.json" >"$tmp/cmp" 2>&1 || { cat "$tmp/cmp"; fail "compare failed"; }
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
