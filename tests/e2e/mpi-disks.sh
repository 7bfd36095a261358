#!/bin/sh
# mpi-disks.sh - a flowbench-mpi client whose filesets sit on more
# devices than a rank's usage summary carries (8): rank 0 says so on its
# output, naming the rank and both counts, and the results file's
# ranks[].usage lists the first 8 with disks_total 9, while the rank's
# own text still shows every device.  Nine ext4 file systems on loop
# devices: root only.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"
need python3
[ "$(id -u)" = 0 ] || { echo "SKIP: needs root (loop devices, mounts)"; exit 77; }
need losetup
need mkfs.ext4

cleanup() {
	for m in "$tmp"/mnt*; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
	[ -f "$tmp/loops" ] && while read -r l; do losetup -d "$l" 2>/dev/null; done <"$tmp/loops"
	rm -rf "$tmp"
}
trap cleanup EXIT

n=9
{
	i=1
	while [ $i -le $n ]; do
		truncate -s 32M "$tmp/img$i"
		dev=$(losetup -f --show "$tmp/img$i") || { echo "SKIP: no loop device"; exit 77; }
		echo "$dev" >>"$tmp/loops"
		mkfs.ext4 -q -F "$dev" >/dev/null 2>&1 || fail "mkfs.ext4 $dev"
		mkdir "$tmp/mnt$i"
		mount "$dev" "$tmp/mnt$i" || fail "mount $dev"
		echo "define file name=f$i,path=$tmp/mnt$i,size=1m,prealloc"
		i=$((i + 1))
	done
	echo "define process name=p {"
	echo "  thread name=t {"
	i=1
	while [ $i -le $n ]; do
		echo "    flowop read name=r$i,filename=f$i,iosize=4k,random"
		i=$((i + 1))
	done
	echo "  }"
	echo "}"
	echo "run 1"
} >"$tmp/nine.f"

# two ranks, each with its own files (the default): each has 9 devices
# shellcheck disable=SC2086
timeout 120 "$MPIRUN" $mpi_flags -np 2 "$FBM" run "$tmp/nine.f" \
	-o "$tmp/r.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$tmp/out"; fail "flowbench-mpi on 9 devices failed"; }
for r in 0 1; do
	grep -q "Rank $r ([^)]*): 9 devices under its filesets; the results file's ranks\[\].usage lists the first 8 (disks_total: 9)" \
		"$tmp/out" || { cat "$tmp/out"; fail "rank 0 did not say rank $r's devices were cut to 8"; }
done
ok "rank 0 says each rank had 9 devices and the results file lists 8"
disks=$(grep -c ': Disk loop[0-9]*: ' "$tmp/out" || true)
[ "$disks" -ge 9 ] || { grep Disk "$tmp/out"; fail "rank 0's text shows $disks loop devices, not the 9"; }
ok "rank 0's own text shows all $disks devices"
python3 - "$tmp/r.json" <<'PY' || fail "ranks[].usage: not 8 devices listed of 9"
import json, sys
a = json.load(open(sys.argv[1]))
for k in a["runs"][0]["ranks"]:
    u = k["usage"]
    assert u["disks_total"] == 9 and len(u["disks"]) == 8, (k["rank"], u)
    assert len({d["name"] for d in u["disks"]}) == 8, u["disks"]
PY
ok "results: each rank's usage lists 8 devices, disks_total 9"
