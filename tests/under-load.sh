#!/bin/sh
# under-load.sh - the test suite, N rounds in a row, on a machine kept
# busy by stress-ng (issue 23: the suite must hold under any load: its
# tests wait for events, never for moments; tests/e2e/lib.sh).
#
#   sh tests/under-load.sh [--rounds N] [--stress 'STRESS-NG ARGS']
#                          [--build DIR [TEST...]] [-- RUN-ALL ARGS...]
#
# Starts `stress-ng --cpu 4 --io 2 --timeout 0` (or --stress's
# arguments) in its own process group, runs each round, stops stress-ng
# (also when interrupted), and prints one line per round, "round I: PASS"
# or "round I: FAIL", then "N of N rounds passed"; exit 0 only if all
# passed.  A round is `sh tests/run-all.sh RUN-ALL ARGS` (its summary
# line shown), or with --build DIR, `make check` in that configured build
# directory, of the TESTs only when given (tests/e2e/attack.sh ...).
# Each round's output is in under-load.I.log in the current directory.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=3
stress="--cpu 4 --io 2"
build=
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--stress) stress=$2; shift 2 ;;
	--build) build=$2; shift 2; break ;;
	--) shift; break ;;
	*) echo "under-load.sh: unknown option $1" >&2; exit 2 ;;
	esac
done
command -v stress-ng >/dev/null 2>&1 ||
	{ echo "under-load.sh: stress-ng is not installed (apt-get install stress-ng)" >&2; exit 77; }

spid=
stop_stress() {
	if [ -n "$spid" ]; then
		kill -TERM "-$spid" 2>/dev/null || true
		wait "$spid" 2>/dev/null || true
		spid=
	fi
}
trap 'stop_stress' EXIT
trap 'stop_stress; exit 130' INT TERM
# shellcheck disable=SC2086
setsid stress-ng $stress --timeout 0 >/dev/null 2>&1 &
spid=$!
echo "stress-ng $stress (process group $spid); $(nproc) CPUs"

passed=0
i=1
while [ "$i" -le "$rounds" ]; do
	log=$PWD/under-load.$i.log
	rc=0
	if [ -n "$build" ]; then
		if [ $# -gt 0 ]; then
			(cd "$build" && make -s check VERBOSE=1 TESTS="$*") >"$log" 2>&1 || rc=$?
		else
			(cd "$build" && make -s check VERBOSE=1) >"$log" 2>&1 || rc=$?
		fi
		summary=$(grep -E '^# (PASS|FAIL|ERROR|SKIP):' "$log" | head -4 | tr -s ' ' | tr '\n' ' ' || true)
	else
		sh "$top/tests/run-all.sh" "$@" >"$log" 2>&1 || rc=$?
		summary=$(tail -1 "$log")
	fi
	load=$(cut -d' ' -f1-3 /proc/loadavg)
	if [ $rc -eq 0 ]; then
		echo "round $i: PASS ($summary; load $load)"
		passed=$((passed + 1))
	else
		echo "round $i: FAIL ($summary; load $load; see $log)"
		grep -E '^FAIL' "$log" | head -20 || true
	fi
	i=$((i + 1))
done
stop_stress
echo "$passed of $rounds rounds passed"
[ "$passed" -eq "$rounds" ]
