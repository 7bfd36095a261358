#!/bin/sh
# accounting.sh - every read and write op flowbench reports is a pread or
# pwrite the worker processes really made: counted by strace, they must be
# equal, and bytes must be ops x iosize.
. "$(dirname "$0")/lib.sh"
need strace

out=$tmp/out
trace=$tmp/strace
# create the file first, so preallocation writes are not in the count
"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache warm -D dir="$tmp" \
	-D filesize=64m -D nthreads=2 -D runtime=1 >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "first run failed"; }

strace -f -qq -c -U name,calls -e trace=pread64,pwrite64 -o "$trace" \
	"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache cold -D dir="$tmp" \
	-D filesize=64m -D nthreads=2 -D runtime=3 >"$out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$out"; fail "flowbench under strace failed"; }

calls() { awk -v n="$1" '$1 == n {print $2}' "$trace"; }
preads=$(calls pread64)
pwrites=$(calls pwrite64)
reads=$(breakdown_field "$out" rand-read1 ops)
writes=$(breakdown_field "$out" rand-write1 ops)
echo "reported: $reads reads, $writes writes; strace: $preads pread64, $pwrites pwrite64"
[ -n "$preads" ] && [ "$reads" -gt 0 ] || fail "no reads"
[ "$reads" -eq "$preads" ] || fail "reported reads $reads != pread64 calls $preads"
[ "$writes" -eq "$pwrites" ] || fail "reported writes $writes != pwrite64 calls $pwrites"
ok "reported op counts equal the system calls made"

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
