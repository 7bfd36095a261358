#!/bin/sh
# compat-ops.sh - what an op is under --compat filebench (reference 4.0,
# 4.3, 4.14, 4.15), counted against the system calls strace sees:
#  1. an implicit open is an op of the flowop that opens (its ops, rd/wr,
#     latency histogram), not a line of its own;
#  2. appendfile appends with lseek(SEEK_END) then write, appendfilerand
#     appends floor(u * (iosize - 1)) bytes (0 is an op touching nothing);
#  3. aiowrite's op is the submission: every write submitted in the
#     window is counted, those still in flight at the end included, with
#     the submit call's latency.
# Each also runs without --compat: flowbench's own rules.
. "$(dirname "$0")/lib.sh"
need strace

# Run WORKLOAD (extra flowbench options after it) under strace -ff with
# the system calls $calls; the report in $tmp/out.$tag, the traces in
# $tmp/tr.$tag.<tid>.  LeakSanitizer cannot run under ptrace.
traced() {
	tag=$1 wml=$2
	shift 2
	rm -f "$tmp/tr.$tag".*
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -ff -qq -s 0 -e trace="$calls" -o "$tmp/tr.$tag" \
		"$FLOWBENCH" run "$wml" -D dir="$tmp/d" --cache keep "$@" \
		>"$tmp/out.$tag" 2>"$tmp/err.$tag" ||
		{ cat "$tmp/err.$tag" "$tmp/out.$tag"; fail "$tag: flowbench under strace failed"; }
}

# count TAG REGEX: calls in TAG's traces matching REGEX (extended).
count() {
	cat "$tmp/tr.$1".* | grep -cE "$2" || true
}

# not_counted TAG NAME: NAME's ops that ended after the deadline.
not_counted() {
	sed -n "s/.*Not counted:.*[(,] *$2 \\([0-9][0-9]*\\).*/\\1/p" "$tmp/out.$1" |
		head -1 | grep . || echo 0
}

# rd_rate TAG: the read ops/s of the IO Summary's rd/wr.
rd_rate() {
	sed -n 's/.*IO Summary:.* \([0-9][0-9]*\)\/[0-9][0-9]* rd\/wr.*/\1/p' "$tmp/out.$1"
}

# near A B: A and B differ by at most 1 (rates printed rounded).
near() {
	[ $(($1 - $2)) -le 1 ] && [ $(($2 - $1)) -le 1 ]
}

mkdir "$tmp/d"
# an implicit open of a fileset file (the master creates them O_CREAT|O_WRONLY)
open_re='^openat2?\(.*O_RDWR\|O_CLOEXEC[,) ].*= [0-9]+$'

# --- 1. implicit opens: read opens the next file, closefile closes it ------
cat >"$tmp/read.f" <<'WML'
set $dir=/tmp
enable lathist
define fileset name=fs,path=$dir,entries=8,dirwidth=8,size=64k,prealloc
define process name=p { thread name=t {
  flowop read name=rd,filesetname=fs,iosize=4k,random
  flowop closefile name=cl
} }
run 1
WML
calls=openat,openat2,pread64
for tag in rd-compat rd-default; do
	opt=
	[ $tag = rd-compat ] && opt="--compat filebench"
	# shellcheck disable=SC2086
	traced $tag "$tmp/read.f" $opt
done

opens=$(count rd-compat "$open_re")
preads=$(count rd-compat '^pread64\([0-9]+, .*, 4096, [0-9]+\) += 4096$')
ops=$(breakdown_field "$tmp/out.rd-compat" rd ops)
late=$(not_counted rd-compat rd)
echo "compat:  rd $ops ops + $late after the deadline; strace: $opens opens, $preads preads"
[ "$preads" -gt 100 ] || fail "too few reads ($preads) to tell"
# every loop opens then reads; one open may straddle the deadline
[ "$opens" -eq "$preads" ] || [ "$opens" -eq $((preads + 1)) ] ||
	fail "compat: $opens opens for $preads reads: not one each"
[ $((ops + late)) -eq $((opens + preads)) ] ||
	fail "compat: rd reports $ops + $late ops, not its $opens implicit opens + $preads reads"
near "$(rd_rate rd-compat)" "$(breakdown_field "$tmp/out.rd-compat" rd opss)" ||
	fail "compat: rd/wr's reads $(rd_rate rd-compat)/s are not rd's $(breakdown_field "$tmp/out.rd-compat" rd opss) ops/s"
if grep -E 'Implicit opens: [1-9]' "$tmp/out.rd-compat"; then
	fail "compat: implicit opens still reported on a line of their own"
fi
# the opens' latencies are in rd's histogram: its buckets add up to its ops
hist=$(awk '$1 == "rd" { s = 0; for (i = 1; i <= NF; i++) if ($i == "[") f = 1;
	else if ($i == "]") f = 0; else if (f) s += $i; print s; exit }' "$tmp/out.rd-compat")
[ "$hist" = "$ops" ] || fail "compat: rd's histogram holds $hist ops, its line $ops"
ok "compat: an implicit open is an op of read (ops = opens + reads, in rd/wr and its histogram)"

opens=$(count rd-default "$open_re")
preads=$(count rd-default '^pread64\([0-9]+, .*, 4096, [0-9]+\) += 4096$')
ops=$(breakdown_field "$tmp/out.rd-default" rd ops)
late=$(not_counted rd-default rd)
implicit=$(sed -n 's/.*Implicit opens: \([0-9][0-9]*\).*/\1/p' "$tmp/out.rd-default")
echo "default: rd $ops ops + $late after the deadline, $implicit implicit opens; strace: $opens opens, $preads preads"
[ $((ops + implicit + late)) -eq $((opens + preads)) ] ||
	fail "default: $ops reads + $implicit opens + $late late != $opens opens + $preads preads"
[ "$ops" -le "$preads" ] || fail "default: rd counts $ops ops for $preads preads"
near "$(rd_rate rd-default)" "$(breakdown_field "$tmp/out.rd-default" rd opss)" ||
	fail "default: rd/wr's reads are not rd's ops/s"
ok "default: implicit opens are ops of their own, not reads"

# --- 2. appendfile: lseek + write; appendfilerand iosize=2: nothing ---------
cat >"$tmp/append.f" <<'WML'
set $dir=/tmp
define fileset name=fs,path=$dir,entries=4,dirwidth=4,size=4k,prealloc
define process name=p { thread name=t {
  flowop appendfile name=app,filesetname=fs,iosize=1k
} }
run 1
WML
calls=lseek,write,pwritev2,openat,openat2
for tag in app-compat app-default; do
	opt=
	[ $tag = app-compat ] && opt="--compat filebench"
	# shellcheck disable=SC2086
	traced $tag "$tmp/append.f" $opt
done

seeks=$(count app-compat '^lseek\([0-9]+, 0, SEEK_END\) += [0-9]+$')
writes=$(count app-compat '^write\([0-9]+, .*, 1024\) += 1024$')
appends=$(count app-compat '^pwritev2\(')
opens=$(count app-compat "$open_re")
ops=$(breakdown_field "$tmp/out.app-compat" app ops)
late=$(not_counted app-compat app)
echo "compat:  app $ops ops + $late after the deadline; strace: $seeks lseek(SEEK_END), $writes write, $appends pwritev2, $opens opens"
[ "$writes" -gt 100 ] || fail "too few appends ($writes) to tell"
[ "$appends" -eq 0 ] || fail "compat: appendfile used pwritev2 $appends times"
# pairs: in the worker's trace, each 1 KiB write right after an lseek to the end
pairs=$(cat "$tmp/tr.app-compat".* | awk '
	/^lseek\([0-9]+, 0, SEEK_END\)/ { seek = 1; next }
	/^write\([0-9]+, .*, 1024\) += 1024$/ { if (seek) n++; seek = 0; next }
	{ seek = 0 }
	END { print n + 0 }')
[ "$pairs" -eq "$writes" ] && [ "$seeks" -eq "$writes" ] ||
	fail "compat: $writes writes, $seeks lseeks, $pairs lseek+write pairs"
# one thread, one slot: one implicit open, an op of appendfile
[ "$opens" -eq 1 ] || fail "compat: $opens implicit opens, 1 expected"
[ $((ops + late)) -eq $((writes + opens)) ] ||
	fail "compat: app reports $ops + $late ops for $writes appends and $opens open"
ok "compat: appendfile is lseek(SEEK_END) + write, one op each ($writes)"

seeks=$(count app-default '^lseek\([0-9]+, 0, SEEK_END\)')
appends=$(count app-default '^pwritev2\([0-9]+, .*, 1, -1, RWF_APPEND\) += 1024$')
ops=$(breakdown_field "$tmp/out.app-default" app ops)
late=$(not_counted app-default app)
echo "default: app $ops ops + $late after the deadline; strace: $appends pwritev2(RWF_APPEND), $seeks lseek(SEEK_END)"
[ "$seeks" -eq 0 ] || fail "default: appendfile used lseek(SEEK_END) $seeks times"
[ $((ops + late)) -eq "$appends" ] || fail "default: $ops + $late ops for $appends appends"
ok "default: appendfile is one pwritev2(RWF_APPEND) per op"

# appendfilerand iosize=2: floor(u * (2 - 1)) = 0 bytes every time
sed 's/appendfile name=app,\(.*\)iosize=1k/appendfilerand name=app,\1iosize=2/' \
	"$tmp/append.f" >"$tmp/rand.f"
calls=lseek,write,pwritev2,openat,openat2
traced rand-compat "$tmp/rand.f" --compat filebench
traced rand-default "$tmp/rand.f"
ops=$(breakdown_field "$tmp/out.rand-compat" app ops)
mbs=$(breakdown_field "$tmp/out.rand-compat" app mbs)
touched=$(( $(count rand-compat '^(lseek\([0-9]+, 0, SEEK_END\)|write\([0-9]+, .*, [12]\) |pwritev2\()') +
	$(count rand-compat "$open_re") ))
echo "compat:  appendfilerand iosize=2: $ops ops, $mbs mb/s, $touched opens/seeks/appends"
[ "$ops" -gt 100 ] || fail "compat: appendfilerand did $ops ops"
[ "$touched" -eq 0 ] && [ "$mbs" = "0.0" ] ||
	fail "compat: appendfilerand iosize=2 touched the file ($touched calls, $mbs mb/s)"
appends=$(count rand-default '^pwritev2\([0-9]+, .*, 1, -1, RWF_APPEND\) += [12]$')
ops=$(breakdown_field "$tmp/out.rand-default" app ops)
late=$(not_counted rand-default app)
[ $((ops + late)) -eq "$appends" ] && [ "$appends" -gt 0 ] ||
	fail "default: appendfilerand iosize=2: $ops + $late ops, $appends appends of 1-2 bytes"
ok "appendfilerand iosize=2: empty ops under compat, 1-2 byte appends by default"

# --- 3. aiowrite: the op is the submission ----------------------------------
# no aiowait: back-pressure reaps, so up to 256 writes are in flight at the end
cat >"$tmp/aio.f" <<'WML'
set $dir=/tmp
define fileset name=fs,path=$dir,entries=1,dirwidth=1,size=1m,prealloc
define process name=p { thread name=t {
  flowop aiowrite name=aw,filesetname=fs,iosize=4k,random
} }
run 1
WML
calls=io_uring_enter,openat,openat2
for tag in aw-compat aw-default; do
	opt=
	[ $tag = aw-compat ] && opt="--compat filebench"
	# shellcheck disable=SC2086
	traced $tag "$tmp/aio.f" $opt
done
# io_uring_enter(fd, to_submit=1, ...): one write submitted
submit_re='^io_uring_enter\([0-9]+, 1, .*= 1$'

subs=$(count aw-compat "$submit_re")
opens=$(count aw-compat "$open_re")
ops=$(breakdown_field "$tmp/out.aw-compat" aw ops)
late=$(not_counted aw-compat aw)
ms_compat=$(breakdown_field "$tmp/out.aw-compat" aw msop)
echo "compat:  aw $ops ops + $late after the deadline, $ms_compat ms/op; strace: $subs submissions, $opens opens"
[ "$subs" -gt 300 ] || fail "too few submissions ($subs) to fill the ring"
[ $((ops + late)) -eq $((subs + opens)) ] ||
	fail "compat: aw reports $ops + $late ops for $subs submissions and $opens open"
# only the submission straddling the deadline: no write in flight is dropped
[ "$late" -le 1 ] || fail "compat: $late writes not counted (in flight at the end?)"
ok "compat: every submitted aiowrite is an op, those in flight at the end too"

subs=$(count aw-default "$submit_re")
ops=$(breakdown_field "$tmp/out.aw-default" aw ops)
late=$(not_counted aw-default aw)
ms_default=$(breakdown_field "$tmp/out.aw-default" aw msop)
echo "default: aw $ops ops + $late not counted (reaped late or in flight at the end), $ms_default ms/op; strace: $subs submissions"
[ $((ops + late)) -eq "$subs" ] || fail "default: $ops + $late ops for $subs submissions"
# By default a write is reaped only when 256 are in flight: it waits for
# 128 later submit calls on average, so its latency is many times one
# submit call, whatever the machine's speed; 10 leaves room for noise.
awk -v c="$ms_compat" -v d="$ms_default" 'BEGIN { exit !(c * 10 < d) }' ||
	fail "compat: aiowrite's $ms_compat ms/op (the submit call) is not a tenth of the default's submit-to-reap $ms_default ms/op"
ok "compat: aiowrite's latency is the submit call's ($ms_compat ms/op, default submit-to-reap $ms_default)"
