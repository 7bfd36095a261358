#!/bin/sh
# fio-offsets.sh - where and how large imported fio jobs' I/Os are, seen
# in the system calls (strace):
#  - libaio with offset= and rw=read:8k (time-based): io_submit's
#    offsets are fio's: 64k, 76k, ... 316k, then 64k again (the region
#    starts at the offset, each read 8 KiB after the end of the one
#    before, wrapping at the end of the file); with fio installed, the
#    same 50 offsets as fio's own run;
#  - posixaio with offset= and rw=write (time-based, 4 clones apart with
#    offset_increment): each clone's pwrites stay in its region of 256k
#    and wrap there (fio: back to its offset), never past it;
#  - bsrange=4k-32k on random reads (norandommap: sizes as drawn): the
#    sizes are 4k, 8k, ..., 32k with odds 1/8 each (chi-square, 7 degrees
#    of freedom, below 24.3: p > 0.001), offsets multiples of 4k inside
#    the file (fio aligns them to the smallest size); bsrange=4k-10k: 4k
#    and 8k 40 % each, 10k 20 %; with fio installed, fio's own sizes pass
#    the same test;
#  - bsrange=4k-32k with fio's random map (its default): each pass covers
#    every 4k block of the 1 MiB file exactly once before any block is
#    read again (I/Os cut short before a block done already, as fio's),
#    4 passes for io_size=4m; with fio installed, fio's own reads pass
#    the same test;
#  - iodepth=512 (above the old limit of 256): 512 reads in flight at once.
. "$(dirname "$0")/lib.sh"
need strace
need python3

# traced NAME SYSCALLS WML: run WML under strace, the calls in $tmp/NAME.st
traced() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	timeout 120 strace -f -qq -e trace="$2" -e signal=none -o "$tmp/$1.st" \
		"$FLOWBENCH" run "$3" --cache keep >"$tmp/$1.out" 2>&1 ||
		{ cat "$tmp/$1.out"; fail "$1: the run failed"; }
}

# imported NAME JOBTEXT: import $tmp/NAME.fio into $tmp/NAME.f
imported() {
	printf "$2" >"$tmp/$1.fio"
	"$FLOWBENCH" import-fio "$tmp/$1.fio" >"$tmp/$1.f" 2>"$tmp/$1.err" ||
		{ cat "$tmp/$1.err"; fail "$1: import failed"; }
}

# ---- libaio, offset and stride -----------------------------------------
imported stride "[j]\nfilename=$tmp/sa\nrw=read:8k\nbs=4k\nsize=256k\noffset=64k\nioengine=libaio\niodepth=4\ntime_based\nruntime=1\n"
grep -q 'aioread name=j-read,filename=sa,iosize=$iosize,misalign=$offset,stride=8k' "$tmp/stride.f" ||
	fail "stride: $(grep aioread "$tmp/stride.f")"
traced stride io_submit "$tmp/stride.f"
grep -o 'aio_offset=[0-9]*' "$tmp/stride.st" | cut -d= -f2 | head -50 >"$tmp/stride.offs"
[ "$(wc -l <"$tmp/stride.offs")" -eq 50 ] || fail "stride: fewer than 50 reads submitted"
python3 - "$tmp/stride.offs" <<'EOF' || fail "stride: offsets $(head -30 "$tmp/stride.offs" | tr '\n' ' ')"
import sys
got = [int(x) for x in open(sys.argv[1])]
region = [65536 + k * 12288 for k in range(22)]        # 64k, 76k, ... 316k
sys.exit(0 if got == (region * 3)[:50] else 1)
EOF
ok "libaio offset=64k rw=read:8k: 50 io_submit offsets 64k, 76k, ... 316k, 64k, ... as fio's"
if command -v fio >/dev/null; then
	sed "s|/sa\$|/fio-sa|" "$tmp/stride.fio" >"$tmp/fio-stride.fio"
	strace -f -qq -e trace=io_submit -e signal=none -o "$tmp/fio-stride.st" \
		fio --output=/dev/null "$tmp/fio-stride.fio" >/dev/null 2>&1 || fail "fio failed"
	grep -o 'aio_offset=[0-9]*' "$tmp/fio-stride.st" | cut -d= -f2 | head -50 |
		cmp -s - "$tmp/stride.offs" || fail "stride: fio's offsets differ"
	ok "fio's own run submits the same 50 offsets"
fi

# ---- offset_increment clones wrap in their regions ---------------------
imported clones "[w]\nfilename=$tmp/cl\nrw=write\nbs=64k\nsize=256k\nioengine=posixaio\niodepth=2\nnumjobs=4\noffset_increment=256k\ntime_based\nruntime=1\n"
traced clones pwrite64 "$tmp/clones.f"
# each clone k writes [k x 256k, (k + 1) x 256k): 4 offsets each, every one of them
python3 - "$tmp/clones.st" <<'EOF' || fail "clones: $(grep -c pwrite64 "$tmp/clones.st") pwrites outside their regions or missing"
import re, sys
offs = [int(m.group(1)) for m in re.finditer(r'pwrite64\(.*, 65536, (\d+)\) += 65536', open(sys.argv[1]).read())]
seen = set(offs)
want = {k * 65536 for k in range(16)}
sys.exit(0 if len(offs) >= 32 and seen == want else 1)
EOF
ok "offset_increment=256k on posixaio: $(grep -c pwrite64 "$tmp/clones.st") pwrites, all at the 16 blocks of the 4 regions (each clone wraps in its own)"

# ---- bsrange -----------------------------------------------------------
# chi SIZES EXPECTED...: chi-square of the sizes (one a line) against the
# odds given as SIZE=P pairs
chi() {
	python3 - "$@" <<'EOF'
import sys
sizes = [int(x) for x in open(sys.argv[1])]
odds = {int(a): float(b) for a, b in (s.split('=') for s in sys.argv[2:])}
n = len(sizes)
bad = [s for s in sizes if s not in odds]
if bad:
    print(f"{n} {float('inf')} {bad[0]}")
    sys.exit(0)
x2 = sum((sizes.count(s) - n * p) ** 2 / (n * p) for s, p in odds.items())
print(f"{n} {x2:.2f} -")
EOF
}
# sizes NAME: the sizes and offsets of the pread64 calls on the file read
# most (not the loader's) in $tmp/NAME.st, into .so, .sizes and .offs
sizes() {
	python3 - "$tmp/$1.st" >"$tmp/$1.so" <<'EOF'
import collections, re, sys
calls = collections.defaultdict(list)
for m in re.finditer(r'pread64\((\d+), .*, (\d+), (\d+)\) += \d+', open(sys.argv[1]).read()):
    calls[m.group(1)].append((m.group(2), m.group(3)))
for s, o in max(calls.values(), key=len):
    print(s, o)
EOF
	cut -d' ' -f1 "$tmp/$1.so" >"$tmp/$1.sizes"
	cut -d' ' -f2 "$tmp/$1.so" >"$tmp/$1.offs"
}
eighths="4096=.125 8192=.125 12288=.125 16384=.125 20480=.125 24576=.125 28672=.125 32768=.125"
imported bsr "[j]\nfilename=$tmp/bs\nrw=randread\nbsrange=4k-32k\nsize=16m\nio_size=1g\nnumber_ios=4000\nnorandommap\n"
traced bsr pread64 "$tmp/bsr.f"
sizes bsr
set -- $(chi "$tmp/bsr.sizes" $eighths)
[ "$1" -ge 4000 ] || fail "bsrange: only $1 reads"
[ "$3" = - ] || fail "bsrange: a size $3 outside 4k, 8k, ... 32k"
awk -v x="$2" 'BEGIN { exit !(x < 24.3) }' || fail "bsrange 4k-32k: chi-square $2 (7 df) over $1 reads"
awk '$1 % 4096 || $1 + 32768 > 16777216 + 32768' "$tmp/bsr.offs" | head -1 | grep . &&
	fail "bsrange: an offset not a multiple of 4k"
python3 - "$tmp/bsr.so" <<'EOF' || fail "bsrange: a read past the end of the file"
import sys
sys.exit(0 if all(int(s) + int(o) <= 16 << 20 for s, o in (l.split() for l in open(sys.argv[1]))) else 1)
EOF
ok "bsrange=4k-32k: $1 reads, sizes 4k..32k each 1/8 (chi-square $2, 7 df), offsets multiples of 4k"
imported bsr2 "[j]\nfilename=$tmp/bs2\nrw=randread\nbsrange=4k-10k\nsize=16m\nio_size=1g\nnumber_ios=3000\nnorandommap\n"
traced bsr2 pread64 "$tmp/bsr2.f"
sizes bsr2
set -- $(chi "$tmp/bsr2.sizes" 4096=.4 8192=.4 10240=.2)
[ "$3" = - ] && awk -v x="$2" 'BEGIN { exit !(x < 13.8) }' ||
	fail "bsrange 4k-10k: chi-square $2 (2 df), size $3"
ok "bsrange=4k-10k: $1 reads, 4k and 8k 40 % each, 10k 20 % (chi-square $2, 2 df)"
if command -v fio >/dev/null; then
	printf "[j]\nfilename=$tmp/fio-bs\nrw=randread\nbsrange=4k-32k\nsize=16m\nio_size=1g\nnumber_ios=4000\nnorandommap\nnorandommap\n" >"$tmp/fbs.fio"
	strace -f -qq -e trace=pread64 -e signal=none -o "$tmp/fbs.st" \
		fio --output=/dev/null "$tmp/fbs.fio" >/dev/null 2>&1 || fail "fio failed"
	sizes fbs
	set -- $(chi "$tmp/fbs.sizes" $eighths)
	[ "$3" = - ] && awk -v x="$2" 'BEGIN { exit !(x < 24.3) }' ||
		fail "fio's own bsrange=4k-32k: chi-square $2, size $3"
	ok "fio's own sizes for bsrange=4k-32k pass the same test ($1 reads, chi-square $2)"
fi

# ---- bsrange with fio's random map -------------------------------------
# passes NAME: the reads of $tmp/NAME.so cut into passes (a pass ends
# before the first read of a 4k block read already in it); prints "passes
# full-passes reads", or why it fails: a pass but the last that does not
# cover all 256 blocks, a size not a multiple of 4k up to 32k, a read not
# inside the 1 MiB file
passes() {
	python3 - "$tmp/$1.so" <<'EOF'
import sys
seen, passes, full, n = set(), 1, 0, 0
for line in open(sys.argv[1]):
    size, off = map(int, line.split())
    n += 1
    if size % 4096 or size > 32768 or off % 4096 or off + size > 1 << 20:
        print(f"bad read: {size} bytes at {off}")
        sys.exit(1)
    blocks = set(range(off // 4096, (off + size) // 4096))
    if blocks & seen:
        if len(seen) != 256:
            print(f"pass {passes}: a block read again after {len(seen)} of 256")
            sys.exit(1)
        full += 1
        passes += 1
        seen = set()
    seen |= blocks
if len(seen) == 256:
    full += 1
print(passes, full, n)
EOF
}
imported map "[j]\nfilename=$tmp/mp\nrw=randread\nbsrange=4k-32k\nsize=1m\nio_size=4m\n"
grep -q 'iosize=$iosize,random,randommap,blockalign=4k' "$tmp/map.f" ||
	fail "map: $(grep 'flowop read' "$tmp/map.f")"
traced map pread64 "$tmp/map.f"
sizes map
out=$(passes map) || fail "map: $out"
set -- $out
[ "$2" -ge 4 ] || fail "map: $2 full passes of 256 blocks (io_size=4m: 4)"
ok "bsrange=4k-32k with the random map: $3 reads in $1 passes, each of the $2 full ones every 4k block once"
if command -v fio >/dev/null; then
	printf "[j]\nfilename=$tmp/fio-mp\nrw=randread\nbsrange=4k-32k\nsize=1m\nio_size=4m\n" >"$tmp/fmp.fio"
	strace -f -qq -e trace=pread64 -e signal=none -o "$tmp/fmp.st" \
		fio --output=/dev/null "$tmp/fmp.fio" >/dev/null 2>&1 || fail "fio failed"
	sizes fmp
	out=$(passes fmp) || fail "fio's map: $out"
	set -- $out
	[ "$2" -ge 4 ] || fail "fio's map: $2 full passes"
	ok "fio's own reads pass the same test: $3 reads in $1 passes"
fi

# ---- a queue deeper than 256 -------------------------------------------
imported deep "[j]\nfilename=$tmp/dq\nrw=randread\nbs=4k\nsize=8m\nioengine=libaio\niodepth=512\nnumber_ios=4096\n"
"$FLOWBENCH" run "$tmp/deep.f" --cache keep >"$tmp/deep.out" 2>&1 ||
	{ cat "$tmp/deep.out"; fail "deep: the run failed"; }
grep -q "at most 512 requests in flight at once (iodepth=512)" "$tmp/deep.out" ||
	fail "deep: $(grep 'in flight' "$tmp/deep.out")"
ok "iodepth=512: 512 requests in flight at once"
