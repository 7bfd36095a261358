#!/bin/sh
# fio-patterns.sh - fio's I/O patterns that flowbench's extensions
# express, seen in the system calls a run makes (strace):
#  - randommap: each pass over the working set reads every block exactly
#    once, in a new order each pass; plain `random` (the control) repeats
#    blocks within a pass, as drawing with replacement does.
#  - eventgen poisson: the reads an eventlimit paces come at exponential
#    gaps, their mean the generator's period, about 68 % of them between
#    a fifth of it and twice it (steady batches: none) and 13.5 % longer;
#    the steady generator (the control, at a rate where it delivers one
#    event per batch) has almost none over twice its period.
#  - stride: sequential reads with a hole after each (fio's rw=read:8k)
#    and backwards (rw=read:-8k), wrapping at the file's ends as fio does.
. "$(dirname "$0")/lib.sh"
need strace

# offsets FILE: the offsets of the 4 KiB pread64 calls strace logged, in order
offsets() {
	awk '$0 ~ /pread64\(/ && $0 ~ /, 4096, [0-9]+\) *= 4096/ {
		s = $0; sub(/\) *=.*/, "", s); n = split(s, a, ", "); print a[n] }' "$1"
}

# traced NAME WORKLOAD ARGS...: the run under strace, its preads in $tmp/NAME.st
# (STRACE_T=-ttt: with their times)
traced() {
	name=$1
	shift
	# LeakSanitizer cannot run under ptrace
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	timeout 120 strace -f -qq ${STRACE_T:-} -e trace=pread64 -e signal=none -s 0 \
		-o "$tmp/$name.st" "$FLOWBENCH" run "$@" --cache keep >"$tmp/$name.out" 2>&1 ||
		{ cat "$tmp/$name.out"; fail "$name: the run failed"; }
}

# ---- randommap ---------------------------------------------------------
cat >"$tmp/map.f" <<EOT
set \$map=true
define file name=f,path=$tmp,size=1m,prealloc,reuse
define process name=p,instances=1
{
  thread name=t,memsize=4k,instances=1
  {
    flowop read name=rr,filename=f,iosize=4k,random,randommap=\$map
    flowop finishoncount name=fin,value=512
  }
}
run 60
EOT
traced map "$tmp/map.f"
offsets "$tmp/map.st" >"$tmp/map.offs"
[ "$(wc -l <"$tmp/map.offs")" -ge 512 ] || fail "randommap: fewer than 512 reads traced"
for pass in 1 2; do
	sed -n "$(( (pass - 1) * 256 + 1 )),$(( pass * 256 ))p" "$tmp/map.offs" >"$tmp/pass$pass"
	bad=$(awk '$1 % 4096 || $1 >= 1048576' "$tmp/pass$pass" | head -1)
	[ -z "$bad" ] || fail "randommap: offset $bad is not a block of the 1 MiB file"
	n=$(sort -u "$tmp/pass$pass" | wc -l)
	[ "$n" -eq 256 ] || fail "randommap: pass $pass read $n distinct blocks of 256"
done
cmp -s "$tmp/pass1" "$tmp/pass2" && fail "randommap: pass 2 repeated pass 1's order"
sort -n "$tmp/pass1" | cmp -s - "$tmp/pass1" && fail "randommap: pass 1 was sequential"
ok "randommap: every one of 256 blocks once in each of two passes, in two random orders"

traced plain "$tmp/map.f" -D map=false
n=$(offsets "$tmp/plain.st" | head -256 | sort -u | wc -l)
[ "$n" -lt 240 ] || fail "plain random: $n distinct blocks in 256 reads (with replacement: about 162)"
ok "plain random (the control): $n distinct blocks in 256 reads, blocks repeat"

# ---- eventgen poisson --------------------------------------------------
cat >"$tmp/pois.f" <<EOT
set \$p=true
set \$rate=200
define file name=f,path=$tmp,size=1m,prealloc,reuse
define process name=p,instances=1
{
  thread name=t,memsize=4k,instances=1
  {
    flowop eventlimit name=el
    flowop read name=rd,filename=f,iosize=4k
  }
}
eventgen rate=\$rate, poisson=\$p
run 3
EOT
# gaps NAME PERIOD: "count mean mid long" of the gaps between the traced
# 4 KiB reads: mid = the fraction between a fifth of PERIOD (the nominal
# one) and twice it, long = the fraction over twice it.  Not the
# coefficient of variation: one stall of the traced process on a busy
# machine (0.8 s was seen) makes it 6 whatever the arrivals; a stall adds
# one long gap and, as the arrivals due meanwhile come at once after it,
# short ones, so it lowers mid in proportion and no more.
gaps() {
	awk '$0 ~ /, 4096, [0-9]+\) *=/ { print $2 }' "$tmp/$1.st" |
		awk -v p="$2" 'NR > 1 { g = $1 - prev; n++; s += g
				l += (g > 2 * p); m += (g > p / 5 && g <= 2 * p) }
			{ prev = $1 }
			END { printf "%d %.6f %.3f %.3f\n", n, s / n, m / n, l / n }'
}
STRACE_T=-ttt traced pois "$tmp/pois.f"
set -- $(gaps pois 0.005)
echo "poisson at 200/s: $1 gaps, mean $2 s, $3 of them 1-10 ms, $4 over 10 ms"
# 3 s at 200/s: about 600 arrivals (the count is Poisson: sd 25)
[ "$1" -ge 400 ] || fail "poisson: only $1 reads paced in 3 s at 200/s"
awk -v m="$2" 'BEGIN { exit !(m > 0.004 && m < 0.00625) }' ||
	fail "poisson: mean gap $2 s, not within 20 % of the 5 ms period"
# exponential gaps: e^-0.2 - e^-2 = 0.68 of them between 1 and 10 ms,
# e^-2 = 0.135 over 10 ms; steady arrivals at 200/s come in batches of
# 10 every 50 ms: none between 1 and 10 ms
awk -v m="$3" -v l="$4" 'BEGIN { exit !(m > 0.35 && l > 0.05 && l < 0.3) }' ||
	fail "poisson: $3 of the gaps between 1 and 10 ms (exponential: 0.68), $4 over 10 ms (0.135)"
ok "eventgen poisson: mean gap $2 s (period 0.005), $3 of the gaps 1-10 ms, $4 over (exponential: 0.68, 0.135)"

# the control: steady at 10/s delivers one event per 100 ms batch
STRACE_T=-ttt traced steady "$tmp/pois.f" -D p=false -D rate=10
set -- $(gaps steady 0.1)
[ "$1" -ge 15 ] || fail "steady: only $1 reads paced in 3 s at 10/s"
awk -v l="$4" 'BEGIN { exit !(l < 0.12) }' ||
	fail "steady: $4 of the gaps over twice the period, not near 0"
ok "steady eventgen (the control): $1 gaps, mean $2 s, $4 of them over 200 ms"

# ---- stride ------------------------------------------------------------
cat >"$tmp/stride.f" <<EOT
set \$stride=8k
define file name=g,path=$tmp,size=64k,prealloc,reuse
define process name=p,instances=1
{
  thread name=t,memsize=4k,instances=1
  {
    flowop read name=rd,filename=g,iosize=4k,stride=\$stride
    flowop finishoncount name=fin,value=16
  }
}
run 60
EOT
# kib NAME: the traced read offsets in KiB, on one line
kib() {
	offsets "$tmp/$1.st" | head -16 | awk '{ printf "%s%d", (NR > 1 ? " " : ""), $1 / 1024 }'
}
traced fwd "$tmp/stride.f"
want="0 12 24 36 48 60 0 12 24 36 48 60 0 12 24 36"
[ "$(kib fwd)" = "$want" ] || fail "stride=8k: offsets (KiB) $(kib fwd), not $want"
ok "stride=8k on a 64 KiB file: $want (KiB): 4k read, 8k hole, back to 0 past the end"
traced back "$tmp/stride.f" -D stride=-8k
want="0 56 52 48 44 40 36 32 28 24 20 16 12 8 4 0"
[ "$(kib back)" = "$want" ] || fail "stride=-8k: offsets (KiB) $(kib back), not $want"
ok "stride=-8k: $want (KiB): at 0 (as fio), then from the end backwards, back to the end past 0"

# a backward stride longer than the working set: the run fails, saying so
rc=0
"$FLOWBENCH" run "$tmp/stride.f" -D stride=-128k --cache keep >"$tmp/long.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] && grep -q "stride -131072 reaches before the start of the 65536-byte working set" \
	"$tmp/long.out" || { cat "$tmp/long.out"; fail "stride=-128k on 64 KiB: status $rc"; }
ok "stride=-128k on a 64 KiB file: the run fails, with the sizes"
