#!/bin/sh
# mpi-fail.sh - failures of a flowbench-mpi job (3 ranks) as
# docs/distributed.md says, under the launcher of the MPI it was built
# with (Open MPI's mpirun or MPICH's mpiexec; mpi-cleanup.sh: a rank that
# cannot start):
# - SIGINT and SIGTERM to the launcher: the results so far are written,
#   status "interrupted"; the launcher's exit status as measured (Open
#   MPI's mpirun 1, MPICH's mpiexec 130/143);
# - a rank killed with SIGKILL: Open MPI's mpirun exits 137 after rank 0
#   wrote the survivors' results ("failed"); with --enable-recovery
#   mpirun exits 0 whatever the ranks say (the launcher's rule), while
#   each survivor exits 1 and the results say "failed"; MPICH's mpiexec
#   kills every rank and exits 9, with no results.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"
need python3

# job DIR [LAUNCHER FLAGS...]: 3 ranks of a 60 s randomrw in DIR, in the
# background ($job), output in DIR.out, results in DIR.json
job() {
	d=$1
	shift
	mkdir -p "$d"
	# shellcheck disable=SC2086
	"$MPIRUN" $mpi_flags "$@" -np 3 ${wrap:-} "$FBM" run "$WORKLOADS/randomrw.f" --cache warm \
		-D dir="$d" -D filesize=16m -D nthreads=1 -D runtime=60 --output "$d.json" \
		>"$d.out" 2>&1 &
	job=$!
	bg_pids="$bg_pids $job"
	wait_for 120 "Running" running "$d" || { cat "$d.out"; fail "the job did not start"; }
	grep -q Running "$d.out" || { cat "$d.out"; fail "the job ended before it ran"; }
}
running() { grep -q 'Running' "$1.out" || ! alive $job; }
# finish: wait for the job, $rc its status
finish() {
	set +e
	wait $job
	rc=$?
	set -e
}
# status FILE: the results file's status and error, one line
status() { python3 -c 'import json, sys; a = json.load(open(sys.argv[1])); print(a["status"], "|", a["error"])' "$1"; }
# master R DIR: rank R's master (its command is flowbench-mpi itself, its
# parent not a flowbench-mpi), by the launcher's rank variable
master() {
	for p in $(pgrep -x flowbench-mpi || true); do
		grep -q "$2" "/proc/$p/cmdline" 2>/dev/null || continue
		r=$(tr '\0' '\n' 2>/dev/null <"/proc/$p/environ" | sed -n "s/^$rank_var=//p")
		parent=$(ps -o comm= -p "$(ps -o ppid= -p "$p" | tr -d ' ')" 2>/dev/null || true)
		[ "$r" = "$1" ] && [ "$parent" != flowbench-mpi ] && echo "$p" && return
	done
	true
}

# ---- SIGINT and SIGTERM to the launcher ---------------------------------
if [ "$rank_var" = OMPI_COMM_WORLD_RANK ]; then
	launcher="Open MPI's mpirun" want_int=1 want_term=1
else
	launcher="MPICH's mpiexec" want_int=130 want_term=143
fi
for sig in INT TERM; do
	job "$tmp/sig$sig"
	kill -$sig $job
	finish
	[ "$(status "$tmp/sig$sig.json")" = "interrupted | interrupted" ] ||
		{ cat "$tmp/sig$sig.out"; fail "SIG$sig: the results say $(status "$tmp/sig$sig.json")"; }
	eval want=\$want_$(echo $sig | tr 'A-Z' 'a-z')
	[ $rc -eq "$want" ] || { cat "$tmp/sig$sig.out"; fail "SIG$sig to $launcher: exit $rc, measured $want before"; }
	ok "SIG$sig to $launcher: results 'interrupted' written, exit $rc"
done

# ---- a rank killed with SIGKILL ----------------------------------------
if [ "$rank_var" = OMPI_COMM_WORLD_RANK ]; then
	job "$tmp/kill"
	kill -9 "$(master 1 "$tmp/kill")"
	finish
	status "$tmp/kill.json" | grep -q '^failed | rank 1 (.*) was lost' ||
		{ cat "$tmp/kill.out"; fail "kill -9 under mpirun: the results say $(status "$tmp/kill.json")"; }
	[ $rc -eq 137 ] || { cat "$tmp/kill.out"; fail "kill -9 under mpirun: exit $rc, not 137"; }
	ok "rank 1 killed under mpirun: results 'failed' naming it, mpirun exits 137 (the killed rank's)"

	# each rank's own exit status, through a wrapper that outlives it
	cat >"$tmp/wrap" <<EOF
#!/bin/sh
trap '' INT TERM
"\$@"
echo "\$$rank_var \$?" >>"$tmp/statuses"
EOF
	chmod +x "$tmp/wrap"
	wrap=$tmp/wrap job "$tmp/recover" --enable-recovery
	kill -9 "$(master 1 "$tmp/recover")"
	finish
	status "$tmp/recover.json" | grep -q '^failed | rank 1 (.*) was lost' ||
		{ cat "$tmp/recover.out"; fail "--enable-recovery: the results say $(status "$tmp/recover.json")"; }
	wait_for 10 "the survivors' statuses" test "$(wc -l <"$tmp/statuses")" -ge 3 || true
	[ "$(sort "$tmp/statuses" | tr '\n' ' ')" = "0 1 1 137 2 1 " ] ||
		{ cat "$tmp/statuses"; fail "--enable-recovery: the ranks' statuses are not 1 (survivors) and 137"; }
	[ $rc -eq 0 ] || fail "--enable-recovery: mpirun exited $rc; it exited 0 whatever the ranks said when measured"
	ok "--enable-recovery: results 'failed', survivors exit 1, mpirun 0 (its rule: docs/distributed.md)"
else
	job "$tmp/kill"
	kill -9 "$(master 1 "$tmp/kill")"
	finish
	[ ! -e "$tmp/kill.json" ] || fail "a results file after hydra killed every rank"
	[ $rc -eq 9 ] || { cat "$tmp/kill.out"; fail "kill -9 under mpiexec: exit $rc, not 9"; }
	grep -q 'Killed (signal 9)' "$tmp/kill.out" || { cat "$tmp/kill.out"; fail "hydra did not say"; }
	ok "rank 1 killed under MPICH's mpiexec: every rank killed, exit 9, no results"
fi
