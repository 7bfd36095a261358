#!/bin/sh
# fio-patterns.sh - fio's I/O patterns that flowbench's extensions
# express, seen in the system calls a run makes (strace):
#  - randommap: each pass over the working set reads every block exactly
#    once, in a new order each pass; plain `random` (the control) repeats
#    blocks within a pass, as drawing with replacement does.
. "$(dirname "$0")/lib.sh"
need strace

# offsets FILE: the offsets of the 4 KiB pread64 calls strace logged, in order
offsets() {
	awk '$0 ~ /pread64\(/ && $0 ~ /, 4096, [0-9]+\) *= 4096/ {
		s = $0; sub(/\) *=.*/, "", s); n = split(s, a, ", "); print a[n] }' "$1"
}

# traced NAME WORKLOAD ARGS...: the run under strace, its preads in $tmp/NAME.st
traced() {
	name=$1
	shift
	timeout 120 strace -f -qq -e trace=pread64 -e signal=none -s 0 \
		-o "$tmp/$name.st" "$FLOWBENCH" run "$@" --cache warm >"$tmp/$name.out" 2>&1 ||
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
