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
	"$FLOWBENCH" run --cache warm "$tmp/$1.run.f" >"$tmp/$1.out" 2>"$tmp/$1.err" || rc=$?
}

# took NAME: the "Run took N seconds" value
took() {
	sed -n 's/.*Run took \([0-9.]*\) seconds.*/\1/p' "$tmp/$1.out"
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
awk -v t="$(took first)" 'BEGIN { exit !(t < 5) }' ||
	fail "firstdone did not end the run early (took $(took first) s)"
grep -q 'IO Summary' "$tmp/first.out" || fail "firstdone: no IO Summary"
ok "firstdone: finishoncount ends the run at 1000 reads, with results, status 0"

# --- timeout mode: a finish limit keeps the results too (filebench: none)
sed 's/^set mode quit firstdone$//' "$tmp/first.f" >"$tmp/tmo.f"
run_wml tmo
[ $rc = 0 ] || { cat "$tmp/tmo.err"; fail "timeout-mode finish exited $rc"; }
[ "$(breakdown_field "$tmp/tmo.out" r1 ops)" = 1000 ] || fail "timeout: r1 != 1000 ops"
awk -v t="$(took tmo)" -v r="$(breakdown_field "$tmp/tmo.out" r1 opss)" \
    'BEGIN { exit !(t < 5 && r > 0) }' || fail "timeout: no early end or no rate"
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
awk -v t="$(took all)" 'BEGIN { exit !(t >= 0.55 && t < 3) }' ||
	fail "alldone: run took $(took all) s, expected about 0.6"
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
run_wml plain
[ $rc = 0 ] || fail "plain run exited $rc"
run_wml ps
[ $rc = 0 ] || { cat "$tmp/ps.err"; fail "psrun exited $rc"; }
c=$(grep -c 'Per-Operation Breakdown' "$tmp/ps.out")
[ "$c" = 3 ] || fail "psrun -1 3 printed $c breakdowns, expected 3"
[ "$(grep -c 'IO Summary' "$tmp/ps.out")" = 3 ] || fail "psrun: an IO Summary per breakdown"
# interval snapshots: tick (10 per second) shows about 10 per interval
# (fewer when a loaded machine stretches its sleeps), and the final
# report covers the whole run (at least the two intervals together)
awk '$1 == "tick" { gsub(/ops/, "", $2); v[++k] = $2 + 0 }
     END { exit !(k == 3 && v[1] >= 5 && v[1] <= 11 && v[2] >= 5 && v[2] <= 11 &&
		  v[3] >= 15 && v[3] <= 31 && v[3] >= v[1] + v[2]) }' "$tmp/ps.out" ||
	fail "psrun interval counts: $(grep '^tick ' "$tmp/ps.out" | tr '\n' '|')"
p=$(breakdown_field "$tmp/plain.out" r1 opss)
q=$(grep '^r1 ' "$tmp/ps.out" | tail -1 | awk '{ gsub(/ops\/s/, "", $3); print $3 }')
# filebench's snapshots pause the workers 1 s per snapshot: 1/3 of the rate
awk -v p="$p" -v q="$q" 'BEGIN { exit !(q > 0.5 * p) }' ||
	fail "psrun slowed the workers: $q ops/s vs $p without psrun"
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
# a 10 ms delay falls in bucket 24 (2^23 <= 1e7 ns < 2^24): b[1] is "["
grep "^d " "$tmp/hist.out" | awk -F'\t' '{ split($2, b, " "); exit !(b[26] > 0) }' ||
	fail "10 ms delays not in bucket 24: $(grep '^d ' "$tmp/hist.out")"
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
