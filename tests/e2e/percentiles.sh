#!/bin/sh
# percentiles.sh - flowbench's latency percentile block on a real run:
# printed after the IO Summary, one line per flowop that ran, in the
# breakdown's order, min <= p50 <= p90 <= ... <= max of the breakdown
# line; --percentiles chooses the columns and rejects bad lists; the op
# clock's read cost is logged.
. "$(dirname "$0")/lib.sh"

out=$tmp/out
"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp" \
	-D filesize=4m -D nthreads=1 -D runtime=1 >"$out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$out"; fail "flowbench exited with $?"; }

hdr='^[0-9]+\.[0-9]{3}: Latency percentiles +p50 +p90 +p95 +p99 +p99\.9 +p99\.99$'
grep -Eq "$hdr" "$out" || fail "no default percentile header: $(grep -i percentiles "$out")"
# the block comes after the IO Summary
awk '/IO Summary:/ { s = NR } /Latency percentiles/ { h = NR } END { exit !(s && h > s) }' "$out" ||
	fail "the percentile block is not after the IO Summary"
ok "default percentile header after the IO Summary"

# lines: stamp, name, six latencies in automatic units (4 significant
# digits: 812ns, 3.605µs, 12.35ms); never "^name "
lines=$(grep -A2 'Latency percentiles' "$out" | tail -2 | awk '{ print $2 }' | tr '\n' ' ')
[ "$lines" = "rand-write1 rand-read1 " ] || fail "percentile lines in breakdown order: got '$lines'"
[ "$(grep -c '^rand-read1 ' "$out")" = 1 ] || fail "a percentile line starts with a flowop name"
# ms(v): a latency with its unit (812ns, 3.605µs, 12.35ms, 1.500s) in ms
awk_ms='function ms(v,  x) {
	x = v
	if (sub(/ns$/, "", x)) return x / 1e6
	if (sub(/ms$/, "", x)) return x + 0
	if (sub(/µs$/, "", x)) return x / 1e3
	if (sub(/s$/, "", x)) return x * 1e3
	return -1
}'
for op in rand-read1 rand-write1; do
	min=$(breakdown_field "$out" $op min)
	max=$(breakdown_field "$out" $op max)
	grep -E "^[0-9.]+: $op " "$out" | awk -v min="$min" -v max="$max" "$awk_ms"'
	{
		if (NF != 8) { print "fields: " NF; exit 1 }
		prev = min - 0.0005          # the breakdown rounds to 3 decimals
		for (i = 3; i <= 8; i++) {
			if ($i !~ /^([0-9]+ns|[0-9]\.[0-9][0-9][0-9](µs|ms|s)|[0-9][0-9]\.[0-9][0-9](µs|ms|s)|[0-9][0-9][0-9]\.[0-9](µs|ms|s))$/) {
				print "not 4 significant digits with a unit: " $i; exit 1
			}
			v = ms($i)
			if (v < prev) { print "not increasing at field " i; exit 1 }
			prev = v
		}
		if (prev > max * 1.0005 + 0.0005) { print "p99.99 " prev " > max " max; exit 1 }
		if (ms($3) <= 0) { print "p50 is 0"; exit 1 }
	}' || fail "$op percentiles: $(grep -E "^[0-9.]+: $op " "$out")"
done
ok "min <= p50 <= p90 <= p95 <= p99 <= p99.9 <= p99.99 <= max for both flowops"

grep -Eq '^[0-9]+\.[0-9]{3}: Clock: (tsc|monotonic), read cost [0-9]+\.[0-9] ns$' "$out" ||
	fail "no clock read cost line: $(grep Clock "$out")"
ok "the op clock's read cost is logged"

"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp" \
	-D filesize=4m -D nthreads=1 -D runtime=1 --percentiles 25,99.999 >"$out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$out"; fail "flowbench --percentiles exited with $?"; }
grep -Eq '^[0-9.]+: Latency percentiles +p25 +p99\.999$' "$out" ||
	fail "--percentiles 25,99.999 header: $(grep -i percentiles "$out")"
grep -E '^[0-9.]+: rand-read1 ' "$out" | awk "$awk_ms"' { exit !(NF == 4 && ms($3) > 0 && ms($3) <= ms($4)) }' ||
	fail "--percentiles 25,99.999 line: $(grep -E '^[0-9.]+: rand-read1 ' "$out")"
ok "--percentiles 25,99.999 prints those two columns"

for bad in 0 100 50,abc 50, -1 "" 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17; do
	if "$FLOWBENCH" run "$WORKLOADS/randomrw.f" --percentiles "$bad" >"$tmp/o" 2>"$tmp/e"; then
		fail "--percentiles '$bad' was accepted"
	fi
	grep -q -- '--percentiles' "$tmp/e" || fail "--percentiles '$bad': unclear error: $(cat "$tmp/e")"
done
ok "--percentiles rejects 0, 100, non-numbers, empty items and more than 16 values"
