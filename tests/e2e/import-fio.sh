#!/bin/sh
# import-fio.sh - `flowbench import-fio` on job files like the published
# experiments it is meant for (scaled down: 16 MiB files, 1 s runs, 3
# jobs instead of 8 or 24): each output passes `flowbench check`, runs in
# a temporary directory given with -D dir=..., and its read and write
# flowops do I/O in the expected proportions; size-based jobs stop after
# their bytes; sequential time-based writes wrap at the file's size; a job
# file with unsupported options is refused with every one of them listed.
. "$(dirname "$0")/lib.sh"

d=$tmp/data
mkdir "$d"

# imp NAME: import $tmp/NAME.fio and check it; the WML in $tmp/NAME.f,
# its files to be in $d/NAME
imp() {
	mkdir -p "$d/$1"
	"$FLOWBENCH" import-fio "$tmp/$1.fio" >"$tmp/$1.f" 2>"$tmp/$1.err" ||
		{ cat "$tmp/$1.err"; fail "$1: import-fio failed"; }
	"$FLOWBENCH" check "$tmp/$1.f" -D dir="$d/$1" >"$tmp/$1.chk" 2>&1 ||
		{ cat "$tmp/$1.f" "$tmp/$1.chk"; fail "$1: flowbench check refused the import"; }
}
# run NAME: run $tmp/NAME.f in $d/NAME; the report in $tmp/NAME.out
run() {
	"$FLOWBENCH" run "$tmp/$1.f" -D dir="$d/$1" --cache warm >"$tmp/$1.out" 2>&1 ||
		{ cat "$tmp/$1.out"; fail "$1: run failed"; }
}
ops() { breakdown_field "$tmp/$1.out" "$2" ops; }
# has_ops NAME FLOWOP...: each flowop's breakdown line has ops > 0
has_ops() {
	n=$1
	shift
	for f; do
		v=$(ops "$n" "$f")
		[ -n "$v" ] && [ "$v" -gt 0 ] ||
			{ cat "$tmp/$n.out"; fail "$n: flowop $f did no op"; }
	done
}

# Experiment 1: psync, O_DIRECT, random 50/50 mix, one shared file,
# bs 4k and 1m (published: 8 jobs on 20 GB).
for bs in 4k 1m; do
	cat >"$tmp/exp1-$bs.fio" <<EOF
; experiment 1, scaled down
[global]
ioengine=psync
direct=1
rw=randrw
iodepth=1
numjobs=3
directory=/srv/fio
filename=fio-test.dat
size=16m
runtime=1
time_based
group_reporting

[randrw-$bs]
bs=$bs
EOF
	imp "exp1-$bs"
	run "exp1-$bs"
	grep -q "Starting 3 randrw-$bs instances" "$tmp/exp1-$bs.out" ||
		{ cat "$tmp/exp1-$bs.out"; fail "exp1-$bs: not 3 processes"; }
	has_ops "exp1-$bs" "randrw-$bs-read" "randrw-$bs-write"
	r=$(ops "exp1-$bs" "randrw-$bs-read")
	w=$(ops "exp1-$bs" "randrw-$bs-write")
	# one read then one write per pass: at most one op apart per job
	[ $((r - w)) -le 3 ] && [ $((w - r)) -le 3 ] ||
		fail "exp1-$bs: $r reads and $w writes are not a 1:1 mix"
	[ -f "$d/exp1-$bs/fio-test.dat/00000001/00000001" ] ||
		fail "exp1-$bs: the file is not in the -D dir"
done
ok "experiment 1 (psync, direct, randrw, bs 4k and 1m): checked, ran, 1:1 reads and writes"

# Experiment 2: libaio at iodepth 16, O_DIRECT, sequential reads,
# bs 4k and 1m, numjobs 1 and several: aioread with iodepth=16, which
# must check, run, and keep 16 requests in flight.
for nj in 1 3; do
	for bs in 4k 1m; do
		n=exp2-$nj-$bs
		cat >"$tmp/$n.fio" <<EOF
[global]
ioengine=libaio
iodepth=16
direct=1
rw=read
size=16m
runtime=1
time_based

[seqread]
numjobs=$nj
bs=$bs
EOF
		"$FLOWBENCH" import-fio "$tmp/$n.fio" >"$tmp/$n.f" ||
			fail "$n: import-fio failed"
		grep -q "flowop aioread name=seqread-read,.*iodepth=\$iodepth" "$tmp/$n.f" ||
			{ cat "$tmp/$n.f"; fail "$n: no aioread with iodepth"; }
		mkdir -p "$d/$n"
		"$FLOWBENCH" check "$tmp/$n.f" -D dir="$d/$n" >"$tmp/$n.chk" 2>&1 ||
			{ cat "$tmp/$n.chk"; fail "$n: check refused the import"; }
		run "$n"
		has_ops "$n" seqread-read
		grep -q "at most 16 requests in flight at once (iodepth=16)" "$tmp/$n.out" ||
			{ cat "$tmp/$n.out"; fail "$n: not 16 requests in flight"; }
	done
done
# at iodepth 1 the same job is plain synchronous reads, which run today
sed 's/^iodepth=16/iodepth=1/' "$tmp/exp2-3-1m.fio" >"$tmp/exp2-qd1.fio"
imp exp2-qd1
grep -q "flowop read name=seqread-read" "$tmp/exp2-qd1.f" || fail "exp2-qd1: not a read"
run exp2-qd1
grep -q "Starting 3 seqread instances" "$tmp/exp2-qd1.out" || fail "exp2-qd1: not 3 jobs"
has_ops exp2-qd1 seqread-read
ok "experiment 2 (libaio, direct, read, iodepth 16): imported, checked, ran at queue depth 16; iodepth 1 runs"

# Experiment 3: psync, O_DIRECT, rw=randrw and rw=rw, 1 and 3 jobs,
# per-job files in a directory, no time_based: each job stops after
# `size` bytes, as in fio.
for rw in randrw rw; do
	for nj in 1 3; do
		n=exp3-$rw-$nj
		cat >"$tmp/$n.fio" <<EOF
[global]
ioengine=psync
direct=1
bs=4k
size=16m
directory=/srv/fio

[mix]
rw=$rw
numjobs=$nj
EOF
		imp "$n"
		run "$n"
		has_ops "$n" mix-read mix-write
		[ "$(ls "$d/$n/mix-files/00000001" | wc -l)" -eq "$nj" ] ||
			fail "$n: not one file per job"
		if [ $rw = randrw ]; then
			# 16m / 4k = 4096 ops per job; finishonbytes checks once
			# per pass (read, write): 4098 ops per job at most
			t=$(($(ops "$n" mix-read) + $(ops "$n" mix-write)))
			[ "$t" -ge $((nj * 4096)) ] && [ "$t" -le $((nj * 4098)) ] ||
				fail "$n: $t ops, not $nj x 16 MiB of 4 KiB"
		fi
	done
done
ok "experiment 3 (psync, direct, randrw and rw, 1 and 3 jobs): each job stopped after its bytes"

# Sequential time-based writes start again at 0 after size bytes, so the
# file keeps its size (flowbench's plain writes would grow it).
cat >"$tmp/seqw.fio" <<EOF
[w]
rw=write
bs=1m
size=4m
runtime=1
time_based
filename=w.dat
fsync=0
EOF
imp seqw
run seqw
has_ops seqw w-write w-close
[ "$(ops seqw w-write)" -gt 4 ] || fail "seqw: fewer writes than one pass"
sz=$(stat -c %s "$d/seqw/w.dat/00000001/00000001")
[ "$sz" -eq 4194304 ] || fail "seqw: the file grew to $sz bytes"
ok "sequential time-based writes wrap at size (file stays 4 MiB)"

# Unsupported options: refused, every one listed with its line, nothing
# on stdout.
cat >"$tmp/bad.fio" <<EOF
[global]
rw=randread
stonewall
[j]
size=16m
verify=md5
EOF
if "$FLOWBENCH" import-fio "$tmp/bad.fio" >"$tmp/bad.f" 2>"$tmp/bad.err"; then
	fail "bad.fio: import-fio accepted unsupported options"
else
	st=$?
fi
[ "$st" -eq 1 ] || fail "bad.fio: exit status $st, not 1"
[ ! -s "$tmp/bad.f" ] || fail "bad.fio: something was printed on stdout"
grep -q "bad.fio:3:1: unsupported option 'stonewall'" "$tmp/bad.err" ||
	{ cat "$tmp/bad.err"; fail "bad.fio: stonewall not reported"; }
grep -q "bad.fio:6:1: unsupported option 'verify'" "$tmp/bad.err" ||
	{ cat "$tmp/bad.err"; fail "bad.fio: verify not reported"; }
grep -q "2 unsupported options (import-fio supports: rw, readwrite," "$tmp/bad.err" ||
	{ cat "$tmp/bad.err"; fail "bad.fio: no summary"; }
ok "unsupported options: exit 1, both listed with their lines"

"$FLOWBENCH" import-fio "$tmp/nonexistent.fio" >/dev/null 2>"$tmp/none.err" &&
	fail "a missing job file was accepted"
grep -q "cannot read" "$tmp/none.err" || fail "missing file: no reason given"
ok "a missing job file is an error"
