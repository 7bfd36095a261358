#!/bin/sh
# runcontrol.sh - quit modes, psrun and lathist: finish limits end runs
# early WITH results and status 0 in every mode; alldone waits for every
# thread; psrun prints one breakdown per period plus the final one and
# does not slow the workers; lathist appends filebench's 64 buckets.
. "$(dirname "$0")/lib.sh"

n=0
# run_wml NAME: run $tmp/NAME.f (files under a fresh directory) into
# $tmp/NAME.out / .err; sets $rc.
run_wml() {
	n=$((n + 1))
	mkdir -p "$tmp/d$n"
	sed "s|@DIR@|$tmp/d$n|g" "$tmp/$1.f" >"$tmp/$1.run.f"
	rc=0
	"$FLOWBENCH" run --cache keep "$tmp/$1.run.f" >"$tmp/$1.out" 2>"$tmp/$1.err" || rc=$?
}

# took NAME: the "Run took N seconds" value
took() {
	sed -n 's/.*Run took \([0-9.]*\) seconds.*/\1/p' "$tmp/$1.out"
}

# busy NAME FLOWOP...: seconds the FLOWOPs' ops took in all (ops x ms/op
# of the final report), for bounds by the time a thread really spent
busy() {
	out=$1
	shift
	for f in "$@"; do
		echo "$(breakdown_field "$tmp/$out.out" "$f" ops) $(breakdown_field "$tmp/$out.out" "$f" msop)"
	done | awk '{ s += $1 * $2 / 1000 } END { printf "%.6f\n", s }'
}

# --- firstdone + finishoncount: early end, results, status 0 ----------
cat >"$tmp/first.f" <<'W'
set mode quit firstdone
define file name=f1, path=@DIR@, size=1m, prealloc
define process name=p1 {
  thread name=t1 {
    flowop read name=r1, filename=f1, iosize=4k
    flowop finishoncount name=fin, value=1000
  }
  thread name=t2 {
    flowop delay name=slow, value=0.05
  }
}
run 30
W
run_wml first
[ $rc = 0 ] || { cat "$tmp/first.err"; fail "firstdone run exited $rc"; }
[ "$(breakdown_field "$tmp/first.out" r1 ops)" = 1000 ] ||
	fail "firstdone: r1 should have exactly 1000 ops: $(grep '^r1 ' "$tmp/first.out")"
# ended early: well before the 30 s a run not cut short takes
awk -v t="$(took first)" 'BEGIN { exit !(t < 15) }' ||
	fail "firstdone did not end the run early (took $(took first) of 30 s)"
grep -q 'IO Summary' "$tmp/first.out" || fail "firstdone: no IO Summary"
ok "firstdone: finishoncount ends the run at 1000 reads, with results, status 0"

# --- timeout mode: a finish limit keeps the results too (filebench: none)
sed 's/^set mode quit firstdone$//' "$tmp/first.f" >"$tmp/tmo.f"
run_wml tmo
[ $rc = 0 ] || { cat "$tmp/tmo.err"; fail "timeout-mode finish exited $rc"; }
[ "$(breakdown_field "$tmp/tmo.out" r1 ops)" = 1000 ] || fail "timeout: r1 != 1000 ops"
awk -v t="$(took tmo)" -v r="$(breakdown_field "$tmp/tmo.out" r1 opss)" \
    'BEGIN { exit !(t < 15 && r > 0) }' || fail "timeout: no early end (took $(took tmo) of 30 s) or no rate"
ok "timeout mode: a finish limit ends the run with results, status 0"

# --- alldone: every thread stops by itself; the run waits for the last -
cat >"$tmp/all.f" <<'W'
set mode quit alldone
define file name=f1, path=@DIR@, size=1m, prealloc
define process name=p1 {
  thread name=fast, instances=2 {
    flowop read name=r1, filename=f1, iosize=4k
    flowop finishoncount name=fin1, value=500
  }
  thread name=slow {
    flowop delay name=d, value=0.2
    flowop finishoncount name=fin2, value=3, target=d
  }
}
run
W
run_wml all
[ $rc = 0 ] || { cat "$tmp/all.err"; fail "alldone run exited $rc"; }
[ "$(breakdown_field "$tmp/all.out" r1 ops)" = 1000 ] || fail "alldone: r1 != 2 x 500"
[ "$(breakdown_field "$tmp/all.out" d ops)" = 3 ] || fail "alldone: the slow thread did not finish its 3 delays"
# the run lasts through the slow thread's three delays as measured (a
# busy machine stretches them), and ends soon after: within twice as
# long again (a stall of the whole process of over a second fails it)
slow=$(busy all d)
awk -v t="$(took all)" -v s="$slow" 'BEGIN { exit !(s >= 0.6 && t >= s - 0.001 && t < 3 * s) }' ||
	fail "alldone: run took $(took all) s, the slow thread's 3 delays $slow s"
ok "alldone: the run ends when the last thread stops (took $(took all) s)"

# --- psrun -1 3: 2 interval snapshots + the final one, workers unslowed -
cat >"$tmp/plain.f" <<'W'
define file name=f1, path=@DIR@, size=1m, prealloc
define process name=p1 {
  thread name=t1 {
    flowop read name=r1, filename=f1, iosize=4k
    flowop hog name=h, value=2000
  }
  thread name=t2 {
    flowop delay name=tick, value=0.1
  }
}
run 3
W
sed 's/^run 3$/psrun -1 3/' "$tmp/plain.f" >"$tmp/ps.f"
# both_runs: the plain run and the psrun at the same time, so that the
# load of a busy machine, which changes from one second to the next,
# weighs on both alike (run one after the other, their rates differed by
# up to half under ASan and stress-ng)
both_runs() {
	(run_wml plain; echo $rc >"$tmp/plain.rc") &
	n=$((n + 1))            # the directory the background run took
	run_wml ps
	wait $!
	[ "$(cat "$tmp/plain.rc")" = 0 ] || fail "plain run exited $(cat "$tmp/plain.rc")"
	[ $rc = 0 ] || { cat "$tmp/ps.err"; fail "psrun exited $rc"; }
}
both_runs
c=$(grep -c 'Per-Operation Breakdown' "$tmp/ps.out")
[ "$c" = 3 ] || fail "psrun -1 3 printed $c breakdowns, expected 3"
[ "$(grep -c 'IO Summary' "$tmp/ps.out")" = 3 ] || fail "psrun: an IO Summary per breakdown"
# Interval snapshots hold the interval's ticks (each delay >= 0.1 s),
# not the run's so far: at most the interval's length (IO Summary ops /
# ops/s) / 0.1 + 1, and some.  The final report covers the whole run,
# whose ticks, as measured (stretched on a busy machine), fill at least
# half of it: filebench's snapshots pause the workers 1 s each, a third
# of the run.
awk -v run="$(took ps)" '
	/IO Summary:/ { len[++k] = $4 / $6 }
	$1 == "tick" { n[++j] = $2 + 0; ms[j] = $5 + 0 }
	END {
		if (j != 3 || k != 3) exit 1
		len[3] = run
		for (i = 1; i <= 3; i++)
			if (n[i] < 1 || n[i] > len[i] / 0.1 + 1) exit 1
		exit !(n[3] >= n[1] + n[2] && n[3] * ms[3] / 1000 >= 0.5 * run)
	}' "$tmp/ps.out" ||
	fail "psrun interval counts: $(grep -E '^tick |IO Summary' "$tmp/ps.out" | tr '\n' '|')"
# and it does not slow the workers' hot path: r1's rate against the plain
# run's beside it; a second pair decides (a busy machine's scheduler may
# still favour one for a while)
q_of() { grep '^r1 ' "$tmp/$1.out" | tail -1 | awk '{ gsub(/ops\/s/, "", $3); print $3 }'; }
p=$(breakdown_field "$tmp/plain.out" r1 opss)
q=$(q_of ps)
if ! awk -v p="$p" -v q="$q" 'BEGIN { exit !(q > 0.5 * p) }'; then
	echo "psrun: $q ops/s vs $p without psrun; once more"
	both_runs
	p=$(breakdown_field "$tmp/plain.out" r1 opss)
	q=$(q_of ps)
	awk -v p="$p" -v q="$q" 'BEGIN { exit !(q > 0.5 * p) }' ||
		fail "psrun slowed the workers: $q ops/s vs $p without psrun"
fi
ok "psrun -1 3: 3 breakdowns, interval counts, $q ops/s vs $p without psrun"

# --- lathist: TAB, "[ ", 64 counts each followed by a space, "]" ------
cat >"$tmp/hist.f" <<'W'
enable lathist
define file name=f1, path=@DIR@, size=1m, prealloc
define process name=p1 {
  thread name=t1 {
    flowop read name=r1, filename=f1, iosize=4k
    flowop delay name=d, value=0.01
  }
}
run 1
W
run_wml hist
[ $rc = 0 ] || fail "lathist run exited $rc"
for op in r1 d; do
	l=$(grep "^$op " "$tmp/hist.out")
	printf '%s\n' "$l" | grep -Eq "ms\]	\[ ([0-9]+ ){64}\]\$" ||
		fail "$op: histogram format: $l"
	printf '%s\n' "$l" | awk -F'\t' '{ ops = $1; sub(/ops.*/, "", ops); sub(/^[^ ]+ +/, "", ops)
		n = split($2, b, " "); s = 0; for (i = 2; i < n; i++) s += b[i]
		exit !(s == ops && ops > 0) }' || fail "$op: histogram total != ops: $l"
done
# Each delay counts in the bucket of its latency (bucket i: 2^(i-1) <=
# ns < 2^i; b[i + 2], b[1] is "["): every count between the buckets of
# the measured min and max (a busy machine may stretch the 10 ms, into
# bucket 25), the min's bucket not empty; never earlier than bucket 24
# (2^23 <= 1e7 ns), as a delay never returns early.  The extremes are
# printed to the microsecond: one bucket either side of a boundary.
grep "^d " "$tmp/hist.out" | awk -F'\t' -v min="$(breakdown_field "$tmp/hist.out" d min)" \
    -v max="$(breakdown_field "$tmp/hist.out" d max)" '
	function bucket(ns,  i) { for (i = 0; ns >= 1; i++) ns /= 2; return i }
	{
		min *= 1e6; max *= 1e6
		lo = bucket(min - 500); hi = bucket(max + 500)
		n = split($2, b, " ")
		for (i = 2; i < n; i++)
			if (b[i] > 0 && (i - 2 < lo || i - 2 > hi)) exit 1
		exit !(lo >= 24 && b[bucket(min - 500) + 2] + b[bucket(min + 500) + 2] > 0)
	}' || fail "10 ms delays not in the buckets of their latencies: $(grep '^d ' "$tmp/hist.out")"
ok "lathist: 64 buckets after each line, summing to the op count"

# --- no file to create: timeout fails (status 1, why), firstdone ends ---
cat >"$tmp/nofile.f" <<'W'
define fileset name=fs1, path=@DIR@, size=4k, entries=3, dirwidth=10, prealloc=100
define process name=p1 {
  thread name=t1 {
    flowop createfile name=cf, filesetname=fs1
    flowop closefile name=cl, filesetname=fs1
  }
}
run 5
W
run_wml nofile
{
	[ $rc = 1 ] || fail "timeout mode, no file to create: exit $rc, expected 1"
	grep -qE "flowop cf \(createfile\) could not obtain a file of fileset 'fs1' \([0-9]+ files: [0-9]+ exist, 0 do not, [0-9]+ busy\)" "$tmp/nofile.err" ||
		fail "no reason given: $(cat "$tmp/nofile.err")"
	grep -q 'partial results' "$tmp/nofile.out" || fail "a failed run must print its results so far, marked partial"
	(echo "set mode quit firstdone"; cat "$tmp/nofile.f") >"$tmp/nofile1.f"
	run_wml nofile1
	[ $rc = 0 ] || { cat "$tmp/nofile1.err"; fail "firstdone, no file: exit $rc"; }
	grep -q 'IO Summary' "$tmp/nofile1.out" || fail "firstdone, no file: no results"
	ok "no file to create: timeout fails with the reason (1), firstdone ends with results (0)"
}

# A random delay beyond any run's length (sampled at run time, past the
# compiler's range check) waits until the run ends, with no overflow
# (UBSan in the sanitizer build reported one here)
cat >"$tmp/bigdelay.f" <<'W'
set $long = randvar(type=uniform, min=20000000000, mean=25000000000)
define process name=p { thread name=t { flowop delay name=z, value=$long } }
run 1
W
run_wml bigdelay
{
	[ $rc = 0 ] || { cat "$tmp/bigdelay.err"; fail "random delay of 2e10-3e10 s: exit $rc"; }
	grep -q 'Run took 1 seconds' "$tmp/bigdelay.out" || { cat "$tmp/bigdelay.out"; fail "random huge delay: the run did not end at 1 s"; }
	ok "a random delay of 2e10-3e10 s is held to the run: ends at 1 s, no overflow"
}
