#!/bin/sh
# compat-limits.sh - what finishoncount, finishonbytes, opslimit and
# iopslimit count under --compat filebench, against flowbench's rule.
#
# filebench's rule (docs/wml-reference 4.26-4.30, 8.2 item 4): without a
# target, the counter is the process instance's count of EVERY recorded
# op (finish and limit flowops' own included, implicit opens included),
# or its read+write ops (iopslimit), or its bytes (finishonbytes); with a
# target, that flowop's ops in this thread, its implicit open included.
# flowbench's: this thread's IO/AIO-class ops (bytes) only.  Each case
# computes its expected count from the rule and checks both modes.  How
# many appends a run did is read from the file's size (size / iosize),
# which no accounting rule changes.
. "$(dirname "$0")/lib.sh"

n=0
# run_wml NAME MODE: run $tmp/NAME.f in a fresh directory $dir, MODE fb
# (--compat filebench) or fl (flowbench's rules), into $out; the run must
# end with status 0 and results.
run_wml() {
	n=$((n + 1))
	dir=$tmp/d$n
	out=$tmp/$1.$2.out
	mkdir -p "$dir"
	sed "s|@DIR@|$dir|g" "$tmp/$1.f" >"$tmp/$1.$2.f"
	compat=
	[ "$2" = fb ] && compat="--compat filebench"
	rc=0
	# shellcheck disable=SC2086
	"$FLOWBENCH" run $compat --cache keep "$tmp/$1.$2.f" >"$out" 2>"$tmp/$1.$2.err" || rc=$?
	[ $rc = 0 ] || { cat "$tmp/$1.$2.err"; fail "$1 ($2) exited $rc"; }
	grep -q 'IO Summary' "$out" || fail "$1 ($2): no results"
}

# appends FILE IOSIZE: the appends file FILE of the last run received
appends() {
	f=$(find "$dir/$1" -type f ! -name .flowbench)
	echo $(($(stat -c %s "$f") / $2))
}

# took: the "Run took N seconds" value of the last run
took() {
	sed -n 's/.*Run took \([0-9.]*\) seconds.*/\1/p' "$out"
}

# near A E: A within 10 % (and 10) of E (the two rules differ by 2x)
near() {
	awk -v a="$1" -v e="$2" 'BEGIN { d = a - e; if (d < 0) d = -d; exit !(d <= 0.1 * e + 10) }'
}

# --- one thread: appendfile; finishoncount value=1000 -----------------
# filebench: the counter read at the a-th finishoncount call holds a
# appends + 1 implicit open + (a - 1) earlier finishoncount ops = 2a,
# so the thread stops at 2a >= 1000: 500 appends (reference 4.29).
cat >"$tmp/one.f" <<'W'
define file name=f1, path=@DIR@, size=0, prealloc
define process name=p1 {
  thread name=t1 {
    flowop appendfile name=app, filename=f1, iosize=1k
    flowop finishoncount name=fin, value=1000
  }
}
run 60
W
run_wml one fb
a=$(appends f1 1024)
[ "$a" = 500 ] || fail "compat: appendfile; finishoncount 1000 did $a appends, filebench 500"
run_wml one fl
a=$(appends f1 1024)
[ "$a" = 1000 ] || fail "appendfile; finishoncount 1000 did $a appends, not 1000"
ok "appendfile; finishoncount value=1000: 500 appends under --compat filebench, 1000 without"

# --- a target: its implicit open counts as one of its ops -------------
# filebench: a + 1 (the open) >= 1000 at a = 999.
sed 's/name=fin, value=1000/name=fin, value=1000, target=app/' "$tmp/one.f" >"$tmp/target.f"
run_wml target fb
a=$(appends f1 1024)
[ "$a" = 999 ] || fail "compat: finishoncount target=app value=1000 did $a appends, filebench 999"
run_wml target fl
a=$(appends f1 1024)
[ "$a" = 1000 ] || fail "finishoncount target=app value=1000 did $a appends, not 1000"
ok "finishoncount target=app value=1000: 999 appends under --compat filebench (the open), 1000 without"

# --- two threads of one process count together ------------------------
# filebench: when a thread first reads >= 20000, every thread has done
# a_j appends, its open and a_j or a_j - 1 finish ops, the reader a_X - 1,
# so 2A + 1 >= 20000 (A = total appends >= 10000); when the count
# crossed 20000, 2A <= 20000, and each thread does at most one more
# append before it reads the counter again: 10000 <= A <= 10002.
# flowbench: each thread counts its own, the first at 20000 ends the run.
# (1-byte appends: many, so that both threads run meanwhile.)
cat >"$tmp/two.f" <<'W'
define file name=f1, path=@DIR@, size=0, prealloc
define file name=f2, path=@DIR@, size=0, prealloc
define process name=p1 {
  thread name=t1 {
    flowop appendfile name=app1, filename=f1, iosize=1
    flowop finishoncount name=fin1, value=20000
  }
  thread name=t2 {
    flowop appendfile name=app2, filename=f2, iosize=1
    flowop finishoncount name=fin2, value=20000
  }
}
run 60
W
run_wml two fb
a1=$(appends f1 1)
a2=$(appends f2 1)
[ $((a1 + a2)) -ge 10000 ] && [ $((a1 + a2)) -le 10002 ] ||
	fail "compat: two threads did $a1 + $a2 appends, filebench 10000..10002 in all"
run_wml two fl
b1=$(appends f1 1)
b2=$(appends f2 1)
{ [ "$b1" = 20000 ] && [ "$b2" -le 20000 ]; } || { [ "$b2" = 20000 ] && [ "$b1" -le 20000 ]; } ||
	fail "two threads did $b1 and $b2 appends: one should stop at 20000"
ok "two threads, finishoncount 20000 each: $a1 + $a2 appends in all under --compat filebench, $b1 and $b2 without"

# --- process instances count apart -----------------------------------
# filebench's counter is per process instance: in alldone mode each of
# two instances stops at exactly 500 appends (1000 in all).  Both append
# to one file, so the appends are counted from the op counts: the app
# line's ops plus the "Implicit opens" line are the appends and the two
# opens, wherever the opens are counted.
cat >"$tmp/procs.f" <<'W'
set mode quit alldone
define file name=f1, path=@DIR@, size=0, prealloc
define process name=p1, instances=2 {
  thread name=t1 {
    flowop appendfile name=app, filename=f1, iosize=1k
    flowop finishoncount name=fin, value=1000
  }
}
run 60
W
# total_appends: appends of the app line of the last run (opens aside)
total_appends() {
	ops=$(breakdown_field "$out" app ops)
	opens=$(sed -n 's/.*Implicit opens: \([0-9]*\).*/\1/p' "$out")
	echo $((ops + ${opens:-0} - 2))
}
run_wml procs fb
a=$(total_appends)
[ "$a" = 1000 ] || fail "compat: two process instances did $a appends, filebench 2 x 500"
run_wml procs fl
a=$(total_appends)
[ "$a" = 2000 ] || fail "two process instances did $a appends, not 2 x 1000"
ok "finishoncount counts per process instance under --compat filebench (2 x 500 appends), per thread without (2 x 1000)"

# --- finishonbytes: the process's bytes -------------------------------
# flowbench: a thread stops when its own bytes exceed 10000, after 10001
# 1-byte appends.  filebench: the process's bytes exceed it after 10001
# appends in all, plus at most the one the other thread has in flight.
sed -e 's/finishoncount name=fin1, value=20000/finishonbytes name=fin1, value=10000/' \
    -e 's/finishoncount name=fin2, value=20000/finishonbytes name=fin2, value=10000/' \
    "$tmp/two.f" >"$tmp/bytes.f"
run_wml bytes fb
a1=$(appends f1 1)
a2=$(appends f2 1)
[ $((a1 + a2)) -ge 10001 ] && [ $((a1 + a2)) -le 10002 ] ||
	fail "compat: finishonbytes 10000: $a1 + $a2 appends, filebench 10001..10002 in all"
run_wml bytes fl
b1=$(appends f1 1)
b2=$(appends f2 1)
{ [ "$b1" = 10001 ] && [ "$b2" -le 10001 ]; } || { [ "$b2" = 10001 ] && [ "$b1" -le 10001 ]; } ||
	fail "finishonbytes 10000: $b1 and $b2 appends: one should stop at 10001"
ok "finishonbytes 10000, two threads: $a1 + $a2 appends in all under --compat filebench, $b1 and $b2 without"

# --- opslimit without a target: events per append ---------------------
# filebench: each opslimit call pays for the append AND the previous
# opslimit op, 2 events per append; flowbench: 1.  At 1000 events/s for
# the measured run time T: 500 T appends, against 1000 T.
cat >"$tmp/ops.f" <<'W'
eventgen rate=1000
define file name=f1, path=@DIR@, size=0, prealloc
define process name=p1 {
  thread name=t1 {
    flowop appendfile name=app, filename=f1, iosize=1k
    flowop opslimit name=lim
  }
}
run 2
W
run_wml ops fb
a=$(appends f1 1024)
t=$(took)
near "$a" "$(awk -v t="$t" 'BEGIN { print 1000 * t / 2 }')" ||
	fail "compat: opslimit at 1000 events/s for $t s let $a appends, filebench $((1000 / 2)) per s"
run_wml ops fl
b=$(appends f1 1024)
t=$(took)
near "$b" "$(awk -v t="$t" 'BEGIN { print 1000 * t }')" ||
	fail "opslimit at 1000 events/s for $t s let $b appends, not 1000 per s"
ok "opslimit, 1000 events/s: $a appends under --compat filebench (2 events each), $b without"

# --- filebench's filemicro_delete: deletefile; opslimit; finishoncount -
# With a generator, filebench's counter at the finishoncount of the d-th
# iteration holds d deletes + (d - 1) opslimit ops (its first call only
# notes the counter) + (d - 1) finishoncount ops = 3d - 2 >= 1000: 334
# deletes.  Without one, opslimit records nothing: 2d - 1 >= 1000, 501.
# flowbench: 1000 deletes either way.
cat >"$tmp/delete.f" <<'W'
eventgen rate=100000
define fileset name=fs, path=@DIR@, entries=1100, dirwidth=100, size=0, prealloc
define process name=p1 {
  thread name=t1 {
    flowop deletefile name=del, filesetname=fs
    flowop opslimit name=lim
    flowop finishoncount name=fin, value=1000
  }
}
run 60
W
sed 's/^eventgen rate=100000$/eventgen rate=0/' "$tmp/delete.f" >"$tmp/delete0.f"
for c in "delete fb 334" "delete fl 1000" "delete0 fb 501" "delete0 fl 1000"; do
	set -- $c
	run_wml "$1" "$2"
	d=$(breakdown_field "$out" del ops)
	[ "$d" = "$3" ] || fail "$1 ($2): $d deletes, the rule gives $3"
done
ok "deletefile; opslimit; finishoncount 1000: 334 deletes (501 without a generator) under --compat filebench, 1000 without"

# --- iopslimit without a target: the process's reads and writes -------
# filebench: t1's iopslimit pays for t2's appends (and both opens) too,
# so t1 + t2 append about 1000 T at 1000 events/s; flowbench: t1 alone
# appends about 1000 T, whatever t2 does.
cat >"$tmp/iops.f" <<'W'
eventgen rate=1000
define file name=f1, path=@DIR@, size=0, prealloc
define file name=f2, path=@DIR@, size=0, prealloc
define process name=p1 {
  thread name=t1 {
    flowop appendfile name=app1, filename=f1, iosize=1k
    flowop iopslimit name=lim
  }
  thread name=t2 {
    flowop appendfile name=app2, filename=f2, iosize=1k
    flowop delay name=pause, value=0.002
  }
}
run 2
W
run_wml iops fb
a1=$(appends f1 1024)
a2=$(appends f2 1024)
t=$(took)
near $((a1 + a2)) "$(awk -v t="$t" 'BEGIN { print 1000 * t }')" ||
	fail "compat: iopslimit at 1000 events/s for $t s: $a1 + $a2 appends, filebench 1000 per s in all"
run_wml iops fl
b1=$(appends f1 1024)
t=$(took)
near "$b1" "$(awk -v t="$t" 'BEGIN { print 1000 * t }')" ||
	fail "iopslimit at 1000 events/s for $t s: t1 did $b1 appends, not 1000 per s"
ok "iopslimit, 1000 events/s: t1 $a1 + t2 $a2 appends under --compat filebench, t1 $b1 without"

# --- filebench's filemicro_createfiles, scaled: files created ------------
# Per file: createfile, writewholefile, closefile, finishoncount.  At the
# n-th finishoncount call filebench's counter holds 4(n - 1) + 3 ops, so
# it stops at the first n with 4n - 1 >= 1500: 376 files, the number the
# issue measured with filebench itself; flowbench counts the three I/O
# ops only: 1500 / 3 = 500 files.
cat >"$tmp/cf.f" <<'W'
define fileset name=fs, path=@DIR@, size=1k, entries=2000, dirwidth=100000, prealloc=50
define process name=p {
  thread name=t, memsize=10m {
    flowop createfile name=cr, filesetname=fs, fd=1
    flowop writewholefile name=wr, filesetname=fs, fd=1, iosize=1m
    flowop closefile name=cl, fd=1
    flowop finishoncount name=fin, value=1500
  }
}
run 10
W
files() { awk '$1 == "cr" { print $2 + 0 }' "$out"; }
run_wml cf fb
fb=$(files)
expect=$(awk 'BEGIN { n = 1; while (4 * n - 1 < 1500) n++; print n }')
[ "$fb" = "$expect" ] || fail "compat: createfiles made $fb files, filebench's rule gives $expect"
run_wml cf fl
fl=$(files)
[ "$fl" = 500 ] || fail "createfiles made $fl files, flowbench's rule gives 500"
ok "filemicro_createfiles scaled: $fb files under --compat filebench (filebench measured 376), $fl without"
