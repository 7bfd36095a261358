#!/bin/sh
# attack.sh - a hostile co-user who can write in a fileset's tree plants
# links before and during a run (docs/robustness.md, "Threat model"):
# nothing outside what flowbench created is ever written, truncated or
# removed.  Cases: a hard link to a foreign file planted as a fileset
# file (reuse, cleaning, a read-only workload, a writing one); the same
# with trusttree, which must not skip the safety checks; a numbered
# symbolic link under trusttree; a numbered directory swapped for a link
# while the run is writing; a hard link swapped in while the run is
# opening files; a file owned by somebody else; two runs on one tree at
# once.  Every foreign file must keep its exact bytes.
. "$(dirname "$0")/lib.sh"

victim=$tmp/victim
mkdir -p "$victim"
# a foreign file of 228,894 bytes, and its checksum
head -c 228894 /dev/urandom >"$victim/precious"
sum=$(cksum <"$victim/precious")
intact() {
	[ "$(cksum <"$victim/precious")" = "$sum" ] ||
		fail "$1: the foreign file was changed ($(wc -c <"$victim/precious") bytes)"
}

# wl NAME FLOWOPS [FILE-ATTRS]: a `define file` of 64 KiB in $tmp/d
wl() {
	cat >"$tmp/$1.f" <<EOF
define file name=f,path=$tmp/d,size=64k,prealloc${3:-}
define process name=p { thread name=t { $2 } }
run 1
EOF
}
wl rd 'flowop read name=rd,filename=f,iosize=4k' ',reuse'
wl wr 'flowop write name=wr,filename=f,iosize=4k' ',reuse'
wl clean 'flowop read name=rd,filename=f,iosize=4k'
wl trusted 'flowop write name=wr,filename=f,iosize=4k' ',reuse,trusttree'

fb() {
	w=$1
	shift
	rc=0
	timeout 60 "$FLOWBENCH" run "$tmp/$w.f" --cache keep "$@" >"$tmp/out" 2>&1 || rc=$?
	[ "$rc" -ne 124 ] || { cat "$tmp/out"; fail "$w: hung"; }
}
refused() {
	fb "$@"
	[ "$rc" -eq 1 ] || { cat "$tmp/out"; fail "$1: status $rc, not 1"; }
}
says() {
	grep -q -- "$1" "$tmp/out" || { cat "$tmp/out"; fail "the output does not say '$1'"; }
}

# -- 1. a hard link planted as the file, in a marked tree
mkdir -p "$tmp/d"
fb rd
[ "$rc" -eq 0 ] || { cat "$tmp/out"; fail "first run failed"; }
file=$tmp/d/f/00000001/00000001
for w in rd wr clean trusted; do
	rm -f "$file"
	ln "$victim/precious" "$file"
	refused $w
	intact "hard link, $w"
	says "2 links"
	rm -f "$file"
done
ok "a hard link planted as the file: refused (reuse, read-only, writing, cleaning, trusttree), foreign file intact"

# -- 2. trusttree: a numbered symbolic link is not followed
ln -s "$victim/precious" "$file"
refused trusted
intact "symlink, trusttree"
says "symbolic link"
rm -f "$file"
rmdir "$tmp/d/f/00000001" 2>/dev/null || rm -rf "$tmp/d/f/00000001"
mkdir -p "$victim/dir"
echo one >"$victim/dir/00000001"
ln -s "$victim/dir" "$tmp/d/f/00000001"
cat >"$tmp/trustdel.f" <<EOF
define fileset name=f,path=$tmp/d,entries=1,dirwidth=10,size=4k,prealloc,reuse,trusttree
define process name=p { thread name=t {
  flowop deletefile name=del,filesetname=f
  flowop createfile name=cr,filesetname=f,fd=1
  flowop closefile name=cl,fd=1 } }
run 1
EOF
refused trustdel
[ "$(cat "$victim/dir/00000001")" = one ] || fail "trusttree: a file behind a linked directory was changed"
[ -L "$tmp/d/f/00000001" ] || fail "trusttree: the planted link was removed"
rm "$tmp/d/f/00000001"
ok "trusttree: numbered links (file and directory) are refused, not followed; foreign files intact"

# exchange A B: swap two directory entries atomically (renameat2 with
# RENAME_EXCHANGE), so that the run never sees either name missing
need python3
exchange() {
	python3 - "$1" "$2" <<'PY' || fail "cannot exchange $1 and $2"
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
if libc.renameat2(AT_FDCWD, sys.argv[1].encode(), AT_FDCWD, sys.argv[2].encode(),
                  RENAME_EXCHANGE) != 0:
    sys.exit(os.strerror(ctypes.get_errno()))
PY
}

# during NAME TREE ATTACK: run $tmp/NAME.f in the background; once it
# logged Running and has written into TREE (a file there newer than the
# moment it said Running), call ATTACK.  The run's time is long (run 600):
# it ends when it refuses what the attack planted, so the attack always
# comes while the run runs, however loaded the machine.  Its status in $rc
# (a run that goes on 120 s after the attack fails the test).
during() {
	rm -f "$tmp/out" "$tmp/mark"
	"$FLOWBENCH" run "$tmp/$1.f" --cache keep >"$tmp/out" 2>&1 &
	pid=$! bg_pids=$!
	wait_running "$tmp/out" "$pid"
	touch "$tmp/mark"
	wait_for 120 "a write" written "$2" ||
		{ kill -9 "$pid"; cat "$tmp/out"; fail "$1: no write into $2 after Running"; }
	alive "$pid" || { cat "$tmp/out"; fail "$1: the run ended before the attack"; }
	$3
	wait_end "$pid" 120
	rc=$st
}
written() {
	[ -n "$(find "$1" -type f -newer "$tmp/mark" 2>/dev/null | head -1)" ]
}

# -- 3. a numbered directory swapped for a link while the run writes
mkdir -p "$victim/swap"
for i in $(seq 1 17); do
	printf 'victim %s\n' "$i" >"$victim/swap/$(printf %08d "$i")"
done
(cd "$victim/swap" && cksum ./*) >"$tmp/swap.sum"
rm -f "$tmp/out"
cat >"$tmp/swap.f" <<EOF
define fileset name=s,path=$tmp/d,entries=17,dirwidth=100,size=4k,prealloc
define process name=p { thread name=t {
  flowop openfile name=op,filesetname=s,fd=1
  flowop writewholefile name=ww,fd=1,iosize=4k
  flowop closefile name=cl,fd=1 } }
run 600
EOF
swap() {
	ln -s "$victim/swap" "$tmp/d/s/link"
	exchange "$tmp/d/s/00000001" "$tmp/d/s/link"
}
during swap "$tmp/d/s" swap
[ "$rc" -eq 1 ] || { cat "$tmp/out"; fail "swap: status $rc, not 1"; }
says "refusing to open"
says "symbolic link"
(cd "$victim/swap" && cksum ./*) | cmp -s - "$tmp/swap.sum" ||
	fail "mid-run swap: files behind the planted link were written"
exchange "$tmp/d/s/00000001" "$tmp/d/s/link"
rm "$tmp/d/s/link"
ok "a directory swapped for a link during the run: the next open is refused, 17 foreign files intact"

# -- 4. a file swapped for a hard link while the run opens files
cat >"$tmp/hswap.f" <<EOF
define fileset name=h,path=$tmp/d,entries=4,dirwidth=100,size=4k,prealloc
define process name=p { thread name=t {
  flowop openfile name=op,filesetname=h,fd=1
  flowop write name=wr,fd=1,iosize=4k
  flowop closefile name=cl,fd=1 } }
run 600
EOF
hswap() {
	ln "$victim/precious" "$tmp/d/h/00000001/new" &&
		mv -f "$tmp/d/h/00000001/new" "$tmp/d/h/00000001/00000002"
}
during hswap "$tmp/d/h" hswap
[ "$rc" -eq 1 ] || { cat "$tmp/out"; fail "hswap: status $rc, not 1"; }
intact "hard link swapped in during the run"
says "refusing to write"
says "2 links"
ok "a file swapped for a hard link during the run: refused before any write, foreign file intact"

# -- 5. an entry owned by somebody else (root only: chown)
if [ "$(id -u)" -eq 0 ]; then
	fb rd
	[ "$rc" -eq 0 ] || { cat "$tmp/out"; fail "rd run failed"; }
	chown 65534 "$file"
	refused wr
	says "belongs to uid 65534"
	[ "$(stat -c %s "$file")" -eq 65536 ] || fail "the foreign-owned file was changed"
	rm -f "$file"
	ok "a file owned by another user in the tree: refused"
else
	echo "SKIP (part): not root, cannot chown"
fi

# -- 6. two runs on one fileset at once: the second is refused.  The
# first runs until the test has tried the second, then its SIGINT ends it
# (exit 130; the lock is released on that path too)
cat >"$tmp/long.f" <<EOF
define fileset name=l,path=$tmp/d,entries=8,dirwidth=100,size=4k,prealloc
define process name=p { thread name=t { flowop statfile name=st,filesetname=l
  flowop delay name=z,value=0.01 } }
run 600
EOF
"$FLOWBENCH" run "$tmp/long.f" --cache keep >"$tmp/first" 2>&1 &
first=$! bg_pids=$!
wait_running "$tmp/first" "$first"
refused long
says "another flowbench run is using it"
alive "$first" || { cat "$tmp/first"; fail "the first run ended before the second was tried"; }
kill -INT "$first"
wait_end "$first" 120
[ "$st" -eq 130 ] || { cat "$tmp/first"; fail "the first run: status $st after SIGINT, not 130"; }
sed -i 's/^run 600$/run 1/' "$tmp/long.f"
fb long
[ "$rc" -eq 0 ] || { cat "$tmp/out"; fail "a run after the first one ended failed"; }
ok "two runs on one fileset: the second is refused while the first holds the lock, then runs"
