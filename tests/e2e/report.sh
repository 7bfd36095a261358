#!/bin/sh
# report.sh - `flowbench report` writes one self-contained HTML page from
# the fixture results files: charts as inline SVG, nothing fetched from a
# network, text from the files escaped.  From real runs (--repeat 3
# --interval 0.5) it reads like an analysis: numbers for people, the
# measured run time, the rows where A and B differ highlighted, %diff and
# significance equal to `flowbench compare`'s, p50/p99 over time, an
# overview of every flowop's latency, values on hover, no one-point
# chart.  What each run's window cost (its usage) is on the page: the
# workers' CPU, CPU µs/op, faults, the master, every device, equal within
# rounding to the results file's numbers, in the HTML and in the page as
# chromium renders it; a file without usage reads "not measured"; no
# NaN or inf anywhere.  With Debian's chromium the page is rendered
# headless and must not be blank; in CI ($CI set) a missing chromium is
# a failure, not a skip.
. "$(dirname "$0")/lib.sh"

data=$TOP_SRCDIR/tests/data
html=$tmp/report.html

"$FLOWBENCH" report "$data/base.json" "$data/new.json" "$data/single.json" \
	-o "$html" 2>"$tmp/err" || { cat "$tmp/err"; fail "report exited with $?"; }
[ -s "$html" ] || fail "no report written"
head -1 "$html" | grep -q '^<!DOCTYPE html>$' || fail "not an HTML5 document"
tail -1 "$html" | grep -q '^</html>$' || fail "the page does not end with </html>"
nsvg=$(grep -c '<svg ' "$html")
[ "$nsvg" -ge 10 ] || fail "expected charts for the summary and 5 flowops, got $nsvg <svg>"
[ "$nsvg" -eq "$(grep -c '</svg>' "$html")" ] || fail "unbalanced <svg> elements"
if grep -Eq 'https?://|<script|<link|@import|url\(' "$html"; then
	fail "the page refers to something outside itself: $(grep -Eo 'https?://[^" ]*|<script|<link|@import|url\(' "$html" | head -3)"
fi
ok "one HTML page, $nsvg inline SVG charts, no external reference"

grep -q '&lt;box &amp; &quot;friends&quot;&gt;' "$html" || fail "host name not escaped"
if grep -q '<box\|<odd>' "$html"; then
	fail "unescaped text from the results file: $(grep -o '<box[^<]*\|<odd>' "$html" | head -2)"
fi
for fo in rand-read1 rand-write1 delete1 stat1 idle1; do
	grep -q "<h2>flowop $fo</h2>" "$html" || fail "no section for $fo"
done
grep -q 'ops/s per run (no intervals recorded)' "$html" &&
	grep -q 'latency percentiles' "$html" &&
	grep -q 'mean ± stdev over runs' "$html" || fail "a chart kind is missing"
ok "text from the files escaped; a section per flowop with its charts"

"$FLOWBENCH" report "$data/single.json" -o "$tmp/single.html"
[ "$(grep -c '>ops/s over time</text>' "$tmp/single.html")" -eq 2 ] ||
	fail "one run with intervals: expected ops/s over time for its 2 flowops with intervals (idle1 has none)"
! grep -q 'mean ± stdev over runs' "$tmp/single.html" ||
	fail "one file of one run: no bars to compare"
grep -q 'No latency percentiles' "$tmp/single.html" ||
	fail "a flowop without ops (idle1) must say it has no percentiles"
ok "one run: ops/s over time from its intervals, no bars"

set +e
"$FLOWBENCH" report "$data/future-format.json" -o "$tmp/x.html" 2>"$tmp/err"
rc=$?
set -e
[ $rc -eq 1 ] && [ ! -e "$tmp/x.html" ] || fail "unknown format: exit $rc, or a page was written"
grep -q "unknown results format" "$tmp/err" || fail "unknown format message: $(cat "$tmp/err")"
ok "refuses an unknown format version and writes nothing"

# Real runs: A with 1 thread, B with 2; the script says runtime 60, each
# run is measured for --runtime 1.
need python3
for x in a b; do
	mkdir "$tmp/d$x"
	"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp/d$x" \
		-D filesize=16m -D nthreads=$([ $x = a ] && echo 1 || echo 2) \
		--runtime 1 --repeat 3 --interval 0.5 --output "$tmp/$x.json" \
		>"$tmp/run.out" 2>"$tmp/err" || { cat "$tmp/err"; fail "run $x failed"; }
done
"$FLOWBENCH" report "$tmp/a.json" "$tmp/b.json" -o "$tmp/ab.html" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "report of two runs failed"; }
compare_tables "$tmp/a.json" "$tmp/b.json" >"$tmp/compare.txt"
python3 - "$tmp/a.json" "$tmp/b.json" "$tmp/ab.html" "$tmp/compare.txt" <<'PY' || fail "the report of real runs does not read like an analysis"
import json, re, statistics, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
page = open(sys.argv[3]).read()
cmp = open(sys.argv[4]).read()

def human(v, dec):
    return f"{v:,.{dec}f}"

# numbers for people: the IO Summary's ops/s as "588,035 ± 57,821"
rates = [r["summary"]["ops_per_s"] for r in a["runs"]]
want = human(statistics.mean(rates), 0) + " ± " + human(statistics.stdev(rates), 0)
summary = page[page.index("<h2>IO Summary</h2>"):]
assert want in summary[:summary.index("</table>")], ("IO Summary ops/s not", want)
table_text = re.sub(r"<svg.*?</svg>", "", page, flags=re.S)
assert not re.search(r"\d\.?\d*e[+-]\d", table_text), re.search(r".{40}\d\.?\d*e[+-]\d.{20}", table_text).group(0)

# the measured run time, not the script's `runtime` (60)
assert a["workload"]["variables"]["runtime"] == 60
el = [r["elapsed_s"] for r in a["runs"]]
row = re.search(r"<tr[^>]*><th>run time \(measured\)</th><td>([^<]*)</td>", page)
assert row, "no run time row"
assert row.group(1).startswith(human(statistics.mean(el), 2) + " s (runs: "), row.group(1)
assert "<th>workload.runtime</th>" not in page, "the script's runtime is shown as if it ran"

# rows where A and B differ highlighted, the others not
assert '<tr class="differs"><th>workload.nthreads</th>' in page
assert '<tr><th>workload.iosize</th>' in page
assert '<tr><th>run time (measured)</th>' in page or \
    '<tr class="differs"><th>run time (measured)</th>' in page

# %diff and significance, for ops/s, exactly as compare prints them
ops = cmp[cmp.index("ops/s "):cmp.index("\n\n", cmp.index("ops/s "))].splitlines()[1:]
assert len(ops) == 3, ops
for line in ops:
    name = line.split()[0] if not line.startswith("IO Summary") else "IO Summary"
    m = re.search(r"([+-][\d.]+%)\s+((?:yes|no) \(p[=<][\d.e-]+\))\s*$", line)
    assert m, line
    head = "<h2>IO Summary</h2>" if name == "IO Summary" else "<h2>flowop %s</h2>" % name
    sec = page[page.index(head):]
    sec = sec[:sec.index("</table>")]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", sec.splitlines()[4])
    got = (cells[3], cells[4].replace("&lt;", "<"))
    assert got == (m.group(1), m.group(2)), (name, got, "compare says", m.groups())

# latency over time next to ops/s over time, for both flowops
for title in ("ops/s over time", "p50 latency over time", "p99 latency over time"):
    assert page.count(">%s</text>" % title) == 2, (title, page.count(">%s</text>" % title))

# one overview of p50/p99 per flowop, before the flowops' sections
ov = page.find("<h2>Latency per flowop</h2>")
assert 0 < ov < page.index("<h2>flowop "), "no latency overview before the flowops"
assert re.search(r"<title>rand-read1, 2: [^<]*b\.json: p50 [\d.]+[nµm]?s, p99 [\d.]+[nµm]?s</title>", page)

# every point says its value on hover
circles = page.count("<circle ")
assert circles > 50, circles
hover = len(re.findall(r"<circle [^>]*><title>[^<]*: time \(s\) [^<]*, ops/s [\d,.]+</title></circle>", page))
assert hover > 0 and circles == len(re.findall(r"<circle [^>]*><title>", page)) + page.count("<g><title>"), (circles, hover)
PY
ok "real runs: human numbers, measured run time, differing rows, compare's %diff/significance, latency over time, overview, hover values"

# CPU and disks: PAGE, then per file of the page its results file, or -
# for a file without usage ("not measured").  Every number of the page's
# tables against the results file's, within the page's rounding.
cat >"$tmp/usage_check.py" <<'PY'
import html, json, math, re, sys
page = open(sys.argv[1]).read()
files = sys.argv[2:]

def text(s):
    return html.unescape(re.sub(r"<[^>]*>", " ", s))

bad = re.findall(r"(?i)(?<![a-z])-?(?:nan|inf)(?![a-z])", text(page))
assert not bad, ("a number that is not one", bad)

def cells(row):
    return [text(c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)]

def rows(table):
    return [cells(r) for r in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)]

def num(s):
    return float(s.replace(",", "").split(" ")[0])

def human_tol(v):          # svg_human: whole from 100 up, else 3 significant digits
    v = abs(v)
    return 0.5 if v >= 99.95 or v == 0 else 0.5 * 10 ** (math.floor(math.log10(v)) - 2) + 1e-12

def close(got, want, tol, what):
    assert abs(got - want) <= tol, (what, "page", got, "file", want)

sec = page[page.index("<h2>CPU and disks</h2>"):]
sec = sec[:sec.index("<h2>", 5)]
chunks = sec.split("<h3>")[1:]
assert len(chunks) == len(files), (len(chunks), files)
costs = {}
for chunk, f in zip(chunks, files):
    if f == "-":
        assert "CPU and disks: not measured" in text(chunk), chunk[:300]
        assert "<table" not in chunk
        continue
    doc = json.load(open(f))
    tables = re.findall(r"<table.*?</table>", chunk, re.S)
    cpu = rows(tables[0])[2:]
    disks = rows(tables[1])[1:] if len(tables) > 1 else []
    assert len(cpu) == len(doc["runs"]), (len(cpu), len(doc["runs"]))
    want_disks, per_op, utils = [], [], []
    for run, row in zip(doc["runs"], cpu):
        u = run["usage"]
        w = {k: sum(c[k] for c in u["cpu"]) for k in
             ("usr_pct", "sys_pct", "usr_s", "sys_s", "ctx", "majf", "minf")}
        us_op = (w["usr_s"] + w["sys_s"]) * 1e6 / run["summary"]["ops"]
        per_op.append(us_op)
        found = [d["util_pct"] for d in u["disks"] if d["found"]]
        if found:
            utils.append(max(found))
        assert int(row[0]) == run["index"], row
        got = [num(x) for x in row[1:]]
        close(got[0], w["usr_pct"], 0.0051, "workers usr %")
        close(got[1], w["sys_pct"], 0.0051, "workers sys %")
        close(got[2], us_op, human_tol(us_op), "CPU µs/op")
        for i, k in ((3, "ctx"), (4, "majf"), (5, "minf")):
            close(got[i], w[k], 0, k)
        close(got[6], u["master"]["usr_pct"], 0.0051, "master usr %")
        close(got[7], u["master"]["sys_pct"], 0.0051, "master sys %")
        for d in u["disks"]:
            name = d["name"] + (" (on %s)" % d["on"] if d["on"] else "")
            want_disks.append((run["index"], name, d))
        for n in u["no_block_device"]:
            want_disks.append((run["index"], n["dir"], n))
    assert len(disks) == len(want_disks), (disks, want_disks)
    for row, (index, name, d) in zip(disks, want_disks):
        assert int(row[0]) == index and row[1] == name, (row, index, name)
        if "fstype" in d:
            assert row[2] == "no block device (%s): no disk statistics" % d["fstype"], row
        elif d["found"]:
            close(num(row[2]), d["read_ios"], 0, "reads")
            close(num(row[3]), d["write_ios"], 0, "writes")
            close(num(row[4]), d["util_pct"], 0.0051, "util %")
    costs[f] = (sum(per_op) / len(per_op), sum(utils) / len(utils) if utils else None)

# each file's CPU µs/op and util next to its rates: the means over its runs
if costs:
    sec = page[page.index("What the rates cost"):]
    table = rows(sec[:sec.index("</table>")])[1:]
    cpu_col, util_col = (5, 8) if len(files) > 1 else (3, 4)   # %diff columns or not
    assert len(table) == len(files), table
    for row, f in zip(table, files):
        if f == "-":
            assert row[cpu_col] == row[util_col] == "not measured", row
            continue
        close(num(row[cpu_col]), costs[f][0], human_tol(costs[f][0]), "mean CPU µs/op")
        if costs[f][1] is None:
            assert row[util_col] == "-", row    # on no block device (a tmpfs $TMPDIR)
        else:
            close(num(row[util_col]), costs[f][1], human_tol(costs[f][1]), "mean util %")
PY
usage_check() {
	python3 "$tmp/usage_check.py" "$@" || fail "CPU and disks of $1 do not match the results files"
}
usage_check "$tmp/ab.html" "$tmp/a.json" "$tmp/b.json"
usage_check "$html" - - -
ok "CPU and disks: each run's workers, master and devices as the results files have them; a file without usage not measured; no NaN or inf"

# One run without intervals: each flowop is one point, so no chart of it.
mkdir "$tmp/d1"
"$FLOWBENCH" run "$WORKLOADS/randomrw.f" --cache keep -D dir="$tmp/d1" -D filesize=16m \
	-D nthreads=1 --runtime 1 --output "$tmp/one.json" >"$tmp/run.out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "a single run failed"; }
"$FLOWBENCH" report "$tmp/one.json" -o "$tmp/one.html"
! grep -q 'ops/s per run' "$tmp/one.html" || fail "a chart of a single point"
grep -q '>latency percentiles</text>' "$tmp/one.html" || fail "the percentiles (several points) are charted"
ok "one run without intervals: no one-point chart"

# Rendering: a real browser, headless, no network; a blank page is one colour.
# As root chromium needs --no-sandbox, and a HOME it can write.
command -v chromium >/dev/null 2>&1 || {
	[ -z "${CI:-}" ] || fail "CI: chromium is not installed (tests/install-deps.sh installs it): the rendering check must run"
	echo "SKIP: chromium is not installed (apt-get install chromium) for the rendering check"
	exit 77
}
mkdir -p "$tmp/home"
shot() {
	HOME=$tmp/home timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$tmp/c" \
		--screenshot="$2" --window-size=1200,1600 "file://$1" \
		>"$tmp/chromium.log" 2>&1 || { cat "$tmp/chromium.log"; fail "chromium failed"; }
	[ -s "$2" ] || fail "chromium wrote no screenshot"
}
printf '<!DOCTYPE html>\n<html><body></body></html>\n' >"$tmp/blank.html"
shot "$html" "$tmp/shot.png"
shot "$tmp/ab.html" "$tmp/ab.png"
shot "$tmp/blank.html" "$tmp/blank.png"
# the same CPU and disks in the page as chromium parsed it (its DOM)
for page in ab report; do
	HOME=$tmp/home timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$tmp/c" \
		--dump-dom "file://$tmp/$page.html" >"$tmp/$page.dom" 2>"$tmp/chromium.log" ||
		{ cat "$tmp/chromium.log"; fail "chromium --dump-dom failed"; }
done
usage_check "$tmp/ab.dom" "$tmp/a.json" "$tmp/b.json"
usage_check "$tmp/report.dom" - - -
# distinct colours of a PNG (8-bit RGB or RGBA, non-interlaced), by hand
colours() {
	python3 - "$1" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        ihdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
w, h, depth, ctype, _, _, interlace = ihdr
assert depth == 8 and ctype in (2, 6) and interlace == 0, ihdr
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, seen, i = bytearray(stride), set(), 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b = prev[x]
        c = prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    if y % 4 == 0:
        seen.update(bytes(line[k:k + 3]) for k in range(0, stride, bpp * 2))
    prev = line
print(len(seen))
PY
}
nreport=$(colours "$tmp/shot.png")
nblank=$(colours "$tmp/blank.png")
[ "$nblank" -le 2 ] || fail "the blank page has $nblank colours: the check itself is off"
[ "$nreport" -ge 20 ] || fail "the rendered report has only $nreport colours: blank?"
nab=$(colours "$tmp/ab.png")
[ "$nab" -ge 20 ] || fail "the rendered report of real runs has only $nab colours: blank?"
ok "chromium renders the reports ($nreport and $nab colours; a blank page: $nblank); CPU and disks in its DOM as in the results files"
