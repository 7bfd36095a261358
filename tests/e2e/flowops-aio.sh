#!/bin/sh
# flowops-aio.sh - aiowrite and aiowait do real asynchronous I/O on
# io_uring: every write reported is one the workers submitted (strace),
# none through pwrite or POSIX aio; aiowait really waits (each one reaps
# the write before it); the data reaches the file; sequential writes grow
# it by exactly what was written; a thread without aiowait runs on ring
# back-pressure; a rate limit or a delay reaps the requests in flight
# before it sleeps; Ctrl-C in aiowait exits promptly.
. "$(dirname "$0")/lib.sh"
need strace
need python3

d=$tmp/d
mkdir "$d"
# wl NAME FLOWOPS: a one-thread workload on the 16 MiB file `big` (kept
# between runs) or the empty file `grow`, saved as $tmp/NAME.f
wl() {
	cat >"$tmp/$1.f" <<F
define file name=big,path=$d,size=16m,prealloc,reuse
define file name=grow,path=$d,size=0,prealloc,reuse
define process name=p {
  thread name=t {
$2
  }
}
run ${3:-2}
F
}
# fb NAME [strace args...]: run $tmp/NAME.f (under strace if args given)
fb() {
	n=$1
	shift
	if [ $# -gt 0 ]; then
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -ff -qq -o "$tmp/$n.tr" "$@" \
			"$FLOWBENCH" run "$tmp/$n.f" --cache keep >"$tmp/$n.out" 2>&1 ||
			{ cat "$tmp/$n.out"; fail "$n: run failed"; }
	else
		"$FLOWBENCH" run "$tmp/$n.f" --cache keep >"$tmp/$n.out" 2>&1 ||
			{ cat "$tmp/$n.out"; fail "$n: run failed"; }
	fi
}
ops() { breakdown_field "$tmp/$1.out" "$2" ops; }
late() { sed -n "s/.*Not counted:.*[(,] *$2 \\([0-9][0-9]*\\).*/\\1/p" "$tmp/$1.out" | grep . || echo 0; }
# bytes_ok NAME FLOWOP IOSIZE: its mb/s x run time = ops x IOSIZE
bytes_ok() {
	awk -v ops="$(ops "$1" "$2")" -v mbs="$(breakdown_field "$tmp/$1.out" "$2" mbs)" \
	    -v opss="$(breakdown_field "$tmp/$1.out" "$2" opss)" -v sz="$3" 'BEGIN {
		secs = ops / (opss > 0 ? opss : 1)
		bytes = mbs * 1048576 * secs
		want = ops * sz
		if (bytes > want * 1.01 + 0.05 * 1048576 * secs || bytes < want * 0.99 - 0.05 * 1048576 * secs) exit 1
	}'
}
big=$d/big/00000001/00000001
grow=$d/grow/00000001/00000001

# aiowait alone: creates the files; nothing in flight, so 0-latency ops
wl create '    flowop aiowait name=wt' 1
fb create
[ "$(ops create wt)" -gt 0 ] || fail "aiowait alone did no op"
[ "$(breakdown_field "$tmp/create.out" wt msop)" = "0.000" ] ||
	fail "aiowait with nothing in flight took time: $(grep '^wt ' "$tmp/create.out")"
[ -f "$big" ] && [ "$(stat -c %s "$big")" -eq 16777216 ] || fail "no 16 MiB file at $big"
ok "aiowait with nothing in flight: $(ops create wt) ops of 0 ms"

# zero the file, so the writes' pattern shows
dd if=/dev/zero of="$big" bs=1M count=16 conv=notrunc status=none
sum0=$(cksum <"$big")

# random aiowrite + aiowait under strace
wl rand '    flowop aiowrite name=aw,filename=big,iosize=8k,random
    flowop aiowait name=wt'
fb rand -e trace=io_uring_setup,io_uring_enter,io_submit,pwrite64,pwritev,pwritev2
aw=$(ops rand aw)
wt=$(ops rand wt)
aw_late=$(late rand aw)
echo "reported: aw $aw (+ $aw_late not counted), wt $wt"
[ "$aw" -gt 0 ] || fail "aiowrite did no op"
bytes_ok rand aw 8192 || fail "aiowrite: bytes (from mb/s) do not equal ops x 8 KiB"
ok "aiowrite: $aw ops, bytes = ops x 8 KiB"
# each aiowait waited for the one write before it: as many of each
diff=$((aw + aw_late - wt))
[ $diff -ge 0 ] && [ $diff -le 1 ] ||
	fail "aiowrite $aw + $aw_late not counted vs aiowait $wt: aiowait did not reap each write"
ok "every aiowait reaped the write before it ($wt waits)"
cat "$tmp"/rand.tr.* >"$tmp/rand.all"
submits=$(grep -cE '^io_uring_enter\([0-9]+, 1, .*\) += 1$' "$tmp/rand.all" || true)
enters=$(grep -c '^io_uring_enter(' "$tmp/rand.all" || true)
echo "strace: $enters io_uring_enter, $submits submitting one write"
[ "$submits" -eq $((aw + aw_late)) ] ||
	fail "$submits io_uring submissions for $aw + $aw_late reported writes"
[ "$enters" -ge "$wt" ] || fail "$enters io_uring_enter calls for $wt aiowaits"
[ "$(grep -c '^io_uring_setup(' "$tmp/rand.all")" -eq 1 ] || fail "not one io_uring for one thread"
grep -qE '^(io_submit|pwrite64|pwritev2?)\(' "$tmp/rand.all" &&
	fail "writes made without io_uring: $(grep -m1 -E '^(io_submit|pwrite)' "$tmp/rand.all")"
ok "every write reported is one io_uring submission; no pwrite or io_submit"
sum1=$(cksum <"$big")
[ "$sum0" != "$sum1" ] || fail "the file did not change"
nonzero=$(tr -d '\000' <"$big" | wc -c)
[ "$nonzero" -gt 8000 ] || fail "only $nonzero non-zero bytes in the file"
[ "$(stat -c %s "$big")" -eq 16777216 ] || fail "random writes changed the file size"
ok "the data reached the file ($nonzero non-zero bytes, size unchanged)"

# sequential: the file grows by exactly what was written
wl seq '    flowop aiowrite name=aw,filename=grow,iosize=4k
    flowop aiowait name=wt' 1
fb seq
aw=$(ops seq aw)
aw_late=$(late seq aw)
size=$(stat -c %s "$grow")
[ "$aw" -gt 0 ] || fail "sequential aiowrite did no op"
[ "$size" -eq $(((aw + aw_late) * 4096)) ] ||
	fail "sequential: file is $size bytes for $aw + $aw_late writes of 4 KiB"
ok "sequential aiowrite grows the file by ops x iosize ($aw + $aw_late drained at the end)"

# no aiowait: back-pressure at the ring's depth; the end drains the rest
wl nowait '    flowop aiowrite name=aw,filename=big,iosize=4k,random' 1
fb nowait
aw=$(ops nowait aw)
aw_late=$(late nowait aw)
[ "$aw" -gt 256 ] || fail "without aiowait: only $aw writes"
[ "$aw_late" -le 256 ] || fail "without aiowait: $aw_late writes in flight at the end"
ok "without aiowait: $aw writes reaped by back-pressure, $aw_late drained at the end, exit 0"

# O_DIRECT and O_SYNC on the same ring
wl direct '    flowop aiowrite name=aw,filename=big,iosize=8k,random,directio,dsync
    flowop aiowait name=wt' 1
fb direct -e trace=openat,openat2
[ "$(ops direct aw)" -gt 0 ] || fail "directio,dsync aiowrite did no op"
grep -qE "openat2?\\(.*00000001/00000001\".*O_DIRECT" "$tmp"/direct.tr.* ||
	fail "directio: the file was not opened with O_DIRECT"
ok "directio,dsync aiowrite: $(ops direct aw) ops on an O_DIRECT file"

# Ctrl-C while the thread waits in aiowait: prompt exit 1
wl intr '    flowop aiowrite name=aw,filename=big,iosize=64k,random,dsync,iters=32
    flowop aiowait name=wt' 60
"$FLOWBENCH" run "$tmp/intr.f" --cache keep >"$tmp/intr.out" 2>&1 &
pid=$!
# once the run is on (start-up takes what a busy machine makes it take)
i=0
until grep -q Running "$tmp/intr.out"; do
	i=$((i + 1)); [ $i -le 400 ] || { kill -9 $pid; fail "the run did not start: $(cat "$tmp/intr.out")"; }
	sleep 0.05
done
# (no moment a check needs: an interrupt before the first aiowait ends
# the run alike)
sleep 0.5
kill -INT $pid
t0=$(date +%s%N)
rc=0
wait $pid || rc=$?
dt=$((($(date +%s%N) - t0) / 1000000))
[ $rc = 130 ] || { cat "$tmp/intr.out"; fail "interrupted run exited $rc, expected 130"; }
# a ceiling: an aiowait the interrupt does not end holds the run 60 s (its
# dsync writes in flight finish first, which a loaded disk makes slow)
[ $dt -lt 10000 ] || fail "interrupted run took $dt ms to exit"
grep -q interrupted "$tmp/intr.out" || fail "no 'interrupted' message"
ok "SIGINT during aiowrite/aiowait: exit 130 in $dt ms"

# ---- aioread and iodepth ----
# p50 NAME FLOWOP: the flowop's median latency (ms) from the percentile
# lines (automatic units: 812ns, 3.605µs, 12.35ms, 1.500s)
p50() {
	awk -v n="$2" '/Latency percentiles/ { on = 1; next }
	on && $2 == n { x = $3
		if (sub(/ns$/, "", x)) x /= 1e6
		else if (sub(/ms$/, "", x)) x += 0
		else if (sub(/µs$/, "", x)) x /= 1e3
		else if (sub(/s$/, "", x)) x *= 1e3
		print x; exit }' "$tmp/$1.out"
}

# aioread iodepth=8: the first execution submits 8 reads in one
# io_uring_enter; every read submitted is an op reported (or not counted
# at the end); nothing goes through pread
wl depth '    flowop aioread name=rd,filename=big,iosize=4k,random,iodepth=8' 1
fb depth -e trace=io_uring_setup,io_uring_enter,io_submit,pread64,preadv,preadv2
rd=$(ops depth rd)
rd_late=$(late depth rd)
[ "$rd" -gt 0 ] || fail "aioread iodepth=8 did no op"
bytes_ok depth rd 4096 || fail "aioread: bytes (from mb/s) do not equal ops x 4 KiB"
grep -q 'flowop rd: at most 8 requests in flight at once (iodepth=8)' "$tmp/depth.out" ||
	fail "no 'at most 8 requests in flight' line: $(grep 'in flight' "$tmp/depth.out")"
cat "$tmp"/depth.tr.* >"$tmp/depth.all"
first=$(grep -m1 '^io_uring_enter(' "$tmp/depth.all")
echo "$first" | grep -qE '^io_uring_enter\([0-9]+, 8, .*\) += 8$' ||
	fail "the first submission is not 8 reads at once: $first"
submitted=$(sed -n 's/^io_uring_enter(.* = \([0-9][0-9]*\)$/\1/p' "$tmp/depth.all" |
	awk '{ n += $1 } END { print n + 0 }')
echo "strace: $submitted reads submitted; reported $rd (+ $rd_late not counted)"
[ "$submitted" -eq $((rd + rd_late)) ] ||
	fail "$submitted reads submitted, $rd + $rd_late reported"
[ "$rd_late" -le 8 ] || fail "$rd_late reads in flight at the end, iodepth is 8"
# (the loader's preads of shared objects are not of 4 KiB)
grep -qE '^(io_submit\(|pread64\([0-9]+, .*, 4096, [0-9]+\))' "$tmp/depth.all" &&
	fail "reads made without io_uring: $(grep -m1 -E '^(io_submit|pread64\([0-9]+, .*, 4096,)' "$tmp/depth.all")"
ok "aioread iodepth=8: 8 submitted at once, $submitted submitted = $rd ops + $rd_late not counted"

# a flowop other than aioread/aiowrite refuses iodepth; 0 is refused
printf 'define file name=f,path=%s,size=1m\ndefine process name=p {\n  thread name=t {\n    flowop %s\n  }\n}\nrun 1\n' \
	"$d" 'read name=r,filename=f,iosize=4k,iodepth=4' >"$tmp/bad1.f"
"$FLOWBENCH" check "$tmp/bad1.f" >"$tmp/bad1.out" 2>&1 && fail "read with iodepth accepted"
grep -q "bad1.f:4:[0-9]*: flowop read does not take attribute 'iodepth'" "$tmp/bad1.out" ||
	fail "read iodepth: $(cat "$tmp/bad1.out")"
sed 's/read name=r,filename=f,iosize=4k,iodepth=4/aioread name=r,filename=f,iosize=4k,iodepth=0/' \
	"$tmp/bad1.f" >"$tmp/bad2.f"
"$FLOWBENCH" check "$tmp/bad2.f" >"$tmp/bad2.out" 2>&1 && fail "iodepth=0 accepted"
grep -q "bad2.f:4:[0-9]*: flowop r: iodepth must be 1 to 32768, not 0" "$tmp/bad2.out" ||
	fail "iodepth=0: $(cat "$tmp/bad2.out")"
ok "iodepth: refused on read and as 0, with the place"

# Before a thread sleeps for a rate limit or a delay it reaps what it has
# in flight (as fio does before a rate or thinktime sleep).  aiowrite
# without aiowait is otherwise reaped only by back-pressure, at 256 in
# flight: these runs submit fewer, so without it no write would be
# counted, and each would carry the sleeps it waited out.
# msop NAME FLOWOP: its mean latency in ms
msop() { breakdown_field "$tmp/$1.out" "$2" msop; }
wl gate '    flowop aiowrite name=aw,filename=big,iosize=4k,random
    flowop eventlimit name=gate' 2
sed -i 's/^run /eventgen rate=100\nrun /' "$tmp/gate.f"
wl pause '    flowop aiowrite name=aw,filename=big,iosize=4k,random
    flowop delay name=pause,value=0.01' 2
for n in gate pause; do
	fb $n
	aw=$(ops $n aw)
	aw_late=$(late $n aw)
	sleeps=$(ops $n $n)
	echo "$n: aiowrite $aw (+ $aw_late not counted) at $(msop $n aw) ms, $n $sleeps at $(msop $n $n) ms"
	[ "$sleeps" -ge 20 ] || fail "$n: only $sleeps sleeps in 2 s"
	# a write per sleep, reaped at the next wait (the gate waits once per
	# batch of about 10 events; a stalled generator brings bigger ones):
	# only those since the last wait are left for the end
	[ $((aw + aw_late)) -ge "$sleeps" ] && [ $((2 * aw)) -ge "$sleeps" ] &&
		[ $((2 * aw_late)) -le "$sleeps" ] ||
		fail "$n: $aw writes counted, $aw_late drained at the end, for $sleeps sleeps"
	# a write that waited out a sleep would carry a whole one (the gate's
	# waits come once per batch of about 10 events, so its mean is a tenth
	# of one): the writes' mean stays under half a mean sleep (0.04-0.5 ms
	# against 10 ms here, 1.3 ms on btrfs with both CPUs busy)
	awk -v w="$(msop $n aw)" -v s="$(msop $n $n)" 'BEGIN { exit !(w * 2 < s) }' ||
		fail "$n: the writes' mean latency $(msop $n aw) ms includes the sleeps ($(msop $n $n) ms)"
done
ok "a rate limit's or a delay's sleep first reaps the writes in flight: counted, their latency without the sleep"

# O_DIRECT: the rest needs a file system that takes it, on a device
# (tmpfs takes O_DIRECT since Linux 6.6, but a read there is a copy:
# io_uring's own cost, 40-50 us when it hands the read to a worker,
# is all an aioread's latency, against 1 us for a pread)
if ! dd if="$big" of=/dev/null bs=4k count=1 iflag=direct status=none 2>/dev/null; then
	echo "SKIP (part): O_DIRECT refused under $d"
	exit 0
fi
if [ "$(stat -f -c %T "$d")" = tmpfs ]; then
	echo "SKIP (part): $d is on tmpfs, no device under it"
	exit 0
fi

# iodepth=1 is one read at a time: from its submission to its completion
# (fio's lat: slat + clat) it takes a pread's time (same thread,
# interleaved, so both see the same device and load).  Not its clat alone:
# io_uring may issue an O_DIRECT read inline and return from the submit
# call with it done (seen: 44 % of reads with a clat under 750 ns, the
# time in slat), which a busy machine makes more likely.
wl lat '    flowop aioread name=ar,filename=big,iosize=4k,random,directio,iodepth=1
    flowop read name=sr,filename=big,iosize=4k,random,directio' 1
"$FLOWBENCH" run "$tmp/lat.f" --cache keep -o "$tmp/lat.json" >"$tmp/lat.out" 2>&1 ||
	{ cat "$tmp/lat.out"; fail "lat: run failed"; }
set -- $(python3 - "$tmp/lat.json" <<'EOF'
import json, sys
fl = {f["name"]: f for f in json.load(open(sys.argv[1]))["runs"][0]["flowops"]}
print(fl["ar"]["async"]["lat_ns"]["percentiles"]["50"] / 1e6,
      fl["sr"]["latency_ns"]["percentiles"]["50"] / 1e6)
EOF
)
ar=$1 sr=$2
echo "p50: aioread iodepth=1 $ar ms (submission to completion), read $sr ms"
awk -v a="$ar" -v s="$sr" 'BEGIN { exit !(a > 0 && s > 0 && a < 2 * s + 0.02 && a > s / 2 - 0.02) }' ||
	fail "aioread iodepth=1 p50 $ar ms (submission to completion) is not a pread's ($sr ms)"
ok "aioread iodepth=1 with directio: p50 $ar ms from submission to completion, pread $sr ms"

# iodepth=8 with directio: the block device under the file really has
# several reads in flight (/sys/block/DEV/inflight sampled during the
# run).  Measured here: >= 4 in 20-50 % of the samples at iodepth=8, in
# 0-3 % at iodepth=1 (other processes' I/O) on a quiet machine, but only
# 2-3 % at iodepth=8 with both CPUs busy (the device idles between
# refills).  So the bound is relative: depth 8 must see 4 in flight more
# often than depth 1 does, and in at least 1 % of its samples.
devno=$(stat -c %d "$big")
inflight=/sys/dev/block/$((devno >> 8 & 4095)):$(((devno & 255) | (devno >> 12 & 1048320)))/inflight
wl dio '    flowop aioread name=rd,filename=big,iosize=4k,random,directio,iodepth=$depth' 1
for depth in 1 8; do
	"$FLOWBENCH" run "$tmp/dio.f" -D depth=$depth --cache keep >"$tmp/dio$depth.out" 2>&1 &
	pid=$!
	n=0
	hi=0
	if [ -r "$inflight" ]; then
		while kill -0 $pid 2>/dev/null; do
			read -r r w <"$inflight" || break
			n=$((n + 1))
			[ "$r" -ge 4 ] && hi=$((hi + 1))
		done
	fi
	wait $pid || { cat "$tmp/dio$depth.out"; fail "directio iodepth=$depth: run failed"; }
	eval "n$depth=$n hi$depth=$hi"
	echo "directio iodepth=$depth: $(breakdown_field "$tmp/dio$depth.out" rd opss) ops/s," \
		"$hi of $n samples with >= 4 reads in flight on the device"
done
[ "$(breakdown_field "$tmp/dio8.out" rd ops)" -gt 0 ] || fail "directio aioread did no op"
if [ -r "$inflight" ] && [ "$n8" -ge 100 ]; then
	[ $((hi8 * 100)) -ge "$n8" ] && [ $((hi8 * n1)) -gt $((hi1 * n8)) ] ||
		fail "iodepth=8: only $hi8 of $n8 samples saw >= 4 reads in flight on the device (iodepth=1: $hi1 of $n1)"
	ok "directio aioread iodepth=8: >= 4 reads in flight on the device in $hi8 of $n8 samples"
else
	echo "SKIP (part): no usable $inflight for the file system under $d"
fi
