#!/bin/sh
# failfast.sh - a run that cannot finish is refused before the work, not
# after it: the free space is compared with the bytes still to write
# whether the files are new, reused (an earlier run's smaller file) or
# recreated; an --output that cannot be written is refused before any
# file is prepared; `check` shows the disk a workload will take; and on
# a terminal a status line shows the preparation's progress (never in a
# file or a pipe).  The small file systems are tmpfs mounts in a private
# mount namespace, so "free space" is small and known, gone with the test.

. "$(dirname "$0")/lib.sh"
private_mounts "$@"

# refused NAME PATTERN...: status 1, every pattern in the output, and
# no file was prepared (the refusal came first)
refused() {
	expect_failed "$@"
	! grep -q "Pre-allocating\|Removing .* tree\|Running" "$tmp/$name.out" ||
		{ cat "$tmp/$name.out"; fail "$name: files were prepared before the refusal"; }
}

size_of() { stat -c %s "$1"; }

RW="$WORKLOADS/randomrw.f"
small=$tmp/small
mount_tmpfs "$small" size=32m

# --- 1. free space with an earlier run's file there (reuse) -------------
run_named first "$RW" -D dir="$small" -D filesize=4m -D nthreads=1 --cache keep --runtime 1
[ "$rc" -eq 0 ] || { cat "$tmp/first.out"; fail "first: status $rc"; }
f=$small/largefile1/00000001/00000001
[ "$(size_of "$f")" -eq 4194304 ] || fail "first: the file is not 4 MiB"

run_named grow "$RW" -D dir="$small" -D filesize=64m -D nthreads=1 --cache keep --runtime 1
refused grow "randomrw.f:20:1: file 'largefile1': 1 file x 64 MiB" \
	"4 MiB of it already there (reused), 60 MiB still to write" \
	"the file system of $small has [0-9.]* MiB free"
[ "$(size_of "$f")" -eq 4194304 ] || fail "grow: the file was written ($(size_of "$f") bytes)"
ok "a reused 4 MiB file to grow to 64 MiB on a 32 MiB disk: refused at once, both numbers, file untouched"

run_named huge "$RW" -D dir="$small" -D filesize=10t -D nthreads=1 --cache keep --runtime 1
refused huge "10 TiB still to write"
[ "$(size_of "$f")" -eq 4194304 ] || fail "huge: the file was written"
ok "the issue's case (-D filesize=10t over an earlier run's file): refused at once"

run_named fits "$RW" -D dir="$small" -D filesize=20m -D nthreads=1 --cache keep --runtime 1
[ "$rc" -eq 0 ] || { cat "$tmp/fits.out"; fail "fits: a reuse that fits was refused (status $rc)"; }
[ "$(size_of "$f")" -eq 20971520 ] || fail "fits: the file is not 20 MiB"
ok "growing it to 20 MiB (16 MiB to write) fits and runs"
# 20 MiB there, about 12 MiB free: 28 MiB fits only because 20 are there
run_named fits2 "$RW" -D dir="$small" -D filesize=28m -D nthreads=1 --cache keep --runtime 1
[ "$rc" -eq 0 ] || { cat "$tmp/fits2.out"; fail "fits2: a reuse that fits (8 MiB to write, about 12 free) was refused (status $rc)"; }
[ "$(size_of "$f")" -eq 29360128 ] || fail "fits2: the file is not 28 MiB"
ok "growing it to 28 MiB (8 MiB to write, about 12 MiB free) fits and runs"
rm -rf "$small/largefile1"

# --- 2. a tree recreated (no reuse): its old files' space counts --------
cat >"$tmp/tree.f" <<'EOF'
set $dir=/tmp
set $n=4
define fileset name=tree,path=$dir,entries=$n,size=4m,dirwidth=100,prealloc
define process name=p,instances=1
{
  thread name=t,memsize=1m,instances=1
  {
    flowop openfile name=o,filesetname=tree
    flowop closefile name=c
  }
}
run 1
EOF
run_named tree1 "$tmp/tree.f" -D dir="$small" --cache keep
[ "$rc" -eq 0 ] || { cat "$tmp/tree1.out"; fail "tree1: status $rc"; }
# 16 MiB there, about 16 MiB free: recreating the same 16 MiB fits only
# because the old files are removed first
run_named tree2 "$tmp/tree.f" -D dir="$small" -D n=5 --cache keep
[ "$rc" -eq 0 ] || { cat "$tmp/tree2.out"; fail "tree2: a recreation that fits once the old files go was refused (status $rc)"; }
ok "a tree recreated (20 MiB after its 16 MiB are removed, 16 MiB free) fits and runs"
run_named tree3 "$tmp/tree.f" -D dir="$small" -D n=12 --cache keep
refused tree3 "fileset 'tree': 12 files x 4 MiB" \
	"its tree there is recreated: 48 MiB to write once its old files (20 MiB) are removed"
[ "$(find "$small/tree" -type f -name '0*' | wc -l)" -eq 5 ] ||
	fail "tree3: the old tree was touched"
ok "a tree recreated at 48 MiB on a 32 MiB disk: refused before its old files are removed"
rm -rf "$small/tree"

# --- 3. --output that cannot be written: refused before any file --------
run_named noout "$RW" -D dir="$small" -D filesize=4m -D nthreads=1 --cache keep --runtime 1 \
	--output "$tmp/nonexistent/x.json" --output "$tmp/nowhere/y.yaml"
refused noout "cannot write $tmp/nonexistent/x.json" "cannot write $tmp/nowhere/y.yaml"
[ ! -e "$small/largefile1" ] || fail "noout: the file was made"
ro=$tmp/ro
mount_readonly "$small" "$ro"
run_named roout "$RW" -D dir="$small" -D filesize=4m -D nthreads=1 --cache keep --runtime 1 \
	--output "$tmp/ok.json" --output "$ro/x.json"
refused roout "cannot write $ro/x.json" "Read-only file system"
[ ! -e "$small/largefile1" ] && [ ! -e "$tmp/ok.json" ] ||
	fail "roout: a file was made"
ok "--output to a missing or read-only directory: refused before anything is prepared, every bad one named"

# --- 4. check shows the planned footprint --------------------------------
"$FLOWBENCH" check "$RW" -D filesize=16m >"$tmp/chk.out" 2>&1 || { cat "$tmp/chk.out"; fail "check failed"; }
grep -q "disk once the files are prepared: 16 MiB (16777216 bytes) in 1 file and 2 directories" "$tmp/chk.out" ||
	{ cat "$tmp/chk.out"; fail "check: no footprint line for randomrw"; }
"$FLOWBENCH" check "$tmp/tree.f" -D n=10 >"$tmp/chk2.out" 2>&1 || { cat "$tmp/chk2.out"; fail "check tree failed"; }
grep -q "disk once the files are prepared: 40 MiB (41943040 bytes) in 10 files and 2 directories" "$tmp/chk2.out" ||
	{ cat "$tmp/chk2.out"; fail "check: no footprint line for the tree"; }
ok "check: $(sed -n 's/.*disk once/disk once/p' "$tmp/chk2.out")"

# --- 5. the status line while files are prepared: terminals only --------
if command -v script >/dev/null 2>&1; then
	TERM=xterm timeout 60 script -qec "'$FLOWBENCH' run '$RW' -D dir='$small' -D filesize=16m -D nthreads=1 --cache keep --runtime 1" \
		/dev/null >"$tmp/tty.out" 2>&1 || { cat "$tmp/tty.out"; fail "tty: the run failed"; }
	esc=$(printf '\033')
	cr=$(printf '\r')
	grep -aq "${cr}preallocating largefile1: 16\.0 of 16\.0 MiB, 1 of 1 file, [0-9.]* MiB/s, ETA 0 s${esc}\[K" "$tmp/tty.out" ||
		{ cat -A "$tmp/tty.out" | head -40; fail "tty: no status line with phase, bytes of total, rate and ETA"; }
	# erased before the next log line
	grep -aq "${esc}\[K${cr}${esc}\[K[0-9]*\.[0-9]*: " "$tmp/tty.out" ||
		{ cat -A "$tmp/tty.out" | head -40; fail "tty: the status line is not erased before the next line"; }
	rm -rf "$small/largefile1"
	run_named notty "$RW" -D dir="$small" -D filesize=16m -D nthreads=1 --cache keep --runtime 1
	[ "$rc" -eq 0 ] || { cat "$tmp/notty.out"; fail "notty: status $rc"; }
	! grep -aq "preallocating" "$tmp/notty.out" || fail "notty: a status line went to a file"
	ok "status line while preparing: shown on a terminal (phase, MiB done of total, MiB/s, ETA), erased, never in a file"
else
	echo "skipped: the status line (no 'script' to get a terminal)"
fi
