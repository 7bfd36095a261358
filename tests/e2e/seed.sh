#!/bin/sh
# seed.sh - --seed makes a run's random choices repeatable: the first
# random read offsets are the same in two runs with the same seed and
# differ with another seed; without --seed the chosen seed is printed.
. "$(dirname "$0")/lib.sh"
need strace

cat >"$tmp/seed.f" <<'WML'
set $dir=/tmp
define file name=f,path=$dir,size=4m,prealloc,reuse
define process name=p { thread name=t { flowop read name=r,filename=f,iosize=4k,random } }
run 1
WML
"$FLOWBENCH" run "$tmp/seed.f" -D dir="$tmp" --cache keep >"$tmp/out0" 2>&1 ||
	{ cat "$tmp/out0"; fail "first run failed"; }
grep -Eq 'Seed: [0-9]+ \(repeat this run.s random choices with --seed [0-9]+\)' "$tmp/out0" ||
	fail "a run without --seed does not print its seed"
ok "a run without --seed prints the seed it chose"

# offsets of the first 50 preads of 4 KiB
offsets() {
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -ff -qq -s 0 -e trace=pread64 -o "$tmp/tr$1" \
		"$FLOWBENCH" run "$tmp/seed.f" -D dir="$tmp" --cache keep --seed "$2" \
		--runtime 0.3 >/dev/null 2>&1 || fail "run with --seed $2 failed"
	cat "$tmp/tr$1".* | sed -n 's/^pread64([0-9]*, .*, 4096, \([0-9]*\)).*/\1/p' | head -50
}
a=$(offsets a 7)
b=$(offsets b 7)
c=$(offsets c 8)
[ "$(echo "$a" | wc -l)" -eq 50 ] || fail "expected 50 offsets, got: $a"
[ "$a" = "$b" ] || fail "two runs with --seed 7 read different offsets"
[ "$a" != "$c" ] || fail "--seed 7 and --seed 8 read the same offsets"
ok "--seed 7 twice: the same 50 offsets; --seed 8: others"
