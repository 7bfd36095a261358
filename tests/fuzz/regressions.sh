#!/bin/sh
# regressions.sh - replay every saved fuzzing reproducer (make check).
#
# tests/fuzz/regressions/ holds the inputs that once crashed, leaked or
# hung the front end (scanner, parser, -D values, compiler); each must now
# go through tests/fuzz/replay (the fuzz target without libFuzzer) cleanly:
# no crash, no sanitizer report (in the sanitized builds), no hang.  The
# fuzzer's seeds, workloads/*.f and tests/fuzz/seeds/*, are replayed too.
set -eu

: "${FLOWBENCH:?run through make check, or set FLOWBENCH=path/to/flowbench}"
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
replay=$(dirname "$FLOWBENCH")/tests/fuzz/replay
[ -x "$replay" ] || { echo "FAIL: $replay is not built" >&2; exit 1; }

status=0
for f in "$TOP_SRCDIR"/tests/fuzz/regressions/* "$TOP_SRCDIR"/tests/fuzz/seeds/* "$TOP_SRCDIR"/workloads/*.f; do
	case $f in */README) continue ;; esac
	[ -f "$f" ] || continue
	# one file at a time, so that a hang or a crash names its input
	if ! out=$(timeout 60 "$replay" "$f" 2>&1); then
		echo "$out" | tail -30 >&2
		echo "FAIL: $f (replay exited non-zero: crash, sanitizer report or hang)" >&2
		status=1
	else
		echo "ok: $f"
	fi
done
exit $status
