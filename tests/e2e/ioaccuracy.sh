#!/bin/sh
# ioaccuracy.sh - the bytes flowbench reports are the bytes its processes
# really read and wrote, within 0.1 %, as the kernel counts them.
#
# Method: the kernel's per-process I/O counters (/proc/PID/io): rchar and
# wchar count every byte passed through read/write-family system calls
# (read, pread64, readv, ...), whatever the page cache did (read_bytes and
# write_bytes count storage I/O, which a cached run barely does, so they
# are not used).  When a parent reaps a child, the kernel adds the child's
# counters, its own reaped children's included, to the parent's.  So a
# shell that runs flowbench and then reads its own /proc/$$/io sees the
# bytes of flowbench's master and of every worker process it reaped: no
# race with the workers' exit, no ptrace slowing the I/O down (as strace
# would), nothing to find by PID.  The difference from a snapshot taken
# before is the run's bytes plus a little that is not the workload: the
# dynamic loader, the script file, /proc reads, the report on stdout (a
# few KiB; reported below as "other").
#
# Ops that ended after the deadline moved their bytes too but are not in
# the breakdown; flowbench prints them on the "Not counted" line, so they
# are added to the reported ones before comparing.
. "$(dirname "$0")/lib.sh"

out=$tmp/out
run() {
	"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp" \
		-D filesize=16m -D nthreads=1 "$@"
}
# create the file first, so its preallocation is not in the window
run --runtime 1 >/dev/null 2>"$tmp/err" || { cat "$tmp/err"; fail "first run failed"; }

# the inner shell takes the snapshot files and the output, then the command
sh -c 'b=$1 a=$2 o=$3; shift 3; cat /proc/$$/io >"$b"; "$@" >"$o" 2>&1
	rc=$?; cat /proc/$$/io >"$a"; exit $rc' sh \
	"$tmp/io.before" "$tmp/io.after" "$out" \
	"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp" \
	-D filesize=16m -D nthreads=1 --runtime 2 ||
	{ cat "$out"; fail "the measured run failed"; }

io() { awk -v k="$2:" '$1 == k { print $2 }' "$1"; }
# not_counted NAME: NAME's ops that ended after the deadline (0 if none)
not_counted() {
	sed -n "s/.*Not counted:.*[(,] *$1 \\([0-9][0-9]*\\).*/\\1/p" "$out" | head -1 | grep . || echo 0
}

# check WHAT FLOWOP COUNTER: FLOWOP's reported bytes against COUNTER's delta
check() {
	moved=$(($(io "$tmp/io.after" "$3") - $(io "$tmp/io.before" "$3")))
	ops=$(breakdown_field "$out" "$2" ops)
	opss=$(breakdown_field "$out" "$2" opss)
	mbs=$(breakdown_field "$out" "$2" mbs)
	late=$(not_counted "$2")
	[ -n "$ops" ] && [ "$ops" -gt 0 ] || fail "$2: no ops reported: $(cat "$out")"
	# ops x 8 KiB, and mb/s x elapsed (elapsed = ops / ops/s), plus the late ops
	awk -v what="$1" -v moved="$moved" -v ops="$ops" -v opss="$opss" \
	    -v mbs="$mbs" -v late="$late" -v name="$2" 'BEGIN {
		byops = (ops + late) * 8192
		bymbs = mbs * 1048576 * ops / opss + late * 8192
		other = moved - byops
		printf "%s: %s %.0f bytes moved; reported %.0f by ops x iosize " \
		    "(%+.4f%%), %.0f by mb/s x elapsed (%+.4f%%); other %d bytes\n",
		    name, what, moved, byops, 100 * (byops - moved) / moved,
		    bymbs, 100 * (bymbs - moved) / moved, other
		d1 = byops - moved; if (d1 < 0) d1 = -d1
		d2 = bymbs - moved; if (d2 < 0) d2 = -d2
		# mb/s is printed to 0.1 and ops/s to 1: bymbs carries their
		# rounding too, which a loaded machine'"'"'s lower rates make larger
		# (21.7mb/s: up to 0.23 %)
		tol2 = moved * (0.001 + 0.05 / mbs + 0.5 / opss)
		if (d1 > moved * 0.001 || d2 > tol2) exit 1
		# more reported than moved would be bytes counted but never moved
		if (other < 0) exit 2
	}' || fail "$2: reported bytes differ from the $1 bytes by more than 0.1 % (or exceed them)"
}

check read rand-read1 rchar
check written rand-write1 wchar
ok "reported bytes (ops and mb/s) match the bytes the processes read and wrote, within 0.1 %"
