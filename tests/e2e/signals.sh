#!/bin/sh
# signals.sh - interrupts and dead workers end a run cleanly:
#  - SIGINT / SIGTERM: the run stops within a second, the results so far
#    are printed and written (the run marked partial, status interrupted),
#    exit 130 / 143, and no worker process is left;
#  - a second SIGINT exits at once;
#  - a worker killed by a signal is named (process and instance) within a
#    second, even while other threads sleep in block, semblock or an event
#    limit; the run ends with the results so far and exit 1.
. "$(dirname "$0")/lib.sh"
need python3

# start flowbench in the background in its own process group
start() {
	out=$1; shift
	setsid "$FLOWBENCH" run "$@" >"$out" 2>&1 &
	pid=$!
}
# wait_log FILE TEXT: until TEXT appears (at most 20 s)
wait_log() {
	i=0
	until grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1)); [ $i -le 200 ] || fail "no '$2' in $1: $(cat "$1")"
		sleep 0.1
	done
}
# wait_exit PID MAX_S: st = its exit status; fail if still running after
# MAX_S (a zombie counts as exited: its parent, this shell, has not waited)
wait_exit() {
	i=0
	while [ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; do
		i=$((i + 1))
		[ $i -le $(($2 * 20)) ] || { kill -9 "$1"; fail "still running $2 s after the signal"; }
		sleep 0.05
	done
	st=0; wait "$1" || st=$?
}
no_workers_left() {
	sleep 0.2
	if pgrep -s "$1" >/dev/null 2>&1; then
		pgrep -a -s "$1" >&2; fail "processes left behind after $2"
	fi
}

rw="$WORKLOADS/randomrw.f --cache warm -D dir=$tmp -D filesize=8m -D nthreads=2"

for sig in INT TERM; do
	want=$([ $sig = INT ] && echo 130 || echo 143)
	# shellcheck disable=SC2086
	start "$tmp/$sig.out" $rw --runtime 60 --output "$tmp/$sig.json"
	wait_log "$tmp/$sig.out" 'Running'
	sleep 1
	kill -$sig "$pid"
	wait_exit "$pid" 2
	[ "$st" -eq "$want" ] || fail "SIG$sig: exit status $st, not $want: $(cat "$tmp/$sig.out")"
	grep -q 'partial results' "$tmp/$sig.out" || fail "SIG$sig: no partial results: $(cat "$tmp/$sig.out")"
	[ "$(breakdown_field "$tmp/$sig.out" rand-read1 ops)" -gt 0 ] || fail "SIG$sig: no ops in the partial results"
	grep -q 'IO Summary' "$tmp/$sig.out" || fail "SIG$sig: no IO Summary"
	python3 - "$tmp/$sig.json" <<'PY' || fail "SIG$sig: results file not marked interrupted/partial"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "interrupted", r["status"]
assert len(r["runs"]) == 1 and r["runs"][0]["partial"] is True
assert r["runs"][0]["flowops"][0]["ops"] > 0
assert 0.5 < r["runs"][0]["elapsed_s"] < 10, r["runs"][0]["elapsed_s"]
PY
	no_workers_left "$pid" "SIG$sig"
	ok "SIG$sig: stopped within 2 s, partial results printed and written, exit $want, no process left"
done

# a second SIGINT while the first is being handled: exit at once.  Make
# the first one slow to handle: a thread stuck in a 30 s delay... the
# master waits for workers, so the second interrupt must cut that short.
cat >"$tmp/slow.f" <<W
define process name=sleeper {
  thread name=t {
    flowop delay name=nap, value=30
  }
}
run 60
W
start "$tmp/second.out" "$tmp/slow.f"
wait_log "$tmp/second.out" 'Running'
kill -INT "$pid"
sleep 0.3
kill -INT "$pid" 2>/dev/null || true
wait_exit "$pid" 2
[ "$st" -eq 130 ] || fail "second SIGINT: exit status $st: $(cat "$tmp/second.out")"
no_workers_left "$pid" "a second SIGINT"
ok "a second SIGINT exits at once (130), no process left"

# a worker dies while the other threads sleep in block, semblock and
# eventlimit: named within a second, results so far, exit 1
cat >"$tmp/dead.f" <<W
eventgen rate=1
define process name=victim {
  thread name=v {
    flowop delay name=tick, value=0.01
  }
}
define process name=sleepers {
  thread name=b {
    flowop block name=blk
  }
  thread name=s {
    flowop semblock name=sem, value=1
  }
  thread name=e {
    flowop eventlimit name=ev
  }
}
run 60
W
start "$tmp/dead.out" "$tmp/dead.f" --output "$tmp/dead.json"
wait_log "$tmp/dead.out" 'Running'
sleep 0.5
vpid=$(pgrep -s "$pid" -x victim | head -1)
[ -n "$vpid" ] || fail "no 'victim' worker process found"
kill -KILL "$vpid"
wait_exit "$pid" 2
[ "$st" -eq 1 ] || fail "dead worker: exit status $st, not 1: $(cat "$tmp/dead.out")"
grep -q "worker process 'victim' instance 1 killed by signal 9" "$tmp/dead.out" ||
	fail "the dead worker is not named: $(cat "$tmp/dead.out")"
grep -q 'partial results' "$tmp/dead.out" || fail "no partial results after a dead worker"
[ "$(breakdown_field "$tmp/dead.out" tick ops)" -gt 0 ] || fail "the dead worker's ops are lost"
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["status"] == "failed" and r["runs"][0]["partial"] and "victim" in r["error"], r["error"]' "$tmp/dead.json" ||
	fail "results file after a dead worker"
no_workers_left "$pid" "a dead worker"
ok "a killed worker is named, sleepers in block/semblock/eventlimit woken, partial results, exit 1"
