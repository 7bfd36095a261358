#!/bin/sh
# cli-errors.sh - every error line starts 'flowbench: error:', as the man
# page says, also those of the paths that once printed their own prefix:
# compare and report reading their files (compare/load.c), their
# own refusals (compare/commands.c), a results file or page that
# cannot be written (runtime/results/atomic.c), and a script without
# `run`.  Each case fails with its status and its own message, and no
# line of its standard error lacks the prefix.
. "$(dirname "$0")/lib.sh"

data=$TOP_SRCDIR/tests/data

# refused STATUS TEXT ARGS...: flowbench ARGS exits STATUS, its standard
# error names TEXT, and every line of it is a 'flowbench: error:' line.
refused() {
	want=$1 text=$2
	shift 2
	set +e
	"$FLOWBENCH" "$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	set -e
	[ "$got" -eq "$want" ] || { cat "$tmp/err"; fail "'$*' exited $got, not $want"; }
	grep -qF -- "$text" "$tmp/err" || { cat "$tmp/err"; fail "'$*': no '$text'"; }
	[ -s "$tmp/err" ] && ! grep -qv '^flowbench: error: ' "$tmp/err" ||
		{ cat "$tmp/err"; fail "'$*': a line without 'flowbench: error: '"; }
	ok "$* -> $(head -1 "$tmp/err")"
}

printf '{ "runs": [ }\n' >"$tmp/broken.json"
printf 'format: "flowbench-results/1"\nruns: [\n' >"$tmp/broken.yaml"
printf '{ "format": "flowbench-results/1", "status": "failed", "runs": [] }\n' >"$tmp/norun.json"
: >"$tmp/empty.json"
cp "$data/base.json" "$tmp/in.json"

# compare: its files (load.c) and its own refusals (commands.c)
refused 2 "$tmp/missing.json: No such file or directory" compare "$data/base.json" "$tmp/missing.json"
refused 2 "not a flowbench results file" compare "$data/base.json" "$TOP_SRCDIR/docs/flowbench.1"
refused 2 "broken.json:1:" compare "$data/base.json" "$tmp/broken.json"
refused 2 "broken.yaml:3:1: not valid YAML" compare "$data/base.json" "$tmp/broken.yaml"
refused 2 "an empty file" compare "$data/base.json" "$tmp/empty.json"
refused 2 "not a regular file" compare "$data/base.json" "$tmp"
refused 2 "unknown results format 'flowbench-results/2'" compare "$data/base.json" "$data/future-format.json"
refused 2 "no run in it (status 'failed')" compare "$data/base.json" "$tmp/norun.json"
refused 2 "compare --format is text, markdown or csv" compare "$data/base.json" "$data/new.json" --format html

# report: its files, and a page it cannot write (atomic.c)
refused 1 "not a flowbench results file" report "$TOP_SRCDIR/docs/flowbench.1" -o "$tmp/r.html"
refused 1 "cannot write $tmp/nowhere/r.html: directory $tmp/nowhere" report "$data/base.json" -o "$tmp/nowhere/r.html"
refused 1 "refusing to write the report to /dev/null: it is a character device" report "$data/base.json" -o /dev/null
refused 1 "cannot write $tmp/: it names a directory" report "$data/base.json" -o "$tmp/"
refused 1 "refusing to write the page over its input $tmp/in.json" report "$tmp/in.json" -o "$tmp/in.json"

# run: a results file it cannot write (atomic.c), a script without `run`
cat >"$tmp/norun.f" <<'WML'
define process name=p {
  thread name=t {
    flowop hog name=h,value=1
  }
}
WML
cat >"$tmp/tiny.f" <<'WML'
define process name=p {
  thread name=t {
    flowop hog name=h,value=1
  }
}
run 1
WML
refused 1 "cannot write $tmp/nowhere/r.json: directory $tmp/nowhere" run "$tmp/tiny.f" --output "$tmp/nowhere/r.json"
ln -s /dev/null "$tmp/link.json"
refused 1 "refusing to write results to $tmp/link.json: it is a symbolic link" run "$tmp/tiny.f" --output "$tmp/link.json"
refused 1 "the script has no 'run' command" run "$tmp/norun.f"
