#!/bin/sh
# dupnames.sh - flowops that share a name (tpcso repeats one on purpose)
# are reported as one line whose counts are the sum of all of them, as
# filebench does, with a warning; the results file lists the line once.
. "$(dirname "$0")/lib.sh"

cat >"$tmp/dup.f" <<'WML'
define process name=p {
  thread name=t1 { flowop hog name=burn,value=10,iters=3 flowop delay name=nap,value=0.01 }
  thread name=t2 { flowop hog name=burn,value=10 flowop delay name=nap2,value=0.01 }
}
run 1
WML
"$FLOWBENCH" run "$tmp/dup.f" --output "$tmp/r.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "run with a repeated flowop name failed"; }
grep -q "warning: flowop name 'burn' is used again" "$tmp/err" ||
	{ cat "$tmp/err"; fail "no warning for the repeated name"; }
[ "$(grep -c '^burn ' "$tmp/out")" = 1 ] || fail "expected one 'burn' line: $(grep '^burn ' "$tmp/out")"
burn=$(breakdown_field "$tmp/out" burn ops)
nap=$(breakdown_field "$tmp/out" nap ops)
nap2=$(breakdown_field "$tmp/out" nap2 ops)
# t1 burns 3 times per nap, t2 once per nap2: the line holds both threads
[ "$burn" -ge $((3 * nap + nap2)) ] && [ "$burn" -le $((3 * nap + 3 + nap2 + 1)) ] ||
	fail "burn $burn is not 3 x $nap + $nap2"
ok "one 'burn' line holding both threads' ops ($burn = 3 x $nap + $nap2)"
python3 - "$tmp/r.json" <<'PY' || fail "results file lists the shared line more than once"
import json, sys
names = [f["name"] for f in json.load(open(sys.argv[1]))["runs"][0]["flowops"]]
sys.exit(0 if names.count("burn") == 1 else 1)
PY
ok "the results file lists the shared line once"
