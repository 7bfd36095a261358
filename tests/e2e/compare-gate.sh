#!/bin/sh
# compare-gate.sh - compare's verdict, as a CI uses it: exit 0 when no
# later file is worse than the first beyond its threshold, 1 when one is,
# 2 for usage errors and unreadable input; Welch's t-test where both
# files have repeats, the difference alone where one has a single run;
# --threshold, the Markdown summary and JUnit XML.  The regressions are
# planted in copies of a fixture (compare is offline), so every verdict
# here is exact whatever the machine is doing.
. "$(dirname "$0")/lib.sh"

need python3
cd "$tmp"
cp "$TOP_SRCDIR/tests/data/base.json" base.json

# plant FACTOR_RATE FACTOR_P99 [NOISE...] > FILE: base.json with every
# rate (flowops and IO Summary) times the first factor, every flowop's
# p99 times the second; with NOISE, run i's rates also times NOISE[i]
plant() {
	python3 - "$@" <<'PY'
import json, sys
rate, p99 = float(sys.argv[1]), float(sys.argv[2])
noise = [float(x) for x in sys.argv[3:]]
d = json.load(open("base.json"))
for i, run in enumerate(d["runs"]):
    k = rate * (noise[i] if noise else 1)
    for f in run["flowops"]:
        f["ops_per_s"] *= k
        f["mb_per_s"] *= k
        pc = f.get("latency_ns", {}).get("percentiles", {})
        if "99" in pc:
            pc["99"] *= p99
            # percentiles must grow with the percentile
            for q in ("99.9", "99.99"):
                pc[q] = max(pc[q], pc["99"])
    for key in ("ops_per_s", "mb_per_s", "rd_per_s", "wr_per_s"):
        run["summary"][key] *= k
d.pop("aggregate", None)
json.dump(d, sys.stdout, indent=1)
PY
}

# status ARGS...: compare's exit status, its output in out, err
status() {
	set +e
	"$FLOWBENCH" compare "$@" >out 2>err
	rc=$?
	set -e
}

plant 1 1 >same.json
plant 0.9 1 >slow.json
plant 1 1.2 >tail.json
plant 0.97 1.05 >drift.json

status base.json same.json
[ $rc -eq 0 ] || { cat out err; fail "an unchanged copy: exit $rc, expected 0"; }
grep -q '^Gate (limits: ops_per_s -5%, mb_per_s -5%, p99 +10%): pass: 0 regressions in ' out ||
	fail "no passing Gate line: $(tail -3 out)"
status base.json drift.json
[ $rc -eq 0 ] || { cat out; fail "3 % slower and p99 5 % higher, within the defaults: exit $rc"; }
ok "an unchanged rerun and one within the default limits exit 0"

status base.json slow.json
[ $rc -eq 1 ] || { cat out err; fail "10 % slower with repeats: exit $rc, expected 1"; }
grep -q "^Gate (limits: .*): FAIL: 7 regressions in " out ||
	fail "Gate line: $(grep '^Gate' out)"
grep -q "^  REGRESSION slow.json: ops/s of rand-read1: 1000 -> 900.0 (-10.0%, limit -5%; Welch's t-test, p=" out ||
	fail "no ops/s regression line judged by Welch's test: $(grep REGRESSION out)"
grep -q "^  REGRESSION slow.json: ops/s of IO Summary: " out || fail "the IO Summary is gated too"
[ ! -s err ] || fail "a regression is no error: $(cat err)"
ok "a planted 10 % drop with 3 runs a side is a regression by Welch's t-test (exit 1)"

status base.json tail.json
[ $rc -eq 1 ] && grep -q "^  REGRESSION tail.json: p99 latency of rand-read1: 4.000µs -> 4.800µs (+20.0%, limit +10%" out ||
	{ cat out; fail "p99 20 % higher: exit $rc"; }
status base.json tail.json --threshold p99=+25%
[ $rc -eq 0 ] || { cat out; fail "p99=+25%: exit $rc"; }
status base.json slow.json --threshold ops_per_s=-15%,mb_per_s=-12%
[ $rc -eq 0 ] || { cat out; fail "limits of 15 and 12 %: exit $rc"; }
grep -q '^Gate (limits: ops_per_s -15%, mb_per_s -12%, p99 +10%): pass' out ||
	fail "the limits given are not the ones shown: $(grep '^Gate' out)"
status base.json slow.json --threshold ops_per_s=off --threshold mb_per_s=off,ms_per_op=+1%
[ $rc -eq 0 ] || { cat out; fail "rates off: exit $rc"; }
ok "p99 gated at +10 %; --threshold moves, adds and switches off limits"

# one run on a side: no test, the difference alone, and said so
python3 -c '
import json, sys
d = json.load(open("slow.json")); d["runs"] = d["runs"][:1]
json.dump(d, open("slow1.json", "w"))
d = json.load(open("drift.json")); d["runs"] = d["runs"][:1]
json.dump(d, open("drift1.json", "w"))'
status base.json slow1.json
[ $rc -eq 1 ] || { cat out; fail "one run 10 % slower: exit $rc"; }
grep -q "^  REGRESSION slow1.json: ops/s of rand-read1: .*difference only (3 and 1 run: no test))" out ||
	fail "not said to be judged by the difference: $(grep REGRESSION out | head -2)"
grep -q "by Welch's t-test, [1-9][0-9]* by the difference alone" out || fail "counts: $(grep '^Gate' out)"
status base.json drift1.json
[ $rc -eq 0 ] || { cat out; fail "one run 3 % slower: exit $rc"; }
ok "a file of one run is judged by the difference alone, and the output says so"

# beyond the limit but noise by the test: passes, with a note
plant 0.9 1 1.6 1 0.4 >noisy.json
status base.json noisy.json --threshold mb_per_s=off,p99=off
[ $rc -eq 0 ] || { cat out; fail "a 10 % drop the runs cannot tell from noise: exit $rc"; }
grep -q "^  pass noisy.json: ops/s of rand-read1: .*Welch's t-test, p=0\.[0-9]*): beyond the limit, but not significant$" out ||
	fail "no note on the insignificant drop: $(tail -4 out)"
ok "a drop beyond the limit that Welch's test finds insignificant passes with a note"

# three files: the worst of the later ones decides
status base.json same.json slow.json
[ $rc -eq 1 ] || fail "base, same, slow: exit $rc"
grep -q "REGRESSION same.json" out && fail "same.json called a regression"
ok "with several later files, any regression makes exit 1"

# the Markdown summary, for a CI's job summary
status base.json same.json slow.json --format markdown
[ $rc -eq 1 ] || fail "markdown: exit $rc"
head -1 out | grep -q '^### flowbench compare: \*\*FAIL\*\* (7 regressions in ' ||
	fail "markdown heading: $(head -1 out)"
grep -q '^| file | metric | limit | compared | regressions | worst | worst %diff |$' out ||
	fail "no summary table: $(head -12 out)"
grep -q '^| slow.json | ops/s | -5% | 4 | \*\*4\*\* | rand-read1 | -10.0% |$' out ||
	fail "slow.json's ops/s summary row: $(grep '^| slow' out)"
grep -q '^| same.json | ops/s | -5% | 4 | 0 | ' out || fail "same.json's row: $(grep '^| same' out)"
grep -q "^| slow.json | p99 latency | rand-read1 |" out && fail "a p99 that did not move listed as a regression"
grep -q '^| ops/s | base.json | same.json | %diff | significant | slow.json | %diff | significant |$' out ||
	fail "the tables are still there: $(grep '^| ops/s' out)"
ok "--format markdown: the verdict, a summary row per file and metric, the regressions, the tables"

# JUnit XML: a testcase per comparison, a failure per regression
status base.json same.json slow.json --junit junit.xml
[ $rc -eq 1 ] || fail "--junit: exit $rc"
python3 - junit.xml <<'PY' || fail "the JUnit XML does not hold the verdict"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
assert [s.get("name") for s in suites] == ["same.json against base.json",
                                          "slow.json against base.json"], suites
for s in suites:
    cases = s.findall("testcase")
    fails = [c for c in cases if c.find("failure") is not None]
    assert int(s.get("tests")) == len(cases) and int(s.get("failures")) == len(fails)
    names = {(c.get("classname"), c.get("name")) for c in cases}
    assert ("flowbench.ops_per_s", "rand-read1") in names, names
    assert ("flowbench.p99", "rand-write1") in names, names
    want = 0 if s.get("name").startswith("same") else 7
    assert len(fails) == want, (s.get("name"), len(fails))
    for c in fails:
        f = c.find("failure")
        assert f.get("type") == "regression" and "limit" in f.get("message"), f.attrib
assert int(root.get("failures")) == 7
PY
if command -v xmllint >/dev/null 2>&1; then
	xmllint --noout junit.xml || fail "xmllint refuses the JUnit file"
fi
status base.json same.json --junit same.xml
[ $rc -eq 0 ] && grep -q 'failures="0"' same.xml || fail "a passing JUnit file: exit $rc"
ok "--junit: well-formed XML, a testcase per metric and flowop, a failure element per regression"

# usage errors and unreadable input: 2, with a message, and no JUnit file
for args in "--threshold ops_per_s=+5%" "--threshold op_per_s=-5%" \
	"--threshold ops_per_s=5%" "--threshold ops_per_s=-5" "--threshold p99" \
	"--format html" "--junit $tmp/no/such/dir/j.xml"; do
	rm -f j.xml
	# shellcheck disable=SC2086
	status base.json slow.json $args
	[ $rc -eq 2 ] && [ -s err ] || fail "compare $args: exit $rc, $(cat err)"
done
status base.json slow.json --threshold op_per_s=-5%
grep -q "unknown metric 'op_per_s' (did you mean 'ops_per_s'?)" err || fail "no suggestion: $(cat err)"
status base.json slow.json --threshold ops_per_s=+5%
grep -q "ops_per_s is a rate, so its limit is a drop" err || fail "sign message: $(cat err)"
status base.json missing.json --junit j.xml
[ $rc -eq 2 ] && [ ! -e j.xml ] || fail "a missing file: exit $rc, or a JUnit file written"
status base.json base.json --junit base.json
[ $rc -eq 2 ] && cmp -s base.json "$TOP_SRCDIR/tests/data/base.json" ||
	fail "--junit over an input: exit $rc"
ok "bad limits, formats, paths and unreadable files exit 2 with a message"
