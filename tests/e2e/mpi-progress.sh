#!/bin/sh
# mpi-progress.sh - rank 0 says what it waits for (3 ranks under a real
# mpirun): rank 2 is held before it prepares its files (a `system`
# action that waits for a gate file), and rank 0's stderr says, within a
# few seconds and then at most every 10 s, that 2 of 3 ranks are there
# and names rank 2; once the gate opens the job runs to its end, and no
# rank but 0 printed such a line.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"

cat >"$tmp/gate.f" <<'EOF'
system "test $rank != 2 || while [ ! -e $gate ]; do sleep 0.05; done"
define file name=f,path=$dir,size=1m,prealloc
define process name=p {
  thread name=t {
    flowop read name=rd,filename=f,iosize=8k
  }
}
run 1
EOF
mkdir "$tmp/d"
t0=$(date +%s)
# shellcheck disable=SC2086
timeout 300 "$MPIRUN" $mpi_flags -np 3 "$FBM" run "$tmp/gate.f" --allow-system --cache warm \
	-D dir="$tmp/d" -D gate="$tmp/gate" >"$tmp/out" 2>"$tmp/err" &
job=$!
bg_pids=$job
said() { grep -q 'waiting .* for the other ranks to prepare their files: 2 of 3 there; still waiting for rank 2$' "$tmp/err"; }
wait_for 120 "the progress line" said || { cat "$tmp/err"; fail "rank 0 said nothing while rank 2 was held"; }
# a modest rate: hold rank 2 a little longer, then count the lines
sleep 3
touch "$tmp/gate"
wait $job || { cat "$tmp/err" "$tmp/out"; fail "the job failed once the gate opened"; }
held=$(($(date +%s) - t0))
lines=$(grep -c 'waiting .* for the other ranks' "$tmp/err")
[ "$lines" -le $((held / 10 + 2)) ] || { cat "$tmp/err"; fail "$lines progress lines in $held s: too many"; }
grep -q 'waiting .*rank [01]' "$tmp/err" && fail "rank 0 named a rank that was there"
grep 'waiting' "$tmp/err" | grep -q 'flowbench: rank' && fail "a rank other than 0 printed progress"
grep -q '^Clients: 3,' "$tmp/out" || { cat "$tmp/out"; fail "no merged result after the wait"; }
ok "rank 0 said '$(grep -m1 waiting "$tmp/err" | sed 's/^[0-9.]*: //')' ($lines line(s) in $held s), then the job ran"
