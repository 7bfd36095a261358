#!/bin/sh
# oplog.sh - per-op logs in fio's formats (docs/metrics.md, "Per-op logs"),
# from run's --log-* options and a process's latlog=, ... at once, in a
# run with a warm-up: a line per recorded op (the breakdown's counts, none
# of the warm-up), fio's names and numbering, direction, size and offset
# columns right, times increasing inside the run, lat = clat and no slat
# for synchronous ops, bw and iops as fio computes them; the averaged
# logs equal the raw values' means, counts and bytes per window; the
# histogram log equals the raw latencies counted in fio's bins (the rule
# computed here); fio2gnuplot reads the files (when installed).  Then the
# files' safety (a link refused, a regular file replaced, a missing
# directory, nothing left by a failed run), the usage errors, check's
# description, an imported fio job's write_lat_log, and a libaio job's
# slat, clat and lat per request (lat = slat + clat).
. "$(dirname "$0")/lib.sh"
need python3

cd "$tmp"
cat >w.f <<F
define file name=f1,path=$tmp,size=8m,prealloc,reuse
define process name=rd,instances=2,latlog="av",bwlog="av",iopslog="av",logavgmsec=100,histlog="h",loghistmsec=200
{
  thread name=t,memsize=4k
  {
    flowop read name=rr,filename=f1,iosize=4k,random
  }
}
define process name=wr
{
  thread name=t,memsize=16k
  {
    flowop write name=rw,filename=f1,iosize=8k,random
    flowop read name=sr,filename=f1,iosize=16k
  }
}
run 1
F
"$FLOWBENCH" check w.f --log-lat raw --log-bw raw --log-iops raw >check.out 2>&1 ||
	{ cat check.out; fail "check failed"; }
grep -q "w.f: per-op logs (27 files):" check.out &&
	grep -q "command line: raw_lat.1.log, raw_clat.1.log, raw_slat.1.log, raw_bw.1.log, raw_iops.1.log ... for 3 thread instances; a line per op" check.out &&
	grep -q "process rd: av_lat.1.log, .*h_clat_hist.1.log ... for 2 thread instances; a line per direction per 100 ms (at most 22 lines per file in 1 s); histogram every 200 ms (1856 bins, at most 12 lines in 1 s); [0-9]* KiB of memory per thread instance, whatever the run's length" check.out ||
	{ cat check.out; fail "check does not describe the logs"; }
ok "check describes the logs: files, windows, memory"

"$FLOWBENCH" run w.f --cache keep --seed 1 --warmup 0.3 --runtime 1 --log-lat raw \
	--log-bw raw --log-iops raw --log-offset >run.out 2>&1 || { cat run.out; fail "run failed"; }
grep -q "Per-op logs written: .* (27 files)" run.out || { cat run.out; fail "no 'Per-op logs written'"; }
for n in 1 2 3; do
	for k in lat clat slat bw iops; do
		[ -f "raw_$k.$n.log" ] || fail "no raw_$k.$n.log"
	done
done
for n in 1 2; do
	for k in lat clat slat bw iops; do
		[ -f "av_$k.$n.log" ] || fail "no av_$k.$n.log"
	done
	[ -f "h_clat_hist.$n.log" ] || fail "no h_clat_hist.$n.log"
done
[ ! -e av_lat.3.log ] || fail "process wr has no log of its own, yet av_lat.3.log exists"
ls -a | grep -q '^\.flowbench-log\.' && fail "temporary files left: $(ls -a)"
ok "fio's file names: PREFIX_KIND.N.log, N the thread instance (1, 2: rd; 3: wr)"

rr=$(breakdown_field run.out rr ops)
rw=$(breakdown_field run.out rw ops)
sr=$(breakdown_field run.out sr ops)
python3 - "$rr" "$rw" "$sr" <<'PY' || fail "the raw logs do not match the run"
import sys
rr, rw, sr = map(int, sys.argv[1:])

def rows(name):
    return [list(map(int, l.split(', '))) for l in open(name)]

raw = {n: rows('raw_lat.%d.log' % n) for n in (1, 2, 3)}
# a line per recorded op, warm-up excluded: the breakdown's counts
assert len(raw[1]) + len(raw[2]) == rr, (len(raw[1]), len(raw[2]), rr)
assert sum(r[2] == 1 for r in raw[3]) == rw, rw
assert sum(r[2] == 0 for r in raw[3]) == sr, sr
for n in (1, 2, 3):
    rs = raw[n]
    assert rs, n
    t = [r[0] for r in rs]
    assert t == sorted(t), 'times go back in raw_lat.%d.log' % n
    assert 0 <= t[0] and t[-1] <= 1000, (t[0], t[-1])
    for r in rs:
        assert len(r) == 6 and r[5] == 0, r          # ..., offset, priority 0
    for kind in ('clat', 'bw', 'iops'):
        other = rows('raw_%s.%d.log' % (kind, n))
        assert len(other) == len(rs), kind
        for a, b in zip(rs, other):
            assert a[0] == b[0] and a[2:] == b[2:], (kind, a, b)
            if kind == 'clat':
                assert b[1] == a[1], (a, b)          # synchronous: lat = clat
            elif kind == 'bw':
                assert b[1] == (a[3] * 1000000 // a[1] if a[1] else 0), (a, b)
            else:
                assert b[1] == 1, b
    assert open('raw_slat.%d.log' % n).read() == '', 'slat of synchronous ops'
# the columns: direction, size, offset of each flowop
for n in (1, 2):
    for r in raw[n]:
        assert r[2] == 0 and r[3] == 4096 and r[4] % 4096 == 0 and r[4] < 8 << 20, r
prev = None
for r in raw[3]:
    if r[2] == 1:
        assert r[3] == 8192 and r[4] % 8192 == 0 and r[4] < 8 << 20, r
        continue
    assert r[3] in (16384, 0), r                     # 0: the read at EOF
    if prev is not None:
        want = 0 if prev[3] == 0 else prev[4] + prev[3]
        assert r[4] == want, (prev, r)              # sequential, wrapping
    prev = r
print('raw logs: %d + %d reads, %d writes, %d sequential reads' %
      (len(raw[1]), len(raw[2]), rw, sr))
PY
ok "a line per recorded op; direction, size and offset columns; times increasing; fio's bw and iops"

python3 - <<'PY' || fail "the averaged logs are not the raw values' windows"
from collections import defaultdict
W = 100
for n in (1, 2):
    raw = [list(map(int, l.split(', '))) for l in open('raw_lat.%d.log' % n)]
    win = defaultdict(list)
    for r in raw:
        win[r[0] // W].append(r)
    keys = sorted(win)
    av = {k: [list(map(int, l.split(', '))) for l in open('av_%s.%d.log' % (k, n))]
          for k in ('lat', 'clat', 'bw', 'iops')}
    assert len(av['lat']) == len(keys), (len(av['lat']), keys)
    for i, k in enumerate(keys):
        ops = win[k]
        mean = (sum(r[1] for r in ops) + len(ops) // 2) // len(ops)
        byts = sum(r[3] for r in ops)
        last = i == len(keys) - 1
        for kind in ('lat', 'clat', 'bw', 'iops'):
            line = av[kind][i]
            assert line[2] == 0 and line[3:] == [0, 0], line
            if last:
                assert line[0] >= ops[-1][0] and line[0] <= 1000, line
            else:
                assert line[0] == (k + 1) * W, (line, k)
        assert av['lat'][i][1] == mean and av['clat'][i][1] == mean, (av['lat'][i], mean)
        if not last:
            assert av['iops'][i][1] == len(ops) * 1000 // W, (av['iops'][i], len(ops))
            assert av['bw'][i][1] == byts * 1000 // W // 1024, (av['bw'][i], byts)
    print('av_*.%d.log: %d windows equal to the raw lines\' means, counts, bytes' %
          (n, len(keys)))
PY
ok "averaged logs: the means, ops/s and KiB/s of the raw lines per 100 ms window"

python3 - <<'PY' || fail "the histogram log is not the raw latencies in fio's bins"
from collections import defaultdict

def fio_bin(v):                      # fio's stat.c rule, written here again
    if v < 128:
        return v
    msb = v.bit_length() - 1
    err = msb - 6
    return min(((err + 1) << 6) + ((v >> err) & 63), 29 * 64 - 1)

H = 200
for n in (1, 2):
    raw = [list(map(int, l.split(', '))) for l in open('raw_clat.%d.log' % n)]
    want = defaultdict(lambda: [0] * 1856)
    for r in raw:
        want[r[0] // H][fio_bin(r[1])] += 1
    lines = [list(map(int, l.split(', '))) for l in open('h_clat_hist.%d.log' % n)]
    assert len(lines) == len(want), (len(lines), sorted(want))
    total = 0
    for line, k in zip(lines, sorted(want)):
        assert len(line) == 3 + 1856 and line[1] == 0 and line[2] == 4096, line[:3]
        assert line[3:] == want[k], k
        if k != max(want):
            assert line[0] == (k + 1) * H, (line[0], k)
        total += sum(line[3:])
    assert total == len(raw)
    print('h_clat_hist.%d.log: %d windows, %d ops in fio\'s bins' % (n, len(lines), total))
PY
ok "the histogram log: the raw completion latencies counted in fio's 1856 bins per 200 ms"

if command -v fio2gnuplot >/dev/null 2>&1; then
	mkdir g && (cd g && cp ../raw_bw.*.log . && fio2gnuplot -b -d "$tmp/g/" >out 2>&1) ||
		{ cat g/out; fail "fio2gnuplot failed on the bw logs"; }
	python3 - <<'PY' || fail "fio2gnuplot did not read every line"
import glob
g = dict(l.strip().split('=') for l in open(glob.glob('g/*.global')[0]))
vals = [int(l.split(', ')[1]) for f in sorted(glob.glob('raw_bw.*.log'))
        for l in open(f) if int(l.split(', ')[0]) > 0]
assert int(g['values_count']) == len(vals), (g, len(vals))
assert abs(float(g['avg']) - sum(vals) / len(vals)) < 0.01, (g['avg'], sum(vals) / len(vals))
print('fio2gnuplot: %s values, avg %s' % (g['values_count'], g['avg']))
PY
	ok "fio's fio2gnuplot reads the bw logs: every line past time 0, the same mean"
else
	echo "skip: fio2gnuplot is not installed"
fi
for tool in fiologparser.py fiologparser_hist.py; do
	path=$(command -v "$tool" 2>/dev/null || ls /usr/share/fio/"$tool" 2>/dev/null || true)
	[ -n "$path" ] || { echo "skip: $tool is not installed"; continue; }
	case $tool in
	fiologparser.py) python3 "$path" -a raw_clat.1.log >p.out 2>&1 ;;
	*) python3 "$path" h_clat_hist.1.log >p.out 2>&1 ;;
	esac || { cat p.out; fail "$tool cannot read our logs"; }
	[ -s p.out ] || fail "$tool printed nothing"
	ok "fio's $tool reads the logs"
done

# ---- the files' safety ------------------------------------------------
cat >s.f <<F
define file name=f1,path=$tmp,size=1m,prealloc,reuse
define process name=p
{
  thread name=t,memsize=4k
  {
    flowop read name=r1,filename=f1,iosize=4k,random
  }
}
run 1
F
echo precious >victim
ln -s victim sl_lat.1.log
run_named link s.f --cache keep --runtime 0.2 --log-lat sl
expect_failed link "refusing to write the per-op log to sl_lat.1.log: it is a symbolic link"
[ "$(cat victim)" = precious ] && [ -L sl_lat.1.log ] || fail "the link or its target changed"
[ ! -e sl_clat.1.log ] || fail "a refused set still created files"
ok "a log name that is a symbolic link is refused before the run, its target untouched"

echo old >re_lat.1.log
ln re_lat.1.log re_hard
run_named replace s.f --cache keep --runtime 0.2 --log-lat re
[ "$rc" -eq 0 ] || { cat "$tmp/replace.out"; fail "run over an existing log failed"; }
grep -q '^[0-9]*, [0-9]*, 0, 4096, 0$' re_lat.1.log && [ "$(cat re_hard)" = old ] ||
	fail "an existing regular file was not replaced by the log (or its other link changed)"
ok "an existing regular file is replaced (renamed over: its other link keeps the old data)"

run_named nodir s.f --cache keep --runtime 0.2 --log-lat nodir/x
expect_failed nodir "cannot write nodir/x_clat.1.log: directory nodir: No such file or directory"
ok "a log in a directory that does not exist: an error before the run"

sed 's/memsize=4k/memsize=1t/' s.f >big.f
run_named early big.f --cache keep --runtime 0.2 --log-lat early
expect_failed early "memory"
[ ! -e early_lat.1.log ] || fail "a run that never started left its logs"
ls -a | grep -q '^\.flowbench-log\.' && fail "temporary files left: $(ls -a)"
ok "a run that fails before its timed phase leaves no log and no temporary file"

# an interrupted run keeps the logs of what it did, as its results
"$FLOWBENCH" run s.f --cache keep --runtime 60 --log-lat int >int.out 2>&1 &
pid=$!
n=0
until [ -n "$(find . -maxdepth 1 -name '.flowbench-log.*' -size +0 2>/dev/null)" ]; do
	n=$((n + 1))
	[ "$n" -lt 600 ] || { kill "$pid"; fail "no log line written in 60 s"; }
	sleep 0.1
done
kill -INT "$pid"
st=0
wait "$pid" || st=$?
[ "$st" -eq 130 ] && grep -q "Per-op logs written: .* (3 files)" int.out &&
	[ -s int_lat.1.log ] || { cat int.out; fail "an interrupted run did not keep its logs (status $st)"; }
ls -a | grep -q '^\.flowbench-log\.' && fail "temporary files left: $(ls -a)"
ok "an interrupted run keeps the logs of its partial results"

# ---- usage errors -----------------------------------------------------
usage() {
	st=0
	"$FLOWBENCH" "$@" >u.out 2>&1 || st=$?
	[ "$st" -eq 2 ] || { cat u.out; fail "flowbench $*: status $st, not 2"; }
}
usage run s.f --log-avg-msec 100
grep -q -- "--log-avg-msec applies to the per-op logs, and none is asked for" u.out || fail "$(cat u.out)"
usage run s.f --log-hist h
grep -q -- "--log-hist needs --log-hist-msec MS" u.out || fail "$(cat u.out)"
usage run s.f --log-lat x --log-hist-coarseness 7
grep -q -- "--log-hist-coarseness is 0 to 6" u.out || fail "$(cat u.out)"
usage run s.f --log-lat x --repeat 2
grep -q "per-op logs (--log-\* options) cover one run: --repeat 2" u.out || fail "$(cat u.out)"
ok "usage errors: a setting without its log, a histogram without its window, --repeat"

sed 's/name=p$/name=p,histlog="h"/' s.f >bad.f
st=0
"$FLOWBENCH" check bad.f >b.out 2>&1 || st=$?
[ "$st" -eq 1 ] && grep -q "bad.f:2:[0-9]*: .*histlog= needs loghistmsec=" b.out ||
	{ cat b.out; fail "histlog= without loghistmsec= is not a located error"; }
ok "a process's histlog= without loghistmsec=: a located error"

# ---- an fio job's write_lat_log ----------------------------------------
cat >j.fio <<F
[j]
filename=$tmp/jf
size=1m
bs=4k
rw=randread
runtime=1
time_based
write_lat_log
log_avg_msec=50
F
"$FLOWBENCH" import-fio j.fio >j.f 2>j.err || { cat j.err; fail "import-fio failed"; }
grep -q 'latlog="j",logavgmsec=50' j.f || fail "write_lat_log did not become latlog=: $(grep process j.f)"
"$FLOWBENCH" run j.f --cache keep --runtime 0.3 >j.out 2>&1 || { cat j.out; fail "the imported job failed"; }
[ -s j_lat.1.log ] && [ -s j_clat.1.log ] && [ -f j_slat.1.log ] ||
	fail "the imported job wrote no j_lat.1.log"
awk -F', ' 'NF != 5 || $3 != 0 || $4 != 0 { bad = 1 } END { exit bad }' j_lat.1.log ||
	fail "j_lat.1.log is not an averaged read log: $(head -3 j_lat.1.log)"
ok "an fio job's write_lat_log and log_avg_msec: j_lat.1.log, averaged"

# ---- an asynchronous job: fio's slat, clat and lat per request ---------
cat >a.fio <<F
[a]
filename=$tmp/af
size=2m
bs=4k
rw=randread
ioengine=libaio
iodepth=4
write_lat_log
F
"$FLOWBENCH" run a.fio --cache keep >a.out 2>&1 || { cat a.out; fail "the libaio job failed"; }
ops=$(breakdown_field a.out a-read ops)
for k in slat clat lat; do
	[ "$(wc -l <a_$k.1.log)" -eq "$ops" ] ||
		fail "a_$k.1.log: $(wc -l <a_$k.1.log) lines, not the $ops reads reported"
done
# line by line: lat = slat + clat (each rounded to the ns on its own)
paste -d, a_slat.1.log a_clat.1.log a_lat.1.log | awk -F', *' '
	{ d = $2 + $7 - $12; if (d < -2 || d > 2 || $2 <= 0 || $7 <= 0) bad = NR }
	END { exit bad ? 1 : 0 }' ||
	fail "an aioread's lat is not its slat + clat: $(paste -d'|' a_slat.1.log a_clat.1.log a_lat.1.log | head -3)"
ok "an aioread (libaio) logs fio's slat, clat and lat per request, lat = slat + clat"
