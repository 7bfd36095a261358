#!/bin/sh
# accounting.sh - every read and write op flowbench reports is a pread or
# pwrite the worker processes really made: counted by strace, they must be
# equal, and bytes must be ops x iosize.
. "$(dirname "$0")/lib.sh"
need strace

out=$tmp/out
trace=$tmp/strace
# create the file first, so preallocation writes are not in the count
"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp" \
	-D filesize=64m -D nthreads=2 -D runtime=1 >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "first run failed"; }

# LeakSanitizer cannot run under ptrace; leaks are checked by the other tests
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -ff -qq -s 0 -e trace=pread64,pwrite64 -o "$trace" \
	"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache cold -D dir="$tmp" \
	-D filesize=64m -D nthreads=2 -D runtime=3 >"$out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$out"; fail "flowbench under strace failed"; }

# 8 KiB calls only: the dynamic loader's own preads are not the workload's
# (-ff: one file per thread, so no call is split into unfinished/resumed)
calls() { cat "$trace".* | grep -cE "^$1\\([0-9]+, .*, 8192, [0-9]+\\) += 8192$" || true; }
# ops done but ended after the deadline are reported as "Not counted"
not_counted() {
	sed -n "s/.*Not counted:.*[(,] *$1 \\([0-9][0-9]*\\).*/\\1/p" "$out" | head -1 | grep . || echo 0
}
preads=$(calls pread64)
pwrites=$(calls pwrite64)
reads=$(breakdown_field "$out" rand-read1 ops)
writes=$(breakdown_field "$out" rand-write1 ops)
late_r=$(not_counted rand-read1)
late_w=$(not_counted rand-write1)
echo "reported: $reads reads + $late_r after the deadline, $writes writes + $late_w after the deadline"
echo "strace:   $preads pread64, $pwrites pwrite64 of 8 KiB"
[ "$reads" -gt 0 ] && [ "$writes" -gt 0 ] || fail "no reads or writes"
[ $((reads + late_r)) -eq "$preads" ] || fail "reported reads $reads + $late_r != pread64 calls $preads"
[ $((writes + late_w)) -eq "$pwrites" ] || fail "reported writes $writes + $late_w != pwrite64 calls $pwrites"
# at most one op per thread (4 threads) can straddle the deadline
[ $((late_r + late_w)) -le 4 ] || fail "$((late_r + late_w)) ops after the deadline for 4 threads"
ok "every pread/pwrite made is reported: counted in the window, or as ended after it"

# bytes: mb/s x run time x 2^20 = ops x 8192, within the print rounding
for op in rand-read1 rand-write1; do
	ops=$(breakdown_field "$out" $op ops)
	mbs=$(breakdown_field "$out" $op mbs)
	opss=$(breakdown_field "$out" $op opss)
	awk -v ops="$ops" -v mbs="$mbs" -v opss="$opss" 'BEGIN {
		secs = ops / (opss > 0 ? opss : 1)
		bytes = mbs * 1048576 * secs
		want = ops * 8192
		if (bytes > want * 1.01 + 0.05 * 1048576 * secs || bytes < want * 0.99 - 0.05 * 1048576 * secs) exit 1
	}' || fail "$op: bytes (from mb/s) do not equal ops x 8 KiB"
done
ok "bytes = ops x iosize"

grep -Eq 'Cache: ' "$out" || fail "the run does not say how it made the cache cold"
ok "cache method reported: $(grep -E 'Cache: ' "$out" | sed 's/^[0-9.]*: //')"
