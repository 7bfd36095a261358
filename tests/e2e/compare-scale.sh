#!/bin/sh
# compare-scale.sh - `flowbench compare` and `report` on results files of
# 50,000 flowops: the tables and the page are right (row count and order,
# a name repeated 50 times, a flowop on one side only, spot values) and
# their time grows linearly: t(50,000) < 20 x t(5,000) + 0.5 s, both
# measured here, so a busy machine slows both sides (matching flowops by
# name was quadratic: 52 s for a 50,000-flowop compare, 207 s for its
# report); the same for the report's header table of a workload with
# 50,000 variables.  The files are a real run's (one flowop, --repeat 2)
# with its flowop written N times under other names and rates.
. "$(dirname "$0")/lib.sh"
skip_sanitized "its bounds are on time; compare's memory is checked by compare.sh and test_compare there"
need python3
need timeout

cd "$tmp"
cat >one.f <<'WML'
define process name=p {
  thread name=t { flowop hog name=h,value=1 }
}
run 1
WML
"$FLOWBENCH" run one.f --runtime 0.05 --repeat 2 --cache keep \
	--output tpl.json >run.out 2>&1 || { cat run.out; fail "the template run failed"; }

# gen N ROLE: ROLE$N.json, the template with N flowops fo0, fo1 ... (every
# 1000th named "dup" instead) and "only-ROLE" last; ops/s of the i-th is
# base + i -/+ 10 in runs 1/2, base 1000 for "base", 1100 for "new".
gen() {
	python3 - "$1" "$2" <<'PY'
import json, sys
n, role = int(sys.argv[1]), sys.argv[2]
doc = json.load(open("tpl.json"))
assert len(doc["runs"]) == 2 and len(doc["runs"][0]["flowops"]) == 1
base = 1000 if role == "base" else 1100
names = ["dup" if i % 1000 == 999 else "fo%d" % i for i in range(n)]
names.append("only-" + role)
for r, run in enumerate(doc["runs"]):
    fo = run["flowops"][0]
    run["flowops"] = [dict(fo, name=nm, ops_per_s=base + i + (10 if r else -10))
                      for i, nm in enumerate(names)]
agg = doc["aggregate"]["flowops"][0]
doc["aggregate"]["flowops"] = [dict(agg, name=nm) for nm in names]
with open("%s%d.json" % (role, n), "w") as f:
    json.dump(doc, f, separators=(",", ":"))
PY
}
for n in 5000 50000; do
	gen $n base
	gen $n new
done
python3 - <<'PY' || fail "the generated files are not what they claim"
import json
d = json.load(open("base50000.json"))
fos = d["runs"][1]["flowops"]
assert len(d["runs"]) == 2 and len(fos) == 50001 and d["format"] == "flowbench-results/1"
assert fos[0]["name"] == "fo0" and fos[0]["ops_per_s"] == 1010 and fos[999]["name"] == "dup"
assert fos[-1]["name"] == "only-base" and "latency_ns" in fos[7] and len(d["aggregate"]["flowops"]) == 50001
PY
ok "results files of 5,000 and 50,000 flowops (2 runs each) from a real run's"

# ms OUT CMD...: wall time of CMD in milliseconds, its output in OUT
ms() {
	out=$1
	shift
	t0=$(date +%s%N)
	"$@" >"$out" 2>err || return $?
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000000))
}

# args NAME N: the command line for N flowops or variables (relative
# names: no spaces)
args() {
	case $1 in
	compare) echo "compare base$2.json new$2.json" ;;
	report) echo "report base$2.json new$2.json -o r$2.html" ;;
	header) echo "report vars$2.json vars$2.json -o v$2.html" ;;
	esac
}

# scales NAME: t(50k) < 20 x t(5k) + 0.5 s for `flowbench NAME`, with
# t(5k) the median of three; one second chance (a busy moment); the 50k
# run is stopped at the bound.  Its output stays in NAME.out (or the page).
scales() {
	for try in 1 2; do
		# shellcheck disable=SC2046
		a=$(ms /dev/null "$FLOWBENCH" $(args "$1" 5000)) &&
			b=$(ms /dev/null "$FLOWBENCH" $(args "$1" 5000)) &&
			c=$(ms /dev/null "$FLOWBENCH" $(args "$1" 5000)) ||
			{ cat err; fail "$1 of 5,000 flowops failed"; }
		t5=$(printf '%s\n%s\n%s\n' "$a" "$b" "$c" | sort -n | sed -n 2p)
		bound=$((20 * t5 + 500))
		st=0
		# shellcheck disable=SC2046
		t50=$(ms "$1.out" timeout -k 5 $((bound / 1000 + 1)) "$FLOWBENCH" \
			$(args "$1" 50000)) || st=$?
		case $st in
		0) ;;
		124 | 137) t50=stopped ;;
		*) cat err; fail "$1 of 50,000 flowops exited with $st" ;;
		esac
		if [ "$t50" != stopped ] && [ "$t50" -lt "$bound" ]; then
			ok "$1: $t50 ms for 50,000, $t5 ms for 5,000 (bound $bound ms)"
			return 0
		fi
		if [ "$t50" = stopped ]; then
			t50="over $((bound / 1000 + 1)) s (stopped)"
		else
			t50="$t50 ms"
		fi
		echo "try $try: $1: $t50 for 50,000, $t5 ms for 5,000, bound $bound ms"
	done
	fail "$1 does not scale linearly with the number of flowops (variables)"
}

nkeys=50002     # 50,000 rows (fo*, dup ... dup (50)), only-base, only-new
scales compare
mv compare.out c.txt
# 3 rate tables with an IO Summary row, 3 latency percentile tables
# without, and a table of 1 row for each cost of the window (CPU, disk)
# the real run's files carry (blank line, header, row)
costs=$(grep -c -e '^CPU % ' -e '^CPU µs/op ' -e '^disk util % ' c.txt || :)
# and the verdict after the tables (a blank line, then the Gate lines)
gate=$(($(sed -n '/^Gate (limits: /,$p' c.txt | wc -l) + 1))
lines=$((4 + 3 * (nkeys + 2) + 2 + 3 * (nkeys + 1) + 3 + 3 * costs + gate))
[ "$(wc -l <c.txt)" -eq $lines ] || fail "text: $(wc -l <c.txt) lines, expected $lines"
grep -q '^fo0  *1000 ± 14\.1  *1100 ± 14\.1  *+10\.0%  *yes (p=0\.019)$' c.txt ||
	fail "fo0: $(grep -m1 '^fo0 ' c.txt)"
grep -q '^dup (50)  *50999 ± 14\.1  *51099 ± 14\.1  *+0\.2%  *yes (p=0\.019)$' c.txt ||
	fail "dup (50): $(grep -m1 '^dup (50) ' c.txt)"
! grep -q '^dup (51) ' c.txt || fail "a 51st dup"
# ops/s table: header on line 5, the 50,000 rows, then the one-sided ones
sed -n '50006,50008p' c.txt >tail.txt
grep -q '^only-base  *51000 ± 14\.1  *-  *-  *n/a$' tail.txt &&
	grep -q '^only-new  *-  *51100 ± 14\.1  *-  *n/a$' tail.txt &&
	[ "$(sed -n 3p tail.txt | cut -c1-10)" = "IO Summary" ] ||
	fail "the rows after the common ones: $(cat tail.txt)"
ok "text table of $nkeys flowops: rows, repeated names, one-sided flowops, values"

compare_tables base50000.json new50000.json --format csv >c.csv || fail "csv failed"
[ "$(wc -l <c.csv)" -eq $((1 + 3 * (nkeys + 1) + 3 * nkeys + costs)) ] || fail "csv: $(wc -l <c.csv) lines"
grep -q '^ops_per_s,fo0,1000,14\.14213562,2,1100,14\.14213562,2,10\.0000,0\.019' c.csv ||
	fail "csv fo0: $(grep -m1 '^ops_per_s,fo0,' c.csv)"
compare_tables base5000.json new5000.json --format markdown >c.md || fail "markdown failed"
# the verdict's summary first, up to the legend (its size: files x metrics)
gate=$(sed -n '/^- baseline: /q;p' c.md | wc -l)
[ "$gate" -lt 30 ] || fail "markdown: a verdict of $gate lines for 2 files"
[ "$(wc -l <c.md)" -eq $((4 + 3 * (5002 + 3) + 2 + 3 * (5002 + 2) + 3 + 4 * costs + gate)) ] ||
	fail "markdown: $(wc -l <c.md) lines"
grep -q '^| dup (5) | 5999 ± 14.1 | 6099 ± 14.1 | +1.7% | yes (p=0.019) |$' c.md ||
	fail "markdown dup (5): $(grep -m1 '^| dup (5) ' c.md)"
ok "csv of $nkeys flowops and markdown of 5,002"

# The report's header table matches keys across files the same way: a
# workload with 50,000 variables (their keys were looked up by a scan).
python3 - <<'PY'
import json
doc = json.load(open("tpl.json"))
for n in (5000, 50000):
    doc["workload"]["variables"] = {"v%d" % i: i for i in range(n)}
    with open("vars%d.json" % n, "w") as f:
        json.dump(doc, f)
PY
scales header
[ "$(grep -c '^<tr><th>workload\.v' v50000.html)" -eq 50000 ] &&
	grep -q '^<tr><th>workload\.v49999</th><td>49999</td><td>49999</td></tr>$' v50000.html ||
	fail "header table of 50,000 variables: $(grep -c '^<tr><th>workload\.v' v50000.html) rows"
ok "report header: a row per variable, 50,000 of them, both files' values"

# The page of 50,000 flowops is ~400 MB: the report part needs room.
avail=$(df -Pk . | awk 'NR == 2 { print $4 }')
if [ "$avail" -lt 1500000 ]; then
	echo "SKIP: $avail KiB free in $tmp, the report of 50,000 flowops needs 1.5 GB"
	exit 77
fi
scales report
rm -f r5000.html
[ "$(grep -c '^<h2>flowop ' r50000.html)" -eq $nkeys ] ||
	fail "report: $(grep -c '^<h2>flowop ' r50000.html) flowop sections"
[ "$(grep -c '<svg ' r50000.html)" -eq "$(grep -c '</svg>' r50000.html)" ] ||
	fail "unbalanced <svg>"
[ "$(grep '^<h2>flowop ' r50000.html | tail -1)" = "<h2>flowop only-new</h2>" ] ||
	fail "last section: $(grep '^<h2>flowop ' r50000.html | tail -1)"
awk '/^<h2>flowop dup \(50\)<\/h2>$/ { on = 1 } on && /^<\/table>$/ { exit } on' \
	r50000.html >dup50.txt
# human numbers (grouped thousands, never an exponent: issue 14)
grep -q '<td>1: base50000.json</td><td class="n">2</td><td class="n">50,999 ± 14</td>' dup50.txt &&
	grep -q '<td>2: new50000.json</td><td class="n">2</td><td class="n">51,099 ± 14</td>' dup50.txt ||
	fail "report dup (50): $(cat dup50.txt)"
rm -f r50000.html
ok "report: $nkeys flowop sections, the 50th dup's numbers"
