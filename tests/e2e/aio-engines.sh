#!/bin/sh
# aio-engines.sh - an imported fio job runs on its own engine, counted
# under strace: libaio does io_submit/io_getevents and no io_uring_enter,
# io_uring does io_uring_enter and no io_submit, posixaio has glibc's
# helper threads do the preads (none in the thread that opened the file);
# the requests submitted equal the ops reported plus those not counted.
# fio's default depth rules as import-fio writes them: one request per
# submission call at depth 8, rounds of one completion.  The results
# file's "async" block: lat = slat + clat for every request, fio's maps
# sum to the ops; the text report's fio lines.  Buffered libaio too (the
# kernel does the read inside io_submit).  io_setup failing names
# fs.aio-max-nr; bad engine and depth attributes are located errors;
# compare and report show slat and clat.
. "$(dirname "$0")/lib.sh"
need strace
need python3

d=$tmp/d
mkdir "$d"

# job ENGINE DIRECT: an fio job file, 8 KiB random reads at iodepth 8
job() {
	cat >"$tmp/$1-$2.fio" <<EOF
[global]
filename=$d/data
size=16m
bs=8k
rw=randread
ioengine=$1
iodepth=8
direct=$2
runtime=2
time_based

[j]
EOF
}

# results NAME: "ops not_counted" of the flowop j-read, and the checks of
# its async block (exit 1 with the reason on stderr)
results() {
	python3 - "$tmp/$1.json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
f = [x for x in j["runs"][0]["flowops"] if x["name"] == "j-read"][0]
a = f["async"]
ops = f["ops"]
def die(why):
    sys.stderr.write(why + "\n")
    sys.exit(1)
if a["iodepth"] != 8:
    die("iodepth %s" % a["iodepth"])
# lat = slat + clat per request: the means agree within a ns
s, c, l = a["slat_ns"]["mean"], a["clat_ns"]["mean"], a["lat_ns"]["mean"]
if not (abs(l - (s + c)) <= 1.0):
    die("lat mean %f is not slat %f + clat %f" % (l, s, c))
if a["clat_ns"]["percentiles"]["50"] != f["latency_ns"]["percentiles"]["50"]:
    die("clat is not the flowop's latency")
n = a["counts"]
if sum(n["latency_buckets"]) != ops:
    die("latency buckets sum to %d, not %d ops" % (sum(n["latency_buckets"]), ops))
# fio's defaults: every submission call took 1 request, at depth 8
if n["iodepth_submit"][1] != sum(n["iodepth_submit"]):
    die("submissions of more than one request: %s" % n["iodepth_submit"])
if a["iodepth_level"]["8"] < 99.0:
    die("IO depths: %s" % a["iodepth_level"])
print(ops, f["not_counted"], sum(n["iodepth_level"]), a["ioengine"])
EOF
}

# run NAME [strace args]: the imported job under strace, per thread
run() {
	n=$1
	shift
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	strace -ff -qq -o "$tmp/$n.tr" "$@" \
		"$FLOWBENCH" run "$tmp/$n.f" --cache keep -o "$tmp/$n.json" >"$tmp/$n.out" 2>&1 ||
		{ cat "$tmp/$n.out"; fail "$n: run failed"; }
	cat "$tmp/$n.tr".* >"$tmp/$n.all"
}

# sum of the results of the calls to $2 (with more than 0 requests) in NAME
sum_returns() {
	grep -E "^$2\\(" "$tmp/$1.all" | grep -vE "^$2\\([^,]*, 0," |
		sed -n 's/.*= \([0-9][0-9]*\)$/\1/p' | awk '{ s += $1 } END { print s + 0 }'
}

for eng in libaio io_uring posixaio; do
	for direct in 1 0; do
		n=$eng-$direct
		job "$eng" "$direct"
		"$FLOWBENCH" import-fio "$tmp/$n.fio" >"$tmp/$n.f" 2>"$tmp/$n.err" ||
			{ cat "$tmp/$n.err"; fail "$n: import-fio failed"; }
		[ ! -s "$tmp/$n.err" ] || { cat "$tmp/$n.err"; fail "$n: import-fio warned"; }
		grep -q "flowop aioread name=j-read,.*,ioengine=$eng,iodepth=\$iodepth,iodepth_batch_submit=1,iodepth_batch_complete_min=1,iodepth_batch_complete_max=1,iodepth_low=\$iodepth" "$tmp/$n.f" ||
			{ cat "$tmp/$n.f"; fail "$n: not an aioread on $eng with fio's depth rules"; }
		run "$n" -e trace=openat,io_setup,io_submit,io_getevents,io_uring_setup,io_uring_enter,pread64
		r=$(results "$n") || { cat "$tmp/$n.out"; fail "$n: results: see above"; }
		# shellcheck disable=SC2086
		set -- $r
		ops=$1 late=$2 submitted=$3
		[ "$4" = "$eng" ] || fail "$n: the results say ioengine $4"
		[ "$ops" -gt 0 ] || fail "$n: no ops"
		[ "$submitted" -eq $((ops + late)) ] ||
			fail "$n: $submitted submitted for $ops ops + $late not counted"
		grep -q "Async I/O of j-read (ioengine=$eng, iodepth=8): $ops requests" "$tmp/$n.out" &&
			grep -qE "^[0-9.]+:     slat \\((n|u|m)sec\\): min=" "$tmp/$n.out" &&
			grep -qE "^[0-9.]+:   IO depths    : 1=" "$tmp/$n.out" ||
			{ cat "$tmp/$n.out"; fail "$n: no fio lines in the report"; }
		case $eng in
		libaio)
			calls=$(sum_returns "$n" io_submit)
			gets=$(grep -c '^io_getevents(' "$tmp/$n.all" || true)
			[ "$calls" -eq $((ops + late)) ] ||
				fail "$n: io_submit took $calls requests for $ops ops + $late not counted"
			[ "$(grep -c '^io_submit(' "$tmp/$n.all")" -eq "$calls" ] ||
				fail "$n: an io_submit of more than one request"
			[ "$gets" -ge "$ops" ] || fail "$n: $gets io_getevents for $ops ops"
			! grep -qE '^io_uring_(setup|enter)\(' "$tmp/$n.all" ||
				fail "$n: io_uring was used"
			ok "$n: $calls io_submit of one request = $ops ops + $late not counted, $gets io_getevents, no io_uring"
			;;
		io_uring)
			calls=$(sum_returns "$n" io_uring_enter)
			[ "$calls" -eq $((ops + late)) ] ||
				fail "$n: io_uring_enter took $calls requests for $ops ops + $late not counted"
			! grep -qE '^io_(submit|getevents)\(' "$tmp/$n.all" || fail "$n: libaio was used"
			ok "$n: io_uring_enter took $calls requests = $ops ops + $late not counted, no io_submit"
			;;
		posixaio)
			preads=0
			for f in "$tmp/$n.tr".*; do
				k=$(grep -cE '^pread64\([0-9]+, .*, 8192, [0-9]+\) = 8192$' "$f" || true)
				if [ "$k" -gt 0 ] && grep -q "openat(.*$d/data" "$f"; then
					fail "$n: $k preads in the thread that opened the file"
				fi
				preads=$((preads + k))
			done
			[ "$preads" -eq $((ops + late)) ] ||
				fail "$n: glibc's helpers did $preads preads for $ops ops + $late not counted"
			! grep -qE '^(io_submit|io_uring_enter)\(' "$tmp/$n.all" ||
				fail "$n: native AIO or io_uring was used"
			ok "$n: glibc's helper threads did $preads preads = $ops ops + $late not counted"
			;;
		esac
	done
done

# compare and report show fio's split of the two files' j-read
compare_tables "$tmp/libaio-1.json" "$tmp/io_uring-1.json" >"$tmp/cmp" 2>&1 ||
	{ cat "$tmp/cmp"; fail "compare failed"; }
for m in "slat p50" "slat p99" "clat p50" "clat p99"; do
	awk -v m="$m" 'index($0, m) == 1 { getline; print; exit }' "$tmp/cmp" | grep -q '^j-read ' ||
		{ cat "$tmp/cmp"; fail "compare: no $m row for j-read"; }
done
"$FLOWBENCH" report "$tmp/libaio-1.json" "$tmp/io_uring-1.json" -o "$tmp/r.html" >/dev/null 2>&1 ||
	fail "report failed"
grep -q "<td>libaio</td><td class=\"n\">8</td>" "$tmp/r.html" &&
	grep -q "<td>io_uring</td><td class=\"n\">8</td>" "$tmp/r.html" ||
	fail "report: no row of fio's split per file"
ok "compare has slat and clat p50/p99 rows, report a row per file with its engine"

# io_setup failing: the run says why, naming the sysctl
job libaio 1
"$FLOWBENCH" import-fio "$tmp/libaio-1.fio" >"$tmp/inj.f"
if strace -f -qq -o /dev/null -e inject=io_setup:error=EAGAIN \
	"$FLOWBENCH" run "$tmp/inj.f" --cache keep >"$tmp/inj.out" 2>&1; then
	fail "io_setup failed and the run succeeded"
fi
grep -q "asynchronous I/O needs Linux native AIO (libaio), which is not available (io_setup: " "$tmp/inj.out" &&
	grep -q "fs.aio-max-nr" "$tmp/inj.out" ||
	{ cat "$tmp/inj.out"; fail "io_setup's failure not explained"; }
ok "io_setup failing with EAGAIN: $(grep -o 'Linux refuses.*' "$tmp/inj.out")"

# bad attributes: located errors
cat >"$tmp/bad.f" <<EOF
define file name=f,path=$d,size=1m,prealloc,reuse
define process name=p {
  thread name=t {
    flowop aioread name=a,filename=f,iosize=4k,ioengine=kaio,iodepth=4
    flowop aioread name=b,filename=f,iosize=4k,iodepth_low=2
    flowop aioread name=c,filename=f,iosize=4k,iodepth=4,iodepth_batch_complete_min=3,iodepth_batch_complete_max=2
  }
}
run 1
EOF
if "$FLOWBENCH" check "$tmp/bad.f" >"$tmp/bad.out" 2>&1; then
	fail "bad engine and depth attributes accepted"
fi
grep -q "bad.f:4:[0-9]*: flowop a: ioengine must be io_uring, libaio or posixaio, not kaio" "$tmp/bad.out" &&
	grep -q "bad.f:5:[0-9]*: flowop b: iodepth_low needs iodepth" "$tmp/bad.out" &&
	grep -q "bad.f:6:[0-9]*: flowop c: iodepth_batch_complete_max (2) is less than iodepth_batch_complete_min (3)" "$tmp/bad.out" ||
	{ cat "$tmp/bad.out"; fail "bad attributes: not the located errors"; }
ok "bad ioengine and depth attributes: located errors"
