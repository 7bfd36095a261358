#!/bin/sh
# cpu-disk.sh - the CPU use and the disk statistics of the timed window
# (docs/metrics.md): a CPU-bound worker's user + system time is most of
# what the whole run cost (measured here with the shell's `times`) and
# at most one CPU per thread; a loop-mounted ext4 image's device counts
# at least one write I/O per O_DIRECT write op, and was busy; a fileset
# on tmpfs gets the "no block device" line; the results file carries the
# numbers the text prints; a --warmup is in the window (it starts at the
# release); under flowbench-mpi every rank's entry has its own.  The mounts live in a private mount namespace.

# Re-run inside a private mount namespace; skip where mounting is not permitted.
if [ -z "${FLOWBENCH_CPUDISK_NS:-}" ]; then
	export FLOWBENCH_CPUDISK_NS=1
	if unshare -m sh -c 'd=$(mktemp -d) && mount -t tmpfs -o size=1m tmpfs "$d" &&
			     umount "$d" && rmdir "$d"' >/dev/null 2>&1; then
		exec unshare -m sh "$0" "$@"
	fi
	echo "SKIP: cannot mount a tmpfs in a private mount namespace here"
	exit 77
fi

. "$(dirname "$0")/lib.sh"
need python3

loop=
cleanup() {
	for m in "$tmp"/mnt*; do
		mountpoint -q "$m" 2>/dev/null && umount "$m"
	done
	[ -n "$loop" ] && losetup -d "$loop"
	rm -rf "$tmp"
}
trap cleanup EXIT

# fb NAME [flowbench options]: run $tmp/NAME.f with the results in
# $tmp/NAME.json, the output in $tmp/NAME.out, the CPU of flowbench and
# every process it waited for (the shell's `times`) in $tmp/NAME.times
fb() {
	n=$1; shift
	( if "$FLOWBENCH" run "$tmp/$n.f" --cache keep -o "$tmp/$n.json" "$@" \
		>"$tmp/$n.out" 2>&1; then echo 0; else echo $?; fi >"$tmp/$n.rc"
	  times >"$tmp/$n.times" )
	[ "$(cat "$tmp/$n.rc")" = 0 ] || { cat "$tmp/$n.out"; fail "$n: run failed"; }
}

# check NAME: the results file's "usage" against the printed lines; prints
# "usr sys" (percent) of the first CPU line and the disk lines' numbers
check_same() {
	python3 - "$tmp/$1.out" "$tmp/$1.json" <<'PY' || fail "$1: text and results file differ"
import json, re, sys
text = open(sys.argv[1]).read()
u = json.load(open(sys.argv[2]))["runs"][0]["usage"]
def fields(line):
    return dict((k, float(v)) for k, v in re.findall(r"(\w+)=([0-9.]+)%?", line))
procs = {}
for e in u["cpu"]:
    procs.setdefault(e["process"], []).append(e)
for name, es in procs.items():
    m = re.search(r"CPU %s \(%d process(?:es)?\): (.*)" % (re.escape(name), len(es)), text)
    assert m, "no CPU line for %s" % name
    f = fields(m.group(1))
    for key, jkey in (("usr", "usr_pct"), ("sys", "sys_pct")):
        s = sum(e[jkey] for e in es)
        assert abs(f[key] - s) <= 0.0051, (name, key, f[key], s)
    for key in ("ctx", "majf", "minf"):
        assert f[key] == sum(e[key] for e in es), (name, key)
m = re.search(r"CPU flowbench \(master\): (.*)", text)
assert m, "no master CPU line"
f = fields(m.group(1))
assert abs(f["usr"] - u["master"]["usr_pct"]) <= 0.0051
assert abs(f["sys"] - u["master"]["sys_pct"]) <= 0.0051
for d in u["disks"]:
    m = re.search(r"Disk %s(?: \(on [^)]*\))?: (.*)" % re.escape(d["name"]), text)
    assert m, "no Disk line for %s" % d["name"]
    line = m.group(1)
    r = lambda k: [int(x) for x in re.search(k + r"=(\d+)/(\d+)", line).groups()]
    assert r("ios") == [d["read_ios"], d["write_ios"]], line
    assert r("merge") == [d["read_merges"], d["write_merges"]], line
    assert r("sectors") == [d["read_sectors"], d["write_sectors"]], line
    assert r("ticks") == [d["read_ticks_ms"], d["write_ticks_ms"]], line
    assert int(re.search(r"in_queue=(\d+)", line).group(1)) == d["in_queue_ms"]
    assert abs(float(re.search(r"util=([0-9.]+)%", line).group(1)) - d["util_pct"]) <= 0.0051
for n in u["no_block_device"]:
    assert "Disk dir %s: no block device (%s): no disk statistics" % (n["dir"], n["fstype"]) in text
PY
}

# ---- (1) a CPU-bound worker on tmpfs, (3) its "no block device" line ----
mkdir "$tmp/mnttmpfs"
mount -t tmpfs -o size=16m tmpfs "$tmp/mnttmpfs" || fail "cannot mount tmpfs"
cat >"$tmp/cpu.f" <<F
define file name=f,path=$tmp/mnttmpfs,size=1m,prealloc
define process name=spin { thread name=t { flowop read name=rd,filename=f,iosize=4k,random } }
run 2
F
fb cpu
grep -q "Disk dir $tmp/mnttmpfs: no block device (tmpfs): no disk statistics" "$tmp/cpu.out" ||
	{ cat "$tmp/cpu.out"; fail "no 'no block device (tmpfs)' line for the tmpfs fileset"; }
ok "tmpfs: $(grep -o 'Disk dir.*' "$tmp/cpu.out")"
python3 - "$tmp/cpu.out" "$tmp/cpu.json" "$tmp/cpu.times" <<'PY' || fail "CPU use of the CPU-bound worker"
import json, re, sys
text = open(sys.argv[1]).read()
u = json.load(open(sys.argv[2]))["runs"][0]["usage"]
# `times`, second line: the CPU of flowbench and of everything it waited for
t = open(sys.argv[3]).read().split("\n")[1].split()
sec = lambda s: int(s.split("m")[0]) + float(s.split("m")[1].rstrip("s"))
total = sec(t[0]) + sec(t[1])
w = [e for e in u["cpu"] if e["process"] == "spin"]
assert len(w) == 1, w
w = w[0]
cpu = w["usr_s"] + w["sys_s"]
master = u["master"]["usr_s"] + u["master"]["sys_s"]
pct = w["usr_pct"] + w["sys_pct"]
print("worker %.3f s (%.1f%% of the %.3f s window), master %.3f s, whole run %.3f s (times)"
      % (cpu, pct, u["window_s"], master, total))
# at most what the whole run cost (a clock tick of slack: /proc's resolution)
assert cpu + master <= total + 0.02, "more CPU than the run used"
# most of it: the rest is the preparation before the release
assert cpu >= 0.5 * total, "the worker's CPU is less than half the run's"
# one thread: at most one CPU (its stop after the end and a tick of slack)
assert pct <= 100 * (1 + 0.02) + 1, "above 100% for one thread"
assert w["sys_pct"] > 0, "no system time for a worker doing preads"
m = re.search(r"CPU spin \(1 process\): usr=([0-9.]+)%, sys=([0-9.]+)%", text)
assert m and float(m.group(2)) > 0, "no CPU line with sys > 0"
PY
check_same cpu
ok "CPU: $(grep -o 'CPU spin.*' "$tmp/cpu.out"); the results file agrees"

# ---- the window runs from the release: a --warmup is in it ----
sed 's/run 2/run 1/' "$tmp/cpu.f" >"$tmp/warm.f"
fb warm --warmup 1
python3 - "$tmp/warm.json" <<'PY' || fail "the window of a run with --warmup"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
w, e = run["usage"]["window_s"], run["elapsed_s"]
print("window %.3f s = warm-up 1 s + elapsed %.3f s" % (w, e))
assert abs(w - (1 + e)) < 0.05, (w, e)
PY
check_same warm
ok "with --warmup the CPU window is the warm-up and the measured phase"

# ---- (2) O_DIRECT writes on a loop-mounted ext4 image ----
dio_part() {
	mkdir -p "$tmp/mntext4/sub"
	cat >"$tmp/dio.f" <<F
define file name=f,path=$tmp/mntext4,size=4m,prealloc,reuse
define fileset name=g,path=$tmp/mntext4/sub,entries=4,dirwidth=4,size=4k,prealloc,reuse
define process name=dio { thread name=t { flowop write name=wr,filename=f,iosize=4k,random,directio
flowop finishoncount name=fin,value=\$n } }
run 60
F
	fb dio -D n=10            # creates the file
	sync
	fb dio -D n=2000
	ops=$(breakdown_field "$tmp/dio.out" wr ops)
	name=$(basename "$loop")
	line=$(grep -o "Disk $name: .*" "$tmp/dio.out") ||
		{ cat "$tmp/dio.out"; fail "no Disk line for $name"; }
	# two filesets on one device: one entry
	[ "$(grep -c "Disk $name: " "$tmp/dio.out")" = 1 ] ||
		fail "not exactly one Disk line for $name: $(grep "Disk " "$tmp/dio.out")"
	wios=$(echo "$line" | sed 's/.*ios=[0-9]*\/\([0-9]*\),.*/\1/')
	util=$(echo "$line" | sed 's/.*util=\([0-9.]*\)%.*/\1/')
	echo "$ops write ops; $line"
	[ "$ops" -ge 2000 ] || fail "only $ops write ops"
	# one request per synchronous O_DIRECT write (nothing to merge it with);
	# the journal's few commits on top
	[ "$wios" -ge "$ops" ] || fail "$name counted $wios write I/Os for $ops O_DIRECT writes"
	[ "$wios" -le $((ops * 2 + 50)) ] || fail "$name counted $wios write I/Os for $ops writes: too many"
	python3 -c "import sys; sys.exit(0 if float('$util') > 0 else 1)" ||
		fail "$name was never busy (util=$util%)"
	check_same dio
	ok "loop device: one entry for two filesets; $wios write I/Os for $ops O_DIRECT writes, util $util%; the results file agrees"
}
if ! command -v mkfs.ext4 >/dev/null || ! command -v losetup >/dev/null; then
	echo "skip: no mkfs.ext4 or losetup (loop device part)"
elif ! { truncate -s 64M "$tmp/img" && loop=$(losetup -f --show "$tmp/img" 2>/dev/null) &&
	 mkfs.ext4 -q -F "$loop" >/dev/null 2>&1 && mkdir "$tmp/mntext4" &&
	 mount "$loop" "$tmp/mntext4"; }; then
	echo "skip: cannot make a loop-mounted ext4 image (loop device part)"
else
	dio_part
fi

# ---- (5) flowbench-mpi: each rank's own use in ranks[], rank 0's text says whose ----
FBM=$(dirname "$FLOWBENCH")/flowbench-mpi
if [ ! -x "$FBM" ] || ! { command -v mpirun.openmpi || command -v mpirun ||
			  command -v mpiexec.mpich || command -v mpiexec.hydra; } >/dev/null; then
	echo "skip: no flowbench-mpi or no MPI launcher (ranks part)"
	exit 0
fi
. "$(dirname "$0")/mpilib.sh"
mkdir "$tmp/mnttmpfs/mpi"
sed "s|path=$tmp/mnttmpfs|path=$tmp/mnttmpfs/mpi|; s/run 2/run 1/" "$tmp/cpu.f" >"$tmp/mpi.f"
# shellcheck disable=SC2086
timeout 300 "$MPIRUN" $mpi_flags -np 3 "$FBM" run "$tmp/mpi.f" --cache keep \
	-o "$tmp/mpi.json" >"$tmp/mpi.out" 2>&1 || { cat "$tmp/mpi.out"; fail "flowbench-mpi failed"; }
grep -q "CPU use over the .* window (100% = one CPU busy), this client's processes and host only" \
	"$tmp/mpi.out" || { cat "$tmp/mpi.out"; fail "rank 0's CPU header does not say whose"; }
python3 - "$tmp/mpi.json" <<'PY' || fail "the ranks' usage in the results file"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
ranks = run["ranks"]
assert len(ranks) == 3, len(ranks)
for k in ranks:
    u = k["usage"]
    w = u["workers"]
    assert w["usr_s"] + w["sys_s"] > 0 and w["sys_pct"] > 0, (k["rank"], u)
    assert u["window_s"] > 0 and "master" in u and u["disks"] == [], (k["rank"], u)
# rank 0's entry is the run's own usage (its host), summed over its instances
own = run["usage"]
r0 = ranks[0]["usage"]["workers"]
for key in ("usr_s", "sys_s"):
    assert abs(sum(e[key] for e in own["cpu"]) - r0[key]) < 1e-6, key
for key in ("ctx", "majf", "minf"):
    assert sum(e[key] for e in own["cpu"]) == r0[key], key
print("ranks' workers: " + ", ".join("%.3f s" % (k["usage"]["workers"]["usr_s"] +
      k["usage"]["workers"]["sys_s"]) for k in ranks))
PY
ok "flowbench-mpi: every rank's own CPU in ranks[].usage; rank 0's text names its host only"
