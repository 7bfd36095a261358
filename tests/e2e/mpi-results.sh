#!/bin/sh
# mpi-results.sh - the results files of a flowbench-mpi job (3 ranks
# under a real mpirun, 2 runs): only rank 0 writes them; the JSON and
# YAML files hold the same tree; each run lists its 3 ranks in rank
# order, with this host's name, a window as long as the run and no
# longer than the job, per flowop counts that add up exactly to the
# merged flowop's, and its usage with the count of its devices
# (disks_total); `flowbench compare` names the clients and the slowest
# rank, `flowbench report` has a section per run with a row per rank and
# the slowest highlighted (rendered by chromium when it is installed);
# a rank's ENOSPC leaves a file listing every rank, the failed one named.
# Skipped where flowbench-mpi was not built or mpirun is missing.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/mpilib.sh"
need python3
YAML2JSON=$(dirname "$FLOWBENCH")/tests/yaml2json
[ -x "$YAML2JSON" ] || fail "$YAML2JSON is missing (make check builds it)"

# ---- the files: written by rank 0 only ----------------------------------
# Each rank runs in a working directory of its own (w/rN), and the
# --output paths are relative: a file written by any other rank than 0
# would appear in its own directory.  --repeat 2: every rank takes part
# in both runs (a rank that left after the first one hung the others;
# the timeout turns such a hang into a failure).
mkdir "$tmp/files" "$tmp/w"
runtime=2
t0=$(now)
# shellcheck disable=SC2086
timeout 300 "$MPIRUN" $mpi_flags -np 3 sh -c 'eval "r=\$$1"; shift; mkdir -p "$0/r$r" && cd "$0/r$r" && exec "$@"' \
	"$tmp/w" "$rank_var" "$FBM" run "$WORKLOADS/randomrw.f" --cache keep \
	-D dir="$tmp/files" -D filesize=16m -D nthreads=1 --runtime $runtime \
	--repeat 2 --output x.json --output x.yaml >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err" "$tmp/out"; fail "flowbench-mpi --repeat 2 --output failed or hung"; }
took=$(echo "$(now) - $t0" | bc)
[ "$(cd "$tmp/w" && ls -A | sort | tr '\n' ' ')" = "r0 r1 r2 " ] ||
	fail "not one working directory per rank: $(ls -A "$tmp/w")"
[ "$(ls -A "$tmp/w/r0" | sort | tr '\n' ' ')" = "x.json x.yaml " ] ||
	fail "rank 0 did not write exactly x.json and x.yaml: $(ls -A "$tmp/w/r0")"
[ -z "$(ls -A "$tmp/w/r1")$(ls -A "$tmp/w/r2")" ] ||
	fail "another rank wrote a file: $(ls -A "$tmp/w/r1" "$tmp/w/r2")"
ok "rank 0 alone wrote x.json and x.yaml (ranks 1 and 2 wrote nothing; the job took $took s)"

# ---- their contents ------------------------------------------------------
x=$tmp/w/r0
"$YAML2JSON" "$x/x.yaml" >"$tmp/y.json" || fail "x.yaml is not valid YAML"
python3 - "$x/x.json" "$tmp/y.json" "$(hostname)" "$runtime" "$took" <<'PY' ||
import json, sys
a = json.load(open(sys.argv[1]))
y = json.load(open(sys.argv[2]))
host, runtime, took = sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
assert a == y, "the JSON and YAML files hold different trees"
assert a["format"] == "flowbench-results/1", a["format"]
assert a["status"] == "ok", (a["status"], a["error"])
assert len(a["runs"]) == 2, len(a["runs"])
for run in a["runs"]:
    i, c, ranks = run["index"], run["clients"], run["ranks"]
    assert c["n"] == 3 and len(ranks) == 3, (i, c, len(ranks))
    assert [k["rank"] for k in ranks] == [0, 1, 2], (i, [k["rank"] for k in ranks])
    assert abs(c["window_s"] - run["elapsed_s"]) < 1e-9, (i, c["window_s"], run["elapsed_s"])
    assert 0 <= c["start_skew_s"] < runtime and c["clock_error_s"] >= 0 and c["merge_s"] >= 0, (i, c)
    for k in ranks:
        r = k["rank"]
        assert k["host"] == host, (i, r, k["host"], host)
        assert k["failed"] is False and "error" not in k, (i, r, k)
        w = k["window_s"]
        # as long as the run was asked to be, less this rank's lateness at
        # the release (its deadline counts from the common instant)
        assert runtime - c["late_s"] - 1e-4 <= w <= runtime + 1e-4 and w <= took, \
            (i, r, w, runtime, c["late_s"], took)
        assert abs(w - (k["end_s"] - k["start_s"])) < 1e-6, (i, r, k)
        assert k["ops"] > 0 and abs(k["ops_per_s"] - k["ops"] / w) < 1e-6 * k["ops_per_s"], (i, r, k)
        assert [f["name"] for f in k["flowops"]] == [f["name"] for f in run["flowops"]], (i, r)
        # its usage counts every device it had, the ones listed (at most 8) or more
        u = k["usage"]
        assert u["disks_total"] == len(u["disks"]) <= 8, (i, r, u["disks_total"], u["disks"])
    for j, fo in enumerate(run["flowops"]):
        for key in ("ops", "bytes", "errors"):
            total = sum(k["flowops"][j][key] for k in ranks)
            assert total == fo[key], (i, fo["name"], key, total, fo[key])
        assert fo["ops"] > 0, (i, fo["name"])
    assert sum(k["ops"] for k in ranks) == run["summary"]["ops"], (i, run["summary"])
    per_rank = " + ".join(str(k["flowops"][0]["ops"]) for k in ranks)
    print("run %d: %s = %d %s; windows %s s" % (i, per_rank, run["flowops"][0]["ops"],
          run["flowops"][0]["name"], ", ".join("%.3f" % k["window_s"] for k in ranks)))
PY
	fail "the ranks in the results files are wrong"
ok "2 runs x 3 ranks in rank order on $(hostname): windows about ${runtime} s, per-flowop ops, bytes and errors add up to the merged ones, JSON = YAML"

# ---- compare -------------------------------------------------------------
# the slowest rank of each run and the spread, from the file itself
python3 - "$x/x.json" >"$tmp/expect" <<'PY'
import json, sys
for run in json.load(open(sys.argv[1]))["runs"]:
    k = min(run["ranks"], key=lambda k: k["ops_per_s"])
    print(run["index"], k["rank"])
PY
"$FLOWBENCH" compare "$x/x.json" "$x/x.json" >"$tmp/cmp" 2>&1 ||
	{ cat "$tmp/cmp"; fail "compare of a flowbench-mpi file failed"; }
while read -r run slow; do
	n=$(grep -c "^  run $run: 3 clients; ops/s per rank: min [0-9.]* (slowest: rank $slow on $(hostname)), median [0-9.]*, max [0-9.]*$" "$tmp/cmp" || true)
	[ "$n" = 2 ] || { cat "$tmp/cmp"; fail "compare: run $run's clients and slowest rank $slow not shown for both files"; }
done <"$tmp/expect"
grep -q '^IO Summary ' "$tmp/cmp" || fail "compare: no IO Summary row"
ok "compare names 3 clients and the slowest rank of each run; the merged numbers are compared as before"

# ---- report --------------------------------------------------------------
"$FLOWBENCH" report "$x/x.json" -o "$tmp/r.html" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "report of a flowbench-mpi file failed"; }
[ "$(grep -c '^<h2>ranks: 1: .*, run [12]</h2>$' "$tmp/r.html")" = 2 ] ||
	fail "report: not one ranks section per run"
[ "$(grep -c "^<tr[^>]*><td class=\"n\">[0-2]</td><td>$(hostname)</td>" "$tmp/r.html")" = 6 ] ||
	fail "report: not a row per rank and run with this host"
while read -r run slow; do
	grep -q "the slowest, rank $slow, is highlighted" "$tmp/r.html" ||
		fail "report: run $run's slowest rank $slow is not named"
done <"$tmp/expect"
[ "$(grep -c "^<tr class=\"slowest\"" "$tmp/r.html")" = 2 ] ||
	fail "report: not one highlighted row per run"
[ "$(grep -c '<title>ops/s per rank' "$tmp/r.html")" = 2 ] ||
	fail "report: no bars of ops/s per rank"
python3 - "$x/x.json" "$tmp/r.html" <<'PY' || fail "report: the ranks' CPU and busiest device are not the results file's"
import json, re, sys
runs = json.load(open(sys.argv[1]))["runs"]
page = open(sys.argv[2]).read()
for run in runs:
    sec = page[page.index("<h2>ranks: 1: "):].split("<h2>ranks: 1: ")[run["index"]]
    for k in run["ranks"]:
        u = k["usage"]
        row = re.search(r'<td class="n">%d</td><td>[^<]*</td>(?:<td[^>]*>[^<]*</td>){3}'
                        r'<td class="n">([\d.]+)</td><td class="n">([^<]*)</td>' % k["rank"], sec)
        assert row, (run["index"], k["rank"])
        cpu = u["workers"]["usr_pct"] + u["workers"]["sys_pct"]
        assert abs(float(row.group(1)) - cpu) <= 0.0051, (row.group(1), cpu)
        found = [d["util_pct"] for d in u["disks"] if d["found"]]
        want = "%.2f" % max(found) if found else "-"
        assert row.group(2) == want, (row.group(2), want)
PY
ok "report: a ranks section per run, a row per rank (its CPU and busiest device as in the file), the slowest highlighted, bars of ops/s per rank"

# ---- a rank that fails: ENOSPC on rank 1's own small file system ---------
# The file is still written, the run partial, every rank listed; rank 1
# with its own error, the ranks it ended naming it.
cat >"$tmp/grow.f" <<'EOF'
define file name=g,path=$dir,size=1m,prealloc
define process name=p {
  thread name=t {
    flowop appendfile name=app,filename=g,iosize=64k
    flowop delay name=d,value=0.01
  }
}
run 30
EOF
if unshare -m true 2>/dev/null; then
	mkdir -p "$tmp/full/rank-00001"
	set +e
	timeout 300 unshare -m sh -c 'mount -t tmpfs -o size=4m tmpfs "$1/full/rank-00001" &&
		"$3" $4 -np 3 "$2" run "$1/grow.f" -D dir="$1/full" --output "$1/f.json"' \
		sh "$tmp" "$FBM" "$MPIRUN" "$mpi_flags" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	set -e
	[ $rc -ne 0 ] && [ $rc -ne 124 ] || { cat "$tmp/err"; fail "a failed rank's job exited $rc"; }
	python3 - "$tmp/f.json" <<'PY' || { cat "$tmp/err"; fail "the ranks of a run a rank's ENOSPC ended are wrong"; }
import json, sys
a = json.load(open(sys.argv[1]))
assert a["status"] == "failed" and "rank 1 " in a["error"], (a["status"], a["error"])
run = a["runs"][0]
assert run["partial"] is True and len(run["ranks"]) == 3, run.get("partial")
for k in run["ranks"]:
    assert k["failed"] is True and "No space left on device" in k["error"], k
    assert k["error"].startswith("rank 1 ") == (k["rank"] != 1), k["error"]
assert run["ranks"][1]["errors"] >= 1, run["ranks"][1]
for j, fo in enumerate(run["flowops"]):
    assert sum(k["flowops"][j]["ops"] for k in run["ranks"]) == fo["ops"], fo["name"]
PY
	ok "rank 1's ENOSPC (exit $rc): the file says failed, every rank listed, rank 1 with its own error, the others naming it"
else
	echo "skip: no private mount namespace for the ENOSPC case"
fi

# Rendering: chromium, headless, no network; the highlighted row's colour
# (#fde2e2) is on the page and not on the same page without its ranks.
command -v chromium >/dev/null 2>&1 || {
	echo "SKIP: chromium is not installed (apt-get install chromium) for the rendering check"
	exit 77
}
shot() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$tmp/c" \
		--screenshot="$2" --window-size=1200,5000 "file://$1" \
		>"$tmp/chromium.log" 2>&1 || { cat "$tmp/chromium.log"; fail "chromium failed"; }
	[ -s "$2" ] || fail "chromium wrote no screenshot"
}
# the same page without its ranks sections: from a ranks heading to the next heading
awk '/^<h2>ranks: / { skip = 1; next } /^<h2>/ { skip = 0 } !skip' "$tmp/r.html" >"$tmp/plain.html"
grep -q 'class="slowest"' "$tmp/plain.html" && fail "the check itself is off: ranks left in plain.html"
shot "$tmp/r.html" "$tmp/r.png"
shot "$tmp/plain.html" "$tmp/plain.png"
# pixels of the highlight colour in a PNG (8-bit RGB/RGBA, not interlaced)
highlighted() {
	python3 - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, chunks, head = 8, [], None
while pos < len(data):
    size, kind = struct.unpack(">I4s", data[pos:pos + 8])
    if kind == b"IHDR":
        head = struct.unpack(">IIBBBBB", data[pos + 8:pos + 8 + 13])
    elif kind == b"IDAT":
        chunks.append(data[pos + 8:pos + 8 + size])
    pos += size + 12
width, height, depth, colour, _, _, lace = head
assert depth == 8 and colour in (2, 6) and lace == 0, head
step = 3 if colour == 2 else 4
raw, row = zlib.decompress(b"".join(chunks)), width * step
above, found, at = bytearray(row), 0, 0
for _ in range(height):
    kind, cur = raw[at], bytearray(raw[at + 1:at + 1 + row])
    at += row + 1
    for i in range(row):
        left = cur[i - step] if i >= step else 0
        up, corner = above[i], (above[i - step] if i >= step else 0)
        if kind == 1:
            cur[i] = (cur[i] + left) & 255
        elif kind == 2:
            cur[i] = (cur[i] + up) & 255
        elif kind == 3:
            cur[i] = (cur[i] + (left + up) // 2) & 255
        elif kind == 4:
            guess = left + up - corner
            best = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                       (abs(guess - corner), 2, corner))[2]
            cur[i] = (cur[i] + best) & 255
    found += sum(1 for i in range(0, row, step) if cur[i:i + 3] == b"\xfd\xe2\xe2")
    above = cur
print(found)
PY
}
with=$(highlighted "$tmp/r.png")
without=$(highlighted "$tmp/plain.png")
[ "$without" = 0 ] || fail "the page without ranks has $without highlight pixels: the check itself is off"
[ "$with" -gt 1000 ] || fail "chromium shows no highlighted rank row ($with pixels of #fde2e2)"
ok "chromium renders the ranks sections ($with pixels of the slowest rows' highlight; 0 without them)"
