#!/bin/sh
# import-fio.sh - `flowbench import-fio` on job files like the published
# experiments it is meant for (scaled down: 16 MiB files, 1 s runs, 3
# jobs instead of 8 or 24): each output passes `flowbench check`, runs in
# a temporary directory given with -D dir=..., and its read and write
# flowops do I/O in the expected proportions; size-based jobs stop after
# their bytes; sequential time-based writes wrap at the file's size; a job
# file with unsupported options is refused with every one of them listed;
# values too large are located errors (never a signal), large values and
# times come out as numbers WML reads back; and nothing copied from the job
# file or its name into comments can inject a WML statement.  Run phases
# (stonewall, wait_for, startdelay, verify's read-back) run in order, a
# device is a file sized with -D filesize=, --lenient imports what it
# cannot honour as NOT IMPORTED notes, include reads from the job file's
# directory, and number_ios stops each clone after its I/Os.
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
	"$FLOWBENCH" run "$tmp/$1.f" -D dir="$d/$1" --cache keep >"$tmp/$1.out" 2>&1 ||
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
	has_ops "exp1-$bs" "randrw-$bs.read" "randrw-$bs.write"
	r=$(ops "exp1-$bs" "randrw-$bs.read")
	w=$(ops "exp1-$bs" "randrw-$bs.write")
	# each I/O drawn a read or a write with odds 50/50 (rwmixread's
	# default): the reads within 3.29 standard deviations of the binomial
	awk -v r="$r" -v w="$w" 'BEGIN { n = r + w; z = (r - n / 2) / sqrt(n / 4)
		exit !(z < 3.2905 && z > -3.2905) }' ||
		fail "exp1-$bs: $r reads and $w writes are not a 50/50 draw"
	[ -f "$d/exp1-$bs/fio-test.dat/00000001/00000001" ] ||
		fail "exp1-$bs: the file is not in the -D dir"
done
ok "experiment 1 (psync, direct, randrw, bs 4k and 1m): checked, ran, reads and writes drawn 50/50"

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
# at iodepth 1 the same job is still libaio, one request in flight
sed 's/^iodepth=16/iodepth=1/' "$tmp/exp2-3-1m.fio" >"$tmp/exp2-qd1.fio"
imp exp2-qd1
grep -q "flowop aioread name=seqread-read,.*ioengine=libaio,iodepth=\$iodepth" "$tmp/exp2-qd1.f" ||
	fail "exp2-qd1: not an aioread on libaio"
run exp2-qd1
grep -q "Starting 3 seqread instances" "$tmp/exp2-qd1.out" || fail "exp2-qd1: not 3 jobs"
has_ops exp2-qd1 seqread-read
ok "experiment 2 (libaio, direct, read, iodepth 16): imported, checked, ran at queue depth 16; iodepth 1 runs on libaio"

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
		has_ops "$n" mix.read mix.write
		[ "$(ls "$d/$n/mix-files/00000001" | wc -l)" -eq "$nj" ] ||
			fail "$n: not one file per job"
		if [ $rw = randrw ]; then
			# 16m / 4k = 4096 ops per job; finishonbytes checks once
			# per pass (one drawn I/O): 4097 ops per job at most
			t=$(($(ops "$n" mix.read) + $(ops "$n" mix.write)))
			[ "$t" -ge $((nj * 4096)) ] && [ "$t" -le $((nj * 4097)) ] ||
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
zonemode=zbd
[j]
size=16m
flow=2
EOF
if "$FLOWBENCH" import-fio "$tmp/bad.fio" >"$tmp/bad.f" 2>"$tmp/bad.err"; then
	fail "bad.fio: import-fio accepted unsupported options"
else
	st=$?
fi
[ "$st" -eq 1 ] || fail "bad.fio: exit status $st, not 1"
[ ! -s "$tmp/bad.f" ] || fail "bad.fio: something was printed on stdout"
grep -q "bad.fio:3:1: unsupported option 'zonemode'" "$tmp/bad.err" ||
	{ cat "$tmp/bad.err"; fail "bad.fio: zonemode not reported"; }
grep -q "bad.fio:6:1: unsupported option 'flow'" "$tmp/bad.err" ||
	{ cat "$tmp/bad.err"; fail "bad.fio: flow not reported"; }
grep -q "2 unsupported options (import-fio supports: rw, readwrite," "$tmp/bad.err" ||
	{ cat "$tmp/bad.err"; fail "bad.fio: no summary"; }
ok "unsupported options: exit 1, both listed with their lines"

"$FLOWBENCH" import-fio "$tmp/nonexistent.fio" >/dev/null 2>"$tmp/none.err" &&
	fail "a missing job file was accepted"
grep -q "cannot read" "$tmp/none.err" || fail "missing file: no reason given"
ok "a missing job file is an error"

# Too large: bs x nrfiles wrapped to 0 and was divided by (SIGFPE, exit
# 136); now a located error and exit status 1.
printf '[j]\nbs=1024p\nnrfiles=16\nsize=1g\n' >"$tmp/fpe.fio"
st=0
"$FLOWBENCH" import-fio "$tmp/fpe.fio" >"$tmp/fpe.f" 2>"$tmp/fpe.err" || st=$?
[ "$st" -eq 1 ] || { cat "$tmp/fpe.err"; fail "fpe.fio: exit status $st, not 1"; }
grep -q "fpe.fio:2:1: bs=1024p x nrfiles=16 is too large" "$tmp/fpe.err" ||
	{ cat "$tmp/fpe.err"; fail "fpe.fio: no located error"; }
[ ! -s "$tmp/fpe.f" ] || fail "fpe.fio: something was printed on stdout"
ok "bs=1024p with nrfiles=16: a located error, exit 1"

# Numbers WML reads: runtime=1000000 was written 1e+06, which check refused.
printf '[j]\nsize=8191p\nbs=8191p\nruntime=1000000\ntime_based\n' >"$tmp/big.fio"
imp big
grep -q '^set \$runtime=1000000$' "$tmp/big.f" || { cat "$tmp/big.f"; fail "big: runtime"; }
grep -q "run 1e+06 s" "$tmp/big.chk" || { cat "$tmp/big.chk"; fail "big: check's run time"; }
ok "runtime=1000000 and 8191p sizes: written as WML numbers, checked"

# Injection: the job file's name holds newlines and WML statements, a job
# name a carriage return.  The import shows them escaped in comments; run
# with --allow-system it does the job and nothing else: no `system`, no
# extra fileset, not `run 1`.
mkdir "$tmp/inj" "$d/inj" "$d/plain"
evil=$(printf 'x\nsystem "touch pwned"\nrun 1\ndefine fileset name=evil,path=e,size=1\n#.fio')
job='[%s]\nsize=1m\nbs=64k\nruntime=1\ntime_based\nrw=randread\n'
# shellcheck disable=SC2059
printf "$job" "$(printf 'a\rsystem "touch pwned"')" >"$tmp/inj/$evil"
# shellcheck disable=SC2059
printf "$job" a >"$tmp/plain.fio"
(
	cd "$tmp/inj"
	"$FLOWBENCH" import-fio "$evil" >inj.f || fail "inj: import-fio failed"
	! grep -E '^(system|run 1|define fileset name=evil)' inj.f ||
		fail "inj: an injected statement is live WML"
	grep -q '^# Generated by flowbench import-fio from x\\nsystem "touch pwned"\\nrun 1\\n' inj.f ||
		{ cat inj.f; fail "inj: the file name is not escaped"; }
	grep -q '^# \[a\\rsystem "touch pwned"\]  (line 1)$' inj.f ||
		{ cat inj.f; fail "inj: the job name is not escaped"; }
	"$FLOWBENCH" check --allow-system inj.f -D dir="$d/inj" >inj.chk 2>&1 ||
		{ cat inj.chk; fail "inj: check refused the import"; }
	"$FLOWBENCH" run --allow-system inj.f -D dir="$d/inj" --cache keep >inj.out 2>&1 ||
		{ cat inj.out; fail "inj: run failed"; }
	[ ! -e pwned ] || fail "inj: the injected system command ran"
	[ ! -e e ] && [ ! -e "$d/inj/evil" ] || fail "inj: the injected fileset was made"
)
"$FLOWBENCH" import-fio "$tmp/plain.fio" >"$tmp/plain.f" || fail "plain: import-fio failed"
"$FLOWBENCH" check "$tmp/plain.f" -D dir="$d/plain" >"$tmp/plain.chk" 2>&1 ||
	fail "plain: check failed"
# the same check summary as the job with a plain name: "ok: 0 files,
# 1 fileset, 1 process definition, 1 thread, 1 flowop, run 1 s"
[ "$(sed 's/^[^:]*: //' "$tmp/inj/inj.chk")" = "$(sed 's/^[^:]*: //' "$tmp/plain.chk")" ] ||
	{ cat "$tmp/inj/inj.chk" "$tmp/plain.chk"; fail "inj: not the job it was"; }
grep -q "run 1 s" "$tmp/plain.chk" || fail "plain: not a 1 s run"
v=$(breakdown_field "$tmp/inj/inj.out" 'a_system__touch_pwned_-read' ops)
[ -n "$v" ] && [ "$v" -gt 0 ] || { cat "$tmp/inj/inj.out"; fail "inj: the job did no reads"; }
ok "newlines in the job file's name, CR in a job name: escaped in comments, nothing injected (run with --allow-system)"

# rate_iops: the iopslimit flowop and the event generator hold a 2 s
# time-based job to its rate.  The bound is the rate over the run's own
# measured time (the breakdown's ops/s), plus the generator's first batch;
# a busy machine can only make it slower.
cat >"$tmp/rated.fio" <<'JOB'
[rated]
size=4m
rw=randread
rate_iops=200
time_based
runtime=2
JOB
imp rated
run rated
has_ops rated rated-read rated-rate
v=$(breakdown_field "$tmp/rated.out" rated-read opss)
awk -v v="$v" 'BEGIN { exit !(v <= 200 * 1.1) }' ||
	{ cat "$tmp/rated.out"; fail "rated: $v reads/s over rate_iops=200"; }
ok "rate_iops=200: $v reads/s (iopslimit + eventgen)"

# random_distribution=zoned: each zone's range flowop runs in proportion
# to its weight (8 : 7 : 5 for 50/5:30/15:20/), all within the file
cat >"$tmp/zoned.fio" <<'JOB'
[zoned]
size=8m
rw=randread
random_distribution=zoned:50/5:30/15:20/
time_based
runtime=1
JOB
imp zoned
run zoned
has_ops zoned zoned-read-zone1 zoned-read-zone2 zoned-read-zone3
z1=$(ops zoned zoned-read-zone1)
z3=$(ops zoned zoned-read-zone3)
# 8 : 5 per pass; a pass cut by the deadline changes it by at most 8
[ $((z1 * 5 - z3 * 8)) -le 40 ] && [ $((z3 * 8 - z1 * 5)) -le 40 ] ||
	{ cat "$tmp/zoned.out"; fail "zoned: zone1 $z1 ops, zone3 $z3 ops: not 8 : 5"; }
ok "random_distribution=zoned: $z1 and $z3 ops in the first 5 % and the whole file (8 : 5)"

# Run phases (issue 14, third pass): stonewall starts r after w (and w's
# verify read-back) ended; wait_for and startdelay start d 0.5 s after r
# ended; r and d stop at their own runtime.  Bounds from the run's own
# "Phase" lines: a busy machine can only make the gaps longer.
cat >"$tmp/phases.fio" <<'JOB'
[global]
bs=4k
[w]
rw=write
size=4m
verify=crc32c
verify_fatal=1
[r]
stonewall
rw=randread
size=4m
time_based
runtime=1
[d]
wait_for=r
startdelay=500ms
rw=randwrite
size=4m
time_based
runtime=1
JOB
imp phases
grep -q 'define process name=r,instances=$nthreads_2,after="w:w-verify",runtime=$runtime_2$' \
	"$tmp/phases.f" || { cat "$tmp/phases.f"; fail "phases: r is not after w"; }
run phases
has_ops phases w-write w-verify r-read d-write
[ "$(ops phases w-write)" -eq "$(ops phases w-verify)" ] ||
	{ cat "$tmp/phases.out"; fail "phases: the read-back did not read what w wrote"; }
# "Phase NAME: START s - END s (LEN s)"
phase() { awk -v n="$1:" -v f="$2" '$2 == "Phase" && $3 == n { print $f }' "$tmp/phases.out"; }
awk -v ws="$(phase w-verify 7)" -v rs="$(phase r 4)" -v re="$(phase r 7)" \
    -v ds="$(phase d 4)" -v dl="$(phase d 9)" -v rl="$(phase r 9)" \
    'BEGIN { gsub(/[()]/, "", dl); gsub(/[()]/, "", rl)
	     exit !(ws != "" && rs >= ws && ds >= re + 0.49 && dl <= 1.001 && rl <= 1.001) }' ||
	{ cat "$tmp/phases.out"; fail "phases: not w, then r, then d 0.5 s later, each 1 s"; }
ok "phases: w and its read-back, then r (stonewall), then d 0.5 s after r (wait_for, startdelay), each its own runtime"

# A device: the device itself (define device); without a size, check
# fails naming $filesize until -D filesize=... gives it, then names the
# device that is not there (tests/e2e/device.sh runs jobs on real ones).
printf '[dev]\nfilename=/dev/fbtestdev\nrw=randread\ntime_based\nruntime=1\n' >"$tmp/dev.fio"
"$FLOWBENCH" import-fio "$tmp/dev.fio" >"$tmp/dev.f" 2>"$tmp/dev.err" ||
	{ cat "$tmp/dev.err"; fail "dev: import-fio failed"; }
grep -q 'define device name=fbtestdev,path="/dev/fbtestdev"' "$tmp/dev.f" ||
	{ cat "$tmp/dev.f"; fail "dev: not a define device"; }
grep -q "with -D filesize=SIZE" "$tmp/dev.err" || { cat "$tmp/dev.err"; fail "dev: no -D hint"; }
"$FLOWBENCH" check "$tmp/dev.f" >"$tmp/dev.chk" 2>&1 &&
	fail "dev: check passed without the region's size"
grep -q "variable '\$filesize' is not set" "$tmp/dev.chk" ||
	{ cat "$tmp/dev.chk"; fail "dev: check did not name \$filesize"; }
"$FLOWBENCH" check "$tmp/dev.f" -D filesize=64m >"$tmp/dev.chk" 2>&1 &&
	fail "dev: check passed with a device that is not there"
grep -q "device 'fbtestdev': /dev/fbtestdev: No such file or directory" "$tmp/dev.chk" ||
	{ cat "$tmp/dev.chk"; fail "dev: check did not name the missing device"; }
ok "filename=/dev/X: a define device; without size -D filesize= gives its region"

# --lenient: a job with no size and zones it cannot write imports (NOT
# IMPORTED notes, each a warning at its line) and checks with -D
# filesize=...; an unset \${VAR} stays an error until -D gives it
printf '[j]\nrw=randrw\nbs=${FB_E2E_UNSET}\nrandom_distribution=zoned:60/10:40/90\ntime_based\nruntime=1\n' >"$tmp/len.fio"
st=0
env -u FB_E2E_UNSET "$FLOWBENCH" import-fio "$tmp/len.fio" >/dev/null 2>&1 || st=$?
[ "$st" -eq 1 ] || fail "len: strict import accepted it"
st=0
env -u FB_E2E_UNSET "$FLOWBENCH" import-fio --lenient "$tmp/len.fio" >/dev/null 2>"$tmp/len.err" || st=$?
[ "$st" -eq 1 ] && grep -q 'len.fio:3:1: bs: ${FB_E2E_UNSET} is not set: give it with -D FB_E2E_UNSET=VALUE' "$tmp/len.err" ||
	{ cat "$tmp/len.err"; fail "len: an unset \${VAR} was dropped by --lenient"; }
env -u FB_E2E_UNSET "$FLOWBENCH" import-fio --lenient -D FB_E2E_UNSET=8k "$tmp/len.fio" >"$tmp/len.f" 2>"$tmp/len.err" ||
	{ cat "$tmp/len.err"; fail "len: --lenient failed"; }
grep -q '^set $iosize=8k$' "$tmp/len.f" &&
	grep -q '# NOT IMPORTED: random_distribution=zoned:60/10:40/90 (line 4' "$tmp/len.f" ||
	{ cat "$tmp/len.f"; fail "len: no NOT IMPORTED notes"; }
grep -q "len.fio:4:1: warning: job 'j': random_distribution=zoned:60/10:40/90: not imported (--lenient)" "$tmp/len.err" ||
	{ cat "$tmp/len.err"; fail "len: the dropped option is not a warning at its line"; }
mkdir -p "$d/len"
"$FLOWBENCH" check "$tmp/len.f" -D dir="$d/len" -D filesize=1m >"$tmp/len.chk" 2>&1 ||
	{ cat "$tmp/len.chk"; fail "len: check failed"; }
ok "--lenient: no size, zones with a mix: imported with warnings, checked with -D filesize=; an unset \${VAR} needs -D"

# include (relative to the job file, not the current directory) and
# number_ios (finishoncount): the included options apply, and each clone
# stops after its 100 reads.
mkdir -p "$tmp/inc"
printf 'bs=8k\nsize=4m\n' >"$tmp/inc/common.fio"
printf '[global]\ninclude common.fio\n[nios]\nrw=randread\nnumjobs=2\nthread\nnumber_ios=100\n' >"$tmp/nios.fio"
( cd "$tmp/inc" && "$FLOWBENCH" import-fio "$tmp/nios.fio" >/dev/null 2>"$tmp/nios.err" ) &&
	fail "nios: include read common.fio from the current directory"
grep -q "nios.fio:2:1: include common.fio: cannot read $tmp/common.fio" "$tmp/nios.err" ||
	{ cat "$tmp/nios.err"; fail "nios: no located error for the missing include"; }
mv "$tmp/inc/common.fio" "$tmp/common.fio"
imp nios
grep -q '^set \$iosize=8k$' "$tmp/nios.f" || { cat "$tmp/nios.f"; fail "nios: included bs not applied"; }
run nios
[ "$(ops nios nios-read)" -eq 200 ] ||
	{ cat "$tmp/nios.out"; fail "nios: not 2 x 100 reads"; }
ok "include common.fio (from the job file's directory), number_ios=100: 2 clones x 100 reads"
