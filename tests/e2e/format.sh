#!/bin/sh
# format.sh - randomrw's report has filebench's exact line formats, and
# its numbers agree with each other (bytes = ops x iosize, rates = counts
# divided by the run time, min <= mean <= max).
. "$(dirname "$0")/lib.sh"

out=$tmp/out
"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp" \
	-D filesize=16m -D nthreads=1 -D runtime=2 >"$out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$out"; fail "flowbench exited with $?"; }

# filebench: %-20s %dops %8.0fops/s %5.1fmb/s %8.3fms/op [%.3fms - %5.3fms]
line='^[a-z0-9-]{1,20} +[0-9]+ops +[0-9]+ops/s +[0-9]+\.[0-9]mb/s +[0-9]+\.[0-9]{3}ms/op \[[0-9]+\.[0-9]{3}ms - +[0-9]+\.[0-9]{3}ms\]$'
for op in rand-read1 rand-write1; do
	grep -E "^$op " "$out" | grep -Eq "$line" ||
		fail "$op line does not match the filebench format: $(grep "^$op" "$out")"
done
ok "per-flowop lines match the filebench format"

# order: most recently defined first, as filebench prints them
first=$(grep -nE '^rand-(read|write)1 ' "$out" | head -1 | cut -d: -f2 | cut -d' ' -f1)
[ "$first" = "rand-write1" ] || fail "breakdown order: expected rand-write1 first, got $first"
ok "breakdown lists the most recently defined flowop first"

grep -Eq '^[0-9]+\.[0-9]{3}: Per-Operation Breakdown$' "$out" || fail "no Per-Operation Breakdown header"
grep -Eq '^[0-9]+\.[0-9]{3}: IO Summary: +[0-9]+ ops [0-9]+\.[0-9]{3} ops/s [0-9]+/[0-9]+ rd/wr +[0-9]+\.[0-9]mb/s [0-9]+\.[0-9]{3}ms/op$' "$out" ||
	fail "IO Summary line does not match: $(grep 'IO Summary' "$out")"
ok "IO Summary line matches the filebench format"

for op in rand-read1 rand-write1; do
	ops=$(breakdown_field "$out" $op ops)
	opss=$(breakdown_field "$out" $op opss)
	mbs=$(breakdown_field "$out" $op mbs)
	msop=$(breakdown_field "$out" $op msop)
	min=$(breakdown_field "$out" $op min)
	max=$(breakdown_field "$out" $op max)
	[ "$ops" -gt 0 ] || fail "$op did no ops"
	awk -v ops="$ops" -v opss="$opss" -v mbs="$mbs" -v msop="$msop" \
	    -v min="$min" -v max="$max" 'BEGIN {
		rate = ops / 2.0
		# the window may end a few microseconds after the run time
		if (opss > rate + 1 || opss < rate * 0.99 - 1) { print "ops/s " opss " vs " rate; exit 1 }
		want = opss * 8192 / 1048576
		if (mbs - want > 0.1 + want * 0.001 || want - mbs > 0.1 + want * 0.001) { print "mb/s " mbs " vs " want; exit 1 }
		if (min > msop + 0.0005 || msop > max + 0.0005 || min <= 0 && max <= 0) { print "min/mean/max " min " " msop " " max; exit 1 }
	}' || fail "$op numbers are inconsistent"
done
ok "ops/s = ops / run time, mb/s = ops/s x 8 KiB, min <= mean <= max"

sum_ops=$(awk '/IO Summary:/ {print $4}' "$out")
r=$(breakdown_field "$out" rand-read1 ops)
w=$(breakdown_field "$out" rand-write1 ops)
# each of the 2 threads opens the file once, implicitly, on its first op
opens=$(sed -n 's/.*Implicit opens: *\([0-9][0-9]*\).*/\1/p' "$out")
[ "$opens" = 2 ] || fail "expected 2 implicit opens reported, got '$opens'"
[ "$sum_ops" -eq $((r + w + opens)) ] ||
	fail "IO Summary ops $sum_ops != reads $r + writes $w + implicit opens $opens"
ok "IO Summary ops = reads + writes + implicit opens ($sum_ops)"
