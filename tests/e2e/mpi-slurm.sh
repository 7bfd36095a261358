#!/bin/sh
# mpi-slurm.sh - flowbench-mpi started by Slurm's srun instead of mpirun,
# 3 tasks on one node: the merged result is printed once and counts 3
# clients, each rank works in its own rank-0000N directory, --shared-files
# prepares one tree, a script error is printed once and nothing is created;
# and a rank killed with SIGKILL ends the whole job well before its
# deadline, srun naming the task.  Open MPI is started through Slurm's
# PMIx plugin (--mpi=pmix), which cancels the step about a second after a
# task dies (the survivors are SIGKILLed: no result); MPICH through PMI-2
# (--mpi=pmi2) without -K, under which Slurm lets the survivors run on:
# flowbench-mpi's own probes (mpi/liveness.c) find the lost rank within
# seconds and rank 0 reports the survivors' merged results.
# Skipped unless srun reaches a running slurmd within 10 s
# (tests/slurm-setup.sh makes a one-node cluster on this machine).
# shellcheck disable=SC2086 # $srun3 is split into words on purpose
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"
need srun
need scontrol
timeout 10 srun -N1 -n1 true >/dev/null 2>&1 ||
	{ echo "SKIP: srun -n1 true does not run here (no slurmd? tests/slurm-setup.sh makes one)"; exit 77; }

if ldd "$FBM" | grep -q libmpich; then
	plugin=pmi2 survivors_report=yes
else
	plugin=pmix survivors_report=no
fi
srun --mpi=list 2>&1 | grep -qw "$plugin" ||
	{ echo "SKIP: this Slurm has no $plugin plugin (srun --mpi=list)"; exit 77; }
# every job of this test carries this name: whatever a failure leaves
# running is cancelled at exit, and nothing else
job=flowbench-e2e-$$
trap 'scancel --name="$job" 2>/dev/null || true; rm -rf "$tmp"' EXIT
# 3 tasks on one node ($tmp is this node's), more tasks than CPUs allowed
srun3="srun --job-name=$job --mpi=$plugin -N1 -n3 --overcommit"
echo "$srun3 $(basename "$FBM") ..."

# ---- a run: one merged result, 3 clients, a directory per rank ----------
dir=$tmp/files
mkdir "$dir"
timeout 120 $srun3 "$FBM" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$dir" \
	-D filesize=16m -D nthreads=1 -D runtime=2 >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$tmp/out"; fail "flowbench-mpi under srun failed"; }
[ "$(grep -c 'IO Summary' "$tmp/out")" = 1 ] || { cat "$tmp/out"; fail "not one IO Summary on srun's stdout"; }
[ "$(grep -c '^Clients: ' "$tmp/out")" = 1 ] || fail "not one Clients line"
grep -q '^Clients: 3, start skew' "$tmp/out" ||
	fail "the job is not one of 3 clients (each task its own MPI job?): $(grep Clients "$tmp/out")"
grep -Eq "^$(hostname | cut -c1-24) +3 " "$tmp/out" || { cat "$tmp/out"; fail "no row for this host with 3 ranks"; }
for r in 00000 00001 00002; do
	[ -d "$dir/rank-$r/largefile1" ] || fail "rank $r has no directory of its own: $(ls "$dir")"
done
reads=$(breakdown_field "$tmp/out" rand-read1 ops)
[ "$reads" -gt 0 ] || fail "no reads merged"
ok "srun --mpi=$plugin: one merged report of 3 clients ($reads reads), rank-00000 .. rank-00002"

# ---- --shared-files: one tree for the 3 tasks ---------------------------
shared=$tmp/shared
mkdir "$shared"
timeout 120 $srun3 "$FBM" run "$WORKLOADS/randomrw.f" --shared-files --cache keep -D dir="$shared" \
	-D filesize=16m -D nthreads=1 -D runtime=1 >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$tmp/out"; fail "--shared-files under srun failed"; }
[ "$(ls "$shared")" = largefile1 ] || fail "--shared-files: not one set of files: $(ls "$shared")"
grep -q '^Clients: 3,' "$tmp/out" && [ "$(grep -c 'IO Summary' "$tmp/out")" = 1 ] ||
	{ cat "$tmp/out"; fail "--shared-files: not one report of 3 clients"; }
ok "--shared-files under srun: one tree, one report of 3 clients"

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
set +e
timeout 120 $srun3 "$FBM" run "$tmp/bad.f" -D dir="$tmp/empty" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ $rc -ne 0 ] || fail "a script error exited 0"
n=$(cat "$tmp/out" "$tmp/err" | grep -c "unknown attribute 'iosze'" || true)
[ "$n" = 1 ] || { cat "$tmp/err"; fail "the script error was printed $n times, not once"; }
[ -z "$(ls -A "$tmp/empty")" ] || fail "a task created something after a script error: $(ls -A "$tmp/empty")"
ok "a script error is printed once under srun (exit $rc), and no task creates anything"

# ---- a rank killed with SIGKILL: the job ends before its deadline -------
# Through the PMIx plugin Slurm cancels the step within about a second;
# through PMI-2 it lets the survivors run, and flowbench-mpi's probes find
# the lost rank (within 4 s) and end the job with the survivors' results.
# The run lasts twice KillWait plus 20 s; the job must end well before.
killwait=$(scontrol show config | sed -n 's/^KillWait *= *\([0-9]*\) sec.*/\1/p')
[ -n "$killwait" ] || fail "no KillWait in scontrol show config"
runtime=$((2 * killwait + 20))
mkdir "$tmp/kill"
$srun3 "$FBM" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp/kill" -D filesize=16m \
	-D nthreads=1 -D runtime=$runtime >"$tmp/out" 2>&1 &
launcher=$!
# rank 1's master: its environment says task 1 (srun's own command line
# matches too, but it has no SLURM_PROCID)
victim=
for _ in $(seq 300); do
	victim=$(rank_master "$tmp/kill" 1 SLURM_PROCID)
	[ -n "$victim" ] && grep -q 'Running' "$tmp/out" && break
	sleep 0.1
done
[ -n "$victim" ] || { kill $launcher; cat "$tmp/out"; fail "task 1 was not found"; }
t_running=$(now)
sleep 1
kill -9 "$victim"
t0=$(now)
# the survivors' deadline, as far as this shell can tell: the run time
# from when it saw them running
left=$(echo "$runtime - ($t0 - $t_running)" | bc)
# wait for srun until the survivors' deadline, not longer: a job still
# there then was not ended by the kill (and might never end: the merge
# waits for the dead rank)
while kill -0 $launcher 2>/dev/null &&
	awk -v t="$(echo "$(now) - $t0" | bc)" -v l="$left" 'BEGIN { exit !(t < l) }'; do
	sleep 0.1
done
if kill -0 $launcher 2>/dev/null; then
	scancel --name="$job"
	cat "$tmp/out"
	fail "the job was still there $left s after task 1 was killed, at the survivors' deadline"
fi
set +e
wait $launcher
rc=$?
set -e
took=$(echo "$(now) - $t0" | bc)
[ $rc -ne 0 ] || fail "the job of a killed task exited 0"
grep -q 'task 1: Killed' "$tmp/out" || { cat "$tmp/out"; fail "srun does not name task 1 (pid $victim)"; }
if [ $survivors_report = yes ]; then
	# found by the probes: a second a round, 3 s to answer, then the merge
	awk -v t="$took" 'BEGIN { exit !(t < 15) }' ||
		{ cat "$tmp/out"; fail "the survivors took $took s to end after task 1 died"; }
	grep -q 'Clients: 2 of 3 (lost: rank 1 (' "$tmp/out" && grep -q 'IO Summary' "$tmp/out" ||
		{ cat "$tmp/out"; fail "no merged result of the survivors naming rank 1 as lost"; }
	what="the survivors found it lost and reported"
else
	grep -q 'IO Summary' "$tmp/out" && fail "a merged result after Slurm killed the survivors"
	what="srun ended the job"
fi
# no live process of the job left, masters or workers
live() { ps -e -o pid=,stat=,args= | awk -v d="$tmp/kill" '$2 !~ /^Z/ && $3 ~ /flowbench-mpi$/ && index($0, d)' || true; }
for _ in $(seq 30); do [ -z "$(live)" ] && break; sleep 0.1; done
[ -z "$(live)" ] || fail "flowbench-mpi processes left 3 s after the job: $(live)"
ok "task 1 killed: $what $took s later (exit $rc; KillWait ${killwait} s, deadline $left s away), task 1 named, no process left"
