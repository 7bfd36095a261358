#!/bin/sh
# faults.sh - I/O that fails during a run: a file system that fills up
# (during preallocation and during the run), one that is read-only, and
# files removed behind flowbench's back.  Without --keep-going the first
# failure ends the run with a message naming the flowop, the file and the
# errno, and status 1; with it every failure is counted per flowop and
# kind ("Errors:" line, "errors" in the results file) and the run ends
# normally.  The small file systems are tmpfs mounts in a private mount
# namespace, gone with the test.

. "$(dirname "$0")/lib.sh"
private_mounts "$@"
need python3

# json_errors FILE FLOWOP KIND: "errors" and error_kinds[KIND] of FLOWOP
json_errors() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = [f for f in d["runs"][-1]["flowops"] if f["name"] == sys.argv[2]][0]
print(f["errors"], f["error_kinds"].get(sys.argv[3], 0), d["status"])
PY
}

# --- 1. Preallocation fills the file system (no inodes left) -----------
# (preflight checks bytes, not inodes: this ENOSPC comes from the disk)
full=$tmp/full
mount_tmpfs "$full" size=8m,nr_inodes=64
run_named prealloc "$WORKLOADS/openfiles.f" --cache warm -D dir="$full" -D nfiles=500 \
	-D nthreads=1 --runtime 1
expect_failed prealloc "cannot preallocate $full/opentree/" "No space left on device"
grep -q "Running" "$tmp/prealloc.out" && fail "prealloc: the run started anyway"
ok "preallocation into a full file system: ENOSPC names the file, status 1"

# --- 2. The file system fills during the run ----------------------------
small=$tmp/small
mount_tmpfs "$small" size=8m
run_named fill "$WORKLOADS/singlestreamwrite.f" --cache warm -D dir="$small" \
	-D filesize=1m --runtime 3
expect_failed fill "flowop seqwrite1: " "$small/largefile1/00000001/00000001" \
	"No space left on device"
ok "a full file system ends the run: flowop, path and errno named, status 1"

run_named fillkeep "$WORKLOADS/singlestreamwrite.f" --cache warm -D dir="$small" \
	-D filesize=1m --runtime 1 --keep-going --output "$tmp/fill.json"
[ "$rc" -eq 0 ] || { cat "$tmp/fillkeep.out"; fail "fillkeep: status $rc, not 0"; }
n=$(errors_of fillkeep seqwrite1 ENOSPC)
[ "$n" -gt 0 ] || { cat "$tmp/fillkeep.out"; fail "fillkeep: no ENOSPC count on the Errors line"; }
set -- $(json_errors "$tmp/fill.json" seqwrite1 ENOSPC)
[ "$1" -gt 0 ] && [ "$2" -gt 0 ] && [ "$3" = ok ] ||
	fail "fillkeep: results file has errors=$1, ENOSPC=$2, status $3"
# the writes that did fit are still counted, and no failed one is
ops=$(breakdown_field "$tmp/fillkeep.out" seqwrite1 ops)
[ "$ops" -ge 1 ] && [ "$ops" -le 8 ] || fail "fillkeep: $ops writes of 1 MiB counted on an 8 MiB disk"
# and the first failure is shown with its flowop, file and errno text
grep -q "First failed op: .*seqwrite1.*$small.*No space left on device" "$tmp/fillkeep.out" ||
	{ cat "$tmp/fillkeep.out"; fail "fillkeep: the first failure is not shown with flowop, path and errno"; }
ok "--keep-going: $n ENOSPC counted (Errors line, results file errors=$1), $ops writes, status 0, first failure shown"

# --- 3. A read-only file system -----------------------------------------
rw=$tmp/rw
ro=$tmp/ro
mount_tmpfs "$rw" size=16m
run_named roprep "$WORKLOADS/randomwrite.f" --cache warm -D dir="$rw" -D filesize=1m --runtime 0.2
[ "$rc" -eq 0 ] || { cat "$tmp/roprep.out"; fail "could not prepare the file to reuse"; }
mount_readonly "$rw" "$ro"
run_named rofail "$WORKLOADS/randomwrite.f" --cache warm -D dir="$ro" -D filesize=1m --runtime 2
expect_failed rofail "flowop rand-write1: " "$ro/largefile1/00000001/00000001" \
	"Read-only file system"
ok "a read-only file system ends the run: the opening flowop named, EROFS, status 1"
run_named rokeep "$WORKLOADS/randomwrite.f" --cache warm -D dir="$ro" -D filesize=1m \
	--runtime 1 --keep-going
[ "$rc" -eq 0 ] || { cat "$tmp/rokeep.out"; fail "rokeep: status $rc, not 0"; }
n=$(errors_of rokeep rand-write1 EROFS)
[ "$n" -gt 0 ] || { cat "$tmp/rokeep.out"; fail "rokeep: no EROFS count"; }
ok "--keep-going on a read-only file system: $n EROFS counted for rand-write1"

# --- 4. Files removed behind flowbench's back ---------------------------
# rm_when_running NAME DIR: once run NAME logged "Running", remove DIR's
# files (not the tree's marker), every 50 ms until the run ends
rm_when_running() {
	while ! grep -q "Running" "$tmp/$1.out" 2>/dev/null; do sleep 0.05; done
	while [ ! -e "$tmp/$1.done" ]; do
		find "$2" -type f -name '[0-9]*' -delete 2>/dev/null || true
		sleep 0.05
	done
}
gone=$tmp/gone
mkdir -p "$gone"
rm -f "$tmp/rmfail.done"
rm_when_running rmfail "$gone/opentree" &
bg=$!
run_named rmfail "$WORKLOADS/openfiles.f" --cache warm -D dir="$gone" -D nfiles=200 \
	-D nthreads=1 --runtime 10
touch "$tmp/rmfail.done"
wait "$bg"
expect_failed rmfail "flowop open: open $gone/opentree/" "No such file or directory"
ok "a file removed behind its back ends the run: open named, ENOENT, status 1"

# with --keep-going, files removed from one directory are counted and the
# run goes on with the others
rm -f "$tmp/rmkeep.done"
rm_when_running rmkeep "$gone/opentree/00000001" &
bg=$!
run_named rmkeep "$WORKLOADS/openfiles.f" --cache warm -D dir="$gone" -D nfiles=200 \
	-D nthreads=1 --runtime 2 --keep-going
touch "$tmp/rmkeep.done"
wait "$bg"
[ "$rc" -eq 0 ] || { cat "$tmp/rmkeep.out"; fail "rmkeep: status $rc, not 0"; }
n=$(errors_of rmkeep open ENOENT)
[ "$n" -gt 0 ] || { cat "$tmp/rmkeep.out"; fail "rmkeep: no ENOENT count for open"; }
# closefile after the failed open: its slot is not open, one more failure
b=$(errors_of rmkeep close EBADF)
[ "$b" -gt 0 ] || { cat "$tmp/rmkeep.out"; fail "rmkeep: closefile of the slot left closed not counted"; }
ok "--keep-going with files removed: $n ENOENT (open), $b EBADF (close of the slot left closed)"

# a file found missing is known to be missing: with --keep-going a
# delete/create loop over 20 files goes on when one is removed from
# outside (createfile makes it again) instead of stopping for want of an
# absent file while the fileset believes all 20 exist
cat >"$tmp/swap.f" <<EOF
define fileset name=sw,path=$gone,entries=20,dirwidth=5,size=4k,prealloc
define process name=p { thread name=t {
  flowop deletefile name=del,filesetname=sw
  flowop createfile name=cr,filesetname=sw,fd=1
  flowop closefile name=cl,fd=1 } }
run 2
EOF
(
	while ! grep -q "Running" "$tmp/swap.out" 2>/dev/null; do sleep 0.05; done
	sleep 0.3
	# remove one existing file, whatever the loop is doing
	for i in 1 2 3 4 5 6 7 8 9 10; do
		f=$(find "$gone/sw" -type f -name '[0-9]*' | head -1)
		[ -n "$f" ] && rm -f "$f" && break
		sleep 0.01
	done
) &
bg=$!
run_named swap "$tmp/swap.f" --cache warm --keep-going
wait "$bg"
[ "$rc" -eq 0 ] || { cat "$tmp/swap.out"; fail "swap: status $rc, not 0"; }
grep -q "could not obtain" "$tmp/swap.out" && { cat "$tmp/swap.out"; fail "swap: the run ran out of files"; }
[ "$(breakdown_field "$tmp/swap.out" cr ops)" -gt 100 ] || { cat "$tmp/swap.out"; fail "swap: few createfile ops"; }
ok "--keep-going: a file removed from outside is marked missing; the delete/create loop goes on"

# every file removed: the run stops for want of a file, with the results
# so far, and says how many files really exist (none), not "without results"
rm -f "$tmp/rmall.done"
rm_when_running rmall "$gone/opentree" &
bg=$!
run_named rmall "$WORKLOADS/openfiles.f" --cache warm -D dir="$gone" -D nfiles=200 \
	-D nthreads=1 --runtime 10 --keep-going
touch "$tmp/rmall.done"
wait "$bg"
expect_failed rmall "Per-Operation Breakdown" \
	"could not obtain a file of fileset 'opentree' (200 files: 0 exist, 200 do not"
grep -q "without results" "$tmp/rmall.out" && { cat "$tmp/rmall.out"; fail "rmall: 'without results' after the results"; }
ok "every file removed: partial results, then 'could not obtain a file' with the true counts (0 exist)"

# --- 5. A file truncated behind its back: short reads ------------------
# random reads inside the size the file had when it was opened come back
# short; reads past the end of a file (sequential wrap) never count
# trunc_when_running NAME FILE: once NAME reads, truncate FILE to 4 KiB
trunc_when_running() {
	while ! grep -q "Running" "$tmp/$1.out" 2>/dev/null; do sleep 0.05; done
	sleep 0.3       # the reader has opened it by now
	truncate -s 4k "$2"
}
short=$tmp/short
mkdir -p "$short"
trunc_when_running shortkeep "$short/largefile1/00000001/00000001" &
bg=$!
run_named shortkeep "$WORKLOADS/randomread.f" --cache warm -D dir="$short" -D filesize=4m \
	--runtime 1.5 --keep-going
wait "$bg"
[ "$rc" -eq 0 ] || { cat "$tmp/shortkeep.out"; fail "shortkeep: status $rc, not 0"; }
n=$(errors_of shortkeep rand-read1 short)
[ "$n" -gt 0 ] || { cat "$tmp/shortkeep.out"; fail "shortkeep: no short read counted"; }
ok "--keep-going with the file truncated under the reads: $n short reads counted"
trunc_when_running shortfail "$short/largefile1/00000001/00000001" &
bg=$!
run_named shortfail "$WORKLOADS/randomread.f" --cache warm -D dir="$short" -D filesize=4m \
	--runtime 10
wait "$bg"
expect_failed shortfail "flowop rand-read1: short pread (" "when opened) of $short/largefile1/"
ok "a short read inside the file ends the run, saying so"
run_named seqwrap "$WORKLOADS/singlestreamread.f" --cache warm -D dir="$short" -D filesize=1m \
	-D iosize=384k --runtime 0.3
[ "$rc" -eq 0 ] || { cat "$tmp/seqwrap.out"; fail "seqwrap: status $rc (a read at EOF is no failure)"; }
grep -q "Errors:" "$tmp/seqwrap.out" && fail "seqwrap: sequential reads wrapping at EOF counted as errors"
ok "sequential reads ending short at EOF and wrapping: no error"

# --- 6. No failure, no Errors line; --keep-going changes nothing else --
run_named clean "$WORKLOADS/randomwrite.f" --cache warm -D dir="$rw" -D filesize=1m \
	--runtime 0.3 --keep-going
[ "$rc" -eq 0 ] || { cat "$tmp/clean.out"; fail "clean: status $rc"; }
grep -q "Errors:" "$tmp/clean.out" && fail "clean: an Errors line without errors"
ok "no failed op: no Errors line"
