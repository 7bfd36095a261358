#!/bin/sh
# flowops-file.sh - createfile, closefile, openfile, deletefile, statfile,
# fsync and fsyncset on real filesets: their effect on disk, and that
# every op they report is a system call the workers really made (strace).
. "$(dirname "$0")/lib.sh"
need strace

d=$tmp/d
mkdir "$d"
# fbrun NAME: run the workload on stdin (saved as $tmp/NAME.f) under
# strace -ff; output in $tmp/NAME.out, traces in $tmp/NAME.tr.*
fbrun() {
	cat >"$tmp/$1.f"
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -ff -qq -s 200 -e trace=execve,openat,openat2,unlink,unlinkat,fsync,newfstatat,fstat,close \
		-o "$tmp/$1.tr" "$FLOWBENCH" run "$tmp/$1.f" --cache keep \
		>"$tmp/$1.out" 2>&1 || { cat "$tmp/$1.out"; fail "$1: run failed"; }
}
ops() { breakdown_field "$tmp/$1.out" "$2" ops; }
late() { sed -n "s/.*Not counted:.*[(,] *$2 \\([0-9][0-9]*\\).*/\\1/p" "$tmp/$1.out" | grep . || echo 0; }
# wtraces NAME: the traces of every thread but the master's main thread
# (the one that execve'd), i.e. the workers' and the preallocation threads'
wtraces() { for f in "$tmp/$1".tr.*; do grep -q '^execve(' "$f" || cat "$f"; done; }
# calls NAME REGEX: the workers' matching calls on entries of a fileset's
# tree (relative to its root directory, held open: "00000001/00000002");
# preallocation's creates (write-only) and directory opens are not
# flowops' (a flowop opens with the fileset's mode, O_RDWR here)
calls() { wtraces "$1" | grep -E "$2" | grep -v -e O_DIRECTORY -e O_WRONLY | grep -cE '"[0-9]{8}(/[0-9]{8})*"' || true; }
files() { find "$d/$1" -type f ! -name .flowbench | wc -l; }

# createfile + closefile until every file exists: exactly 50 of each
fbrun create <<F
set mode quit alldone
define fileset name=c,path=$d,entries=50,dirwidth=10,size=1k
define process name=p { thread name=t { flowop createfile name=cr,filesetname=c,fd=1
flowop closefile name=cl,fd=1 } }
run 10
F
[ "$(ops create cr)" -eq 50 ] || fail "createfile: $(ops create cr) ops for 50 files"
[ "$(ops create cl)" -eq 50 ] || fail "closefile: $(ops create cl) ops for 50 files"
[ "$(files c)" -eq 50 ] || fail "createfile: $(files c) files on disk, want 50"
n=$(calls create '^openat2\(.*O_CREAT.* = [0-9]+$')
[ "$n" -eq 50 ] || fail "createfile: $n openat2(O_CREAT) calls for 50 ops"
find "$d/c" -type f ! -name .flowbench -size +0 | grep -q . && fail "createfile wrote data"
ok "createfile/closefile: 50 ops each, 50 empty files, 50 openat2(O_CREAT)"

# deletefile until none is left
fbrun delete <<F
set mode quit alldone
define fileset name=x,path=$d,entries=40,dirwidth=8,size=1k,prealloc
define process name=p { thread name=t { flowop deletefile name=del,filesetname=x } }
run 10
F
[ "$(ops delete del)" -eq 40 ] || fail "deletefile: $(ops delete del) ops for 40 files"
[ "$(files x)" -eq 0 ] || fail "deletefile left $(files x) files"
n=$(calls delete '^unlinkat\(.* = 0$')
[ "$n" -eq 40 ] || fail "deletefile: $n unlink calls for 40 ops"
ok "deletefile: 40 ops, 40 unlinks, no file left"

# deletefile never deletes an open file: the other one goes, then no resource
fbrun openkeep <<F
set mode quit alldone
define fileset name=k,path=$d,entries=2,dirwidth=10,size=1k,prealloc
define process name=p { thread name=t { flowop openfile name=op,filesetname=k,fd=1
flowop deletefile name=del,filesetname=k
flowop deletefile name=del2,filesetname=k } }
run 10
F
[ "$(ops openkeep del)" -eq 1 ] && [ "$(ops openkeep del2)" -eq 0 ] ||
	fail "deletefile with one file open: $(ops openkeep del) + $(ops openkeep del2) ops, want 1 + 0"
[ -f "$d/k/00000001/00000001" ] || fail "deletefile removed the open file"
[ ! -e "$d/k/00000001/00000002" ] || fail "deletefile did not remove the closed file"
ok "deletefile skips the open file, deletes the other, then reports no file"

# openfile, fsync, statfile, closefile: ops = system calls
fbrun open <<F
define fileset name=o,path=$d,entries=10,dirwidth=10,size=4k,prealloc
define process name=p { thread name=t { flowop openfile name=op,filesetname=o,fd=1
flowop fsync name=fs,fd=1
flowop statfile name=st,filesetname=o
flowop statfile name=fst,filesetname=o,fd=1
flowop closefile name=cl,fd=1 } }
run 1
F
for pair in "op:^openat2\\(" "st:^newfstatat\\(" "fs:^fsync\\("; do
	op=${pair%%:*} re=${pair#*:}
	n=$(ops open "$op")
	l=$(late open "$op")
	[ "$n" -gt 0 ] || fail "$op did no ops"
	if [ "$op" = fs ]; then
		c=$(cat "$tmp"/open.tr.* | grep -cE "$re" || true)
	else
		c=$(calls open "$re")
	fi
	[ $((n + l)) -eq "$c" ] || fail "$op: $n ops + $l late, but $c calls"
done
[ "$(ops open fst)" -gt 0 ] || fail "statfile fd=1 did no ops"
ok "openfile/fsync/statfile: every op is one openat2/fsync/stat call"

# fsyncset: one fsync per open slot of the fileset, none for closed slots
fbrun fsyncset <<F
define fileset name=s,path=$d,entries=10,dirwidth=10,size=4k,prealloc
define process name=p { thread name=t { flowop openfile name=o1,filesetname=s,fd=1
flowop openfile name=o2,filesetname=s,fd=2
flowop fsyncset name=fset,filesetname=s
flowop closefile name=c1,fd=1
flowop closefile name=c2,fd=2
flowop fsyncset name=fempty,filesetname=s } }
run 1
F
n=$(ops fsyncset fset)
l=$(late fsyncset fset)
c=$(cat "$tmp"/fsyncset.tr.* | grep -cE '^fsync\([0-9]+\) += 0' || true)
bad=$(cat "$tmp"/fsyncset.tr.* | grep -cE '^fsync\(.*EBADF' || true)
[ "$n" -gt 0 ] || fail "fsyncset did no ops"
[ "$(ops fsyncset fempty)" -eq 0 ] || fail "fsyncset with every slot closed did $(ops fsyncset fempty) ops"
[ $((n + l)) -eq "$c" ] && [ "$bad" -eq 0 ] || fail "fsyncset: $n ops + $l late, $c fsyncs, $bad on closed fds"
[ $((n % 2)) -eq 0 ] || [ "$l" -gt 0 ] || fail "fsyncset: $n ops, not two per pass"
ok "fsyncset: one fsync per open slot ($n), none on closed slots"
