#!/bin/sh
# compare.sh - `flowbench compare` on the command line: the table of two
# fixture results files, its formats, and clear refusals (unknown format
# version, unreadable file, too few files, bad --format) with exit codes
# (the verdict's own: compare-gate.sh).
. "$(dirname "$0")/lib.sh"

data=$TOP_SRCDIR/tests/data
cd "$data"

"$FLOWBENCH" compare base.json new.json >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "compare exited with $?"; }
grep -q '^rand-read1 .*+10\.0%  yes (p=0\.00026)$' "$tmp/out" ||
	fail "no significant +10% read row: $(cat "$tmp/out")"
grep -q '^rand-write1 .*+1\.0% *no (p=0\.77)$' "$tmp/out" ||
	fail "write row: $(grep rand-write1 "$tmp/out")"
grep -q '^stat1  *- ' "$tmp/out" || fail "a flowop missing in the baseline shows -"
ok "text table: %diff, Welch's test, missing flowops"

# single.json is slower than base.json: exit 1 (compare-gate.sh)
set +e
"$FLOWBENCH" compare base.json single.json --format markdown >"$tmp/md"
rc=$?
set -e
[ $rc -eq 1 ] || fail "base.json against single.json: exit $rc, expected 1"
grep -q '^| ops/s | base.json | single.json | %diff | significant |$' "$tmp/md" ||
	fail "markdown header: $(cat "$tmp/md")"
grep -q '^| rand-read1 | 1000 ± 10.0 | 1200 ± - | +20.0% | n/a |$' "$tmp/md" ||
	fail "one-run file: stdev '-', significance n/a: $(grep rand-read1 "$tmp/md")"
ok "markdown table; a one-run file has no stdev and no test"

"$FLOWBENCH" compare base.json new.json --format=csv >"$tmp/csv"
[ "$(grep -c "$(printf '\r')\$" "$tmp/csv")" -eq 28 ] ||
	fail "csv: expected 28 CRLF lines, got: $(cat -A "$tmp/csv" | head -3)"
ok "csv: header, 15 rate rows and 12 latency percentile rows, CRLF"

set +e
"$FLOWBENCH" compare base.json future-format.json >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "unknown format version: exit $rc, expected 2"
grep -q "future-format.json: unknown results format 'flowbench-results/2'" "$tmp/err" ||
	fail "unknown format message: $(cat "$tmp/err")"
[ ! -s "$tmp/out" ] || fail "a refused file must not leave half a table"
ok "refuses an unknown format version"

for args in "base.json" "base.json new.json --format html" "base.json new.json --bogus"; do
	set +e
	# shellcheck disable=SC2086
	"$FLOWBENCH" compare $args >/dev/null 2>"$tmp/err"
	rc=$?
	set -e
	[ $rc -eq 2 ] || fail "compare $args: exit $rc, expected 2 (usage)"
	[ -s "$tmp/err" ] || fail "compare $args: no message"
done
set +e
"$FLOWBENCH" compare base.json missing.json 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 2 ] && grep -q "missing.json" "$tmp/err" ||
	fail "missing file: exit $rc, $(cat "$tmp/err")"
ok "usage errors and unreadable files exit 2, each with a message"

# Repeated names (the k-th "a" of a run with the k-th of the other file),
# names differing in case, the empty name, flowops in some runs or one
# file only: rows in order of first sight (tests/data/dups-*.json).
"$FLOWBENCH" compare dups-base.json dups-new.json >"$tmp/dups" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "compare of the dups fixtures exited with $?"; }
cat >"$tmp/want" <<'TABLE'
ops/s       dups-base.json  dups-new.json   %diff  significant
a             102.0 ± 2.83      120.0 ± -  +17.6%          n/a
A                 50.0 ± -       55.0 ± -  +10.0%          n/a
a (2)          11.0 ± 1.41       11.0 ± -   +0.0%          n/a
              5.50 ± 0.707              -       -          n/a
b             7.50 ± 0.707              -       -          n/a
a (3)             3.00 ± -       4.00 ± -  +33.3%          n/a
c                 1.00 ± -              -       -          n/a
a (4)                    -       2.00 ± -       -          n/a
d                        -       9.00 ± -       -          n/a
IO Summary    153.0 ± 31.1      201.0 ± -  +31.4%          n/a
TABLE
sed -n 5,15p "$tmp/dups" | diff "$tmp/want" - >&2 || fail "rows of repeated names (diff above)"
ok "repeated, case-different and empty names matched by occurrence, in order of first sight"
