#!/bin/sh
# chain.sh - the whole results chain on real runs, not fixtures: `flowbench
# run --output` writes files that `flowbench compare` (text, markdown, csv)
# and `flowbench report` read back, for one run and for a --repeat run.
. "$(dirname "$0")/lib.sh"

wml=$tmp/tiny.f
cat >"$wml" <<EOF
define file name=chainfile,path=$tmp,size=1m,prealloc,reuse
define process name=chain,instances=1
{
  thread name=chain-thread,memsize=4k,instances=1
  {
    flowop read name=chain-read,filename=chainfile,iosize=4k,random
    flowop write name=chain-write,filename=chainfile,iosize=4k,random
  }
}
run 1
EOF

cd "$tmp"
"$FLOWBENCH" run "$wml" --cache keep --output a.json >a.out 2>&1 ||
	{ cat a.out; fail "run --output a.json failed"; }
"$FLOWBENCH" run "$wml" --cache keep --output b.json --repeat 2 >b.out 2>&1 ||
	{ cat b.out; fail "run --output b.json --repeat 2 failed"; }
[ -s a.json ] && [ -s b.json ] || fail "results files not written"
ok "two runs wrote a.json and b.json (--repeat 2)"

compare_tables a.json b.json >cmp.txt 2>cmp.err ||
	{ cat cmp.err; fail "compare failed"; }
grep -q '%diff' cmp.txt || fail "no %diff column: $(cat cmp.txt)"
for fo in chain-read chain-write; do
	# a numeric %diff: both files had ops for the flowop
	grep -Eq "^$fo .*[-+][0-9]+\\.[0-9]%" cmp.txt ||
		fail "no row with a %diff for $fo: $(cat cmp.txt)"
done
ok "compare: a row with a %diff for each flowop"

compare_tables a.json b.json --format markdown >cmp.md ||
	fail "compare --format markdown exited with $?"
grep -q '^| ops/s | a.json | b.json | %diff |' cmp.md ||
	fail "markdown header: $(cat cmp.md)"
grep -q '^| chain-read | ' cmp.md && grep -q '^| chain-write | ' cmp.md ||
	fail "markdown rows: $(cat cmp.md)"
compare_tables a.json b.json --format csv >cmp.csv ||
	fail "compare --format csv exited with $?"
head -1 cmp.csv | grep -q '%diff' || fail "csv header: $(head -1 cmp.csv)"
for fo in chain-read chain-write; do
	# a.json: 1 run; b.json: 2 runs (--repeat 2); a numeric %diff
	awk -F, -v fo="$fo" '$1 == "ops_per_s" && $2 == fo && $5 == 1 &&
		$8 == 2 && $9 ~ /^-?[0-9.]+$/ { found = 1 }
		END { exit !found }' cmp.csv ||
		fail "csv: no ops/s row of 1 vs 2 runs with a %diff for $fo: $(cat cmp.csv)"
done
ok "compare: markdown and csv tables (csv: 1 run vs 2 runs)"

"$FLOWBENCH" report a.json b.json -o r.html 2>rep.err ||
	{ cat rep.err; fail "report failed"; }
grep -q '<svg' r.html || fail "no chart in the report"
grep -q 'chain-read' r.html && grep -q 'chain-write' r.html ||
	fail "the report does not name the flowops"
if grep -q 'http://' r.html; then
	fail "the report refers to http://: $(grep -o 'http://[^" ]*' r.html | head -3)"
fi
ok "report: one HTML page with inline SVG, no http:// reference"
