#!/bin/sh
# opinsns.sh - one op of bench/overhead.f (a random 8 KiB read of a
# cached file) costs few instructions in user space: counted by
# bench/opinsns under valgrind's callgrind (inside thread_main, the
# difference of a 1 s and a 3 s run over the difference of their ops), so
# the number does not depend on the machine's load.  The clock is forced
# to clock_gettime (FLOWBENCH_CLOCK=monotonic) so that the count does not
# depend on the machine's clock source either; under valgrind that call
# is glibc's, not the vDSO's.  Issue 15 took an op from 286 instructions
# to 210 on that clock (254 -> 177 on the TSC); the bound leaves room for
# a branch or two, not for the out-of-line io_prepare() call (+25) or
# libc's syscall() (+15) coming back.  Skipped (77) without valgrind or
# in sanitizer builds.
. "$(dirname "$0")/lib.sh"
need valgrind
need callgrind_annotate
need_plain_build thread_main

FLOWBENCH_CLOCK=monotonic "$TOP_SRCDIR/bench/opinsns" flowbench "$FLOWBENCH" \
	"$tmp/data" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "bench/opinsns failed"; }
cat "$tmp/out"
per=$(sed -n 's/.*: \([0-9.]*\) instructions per op$/\1/p' "$tmp/out")
[ -n "$per" ] || fail "no 'instructions per op' in bench/opinsns' output"
awk -v n="$per" 'BEGIN { exit !(n > 30 && n <= 225) }' ||
	fail "an op costs $per instructions in user space (at most 225)"
ok "an op costs $per instructions in user space (at most 225)"
