#!/bin/sh
# phases.sh - run phases, flowbench's extension of `define process`
# (after=, startdelay=, runtime=), on real files:
#  1. after=: b's first pread comes after a's last pwrite (strace), and
#     both processes' counts are exact;
#  2. startdelay=1: the process's first op is at least 1 s after the
#     release (the master's FUTEX_WAKE of the start barrier, in strace);
#  3. runtime=1 in a `run 3`: the process's ops stop 1 s after its first
#     one while the other process's go on, and its ops/s is its count
#     over its own window (results JSON), the other's over the run;
#  4. alldone: the run ends when the last phase ends;
#  5. SIGINT while processes wait (after=, startdelay=) ends the run at
#     once with the usual interrupted output;
#  6. a process killed (SIGKILL) while another waits for it: its threads
#     never end, yet the waiting one is woken when the run fails.
. "$(dirname "$0")/lib.sh"
need strace
need python3

# LeakSanitizer cannot run under ptrace; leaks are checked without it
traced() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -ff -qq -ttt -s 0 -e trace=execve,futex,pread64,pwrite64 \
		-o "$tmp/$1.trace" "$FLOWBENCH" run "$tmp/$1.f" --cache keep \
		--output "$tmp/$1.json" >"$tmp/$1.out" 2>&1 ||
		{ cat "$tmp/$1.out"; fail "$1: flowbench under strace failed"; }
}

# The timestamps of every call of $2 of $3 bytes, in every trace of $1,
# sorted (-ff: one file per thread, each line "TIME call(fd, "", size, off) = size").
stamps() {
	cat "$tmp/$1.trace".* | awk -v call="$2" -v size="$3" '
		index($2, call "(") == 1 && $(NF) == size { print $1 }' | sort -n
}

# The release: the master (the trace with the execve) wakes every thread
# at the start barrier, its first FUTEX_WAKE of all waiters.
release() {
	grep -l 'execve(' "$tmp/$1.trace".* | xargs grep -h 'FUTEX_WAKE, 2147483647' |
		head -1 | awk '{ print $1 }'
}

# json FILE EXPR: a Python expression over r (the results file's first run)
json() {
	python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['runs'][0]; print($2)" "$1"
}

# ---- 1. after= ----------------------------------------------------------
cat >"$tmp/after.f" <<W
define file name=fa,path=$tmp,size=1m,prealloc
define file name=fb,path=$tmp,size=1m,prealloc
define process name=a
{
  thread name=ta
  {
    flowop write name=wa,filename=fa,iosize=12k
    flowop finishoncount name=fina,value=50
  }
}
define process name=b,after=a
{
  thread name=tb
  {
    flowop read name=rb,filename=fb,iosize=20k
    flowop finishoncount name=finb,value=30
  }
}
run 30
W
traced after
last_w=$(stamps after pwrite64 12288 | tail -1)
first_r=$(stamps after pread64 20480 | head -1)
[ -n "$last_w" ] && [ -n "$first_r" ] || fail "after: no pwrite of a or pread of b in the trace"
python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) > float(sys.argv[1]) else 1)" \
	"$last_w" "$first_r" ||
	fail "after: b's first pread ($first_r) is not after a's last pwrite ($last_w)"
ok "after=a: b's first pread $first_r after a's last pwrite $last_w"
[ "$(stamps after pwrite64 12288 | wc -l)" -eq 50 ] || fail "after: a made $(stamps after pwrite64 12288 | wc -l) pwrites, not 50"
[ "$(stamps after pread64 20480 | wc -l)" -eq 30 ] || fail "after: b made $(stamps after pread64 20480 | wc -l) preads, not 30"
[ "$(breakdown_field "$tmp/after.out" wa ops)" -eq 50 ] || fail "after: wa's count: $(cat "$tmp/after.out")"
[ "$(breakdown_field "$tmp/after.out" rb ops)" -eq 30 ] || fail "after: rb's count: $(cat "$tmp/after.out")"
grep -q "Phase b: [0-9.]* s - [0-9.]* s ([0-9.]* s)" "$tmp/after.out" ||
	fail "after: no 'Phase b' line: $(cat "$tmp/after.out")"
# both phases ended by their limits: the run ended then, not at 30 s
# (80 ops: 20 s is a ceiling)
[ "$(json "$tmp/after.json" "r['elapsed_s'] < 20")" = True ] ||
	fail "after: the run did not end with its last phase"
ok "after=a: 50 pwrites then 30 preads, as reported; the run ended with the last phase"

# ---- 2. startdelay= -----------------------------------------------------
cat >"$tmp/delay.f" <<W
define file name=fa,path=$tmp,size=1m,prealloc
define process name=now
{
  thread name=tn
  {
    flowop read name=rn,filename=fa,iosize=12k
    flowop finishoncount name=finn,value=20
  }
}
define process name=late,startdelay=1
{
  thread name=tl
  {
    flowop read name=rl,filename=fa,iosize=20k
    flowop finishoncount name=finl,value=20
  }
}
run 30
W
traced delay
rel=$(release delay)
first_late=$(stamps delay pread64 20480 | head -1)
first_now=$(stamps delay pread64 12288 | head -1)
[ -n "$rel" ] && [ -n "$first_late" ] && [ -n "$first_now" ] ||
	fail "startdelay: no release or no pread in the trace"
python3 - "$rel" "$first_now" "$first_late" <<'PY' || fail "startdelay: the delayed process started too early"
import sys
rel, now, late = map(float, sys.argv[1:])
print("release %.6f, first op of 'now' +%.6f s, of 'late' +%.6f s" % (rel, now - rel, late - rel))
assert now >= rel and late - rel >= 1.0
PY
[ "$(json "$tmp/delay.json" "r['phases'][0]['start_s'] >= 1.0")" = True ] ||
	fail "startdelay: the results' phase starts before 1 s"
[ "$(breakdown_field "$tmp/delay.out" rl ops)" -eq 20 ] || fail "startdelay: rl's count: $(cat "$tmp/delay.out")"
ok "startdelay=1: the first op at least 1 s after the release"

# ---- 3. runtime= --------------------------------------------------------
cat >"$tmp/runtime.f" <<W
define file name=fa,path=$tmp,size=1m,prealloc
define process name=short,runtime=1
{
  thread name=ts
  {
    flowop read name=rs,filename=fa,iosize=20k
    flowop delay name=naps,value=0.001
  }
}
define process name=long
{
  thread name=tl
  {
    flowop read name=rl,filename=fa,iosize=12k
    flowop delay name=napl,value=0.001
  }
}
run 3
W
traced runtime
stamps runtime pread64 20480 >"$tmp/short.stamps"
python3 - "$tmp/short.stamps" "$(stamps runtime pread64 12288 | tail -1)" <<'PY' || fail "runtime: the short process's ops did not stop at 1 s"
import sys
t = [float(x) for x in open(sys.argv[1])]
other = float(sys.argv[2])
first, last = t[0], t[-1]
gap = max(b - a for a, b in zip(t, t[1:]))
print("short: ops from +0 to +%.3f s (longest gap between two %.3f s); long's last op +%.3f s" %
      (last - first, gap, other - first))
# none starts after its deadline (1 s after its start, at or before its
# first op); it went on to its deadline: its last op is within its
# longest gap between two ops of it (1 ms apart when idle; a loaded
# machine's stalls widen both alike)
assert 1.0 - gap - 0.002 <= last - first <= 1.0 + 0.002
# the long one goes on (`run 3`) after it
assert other > last
PY
ok "runtime=1: its ops stop 1 s after it started, the other process's go on"
# the rates, without strace
"$FLOWBENCH" run "$tmp/runtime.f" --cache keep --output "$tmp/rates.json" >"$tmp/rates.out" 2>&1 ||
	{ cat "$tmp/rates.out"; fail "runtime: flowbench failed"; }
python3 - "$tmp/rates.json" <<'PY' || fail "runtime: rates not over the process's window: $(cat "$tmp/rates.out")"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
ph = {p["process"]: p for p in r["phases"]}
assert list(ph) == ["short"], ph
w = ph["short"]["window_s"]
fo = {f["name"]: f for f in r["flowops"]}
print("short: %d ops in %.4f s -> %.1f ops/s; long: %d ops in %.4f s -> %.1f ops/s" %
      (fo["rs"]["ops"], w, fo["rs"]["ops_per_s"], fo["rl"]["ops"], r["elapsed_s"], fo["rl"]["ops_per_s"]))
assert 0.9 <= w <= 1.0 + 1e-9, w
assert abs(ph["short"]["end_s"] - ph["short"]["start_s"] - w) < 1e-6
assert fo["rs"]["ops"] > 0
assert abs(fo["rs"]["ops_per_s"] - fo["rs"]["ops"] / w) <= 0.01 * fo["rs"]["ops_per_s"]
assert abs(fo["rl"]["ops_per_s"] - fo["rl"]["ops"] / r["elapsed_s"]) <= 0.01 * fo["rl"]["ops_per_s"]
PY
opss=$(breakdown_field "$tmp/rates.out" rs opss)
ops=$(breakdown_field "$tmp/rates.out" rs ops)
win=$(sed -n 's/.*Phase short: .* (\([0-9.]*\) s)$/\1/p' "$tmp/rates.out")
python3 -c "import sys; o,r,w=map(float,sys.argv[1:]); sys.exit(0 if abs(r - o / w) <= 0.01 * r + 1 else 1)" \
	"$ops" "$opss" "$win" || fail "runtime: the breakdown's ops/s $opss is not $ops ops over $win s"
ok "runtime=1: ops/s = its count over its own window (text and results), the other's over the run"

# ---- 4. alldone -----------------------------------------------------------
cat >"$tmp/alldone.f" <<W
set mode quit alldone
define file name=fa,path=$tmp,size=1m,prealloc
define process name=first
{
  thread name=tf
  {
    flowop read name=rf,filename=fa,iosize=12k
    flowop finishoncount name=finf,value=100
  }
}
define process name=second,after=first,runtime=1
{
  thread name=ts
  {
    flowop read name=rs,filename=fa,iosize=20k
    flowop delay name=nap,value=0.001
  }
}
run 30
W
t0=$(date +%s%N)
"$FLOWBENCH" run "$tmp/alldone.f" --cache keep --output "$tmp/alldone.json" >"$tmp/alldone.out" 2>&1 ||
	{ cat "$tmp/alldone.out"; fail "alldone: flowbench failed"; }
t1=$(date +%s%N)
python3 - "$tmp/alldone.json" "$(((t1 - t0) / 1000000))" <<'PY' || fail "alldone: the run did not end with its last phase: $(cat "$tmp/alldone.out")"
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
took_ms = int(sys.argv[2])
ph = r["phases"][0]
print("second: %.3f s - %.3f s; run: %.3f s; flowbench took %d ms" %
      (ph["start_s"], ph["end_s"], r["elapsed_s"], took_ms))
assert ph["process"] == "second" and ph["started"]
# the run ended when the second phase's last thread did
assert abs(r["elapsed_s"] - ph["end_s"]) < 0.05
assert r["elapsed_s"] * 1000 < took_ms < 30000
PY
ok "alldone: the run ends when the last phase ends"

# ---- 5. SIGINT while waiting --------------------------------------------
cat >"$tmp/wait.f" <<W
define process name=forever
{
  thread name=tf
  {
    flowop delay name=nap,value=0.01
  }
}
define process name=next,after=forever
{
  thread name=tn
  {
    flowop delay name=napn,value=0.01
  }
}
define process name=sleepy,startdelay=100
{
  thread name=tz
  {
    flowop delay name=napz,value=0.01
  }
}
run 60
W
setsid "$FLOWBENCH" run "$tmp/wait.f" --output "$tmp/wait.json" >"$tmp/wait.out" 2>&1 &
pid=$!
i=0
until grep -q Running "$tmp/wait.out" 2>/dev/null; do
	i=$((i + 1)); [ $i -le 200 ] || { kill -9 "$pid"; fail "SIGINT: no 'Running': $(cat "$tmp/wait.out")"; }
	sleep 0.1
done
# the waiting workers sleep: no CPU burnt in 0.5 s (a spinning thread
# would use up to 0.5 s; on a loaded machine less, so this sleep is a
# window to measure, not a moment any check waits for)
sleep 0.5
for w in $(pgrep -s "$pid" -f flowbench); do
	[ "$w" -ne "$pid" ] || continue
	ticks=$(awk '{ print $14 + $15 }' "/proc/$w/stat" 2>/dev/null || echo 0)
	[ "$ticks" -lt 20 ] || fail "SIGINT: worker $w used $ticks ticks of CPU while waiting"
done
kill -INT "$pid"
t0=$(date +%s%N)
i=0
while [ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; do
	# a ceiling (the bug held the run 60 s): 10 s
	i=$((i + 1)); [ $i -le 200 ] || { kill -9 "$pid"; fail "SIGINT: still running 10 s after it"; }
	sleep 0.05
done
st=0; wait "$pid" || st=$?
[ "$st" -eq 130 ] || fail "SIGINT: exit status $st: $(cat "$tmp/wait.out")"
grep -q 'partial results' "$tmp/wait.out" || fail "SIGINT: no partial results: $(cat "$tmp/wait.out")"
grep -q 'flowbench: interrupted' "$tmp/wait.out" || fail "SIGINT: no 'interrupted': $(cat "$tmp/wait.out")"
grep -q 'Phase next: not started' "$tmp/wait.out" || fail "SIGINT: 'next' should not have started: $(cat "$tmp/wait.out")"
grep -q 'Phase sleepy: not started' "$tmp/wait.out" || fail "SIGINT: 'sleepy' should not have started"
[ "$(json "$tmp/wait.json" "r['partial']")" = True ] || fail "SIGINT: results not partial"
sleep 0.2
! pgrep -s "$pid" >/dev/null 2>&1 || fail "SIGINT: processes left behind"
ok "SIGINT while processes wait: exit 130 within $((($(date +%s%N) - t0) / 1000000)) ms, partial results, nothing left"

# ---- 6. the process waited for is killed ------------------------------------
setsid "$FLOWBENCH" run "$tmp/wait.f" >"$tmp/kill.out" 2>&1 &
pid=$!
i=0
until grep -q Running "$tmp/kill.out" 2>/dev/null; do
	i=$((i + 1)); [ $i -le 200 ] || { kill -9 "$pid"; fail "kill: no 'Running': $(cat "$tmp/kill.out")"; }
	sleep 0.1
done
# not a moment a check needs: 'forever' runs and 'next' waits from Running on
sleep 0.5
victim=$(pgrep -s "$pid" -x forever || true)
[ -n "$victim" ] || { kill -9 "$pid"; fail "kill: no worker process named 'forever'"; }
kill -KILL "$victim"
i=0
while [ -d "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null; do
	# a ceiling (a waiter never woken holds the run 60 s): 10 s
	i=$((i + 1)); [ $i -le 200 ] || { kill -9 -"$pid" 2>/dev/null || kill -9 "$pid"; fail "kill: still running 10 s after the worker died: $(cat "$tmp/kill.out")"; }
	sleep 0.05
done
st=0; wait "$pid" || st=$?
[ "$st" -eq 1 ] || fail "kill: exit status $st: $(cat "$tmp/kill.out")"
grep -q "worker process 'forever' instance 1 killed by signal 9" "$tmp/kill.out" ||
	fail "kill: the dead worker is not named: $(cat "$tmp/kill.out")"
! grep -q "has not exited" "$tmp/kill.out" || fail "kill: a waiting worker had to be killed: $(cat "$tmp/kill.out")"
sleep 0.2
! pgrep -s "$pid" >/dev/null 2>&1 || fail "kill: processes left behind"
ok "the process waited for killed: the waiting one woken, the run failed at once naming it, nothing left"
