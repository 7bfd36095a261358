#!/bin/sh
# safety.sh - flowbench never touches what it did not create: a foreign
# file beside its files survives every run, a second run with `reuse`
# does not rewrite the file, and an unmarked directory in the way is an
# error that leaves it untouched.
. "$(dirname "$0")/lib.sh"
need strace

echo "precious" >"$tmp/foreign.txt"
run() {
	"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$1" \
		-D filesize=8m -D nthreads=1 -D runtime=1
}
# traced_run N: run in $tmp under strace (writes to $tmp/tN, output to
# $tmp/outN); LeakSanitizer cannot run under ptrace, so it is off here
traced_run() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -qq -e trace=write,pwrite64 -s 0 -o "$tmp/t$1" \
		"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep \
		-D dir="$tmp" -D filesize=8m -D nthreads=1 -D runtime=1 \
		>"$tmp/out$1" 2>&1 || { cat "$tmp/out$1"; fail "run $1 failed"; }
}
# 1 MiB writes are preallocation; the workload itself writes 8 KiB
prealloc_writes() {
	grep -cE '(write|pwrite64)\([0-9]+, .*, 1048576(, [0-9]+)?\) += 1048576$' "$1" || true
}

traced_run 1
n1=$(prealloc_writes "$tmp/t1")
[ "$n1" -eq 8 ] || fail "first run: expected 8 preallocation writes of 1 MiB, saw $n1"
ok "first run preallocates 8 MiB in 8 writes"
[ -f "$tmp/largefile1/.flowbench" ] || fail "no .flowbench marker in $tmp/largefile1"
ok "the directory flowbench created is marked"

traced_run 2
n2=$(prealloc_writes "$tmp/t2")
[ "$n2" -eq 0 ] || fail "second run with reuse rewrote the file ($n2 writes of 1 MiB)"
ok "second run with reuse does not rewrite the file"

[ "$(cat "$tmp/foreign.txt")" = "precious" ] || fail "foreign file was modified"
ok "a foreign file beside the workload's files is untouched"

# an unmarked directory where flowbench wants to create its own
other=$tmp/other
mkdir -p "$other/largefile1/00000001"
echo "not yours" >"$other/largefile1/00000001/00000001"
if run "$other" >"$tmp/out3" 2>"$tmp/err3"; then
	fail "flowbench used a directory it did not create"
fi
grep -q "$other/largefile1" "$tmp/err3" || { cat "$tmp/err3"; fail "the error does not name the directory"; }
[ "$(cat "$other/largefile1/00000001/00000001")" = "not yours" ] ||
	fail "the unmarked file was modified"
ok "an unmarked directory in the way is refused and left as it was"
