#!/bin/sh
# oplines.sh - one op of bench/overhead.f (a random 8 KiB read of a
# cached file) touches few cache lines and pages in user space: the
# thread's hot fields, its flowop entry, the flowop's state, its slot, its
# statistics line and one histogram bucket line, the halt word and the
# stack (issue 15: after pread() returns, every line an op touches may
# have been evicted by the kernel's 8 KiB copy).  Counted, not timed:
# bench/oplines traces every load and store under valgrind's lackey, so
# the numbers do not depend on the machine's load.  Before issue 15 an
# op touched 27 lines on 12 pages, after its second round 11 lines on 5
# pages; the bounds leave room for a field or two (and the stack's
# placement, which moves a line or so), not for a chain of pointers.
# Skipped (77) without valgrind or in sanitizer builds.
. "$(dirname "$0")/lib.sh"
need valgrind
need objdump
need addr2line
need_plain_build io_read

"$TOP_SRCDIR/bench/oplines" flowbench "$FLOWBENCH" "$tmp/data" >"$tmp/out" 2>&1 ||
	{ cat "$tmp/out"; fail "bench/oplines failed"; }
cat "$tmp/out"
ops=$(awk '/^ops traced:/ { print $3 }' "$tmp/out")
lines=$(awk '/^distinct 64-byte lines per op:/ { sub(",", "", $7); print $7 }' "$tmp/out")
pages=$(awk '/^distinct 4 KiB pages per op:/ { print $8 }' "$tmp/out")
[ -n "$ops" ] && [ "$ops" -ge 50 ] || fail "only '$ops' ops traced"
awk -v l="$lines" 'BEGIN { exit !(l > 0 && l <= 14) }' ||
	fail "an op touches $lines cache lines (at most 14)"
ok "an op touches $lines cache lines (at most 14) over $ops ops"
# (8, not 7: the same code, a9033dd, touches 8 pages on a freshly booted
# machine of the project's kind and 7 on another; which page each line
# lands on follows where the loader and the allocator put things, so the
# bound keeps a page of room for layout and still refuses the 12 pages of
# before issue 15)
awk -v p="$pages" 'BEGIN { exit !(p > 0 && p <= 8) }' ||
	fail "an op touches $pages pages (at most 8)"
ok "an op touches $pages pages (at most 8)"
