#!/bin/sh
# filesystems.sh - the tests whose numbers or safety depend on the file
# system, run again with their files on xfs, btrfs and tmpfs (the rest of
# the suite runs on the test machine's own, ext4 in CI): exact op and
# byte accounting (accounting.sh, ioaccuracy.sh), the trees and their
# markers (fileset.sh, safety.sh), the symlink and hard-link attacks
# (attack.sh: O_NOFOLLOW, openat2's RESOLVE_BENEATH and link counts are
# each file system's own code), every file, directory and whole-file
# flowop (flowops-*.sh) and io_uring (flowops-aio.sh).  A results file
# written there names the file system.
#
# Each file system is a fresh one: xfs and btrfs on a loop device over a
# sparse 1 GiB image, tmpfs of 1 GiB; each test runs with TMPDIR inside
# it, so lib.sh's temporary directory is there.  Needs root and
# losetup; a file system whose mkfs or kernel support is missing is
# skipped and named.  Found at once: on btrfs the results file's
# filesystems entry had no type, device or mount options (a subvolume's
# files have a device number no mountinfo line has).
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices, mounts)"; exit 77; }
# what it checks is the file systems' behaviour, not flowbench's memory:
# the plain build's run is enough (97 to 143 s here)
if grep -qE '__(asan|tsan)_init' "$FLOWBENCH"; then
	echo "SKIP: $FLOWBENCH is built with a sanitizer (this test runs in the plain build)"
	exit 77
fi
need losetup
need python3

cleanup() {
	for m in "$tmp"/mnt-*; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
	[ -f "$tmp/loops" ] && while read -r l; do losetup -d "$l" 2>/dev/null; done <"$tmp/loops"
	rm -rf "$tmp"
}
trap cleanup EXIT

# mkfs_on FS MNT: a fresh FS mounted on MNT, or return 1 saying why not
mkfs_on() {
	fs=$1 mnt=$2
	mkdir "$mnt"
	if [ "$fs" = tmpfs ]; then
		mount -t tmpfs -o size=1g tmpfs "$mnt"
		return
	fi
	command -v "mkfs.$fs" >/dev/null || { echo "no mkfs.$fs"; return 1; }
	grep -qw "$fs" /proc/filesystems || modprobe "$fs" 2>/dev/null ||
		{ echo "the kernel has no $fs"; return 1; }
	truncate -s 1G "$tmp/$fs.img"
	dev=$(losetup -f --show "$tmp/$fs.img") || { echo "no loop device"; return 1; }
	echo "$dev" >>"$tmp/loops"
	case $fs in
	xfs) mkfs.xfs -q -f "$dev" ;;
	btrfs) mkfs.btrfs -q -f "$dev" >/dev/null ;;
	esac || { echo "mkfs.$fs failed"; return 1; }
	mount "$dev" "$mnt"
}

tests="accounting ioaccuracy fileset safety attack flowops-file flowops-dir
	flowops-wholefile flowops-aio"
tested=0
for fs in xfs btrfs tmpfs; do
	mnt=$tmp/mnt-$fs
	if ! why=$(mkfs_on $fs "$mnt" 2>&1); then
		echo "SKIP (part): $fs: $why"
		continue
	fi
	type=$(stat -f -c %T "$mnt")
	echo "== $fs on $mnt (stat -f: $type)"
	for t in $tests; do
		rc=0
		TMPDIR=$mnt sh "$TOP_SRCDIR/tests/e2e/$t.sh" >"$tmp/$fs-$t.log" 2>&1 || rc=$?
		case $rc in
		0) echo "   $t.sh: ok ($(grep -c '^ok' "$tmp/$fs-$t.log") checks)" ;;
		77) echo "   $t.sh: $(grep -m1 SKIP "$tmp/$fs-$t.log")" ;;
		*) tail -30 "$tmp/$fs-$t.log"
		   fail "$t.sh with its files on $fs exited $rc" ;;
		esac
	done
	# the results file names the file system the files were on
	mkdir "$mnt/r"
	"$FLOWBENCH" run "$WORKLOADS/randomrw.f" -D dir="$mnt/r" -D filesize=4m \
		-D nthreads=1 --runtime 1 -o "$tmp/$fs.json" >"$tmp/$fs.out" 2>&1 ||
		{ cat "$tmp/$fs.out"; fail "randomrw on $fs failed"; }
	python3 - "$tmp/$fs.json" "$fs" "$mnt/r" <<'PY' || fail "$fs: the results file does not name it"
import json, sys
fss = json.load(open(sys.argv[1]))["environment"]["filesystems"]
assert [f["type"] for f in fss if f["path"] == sys.argv[3]] == [sys.argv[2]], fss
PY
	ok "$fs: $(echo $tests | wc -w) tests pass with their files on it; the results file says $fs"
	tested=$((tested + 1))
done
[ $tested -gt 0 ] || { echo "SKIP: no file system could be made"; exit 77; }
