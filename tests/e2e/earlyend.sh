#!/bin/sh
# earlyend.sh - when a thread ends the run early (a finish limit, quit
# firstdone), an op of ANOTHER thread that ends after that end is not
# counted but listed under "Not counted", like an op that ends after the
# deadline (docs/metrics.md, the window rule), for a plain flowop, one
# inside a composite and an asynchronous one reaped late.
#
# The late op is made late by strace, which holds the exit of its system
# call (an fsync, or the io_uring_enter that submits the write) for DELAY
# s.  The ending thread waits (block) for the other thread's wakeup,
# which comes just before that op, then PAUSE s (a delay flowop), then
# ends the run: the op has then begun (the other thread had PAUSE s to
# get from its wakeup into the call) and cannot end before DELAY s after
# the release, while the run took less.  Checked against strace's count
# of the calls: calls = counted + not counted, with none counted.  A run
# where the other thread did not get into its call before the end (a
# machine so loaded it held that thread PAUSE s) or the end came later
# than DELAY s decides nothing, and is repeated.
. "$(dirname "$0")/lib.sh"
need strace

DELAY=3      # seconds the late call is held
PAUSE=1      # seconds the ending thread waits after the wakeup
# LeakSanitizer cannot run under ptrace; leaks are checked by the other tests
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export ASAN_OPTIONS

# workload TAG BODY: $tmp/TAG.f, an ending thread and a thread whose
# flowops are BODY (after its wakeup of the ending one)
workload() {
	cat >"$tmp/$1.f" <<EOF
set \$dir=/tmp
define file name=data,path=\$dir,size=64k,prealloc,reuse
define flowop name=syncs
{
  flowop fsync name=sync,fd=1
}
define process name=ender,instances=1
{
  thread name=ender,memsize=4k,instances=1
  {
    flowop block name=waitb
    flowop delay name=pause,value=$PAUSE
    flowop finishoncount name=fin,value=0
  }
}
define process name=late,instances=1
{
  thread name=late,memsize=64k,instances=1
  {
    flowop openfile name=open1,filename=data,fd=1
    flowop wakeup name=wake,target=waitb
$2
    flowop closefile name=close1,fd=1
  }
}
run 60
EOF
}

# not_counted TAG NAME: NAME's ops on the "Not counted" line (0 if none)
not_counted() {
	sed -n "s/.*Not counted:.*[(,] *$2 \\([0-9][0-9]*\\).*/\\1/p" "$tmp/$1.out" |
		head -1 | grep . || echo 0
}

# took TAG: the run's elapsed seconds
took() { sed -n 's/.*Run took \([0-9.]*\) seconds.*/\1/p' "$tmp/$1.out" | head -1; }

# late_run TAG SYSCALL FLOWOP: run $tmp/TAG.f under strace holding every
# SYSCALL's exit DELAY s; FLOWOP's op must be not counted.
late_run() {
	tag=$1 sc=$2 name=$3
	for try in 1 2 3 4 5; do
		rm -f "$tmp/$tag.st".*
		strace -ff -qq --seccomp-bpf -e trace="$sc" \
			-e inject="$sc":delay_exit=$((DELAY * 1000000)) -o "$tmp/$tag.st" \
			"$FLOWBENCH" run "$tmp/$tag.f" -D dir="$tmp" >"$tmp/$tag.out" 2>&1 ||
			{ cat "$tmp/$tag.out"; fail "$tag: flowbench under strace failed"; }
		calls=$(cat "$tmp/$tag.st".* | grep -c "^$sc(" || true)
		ops=$(breakdown_field "$tmp/$tag.out" "$name" ops)
		late=$(not_counted "$tag" "$name")
		secs=$(took "$tag")
		echo "$tag (try $try): run took $secs s; $name: $ops counted, $late not counted; strace: $calls $sc"
		[ "$calls" -gt 0 ] && [ -n "$secs" ] &&
			awk -v s="$secs" -v d="$DELAY" 'BEGIN { exit !(s < d) }' && break
	done
	[ -n "$secs" ] || fail "$tag: no 'Run took' line"
	awk -v s="$secs" -v d="$DELAY" 'BEGIN { exit !(s < d) }' ||
		fail "$tag: the run took $secs s, not less than the ${DELAY} s the op was held"
	[ "$ops" -eq 0 ] ||
		fail "$tag: $name counted $ops op(s) that ended at least ${DELAY} s after a release the run ended $secs s after"
	[ "$late" -ge 1 ] || fail "$tag: $name's late op is not under 'Not counted'"
	[ "$calls" -eq "$((ops + late))" ] ||
		fail "$tag: strace saw $calls $sc calls, the report $ops counted + $late not counted"
	grep -q "ended after the end of the run" "$tmp/$tag.out" ||
		fail "$tag: the Not counted line does not say the ops ended after the run's end"
}

workload plain "    flowop fsync name=sync1,fd=1"
late_run plain fsync sync1
ok "a plain flowop's op that ends after another thread ended the run is not counted, and listed"

workload comp "    flowop syncs name=inv"
late_run comp fsync inv.sync
ok "so is a composite's inner op"

# an asynchronous write (libaio: io_submit, then io_getevents, which is
# held) reaped after the end, in the same execution (iodepth_low=0)
cat >"$tmp/probe.f" <<EOF
define file name=p,path=$tmp,size=64k,prealloc
define process name=p,instances=1 { thread name=p,memsize=4k,instances=1 {
  flowop aiowrite name=w,filename=p,iosize=4k,ioengine=libaio,iodepth=1,iodepth_low=0
  flowop finishoncount name=f,value=1 } }
run 5
EOF
if "$FLOWBENCH" run "$tmp/probe.f" >"$tmp/probe.out" 2>&1; then
	workload aio "    flowop aiowrite name=aw1,filename=data,iosize=4k,ioengine=libaio,iodepth=1,iodepth_low=0"
	late_run aio io_getevents aw1
	ok "so is an asynchronous write reaped after the end"
else
	echo "libaio is not available here: the asynchronous case is skipped"
fi

# The audit's check on a firstdone run of two threads (issue 23's case):
# every file created (openat2 with O_CREAT) is a counted or a not-counted
# create, and every 256 KiB pwrite a quarter of a counted or not-counted
# fill of a 1 MiB file.
strace -ff -qq -e trace=openat2,pwrite64 -o "$tmp/cf.st" \
	"$FLOWBENCH" run "$WORKLOADS/createfiles.f" -D dir="$tmp" -D nthreads=2 \
	-D nfiles=400 -D filesize=1m -D iosize=256k >"$tmp/cf.out" 2>&1 ||
	{ cat "$tmp/cf.out"; fail "createfiles under strace failed"; }
creates=$(cat "$tmp/cf.st".* | grep -cE '^openat2\(.*O_CREAT.*\) += [0-9]+$' || true)
ops=$(breakdown_field "$tmp/cf.out" create ops)
late=$(not_counted cf create)
echo "createfiles firstdone: $creates files created (strace), $ops counted + $late not counted"
[ "$creates" -eq "$((ops + late))" ] || fail "createfiles: $creates creates != $ops + $late"
pwrites=$(cat "$tmp/cf.st".* | grep -cE '^pwrite64\([0-9]+, .*, 262144, [0-9]+\) += 262144$' || true)
ops=$(breakdown_field "$tmp/cf.out" fill ops)
late=$(not_counted cf fill)
echo "createfiles firstdone: $pwrites pwrites of 256 KiB (strace), $ops counted + $late not counted fills"
[ "$pwrites" -eq "$((4 * (ops + late)))" ] || fail "createfiles: $pwrites pwrites != 4 x ($ops + $late)"
ok "a firstdone run: syscalls = ops + not counted"
