#!/bin/sh
# mpi-slurm-fail.sh - failures of a flowbench-mpi job under Slurm's srun
# (3 tasks on one node), as docs/distributed.md says, measured:
# - srun without an MPI plugin (--mpi=none): task 0 prints flowbench's
#   hint naming the plugin once, every task exits 1 (Open MPI used to
#   fail inside MPI_Init with its own generic text);
# - srun --kill-on-bad-exit (-K), a task killed with SIGKILL: srun sends
#   the others SIGTERM at once; rank 0 still finds the dead rank lost
#   and writes the survivors' results, status "failed" (not
#   "interrupted"), the survivors exit 1, srun 137 (the killed task's);
# - scancel --signal=TERM: every task stops, the results so far are
#   written, status "interrupted", srun 143;
# - SIGTERM to srun itself: srun kills the tasks at once ("forcing job
#   termination"), no results file, srun 137.
# Skipped unless srun reaches a running slurmd within 10 s
# (tests/slurm-setup.sh makes a one-node cluster on this machine).
# shellcheck disable=SC2086 # $srun3 is split into words on purpose
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"
need srun
need scancel
need python3
timeout 10 srun -N1 -n1 true >/dev/null 2>&1 ||
	{ echo "SKIP: srun -n1 true does not run here (no slurmd? tests/slurm-setup.sh makes one)"; exit 77; }
if ldd "$FBM" | grep -q libmpich; then
	plugin=pmi2 mpi_name=MPICH
else
	plugin=pmix mpi_name="Open MPI"
fi
srun --mpi=list 2>&1 | grep -qw "$plugin" ||
	{ echo "SKIP: this Slurm has no $plugin plugin (srun --mpi=list)"; exit 77; }
job=flowbench-e2e-$$
trap 'scancel --name="$job" 2>/dev/null || true; rm -rf "$tmp"' EXIT
srun3="srun --job-name=$job -N1 -n3 --overcommit"

# ---- no MPI plugin: our hint, once -------------------------------------
mkdir "$tmp/none"
rc=0
timeout 120 $srun3 --mpi=none "$FBM" run "$WORKLOADS/randomrw.f" -D dir="$tmp/none" \
	-D filesize=1m -D runtime=1 >"$tmp/out" 2>&1 || rc=$?
[ $rc -eq 1 ] || { cat "$tmp/out"; fail "srun --mpi=none: exit $rc, not 1"; }
[ "$(grep -c "srun started 3 tasks without an MPI plugin.*--mpi=$plugin (this flowbench-mpi uses $mpi_name)" "$tmp/out")" = 1 ] ||
	{ cat "$tmp/out"; fail "srun --mpi=none: not our hint once"; }
grep -q 'MPI_Init' "$tmp/out" && { cat "$tmp/out"; fail "srun --mpi=none: MPI's own failure shows"; }
[ -z "$(ls -A "$tmp/none")" ] || fail "srun --mpi=none: a task created files"
ok "srun --mpi=none: '--mpi=$plugin' hinted once, exit 1, nothing created"

# start NAME FLAGS...: a 60 s run of 3 tasks in the background ($launcher),
# once every task runs; $d the directory, $d.out, $d.json
start() {
	d=$tmp/$1
	shift
	mkdir "$d"
	$srun3 --mpi=$plugin "$@" "$FBM" run "$WORKLOADS/randomrw.f" --cache warm -D dir="$d" \
		-D filesize=16m -D nthreads=1 -D runtime=60 --output "$d.json" >"$d.out" 2>&1 &
	launcher=$!
	bg_pids="$bg_pids $launcher"
	wait_for 120 "Running" started || { cat "$d.out"; fail "the job did not start"; }
	grep -q Running "$d.out" || { cat "$d.out"; fail "the job ended before it ran"; }
}
started() { grep -q 'Running' "$d.out" || ! alive $launcher; }
finish() {
	set +e
	wait $launcher
	rc=$?
	set -e
}
status() { python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); print(a["status"], "|", a["error"])' "$1"; }

# ---- -K: a killed task ends the job; the results say failed ------------
start kill -K
victim=$(rank_master "$d" 1 SLURM_PROCID)
[ -n "$victim" ] || { cat "$d.out"; fail "task 1 not found"; }
kill -9 "$victim"
finish
status "$d.json" | grep -q '^failed | rank 1 (.*) was lost' ||
	{ cat "$d.out"; fail "srun -K: the results say $(status "$d.json")"; }
grep -q 'Clients: 2 of 3 (lost: rank 1 (' "$d.out" || { cat "$d.out"; fail "srun -K: no survivors' report"; }
grep -q 'tasks 0,2: Exited with exit code 1$' "$d.out" || { cat "$d.out"; fail "srun -K: the survivors did not exit 1"; }
[ $rc -eq 137 ] || { cat "$d.out"; fail "srun -K: exit $rc, 137 measured before"; }
ok "srun -K, task 1 killed: the survivors' results, 'failed' naming rank 1, tasks 0 and 2 exit 1, srun 137"

# ---- scancel --signal=TERM: interrupted, results kept -----------------
start scancel
scancel --name="$job" --signal=TERM
finish
[ "$(status "$d.json")" = "interrupted | interrupted" ] ||
	{ cat "$d.out"; fail "scancel --signal=TERM: the results say $(status "$d.json")"; }
[ $rc -eq 143 ] || { cat "$d.out"; fail "scancel --signal=TERM: srun exited $rc, not 143"; }
ok "scancel --signal=TERM: results 'interrupted' written, srun 143"

# ---- SIGTERM to srun: Slurm kills the tasks at once --------------------
start term
kill -TERM $launcher
finish
grep -q 'forcing job termination' "$d.out" || { cat "$d.out"; fail "srun did not force the termination"; }
[ ! -e "$d.json" ] || fail "a results file although srun killed the tasks"
[ $rc -eq 137 ] || { cat "$d.out"; fail "SIGTERM to srun: exit $rc, 137 measured before"; }
ok "SIGTERM to srun: it kills every task at once (no results), exit 137"
