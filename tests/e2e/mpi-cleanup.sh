#!/bin/sh
# mpi-cleanup.sh - a rank that cannot start (its rank directory is a
# file; its fileset's name is somebody else's file; its directory
# read-only) stops a flowbench-mpi job (3 ranks, the launcher of the MPI
# it was built with) before the run, and the other ranks remove what
# they made for it: their trees and their rank directories; what was
# there before (the other rank's file, trees reused from an earlier run)
# stays untouched.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"

# ---- a rank that cannot start: the others leave nothing behind -----------
# quick: prepare 1 MiB per rank and fail at the first agreement
quick() {
	rc=0
	# shellcheck disable=SC2086
	timeout 120 "$MPIRUN" $mpi_flags -np 3 "$FBM" run "$WORKLOADS/randomrw.f" --cache warm \
		-D dir="$1" -D filesize=1m -D nthreads=1 -D runtime=1 >"$tmp/q.out" 2>&1 || rc=$?
}
d=$tmp/dirfile
mkdir "$d"
echo mine >"$d/rank-00001"
quick "$d"
[ $rc -ne 0 ] && [ $rc -ne 124 ] || { cat "$tmp/q.out"; fail "rank 1's directory a file: exit $rc"; }
[ "$(ls -A "$d")" = rank-00001 ] && [ "$(cat "$d/rank-00001")" = mine ] ||
	{ ls -lA "$d"; fail "rank 1's directory a file: the others' directories stayed, or the file changed"; }
ok "rank 1's directory is a file: exit $rc, ranks 0 and 2 removed theirs, the file untouched"

d=$tmp/foreign
mkdir -p "$d/rank-00001"
echo theirs >"$d/rank-00001/largefile1"
quick "$d"
[ $rc -ne 0 ] && [ $rc -ne 124 ] || { cat "$tmp/q.out"; fail "a foreign fileset: exit $rc"; }
grep -q 'rank 1 (.*) could not start the run' "$tmp/q.out" || { cat "$tmp/q.out"; fail "rank 1 not named"; }
grep -q "Removed $d/rank-00000/largefile1 (made for a run that did not start)" "$tmp/q.out" ||
	{ cat "$tmp/q.out"; fail "rank 0 did not say it removed its tree"; }
[ "$(cd "$d" && find . | sort | tr '\n' ' ')" = ". ./rank-00001 ./rank-00001/largefile1 " ] &&
	[ "$(cat "$d/rank-00001/largefile1")" = theirs ] ||
	{ find "$d"; fail "a foreign fileset on rank 1: the others' trees stayed, or the file changed"; }
ok "rank 1's fileset name is somebody's file: ranks 0 and 2 removed the trees they had made and their directories"

# trees reused from an earlier run were not made by this one: they stay
d=$tmp/reused
mkdir -p "$d"
quick "$d"
[ $rc -eq 0 ] || { cat "$tmp/q.out"; fail "the first run to reuse failed ($rc)"; }
rm -rf "$d/rank-00001"
mkdir "$d/rank-00001"
echo theirs >"$d/rank-00001/largefile1"
quick "$d"
[ $rc -ne 0 ] || fail "a foreign fileset after a run: exit 0"
for r in 00000 00002; do
	[ -f "$d/rank-$r/largefile1/.flowbench" ] || { find "$d"; fail "rank $r's reused tree was removed"; }
done
ok "trees reused from an earlier run stay when the job stops before its run"

if unshare -m true 2>/dev/null; then
	d=$tmp/readonly
	mkdir -p "$d/rank-00001"
	rc=0
	# shellcheck disable=SC2016
	timeout 120 unshare -m sh -c 'mount -t tmpfs -o ro,size=1m tmpfs "$1/rank-00001" &&
		"$3" $4 -np 3 "$2" run "$5" --cache warm -D dir="$1" -D filesize=1m \
		-D nthreads=1 -D runtime=1' sh "$d" "$FBM" "$MPIRUN" "$mpi_flags" \
		"$WORKLOADS/randomrw.f" >"$tmp/q.out" 2>&1 || rc=$?
	[ $rc -ne 0 ] && [ $rc -ne 124 ] || { cat "$tmp/q.out"; fail "a read-only directory: exit $rc"; }
	grep -q 'Read-only file system' "$tmp/q.out" || { cat "$tmp/q.out"; fail "rank 1 did not say why"; }
	[ "$(ls -A "$d")" = rank-00001 ] && [ -z "$(ls -A "$d/rank-00001")" ] ||
		{ find "$d"; fail "a read-only rank 1: the others' files stayed"; }
	ok "rank 1's directory read-only: exit $rc, the others' files removed"
else
	echo "skip: no private mount namespace for the read-only case"
fi

