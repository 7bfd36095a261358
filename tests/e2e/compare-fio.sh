#!/bin/sh
# compare-fio.sh - an fio run and a flowbench run of the same job in one
# table: the installed fio (skipped without it) runs a job file, with
# --output-format=json+ and json; import-fio turns the same file into a
# workload flowbench runs; compare and report read both.  Rows are
# matched by import-fio's flowop names, the clones (numjobs=2) are one
# row, percentiles come from json+ bins; fio's text output and a file
# cut short are refused with exit 1 and a clear message.
. "$(dirname "$0")/lib.sh"

need fio
mkdir -p "$tmp/fio" "$tmp/fb"
cat >"$tmp/job.fio" <<EOF
[global]
filename=$tmp/fio/data
size=4m
bs=4k

[rr]
rw=randread
numjobs=2
EOF

fio "$tmp/job.fio" --output-format=json+ --output="$tmp/fio.json" >/dev/null 2>&1 ||
	fail "fio did not run the job"
"$FLOWBENCH" import-fio "$tmp/job.fio" >"$tmp/job.f" 2>"$tmp/import.err" ||
	fail "import-fio: $(cat "$tmp/import.err")"
"$FLOWBENCH" run "$tmp/job.f" -D dir="$tmp/fb" --cache keep --output "$tmp/fb.json" \
	>"$tmp/run.out" 2>&1 || fail "flowbench run: $(tail -3 "$tmp/run.out")"
ok "fio $(fio --version) and flowbench ran the same job"

cd "$tmp"
compare_tables fio.json fb.json >out 2>err || fail "compare: $(cat err)"
grep -q '^baseline: fio.json (fio job rr, 1 run)$' out || fail "legend: $(head -3 out)"
grep -q "^warning: fio.json was measured by fio-3\.[0-9]* and fb.json by flowbench: the two tools' rules differ$" out ||
	fail "no warning that the tools differ: $(cat out)"
grep -q "^  latency (ms/op, percentiles): fio's clat" out || fail "no word on what latency means"
grep -q '^differs:' out && fail "fio's unrecorded kernel and mounts compared: $(grep differs out)"
# both tools' numbers on one row: neither side "-"
for table in 'ops/s' 'MB/s' 'ms/op' 'p50 latency' 'p99.9 latency'; do
	sed -n "\\|^$table |,/^\$/p" out | grep -q '^rr-read  *[0-9][^ ]* ± -  *[0-9][^ ]* ± -  *[-+][0-9.]*%' ||
		fail "$table: rr-read has not both tools' numbers: $(sed -n "\\|^$table |,/^\$/p" out)"
done
ok "one table: fio's job rr (two clones merged) and flowbench's rr-read on one row"

compare_tables --format csv fio.json fb.json >csv
grep -q '^ops_per_s,rr-read,[0-9.e+]*,-,1,[0-9.e+]*,-,1,' csv || fail "csv: $(grep rr-read csv | head -1)"
ok "CSV: both tools' rr-read on one line"

# without bins, two clones have no percentiles to merge: said, not faked
fio "$tmp/job.fio" --output-format=json --output=plain.json >/dev/null 2>&1
compare_tables plain.json fb.json >out2
grep -q "^note: plain.json: fio listed the 2 clones of job 'rr' one by one" out2 ||
	fail "no note on the clones' percentiles: $(cat out2)"
sed -n '/^p50 latency /,/^$/p' out2 | grep -q '^rr-read  *-  *[0-9]' ||
	fail "p50 of unmergeable clones is not '-': $(sed -n '/^p50 latency /,/^$/p' out2)"
ok "json without bins: the clones' percentiles left out with a note"

# two runs appended to one file (fio on standard output) are two runs
fio job.fio --output-format=json+ >>fio.json 2>/dev/null
compare_tables fio.json fb.json >out3
grep -q '^baseline: fio.json (fio job rr, 2 runs)$' out3 || fail "appended run: $(head -1 out3)"
ok "a second document appended: two runs"

"$FLOWBENCH" report fio.json fb.json -o page.html || fail "report"
grep -q '<li>warning: fio.json was measured by fio-3' page.html || fail "report: no warning"
grep -q '<th>environment.kernel</th><td>not recorded</td>' page.html ||
	fail "report: the kernel fio does not record"
ok "report: fio's source and the tools' warning in the page"

set +e
fio job.fio >text.out 2>&1
"$FLOWBENCH" compare text.out fb.json >out 2>err
rc=$?
set -e
[ $rc -eq 2 ] || fail "fio's text output: exit $rc"
grep -q "text.out: not a results file: this is fio's normal (text) output; compare and report read fio's JSON: run fio with --output-format=json (or json+)" err ||
	fail "text output message: $(cat err)"
[ ! -s out ] || fail "a refused file leaves no table"
ok "fio's normal output refused: use --output-format=json"

head -c 3000 plain.json >cut.json
set +e
"$FLOWBENCH" compare cut.json fb.json >out 2>err
rc=$?
set -e
[ $rc -eq 2 ] || fail "a cut file: exit $rc"
grep -q "cut.json:[0-9]*:[0-9]*: not valid fio JSON: .* (the file ends inside fio's document: cut short?)" err ||
	fail "cut file message: $(cat err)"
ok "a file cut short refused at its place"
