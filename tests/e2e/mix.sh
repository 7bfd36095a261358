#!/bin/sh
# mix.sh - a choice (`define flowop ..., choose`, docs/wml.md §4.6) run
# for real, seen in the system calls it makes (strace):
#  - an fio job with rw=randrw, rwmixread=70, imported and run for 10^5
#    I/Os (loops=98 of a 4 MiB file: 100352 I/Os of 4 KiB, each clone
#    stops after its bytes): the pread64/pwrite64 calls are the reported
#    ops, one for one; each pass of 1024 I/Os does each block once,
#    read or written (one random map for both members, as fio's per file);
#    their split is within 1 % of the odds (the issue's bound) and within
#    3.29 standard deviations of the binomial (two-sided 0.1 %); the
#    sequence of reads and writes passes a Wald-Wolfowitz runs test at
#    the same level, where the fixed interleaving the import wrote before
#    (7 reads then 3 writes, the control) fails it;
#  - the same job on libaio at iodepth 16: the submissions (io_submit's
#    iocbs, in order) are the reads and writes reported, split within 1 %
#    and passing the runs test, and the two share one queue of 16;
#  - the same --seed makes the same sequence (offsets included), another
#    seed another one;
#  - a choice composes: three members (one a composite), the invocation's
#    iters, a finish limit counting the members' I/O, a rate limit;
#  - percentage_random: sequential I/Os continue from the previous I/O,
#    random or not (seqfollows);
#  - check prints each choice's odds; --compat filebench refuses it.
. "$(dirname "$0")/lib.sh"
need strace

Z=3.2905        # |z| of a two-sided test at the 0.1 % level

# traced NAME WORKLOAD ARGS...: the run under strace, its preads and
# pwrites in $tmp/NAME.st, its output in $tmp/NAME.out
traced() {
	name=$1
	shift
	# LeakSanitizer cannot run under ptrace
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	timeout 300 strace -f -qq -e trace=pread64,pwrite64 -e signal=none -s 0 \
		-o "$tmp/$name.st" "$FLOWBENCH" run "$@" --cache keep >"$tmp/$name.out" 2>&1 ||
		{ cat "$tmp/$name.out"; fail "$name: the run failed"; }
}

# sequence FILE: one line per 4 KiB pread64 (R) or pwrite64 (W) strace
# logged, in order, with its offset ("R 8192")
sequence() {
	awk '/p(read|write)64\(.*, 4096, [0-9]+\) *= 4096/ {
		s = $0; sub(/\) *=.*/, "", s); n = split(s, a, ", ")
		print ($0 ~ /pread64/ ? "R" : "W"), a[n] }' "$1"
}

# runs_z FILE: the Wald-Wolfowitz runs test's standard score of the R/W
# sequence in FILE (sequence's output): for n1 R and n2 W in a random
# order, the runs have mean 2 n1 n2 / n + 1 and variance
# (mean - 1)(mean - 2) / (n - 1)
runs_z() {
	awk '{ n++; if ($1 == "R") r++; if (n > 1 && $1 != last) runs++; last = $1 }
	     END { runs++; w = n - r; m = 2 * r * w / n + 1
		   v = (m - 1) * (m - 2) / (n - 1); printf "%.2f\n", (runs - m) / sqrt(v) }' "$1"
}

# binomial_z K N P: K of N draws of odds P, in standard deviations of the
# binomial from N P
binomial_z() {
	awk -v k="$1" -v n="$2" -v p="$3" 'BEGIN { printf "%.2f\n", (k - n * p) / sqrt(n * p * (1 - p)) }'
}

# within_z Z LIMIT: is |Z| below LIMIT?
within_z() {
	awk -v z="$1" -v l="$2" 'BEGIN { exit !(z < l && z > -l) }'
}

# ---- an imported randrw job, 10^5 I/Os ----------------------------------
cat >"$tmp/mix.fio" <<EOT
[mix]
rw=randrw
rwmixread=70
bs=4k
size=4m
ioengine=psync
directory=$tmp
filename=mix.dat
loops=98
EOT
"$FLOWBENCH" import-fio "$tmp/mix.fio" >"$tmp/mix.f" 2>"$tmp/import.err" ||
	{ cat "$tmp/import.err"; fail "import-fio failed"; }
grep -q "define flowop name=mix-mix,choose" "$tmp/mix.f" ||
	{ cat "$tmp/mix.f"; fail "the imported randrw job is not a choice"; }
# the file first (prealloc, reuse): its writes are not the job's
run_named prep "$tmp/mix.f" -D iobytes=40k --cache keep
[ "$rc" -eq 0 ] || { cat "$tmp/prep.out"; fail "prep: status $rc"; }
traced mix "$tmp/mix.f" --seed 11
sequence "$tmp/mix.st" >"$tmp/mix.seq"
n=$(wc -l <"$tmp/mix.seq")
reads=$(grep -c '^R' "$tmp/mix.seq" || true)
writes=$((n - reads))
rops=$(breakdown_field "$tmp/mix.out" mix.read ops)
wops=$(breakdown_field "$tmp/mix.out" mix.write ops)
[ "$reads" -eq "$rops" ] && [ "$writes" -eq "$wops" ] ||
	fail "strace saw $reads pread64 and $writes pwrite64 of 4 KiB, the report $rops reads and $wops writes"
[ "$n" -ge 100352 ] || fail "only $n I/Os (98 loops of 1024 blocks)"
ok "10^5 I/Os: $reads pread64 and $writes pwrite64, as reported"
# fio's one random map per file: each pass of 1024 I/Os does every block
# once, by a read or a write (members with a map each: about 1/3 of the
# blocks of a pass done twice)
passes=$(awk '{ k = int((NR - 1) / 1024); if (seen[k, $2]++) dup[k] = 1 }
	END { for (k in dup) d++; print d + 0 }' "$tmp/mix.seq")
[ "$passes" -eq 0 ] || fail "$passes passes of 1024 I/Os did some block twice (one map per file, as fio)"
ok "each pass of 1024 I/Os does each block once, read or written (one map for both)"
# the binomial: mean n p, standard deviation sqrt(n p (1 - p))
z=$(binomial_z "$reads" "$n" 0.7)
within_z "$z" "$Z" || fail "reads $reads of $n: $z standard deviations from 70 %"
awk -v r="$reads" -v n="$n" 'BEGIN { d = r / n - 0.7; exit !(d < 0.01 && d > -0.01) }' ||
	fail "reads $reads of $n: more than 1 % from 70 %"
ok "split $reads/$writes: $z standard deviations of the binomial from 70/30 (|z| < $Z), within 1 %"
z=$(runs_z "$tmp/mix.seq")
within_z "$z" "$Z" || fail "the read/write sequence fails the runs test: z = $z"
ok "the read/write sequence passes the runs test: z = $z (|z| < $Z)"

# the control: the fixed pass import-fio wrote before, 7 reads then 3 writes
cat >"$tmp/fixed.f" <<EOT
define file name=f,path=$tmp,size=4m,prealloc,reuse
define process name=p { thread name=t {
  flowop read name=rd,filename=f,iosize=4k,random,iters=7
  flowop write name=wr,filename=f,iosize=4k,random,iters=3
  flowop finishoncount name=fin,value=10000
} }
set mode quit alldone
run 300
EOT
traced fixed "$tmp/fixed.f"
sequence "$tmp/fixed.st" | tail -n +2 >"$tmp/fixed.seq"     # not the preallocation
z=$(runs_z "$tmp/fixed.seq")
within_z "$z" "$Z" && fail "the control (7 reads then 3 writes) passes the runs test: z = $z"
ok "the control, 7 reads then 3 writes, fails it: z = $z"

# ---- an asynchronous randrw job: one queue, each request's direction drawn --
# libaio at iodepth 16 (import-fio: iodepth_batch_submit=1, so one
# io_submit per request): the submissions, in order, are the draws; the
# reads and writes share one queue of 16 (fio's), never 16 each
cat >"$tmp/amix.fio" <<EOT
[amix]
rw=randrw
rwmixread=70
bs=4k
size=4m
ioengine=libaio
iodepth=16
directory=$tmp
filename=mix.dat
loops=98
EOT
"$FLOWBENCH" import-fio "$tmp/amix.fio" >"$tmp/amix.f" 2>"$tmp/import.err" ||
	{ cat "$tmp/import.err"; fail "import-fio of the libaio randrw job failed"; }
grep -q "define flowop name=amix-mix,choose" "$tmp/amix.f" ||
	{ cat "$tmp/amix.f"; fail "the imported libaio randrw job is not a choice"; }
grep -q "in that order" "$tmp/import.err" && fail "import-fio still warns of a fixed pass"
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
timeout 300 strace -f -qq -e trace=io_submit -e signal=none -e abbrev=none -s 0 -o "$tmp/amix.st" \
	"$FLOWBENCH" run "$tmp/amix.f" --cache keep --seed 4 >"$tmp/amix.out" 2>&1 ||
	{ cat "$tmp/amix.out"; fail "amix: the run failed"; }
# one line per request: R or W, in submission order
awk '/^[0-9]+ +io_submit\(/ {
	n = split($0, a, "aio_lio_opcode=")
	for (i = 2; i <= n; i++) print (a[i] ~ /^IOCB_CMD_PREAD/ ? "R" : "W") }' \
	"$tmp/amix.st" >"$tmp/amix.seq"
n=$(wc -l <"$tmp/amix.seq")
reads=$(grep -c '^R' "$tmp/amix.seq" || true)
writes=$((n - reads))
rops=$(breakdown_field "$tmp/amix.out" amix.read ops)
wops=$(breakdown_field "$tmp/amix.out" amix.write ops)
# the requests in flight when the clone's bytes were done: drained, listed
# under "Not counted" ("amix.write 6, amix.read 9")
late() { sed -n "s/.*Not counted:.*[ (]$1 \([0-9]*\).*/\1/p" "$tmp/amix.out"; }
rlate=$(late amix.read) wlate=$(late amix.write)
[ "$reads" -eq "$((rops + ${rlate:-0}))" ] && [ "$writes" -eq "$((wops + ${wlate:-0}))" ] ||
	fail "strace saw $reads reads and $writes writes submitted, the report $rops + ${rlate:-0} and $wops + ${wlate:-0} not counted"
[ "$n" -ge 100352 ] || fail "async: only $n I/Os (98 loops of 1024 blocks)"
awk -v r="$reads" -v n="$n" 'BEGIN { d = r / n - 0.7; exit !(d < 0.01 && d > -0.01) }' ||
	fail "async: reads $reads of $n: more than 1 % from 70 %"
z=$(binomial_z "$reads" "$n" 0.7)
within_z "$z" "$Z" || fail "async: reads $reads of $n: $z standard deviations from 70 %"
z=$(runs_z "$tmp/amix.seq")
within_z "$z" "$Z" || fail "async: the submitted sequence fails the runs test: z = $z"
# one queue: never more than 16 of the two in flight, and full at times
grep -q "choice amix: at most 16 requests of its members in flight at once (their shared iodepth=16)" \
	"$tmp/amix.out" || { grep "in flight" "$tmp/amix.out"; fail "async: not one full queue of 16"; }
ok "libaio iodepth=16 randrw: $reads/$writes submissions as reported, within 1 % and $z sd of the runs test, one queue of at most 16"

# ---- seeds ---------------------------------------------------------------
traced seed1 "$tmp/mix.f" -D iobytes=8m --seed 5
traced seed2 "$tmp/mix.f" -D iobytes=8m --seed 5
traced seed3 "$tmp/mix.f" -D iobytes=8m --seed 6
sequence "$tmp/seed1.st" >"$tmp/seed1.seq"
sequence "$tmp/seed2.st" >"$tmp/seed2.seq"
sequence "$tmp/seed3.st" >"$tmp/seed3.seq"
[ "$(wc -l <"$tmp/seed1.seq")" -ge 2048 ] || fail "seed: fewer than 2048 I/Os"
cmp -s "$tmp/seed1.seq" "$tmp/seed2.seq" || fail "--seed 5 twice: two sequences"
cmp -s "$tmp/seed1.seq" "$tmp/seed3.seq" && fail "--seed 5 and --seed 6: the same sequence"
ok "--seed 5 twice: the same 2048 reads and writes at the same offsets; --seed 6 others"

# ---- a choice composes ---------------------------------------------------
cat >"$tmp/comp.f" <<EOT
set \$rate=4000
define file name=f,path=$tmp,size=4m,prealloc,reuse
define flowop name=logged {
  flowop write name=log,filename=f,iosize=4k
  flowop fsync name=sync,filename=f
}
define flowop name=oltp, choose, \$rd=70 {
  flowop read name=rd,filename=f,iosize=4k,random,weight=\$rd
  flowop write name=wr,filename=f,iosize=4k,random,weight=90-\$rd
  flowop logged name=cm,weight=10
}
define process name=p { thread name=t {
  flowop oltp name=mix,iters=2
  flowop iopslimit name=lim
  flowop finishoncount name=fin,value=4000
} }
eventgen rate=\$rate
set mode quit alldone
run 300
EOT
"$FLOWBENCH" check "$tmp/comp.f" >"$tmp/check.out" 2>&1 || { cat "$tmp/check.out"; fail "check failed"; }
grep -q "choice mix (thread t) draws one of: mix.rd 70 (70 %), mix.wr 20 (20 %), mix.cm 10 (10 %)" \
	"$tmp/check.out" || { cat "$tmp/check.out"; fail "check does not show the choice's odds"; }
ok "check shows the choice: mix.rd 70 %, mix.wr 20 %, mix.cm 10 %"
run_named comp "$tmp/comp.f" --cache keep --seed 3
[ "$rc" -eq 0 ] || { cat "$tmp/comp.out"; fail "comp: status $rc"; }
rd=$(breakdown_field "$tmp/comp.out" mix.rd ops)
wr=$(breakdown_field "$tmp/comp.out" mix.wr ops)
lg=$(breakdown_field "$tmp/comp.out" mix.cm.log ops)
sy=$(breakdown_field "$tmp/comp.out" mix.cm.sync ops)
total=$((rd + wr + lg + sy))
# the finish limit counts the members' I/O (fsync included), checked
# after each pass of two draws (at most 2 x 2 ops past it)
[ "$total" -ge 4000 ] && [ "$total" -le 4004 ] ||
	fail "finishoncount 4000: the members did $total I/O ops"
[ "$lg" -eq "$sy" ] || fail "the composite member: $lg writes but $sy fsyncs"
draws=$((rd + wr + lg))
# each share within 3.29 standard deviations of the binomial
for m in "rd $rd 0.7" "wr $wr 0.2" "cm $lg 0.1"; do
	set -- $m
	z=$(binomial_z "$2" "$draws" "$3")
	within_z "$z" "$Z" || fail "member $1: $2 of $draws draws, $z standard deviations from $3"
done
# the rate limit (4000 reads and writes a second, not fsyncs): never
# much faster, however fast the machine
secs=$(sed -n 's/.*Run took \([0-9.]*\) seconds.*/\1/p' "$tmp/comp.out")
awk -v s="$secs" -v n="$draws" 'BEGIN { exit !(s >= 0.9 * n / 4000) }' ||
	fail "$draws reads and writes at 4000/s took $secs s"
ok "composes: $draws draws in passes of 2 (rd $rd, wr $wr, cm $lg writes + $sy fsyncs), finishoncount at $total, iopslimit: $secs s"

# ---- percentage_random: sequential runs from random starts ---------------
cat >"$tmp/pct.fio" <<EOT
[pct]
rw=randread
percentage_random=25
bs=4k
size=4m
directory=$tmp
filename=mix.dat
loops=4
EOT
"$FLOWBENCH" import-fio "$tmp/pct.fio" >"$tmp/pct.f" 2>"$tmp/import.err" ||
	{ cat "$tmp/import.err"; fail "import-fio of percentage_random failed"; }
traced pct "$tmp/pct.f" --seed 2
sequence "$tmp/pct.st" >"$tmp/pct.seq"
# a sequential read continues from the previous read, random or not:
# count the reads that start where the one before ended
follow=$(awk 'NR > 1 && $2 == prev + 4096 { k++ } { prev = $2 } END { print k + 0 }' "$tmp/pct.seq")
seq=$(breakdown_field "$tmp/pct.out" pct.read-seq ops)
rnd=$(breakdown_field "$tmp/pct.out" pct.read ops)
# every sequential read follows (but at the file's end, where it wraps:
# at most one in 1024 blocks), and a random read rarely does (1 in 1024)
awk -v f="$follow" -v s="$seq" -v r="$rnd" 'BEGIN { exit !(f >= s - s / 100 - 2 && f <= s + r / 100 + 2) }' ||
	fail "percentage_random: $follow of $seq sequential reads follow the read before"
ok "percentage_random=25: $rnd random reads, $seq sequential ones, $follow reads start where the one before ended"

# ---- compat ----------------------------------------------------------------
rc=0
"$FLOWBENCH" check --compat filebench "$tmp/comp.f" >"$tmp/compat.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "comp.f:7:.*choose is a flowbench extension.*--compat filebench refuses it" \
	"$tmp/compat.out" || { cat "$tmp/compat.out"; fail "--compat filebench: status $rc"; }
ok "--compat filebench refuses choose, at its line"
