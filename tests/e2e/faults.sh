#!/bin/sh
# faults.sh - I/O that fails during a run: a file system that fills up
# (during preallocation and during the run), one that is read-only, and
# files removed behind flowbench's back.  Without --keep-going the first
# failure ends the run with a message naming the flowop, the file and the
# errno, and status 1; with it every failure is counted per flowop and
# kind ("Errors:" line, "errors" in the results file) and the run ends
# normally.  The small file systems are tmpfs mounts in a private mount
# namespace, gone with the test.
#
# Under any load: a run that a fault ends has a long run time (it ends by
# the fault, never by the clock), and a fault made from outside comes
# after the run said Running (and, where it matters, after it did ops);
# a run that goes on after the fault (--keep-going) runs until the
# --interval lines show it did ops after the fault, then SIGINT ends it
# (status 130, results printed).  Never a sleep for the run to get there.

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
run_named prealloc "$WORKLOADS/openfiles.f" --cache keep -D dir="$full" -D nfiles=500 \
	-D nthreads=1 --runtime 1
expect_failed prealloc "cannot preallocate $full/opentree/" "No space left on device"
grep -q "Running" "$tmp/prealloc.out" && fail "prealloc: the run started anyway"
ok "preallocation into a full file system: ENOSPC names the file, status 1"

# --- 2. The file system fills during the run ----------------------------
small=$tmp/small
mount_tmpfs "$small" size=8m
run_named fill "$WORKLOADS/singlestreamwrite.f" --cache keep -D dir="$small" \
	-D filesize=1m --runtime 600
expect_failed fill "flowop seqwrite1: " "$small/largefile1/00000001/00000001" \
	"No space left on device"
ok "a full file system ends the run: flowop, path and errno named, status 1"

# (9 writes of 1 MiB to a tmpfs fill it: a run of 1 s has ample time even
# on a loaded machine; a starved one fails the test loudly, "no ENOSPC")
run_named fillkeep "$WORKLOADS/singlestreamwrite.f" --cache keep -D dir="$small" \
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
run_named roprep "$WORKLOADS/randomwrite.f" --cache keep -D dir="$rw" -D filesize=1m --runtime 0.2
[ "$rc" -eq 0 ] || { cat "$tmp/roprep.out"; fail "could not prepare the file to reuse"; }
mount_readonly "$rw" "$ro"
run_named rofail "$WORKLOADS/randomwrite.f" --cache keep -D dir="$ro" -D filesize=1m --runtime 600
expect_failed rofail "flowop rand-write1: " "$ro/largefile1/00000001/00000001" \
	"Read-only file system"
ok "a read-only file system ends the run: the opening flowop named, EROFS, status 1"
# (its first write fails: 1 s is ample)
run_named rokeep "$WORKLOADS/randomwrite.f" --cache keep -D dir="$ro" -D filesize=1m \
	--runtime 1 --keep-going
[ "$rc" -eq 0 ] || { cat "$tmp/rokeep.out"; fail "rokeep: status $rc, not 0"; }
n=$(errors_of rokeep rand-write1 EROFS)
[ "$n" -gt 0 ] || { cat "$tmp/rokeep.out"; fail "rokeep: no EROFS count"; }
ok "--keep-going on a read-only file system: $n EROFS counted for rand-write1"

# --- 4. Files removed behind flowbench's back ---------------------------
# rm_when_running NAME DIR: once run NAME logged "Running", remove DIR's
# files (not the tree's marker), every 50 ms until the run ends
rm_when_running() {
	wait_for 120 Running grep -q "Running" "$tmp/$1.out" 2>/dev/null || return 0
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
run_named rmfail "$WORKLOADS/openfiles.f" --cache keep -D dir="$gone" -D nfiles=200 \
	-D nthreads=1 --runtime 600
touch "$tmp/rmfail.done"
wait "$bg"
expect_failed rmfail "flowop open: open $gone/opentree/" "No such file or directory"
ok "a file removed behind its back ends the run: open named, ENOENT, status 1"

# with --keep-going, files removed from one directory are counted and the
# run goes on with the others: it runs until it did a cycle's worth of
# opens after the removal (4,000 ops/s in a 0.1 s interval: 400 ops, the
# 200 files twice), then SIGINT ends it
bg_run rmkeep "$WORKLOADS/openfiles.f" --cache keep -D dir="$gone" -D nfiles=200 \
	-D nthreads=1 --runtime 600 --keep-going --interval 0.1
wait_running "$tmp/rmkeep.out" "$pid"
find "$gone/opentree/00000001" -type f -name '[0-9]*' -delete
wait_ops_after "$tmp/rmkeep.out" "$pid" "$(intervals "$tmp/rmkeep.out")" 4000
kill -INT "$pid"
wait_end "$pid" 120
rc=$st
[ "$rc" -eq 130 ] || { cat "$tmp/rmkeep.out"; fail "rmkeep: status $rc, not 130 (the SIGINT's)"; }
n=$(errors_of rmkeep open ENOENT)
[ "$n" -gt 0 ] || { cat "$tmp/rmkeep.out"; fail "rmkeep: no ENOENT count for open"; }
# closefile after the failed open: its slot is not open, one more failure
b=$(errors_of rmkeep close EBADF)
[ "$b" -gt 0 ] || { cat "$tmp/rmkeep.out"; fail "rmkeep: closefile of the slot left closed not counted"; }
ok "--keep-going with files removed: the run goes on, $n ENOENT (open), $b EBADF (close of the slot left closed)"

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
run 600
EOF
# the run goes on until it did 300 ops in an interval after the removal
# (15 rounds over the 20 files), then SIGINT ends it; a run that ran out
# of files would end by itself, status 1
bg_run swap "$tmp/swap.f" --cache keep --keep-going --interval 0.1
wait_running "$tmp/swap.out" "$pid"
wait_ops_after "$tmp/swap.out" "$pid" 0 1       # the loop runs
# remove one existing file, whatever the loop is doing
for i in $(seq 1000); do
	f=$(find "$gone/sw" -type f -name '[0-9]*' | head -1)
	[ -n "$f" ] && rm -f "$f" && break
done
[ -n "$f" ] || fail "swap: no file to remove"
wait_ops_after "$tmp/swap.out" "$pid" "$(intervals "$tmp/swap.out")" 3000
kill -INT "$pid"
wait_end "$pid" 120
[ "$st" -eq 130 ] || { cat "$tmp/swap.out"; fail "swap: status $st, not 130 (the SIGINT's)"; }
grep -q "could not obtain" "$tmp/swap.out" && { cat "$tmp/swap.out"; fail "swap: the run ran out of files"; }
[ "$(breakdown_field "$tmp/swap.out" cr ops)" -gt 100 ] || { cat "$tmp/swap.out"; fail "swap: few createfile ops"; }
ok "--keep-going: a file removed from outside is marked missing; the delete/create loop goes on"

# every file removed: the run stops for want of a file, with the results
# so far, and says how many files really exist (none), not "without results"
rm -f "$tmp/rmall.done"
rm_when_running rmall "$gone/opentree" &
bg=$!
run_named rmall "$WORKLOADS/openfiles.f" --cache keep -D dir="$gone" -D nfiles=200 \
	-D nthreads=1 --runtime 600 --keep-going
touch "$tmp/rmall.done"
wait "$bg"
expect_failed rmall "Per-Operation Breakdown" \
	"could not obtain a file of fileset 'opentree' (200 files: 0 exist, 200 do not"
grep -q "without results" "$tmp/rmall.out" && { cat "$tmp/rmall.out"; fail "rmall: 'without results' after the results"; }
ok "every file removed: partial results, then 'could not obtain a file' with the true counts (0 exist)"

# --- 5. A file truncated behind its back: short reads ------------------
# random reads inside the size the file had when it was opened come back
# short; reads past the end of a file (sequential wrap) never count
# trunc_when_reading NAME FILE: once run NAME (in the background, with
# --interval) did reads (its file is open), truncate FILE to 4 KiB
trunc_when_reading() {
	wait_running "$tmp/$1.out" "$pid"
	wait_ops_after "$tmp/$1.out" "$pid" 0 1
	truncate -s 4k "$2"
}
short=$tmp/short
mkdir -p "$short"
# --keep-going: runs until its workers made reads after the truncation
# (their read syscalls, /proc/PID/io syscr: a short read is an error, not
# an op of the interval lines), then SIGINT
worker_reads() {
	for w in $(pgrep -P "$1"); do
		sed -n 's/^syscr: //p' "/proc/$w/io" 2>/dev/null
	done | awk '{ n += $1 } END { print n + 0 }'
}
reads_since() { [ "$(worker_reads "$1")" -ge $(($2 + 10)) ] || ! alive "$1"; }
bg_run shortkeep "$WORKLOADS/randomread.f" --cache keep -D dir="$short" -D filesize=4m \
	--runtime 600 --keep-going --interval 0.1
trunc_when_reading shortkeep "$short/largefile1/00000001/00000001"
wait_for 120 "reads after the truncation" reads_since "$pid" "$(worker_reads "$pid")" &&
	alive "$pid" || { cat "$tmp/shortkeep.out"; fail "shortkeep: no reads after the truncation"; }
kill -INT "$pid"
wait_end "$pid" 120
[ "$st" -eq 130 ] || { cat "$tmp/shortkeep.out"; fail "shortkeep: status $st, not 130 (the SIGINT's)"; }
n=$(errors_of shortkeep rand-read1 short)
[ "$n" -gt 0 ] || { cat "$tmp/shortkeep.out"; fail "shortkeep: no short read counted"; }
ok "--keep-going with the file truncated under the reads: $n short reads counted"
# without it the first short read ends the run (its time is no limit)
bg_run shortfail "$WORKLOADS/randomread.f" --cache keep -D dir="$short" -D filesize=4m \
	--runtime 600 --interval 0.1
trunc_when_reading shortfail "$short/largefile1/00000001/00000001"
wait_end "$pid" 120
rc=$st name=shortfail
expect_failed shortfail "flowop rand-read1: short pread (" "when opened) of $short/largefile1/"
ok "a short read inside the file ends the run, saying so"
run_named seqwrap "$WORKLOADS/singlestreamread.f" --cache keep -D dir="$short" -D filesize=1m \
	-D iosize=384k --runtime 0.3
[ "$rc" -eq 0 ] || { cat "$tmp/seqwrap.out"; fail "seqwrap: status $rc (a read at EOF is no failure)"; }
grep -q "Errors:" "$tmp/seqwrap.out" && fail "seqwrap: sequential reads wrapping at EOF counted as errors"
ok "sequential reads ending short at EOF and wrapping: no error"

# --- 6. No failure, no Errors line; --keep-going changes nothing else --
run_named clean "$WORKLOADS/randomwrite.f" --cache keep -D dir="$rw" -D filesize=1m \
	--runtime 0.3 --keep-going
[ "$rc" -eq 0 ] || { cat "$tmp/clean.out"; fail "clean: status $rc"; }
grep -q "Errors:" "$tmp/clean.out" && fail "clean: an Errors line without errors"
ok "no failed op: no Errors line"
