#!/bin/sh
# directio.sh - O_DIRECT, misalign, memoffset and memtype on real files:
# direct reads leave the page cache empty where buffered ones fill it;
# misaligned offsets are misaligned in the system calls (strace); 512 B
# to 4 KiB direct I/O works on a 512-byte device and an impossible size
# is an error naming both numbers; hugetlb and thp thread memory really
# is on huge pages (smaps), and a short hugetlb pool names the sysctl.
#
# As root with e2fsprogs the files live on loop-mounted ext4 images (one
# with 512-byte, one with 4096-byte logical blocks), so the device is
# known; otherwise on the test directory, and the parts that need a
# known device or root are skipped.
. "$(dirname "$0")/lib.sh"

hp_orig=
cleanup() {
	for m in "$tmp"/mnt*; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
	[ -f "$tmp/loops" ] && while read -r l; do losetup -d "$l"; done <"$tmp/loops"
	[ -n "$hp_orig" ] && echo "$hp_orig" >/proc/sys/vm/nr_hugepages
	rm -rf "$tmp"
}
trap cleanup EXIT

# mkloop NAME SECTOR: an ext4 image with SECTOR-byte blocks mounted on
# $tmp/mntNAME; prints the loop device (listed in $tmp/loops for cleanup)
mkloop() {
	truncate -s 64M "$tmp/img$1" &&
	dev=$(losetup -f --show --sector-size "$2" "$tmp/img$1") &&
	echo "$dev" >>"$tmp/loops" &&
	mkfs.ext4 -q -F -b 4096 "$dev" >/dev/null 2>&1 &&
	mkdir "$tmp/mnt$1" && mount "$dev" "$tmp/mnt$1" && echo "$dev"
}

d=$tmp/d
dev512=
if [ "$(id -u)" = 0 ] && command -v mkfs.ext4 >/dev/null && command -v losetup >/dev/null &&
   dev512=$(mkloop 512 512 2>/dev/null); then
	d=$tmp/mnt512
	echo "files on $dev512 (ext4, 512-byte logical blocks)"
else
	dev512=
	mkdir "$d"
	if ! dd if=/dev/zero of="$d/probe" bs=4096 count=1 oflag=direct status=none 2>/dev/null; then
		echo "SKIP: $d does not support O_DIRECT and no loop device could be made"
		exit 77
	fi
	echo "files on $d (device unknown: parts needing a 512-byte device are skipped)"
fi

# fb NAME [flowbench options]: run the workload on stdin (saved as
# $tmp/NAME.f), output in $tmp/NAME.out; fails the test if the run fails
fb() {
	n=$1; shift
	cat >"$tmp/$n.f"
	"$FLOWBENCH" run "$tmp/$n.f" --cache keep "$@" >"$tmp/$n.out" 2>&1 ||
		{ cat "$tmp/$n.out"; fail "$n: run failed"; }
}
# fbfail NAME: the run must fail; its output in $tmp/NAME.out
fbfail() {
	n=$1
	cat >"$tmp/$n.f"
	if "$FLOWBENCH" run "$tmp/$n.f" --cache keep >"$tmp/$n.out" 2>&1; then
		cat "$tmp/$n.out"; fail "$n: run succeeded"
	fi
}
ops() { breakdown_field "$tmp/$1.out" "$2" ops; }
resident() { fincore --bytes --noheadings --output RES "$1" | tr -d ' '; }
drop() { sync "$1"; dd if="$1" iflag=nocache count=0 status=none; }

# ---- (a) O_DIRECT bypasses the page cache ----
if command -v fincore >/dev/null; then
	for mode in direct buffered; do
		attr=; [ $mode = direct ] && attr=,directio
		cat >"$tmp/cache-$mode.f" <<F
define file name=f$mode,path=$d,size=8m,prealloc,reuse
define process name=p { thread name=t { flowop read name=rd,filename=f$mode,iosize=64k$attr
flowop finishoncount name=fin,value=128 } }
run 5
F
		# populate, then drop the file's pages: the run starts cold
		"$FLOWBENCH" run "$tmp/cache-$mode.f" --cache keep >/dev/null 2>&1 ||
			fail "cache-$mode: first run failed"
		f=$(find "$d/f$mode" -type f ! -name .flowbench | head -1)
		drop "$f"
		[ "$(resident "$f")" -lt 65536 ] || fail "could not drop $f's pages ($(resident "$f") bytes left)"
		"$FLOWBENCH" run "$tmp/cache-$mode.f" --cache keep >"$tmp/cache-$mode.out" 2>&1 ||
			{ cat "$tmp/cache-$mode.out"; fail "cache-$mode: run failed"; }
		[ "$(ops cache-$mode rd)" -gt 0 ] || fail "cache-$mode: no reads"
		eval "res_$mode=$(resident "$f")"
	done
	[ "$res_direct" -lt 65536 ] ||
		fail "directio reads left $res_direct bytes of the file in the page cache"
	[ "$res_buffered" -ge 4194304 ] ||
		fail "buffered reads left only $res_buffered bytes in the page cache (want the 8 MiB file)"
	ok "directio: $res_direct bytes cached after direct reads, $res_buffered after buffered ones"
else
	echo "skip: fincore is not installed (page cache check)"
fi

# ---- (b) misaligned offsets are misaligned ----
if command -v strace >/dev/null; then
	cat >"$tmp/mis.f" <<F
define file name=m,path=$d,size=1m,prealloc,reuse
define process name=p { thread name=t,memsize=2m {
flowop read name=seqrd,filename=m,iosize=4k,directio,misalign=2k,fd=1
flowop read name=rndrd,filename=m,iosize=4k,directio,misalign=2k,random,fd=2
flowop write name=rndwr,filename=m,iosize=4k,directio,misalign=2k,random,fd=3
flowop write name=seqwr,filename=m,iosize=4k,misalign=2k,fd=4 } }
run 1
F
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -f -qq -e trace=pread64,pwrite64 -o "$tmp/mis.tr" \
		"$FLOWBENCH" run "$tmp/mis.f" --cache keep >"$tmp/mis.out" 2>&1 ||
		{ cat "$tmp/mis.out"; fail "misalign: run failed"; }
	for fo in seqrd rndrd rndwr seqwr; do
		[ "$(ops mis $fo)" -gt 0 ] || fail "misalign: no $fo ops"
	done
	# the I/O calls (4096 bytes asked) that transferred data
	awk '/p(read|write)64\(/ && /, 4096, [0-9]+\) += [1-9]/ {
		o = $0; sub(/.*, 4096, /, "", o); sub(/\).*/, "", o)
		n++; if (o % 4096 != 2048) { bad++; print "aligned: " $0 }
	} END { printf "%d %d\n", n, bad }' "$tmp/mis.tr" >"$tmp/mis.count"
	read -r n bad <<EOT
$(tail -1 "$tmp/mis.count")
EOT
	[ "$n" -gt 100 ] || fail "misalign: only $n I/O calls traced"
	[ "${bad:-0}" -eq 0 ] || { head "$tmp/mis.count"; fail "misalign: $bad of $n offsets not 2048 mod 4096"; }
	ok "misalign=2k: all $n traced preads/pwrites (sequential and random) at offsets 2048 mod 4096"
else
	echo "skip: strace is not installed (misalign offsets)"
fi

# memoffset moves the buffer: a buffer 512 bytes into thread memory works
fb memoff <<F
define file name=mo,path=$d,size=1m,prealloc,reuse
define process name=p { thread name=t,memsize=64k { flowop read name=rd,filename=mo,iosize=4k,directio,memoffset=512 } }
run 1
F
[ "$(ops memoff rd)" -gt 0 ] || fail "memoffset=512: no reads"
fbfail memoff100 <<F
define file name=mo,path=$d,size=1m,prealloc,reuse
define process name=p { thread name=t,memsize=64k { flowop read name=rd,filename=mo,iosize=4k,directio,memoffset=100 } }
run 1
F
grep -q "flowop rd: directio needs buffers aligned to [0-9]* bytes in memory (.*), but memoffset 100" "$tmp/memoff100.out" ||
	{ cat "$tmp/memoff100.out"; fail "memoffset=100 with directio: wrong error"; }
ok "memoffset: 512 works with directio, 100 is an error naming the alignment"

# ---- (c) sizes on a 512-byte device; impossible sizes name both numbers ----
if [ -n "$dev512" ]; then
	# every size in one run: random reads and writes, one fd slot each
	{
		echo "define file name=b,path=$d,size=1m,prealloc,reuse"
		echo "define process name=p { thread name=t,memsize=2m {"
		k=0
		for bs in 512 1k 2k 4k; do
			k=$((k + 1))
			echo "flowop read name=rd$bs,filename=b,iosize=$bs,directio,random,fd=$k"
			echo "flowop write name=wr$bs,filename=b,iosize=$bs,directio,random,fd=$((k + 4))"
		done
		echo "} }"
		echo "run 1"
	} | fb sizes
	for bs in 512 1k 2k 4k; do
		[ "$(ops sizes "rd$bs")" -gt 0 ] && [ "$(ops sizes "wr$bs")" -gt 0 ] ||
			fail "directio iosize=$bs on a 512-byte device: no ops"
	done
	fbfail bs1000 <<F
define file name=b,path=$d,size=1m,prealloc,reuse
define process name=p { thread name=t { flowop read name=rd,filename=b,iosize=1000,directio } }
run 1
F
	grep -q "flowop rd: directio needs I/O sizes and offsets in multiples of 512 bytes (the .* of ${dev512}.*), but iosize is 1000" \
		"$tmp/bs1000.out" || { cat "$tmp/bs1000.out"; fail "iosize=1000: wrong error"; }
	ok "directio on $dev512: iosize 512, 1k, 2k, 4k work; 1000 is an error naming 512 and 1000"

	if dev4k=$(mkloop 4k 4096 2>/dev/null); then
		fbfail bs2k4k <<F
define file name=b,path=$tmp/mnt4k,size=1m,prealloc,reuse
define process name=p { thread name=t { flowop read name=rd,filename=b,iosize=2k,directio } }
run 1
F
		grep -q "flowop rd: directio needs I/O sizes and offsets in multiples of 4096 bytes (the .* of ${dev4k}.*), but iosize is 2048" \
			"$tmp/bs2k4k.out" || { cat "$tmp/bs2k4k.out"; fail "iosize=2k on 4096: wrong error"; }
		fbfail mis4k <<F
define file name=b,path=$tmp/mnt4k,size=1m,prealloc,reuse
define process name=p { thread name=t { flowop read name=rd,filename=b,iosize=4k,misalign=2k,directio } }
run 1
F
		grep -q "multiples of 4096 bytes .*, but misalign is 2048" "$tmp/mis4k.out" ||
			{ cat "$tmp/mis4k.out"; fail "misalign=2k on 4096: wrong error"; }
		ok "directio on $dev4k (4096-byte blocks): iosize 2k and misalign 2k are errors naming 4096"
	fi
else
	echo "skip: no loop device (512- and 4096-byte device sizes)"
fi

# ---- (d) thread memory on huge pages ----
# smaps_of PID...: the smaps of these processes and their descendants
smaps_of() {
	for p in "$@"; do
		cat "/proc/$p/smaps" 2>/dev/null
		smaps_of $(pgrep -P "$p" 2>/dev/null)
	done
}
# during NAME: run NAME.f in the background; once it is Running (the
# thread memory exists from before the release; start-up takes what a
# busy machine makes it take) put the workers' smaps in $tmp/NAME.smaps.
# The smaps count only if the workers were still there after they were
# read (on a loaded machine the poll once saw Running after a 1 s run
# had ended and its workers were gone): else again with a longer run.
during() {
	for secs in 1 4 16; do
		"$FLOWBENCH" run "$tmp/$1.f" --cache keep --runtime "$secs" >"$tmp/$1.out" 2>&1 &
		pid=$!
		i=0
		until grep -q Running "$tmp/$1.out"; do
			i=$((i + 1)); [ $i -le 400 ] || { kill -9 "$pid"; fail "$1: the run did not start: $(cat "$tmp/$1.out")"; }
			sleep 0.05
		done
		smaps_of "$pid" >"$tmp/$1.smaps"
		alive=no
		[ -n "$(pgrep -P "$pid")" ] && alive=yes    # its workers outlived the reading
		wait "$pid" || { cat "$tmp/$1.out"; fail "$1: run failed"; }
		[ $alive = yes ] && return 0
		echo "$1: the ${secs} s run ended before its smaps were read: again, longer"
	done
	fail "$1: the run always ended before its workers' smaps were read"
}
# memf TYPE MEMSIZE: a direct-read workload of a thread with that memory
memf() {
	cat <<F
define file name=h,path=$d,size=1m,prealloc,reuse
define process name=p { thread name=t,memsize=$2,memtype=$1 {
flowop read name=rd,filename=h,iosize=4k,directio } }
run 1
F
}

if [ "$(id -u)" = 0 ] && [ -w /proc/sys/vm/nr_hugepages ] && grep -q '^Hugepagesize: *2048 kB' /proc/meminfo; then
	orig=$(cat /proc/sys/vm/nr_hugepages)
	free=$(awk '/^HugePages_Free/ {print $2}' /proc/meminfo)
	if [ "$free" -eq 0 ]; then
		memf hugetlb 2m | fbfail hugeno
		grep -q "thread t: memtype=hugetlb needs 1 huge page of 2 MiB per instance (1 for the whole run), but only 0 of [0-9]* are free (reserve them with: sysctl vm.nr_hugepages=[1-9]" \
			"$tmp/hugeno.out" || { cat "$tmp/hugeno.out"; fail "hugetlb without pages: wrong error"; }
		ok "memtype=hugetlb with no free huge pages: error names vm.nr_hugepages"
	fi
	hp_orig=$orig
	echo $((orig + 2)) >/proc/sys/vm/nr_hugepages
	if [ "$(awk '/^HugePages_Free/ {print $2}' /proc/meminfo)" -ge 1 ]; then
		memf hugetlb 2m >"$tmp/huge.f"
		during huge
		[ "$(ops huge rd)" -gt 0 ] || fail "hugetlb: no reads"
		grep -q '^KernelPageSize: *2048 kB' "$tmp/huge.smaps" ||
			fail "memtype=hugetlb: no mapping with 2048 kB pages in the workers' smaps"
		awk '/^Private_Hugetlb:/ && $2 >= 2048 {f=1} END {exit !f}' "$tmp/huge.smaps" ||
			fail "memtype=hugetlb: no Private_Hugetlb memory in the workers' smaps"
		ok "memtype=hugetlb: thread memory on 2048 kB pages (smaps), direct reads through it"
	else
		echo "skip: could not reserve huge pages"
	fi
	echo "$orig" >/proc/sys/vm/nr_hugepages
	hp_orig=
else
	echo "skip: not root or no 2 MiB huge pages (memtype=hugetlb)"
fi

if grep -q '\[\(always\|madvise\)\]' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null; then
	memf thp 4m >"$tmp/thp.f"
	during thp
	[ "$(ops thp rd)" -gt 0 ] || fail "thp: no reads"
	awk '/^AnonHugePages:/ {s += $2} END {exit !(s >= 2048)}' "$tmp/thp.smaps" ||
		fail "memtype=thp: no AnonHugePages in the workers' smaps"
	ok "memtype=thp: $(awk '/^AnonHugePages:/ {s += $2} END {print s}' "$tmp/thp.smaps") kB of transparent huge pages in the workers"
else
	echo "skip: transparent huge pages are disabled"
fi

# memtype is checked at compile time, with a suggestion
cat >"$tmp/badtype.f" <<F
define file name=h,path=$d,size=1m
define process name=p { thread name=t,memsize=1m,memtype=hugetbl { flowop read name=rd,filename=h,iosize=4k } }
run 1
F
"$FLOWBENCH" check "$tmp/badtype.f" >"$tmp/badtype.out" 2>&1 && fail "memtype=hugetbl accepted"
grep -q "memtype is anon, thp or hugetlb, not 'hugetbl' (did you mean 'hugetlb'?)" "$tmp/badtype.out" ||
	{ cat "$tmp/badtype.out"; fail "memtype=hugetbl: wrong error"; }
ok "memtype=hugetbl: compile error with a suggestion"
