#!/bin/sh
# startup.sh - the work before the run, done the cheap way (issue 15), seen
# in the system calls (strace -f):
#  (1) a thread's memory is populated by the kernel in one
#      madvise(MADV_POPULATE_WRITE) of the whole mapping, after the
#      page-size advice and before the thread waits at the start barrier
#      (not a memset trapping once per page; tests/unit/test_threadmem
#      proves no page is left to fault); under --compat filebench it is
#      not populated before the barrier (compat-memory.sh times its fill);
#  (2) a fileset of a few big files is preallocated by more than one
#      thread (one per CPU, up to one per ~16 MiB chunk), not by a single
#      thread because they fit in one 64-file chunk.
. "$(dirname "$0")/lib.sh"
need strace

d=$tmp/d
mkdir "$d"
# LeakSanitizer cannot run under ptrace; leaks are checked by the other tests
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

# traced NAME WML ARGS...: run $tmp/WML.f under strace, one file per
# thread ($tmp/NAME.tr.TID: no call is split by another thread's)
traced() {
	n=$1; w=$2; shift 2
	strace -ff -qq -e trace=mmap,madvise,futex,clone,clone3 -o "$tmp/$n.tr" \
		"$FLOWBENCH" run "$tmp/$w.f" --cache keep "$@" >"$tmp/$n.out" 2>&1 ||
		{ cat "$tmp/$n.out"; fail "$n: run failed"; }
}

# ---- (1) thread memory ----
cat >"$tmp/mem.f" <<F
define file name=f,path=$d,size=1m,prealloc,reuse
define process name=p { thread name=t,memsize=64m {
flowop read name=rd,filename=f,iosize=4k,random
flowop finishoncount name=fin,target=rd,value=10 } }
run 10
F
# order NAME: in the trace of the thread that maps the 64 MiB, what
# follows the mmap, one word each, up to the barrier: "populate" for a
# madvise(MADV_POPULATE_WRITE) of exactly that range that succeeded,
# "advice" for another madvise of it, "wait" for the barrier
order() {
	f=$(grep -l '^mmap(NULL, 67108864, PROT_READ|PROT_WRITE' "$tmp/$1".tr.* | head -1)
	[ -n "$f" ] || { echo "no-mmap"; return; }
	awk '
		/^mmap\(NULL, 67108864, PROT_READ\|PROT_WRITE/ && !a { a = $NF; next }
		a && /^madvise\(/ {
			split($0, f, /[(,]/); if (f[2] != a) next
			if (/MADV_POPULATE_WRITE\) = 0$/) printf "populate "; else printf "advice "
			next
		}
		a && /FUTEX_WAIT, 0, NULL/ { print "wait"; exit }' "$f"
}
traced mem mem
got=$(order mem)
echo "default: after the mmap of the thread memory: $got"
[ "$got" = "advice populate wait" ] ||
	fail "default: the thread memory was not populated by one madvise(MADV_POPULATE_WRITE) before the barrier (saw: $got)"
ok "default: 64 MiB of thread memory populated in one madvise(MADV_POPULATE_WRITE), before the barrier"

traced memfb mem --compat filebench
got=$(order memfb)
echo "compat: after the mmap of the thread memory: $got"
[ "$got" = "advice wait" ] ||
	fail "--compat filebench: the thread memory must be left untouched until the release (saw: $got)"
ok "compat: the thread memory is not populated before the barrier"

# ---- (2) preallocation threads for a few big files ----
ncpu=$(getconf _NPROCESSORS_ONLN)
if [ "$ncpu" -lt 2 ]; then
	echo "skip: one CPU: preallocation runs on one thread anyway"
	exit 0
fi
cat >"$tmp/big.f" <<F
define fileset name=big,path=$d,entries=8,dirwidth=20,size=16m,prealloc
define process name=p { thread name=t {
flowop statfile name=st,filesetname=big
flowop finishoncount name=fin,target=st,value=10 } }
run 10
F
traced big big
# threads the preallocation's process started: the master (the process
# that forks) forks it first, before the worker (singlethread.sh: the
# master itself runs no thread)
master=$(grep -l '^clone(.*SIGCHLD' "$tmp"/big.tr.* | head -1)
[ -n "$master" ] || fail "no fork traced"
child=$(awk '/^clone\(/ && /SIGCHLD/ { print $NF; exit }' "$master")
[ -f "$tmp/big.tr.$child" ] || fail "no trace of the preallocation's process ($child)"
threads=$(awk '/^clone3?\(/ && /CLONE_THREAD/ { n++ } END { print n + 0 }' "$tmp/big.tr.$child")
want=$((ncpu < 8 ? ncpu : 8))
echo "8 files of 16 MiB on $ncpu CPUs: $threads preallocation threads"
[ "$threads" -eq "$want" ] ||
	fail "8 files of 16 MiB were preallocated by $threads threads, not $want (one per CPU, each file a chunk of its own)"
ok "8 files of 16 MiB: $threads preallocation threads (one per CPU)"
