#!/bin/sh
# run.sh - fuzz the WML front end (scanner, parser, -D values, compiler).
#
#   tests/fuzz/run.sh [SECONDS [LIBFUZZER-OPTION...]]   fuzz (default 60 s)
#   tests/fuzz/run.sh --long [SECONDS [OPTION...]]      long inputs (30 s)
#   tests/fuzz/run.sh --replay                          replay regressions/
#
# Builds tests/fuzz/fuzz_compile with clang's libFuzzer, ASan and UBSan in
# its own out-of-tree directory ($FUZZ_BUILD, default build-fuzz/ beside
# build/ and build-asan/), seeds a temporary corpus with workloads/*.f, tests/fuzz/seeds/* (fio jobs) and
# tests/fuzz/regressions/*, and runs one fuzzing process on one core.
# The normal run keeps inputs to 4 KB, where most of the language is and
# executions are fast.  --long lets inputs grow to 1 MB (-max_len=1048576,
# tried at once: -len_control=0) and adds generated seeds of up to
# 700 KB (very deep and very long expressions, strings, attribute lists,
# tables, composite chains, all the workloads in one script), for what only
# size reaches: recursion over deep input, quadratic work, huge messages.
# Any crash, sanitizer report, leak or input taking over 5 s (--long: or
# 4 times the slowest long seed, timed first; a hang) makes
# it exit 1 and print the reproducer's path, kept in
# $FUZZ_BUILD/fuzz-artifacts/; copy it into tests/fuzz/regressions/ once
# fixed.  The source tree is never written while fuzzing.
#
# FUZZ_CORPUS=DIR keeps the corpus in DIR (outside the source tree) across
# runs instead of a temporary directory.  Ends with "fuzz: ok ..." or
# "fuzz: FAILED ...".
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${FUZZ_BUILD:-$top/build-fuzz}
mode=fuzz
seconds=60
max_len=4096
len_control=100         # libFuzzer's default: lengths grow slowly
if [ "${1:-}" = "--replay" ]; then
	mode=replay
	shift
else
	if [ "${1:-}" = "--long" ]; then
		mode=long
		seconds=30
		max_len=1048576
		len_control=0
		shift
	fi
	if [ $# -gt 0 ]; then
		seconds=$1
		shift
	fi
fi
case $seconds in
*[!0-9]* | "") echo "usage: $0 [--long] [SECONDS [LIBFUZZER-OPTION...]] | --replay" >&2; exit 2 ;;
esac

# Configure and build (only the fuzz target and what it links).
cd "$top"
if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt Makefile.in ]; then
	autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
fi
mkdir -p "$build"
cd "$build"
if [ ! -f Makefile ] || ! grep -q '^FUZZ_LDFLAGS = .*fuzzer' Makefile; then
	echo "== $build: CC=clang configure --enable-fuzzing"
	CC=clang "$top/configure" -q --enable-fuzzing || {
		echo "fuzz: FAILED (configure; needs clang with libFuzzer)"
		exit 1
	}
fi
make -s -j"$(nproc 2>/dev/null || echo 2)" lang/parser.h tests/fuzz/fuzz_compile || {
	echo "fuzz: FAILED (build)"
	exit 1
}
fuzzer=$build/tests/fuzz/fuzz_compile

regressions() {
	for f in "$top"/tests/fuzz/regressions/*; do
		case $f in */README) continue ;; esac
		[ -f "$f" ] && echo "$f"
	done
	return 0
}

if [ $mode = replay ]; then
	files=$(regressions)
	if [ -z "$files" ]; then
		echo "fuzz: ok (no regressions to replay)"
		exit 0
	fi
	# libFuzzer runs each file given as an argument once
	# shellcheck disable=SC2086
	if "$fuzzer" -timeout=5 -rss_limit_mb=2048 $files; then
		echo "fuzz: ok (replayed $(echo "$files" | wc -l) regressions)"
		exit 0
	fi
	echo "fuzz: FAILED (a regression reproduces; see above)"
	exit 1
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flowbench-fuzz.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
corpus=${FUZZ_CORPUS:-$tmp/corpus}
mkdir -p "$corpus" "$build/fuzz-artifacts"
cp "$top"/workloads/*.f "$top"/tests/fuzz/seeds/* "$corpus"/
for f in $(regressions); do
	cp "$f" "$corpus/regression-$(basename "$f")"
done

# rep N TEXT: TEXT N times, no newline
rep() {
	awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}

# Long seeds, written to the corpus for --long (generated: none is kept
# in the source tree).  Each is at or past a limit of docs/wml.md, or
# simply long.
long_seeds() {
	dir=$1
	{ printf 'set $x = 1'; rep 60000 '+$x'; printf '\nrun 1\n'; } >"$dir/long-sum.f"
	{ printf 'set $x = '; rep 999 '('; printf 1; rep 999 ')'; printf '\nrun 1\n'; } >"$dir/long-parens.f"
	{ printf 'set $x = '; rep 50000 '- ('; printf 1; rep 50000 ')'; printf '\n'; } >"$dir/long-minus.f"
	{ printf 'set $x = '; rep 500 'cvar(type=t, a='; printf 1; rep 500 ')'; printf '\n'; } >"$dir/long-calls.f"
	{ printf 'echo "'; rep 20000 'text $x ${y}\\n'; printf '"\n'; } >"$dir/long-string.f"
	{ printf 'define fileset name=fs'; rep 10000 ',path=/tmp/x,size=1k';
	  printf '\ndefine process name=p { thread name=t { flowop hog name=h, value=1 } }\nrun 1\n'; } >"$dir/long-attrs.f"
	{ printf 'set $r = randvar(type=tabular, randtable={'; rep 10000 '{10, 1k, 2k},';
	  printf '{10, 1, 2}})\n'; } >"$dir/long-table.f"
	awk 'BEGIN {
		print "define flowop name=c1 { flowop hog name=h, value=1 }"
		for (k = 2; k <= 3000; k++)
			printf "define flowop name=c%d { flowop c%d name=a flowop c%d name=b }\n", k, k - 1, k - 1
		print "define process name=p { thread name=t { flowop c3000 name=top } }"
		print "run 1"
	}' >"$dir/long-composites.f"
	for i in 1 2 3 4 5 6 7 8; do cat "$top"/workloads/*.f; done >"$dir/long-workloads.f"
	# 15,000 misspelt 60-character fio options, each an error with a
	# "did you mean" search over every option name (6 s once, unbounded)
	awk 'BEGIN {
		print "[job]"
		for (i = 0; i < 15000; i++) {
			k = ""
			for (j = 0; j < 60; j++)
				k = k substr("abcdefilmnoprstuwxz_", (i * 7 + j * 13) % 20 + 1, 1)
			print k "=1"
		}
	}' >"$dir/long-fio-typos.fio"
}

log=$tmp/fuzz.log
# An input is a hang when it takes over 5 s, or (--long) over 4 times the
# slowest long seed timed here and now, whichever is more: the 3,000
# composites took 2.3 to 3.4 s with both cores busy (stress-ng, make check),
# and libFuzzer's mutants of them longer, so a fixed 5 s flags a busy
# moment; a real hang runs on forever, and a quadratic blow-up of a
# 1 MB input for minutes.
unit_timeout=5
if [ $mode = long ]; then
	long_seeds "$corpus"
	slowest=$("$fuzzer" -timeout=60 -rss_limit_mb=2048 "$corpus"/long-* 2>&1 |
		sed -n 's/^Executed .* in \([0-9][0-9]*\) ms$/\1/p' | sort -n | tail -1)
	unit_timeout=$(( (4 * ${slowest:-0} + 999) / 1000 ))
	[ "$unit_timeout" -ge 5 ] || unit_timeout=5
	echo "== an input is a hang after $unit_timeout s (the slowest long seed: ${slowest:-?} ms)"
fi
echo "== fuzzing for $seconds s: $(ls "$corpus" | wc -l) seed inputs, up to $max_len bytes"
rc=0
"$fuzzer" -max_total_time="$seconds" -timeout="$unit_timeout" -rss_limit_mb=2048 \
	-max_len="$max_len" -len_control="$len_control" \
	-dict="$top/tests/fuzz/wml.dict" \
	-artifact_prefix="$build/fuzz-artifacts/" -print_final_stats=1 \
	"$@" "$corpus" >"$log" 2>&1 || rc=$?

# the last progress line (#N DONE/pulse cov: ft: corp: exec/s) and the totals
grep -E '^#[0-9]+' "$log" | tail -1 || true
grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$log" || true
if [ $rc -ne 0 ]; then
	grep -E '^==[0-9]+==ERROR|SUMMARY|ALARM|Test unit written' "$log" | head -20
	tail -60 "$log" >&2
	repro=$(sed -n 's/.*Test unit written to \([^ ]*\).*/\1/p' "$log" | tail -1)
	echo "fuzz: FAILED (libFuzzer exit $rc; reproducer: ${repro:-none written}; replay: $fuzzer ${repro:-FILE})"
	exit 1
fi
echo "fuzz: ok ($seconds s, corpus $(ls "$corpus" | wc -l) inputs)"
