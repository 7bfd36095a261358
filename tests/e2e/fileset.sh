#!/bin/sh
# fileset.sh - define fileset: the populated log line, preallocation of
# exactly prealloc% of the files and leaf dirs, the same tree whatever
# --seed, reuse keeping the files, removal of the old tree without reuse,
# and a block device refused.
. "$(dirname "$0")/lib.sh"

d=$tmp/d
mkdir "$d"
cat >"$tmp/fs.f" <<F
set \$reuse=false
define fileset name=big,path=$d,entries=1000,leafdirs=10,dirwidth=10,size=2k,prealloc=60,reuse=\$reuse
define process name=p { thread name=t { flowop statfile name=st,filesetname=big } }
run 1
F
fb() { "$FLOWBENCH" run "$tmp/fs.f" --cache keep "$@"; }
fb --seed 1 >"$tmp/out1" 2>&1 || { cat "$tmp/out1"; fail "first run failed"; }
grep -Eq '^[0-9.]+: big populated: 1000 files, avg\. dir\. width = 10, avg\. dir\. depth = 3\.0, 10 leafdirs, 1\.953MB total size$' "$tmp/out1" ||
	fail "no or wrong populated line: $(grep populated "$tmp/out1")"
ok "populated line: $(grep populated "$tmp/out1" | sed 's/^[0-9.]*: //')"

nf=$(find "$d/big" -type f ! -name .flowbench | wc -l)
[ "$nf" -eq 600 ] || fail "prealloc=60: $nf of 1000 files exist"
sizes=$(find "$d/big" -type f ! -name .flowbench -exec stat -c %s {} + | sort -u)
[ "$sizes" = 2048 ] || fail "preallocated sizes: $sizes"
nl=$(find "$d/big" -mindepth 1 -type d -empty | wc -l)
[ "$nl" -ge 6 ] || fail "prealloc=60: $nl empty directories, want at least the 6 leaf dirs"
grep -q 'Pre-allocated 600 of 1000 files' "$tmp/out1" || fail "no Pre-allocated line"
ok "prealloc=60: 600 files of 2048 bytes, 6 of 10 leaf dirs"

find "$d/big" | sort >"$tmp/tree1"
touch "$tmp/stamp"
# (a file written in the stamp's own clock tick would not be -newer: the
# sleep makes a rewrite visible; a loaded machine only sleeps longer)
sleep 0.01
fb --seed 2 -D reuse=true >"$tmp/out2" 2>&1 || { cat "$tmp/out2"; fail "reuse run failed"; }
find "$d/big" | sort >"$tmp/tree2"
cmp -s "$tmp/tree1" "$tmp/tree2" || fail "another --seed made another tree"
newer=$(find "$d/big" -type f -newer "$tmp/stamp" | wc -l)
[ "$newer" -eq 0 ] || fail "reuse rewrote $newer files"
grep -q 'Reusing existing big tree' "$tmp/out2" || fail "reuse not logged"
ok "same tree with another --seed; reuse rewrites nothing"

sub=$(find "$d/big" -mindepth 2 -type d | head -1)
echo junk >"$sub/extra.txt"
if fb >"$tmp/out3" 2>&1; then fail "a foreign file in the tree was not refused"; fi
grep -q 'extra.txt' "$tmp/out3" || fail "the error does not name the foreign file"
[ -f "$sub/extra.txt" ] || fail "the foreign file was removed"
rm "$sub/extra.txt"
fb >"$tmp/out4" 2>&1 || { cat "$tmp/out4"; fail "run without reuse failed"; }
grep -q 'Removing big tree' "$tmp/out4" || fail "old tree not removed"
newer=$(find "$d/big" -type f ! -name .flowbench -newer "$tmp/stamp" | wc -l)
[ "$newer" -eq 600 ] || fail "without reuse $newer files were recreated, want 600"
ok "a foreign file stops the cleaning; without reuse the tree is recreated"

blk=$(find /dev -maxdepth 1 -type b 2>/dev/null | head -1)
if [ -n "$blk" ]; then
	cat >"$tmp/blk.f" <<F
define fileset name=${blk##*/},path=/dev,entries=10,dirwidth=10,size=1k
define process name=p { thread name=t { flowop statfile name=st,filesetname=${blk##*/} } }
run 1
F
	if "$FLOWBENCH" run "$tmp/blk.f" --cache keep >"$tmp/blk.out" 2>&1; then
		fail "a fileset on a block device was accepted"
	fi
	grep -q 'is a block device' "$tmp/blk.out" || fail "block device error: $(cat "$tmp/blk.out")"
	sed "s/define fileset name=\([^,]*\),path=\/dev,entries=10,dirwidth=10,/define file name=\1,path=\/dev,/" \
		"$tmp/blk.f" >"$tmp/blkf.f"
	if "$FLOWBENCH" run "$tmp/blkf.f" --cache keep >"$tmp/blkf.out" 2>&1; then
		fail "a file on a block device was accepted"
	fi
	grep -q 'raw devices are not supported yet' "$tmp/blkf.out" ||
		fail "raw device error: $(cat "$tmp/blkf.out")"
	ok "a fileset or file on a block device ($blk) is refused"
fi
