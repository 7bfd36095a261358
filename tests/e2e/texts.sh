#!/bin/sh
# texts.sh - small texts say what is true (issue 23): --help's --force
# gives the current deletion rule (what flowbench created, listed in its
# marker, never a foreign file because of its name); a count of one takes
# the singular ("1 file"); the hard-link warning of `report -o` reads
# "the new report"; WML numbers take the command line's exponents (1e9
# is 1000000000, 1.5e0 given to a whole-number attribute is an error).
. "$(dirname "$0")/lib.sh"

"$FLOWBENCH" --help >"$tmp/help" 2>&1 || true
tr -s ' \n' ' ' <"$tmp/help" >"$tmp/help1"
grep -q "only what flowbench creates there (listed in its marker) is ever removed or reused" "$tmp/help1" ||
	fail "--help does not give --force's rule: $(grep -A5 -- '--force' "$tmp/help")"
! grep -q "8-digit names are ever removed" "$tmp/help1" ||
	fail "--help still gives --force's old rule (8-digit names)"
ok "--help gives --force's current rule"

cat >"$tmp/one.f" <<W
define fileset name=one,path=$tmp,size=4k,entries=1,dirwidth=1,prealloc
define process name=p {
  thread name=t {
    flowop statfile name=s,filesetname=one
  }
}
run 1
W
"$FLOWBENCH" run "$tmp/one.f" --cache keep >"$tmp/one.out" 2>&1 ||
	{ cat "$tmp/one.out"; fail "a run of one file failed"; }
grep -q "one populated: 1 file, " "$tmp/one.out" || fail "not '1 file': $(grep populated "$tmp/one.out")"
grep -q "Pre-allocated 1 of 1 file (" "$tmp/one.out" || fail "not '1 of 1 file': $(grep Pre-allocated "$tmp/one.out")"
! grep -Eq "(^|[^0-9])1 (files|ops|requests|entries)\b" "$tmp/one.out" ||
	fail "a plural after 1: $(grep -E '(^|[^0-9])1 (files|ops|requests|entries)' "$tmp/one.out")"
ok "a count of one is singular: '1 file', '1 of 1 file'"

mkdir "$tmp/hl"
echo "old page" >"$tmp/hl/a.html"
ln "$tmp/hl/a.html" "$tmp/hl/b.html"
"$FLOWBENCH" report "$TOP_SRCDIR/tests/data/single.json" -o "$tmp/hl/a.html" >"$tmp/rep.out" 2>&1 ||
	{ cat "$tmp/rep.out"; fail "report over a hard-linked file failed"; }
grep -q "only this name gets the new report, the other names keep the previous contents" "$tmp/rep.out" ||
	fail "the hard-link warning: $(cat "$tmp/rep.out")"
[ "$(cat "$tmp/hl/b.html")" = "old page" ] || fail "the other hard link changed"
ok "report -o over a hard-linked file: 'only this name gets the new report'"

# WML numbers with exponents, as --runtime 3e10 takes them
cat >"$tmp/exp.f" <<W
define file name=f,path=$tmp,size=8e3,prealloc
define process name=p,instances=1e0 {
  thread name=t,memsize=4e3 {
    flowop read name=r,filename=f,iosize=4e3
  }
}
run 2e-1
W
"$FLOWBENCH" run "$tmp/exp.f" --cache keep >"$tmp/exp.out" 2>&1 ||
	{ cat "$tmp/exp.out"; fail "a script with exponents failed"; }
grep -q "Run took 0.2" "$tmp/exp.out" || fail "run 2e-1 did not run 0.2 s: $(grep 'Run took' "$tmp/exp.out")"
sed 's/instances=1e0/instances=1.5e0/' "$tmp/exp.f" >"$tmp/exp2.f"
rc=0
"$FLOWBENCH" run "$tmp/exp2.f" --cache keep >"$tmp/exp2.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "instances=1.5e0: exit $rc, not 1"
grep -q "exp2.f:2:33: attribute 'instances' needs a whole number, not 1.5" "$tmp/exp2.out" ||
	fail "instances=1.5e0: $(cat "$tmp/exp2.out")"
sed 's/instances=1e0/instances=1e19/' "$tmp/exp.f" >"$tmp/exp3.f"
rc=0
"$FLOWBENCH" run "$tmp/exp3.f" --cache keep >"$tmp/exp3.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "exp3.f:2:33: number '1e19' is too large" "$tmp/exp3.out" ||
	fail "instances=1e19: exit $rc: $(cat "$tmp/exp3.out")"
ok "WML numbers take exponents: size=8e3, iosize=4e3, instances=1e0, run 2e-1; 1.5e0 needs a whole number, 1e19 is too large"
