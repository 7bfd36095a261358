#!/bin/sh
# cli.sh - the command line: check finds errors with file:line:col and a
# suggestion, usage errors exit 2, script errors exit 1, -D overrides a
# variable and a -D typo is caught.
. "$(dirname "$0")/lib.sh"

expect_status() {
	want=$1
	shift
	set +e
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	set -e
	[ "$got" -eq "$want" ] ||
		{ cat "$tmp/out" "$tmp/err"; fail "'$*' exited $got, expected $want"; }
}

cat >"$tmp/typo.f" <<'WML'
set $dir=/tmp
define file name=f1,path=$dir,size=1m,prealloc
define process name=p
{
  thread name=t
  {
    flowop read name=r1,filename=f1,iosze=8k,random
  }
}
run 1
WML
expect_status 1 "$FLOWBENCH" check "$tmp/typo.f"
grep -qF "$tmp/typo.f:7:37: unknown attribute 'iosze' for flowop read (did you mean 'iosize'?)" "$tmp/err" ||
	{ cat "$tmp/err"; fail "check did not report the typo at 7:37 with a suggestion"; }
ok "check reports file:line:col and suggests iosize for iosze"

expect_status 0 "$FLOWBENCH" check "$WORKLOADS/randomrw.f"
grep -q "ok" "$tmp/out" || fail "check of randomrw.f printed no summary"
ok "randomrw.f checks clean"

expect_status 2 "$FLOWBENCH" run
expect_status 2 "$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache lukewarm
expect_status 2 "$FLOWBENCH" run "$WORKLOADS/randomrw.f" --runtime -3
expect_status 2 "$FLOWBENCH" frobnicate
expect_status 2 "$FLOWBENCH" run "$WORKLOADS/randomrw.f" -D novalue
ok "usage errors exit 2"

# time values past flowbench's limit (10^9 s) are usage errors, before
# anything runs (--runtime 2e10 used to end at once: 0 ops, status 0)
usage_error() {
	pattern=$1
	shift
	expect_status 2 "$FLOWBENCH" check "$WORKLOADS/randomrw.f" "$@"
	grep -qF -e "$pattern" "$tmp/err" || { cat "$tmp/err"; fail "'$*': no '$pattern'"; }
}
usage_error "--runtime 2e10: more than flowbench's limit of 1000000000 s" --runtime 2e10
usage_error "--runtime 1e300: more than flowbench's limit" --runtime 1e300
usage_error "--warmup needs a number of seconds from 0.001 to flowbench's limit of 1000000000, not '2e9'" --warmup 2e9
usage_error "--interval needs a number of seconds from 0.01 to flowbench's limit of 1000000000, not '2e9'" --interval 2e9
usage_error "--runtime 1e+08 with --interval 0.01 makes 1e+10 intervals, more than flowbench's limit of 1000000" \
	--runtime 1e8 --interval 0.01
usage_error "--seed needs a non-negative integer, not ' -1'" --seed ' -1'
expect_status 0 "$FLOWBENCH" check "$WORKLOADS/randomrw.f" --runtime 1e9 --warmup 1e9
expect_status 0 "$FLOWBENCH" check "$WORKLOADS/randomrw.f" --runtime 1e5 --interval 0.1
ok "out-of-range --runtime, --warmup, --interval (and their series) and --seed are usage errors; the limits themselves pass"

expect_status 0 "$FLOWBENCH" --version
grep -Eq '^flowbench [0-9]+\.[0-9]+' "$tmp/out" || fail "--version prints no version"
expect_status 0 "$FLOWBENCH" --help
grep -q 'usage:' "$tmp/out" || fail "--help prints no usage"
ok "--help and --version"

expect_status 1 "$FLOWBENCH" check "$WORKLOADS/randomrw.f" -D filesze=64m
grep -q "did you mean 'filesize'" "$tmp/err" || { cat "$tmp/err"; fail "-D typo not caught"; }
ok "-D with a misspelt variable is an error with a suggestion"

expect_status 1 "$FLOWBENCH" check "$tmp/missing.f"
grep -q "cannot read" "$tmp/err" || fail "missing file error"
ok "a missing workload file is an error"

# -D overrides the script's own set: the check summary shows the threads
expect_status 0 "$FLOWBENCH" check "$WORKLOADS/randomrw.f" -D nthreads=3 -D runtime=7
grep -q "6 threads" "$tmp/out" || { cat "$tmp/out"; fail "-D nthreads=3 did not give 6 threads"; }
grep -q "run 7 s" "$tmp/out" || { cat "$tmp/out"; fail "-D runtime=7 did not set the run time"; }
ok "-D overrides the script's variables"

# -f works as in filebench, and a script without run needs --runtime
# (a path below a plain file: it can be neither found nor made)
: >"$tmp/plain"
cat >"$tmp/norun.f" <<WML
define file name=f1,path=$tmp/plain/sub,size=1m,prealloc
define process name=p
{
  thread name=t
  {
    flowop read name=r1,filename=f1,iosize=8k
  }
}
WML
expect_status 1 "$FLOWBENCH" -f "$tmp/norun.f"
grep -q "no 'run'" "$tmp/err" || { cat "$tmp/err"; fail "missing run not explained"; }
expect_status 1 "$FLOWBENCH" check "$tmp/norun.f"
grep -q "no 'run'" "$tmp/err" || { cat "$tmp/err"; fail "check: missing run not explained"; }
expect_status 0 "$FLOWBENCH" check "$tmp/norun.f" --runtime 2
ok "a script without run is an error that says how to fix it"

# a run that fails (a path that cannot be made) exits 1 and prints no results
expect_status 1 "$FLOWBENCH" -f "$tmp/norun.f" --runtime 1
grep -q "IO Summary" "$tmp/out" && fail "a failed run printed results"
ok "a failed run exits 1 without results"

# the option table (cli.c): each usage error keeps its own message
usage_msg() {
	pattern=$1
	shift
	expect_status 2 "$FLOWBENCH" "$@"
	grep -qxF -e "flowbench: error: $pattern" "$tmp/err" ||
		{ cat "$tmp/err"; fail "'$*': not 'flowbench: error: $pattern'"; }
}
R=$WORKLOADS/randomrw.f
usage_msg "only one workload file, please" -f "$R" -f "$R"
usage_msg "unexpected argument 'x' (one workload file per run)" check "$R" x
usage_msg "-f needs a file" -f
usage_msg "--define needs a value" check "$R" --define
usage_msg "-D needs NAME=VALUE, not 'x'" check "$R" -Dx
usage_msg "unknown option '--rep' (did you mean '--repeat'?)" check "$R" --rep 3
usage_msg "unknown option '--force=1' (try 'flowbench --help')" check "$R" --force=1
usage_msg "unknown command 'frobnicate' (try 'flowbench --help')" frobnicate
usage_msg "no workload file given (e.g. flowbench run workloads/randomrw.f)" check
usage_msg "compare: unknown option '-o' (try 'flowbench --help')" compare a.json b.json -o x
usage_msg "compare needs two results files or more (flowbench compare base.json new.json)" compare a.json
usage_msg "report needs -o FILE.html (where to write the page)" report a.json
usage_msg "--output needs a value" report a.json --output
usage_msg "list takes no argument but --dir (set FLOWBENCH_WORKLOADS to list another directory)" list x
usage_msg "import-fio takes an fio job file or fio's command line (flowbench import-fio job.fio > job.f, flowbench import-fio --name=a --rw=randread --size=16m)" import-fio
usage_msg "import-fio takes an fio job file or fio's command line (flowbench import-fio job.fio > job.f, flowbench import-fio --name=a --rw=randread --size=16m)" import-fio --lenient -D x=1
usage_msg "--fio needs an fio command line after it (--fio --name=a --rw=randread --bs=4k --size=16m)" run --fio
usage_msg "a workload file or --fio, not both (the job files of an fio command line go after --fio)" check "$R" --fio --name=a
ok "usage errors of the option table keep their messages"

# every value form: --opt=value, -Dvalue, -fFILE
expect_status 0 "$FLOWBENCH" check -f"$R" --define=nthreads=3 -Druntime=7 --cache=keep --seed=5
grep -q "6 threads" "$tmp/out" && grep -q "run 7 s" "$tmp/out" ||
	{ cat "$tmp/out" "$tmp/err"; fail "attached option values not taken"; }
ok "-fFILE, --opt=VALUE and -DNAME=VALUE are read"

# --help and --version after every command (list, compare, report and
# import-fio used to refuse them)
for cmd in "check $R" list "compare a.json b.json" "report a.json" import-fio; do
	# shellcheck disable=SC2086
	expect_status 0 "$FLOWBENCH" $cmd --help
	grep -q "^options of run and check:" "$tmp/out" || fail "'$cmd --help' printed no options"
	# shellcheck disable=SC2086
	expect_status 0 "$FLOWBENCH" $cmd --version
	grep -Eq '^flowbench [0-9]' "$tmp/out" || fail "'$cmd --version' printed no version"
done
ok "--help and --version are taken after every command"
