#!/bin/sh
# report.sh - `flowbench report` writes one self-contained HTML page from
# the fixture results files: charts as inline SVG, nothing fetched from a
# network, text from the files escaped; with Debian's chromium installed
# the page is also rendered headless and must not be blank.
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

# Rendering: a real browser, headless, no network; a blank page is one colour.
command -v chromium >/dev/null 2>&1 || {
	echo "SKIP: chromium is not installed (apt-get install chromium) for the rendering check"
	exit 77
}
need python3
shot() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$tmp/c" \
		--screenshot="$2" --window-size=1200,1600 "file://$1" \
		>"$tmp/chromium.log" 2>&1 || { cat "$tmp/chromium.log"; fail "chromium failed"; }
	[ -s "$2" ] || fail "chromium wrote no screenshot"
}
printf '<!DOCTYPE html>\n<html><body></body></html>\n' >"$tmp/blank.html"
shot "$html" "$tmp/shot.png"
shot "$tmp/blank.html" "$tmp/blank.png"
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
ok "chromium renders the report ($nreport colours; a blank page: $nblank)"
