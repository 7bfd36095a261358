#!/bin/sh
# compat-memory.sh - thread memory as filebench uses it, under
# `--compat filebench` (WML reference 4.0 "I/O buffer" and 5.5):
#  (1) every read's (and readwholefile's) buffer is at a random multiple
#      of the I/O size inside the thread's memory (iosize; iosize + 512
#      with directio, the address rounded up to 512, so not always
#      page-aligned), seen in the
#      buffer addresses of the pread64 calls (strace); without --compat
#      one buffer serves every op;
#  (2) the thread's memory is zero-filled after the start barrier, inside
#      the timed window: the released thread's first system call comes
#      later by about what the default run's fill before the barrier took
#      (both measured here, in the same traces), and nothing is filled
#      before the barrier;
#  (3) filebench's errors: memsize smaller than the I/O size (512 bytes
#      more with directio), and memoffset, which has no meaning there.
. "$(dirname "$0")/lib.sh"
need strace

d=$tmp/d
mkdir "$d"
# LeakSanitizer cannot run under ptrace; leaks are checked by the other tests
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# traced NAME WML ARGS...: run $tmp/WML.f under strace -ff -ttt -T (one
# file per thread: $tmp/NAME.tr.TID); fails the test if the run fails
traced() {
	n=$1; w=$2; shift 2
	strace -ff -qq -ttt -T -e raw=pread64 -o "$tmp/$n.tr" \
		"$FLOWBENCH" run "$tmp/$w.f" --cache keep "$@" >"$tmp/$n.out" 2>&1 ||
		{ cat "$tmp/$n.out"; fail "$n: run failed"; }
}
# worker NAME [HEXSIZE]: the trace file of the thread that made the preads
# of HEXSIZE (0x1000) bytes
worker() {
	f=$(grep -l "pread64(0x[0-9a-f]*, 0x[0-9a-f]*, ${2:-0x1000}, " "$tmp/$1".tr.* | head -1)
	[ -n "$f" ] || fail "$1: no pread64 of ${2:-0x1000} bytes traced"
	echo "$f"
}
# bufs NAME [HEXSIZE]: the buffer address (decimal) of every pread64 of
# HEXSIZE (0x1000) bytes that read them all
bufs() {
	sz=${2:-0x1000}
	awk 'function hex(s,  v, i) {
		v = 0; for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	index($0, ", " sz ", ") && index($0, "= " sz " <") && /pread64\(/ {
		a = $0; sub(/.*pread64\(0x[0-9a-f]*, /, "", a); sub(/,.*/, "", a)
		printf "%.0f\n", hex(a)
	}' sz="$sz" "$(worker "$1" "$sz")"
}

# ---- (1) buffer placement ----
mkf() {  # mkf NAME ATTRS: 1 thread, memsize=1m, random 4 KiB reads of a 1 MiB file
	cat >"$tmp/$1.f" <<F
define file name=f,path=$d,size=1m,prealloc,reuse
define process name=p { thread name=t,memsize=1m {
flowop read name=rd,filename=f,iosize=4k,random$2
flowop finishoncount name=fin,target=rd,value=400 } }
run 20
F
}
# place NAME UNIT [HEXSIZE]: count, distinct addresses, span (max - min),
# the largest (addr - min) mod UNIT, how many addresses are 4096-aligned
# and how many are not 512-aligned
place() {
	bufs "$1" "${3:-0x1000}" | awk -v unit="$2" '
		{ a[NR] = $1; seen[$1] = 1; if (NR == 1 || $1 < lo) lo = $1; if ($1 > hi) hi = $1
		  if ($1 % 4096 == 0) al++; if ($1 % 512) bad512++ }
		END { for (i in a) { r = (a[i] - lo) % unit; if (r > m) m = r }
		      for (k in seen) nd++
		      printf "%d %d %d %d %d %d\n", NR, nd, hi - lo, m, al, bad512 }'
}

mkf buf ""
traced buf-fb buf --compat filebench
traced buf-fl buf
read -r n nd span rem al b512 <<EOT
$(place buf-fb 4096)
EOT
echo "compat: $n preads, $nd buffer addresses, span $span, remainder $rem, $al page-aligned"
[ "$n" -ge 300 ] || fail "compat: only $n preads traced"
# 255 possible places (offsets 0 .. 1 MiB - 8 KiB); 300 draws give ~176
# distinct ones (sd ~5): fewer than 100 means no random placement
[ "$nd" -ge 100 ] || fail "compat: only $nd distinct buffer addresses in $n preads"
[ $((span + 4096)) -le 1048576 ] || fail "compat: buffers spread over $span bytes, more than 1 MiB of thread memory"
[ "$rem" -eq 0 ] || fail "compat: a buffer is not a multiple of 4096 bytes from the lowest one"
[ "$al" -eq "$n" ] || fail "compat: $((n - al)) buffers not page-aligned (no directio: thread memory + k x 4096)"
ok "compat: $nd buffer places in $n reads, all multiples of 4096 inside one 1 MiB range"
read -r n nd span rem al b512 <<EOT
$(place buf-fl 4096)
EOT
[ "$n" -ge 300 ] && [ "$nd" -eq 1 ] || fail "default: $nd buffer addresses in $n preads (want 1)"
ok "default: one buffer for all $n reads"

# readwholefile places its buffer the same way, per op (16 KiB chunks)
cat >"$tmp/whole.f" <<F
define fileset name=fs,path=$d,size=64k,entries=4,dirwidth=4,prealloc,reuse
define process name=p { thread name=t,memsize=1m {
flowop readwholefile name=rw,filename=fs,iosize=16k,fd=1
flowop closefile name=cl,fd=1
flowop finishoncount name=fin,target=rw,value=100 } }
run 20
F
traced whole-fb whole --compat filebench
traced whole-fl whole
read -r n nd span rem al b512 <<EOT
$(place whole-fb 16384 0x4000)
EOT
# under compat each implicit open is one of rw's ops too (filebench's
# rule), so the limit of 100 ends after 50 whole-file reads: 200 chunk
# reads over 63 places (0 .. 1 MiB - 32 KiB), about 60 expected; fewer
# than 20 means no random placement
[ "$n" -ge 200 ] && [ "$nd" -ge 20 ] && [ "$rem" -eq 0 ] && [ $((span + 16384)) -le 1048576 ] ||
	fail "compat readwholefile: $nd places in $n reads, span $span, remainder $rem"
read -r n nd span rem al b512 <<EOT
$(place whole-fl 16384 0x4000)
EOT
[ "$n" -ge 400 ] && [ "$nd" -eq 1 ] || fail "default readwholefile: $nd buffer addresses in $n preads (want 1)"
ok "readwholefile: buffers at multiples of 16 KiB in thread memory under compat, one buffer without"

# directio: needs O_DIRECT where the files are
rc=0
if dd if=/dev/zero of="$d/probe" bs=4096 count=1 oflag=direct status=none 2>/dev/null; then
	rm -f "$d/probe"
	mkf dio ",directio"
	rc=0
	strace -ff -qq -ttt -T -e raw=pread64 -o "$tmp/dio-fb.tr" \
		"$FLOWBENCH" run "$tmp/dio.f" --cache keep --compat filebench >"$tmp/dio-fb.out" 2>&1 || rc=$?
fi
if [ -f "$tmp/dio.f" ] && [ "$rc" -ne 0 ]; then
	# a device that takes only page-aligned buffers: refused, with the reason
	grep -q "flowop rd: directio needs buffers aligned to [0-9]* bytes in memory (.*), but --compat filebench places buffers on 512-byte boundaries" "$tmp/dio-fb.out" ||
		{ cat "$tmp/dio-fb.out"; fail "directio compat: run failed"; }
	ok "directio: this device refuses 512-byte-aligned buffers, and --compat says so"
elif [ -f "$tmp/dio.f" ]; then
	traced dio-fl dio
	# the unit is 4096 + 512 = 4608 = 9 x 512: with page-aligned thread
	# memory every place is 512-aligned and k x 4608 from the memory's
	# start, page-aligned only when k is a multiple of 8, k uniform in
	# 0..226 (offsets below 1 MiB - 4608): p = 29 x 4608 / 1043968 =
	# 0.128 per read, so 300 page-aligned reads have p = 0.128^300 < 1e-260
	read -r n nd span rem al b512 <<EOT
$(place dio-fb 4608)
EOT
	echo "compat directio: $n preads, $nd addresses, span $span, remainder $rem, $al page-aligned, $b512 not 512-aligned"
	[ "$n" -ge 300 ] || fail "compat directio: only $n preads traced"
	[ "$b512" -eq 0 ] || fail "compat directio: $b512 buffers not 512-aligned"
	[ "$rem" -eq 0 ] || fail "compat directio: a buffer is not a multiple of 4608 bytes from the lowest one"
	[ "$al" -lt "$n" ] || fail "compat directio: all $n buffers page-aligned (filebench's are 512-aligned)"
	[ $((span + 4608)) -le 1048576 ] || fail "compat directio: buffers spread over $span bytes"
	ok "compat directio: $nd places, all 512-aligned, $((n - al)) of $n not page-aligned, multiples of 4608 apart"
	read -r n nd span rem al b512 <<EOT
$(place dio-fl 4096)
EOT
	[ "$n" -ge 300 ] && [ "$nd" -eq 1 ] && [ "$al" -eq "$n" ] ||
		fail "default directio: $nd addresses, $al of $n page-aligned (want one page-aligned buffer)"
	ok "default directio: one page-aligned buffer"
else
	echo "skip: $d does not support O_DIRECT (directio placement)"
fi

# ---- (2) zero-fill after the barrier, inside the timed window ----
cat >"$tmp/zero.f" <<F
define file name=f,path=$d,size=1m,prealloc,reuse
define process name=p { thread name=t,memsize=512m {
flowop read name=rd,filename=f,iosize=4k,random } }
run 2
F
traced zero-fb zero --compat filebench
traced zero-fl zero
# filler NAME: the trace file of the thread that maps the 512 MiB (the
# worker; on a busy machine its fill may outlast the run, so it need not
# have read anything)
filler() {
	f=$(grep -l 'mmap(NULL, 536870912,' "$tmp/$1".tr.* | head -1)
	[ -n "$f" ] || fail "$1: no thread mapped its 512 MiB"
	echo "$f"
}
# gaps NAME: in the worker's trace, (a) seconds from the end of the mmap
# of its 512 MiB to the start of its barrier wait (the fill before the
# run), (b) seconds from the end of that wait (the release) to the start
# of its next system call (the fill after it)
gaps() {
	awk '
		function fin(l,  t, d) { t = $1; d = l; sub(/.*</, "", d); sub(/>.*/, "", d); return t + d }
		/ mmap\(NULL, 536870912,/ { m = fin($0); next }
		/ futex\(0x[0-9a-f]*, FUTEX_WAIT, 0, NULL/ && m && !w { w = $1; r = fin($0); next }
		r && !nx { nx = $1 }
		END { printf "%.6f %.6f\n", w - m, nx - r }' "$(filler "$1")"
}
read -r before_fb after_fb <<EOT
$(gaps zero-fb)
EOT
read -r before_fl after_fl <<EOT
$(gaps zero-fl)
EOT
echo "default: fill before the barrier ${before_fl}s, release to first call ${after_fl}s"
echo "compat:  fill before the barrier ${before_fb}s, release to first call ${after_fb}s"
# the default run's fill (before_fl) is what zero-filling 512 MiB costs
# here, measured in this test; a quarter of it bounds the noise both ways
# (the other gaps are four orders of magnitude smaller)
awk -v m="$before_fl" -v a="$after_fb" 'BEGIN { exit !(m > 0.01 && a >= m / 4) }' ||
	fail "compat: the released thread started its ops ${after_fb}s after the release; a 512 MiB fill takes ${before_fl}s here"
awk -v m="$before_fl" -v b="$before_fb" 'BEGIN { exit !(b < m / 4) }' ||
	fail "compat: ${before_fb}s between the mmap and the barrier: the memory was filled before the run"
awk -v m="$before_fl" -v a="$after_fl" 'BEGIN { exit !(a < m / 4) }' ||
	fail "default: ${after_fl}s from the release to the first call (the fill belongs before the barrier)"
ok "compat: the 512 MiB zero-fill (${before_fl}s here) runs after the release (first call ${after_fb}s after it), not before the barrier"

# ---- (3) filebench's errors ----
# fbfail NAME: the run of the workload on stdin under --compat must fail
fbfail() {
	cat >"$tmp/$1.f"
	if "$FLOWBENCH" run "$tmp/$1.f" --cache keep --compat filebench >"$tmp/$1.out" 2>&1; then
		cat "$tmp/$1.out"; fail "$1: run succeeded"
	fi
}
fbfail small <<F
define file name=f,path=$d,size=1m,prealloc,reuse
define process name=p { thread name=t,memsize=4k { flowop read name=rd,filename=f,iosize=4k,directio } }
run 1
F
grep -q "flowop rd: thread memsize 4096 is smaller than the I/O size 4608 (iosize plus 512 bytes for directio)" "$tmp/small.out" ||
	{ cat "$tmp/small.out"; fail "memsize 4k, iosize 4k, directio: wrong error"; }
fbfail memoff <<F
define file name=f,path=$d,size=1m,prealloc,reuse
define process name=p { thread name=t,memsize=64k { flowop read name=rd,filename=f,iosize=4k,memoffset=512 } }
run 1
F
grep -q "flowop rd: memoffset cannot be used with --compat filebench" "$tmp/memoff.out" ||
	{ cat "$tmp/memoff.out"; fail "memoffset under compat: wrong error"; }
ok "compat: memsize below iosize + 512 (directio) and memoffset are errors"
