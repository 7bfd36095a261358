#!/bin/sh
# flowops-wholefile.sh - writewholefile writes exactly the file size,
# readwholefile reads whole files, appendfile and appendfilerand grow
# files by what they report; the implicit open is its own op.
. "$(dirname "$0")/lib.sh"
need strace

d=$tmp/d
mkdir "$d"
fbrun() {
	cat >"$tmp/$1.f"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -ff -qq -s 0 -e trace=pread64,pwrite64,pwritev2 -o "$tmp/$1.tr" \
		"$FLOWBENCH" run "$tmp/$1.f" --cache keep \
		>"$tmp/$1.out" 2>&1 || { cat "$tmp/$1.out"; fail "$1: run failed"; }
}
ops() { breakdown_field "$tmp/$1.out" "$2" ops; }
late() { sed -n "s/.*Not counted:.*[(,] *$2 \\([0-9][0-9]*\\).*/\\1/p" "$tmp/$1.out" | grep . || echo 0; }

# writewholefile: 20 new files of 10000 bytes in 4 KiB chunks: 4096+4096+1808
fbrun wwf <<F
set mode quit alldone
define fileset name=w,path=$d,entries=20,dirwidth=10,size=10000
define process name=p { thread name=t { flowop createfile name=cr,filesetname=w,fd=1
flowop writewholefile name=wwf,filesetname=w,fd=1,iosize=4k
flowop closefile name=cl,fd=1 } }
run 10
F
[ "$(ops wwf wwf)" -eq 20 ] || fail "writewholefile: $(ops wwf wwf) ops for 20 files"
sizes=$(find "$d/w" -type f ! -name .flowbench -exec stat -c %s {} + | sort -u)
[ "$sizes" = 10000 ] || fail "writewholefile made files of sizes: $sizes (want 10000)"
n=$(cat "$tmp"/wwf.tr.* | grep -cE '^pwrite64\(.*, 1808, [0-9]+\) += 1808' || true)
[ "$n" -eq 20 ] || fail "writewholefile: $n short last chunks of 1808 bytes, want 20"
ok "writewholefile writes exactly the file size (10000 = 4096 + 4096 + 1808), no overshoot"

# readwholefile: each op reads a whole 10000-byte file; one implicit open
fbrun rwf <<F
define fileset name=r,path=$d,entries=5,dirwidth=10,size=10000,prealloc
define process name=p { thread name=t { flowop readwholefile name=rwf,filesetname=r,iosize=4k } }
run 1
F
n=$(ops rwf rwf)
l=$(late rwf rwf)
eof=$(cat "$tmp"/rwf.tr.* | grep -cE '^pread64\(.*, 4096, 10000\) += 0' || true)
[ "$n" -gt 0 ] && [ $((n + l)) -eq "$eof" ] || fail "readwholefile: $n ops + $l late, $eof reads that hit EOF"
grep -q 'Implicit opens: 1 ' "$tmp/rwf.out" || fail "readwholefile: expected 'Implicit opens: 1'"
awk -v ops="$n" -v mbs="$(breakdown_field "$tmp/rwf.out" rwf mbs)" -v opss="$(breakdown_field "$tmp/rwf.out" rwf opss)" \
	'BEGIN { b = mbs * 1048576 / opss; exit !(b > 10000 * 0.95 - 5000 && b < 10000 * 1.05 + 5000) }' ||
	fail "readwholefile: bytes per op are not the file size"
ok "readwholefile: $n ops, each to EOF of the 10000-byte file, one implicit open"

# appendfile: the file grows by iosize per op; appendfilerand by 1..iosize
fbrun app <<F
define fileset name=a,path=$d,entries=2,dirwidth=10,size=0,prealloc
define process name=p { thread name=t { flowop appendfile name=app,filesetname=a,fd=1,iosize=100
flowop appendfilerand name=appr,filesetname=a,fd=2,iosize=100 } }
run 1
F
size_of() { stat -c %s "$d/a/00000001/$1"; }
# which file each slot got: the first (round robin) went to fd=1
n=$(ops app app)
l=$(late app app)
[ "$(size_of 00000001)" -eq $(( (n + l) * 100 )) ] ||
	fail "appendfile: file is $(size_of 00000001) bytes after $n + $l appends of 100"
n=$(ops app appr)
l=$(late app appr)
s=$(size_of 00000002)
[ "$s" -ge $((n + l)) ] && [ "$s" -le $(( (n + l) * 100 )) ] ||
	fail "appendfilerand: file is $s bytes after $n + $l appends of 1..100"
total=$(cat "$tmp"/app.tr.* | sed -n 's/^pwritev2(.*) *= \([0-9][0-9]*\)$/\1/p' |
	awk '{ t += $1; if ($1 < 1 || $1 > 100) bad = 1 } END { print bad ? -1 : t }')
[ "$total" -eq $(( $(size_of 00000001) + s )) ] ||
	fail "appends: pwritev2 wrote $total bytes, files hold $(( $(size_of 00000001) + s ))"
mean=$((s / (n + l)))
[ "$mean" -ge 30 ] && [ "$mean" -le 70 ] || fail "appendfilerand: mean size $mean, expected about 50"
ok "appendfile grows by iosize per op; appendfilerand by 1..iosize (mean $mean)"
