# lib.sh - shared helpers for the end-to-end tests (sourced, not run).
#
# Each test runs the real flowbench binary ($FLOWBENCH, set by `make
# check`) on real files in a fresh temporary directory that is removed at
# exit.  A test prints what it checks and exits non-zero on the first
# mismatch; exit 77 means "skipped" (a tool it needs is missing).

set -eu

: "${FLOWBENCH:?run through make check, or set FLOWBENCH=path/to/flowbench}"
: "${TOP_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
WORKLOADS=$TOP_SRCDIR/workloads

tmp=$(mktemp -d "${TMPDIR:-/tmp}/flowbench-e2e.XXXXXX")
# bg_pids: runs a test started in the background, killed if it fails
# before it waited for them
bg_pids=
trap 'kill_bg; rm -rf "$tmp"' EXIT
kill_bg() {
	for p in $bg_pids; do
		kill -9 "$p" 2>/dev/null || true
	done
}

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# flowbench compare for its tables: its exit 1 (a later file worse than
# the first beyond a threshold: compare-gate.sh tests the verdict) is
# success here, 2 (usage, an unreadable file) is not.
compare_tables() {
	"$FLOWBENCH" compare "$@" && return 0 || [ $? -eq 1 ]
}

ok() {
	echo "ok: $*"
}

need() {
	command -v "$1" >/dev/null 2>&1 || {
		echo "SKIP: $1 is not installed"
		exit 77
	}
}

# skip_sanitized WHY: skip (77) when $FLOWBENCH is built with a sanitizer,
# for a test a sanitizer adds nothing to (WHY), so that run-all.sh's
# sanitized phase spends its time where the sanitizers look
skip_sanitized() {
	if grep -qE '__(asan|tsan)_init' "$FLOWBENCH"; then
		echo "SKIP: $FLOWBENCH is built with a sanitizer: $1"
		exit 77
	fi
}

# need_plain_build SYMBOL: skip (77) when $FLOWBENCH is built with a
# sanitizer (its interceptors and shadow memory change what valgrind
# counts) or has no symbol SYMBOL (stripped: the counts need it).
need_plain_build() {
	if grep -qE '__(asan|tsan)_init' "$FLOWBENCH"; then
		echo "SKIP: $FLOWBENCH is built with a sanitizer"
		exit 77
	fi
	need nm
	nm "$FLOWBENCH" 2>/dev/null | grep -q " $1\$" ||
		{ echo "SKIP: $FLOWBENCH has no symbols"; exit 77; }
}

# errors_of NAME FLOWOP KIND: KIND's count for FLOWOP on the Errors line
# of $tmp/NAME.out ("Errors: N (f1 3: EIO 2, ENOENT 1; ...)"), 0 if none
errors_of() {
	sed -n "s/.*Errors: .*[(;] *$2 [0-9]*: \\([^;)]*\\).*/\\1/p" "$tmp/$1.out" |
		tr ',' '\n' | sed -n "s/^ *$3 \\([0-9]*\\)$/\\1/p" | head -1 | grep . || echo 0
}

# breakdown_field OUTPUT NAME FIELD: a number from NAME's breakdown line.
# FIELD: ops, opss (ops/s), mbs (mb/s), msop (ms/op), min, max.
breakdown_field() {
	awk -v name="$2" -v field="$3" '
		$1 == name && $2 ~ /ops$/ {
			v["ops"] = $2; v["opss"] = $3; v["mbs"] = $4;
			v["msop"] = $5; v["min"] = $6; v["max"] = $8;
			s = v[field]; gsub(/[^0-9.]/, "", s); print s; exit
		}' "$1"
}

# private_mounts "$@": the rest of the test runs in a private mount
# namespace (as a user namespace's root when not root), where
# mount_tmpfs and mount_readonly make small file systems that go with
# the test; skip (77) where mounting is not permitted.  Call it right
# after sourcing lib.sh: it starts the script again inside the namespace
# (this first $tmp is removed: exec runs no EXIT trap).
private_mounts() {
	if [ -z "${FLOWBENCH_PRIVATE_MOUNTS:-}" ]; then
		export FLOWBENCH_PRIVATE_MOUNTS=1
		for u in "unshare -m" "unshare -rm"; do
			if $u sh -c 'd=$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs "$d" &&
				     umount "$d" && rmdir "$d"' >/dev/null 2>&1; then
				rm -rf "$tmp"
				exec $u sh "$0" "$@"
			fi
		done
		echo "SKIP: cannot mount a tmpfs in a private mount namespace here"
		exit 77
	fi
	mnts=""
	trap 'kill_bg; for m in $mnts; do umount "$m" 2>/dev/null; done; rm -rf "$tmp"' EXIT
}

# mount_tmpfs DIR OPTIONS: a fresh small tmpfs at DIR (private_mounts)
mount_tmpfs() {
	mkdir -p "$1"
	mount -t tmpfs -o "$2" tmpfs "$1" || fail "cannot mount tmpfs at $1"
	mnts="$1 $mnts"
}

# mount_readonly SRC DIR: SRC seen read-only at DIR (private_mounts)
mount_readonly() {
	mkdir -p "$2"
	mount --bind "$1" "$2" && mnts="$2 $mnts" && mount -o remount,bind,ro "$2" ||
		fail "cannot make a read-only bind mount"
}

# run_named NAME ARGS...: flowbench run ARGS, its output in $tmp/NAME.out,
# its status in $rc; never more than 120 s (a hang fails the test: a
# ceiling far above what any run of the suite takes on a loaded machine)
run_named() {
	name=$1
	shift
	rc=0
	timeout 120 "$FLOWBENCH" run "$@" >"$tmp/$name.out" 2>&1 || rc=$?
	[ "$rc" -ne 124 ] || { cat "$tmp/$name.out"; fail "$name: hung (killed after 120 s)"; }
}

# expect_failed NAME PATTERN...: run_named NAME ended with status 1 and
# every pattern is in its output
expect_failed() {
	name=$1
	shift
	[ "$rc" -eq 1 ] || { cat "$tmp/$name.out"; fail "$name: status $rc, not 1"; }
	for pat in "$@"; do
		grep -q -- "$pat" "$tmp/$name.out" ||
			{ cat "$tmp/$name.out"; fail "$name: no '$pat' in the output"; }
	done
}

# Waiting for events, not moments.  A test that acts on a running run
# waits until the run says it is running (its "Running..." line: the
# threads are released) and makes the run last until it has acted (a
# long run time that the test's action or its signal ends); a test never
# sleeps for a run to reach a state.  The limits below are ceilings for
# a hang, far above what a loaded machine takes, never a moment a check
# depends on.

# alive PID: PID runs (a zombie, exited but not yet waited for by this
# shell, does not)
alive() {
	[ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

# wait_for SECONDS WHAT COMMAND...: poll COMMAND every 0.05 s until it
# succeeds; return 1 (WHAT: for the reader) after SECONDS
wait_for() {
	wf_end=$(($(date +%s) + $1))
	shift 2
	until "$@"; do
		[ "$(date +%s)" -lt "$wf_end" ] || return 1
		sleep 0.05
	done
}

# wait_running OUT PID: until the run PID, its output in OUT, logged
# "Running..." (at most 120 s); fail with its output if it ended first
wait_running() {
	if ! wait_for 120 "Running" running_or_ended "$1" "$2" ||
	   ! grep -q 'Running\.\.\.' "$1"; then
		alive "$2" && kill -9 "$2"
		cat "$1"
		fail "the run (pid $2) never logged Running"
	fi
}
running_or_ended() {
	grep -q 'Running\.\.\.' "$1" 2>/dev/null || ! alive "$2"
}

# wait_end PID SECONDS: until PID ended, its status in $st; after
# SECONDS (a ceiling for a hang) kill it and fail
wait_end() {
	if ! wait_for "$2" "the end of $1" not_alive "$1"; then
		kill -9 "$1" 2>/dev/null
		fail "pid $1 still ran $2 s later"
	fi
	st=0
	wait "$1" || st=$?
}
not_alive() { ! alive "$1"; }

# bg_run NAME ARGS...: flowbench run ARGS in the background, its output
# in $tmp/NAME.out, its pid in $pid (killed if the test fails first)
bg_run() {
	bg_name=$1
	shift
	"$FLOWBENCH" run "$@" >"$tmp/$bg_name.out" 2>&1 &
	pid=$!
	bg_pids="$bg_pids $pid"
}

# intervals OUT: how many "Interval N" lines (--interval) OUT has
intervals() {
	grep -c '^[0-9.]*: Interval [0-9]' "$1" 2>/dev/null || true
}

# wait_ops_after OUT PID N MIN: until the run PID (output OUT, run with
# --interval) logged an interval that began after OUT had N interval
# lines (number N + 2 or later) at MIN ops/s or more: it did ops after
# the moment N was counted.  Fails if the run ends first (or after 120 s).
wait_ops_after() {
	wait_for 120 "ops after interval $3" ops_after_or_ended "$@" &&
		ops_after "$1" "$3" "$4" ||
		{ kill -9 "$2" 2>/dev/null; cat "$1"; fail "no interval after $3 at $4 ops/s or more"; }
}
ops_after() {
	awk -v n="$2" -v min="$3" '$2 == "Interval" && $3 + 0 >= n + 2 &&
		$6 + 0 >= min { found = 1 } END { exit !found }' "$1"
}
ops_after_or_ended() {
	ops_after "$1" "$3" "$4" || ! alive "$2"
}

# wait_intervals OUT PID N: until the run PID (output OUT, --interval)
# logged N interval lines: its own clock says it ran N intervals (for
# runs whose ops the interval lines do not count, as delays)
wait_intervals() {
	wait_for 120 "interval $3" intervals_or_ended "$@" && [ "$(intervals "$1")" -ge "$3" ] ||
		{ kill -9 "$2" 2>/dev/null; cat "$1"; fail "the run (pid $2) did not log $3 intervals"; }
}
intervals_or_ended() {
	[ "$(intervals "$1")" -ge "$3" ] || ! alive "$2"
}
