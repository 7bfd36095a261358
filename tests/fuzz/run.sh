#!/bin/sh
# run.sh - fuzz the WML front end (scanner, parser, -D values, compiler).
#
#   tests/fuzz/run.sh [SECONDS [LIBFUZZER-OPTION...]]   fuzz (default 60 s)
#   tests/fuzz/run.sh --replay                          replay regressions/
#
# Builds tests/fuzz/fuzz_compile with clang's libFuzzer, ASan and UBSan in
# its own out-of-tree directory ($FUZZ_BUILD, default build-fuzz/ beside
# build/ and build-asan/), seeds a temporary corpus with workloads/*.f, tests/fuzz/seeds/* (fio jobs) and
# tests/fuzz/regressions/*, and runs one fuzzing process on one core.
# Any crash, sanitizer report, leak or input taking over 5 s (a hang) makes
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
if [ "${1:-}" = "--replay" ]; then
	mode=replay
	shift
elif [ $# -gt 0 ]; then
	seconds=$1
	shift
fi
case $seconds in
*[!0-9]* | "") echo "usage: $0 [SECONDS [LIBFUZZER-OPTION...]] | --replay" >&2; exit 2 ;;
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

log=$tmp/fuzz.log
echo "== fuzzing for $seconds s: $(ls "$corpus" | wc -l) seed inputs"
rc=0
"$fuzzer" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 \
	-max_len=4096 -dict="$top/tests/fuzz/wml.dict" \
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
