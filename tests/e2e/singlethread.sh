#!/bin/sh
# singlethread.sh - a worker process of one thread is single-threaded to
# glibc, even when a fileset was preallocated (issue 15).  glibc marks a
# process multi-threaded the first time it creates a thread, and a
# forked child inherits the mark: if the master ran preallocation's
# threads itself before forking the workers, every cancellation point a
# one-thread worker calls (openat, close, fsync, ...) would pay
# __pthread_enable_asynccancel/__pthread_disable_asynccancel.  Counted
# under callgrind (only inside thread_main): the worker of a one-thread
# openfile/closefile loop must not call __pthread_enable_asynccancel,
# and the same loop with two threads in the worker must (the control: a
# process of two threads is multi-threaded, so the count is not zero for
# want of a call).  Then the way the preallocating child's first error
# reaches the master (printed once, kept by the results file).  Skipped
# (77) without valgrind or in sanitizer builds.
. "$(dirname "$0")/lib.sh"
need valgrind
need callgrind_annotate
need_plain_build thread_main

cat >"$tmp/loop.f" <<'W'
set $dir=/tmp
set $nthreads=1
define fileset name=st,path=$dir,entries=200,dirwidth=20,size=4k,prealloc
define process name=p
{
  thread name=t,instances=$nthreads
  {
    flowop openfile name=open,filesetname=st,fd=1
    flowop closefile name=close,fd=1
  }
}
run 1
W

# cancel_calls NTHREADS: the instructions the worker spent in
# __pthread_enable_asynccancel (0 when it never called it); the worker is
# the process whose thread_main ran the most instructions
cancel_calls() {
	rm -rf "$tmp/cg" "$tmp/data"
	mkdir -p "$tmp/cg" "$tmp/data"
	valgrind --tool=callgrind --toggle-collect=thread_main \
		--callgrind-out-file="$tmp/cg/cg.%p" "$FLOWBENCH" run "$tmp/loop.f" \
		--cache keep -D dir="$tmp/data" -D nthreads="$1" \
		>"$tmp/out.$1" 2>"$tmp/err.$1" ||
		{ cat "$tmp/out.$1" "$tmp/err.$1"; fail "$1 thread(s): flowbench under callgrind failed"; }
	grep -q 'Pre-allocated 200 of 200 files' "$tmp/out.$1" ||
		{ cat "$tmp/out.$1"; fail "$1 thread(s): the fileset was not preallocated"; }
	ops=$(awk '/IO Summary:/ { print $4 }' "$tmp/out.$1")
	[ -n "$ops" ] && [ "$ops" -gt 0 ] || { cat "$tmp/out.$1"; fail "$1 thread(s): no ops ran"; }
	worker=
	most=-1
	for f in "$tmp"/cg/cg.*; do
		callgrind_annotate --auto=no --threshold=100 "$f" >"$f.txt" 2>/dev/null
		# a process that never ran thread_main totals "."
		n=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 + 0 }' "$f.txt")
		if [ "$n" -gt "$most" ]; then
			most=$n
			worker=$f.txt
		fi
	done
	[ "$most" -gt 0 ] || fail "$1 thread(s): no instructions counted in thread_main"
	awk '/:__pthread_enable_asynccancel / { gsub(",", "", $1); n += $1 } END { print n + 0 }' "$worker"
}

multi=$(cancel_calls 2)
[ "$multi" -gt 0 ] ||
	fail "control: a worker of 2 threads spent no instructions in __pthread_enable_asynccancel (cannot tell a single-threaded worker from a test that sees nothing)"
ok "control: a worker of 2 threads calls __pthread_enable_asynccancel ($multi instructions)"

single=$(cancel_calls 1)
[ "$single" -eq 0 ] ||
	fail "a worker of 1 thread spent $single instructions in __pthread_enable_asynccancel: it is multi-threaded to glibc (did the master run a thread before the fork?)"
ok "a worker of 1 thread never calls __pthread_enable_asynccancel, although its fileset was preallocated"

# The child that preallocates hands its first error to the master, which
# logs it as its own: the results file keeps it (not "see the messages
# before"), and it is printed once.  A full file system makes the error
# (a private mount namespace; this part is skipped where it cannot mount).
cat >"$tmp/full.f" <<'W'
set $dir=/tmp
define fileset name=full,path=$dir,entries=500,dirwidth=20,size=4k,prealloc
define process name=p { thread name=t { flowop statfile name=st,filesetname=full } }
run 1
W
mkdir -p "$tmp/small"
if unshare -m sh -c 'mount -t tmpfs -o size=8m,nr_inodes=64 tmpfs "$1" || exit 77
		     "$2" run "$3" --cache keep -D dir="$1" --output "$4" >"$5" 2>&1
		     echo $? >"$6"' sh "$tmp/small" "$FLOWBENCH" "$tmp/full.f" \
		"$tmp/full.json" "$tmp/full.out" "$tmp/full.rc" 2>/dev/null &&
	[ -s "$tmp/full.rc" ]; then
	[ "$(cat "$tmp/full.rc")" -eq 1 ] || { cat "$tmp/full.out"; fail "full file system: status $(cat "$tmp/full.rc"), not 1"; }
	line=$(grep '^flowbench: error: cannot preallocate ' "$tmp/full.out") ||
		{ cat "$tmp/full.out"; fail "full file system: no 'cannot preallocate' error"; }
	[ "$(printf '%s\n' "$line" | wc -l)" -eq 1 ] || fail "full file system: the error was printed more than once: $line"
	kept=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["error"])' "$tmp/full.json")
	[ "flowbench: error: $kept" = "$line" ] ||
		fail "full file system: the results file keeps '$kept', not the error printed: '$line'"
	ok "a preallocation error in the child is the master's: printed once, kept by the results file"
else
	echo "skipped: the preallocation error's way to the results file (cannot mount a tmpfs here)"
fi
