#!/bin/sh
# valgrind.sh - memcheck is clean on a short randomrw and a short
# fileserver run (scaled down: small files, 1 s, 2 threads per kind):
# no invalid read or write, no use of uninitialised memory, no definitely
# lost block, in the master and in every forked worker.  Skipped (77)
# without valgrind, and in sanitizer builds (ASan and TSan cannot run
# under valgrind).  Neither workload uses io_uring.
. "$(dirname "$0")/lib.sh"
need valgrind
if grep -qE '__(asan|tsan)_init' "$FLOWBENCH"; then
	echo "SKIP: $FLOWBENCH is built with a sanitizer"
	exit 77
fi

# vg NAME WORKLOAD ARGS...: run under memcheck, one log per process
vg() {
	name=$1
	shift
	mkdir -p "$tmp/$name"
	if ! valgrind --leak-check=full --errors-for-leak-kinds=definite \
		--error-exitcode=99 --trace-children=yes \
		--log-file="$tmp/$name.vg.%p" \
		"$FLOWBENCH" run "$@" --cache keep -D dir="$tmp/$name" -D runtime=1 \
		>"$tmp/$name.out" 2>"$tmp/$name.err"; then
		cat "$tmp/$name.err" "$tmp/$name".vg.*
		fail "$name: flowbench under valgrind exited non-zero"
	fi
	grep -q "IO Summary" "$tmp/$name.out" || { cat "$tmp/$name.err"; fail "$name: no results"; }
	nlogs=$(ls "$tmp/$name".vg.* | wc -l)
	[ "$nlogs" -ge 2 ] || fail "$name: $nlogs valgrind logs: the workers were not traced"
	bad=$(grep -lE 'Invalid (read|write|free)|uninitialised|definitely lost: [1-9]|ERROR SUMMARY: [1-9]' \
		"$tmp/$name".vg.* || true)
	if [ -n "$bad" ]; then
		cat $bad
		fail "$name: valgrind found errors"
	fi
	ok "$name: memcheck clean in $nlogs processes (no invalid access, nothing definitely lost)"
}

vg randomrw "$WORKLOADS/randomrw.f" -D filesize=4m -D nthreads=2
vg fileserver "$WORKLOADS/fileserver.f" -D nfiles=50 -D filesize=16k -D nthreads=2
