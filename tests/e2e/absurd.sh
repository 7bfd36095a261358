#!/bin/sh
# absurd.sh - absurd values are refused with a clear error before anything
# runs: no fileset is populated or created, no worker is forked.  Script
# mistakes are caught by `check` (file:line:col), what the machine cannot
# give (memory, descriptors, disk, a usable path) by `run` before it starts.
. "$(dirname "$0")/lib.sh"

d=$tmp/d
mkdir "$d"

# wl NAME FILESET-ATTRS PROC-ATTRS THREAD-ATTRS FLOWOP: a one-flowop workload
wl() {
	cat >"$tmp/$1.f" <<EOF
set \$dir=$d
define fileset name=fs,path=\$dir,size=64k,entries=4,dirwidth=4,prealloc$2
define process name=p$3 {
  thread name=t$4 {
    flowop $5
  }
}
run 1
EOF
}
READ="read name=r,filesetname=fs,iosize=4k"

# nothing NAME: the last run created nothing and forked nothing
nothing() {
	[ -z "$(ls -A "$d")" ] || fail "$1: files were created in $d: $(ls -A "$d")"
	! grep -q "Populating\|Starting" "$tmp/out" ||
		{ cat "$tmp/out"; fail "$1: the run went ahead before failing"; }
}

bound=
command -v timeout >/dev/null 2>&1 && bound="timeout 120"

# refused CMD NAME PATTERN [ARGS...]: `flowbench CMD NAME.f` exits 1 and
# its stderr matches PATTERN (grep -E); nothing was created
refused() {
	cmd=$1 name=$2 pattern=$3
	shift 3
	st=0
	# bounded: a value that is not refused might run for years
	$bound "$FLOWBENCH" "$cmd" "$tmp/$name.f" --cache keep "$@" >"$tmp/out" 2>"$tmp/err" || st=$?
	[ "$st" -eq 1 ] || { cat "$tmp/out" "$tmp/err"; fail "$name: $cmd exited $st, not 1"; }
	grep -qE "$pattern" "$tmp/err" ||
		{ cat "$tmp/err"; fail "$name: $cmd: no message matching '$pattern'"; }
	nothing "$name"
	ok "$name: $cmd refuses it: $(grep -E "$pattern" "$tmp/err" | head -1 | cut -c1-110)"
}

# accepted NAME [ARGS...]: `flowbench check` accepts it
accepted() {
	name=$1
	shift
	"$FLOWBENCH" check "$tmp/$name.f" "$@" >"$tmp/out" 2>&1 ||
		{ cat "$tmp/out"; fail "$name: check refused a valid variant"; }
}

# ---- compile time: `check` and `run` both refuse, pointing at the attribute
wl pinst "" ",instances=100000000" "" "$READ"
for cmd in check run; do
	refused $cmd pinst "pinst\.f:3:33: instances=100000000 for process 'p' .*limit of 1048576 thread instances"
done
wl tinst "" "" ",instances=100000000" "$READ"
refused run tinst "tinst\.f:4:27: instances=100000000 for thread 't': more than flowbench's limit"
# the processes together: 3 x 400000 thread instances
cat >"$tmp/sum.f" <<EOF
define fileset name=fs,path=$d,size=64k,entries=4,dirwidth=4,prealloc
define process name=a,instances=2 { thread name=t,instances=400000 { flowop $READ } }
define process name=b { thread name=t,instances=400000 { flowop read name=r2,filesetname=fs,iosize=4k } }
run 1
EOF
refused check sum "sum\.f:3:8: process 'b' brings the run to 1200000 thread instances"

wl ent0 "" "" "" "$READ"
sed -i 's/entries=4/entries=$n/' "$tmp/ent0.f"
refused check ent0 "ent0\.f:2:51: fileset 'fs' has no entries and no leafdirs" -D n=0
accepted ent0 -D n=4
ok "entries=0 given with -D is checked once resolved; entries=4 passes"

# iosize larger than files that never grow: sequential reads only
wl short "" "" "" 'read name=r,filesetname=fs,iosize=$io'
refused check short "short\.f:5:46: flowop r: iosize 1048576 is larger than the 65536-byte files of fileset 'fs', and no flowop writes to them" -D io=1m
accepted short -D io=64k
wl grows "" "" "" 'read name=r,filesetname=fs,iosize=1m'
sed -i 's|^    flowop read.*|&\n    flowop appendfile name=w,filesetname=fs,iosize=1m|' "$tmp/grows.f"
accepted grows
wl whole "" "" "" 'readwholefile name=r,filesetname=fs,iosize=1m'
accepted whole
ok "a fileset that a flowop writes to, and readwholefile's chunk, are not refused"

for bad in 'a/b' '..' '.'; do
	wl name "" "" "" "$READ"
	sed -i "s|name=fs|name=$bad|g" "$tmp/name.f"
	refused check name "name\.f:2:1: fileset name '$(echo "$bad" | sed 's/\./\\./g')' must be a single path component"
done

# ---- time values: at most 10^9 s, so that a deadline in nanoseconds
# cannot wrap (a run of 2e10 s used to end at once: 0 ops, status 0)
wl longrun "" "" "" "$READ"
sed -i 's/^run 1$/run 20000000000/' "$tmp/longrun.f"
for cmd in check run; do
	refused $cmd longrun "longrun\.f:8:5: run: 20000000000 s is more than flowbench's limit of 1000000000 s"
done
wl longrund "" "" "" "$READ"
sed -i 's/^run 1$/run $t/' "$tmp/longrund.f"
refused run longrund "longrund\.f:8:5: run: 20000000000 s is more than flowbench's limit" -D t=20000000000
accepted longrund -D t=1000000000
wl longps "" "" "" "$READ"
sed -i 's/^run 1$/psrun 5000000000 2/' "$tmp/longps.f"
refused check longps "longps\.f:8:7: psrun: 5000000000 s is more than flowbench's limit"
wl longsleep "" "" "" "$READ"
sed -i 's/^run 1$/sleep 3000000000\nrun 1/' "$tmp/longsleep.f"
refused run longsleep "longsleep\.f:8:7: sleep: 3000000000 s is more than flowbench's limit"
wl longdelay "" "" "" "delay name=nap,value=2000000000"
refused run longdelay "longdelay\.f:5:33: flowop nap: 2000000000 s is more than flowbench's limit"
wl negdelay "" "" "" "delay name=nap,value=-1"
refused check negdelay "negdelay\.f:5:33: flowop nap: delay value \(seconds\) must not be negative"
wl fastgen "" "" "" "$READ"
sed -i 's/^run 1$/eventgen rate=2000000000\nrun 1/' "$tmp/fastgen.f"
refused check fastgen "fastgen\.f:8:15: eventgen rate=2000000000: the rate must be from 0 \(no events\) to flowbench's limit of 1000000000 events per second"
# --interval: run time / interval rows, kept in memory to the end
wl series "" "" "" "$READ"
sed -i 's/^run 1$/run 100000000/' "$tmp/series.f"
refused run series "series\.f:8:1: a run of 1e\+08 s with --interval 0.01 makes 1e\+10 intervals, more than flowbench's limit of 1000000" --interval 0.01

# ---- run time: what the machine cannot give, before anything exists
wl mem "" "" ",memsize=1t,instances=16" "$READ"
accepted mem
refused run mem "mem\.f:4:3: thread 't' of process 'p': memsize=1 TiB x 16 thread instances needs 16 TiB of memory.*this machine has .* available"

# aioread iodepth=256 keeps 256 requests in flight, each into a buffer of
# its own: 256 x iosize per thread (preflight used to count none).  Sized
# from this machine: with iodepth the threads' buffers are about 1.3 x
# MemAvailable, without it (16 MiB a thread) about 0.5 %.  A build that lets it go ahead is
# held by ulimit -v, so that it fails to allocate instead of taking the
# machine's memory (not in sanitizer builds: they reserve terabytes).
avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
if [ -z "$avail" ]; then
	echo "SKIP (part): iodepth memory: no MemAvailable in /proc/meminfo"
elif grep -qE '__(asan|tsan)_init' "$FLOWBENCH"; then
	echo "SKIP (part): iodepth memory, in a sanitizer build"
else
	n=$((avail / (3 * 1024 * 1024) + 1))   # threads of 4 GiB each
	wl iodepth "" "" ",instances=$n" 'aioread name=r,filesetname=fs,iosize=16m,iodepth=$depth'
	sed -i 's/size=64k/size=16m/' "$tmp/iodepth.f"
	accepted iodepth -D depth=256
	(
		ulimit -v 2097152 || exit 77
		refused run iodepth "iodepth\.f:4:3: thread 't' of process 'p': 4(\.[0-9])? GiB each \(I/O buffers, statistics\) x $n thread instances needs" -D depth=256
	) || { st=$?; [ "$st" -eq 77 ] && echo "SKIP: cannot set ulimit -v" || exit "$st"; }
fi

# a missing path is made (tests/e2e/fileset-path.sh), but not below a file
: >"$tmp/afile"
wl nopath "" "" "" "$READ"
# a valid fileset first: it must not be created either
sed -i "s|^define fileset.*|&\ndefine fileset name=other,path=\$dir,size=4k,entries=2,dirwidth=2,prealloc|; s|path=\\\$dir,size=64k|path=$tmp/afile/nonexistent,size=64k|" "$tmp/nopath.f"
refused run nopath "nopath\.f:2:1: fileset 'fs': path $tmp/afile/nonexistent cannot be made: Not a directory"

: >"$tmp/plainfile"
wl notdir "" "" "" "$READ"
sed -i "s|path=\\\$dir|path=$tmp/plainfile|" "$tmp/notdir.f"
refused run notdir "notdir\.f:2:1: fileset 'fs': path $tmp/plainfile is not a directory"

wl disk "" "" "" "$READ"
sed -i 's/size=64k,entries=4/size=1t,entries=100000/' "$tmp/disk.f"
refused run disk "disk\.f:2:1: fileset 'fs': 100000 files x 1 TiB, 100 % preallocated, need 97.7 PiB of disk; the file system of $d has .* free"

wl fds "" "" ",instances=200" "$READ"
(
	ulimit -n 256 || exit 77
	refused run fds "fds\.f:3:8: process 'p': its 200 thread instances may hold up to [0-9]+ open files, more than this process may open \(256"
) || { st=$?; [ "$st" -eq 77 ] && echo "SKIP: cannot lower ulimit -n" || exit "$st"; }

# not writable: as a user without write permission (root may write anywhere)
ro=$tmp/ro
mkdir "$ro"
wl notw "" "" "" "$READ"
sed -i "s|path=\\\$dir|path=$ro|" "$tmp/notw.f"
if [ "$(id -u)" -ne 0 ]; then
	chmod 555 "$ro"
	refused run notw "notw\.f:2:1: fileset 'fs': path $ro is not writable by this user"
	chmod 755 "$ro"
elif command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	chmod 755 "$tmp"
	chmod a+r "$tmp/notw.f"
	st=0
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$FLOWBENCH" run "$tmp/notw.f" --cache keep >"$tmp/out" 2>"$tmp/err" || st=$?
	[ "$st" -eq 1 ] || { cat "$tmp/out" "$tmp/err"; fail "notw: run exited $st, not 1"; }
	grep -q "notw\.f:2:1: fileset 'fs': path $ro is not writable by this user" "$tmp/err" ||
		{ cat "$tmp/err"; fail "notw: no 'not writable' message"; }
	[ -z "$(ls -A "$ro")" ] || fail "notw: files were created in $ro"
	ok "notw: run refuses a path this user cannot write to (as uid 65534)"
else
	echo "SKIP: not writable: running as root without setpriv"
fi
