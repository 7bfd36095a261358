#!/bin/sh
# flowops-dir.sh - makedir and removedir create and remove exactly the
# fileset's leaf directories; listdir's ops are directory listings.
. "$(dirname "$0")/lib.sh"
need strace
need python3

d=$tmp/d
mkdir "$d"
fbrun() {
	cat >"$tmp/$1.f"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -ff -qq -s 200 -e trace=execve,mkdir,mkdirat,rmdir,unlinkat,openat,openat2 -o "$tmp/$1.tr" \
		"$FLOWBENCH" run "$tmp/$1.f" --cache keep --output "$tmp/$1.json" \
		>"$tmp/$1.out" 2>&1 || { cat "$tmp/$1.out"; fail "$1: run failed"; }
}
# wtraces NAME: the traces of every thread but the master's main thread
# (the one that execve'd, which makes the tree's directories)
wtraces() { for f in "$tmp/$1".tr.*; do grep -q '^execve(' "$f" || cat "$f"; done; }
ops() { breakdown_field "$tmp/$1.out" "$2" ops; }
late() { sed -n "s/.*Not counted:.*[(,] *$2 \\([0-9][0-9]*\\).*/\\1/p" "$tmp/$1.out" | grep . || echo 0; }
# empty directories below the fileset's root (its leaf directories here)
leaves() { find "$d/$1" -mindepth 1 -type d -empty | wc -l; }

fbrun mk <<F
set mode quit alldone
define fileset name=m,path=$d,leafdirs=30,dirwidth=5,dirgamma=0
define process name=p { thread name=t { flowop makedir name=mk,filesetname=m } }
run 10
F
[ "$(ops mk mk)" -eq 30 ] || fail "makedir: $(ops mk mk) ops for 30 leaf dirs"
[ "$(leaves m)" -eq 30 ] || fail "makedir: $(leaves m) empty dirs, want 30"
n=$(wtraces mk | grep -cE '^mkdirat\([0-9]+, "[0-9]{8}", 0755\) += 0' || true)
[ "$n" -eq 30 ] || fail "makedir: $n mkdir calls for 30 ops"
ok "makedir: 30 ops, 30 mkdir calls, 30 leaf directories"

fbrun rm <<F
set mode quit alldone
define fileset name=m,path=$d,leafdirs=30,dirwidth=5,dirgamma=0,prealloc
define process name=p { thread name=t { flowop removedir name=rm,filesetname=m } }
run 10
F
[ "$(ops rm rm)" -eq 30 ] || fail "removedir: $(ops rm rm) ops for 30 leaf dirs"
n=$(wtraces rm | grep -cE '^unlinkat\([0-9]+, "[0-9]{8}", AT_REMOVEDIR\) += 0' || true)
[ "$n" -eq 30 ] || fail "removedir: $n rmdir calls for 30 ops"
# what is left are the 6 directories that held the leaf dirs, now empty
[ "$(find "$d/m" -mindepth 2 -type d | wc -l)" -eq 0 ] || fail "removedir left leaf directories"
ok "removedir: 30 ops, 30 rmdir calls, no leaf directory left"

# files and leaf dirs of one fileset live in separate directories
fbrun both <<F
define fileset name=b,path=$d,entries=20,leafdirs=20,dirwidth=4,dirgamma=0,size=1k,prealloc
define process name=p { thread name=t { flowop listdir name=ls,filesetname=b } }
run 1
F
for dir in $(find "$d/b" -mindepth 1 -type d); do
	nf=$(find "$dir" -maxdepth 1 -type f | wc -l)
	nd=$(find "$dir" -mindepth 1 -maxdepth 1 -type d -empty | wc -l)
	[ "$nf" -eq 0 ] || [ "$nd" -eq 0 ] || fail "$dir holds both files and leaf dirs"
done
[ "$(find "$d/b" -type f ! -name .flowbench | wc -l)" -eq 20 ] || fail "not 20 files"
[ "$(leaves b)" -eq 20 ] || fail "not 20 leaf dirs: $(leaves b)"
n=$(ops both ls)
l=$(late both ls)
c=$(wtraces both | grep -E '^openat2\(.*O_DIRECTORY' | grep -vc 'O_PATH' || true)
[ "$n" -gt 0 ] && [ $((n + l)) -eq "$c" ] || fail "listdir: $n ops + $l late, $c directory opens"
# the bytes themselves, from the results file: under strace on a busy
# machine the breakdown's MB/s can round to 0.0 (CI's distcheck did)
python3 -c 'import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
sys.exit(0 if [f for f in run["flowops"] if f["name"] == "ls"][0]["bytes"] > 0 else 1)' "$tmp/both.json" ||
	fail "listdir reports no bytes"
ok "files and leaf dirs in separate directories; listdir: one opendir per op ($n)"
