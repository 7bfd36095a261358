#!/bin/sh
# warmup.sh - --warmup runs the workload first without recording: the
# measured window is --runtime long, every pread/pwrite made is either
# recorded, a warm-up op, or ended after the deadline (strace), and a run
# that ends during the warm-up is an error, not zero-op results.  Also the
# live status line: shown on a terminal (script(1) gives one), never in
# redirected output.
. "$(dirname "$0")/lib.sh"
need strace
need python3

out=$tmp/out
trace=$tmp/strace
"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp" \
	-D filesize=16m -D nthreads=1 --runtime 1 >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "first run failed"; }

ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -ff -qq -s 0 -e trace=pread64,pwrite64 -o "$trace" \
	"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp" \
	-D filesize=16m -D nthreads=1 --runtime 2 --warmup 1 \
	--output "$tmp/r.json" >"$out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$out"; fail "flowbench --warmup under strace failed"; }

calls=$(cat "$trace".* | grep -cE '^p(read|write)64\([0-9]+, .*, 8192, [0-9]+\) += 8192$' || true)
reads=$(breakdown_field "$out" rand-read1 ops)
writes=$(breakdown_field "$out" rand-write1 ops)
late=$(sed -n 's/.*Not counted: \([0-9][0-9]*\) op.*/\1/p' "$out" | head -1 | grep . || echo 0)
warm=$(sed -n 's/.*Warm-up: .* s, \([0-9][0-9]*\) ops* not recorded.*/\1/p' "$out" | grep . ||
	fail "no warm-up line: $(cat "$out")")
echo "strace: $calls calls; reported: $reads + $writes recorded, $warm warm-up, $late late"
[ "$warm" -gt 0 ] && [ "$reads" -gt 0 ] && [ "$writes" -gt 0 ] || fail "nothing recorded or warmed up"
[ $((reads + writes + warm + late)) -eq "$calls" ] ||
	fail "recorded $reads + $writes + warm-up $warm + late $late != $calls system calls"
ok "every system call is recorded, a warm-up op, or late"

python3 - "$tmp/r.json" <<'PY' || fail "the results file does not describe the warm-up"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["warmup_s"] == 1, r["warmup_s"]
assert abs(r["runs"][0]["elapsed_s"] - 2) < 1e-6, r["runs"][0]["elapsed_s"]
PY
grep -q 'Run took 2 seconds' "$out" || fail "the measured window is not --runtime long"
ok "the measured window is --runtime (2 s) after a 1 s warm-up"

# a run that ends (finishoncount) while warming up: an error, exit 1
cat >"$tmp/short.f" <<F
define file name=f1,path=$tmp,size=1m,prealloc
define process name=p {
  thread name=t {
    flowop read name=r1,filename=f1,iosize=4k
    flowop finishoncount name=fin,value=10
  }
}
run 5
F
st=0
"$FLOWBENCH" run "$tmp/short.f" --cache keep --warmup 2 >"$out" 2>&1 || st=$?
[ "$st" -eq 1 ] || fail "a run ending during the warm-up exited $st: $(cat "$out")"
grep -q 'ended during the warm-up' "$out" || fail "no clear error: $(cat "$out")"
ok "a run that ends during the warm-up is an error"

# the status line: on a terminal only
if command -v script >/dev/null 2>&1; then
	script -qec "\"$FLOWBENCH\" run \"$WORKLOADS/randomrw.f\" --cache keep -D dir=\"$tmp\" -D filesize=16m -D nthreads=1 --runtime 2 --warmup 1" /dev/null >"$tmp/tty" 2>&1 ||
		fail "run under script(1) failed: $(cat "$tmp/tty")"
	grep -aq 'warming up: ' "$tmp/tty" || fail "no warm-up status on a terminal"
	grep -aEq 'running: [0-9]+/2 s, [0-9]+ s left, [0-9]+ ops/s' "$tmp/tty" ||
		fail "no running status on a terminal: $(cat -v "$tmp/tty")"
	ok "status line shown on a terminal"
fi
"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp" \
	-D filesize=16m -D nthreads=1 --runtime 2 --warmup 1 >"$out" 2>&1 </dev/null ||
	fail "plain run failed"
if grep -aEq 'running: |warming up: ' "$out" || grep -aq "$(printf '\r')" "$out"; then
	fail "status line written to a non-terminal"
fi
ok "no status line when output is not a terminal"
