#!/bin/sh
# killwait.sh - a worker that SIGKILL does not end at once is waited for,
# since until it is gone it holds the fileset's lock.  On a machine at
# load 36 a worker killed with io_uring writes in flight took over 0.4 s
# to die; flowbench abandoned it at 0.4 s and exited, and the next run on
# the same tree was refused ("another flowbench run is using it").
#
# A worker that cannot die on cue: its thread writes to ext4 on a loop
# device, the file system is frozen (fsfreeze), so the next write sleeps
# uninterruptibly in the freeze (state D) and SIGKILL waits with it.
# Then:
#  - SIGINT: after the 0.25 s grace the worker is killed, and 1 s later
#    flowbench says it is waiting for it ("has not died 1 s after
#    SIGKILL ... waiting up to 10 s") and is still running; thawing the
#    file system lets the worker die, flowbench exits 130 at once, no
#    process of the run is left and a new run takes the same tree;
#  - a second SIGINT while it waits exits at once (130), the worker
#    still frozen (it dies when the file system thaws).
# Skipped (77) without root, loop devices, mkfs.ext4 or fsfreeze.
. "$(dirname "$0")/lib.sh"
private_mounts "$@"
need mkfs.ext4
need fsfreeze
[ "$(id -u)" -eq 0 ] || { echo "SKIP: needs root (a loop device)"; exit 77; }

mkdir -p "$tmp/fs"
truncate -s 64M "$tmp/fs.img"
mkfs.ext4 -q -F "$tmp/fs.img" >/dev/null 2>&1 || fail "mkfs.ext4"
if ! mount -o loop "$tmp/fs.img" "$tmp/fs" 2>"$tmp/mount.err"; then
	echo "SKIP: cannot mount a loop device here: $(cat "$tmp/mount.err")"
	exit 77
fi
mnts="$tmp/fs $mnts"
# thaw on every way out: a frozen file system cannot be unmounted
trap 'fsfreeze -u "$tmp/fs" 2>/dev/null || true; kill_bg; for m in $mnts; do umount "$m" 2>/dev/null || true; done; rm -rf "$tmp"' EXIT

cat >"$tmp/w.f" <<EOT
define file name=f,path=$tmp/fs/d,size=1m,prealloc,reuse
define process name=p { thread name=t {
  flowop write name=wr,filename=f,iosize=4k,random
} }
run 120
EOT

# frozen_worker PID: a thread of the run's worker 'p' sleeps in state D
frozen_worker() {
	for w in $(pgrep -s "$1" -x p); do
		grep -qs '^State:.*D' /proc/"$w"/task/*/status && return 0
	done
	return 1
}
# noticed OUT: flowbench said it waits for the killed worker
noticed() {
	grep -q "has not died 1 s after SIGKILL.*waiting up to 10 s for it" "$1"
}

# interrupted_frozen NAME: a run (output $tmp/NAME.out, pid $pid, its own
# session) whose worker the freeze holds in state D, sent SIGINT, until
# it says it waits for the killed worker
interrupted_frozen() {
	setsid "$FLOWBENCH" run "$tmp/w.f" --cache keep >"$tmp/$1.out" 2>&1 &
	pid=$!
	bg_pids="$bg_pids $pid"
	wait_running "$tmp/$1.out" $pid
	fsfreeze -f "$tmp/fs" || fail "fsfreeze -f"
	wait_for 60 "a frozen worker" frozen_worker $pid ||
		{ fsfreeze -u "$tmp/fs"; fail "no worker thread in state D after the freeze"; }
	kill -INT $pid
	wait_for 60 "the notice" noticed "$tmp/$1.out" ||
		{ fsfreeze -u "$tmp/fs"; cat "$tmp/$1.out"; fail "no 'has not died 1 s after SIGKILL' notice"; }
}

# ---- SIGINT, the worker frozen: waited for, then a clean exit --------
interrupted_frozen a
alive $pid || { fsfreeze -u "$tmp/fs"; cat "$tmp/a.out"; fail "flowbench exited before its worker died"; }
ok "SIGINT with the worker frozen: killed, then waited for ('has not died 1 s after SIGKILL; waiting up to 10 s')"
fsfreeze -u "$tmp/fs"
wait_end $pid 60
[ "$st" -eq 130 ] || { cat "$tmp/a.out"; fail "status $st after the thaw, not 130"; }
pgrep -s $pid >/dev/null && fail "processes of the run are left: $(pgrep -s $pid)"
grep -q "did not die .* flowbench exits without it" "$tmp/a.out" && { cat "$tmp/a.out"; fail "the worker was abandoned"; }
run_named again "$tmp/w.f" --cache keep --runtime 0.2
[ "$rc" -eq 0 ] || { cat "$tmp/again.out"; fail "the next run on the tree: status $rc"; }
ok "thawed: the worker died, flowbench exited 130, nothing left, and the next run took the tree"

# ---- a second SIGINT while it waits: out at once ---------------------
interrupted_frozen b
kill -INT $pid
wait_end $pid 60
[ "$st" -eq 130 ] || { fsfreeze -u "$tmp/fs"; cat "$tmp/b.out"; fail "second SIGINT: status $st, not 130"; }
frozen_worker $pid || { fsfreeze -u "$tmp/fs"; fail "the worker was not still frozen when flowbench left"; }
fsfreeze -u "$tmp/fs"
left() { pgrep -s "$1" >/dev/null; }
wait_for 60 "the worker's death" eval "! left $pid" ||
	fail "the worker outlived the thaw by 60 s"
ok "a second SIGINT while waiting: exit 130 at once, the frozen worker left to die on the thaw"
