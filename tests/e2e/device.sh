#!/bin/sh
# device.sh - block devices as targets (`define device`), on loop devices:
# reads need no permission; a write needs --write-device naming the
# device, and is refused even then, with its reason and the device's
# bytes unchanged (sha256 before and after), for a device that is
# mounted, holds an ext4 / xfs / swap signature or a partition table,
# is held by a device-mapper device (dmsetup, where it works) or by
# another program (O_EXCL); --destroy-data lets a signature go, never a
# mount.  A named blank device is written inside its region, one pwrite
# per op counted (strace); directio is aligned to the device's logical
# block size (BLKSSZGET).  flowbench check says the same before anything
# is opened for writing, and directory or name flowops on a device are
# errors at compile time.  Skips (77) when not root or without loop devices.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices)"; exit 77; }
command -v losetup >/dev/null && [ -e /dev/loop-control ] ||
	{ echo "SKIP: no loop devices"; exit 77; }

holder=
dm=
cleanup() {
	[ -n "$holder" ] && kill "$holder" 2>/dev/null && { wait "$holder" 2>/dev/null || true; }
	[ -n "$dm" ] && dmsetup remove "$dm" 2>/dev/null
	mountpoint -q "$tmp/mnt" 2>/dev/null && umount "$tmp/mnt"
	[ -f "$tmp/loops" ] && while read -r l; do losetup -d "$l" 2>/dev/null; done <"$tmp/loops"
	rm -rf "$tmp"
}
trap cleanup EXIT

# mkloop NAME SIZE: a loop device on a new sparse file; prints its path
mkloop() {
	truncate -s "$2" "$tmp/$1.img" &&
	dev=$(losetup -f --show "$tmp/$1.img") && echo "$dev" >>"$tmp/loops" && echo "$dev"
}
sum() { sha256sum "$1" | cut -d' ' -f1; }

# workload NAME DEV OP: OP (read or write) 4k random I/O on DEV, 200 ops
workload() {
	cat >"$tmp/$1.f" <<F
define device name=d,path=$2,offset="25%",size="50%"
define process name=p { thread name=t {
  flowop $3 name=io,filesetname=d,iosize=4k,random
  flowop finishoncount name=fin,value=200 } }
run 20
F
}

# refused NAME DEV REASON [options]: a write run on DEV fails naming
# REASON, and DEV's bytes are what they were
refused() {
	name=$1 dev=$2 why=$3
	shift 3
	workload "$name" "$dev" write
	before=$(sum "$dev")
	run_named "$name" "$tmp/$name.f" --cache warm --write-device "$dev" "$@"
	expect_failed "$name" "refusing to write $dev" "$why"
	grep -q 'Running' "$tmp/$name.out" && fail "$name: the run started"
	[ "$(sum "$dev")" = "$before" ] || fail "$name: $dev changed"
	"$FLOWBENCH" check "$tmp/$name.f" --write-device "$dev" "$@" >"$tmp/$name.chk" 2>&1 &&
		{ cat "$tmp/$name.chk"; fail "$name: check passed"; }
	grep -q "writes refused: .*$why" "$tmp/$name.chk" ||
		{ cat "$tmp/$name.chk"; fail "$name: check does not say '$why'"; }
	[ "$(sum "$dev")" = "$before" ] || fail "$name: check changed $dev"
	echo "refused: $name ($why), bytes unchanged"
}

blank=$(mkloop blank 32M) || { echo "SKIP: cannot set up a loop device"; exit 77; }

# ---- compile-time: flowops that need names, and a device's attributes ----
cat >"$tmp/names.f" <<F
define device name=d,path=$blank
define process name=p { thread name=t { flowop createfile name=c,filesetname=d } }
run 1
F
"$FLOWBENCH" check "$tmp/names.f" >"$tmp/names.out" 2>&1 && fail "createfile on a device compiled"
grep -q "names.f:2:.*flowop c: 'd' is a block device" "$tmp/names.out" ||
	{ cat "$tmp/names.out"; fail "no located error for createfile on a device"; }
cat >"$tmp/pct.f" <<F
define device name=d,path=$blank,size="120%"
define process name=p { thread name=t { flowop read name=r,filesetname=d,iosize=4k } }
run 1
F
"$FLOWBENCH" check "$tmp/pct.f" >"$tmp/pct.out" 2>&1 && fail "size=120% compiled"
grep -q 'pct.f:1:.*size must be bytes or a percentage' "$tmp/pct.out" ||
	{ cat "$tmp/pct.out"; fail "no located error for size=120%"; }
echo "compile: createfile on a device and size=\"120%\" refused at their lines"

# ---- an unnamed device is not written; reads need nothing ----
workload unnamed "$blank" write
before=$(sum "$blank")
run_named unnamed "$tmp/unnamed.f" --cache warm
expect_failed unnamed "--write-device $blank"
[ "$(sum "$blank")" = "$before" ] || fail "unnamed: $blank changed"
echo "refused: a write to a device the command line does not name"

workload read "$blank" read
run_named read "$tmp/read.f" --cache warm
[ "$rc" = 0 ] || { cat "$tmp/read.out"; fail "read: status $rc"; }
[ "$(breakdown_field "$tmp/read.out" io ops)" = 200 ] || { cat "$tmp/read.out"; fail "read: not 200 ops"; }
echo "read: 200 reads without any option"

# ---- a named blank device is written: one pwrite per op, in its region ----
need strace
workload write "$blank" write
# LeakSanitizer cannot run under ptrace: no leak check in the traced runs
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -f -qq -e trace=pwrite64 -o "$tmp/write.st" \
	"$FLOWBENCH" run "$tmp/write.f" --cache warm --write-device "$blank" >"$tmp/write.out" 2>&1 ||
	{ cat "$tmp/write.out"; fail "write: run failed"; }
ops=$(breakdown_field "$tmp/write.out" io ops)
calls=$(grep -c 'pwrite64(.*, 4096, [0-9]*) = 4096' "$tmp/write.st")
[ "$ops" = 200 ] && [ "$calls" = 200 ] ||
	{ cat "$tmp/write.out"; fail "write: $ops ops, $calls pwrite64 calls"; }
# every offset in [8 MiB, 24 MiB): offset="25%", size="50%" of 32 MiB
awk -F', ' '/pwrite64/ { o = $NF; sub(/\).*/, "", o); o += 0; if (o < 8388608 || o + 4096 > 25165824) bad++ }
	END { exit bad > 0 }' "$tmp/write.st" || fail "write: a pwrite outside [8 MiB, 24 MiB)"
[ "$(sum "$blank")" != "$before" ] || fail "write: the device is unchanged"
echo "write: 200 ops = 200 pwrite64 calls, all in the device's region"

# ---- import-fio: a device job is a job on the device ----
cat >"$tmp/job.fio" <<F
[w]
filename=$blank
rw=randwrite
bs=4k
size=4m
offset=8m
number_ios=100
F
run_named fio "$tmp/job.fio" --cache warm
expect_failed fio "--write-device $blank"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -f -qq -e trace=pwrite64 -o "$tmp/fio.st" \
	"$FLOWBENCH" run "$tmp/job.fio" --cache warm --write-device "$blank" >"$tmp/fio.out" 2>&1 ||
	{ cat "$tmp/fio.out"; fail "fio: run failed"; }
calls=$(grep -c 'pwrite64(.*, 4096, [0-9]*) = 4096' "$tmp/fio.st")
[ "$calls" = 100 ] || { cat "$tmp/fio.out"; fail "fio: $calls pwrite64 calls, not 100"; }
awk -F', ' '/pwrite64/ { o = $NF; sub(/\).*/, "", o); o += 0; if (o < 8388608 || o + 4096 > 12582912) bad++ }
	END { exit bad > 0 }' "$tmp/fio.st" || fail "fio: a pwrite outside [8 MiB, 12 MiB)"
echo "import-fio: filename=$blank offset=8m size=4m: 100 writes, all in [8 MiB, 12 MiB), only with --write-device"

# ---- O_DIRECT: aligned to the device's own logical block size ----
if big=$(truncate -s 16M "$tmp/big.img" && losetup -f --show --sector-size 4096 "$tmp/big.img"); then
	echo "$big" >>"$tmp/loops"
	for sz in 512 4k; do
		cat >"$tmp/dio$sz.f" <<F
define device name=d,path=$big
define process name=p { thread name=t {
  flowop read name=io,filesetname=d,iosize=$sz,random,directio
  flowop finishoncount name=fin,value=50 } }
run 20
F
		run_named "dio$sz" "$tmp/dio$sz.f" --cache warm
		[ $sz = 4k ] || expect_failed dio512 "multiples of 4096 bytes (the logical block size of the device $big), but iosize is 512"
	done
	[ "$(breakdown_field "$tmp/dio4k.out" io ops)" = 50 ] || { cat "$tmp/dio4k.out"; fail "dio4k: not 50 ops"; }
	echo "directio: 512-byte reads refused on a 4096-byte-sector device, 4 KiB ones run"
else
	echo "skipped: directio on a 4096-byte-sector loop device (losetup --sector-size failed)"
fi

# ---- signatures ----
sig=$(mkloop sig 32M)
mkfs.ext4 -q -F "$sig" >/dev/null 2>&1 || fail "mkfs.ext4 failed"
refused ext4 "$sig" "signature of ext4"
run_named destroy "$tmp/ext4.f" --cache warm --write-device "$sig" --destroy-data "$sig"
[ "$rc" = 0 ] || { cat "$tmp/destroy.out"; fail "--destroy-data: status $rc"; }
echo "--destroy-data: the ext4 device is written"

mkswap "$sig" >/dev/null 2>&1 || fail "mkswap failed"
refused swap "$sig" "signature of swap"

# a DOS partition table: one Linux partition from sector 2048
dd if=/dev/zero of="$sig" bs=1M count=1 status=none
printf '\000\040\041\000\203\001\002\003\000\010\000\000\000\200\000\000' |
	dd of="$sig" bs=1 seek=446 conv=notrunc status=none
printf '\125\252' | dd of="$sig" bs=1 seek=510 conv=notrunc status=none
refused ptable "$sig" "partition table (dos"

# ---- a mounted partition refuses its whole device ----
cp "$tmp/sig.img" "$tmp/part.img"
if part=$(losetup -f --show -P "$tmp/part.img") && echo "$part" >>"$tmp/loops" &&
   i=0 && until [ -b "${part}p1" ] || [ $i -ge 500 ]; do i=$((i + 1)); sleep 0.01; done &&
   [ -b "${part}p1" ] && mkfs.ext4 -q -F "${part}p1" >/dev/null 2>&1 && mkdir -p "$tmp/mnt" &&
   mount -o ro,noload "${part}p1" "$tmp/mnt"; then
	refused partmounted "$part" "$(basename "$part")p1, which is on it, is mounted at $tmp/mnt" \
		--destroy-data "$part"
	umount "$tmp/mnt"
else
	echo "skipped: a mounted partition (no partition device for the loop device)"
fi

if command -v mkfs.xfs >/dev/null; then
	xfs=$(mkloop xfs 320M)
	if mkfs.xfs -q -f "$xfs" >/dev/null 2>&1; then
		refused xfs "$xfs" "signature of xfs"
	else
		echo "skipped: mkfs.xfs failed on a 320 MiB device"
	fi
else
	echo "skipped: xfs (no mkfs.xfs)"
fi

# ---- mounted (read-only, no journal replay: its bytes stay), even with --destroy-data ----
mnt=$(mkloop mnt 32M)
mkfs.ext4 -q -F "$mnt" >/dev/null 2>&1 && mkdir -p "$tmp/mnt" &&
	mount -o ro,noload "$mnt" "$tmp/mnt" || fail "cannot mount ext4 on $mnt"
refused mounted "$mnt" "mounted at $tmp/mnt" --destroy-data "$mnt"
umount "$tmp/mnt"

# ---- held by another program (an exclusive open) ----
held=$(mkloop held 32M)
python3 -c '
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
open(sys.argv[2], "w").close()
time.sleep(600)' "$held" "$tmp/holding" &
holder=$!
i=0
while [ ! -e "$tmp/holding" ]; do
	kill -0 "$holder" 2>/dev/null || fail "the holder could not open $held"
	i=$((i + 1)); [ $i -lt 3000 ] || fail "the holder never held $held"
	sleep 0.01
done
refused held "$held" "in use: another program holds it"
kill "$holder"; wait "$holder" 2>/dev/null || true; holder=

# ---- a member of a device-mapper device (LVM and MD build on it too) ----
if command -v dmsetup >/dev/null &&
   dmsetup create "fbdev$$" --table "0 8192 linear $held 0" >/dev/null 2>&1; then
	dm=fbdev$$
	refused member "$held" "member of dm-"
	dmsetup remove "$dm" && dm=
else
	echo "skipped: device-mapper member (dmsetup cannot create a device here)"
fi
command -v mdadm >/dev/null || echo "skipped: MD member (no mdadm)"
command -v pvcreate >/dev/null || echo "skipped: LVM member (no pvcreate)"

ok "device targets: reads free, writes only to a named blank device, every refusal with its reason and the bytes unchanged"
