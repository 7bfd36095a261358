#!/bin/sh
# writedata.sh - what the write flowops write, in the files a run leaves:
#  - WML without data attributes: flowbench's pattern, unchanged (its
#    256-byte sequence 0x5a ^ (i x 131), repeated: compresses to nothing);
#  - an imported fio job with buffer_compress_percentage=50: each 512-byte
#    chunk half random bytes, half zeros, so gzip and zstd leave about
#    half of the file (never less: the random half does not compress; at
#    most 3 % more for their framing);
#  - fio's default data (an imported job without data options): random
#    bytes, every 512-byte block of the file different (scramble), gzip
#    leaves at least 85 % of 64 KiB writes; with --lenient too;
#  - refill: no two 4 KiB writes alike; dedupe=50: about half of them
#    repeat the one before;
#  - with fio installed, the same jobs run by fio: gzip's and zstd's sizes
#    of both files within 3 % of each other (fio's default data, 50 %
#    compressible, and ZFS's perf-test data: 66 % of each 4 KiB chunk
#    the pattern 0xdeadbeef).
. "$(dirname "$0")/lib.sh"
need gzip
need python3

# ratio FILE [gzip|zstd]: the compressed size over the size, 3 decimals
ratio() {
	"${2:-gzip}" -c <"$1" 2>/dev/null | wc -c |
		awk -v n="$(stat -L -c %s "$1")" '{ printf "%.3f\n", $1 / n }'
}

# blocks FILE SIZE: "blocks distinct repeats-of-the-one-before" of FILE
# cut in SIZE-byte blocks
blocks() {
	python3 - "$1" "$2" <<'EOF'
import sys
data = open(sys.argv[1], 'rb').read()
n = int(sys.argv[2])
b = [data[i:i + n] for i in range(0, len(data) - n + 1, n)]
print(len(b), len(set(b)), sum(1 for i in range(1, len(b)) if b[i] == b[i - 1]))
EOF
}

# import_run NAME JOBTEXT: import $tmp/NAME.fio (filename $tmp/NAME.data)
# and run it; the file it wrote is then $tmp/NAME.w (a link to where
# flowbench keeps it: NAME.data/00000001/00000001)
import_run() {
	printf "[j]\nfilename=%s/%s.data\n$2" "$tmp" "$1" >"$tmp/$1.fio"
	"$FLOWBENCH" import-fio ${LENIENT:-} "$tmp/$1.fio" >"$tmp/$1.f" 2>"$tmp/$1.err" ||
		{ cat "$tmp/$1.err"; fail "$1: import failed"; }
	"$FLOWBENCH" run "$tmp/$1.f" --cache keep >"$tmp/$1.out" 2>&1 ||
		{ cat "$tmp/$1.out"; fail "$1: the run failed"; }
	ln -s "$tmp/$1.data/00000001/00000001" "$tmp/$1.w"
	[ -s "$tmp/$1.w" ] || fail "$1: no file $tmp/$1.w"
}

# ---- WML without data attributes: flowbench's pattern ------------------
mkdir "$tmp/plain"
cat >"$tmp/plain.f" <<EOT
define file name=f,path=$tmp/plain,size=1m,prealloc
define process name=p
{
  thread name=t
  {
    flowop write name=w,filename=f,iosize=64k
    flowop finishoncount name=done,value=16
  }
}
run 30
EOT
"$FLOWBENCH" run "$tmp/plain.f" --cache keep >"$tmp/plain.out" 2>&1 ||
	{ cat "$tmp/plain.out"; fail "plain: the run failed"; }
f=$(find "$tmp/plain" -type f -name '0*' | head -1)
python3 - "$f" <<'EOF' || fail "plain: the file is not flowbench's pattern"
import sys
d = open(sys.argv[1], 'rb').read()
want = bytes((0x5a ^ (i * 131)) & 0xff for i in range(256))
sys.exit(0 if len(d) == 1 << 20 and all(d[i:i + 256] == want for i in range(0, len(d), 256)) else 1)
EOF
r=$(ratio "$f")
awk -v r="$r" 'BEGIN { exit !(r < 0.02) }' || fail "plain: gzip leaves $r of the pattern"
ok "WML default: flowbench's 256-byte pattern 0x5a ^ (i x 131) throughout, gzip leaves $r"

# ---- buffer_compress_percentage=50 -------------------------------------
import_run c50 'rw=write\nbs=64k\nsize=4m\nbuffer_compress_percentage=50\n'
grep -q 'data=zero,compress=50,compresschunk=512,refill' "$tmp/c50.f" ||
	fail "c50: not the data attributes fio's rule gives: $(grep aiowrite\|write "$tmp/c50.f")"
for z in gzip zstd; do
	command -v $z >/dev/null || continue
	r=$(ratio "$tmp/c50.w" $z)
	# 256 random bytes of each 512: at least half remains, and little more
	awk -v r="$r" 'BEGIN { exit !(r >= 0.5 && r < 0.53) }' ||
		fail "c50: $z leaves $r of the file, not 0.50-0.53"
	ok "buffer_compress_percentage=50: $z leaves $r of the file (fio's rule: 0.5 random)"
done
set -- $(blocks "$tmp/c50.w" 512)
[ "$2" -eq "$1" ] || fail "c50: $2 distinct 512-byte chunks of $1 (each refilled: all)"

# ---- fio's default data ------------------------------------------------
for mode in strict lenient; do
	LENIENT=$([ $mode = lenient ] && echo --lenient || true) \
		import_run def-$mode 'rw=write\nbs=64k\nsize=4m\n'
	grep -q 'data=random,scramble' "$tmp/def-$mode.f" || fail "default ($mode): no data=random,scramble"
	r=$(ratio "$tmp/def-$mode.w")
	awk -v r="$r" 'BEGIN { exit !(r > 0.85) }' || fail "default ($mode): gzip leaves $r (random: > 0.85)"
	set -- $(blocks "$tmp/def-$mode.w" 512)
	[ "$2" -eq "$1" ] || fail "default ($mode): $2 distinct 512-byte blocks of $1 (scrambled: all)"
	ok "fio's default data ($mode): gzip leaves $r; all $1 512-byte blocks differ"
done

# ---- refill, dedupe ----------------------------------------------------
import_run refill 'rw=write\nbs=4k\nsize=4m\nrefill_buffers\n'
set -- $(blocks "$tmp/refill.w" 4096)
[ "$2" -eq "$1" ] || fail "refill: $2 distinct writes of $1"
import_run dedupe 'rw=write\nbs=4k\nsize=4m\ndedupe_percentage=50\n'
grep -q 'data=random,refill,dedupe=50' "$tmp/dedupe.f" || fail "dedupe: not data=random,refill,dedupe=50"
set -- $(blocks "$tmp/dedupe.w" 4096)
# 1023 pairs, each a repeat with odds 1/2: sd 16
[ "$3" -gt 430 ] && [ "$3" -lt 594 ] || fail "dedupe=50: $3 of $1 writes repeat the one before"
ok "refill: all $1 writes differ; dedupe=50: $3 of 1023 repeat the one before"

# ---- against fio -------------------------------------------------------
if command -v fio >/dev/null; then
	for spec in "fdef|rw=write\nbs=64k\nsize=4m\n" \
		    "f50|rw=write\nbs=64k\nsize=4m\nbuffer_compress_percentage=50\n" \
		    "zfs|rw=write\nbs=8k\nsize=4m\nbuffer_compress_percentage=66\nbuffer_pattern=0xdeadbeef\nbuffer_compress_chunk=4096\n"; do
		name=${spec%%|*}
		job=${spec#*|}
		import_run "$name" "$job"
		printf "[j]\nfilename=%s/%s.fio-data\n$job" "$tmp" "$name" >"$tmp/$name.fio-job"
		fio --output=/dev/null "$tmp/$name.fio-job" >/dev/null 2>&1 || fail "$name: fio failed"
		for z in gzip zstd; do
			command -v $z >/dev/null || continue
			a=$(ratio "$tmp/$name.fio-data" $z)
			b=$(ratio "$tmp/$name.w" $z)
			awk -v a="$a" -v b="$b" 'BEGIN { d = a - b; exit !(d < 0.03 && d > -0.03) }' ||
				fail "$name: $z leaves $a of fio's file, $b of flowbench's"
			ok "$name: $z leaves $a of fio's file and $b of flowbench's"
		done
	done
else
	echo "(fio is not installed: no comparison with fio's own files)"
fi
