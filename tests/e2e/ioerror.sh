#!/bin/sh
# ioerror.sh - a real device error under the read and write flowops.
# pread and pwrite are issued by flowbench's own system-call path
# (flowops/io.c; libc's in sanitizer builds), which must turn the
# kernel's -EIO into -1 and errno: no other test makes pread fail.
# Without --keep-going the first EIO ends the run, status 1, naming the
# flowop, the call, the file and "Input/output error"; with it the run
# completes, every EIO is counted for its flowop (Errors line, results
# file) and none is counted as an op.
#
# The failing device: device-mapper's error target would be the obvious
# tool, but kernels built without device-mapper (the one this test was
# written on has no CONFIG_BLK_DEV_DM) cannot run it, while loop devices
# and ext4 are everywhere.  So the files live on ext4 on a loop device
# whose backing file lies on a second ext4 (itself on a loop device);
# shutting that outer file system down (FS_IOC_SHUTDOWN, ext4's
# EXT4_IOC_SHUTDOWN, since Linux 4.10) makes every read and write of the
# backing file fail, so the inner loop device completes each request
# with a block I/O error ("I/O error, dev loopN" in the kernel log) and
# the inner ext4 returns EIO to flowbench's O_DIRECT pread/pwrite.  The
# shutdown cannot be undone, so each run below gets a stack of its own.
#
# When: the device fails between a first run, which makes the file (then
# written back with sync), and the run under test, which reuses it.
# Reusing a tree writes nothing and reads only what the first run left
# in the inner page cache: the marker is read, the directories listed,
# the file lstat'ed (its size matches), so the run's first block I/O is
# its first pread or pwrite.  (Were one of them evicted in between, the
# run would fail at that step, not at pread, and the test would fail
# saying so.)  So every read and write of the run fails,
# deterministically, from its first op.
#
# All mounts are in a private mount namespace; the loop devices are
# mount's own (-o loop: detached when their file system is unmounted,
# even if the test is killed).  Skipped (77) without root, loop devices
# or mkfs.ext4.
. "$(dirname "$0")/lib.sh"
private_mounts "$@"
need mkfs.ext4
need python3

# unmount DIR...: each one still mounted, in order; an outer file system
# may stay busy for a moment while the loop device of the inner one on
# it is being detached
unmount() {
	for m in "$@"; do
		for _ in $(seq 100); do     # up to 10 s: a loaded machine detaches slowly
			mountpoint -q "$m" || break
			umount "$m" 2>/dev/null && break
			sleep 0.1
		done
	done
}
# (mnts is most recent first: inner file systems before the outer ones)
trap 'unmount $mnts; rm -rf "$tmp"' EXIT

# stack NAME: ext4 at $tmp/NAME/fs on a loop device backed by a file on
# another ext4 at $tmp/NAME/outer (which stack_fail shuts down); skip if
# loop devices cannot be mounted here
stack() {
	d=$tmp/$1
	mkdir -p "$d/outer" "$d/fs"
	truncate -s 48M "$d/outer.img"
	mkfs.ext4 -q -F -O ^has_journal "$d/outer.img" >/dev/null 2>&1 ||
		fail "mkfs.ext4 $d/outer.img"
	if ! mount -o loop "$d/outer.img" "$d/outer" 2>"$tmp/mount.err"; then
		echo "SKIP: cannot mount a loop device here: $(cat "$tmp/mount.err")"
		exit 77
	fi
	mnts="$d/outer $mnts"
	truncate -s 32M "$d/outer/dev.img"
	mkfs.ext4 -q -F -O ^has_journal "$d/outer/dev.img" >/dev/null 2>&1 ||
		fail "mkfs.ext4 $d/outer/dev.img"
	# noatime, errors=continue: no metadata write of ext4's own (an atime,
	# a read-only remount after an error it noticed) between flowbench
	# and the device
	mount -o loop,noatime,errors=continue "$d/outer/dev.img" "$d/fs" ||
		fail "cannot mount $d/outer/dev.img"
	mnts="$d/fs $mnts"
}

# unstack NAME: NAME's file systems unmounted, its loop devices detached
unstack() {
	unmount "$tmp/$1/fs" "$tmp/$1/outer"
}

# stack_fail NAME: from now on every I/O of NAME's inner device fails
# (EXT4_IOC_SHUTDOWN, flag NOLOGFLUSH, on the outer file system)
stack_fail() {
	python3 - "$tmp/$1/outer" <<'PY' || fail "cannot shut down $tmp/$1/outer"
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
fcntl.ioctl(fd, 0x8004587d, struct.pack("I", 2))
PY
}

# prepare_failed NAME: a first run of $tmp/NAME.f on NAME's healthy
# device makes the files; once they are written back (sync), the device
# fails.  $file: the path of the file on it (found before: nothing but
# flowbench reads the tree afterwards, as a directory never read before,
# such as lost+found, could not be read any more)
prepare_failed() {
	run_named "$1-prep" "$tmp/$1.f" --cache keep --runtime 0.1
	[ "$rc" -eq 0 ] || { cat "$tmp/$1-prep.out"; fail "$1: the preparing run failed"; }
	file=$(cd "$tmp/$1/fs/dev" && find "$PWD" -type f ! -name .flowbench)
	[ -f "$file" ] || fail "$1: the preparing run made no file ($file)"
	sync -f "$tmp/$1/fs"
	stack_fail "$1"
}

# reused NAME: run NAME reused the file (it was not made again)
reused() {
	grep -q "Reusing $file: size 4194304 matches" "$tmp/$1.out" ||
		{ cat "$tmp/$1.out"; fail "$1: $file was not reused"; }
}

# json_flowop FILE FLOWOP: ops, errors, error_kinds EIO of FLOWOP, status
json_flowop() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["runs"][-1]["flowops"] if f["name"] == sys.argv[2]][0]
print(f["ops"], f["errors"], f["error_kinds"].get("EIO", 0), d["status"])
PY
}

# workload NAME SECONDS FLOWOPS...: $tmp/NAME.f, a run of SECONDS of one
# thread looping over FLOWOPS on a 4 MiB file on NAME's device (the file
# "dev") and a 64 KiB one in memory (the file "mem"), each flowop with an
# fd of its own
workload() {
	n=$1
	secs=$2
	shift 2
	{
		echo "define file name=dev,path=$tmp/$n/fs,size=4m,prealloc,reuse"
		echo "define file name=mem,path=$tmp/mem,size=64k,prealloc,reuse"
		echo "define process name=p { thread name=t {"
		for f in "$@"; do echo "  flowop $f"; done
		echo "} }"
		echo "run $secs"
	} >"$tmp/$n.f"
}

mount_tmpfs "$tmp/mem" size=4m
rd="read name=rd,filename=dev,iosize=4k,random,directio,fd=1"
wr="write name=wr,filename=dev,iosize=4k,random,directio,fd=2"
ok="read name=ok,filename=mem,iosize=4k,random,fd=3"

# --- 1. pread fails: the run ends, naming flowop, call, file, errno --
stack rdfail
workload rdfail 10 "$rd"
prepare_failed rdfail
run_named rdfail "$tmp/rdfail.f" --cache keep
reused rdfail
expect_failed rdfail "flowop rd: pread $file at offset [0-9]*: Input/output error"
ok "pread on a failed device ends the run: flowop rd, pread, $file, Input/output error, status 1"
unstack rdfail

# --- 2. pwrite fails (O_DIRECT: the error comes back from the write) --
stack wrfail
workload wrfail 10 "$wr"
prepare_failed wrfail
run_named wrfail "$tmp/wrfail.f" --cache keep
reused wrfail
expect_failed wrfail "flowop wr: pwrite $file at offset [0-9]*: Input/output error"
ok "pwrite on a failed device ends the run: flowop wr, pwrite, $file, Input/output error, status 1"
unstack wrfail

# --- 3. --keep-going: counted per flowop, never as ops ---------------
# Each pass of the thread does one rd, one wr (both fail) and one ok
# (which never fails), so rd and wr count no op and as many EIO as ok
# counts ops (give or take the pass the run ended in).
stack keep
workload keep 1 "$rd" "$wr" "$ok"
prepare_failed keep
run_named keep "$tmp/keep.f" --cache keep --keep-going --output "$tmp/keep.json"
[ "$rc" -eq 0 ] || { cat "$tmp/keep.out"; fail "keep: status $rc, not 0"; }
reused keep
grep -q "First failed op: flowop rd: pread $file at offset [0-9]*: Input/output error" "$tmp/keep.out" ||
	{ cat "$tmp/keep.out"; fail "keep: the first failure is not shown with flowop, call, path and errno"; }
okops=$(breakdown_field "$tmp/keep.out" ok ops)
[ "$okops" -ge 10 ] || { cat "$tmp/keep.out"; fail "keep: only $okops passes"; }
for fo in rd wr; do
	ops=$(breakdown_field "$tmp/keep.out" $fo ops)
	e=$(errors_of keep $fo EIO)
	[ "$ops" = 0 ] || { cat "$tmp/keep.out"; fail "keep: $fo: '$ops' ops counted, every one failed"; }
	d=$((e - okops))
	[ "$d" -ge -2 ] && [ "$d" -le 2 ] ||
		{ cat "$tmp/keep.out"; fail "keep: $fo: $e EIO on the Errors line, but $okops passes"; }
	set -- $(json_flowop "$tmp/keep.json" $fo)
	[ "$1" = 0 ] && [ "$2" = "$e" ] && [ "$3" = "$e" ] && [ "$4" = ok ] ||
		fail "keep: $fo in the results file: ops=$1 errors=$2 EIO=$3 status $4 (text: 0 ops, $e EIO)"
	ok "--keep-going: $fo: $ops ops, $e EIO in $okops passes (text and results file), status 0"
done
# nor in the summary: its ops are ok's and the implicit opens
sum=$(sed -n 's/.*IO Summary: *\([0-9]*\) ops.*/\1/p' "$tmp/keep.out")
opens=$(sed -n 's/.*Implicit opens: \([0-9]*\) .*/\1/p' "$tmp/keep.out")
[ "$sum" = $((okops + ${opens:-0})) ] ||
	{ cat "$tmp/keep.out"; fail "keep: IO Summary counts $sum ops, ok $okops and ${opens:-0} implicit opens"; }
ok "--keep-going: the IO Summary's $sum ops are ok's $okops and ${opens:-0} implicit opens, no failed op"
