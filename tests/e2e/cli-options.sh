#!/bin/sh
# cli-options.sh - the option parser: an unknown long option gets a
# did-you-mean (so does a --cache value), `--` ends the options (a workload file named "-w.f"),
# `-o FILE` is `--output FILE` for run as for report, and every usage
# error starts 'flowbench: error:' and exits 2.
. "$(dirname "$0")/lib.sh"

R=$WORKLOADS/randomrw.f

# usage LINE ARGS...: exit 2 and exactly LINE on stderr
usage() {
	want=$1
	shift
	set +e
	"$FLOWBENCH" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
	[ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "$want" ] ||
		{ cat "$tmp/err"; fail "'$*': status $rc, not 2 with '$want'"; }
}
usage "flowbench: error: unknown option '--runtme' (did you mean '--runtime'?)" run "$R" --runtme 5
usage "flowbench: error: unknown option '--cach=warm' (did you mean '--cache'?)" check "$R" --cach=warm
usage "flowbench: error: compare: unknown option '--formt' (did you mean '--format'?)" compare a.json b.json --formt csv
usage "flowbench: error: unknown option '--frobnicate' (try 'flowbench --help')" check "$R" --frobnicate
usage "flowbench: error: --cache is cold, warm or keep, not 'kep' (did you mean 'keep'?)" check "$R" --cache kep
usage "flowbench: error: unknown command 'chek' (did you mean 'check'?)" chek "$R"
ok "unknown long options and commands get a did-you-mean, or the --help hint"

# every usage error starts 'flowbench: error:'
for args in "frobnicate" "run" "run $R --runtime -1" "run $R -D x" "list x" "compare a.json" \
	"report a.json" "import-fio" "run $R --cache tepid" "run $R --seed -1" "run $R --output x.txt"; do
	set +e
	# shellcheck disable=SC2086
	"$FLOWBENCH" $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
	[ $rc -eq 2 ] || { cat "$tmp/err"; fail "'$args': status $rc, not 2"; }
	head -n 1 "$tmp/err" | grep -q '^flowbench: error: ' ||
		{ cat "$tmp/err"; fail "'$args': the error does not start 'flowbench: error:'"; }
done
ok "every usage error starts 'flowbench: error:'"

# `--` ends the options
cp "$R" "$tmp/-w.f"
(cd "$tmp" && "$FLOWBENCH" check -- -w.f) >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "check -- -w.f did not check the file -w.f"; }
grep -q -- "-w.f: ok" "$tmp/out" || { cat "$tmp/out"; fail "check -- -w.f printed no summary"; }
(cd "$tmp" && "$FLOWBENCH" check --runtime 2 -- -w.f) >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "check --runtime 2 -- -w.f failed"; }
grep -q "run 2 s" "$tmp/out" || { cat "$tmp/out"; fail "an option before -- was not applied"; }
set +e
(cd "$tmp" && "$FLOWBENCH" check -w.f) >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 2 ] || fail "check -w.f (no --) was not an unknown option"
printf '[job]\nrw=read\nsize=1m\n' >"$tmp/-j.fio"
(cd "$tmp" && "$FLOWBENCH" import-fio -- -j.fio) >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "import-fio -- -j.fio did not read the job file -j.fio"; }
grep -q "define process" "$tmp/out" || { cat "$tmp/out"; fail "import-fio -- -j.fio printed no workload"; }
ok "-- ends the options: check -- -w.f checks the file -w.f, import-fio -- -j.fio reads -j.fio"

# -o for run, as for report
mkdir "$tmp/d"
"$FLOWBENCH" run "$R" -D dir="$tmp/d" -D filesize=1m -D nthreads=1 --runtime 0.2 \
	-o "$tmp/r.json" --cache keep >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; fail "run -o r.json failed"; }
grep -q '"format"' "$tmp/r.json" || fail "run -o r.json wrote no results file"
"$FLOWBENCH" report "$tmp/r.json" -o "$tmp/r.html" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; fail "report -o failed"; }
[ -s "$tmp/r.html" ] || fail "report -o wrote no page"
ok "-o FILE writes the results of run, as it writes the page of report"
