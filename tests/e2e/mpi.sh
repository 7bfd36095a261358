#!/bin/sh
# mpi.sh - flowbench-mpi under a real mpirun, 3 ranks on this machine:
# the merged result counts exactly the preads and pwrites every rank
# made (strace on each rank), over TCP and over shared memory; the start
# skew and the per-host table are printed; a script error is printed once
# and no rank creates anything; a rank that fails (ENOSPC on its own file
# system) ends every rank's run with partial merged results naming it; a
# rank killed with SIGKILL ends the job within 10 s with a message naming
# it; and tests/mpi/merge: the reduction of 3 ranks' histograms equals
# their union, bucket for bucket.  Skipped where flowbench-mpi was not
# built or mpirun is missing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"
# mpi's flags to use transport $1 ("default": none)
transport() {
	[ "$1" = default ] || echo "--mca btl self,$1"
}

# ---- the merge itself: reduced histograms = the union, bucket by bucket --
merge=$(dirname "$FBM")/tests/mpi/merge
if [ -x "$merge" ]; then
	mpi "$merge" >"$tmp/merge" 2>&1 || { cat "$tmp/merge"; fail "tests/mpi/merge"; }
	grep '^ok: 3 ranks' "$tmp/merge" || { cat "$tmp/merge"; fail "tests/mpi/merge said nothing"; }
	ok "the merge operation over 3 ranks equals the union of their statistics, exactly"
else
	echo "skip: tests/mpi/merge not built (make check builds it)"
fi

# ---- exact counts: strace on every rank --------------------------------
need strace
dir=$tmp/files
mkdir "$dir"
# make the files first, so preallocation's writes are not in the count
mpi "$FBM" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$dir" \
	-D filesize=16m -D nthreads=1 -D runtime=1 >"$tmp/first" 2>&1 ||
	{ cat "$tmp/first"; fail "the first run failed"; }
for r in 00000 00001 00002; do
	[ -d "$dir/rank-$r/largefile1" ] || fail "rank $r has no directory of its own: $(ls "$dir")"
done
ok "every rank works in its own directory (rank-00000 .. rank-00002)"

for btl in $transports; do
	rm -f "$tmp"/trace.*
	out=$tmp/out.$btl
	# shellcheck disable=SC2046
	mpi $(transport $btl) sh -c 'eval "r=\$$1"; shift; exec strace -ff -qq -s 0 \
		-e trace=pread64,pwrite64 -o "$0.$r" "$@"' "$tmp/trace" "$rank_var" \
		"$FBM" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$dir" \
		-D filesize=16m -D nthreads=1 -D runtime=3 >"$out" 2>"$tmp/err" ||
		{ cat "$tmp/err" "$out"; fail "flowbench-mpi under strace ($btl) failed"; }
	calls() { cat "$tmp"/trace.* | grep -cE "^$1\\([0-9]+, .*, 8192, [0-9]+\\) += 8192$" || true; }
	not_counted() {
		sed -n "s/.*Not counted:.*[(,] *$1 \\([0-9][0-9]*\\).*/\\1/p" "$out" | head -1 | grep . || echo 0
	}
	preads=$(calls pread64)
	pwrites=$(calls pwrite64)
	reads=$(breakdown_field "$out" rand-read1 ops)
	writes=$(breakdown_field "$out" rand-write1 ops)
	late_r=$(not_counted rand-read1)
	late_w=$(not_counted rand-write1)
	echo "$btl: merged $reads reads (+$late_r late), $writes writes (+$late_w late); strace on 3 ranks: $preads pread64, $pwrites pwrite64"
	[ "$reads" -gt 0 ] && [ "$writes" -gt 0 ] || fail "$btl: no reads or writes"
	[ $((reads + late_r)) -eq "$preads" ] || fail "$btl: merged reads $reads + $late_r != pread64 calls of 3 ranks $preads"
	[ $((writes + late_w)) -eq "$pwrites" ] || fail "$btl: merged writes $writes + $late_w != pwrite64 calls of 3 ranks $pwrites"
	# one rank alone does a third or so: the merged count is not one rank's
	ranks=$(sed -n 's/^Clients: \([0-9]*\),.*/\1/p' "$out")
	[ "$ranks" = 3 ] || fail "$btl: the report does not say 3 clients: $(grep Clients "$out")"
	skew=$(sed -n 's/^Clients: 3, start skew \([0-9.]*\) ms.*/\1/p' "$out")
	[ -n "$skew" ] || fail "$btl: no start skew: $(grep Clients "$out")"
	awk -v s="$skew" 'BEGIN { exit !(s < 3000) }' || fail "$btl: start skew $skew ms is more than the run"
	grep -Eq "^$(hostname | cut -c1-24) +3 " "$out" || { cat "$out"; fail "$btl: no row for this host with 3 ranks"; }
	[ "$(grep -c 'IO Summary' "$out")" = 1 ] || fail "$btl: not one IO Summary on stdout"
	ok "$btl: merged ops = the pread/pwrite calls of all 3 ranks; start skew $skew ms; one report, per-host row"
done

# ---- --shared-files: one set of files, prepared once by rank 0 ------------
# (and with --cache warm filled once, by rank 0: its fadvise(DONTNEED))
shared=$tmp/shared
mkdir "$shared"
rm -f "$tmp"/trace.*
mpi sh -c 'eval "r=\$$1"; shift; exec strace -ff -qq -s 64 \
	-e trace=mkdir,mkdirat,unlink,unlinkat,ftruncate,fallocate,openat,fadvise64 -o "$0.$r" "$@"' \
	"$tmp/trace" "$rank_var" \
	"$FBM" run "$WORKLOADS/randomrw.f" --shared-files --cache warm -D dir="$shared" \
	-D filesize=16m -D nthreads=1 -D runtime=2 >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$tmp/out"; fail "--shared-files failed"; }
[ "$(ls "$shared")" = largefile1 ] || fail "--shared-files: not one set of files: $(ls "$shared")"
# what changes the tree (flowbench reaches it through directory descriptors;
# MPI's own files, in /dev/shm and /tmp/ompi*, by absolute path)
changes() {
	cat "$tmp"/trace."$1".* |
		grep -cE "^(mkdirat|unlinkat|fallocate)\(|^openat\([0-9]+,.*O_CREAT|^(mkdir|unlink)\(\"$shared" || true
}
[ "$(changes 0)" -gt 0 ] || fail "--shared-files: rank 0 did not prepare the files"
for r in 1 2; do
	[ "$(changes $r)" = 0 ] || { cat "$tmp"/trace.$r.* | grep -E 'mkdir|unlink|fallocate|O_CREAT' | head; fail "--shared-files: rank $r changed the tree"; }
done
[ "$(sed -n 's/^Clients: \([0-9]*\),.*/\1/p' "$tmp/out")" = 3 ] || fail "--shared-files: not 3 clients"
ok "--shared-files: one file for 3 ranks, prepared by rank 0 ($(changes 0) changes), ranks 1 and 2 change nothing"
evictions() { cat "$tmp"/trace."$1".* | grep -c '^fadvise64(.*POSIX_FADV_DONTNEED' || true; }
[ "$(evictions 0)" = 1 ] || fail "--shared-files --cache warm: rank 0 evicted $(evictions 0) times, not once"
for r in 1 2; do
	[ "$(evictions $r)" = 0 ] || fail "--shared-files --cache warm: rank $r evicted the shared file too"
done
ok "--shared-files --cache warm: the shared file filled once, by rank 0"

# the ranks hold the tree: a plain run on it meanwhile is refused.  It
# starts once the job said Running; if it was not refused and the job had
# ended by then (a loaded machine), again with a job 4 times longer
for secs in 4 16 64; do
	mpi "$FBM" run "$WORKLOADS/randomrw.f" --shared-files --cache keep -D dir="$shared" \
		-D filesize=16m -D nthreads=1 -D runtime=$secs >"$tmp/out" 2>"$tmp/err" &
	job=$!
	wait_for 120 "the job's Running" running_or_ended "$tmp/out" $job ||
		{ kill $job; fail "the shared run did not start"; }
	set +e
	"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$shared" -D filesize=16m \
		-D nthreads=1 -D runtime=1 >"$tmp/out2" 2>"$tmp/err2"
	rc=$?
	alive $job
	still=$?
	wait $job
	rc_job=$?
	set -e
	[ $rc -eq 0 ] && [ $still -ne 0 ] || break
	echo "the $secs s shared run ended before the plain run tried the tree: again, longer"
done
[ $rc -ne 0 ] && grep -q 'another flowbench run is using it' "$tmp/err2" ||
	{ cat "$tmp/err2"; fail "a plain run on the shared tree was not refused (exit $rc)"; }
[ $rc_job -eq 0 ] || { cat "$tmp/err"; fail "the shared run failed (exit $rc_job)"; }
ok "while the ranks share the tree, another run on it is refused by the lock"

# names created or removed in a shared fileset: refused, once, before anything
cat >"$tmp/names.f" <<'EOF'
define fileset name=fs,path=$dir,entries=10,dirwidth=10,size=4k,prealloc
define process name=p {
  thread name=t {
    flowop createfile name=c,filesetname=fs
    flowop closefile name=cl
  }
}
run 1
EOF
mkdir "$tmp/names"
set +e
mpi "$FBM" run "$tmp/names.f" --shared-files -D dir="$tmp/names" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ $rc -ne 0 ] || fail "createfile on a shared fileset was not refused"
[ "$(grep -c "names.f:4:.*createfile 'c' creates or removes entries of 'fs'" "$tmp/err")" = 1 ] ||
	{ cat "$tmp/err"; fail "the shared createfile was not refused once, located"; }
[ -z "$(ls -A "$tmp/names")" ] || fail "a refused shared run created $(ls -A "$tmp/names")"
set +e
"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --shared-files -D dir="$tmp/names" >/dev/null 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 2 ] && grep -q 'shared-files is for flowbench-mpi' "$tmp/err" ||
	fail "plain flowbench accepted --shared-files (exit $rc)"
ok "createfile on a shared fileset refused once, located; plain flowbench refuses --shared-files"

# a shared fileset that $rank shapes differently per rank: refused, once
cat >"$tmp/ranksize.f" <<'EOF'
define file name=f,path=$dir,size=($rank + 1) * 64k,prealloc
define process name=p {
  thread name=t {
    flowop read name=r,filename=f,iosize=4k
  }
}
run 1
EOF
set +e
mpi "$FBM" run "$tmp/ranksize.f" --shared-files -D dir="$tmp/names" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ $rc -ne 0 ] && [ "$(grep -c 'same filesets' "$tmp/err")" = 1 ] ||
	{ cat "$tmp/err"; fail "shared filesets that differ per rank were not refused once (exit $rc)"; }
[ -z "$(ls -A "$tmp/names")" ] || fail "a refused shared run created $(ls -A "$tmp/names")"
ok "--shared-files with a fileset \$rank sizes differently per rank: refused once, nothing created"

# ---- $rank, $nranks, $hostname: each rank's own values -------------------
cat >"$tmp/shape.f" <<'EOF'
echo "rank $rank of $nranks on $hostname"
define file name=f,path=$dir,size=($rank + 1) * 64k * $nranks,prealloc
define process name=p {
  thread name=t {
    flowop read name=r,filename=f,iosize=4k
  }
}
run 1
EOF
mkdir "$tmp/shape"
mpi "$FBM" run "$tmp/shape.f" -D dir="$tmp/shape" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "the shaped workload failed"; }
grep -q "rank 0 of 3 on $(hostname)" "$tmp/out" || fail "rank 0 does not see \$rank 0, \$nranks 3, \$hostname"
for r in 0 1 2; do
	f=$(find "$tmp/shape/rank-0000$r/f" -type f -name '0*' | head -1)
	size=$(stat -c %s "$f")
	[ "$size" -eq $(( (r + 1) * 65536 * 3 )) ] || fail "rank $r's file is $size bytes, not ($r + 1) x 64k x 3"
done
ok "each rank compiles the workload with its own \$rank (file sizes 192k, 384k, 576k), \$nranks and \$hostname"

# ---- --repeat: every run meets on every rank -----------------------------
mpi "$FBM" run "$tmp/shape.f" -D dir="$tmp/shape" --repeat 3 >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "--repeat 3 failed"; }
[ "$(grep -c '^Clients: 3' "$tmp/out")" = 3 ] && grep -q 'Aggregate over 3 runs' "$tmp/out" ||
	{ cat "$tmp/out"; fail "--repeat 3: not three merged runs and their aggregate"; }
ok "--repeat 3: three merged runs and the aggregate"

# --interval: the job's series, each interval merged over the ranks; the
# intervals add up exactly to the run (as in a plain run)
mpi "$FBM" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$dir" -D filesize=16m \
	-D nthreads=1 -D runtime=2 --interval 0.5 --output "$tmp/iv.json" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "--interval failed"; }
python3 - "$tmp/iv.json" <<'EOF' || fail "--interval: the merged series does not add up"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
for f in run["flowops"]:
    iv = f["intervals"]
    assert len(iv) == 4, (f["name"], len(iv))
    # each interval ends on the period from the common start, the last at
    # the end of the job's window: the run time, less the earliest rank's
    # lateness (every rank's deadline counts from the common instant)
    assert [round(x["t_s"], 6) for x in iv[:-1]] == [0.5, 1.0, 1.5], [x["t_s"] for x in iv]
    assert abs(iv[-1]["t_s"] - run["elapsed_s"]) < 1e-6, (iv[-1]["t_s"], run["elapsed_s"])
    c = run["clients"]
    tol = c["clock_error_s"] + 1e-4
    assert 2.0 - c["late_s"] - tol <= run["elapsed_s"] <= 2.0 + tol, (run["elapsed_s"], c)
    assert abs(c["window_error_s"] - (run["elapsed_s"] - 2.0)) < 1e-9, c
    assert sum(x["ops"] for x in iv) == f["ops"], (f["name"], sum(x["ops"] for x in iv), f["ops"])
    assert sum(x["bytes"] for x in iv) == f["bytes"], f["name"]
    # one rank's third is not the job's: the rates are of the whole job
    assert f["ops"] > 0
print("intervals of", [f["name"] for f in run["flowops"]], "add up to the merged ops")
EOF
[ "$(grep -c 'Interval [0-9]' "$tmp/out")" = 4 ] || { cat "$tmp/out"; fail "--interval: not 4 interval lines printed once"; }
# printed as the run goes (merged while it runs: interval 1 is due 1.5 s
# before the end), and the live line is the final series' interval
sed -n '/Interval 1 /,$p' "$tmp/out" | grep -q 'Run took' ||
	{ cat "$tmp/out"; fail "--interval: interval 1 was not printed during the run"; }
python3 - "$tmp/iv.json" "$tmp/out" <<'EOF' || fail "--interval: the live line differs from the merged series"
import json, re, sys
run = json.load(open(sys.argv[1]))["runs"][0]
# interval 2: interval 1's line counts the implicit opens too
line = next(l for l in open(sys.argv[2]) if "Interval 2 " in l)
live = float(re.search(r"\): (\d+) ops/s", line).group(1))
second = [f["intervals"][1] for f in run["flowops"]]
final = sum(x["ops"] for x in second) / second[0]["dt_s"]
assert abs(live - final) <= 1, (live, final)
EOF
ok "--interval 0.5: the job's series, 4 intervals merged over the ranks, adding up exactly to the run's ops and bytes; printed during the run, equal to the final series"

# ---- psrun: the job's snapshots, merged while the run goes --------------
cat >"$tmp/ps.f" <<EOF
define file name=f1, path=$tmp/ps, size=1m, prealloc
define process name=p1 {
  thread name=t1 {
    flowop read name=r1, filename=f1, iosize=4k
  }
  thread name=t2 {
    flowop delay name=tick, value=0.1
  }
}
psrun -1 3
EOF
mkdir "$tmp/ps"
mpi "$FBM" run --cache keep "$tmp/ps.f" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err"; fail "psrun failed"; }
[ "$(grep -c 'Per-Operation Breakdown' "$tmp/out")" = 3 ] ||
	{ cat "$tmp/out"; fail "psrun -1 3: not 2 snapshots and the report"; }
sed -n '/Per-Operation Breakdown/,$p' "$tmp/out" | grep -q 'Run took' ||
	{ cat "$tmp/out"; fail "psrun: the first snapshot was not printed during the run"; }
# a rank's thread ticks at most 11 times a second (0.1 s delays): the
# first 1 s snapshot holds more, so it is the job's
ticks=$(awk '$1 == "tick" { print $2 + 0; exit }' "$tmp/out")
[ "$ticks" -gt 11 ] && [ "$ticks" -le 33 ] ||
	{ cat "$tmp/out"; fail "psrun: the first snapshot has $ticks ticks, not the 3 ranks' (12..33)"; }
ok "psrun -1 3: 2 snapshots merged over the ranks during the run (the first with $ticks ticks), then the report"

# mpi_refused WHAT ARGS...: flowbench-mpi ARGS on 3 ranks fails, its
# status in $rc, its output in $tmp/out and $tmp/err
mpi_refused() {
	what=$1
	shift
	rc=0
	mpi "$FBM" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ $rc -ne 0 ] || fail "$what exited 0"
}

# ---- a script error: printed once, nothing created ----------------------
cat >"$tmp/bad.f" <<'EOF'
define file name=f,path=$dir,size=1m
define process name=p {
  thread name=t {
    flowop read name=r,filename=f,iosze=8k
  }
}
run 2
EOF
mkdir "$tmp/empty"
mpi_refused "a script error" run "$tmp/bad.f" -D dir="$tmp/empty"
n=$(cat "$tmp/out" "$tmp/err" | grep -c "unknown attribute 'iosze'" || true)
[ "$n" = 1 ] || { cat "$tmp/err"; fail "the script error was printed $n times, not once"; }
[ -z "$(ls -A "$tmp/empty")" ] || fail "a rank created something after a script error: $(ls -A "$tmp/empty")"
ok "a script error is printed once (exit $rc), and no rank creates anything"

# ---- a command other than run: refused once, as an error ----------------
mpi_refused "flowbench-mpi check" check "$WORKLOADS/randomrw.f"
[ "$(grep -c "^flowbench: rank 0 ([^)]*): error: flowbench-mpi runs only 'run'" "$tmp/err")" = 1 ] ||
	{ cat "$tmp/err"; fail "check: not one 'flowbench: rank 0 (...): error:' refusal"; }
ok "flowbench-mpi check: one error line from rank 0 (exit $rc)"

# ---- a workload only rank 0 compiles: rank 1 says so, as an error -------
# bad.f with the attribute spelt right and memoffset=$rank: 1 and 2 do
# not fit in 8k of thread memory with an 8k iosize
sed 's/iosze=8k/iosize=8k,memoffset=$rank/; s/thread name=t/&,memsize=8k/' \
	"$tmp/bad.f" >"$tmp/rank1.f"
mkdir "$tmp/rank1"
mpi_refused "a workload rank 1 cannot compile" run "$tmp/rank1.f" -D dir="$tmp/rank1"
[ "$(grep -c '^flowbench: rank 1 ([^)]*): error: the workload does not compile on this rank' "$tmp/err")" = 1 ] &&
	grep -q 'memoffset 1 plus iosize 8192' "$tmp/err" ||
	{ cat "$tmp/err"; fail "rank 1's compile error: not one 'flowbench: rank 1 (...): error:' line with its message"; }
ok "a workload only rank 0 compiles: rank 1's error line and message (exit $rc)"

# ---- a rank that fails: ENOSPC on rank 1's own small file system --------
cat >"$tmp/grow.f" <<'EOF'
define file name=g,path=$dir,size=1m,prealloc
define process name=p {
  thread name=t {
    flowop appendfile name=app,filename=g,iosize=64k
    flowop delay name=d,value=0.01
  }
}
run 30
EOF
if unshare -m true 2>/dev/null; then
	mkdir -p "$tmp/full/rank-00001"
	t0=$(now)
	set +e
	unshare -m sh -c 'mount -t tmpfs -o size=4m tmpfs "$1/full/rank-00001" &&
		"$3" $4 -np 3 "$2" run "$1/grow.f" -D dir="$1/full"' \
		sh "$tmp" "$FBM" "$MPIRUN" "$mpi_flags" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
	took=$(echo "$(now) - $t0" | bc)
	[ $rc -ne 0 ] || fail "a failed rank's job exited 0"
	grep -q 'partial results' "$tmp/out" || { cat "$tmp/out" "$tmp/err"; fail "no partial results after rank 1 failed"; }
	grep -q 'IO Summary' "$tmp/out" || fail "no merged summary after rank 1 failed"
	grep -q 'rank 0 .*error: rank 1 (.*No space left on device' "$tmp/err" ||
		{ cat "$tmp/err"; fail "rank 0 does not name rank 1 and its error"; }
	awk -v t="$took" 'BEGIN { exit !(t < 25) }' || fail "the job took $took s: the other ranks ran on to their deadline"
	ok "rank 1's ENOSPC ends every rank's run ($took s of 30): partial merged results, rank 1 named (exit $rc)"
else
	echo "skip: no private mount namespace for the ENOSPC case"
fi

# ---- a rank killed with SIGKILL: the job ends, the rank named -----------
mkdir "$tmp/kill"
mpi "$FBM" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp/kill" \
	-D filesize=16m -D nthreads=1 -D runtime=60 >"$tmp/out" 2>&1 &
job=$!
victim=
rank1_running() {
	victim=$(rank_master "$tmp/kill" 1)
	[ -n "$victim" ] && grep -q 'Running' "$tmp/out" || ! alive $job
}
wait_for 120 "rank 1 running" rank1_running && [ -n "$victim" ] ||
	{ kill $job; fail "rank 1 was not found"; }
t_running=$(now)
# not a moment a check needs: the ranks run from Running on
sleep 1
kill -9 "$victim"
t0=$(now)
set +e
wait $job
rc=$?
set -e
took=$(echo "$(now) - $t0" | bc)
[ $rc -ne 0 ] || fail "the job of a killed rank exited 0"
# before the 60 s deadline as this shell saw it: the kill ended the job
awk -v t="$took" -v l="$(echo "60 - ($t0 - $t_running)" | bc)" 'BEGIN { exit !(t < l) }' ||
	fail "the job took $took s to end after rank 1 was killed: it ran to its deadline"
# Open MPI's mpirun names the rank; MPICH's hydra a bad termination at the host
grep -qiE "rank 1|BAD TERMINATION" "$tmp/out" || { cat "$tmp/out"; fail "nothing names rank 1 (pid $victim)"; }
# no live process of the job left, masters or workers (zombies waiting
# for their reaper are not running)
live() { ps -e -o pid=,stat=,args= | awk -v d="$tmp/kill" '$2 !~ /^Z/ && $3 ~ /flowbench-mpi$/ && index($0, d)' || true; }
for i in $(seq 30); do [ -z "$(live)" ] && break; sleep 0.1; done
[ -z "$(live)" ] || fail "flowbench-mpi processes left 3 s after the job: $(live)"
ok "rank 1 killed: the job ended $took s later (exit $rc), rank 1 named, no process left"

# ---- another MPI's launcher: refused, not N jobs of one rank ------------
if [ "$rank_var" = OMPI_COMM_WORLD_RANK ]; then
	other=$(command -v mpiexec.mpich || true) other_flags=
else
	other=$(command -v mpirun.openmpi || true) other_flags="--oversubscribe --allow-run-as-root"
fi
if [ -n "$other" ]; then
	mkdir "$tmp/foreign"
	rc=0
	# shellcheck disable=SC2086
	timeout 60 "$other" $other_flags -np 2 "$FBM" run "$WORKLOADS/randomrw.f" -D dir="$tmp/foreign" \
		-D filesize=1m -D runtime=1 >"$tmp/out" 2>&1 || rc=$?
	[ $rc -ne 0 ] || { cat "$tmp/out"; fail "flowbench-mpi under $other ran"; }
	grep -q '^flowbench: error: the launcher started 2 tasks, but MPI sees a job of one rank in each' "$tmp/out" ||
		{ cat "$tmp/out"; fail "no message saying the launcher is another MPI's"; }
	[ -z "$(ls -A "$tmp/foreign")" ] || fail "ranks of a foreign launcher created files: $(ls -A "$tmp/foreign")"
	ok "$(basename "$other") (another MPI's launcher): refused with a message, nothing created"
else
	echo "skip: no other MPI's launcher installed"
fi
