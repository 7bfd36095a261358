#!/bin/sh
# mpi-lost.sh - a rank killed outright (SIGKILL: the OOM killer, a host
# gone) in the middle of a 60 s run.  The survivors' results are merged
# and printed by rank 0, marked partial, the lost rank named, and the
# results file lists it under "lost"; the merged counts are exactly the
# survivors' (their per-rank parts add up to it), the lost rank's are in
# nothing.  Two launchers' behaviours: Open MPI's mpirun, which ends the
# job a second or two after the death (flowbench must report first), and
# one that lets the survivors run on (mpirun --enable-recovery, as srun
# without --kill-on-bad-exit), where flowbench's own probes must find
# the loss within seconds.  Rank 0 itself lost: the survivors notice it
# stopped asking and end.  MPICH's hydra kills every rank at once: there
# is nothing left to report (mpi.sh checks that the job ends).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"
need python3
[ "$rank_var" = OMPI_COMM_WORLD_RANK ] ||
	{ echo "SKIP: the launcher kills every rank at once (MPICH's hydra)"; exit 77; }

# start DIR FLAGS...: a 60 s randomrw on 3 ranks in the background ($job),
# once every rank runs; kill_rank R: SIGKILL to rank R's master, $t0 then
start() {
	d=$1
	shift
	mkdir "$d"
	# shellcheck disable=SC2086
	"$MPIRUN" $mpi_flags "$@" -np 3 "$FBM" run "$WORKLOADS/randomrw.f" --cache keep \
		-D dir="$d" -D filesize=16m -D nthreads=1 -D runtime=60 \
		--output "$d.json" >"$d.out" 2>&1 &
	job=$!
	wait_for 120 "the job's start" job_running "$d" ||
		{ kill $job; cat "$d.out"; fail "the job did not start"; }
	t_running=$(now)
	# not a moment a check needs: the ranks run from Running on
	sleep 1
}
job_running() {
	grep -q 'Running' "$1.out" && [ -n "$(rank_master "$1" 2)" ] || ! alive $job
}
# before_deadline: the job ended ($took s after the kill at $t0) before the
# ranks' 60 s deadline, as far as this shell can tell (from when it saw
# them running): it was the kill that ended it, however loaded the machine
before_deadline() {
	awk -v t="$took" -v l="$(echo "60 - ($t0 - $t_running)" | bc)" 'BEGIN { exit !(t < l) }'
}
kill_rank() {
	victim=$(rank_master "$d" "$1")
	[ -n "$victim" ] || { kill $job; fail "rank $1 was not found"; }
	kill -9 "$victim"
	t0=$(now)
}
# finish: wait for the job; $rc, $took (seconds after the kill)
finish() {
	set +e
	wait $job
	rc=$?
	set -e
	took=$(echo "$(now) - $t0" | bc)
}

# survivors_report WHAT: rank 0 printed and wrote the survivors' merged
# results, rank 1 lost
survivors_report() {
	grep -q 'Clients: 2 of 3 (lost: rank 1 (' "$d.out" ||
		{ cat "$d.out"; fail "$1: no 'Clients: 2 of 3 (lost: rank 1' line"; }
	grep -q 'partial results' "$d.out" || { cat "$d.out"; fail "$1: not marked partial"; }
	grep -q 'IO Summary' "$d.out" || { cat "$d.out"; fail "$1: no IO Summary"; }
	grep -q 'rank 1 (.*) was lost' "$d.out" || { cat "$d.out"; fail "$1: rank 1 not named as lost"; }
	python3 - "$d.json" <<'PY' || { cat "$d.out"; fail "$1: the results file"; }
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
assert run["partial"] is True, "not partial"
assert [l["rank"] for l in run["lost"]] == [1], run["lost"]
ranks = run["ranks"]
assert [k["rank"] for k in ranks] == [0, 2], [k["rank"] for k in ranks]
assert all(k["ops"] > 0 for k in ranks), ranks
assert run["summary"]["ops"] == sum(k["ops"] for k in ranks), \
    (run["summary"]["ops"], [k["ops"] for k in ranks])
for j, f in enumerate(run["flowops"]):
    assert f["ops"] == sum(k["flowops"][j]["ops"] for k in ranks), f["name"]
PY
}

# ---- Open MPI's mpirun ends the job: flowbench reports first ------------
start "$tmp/ompi"
kill_rank 1
finish
[ $rc -ne 0 ] || fail "the job of a killed rank exited 0"
before_deadline || fail "the job took $took s to end after the kill: it ran to its deadline"
survivors_report "mpirun"
ok "rank 1 killed: ended $took s later (exit $rc); ranks 0 and 2 merged, partial, rank 1 listed as lost"

# ---- a launcher that lets the survivors run on: the probes find it -----
# (--enable-recovery: mpirun ends the job only when every rank did, and
# exits 0 whatever they said)
start "$tmp/recover" --enable-recovery
kill_rank 1
finish
# a probe a second, 3 s to answer: found within 4 s, then the roll call
before_deadline || fail "the survivors took $took s to end (runtime 60)"
survivors_report "--enable-recovery"
grep -q 'rank 1 (.*) did not answer a probe in time' "$d.out" ||
	{ cat "$d.out"; fail "the probe's finding is not said"; }
ok "rank 1 killed, survivors left running: found by the probes, ended $took s later; ranks 0 and 2 merged"

# ---- rank 0 lost: the survivors notice it stopped asking, and end -------
start "$tmp/root" --enable-recovery
kill_rank 0
finish
before_deadline || fail "the survivors took $took s to end after rank 0 died: they ran to their deadline"
grep -q 'rank 0 (.*) stopped asking .* lost; no rank can report the merged results' "$d.out" ||
	{ cat "$d.out"; fail "the survivors do not say rank 0 was lost"; }
[ ! -e "$d.json" ] || fail "a results file appeared without rank 0"
ok "rank 0 killed, survivors left running: they say so and end $took s later"
