#!/bin/sh
# results-safety.sh - flowbench writes a file the user named (run --output,
# report -o) only over a regular file or nothing:
#  - a character device (made here with mknod, never the real /dev/null),
#    a FIFO, a socket, a symbolic link to a file outside and a directory
#    at the path are refused with a message naming what they are, before
#    the run starts, and left exactly as they were (nothing opens the
#    FIFO: every command runs under a timeout, so a blocking open fails);
#  - a link or a FIFO put at the path during the run is refused when the
#    file is written, also left as it was, no temporary file left;
#  - a regular file with another hard link: this name gets the results,
#    the other keeps the old contents, and a warning says so;
#  - report -o naming one of its inputs is refused;
#  - the `error` of a run refused before its timed phase (preflight,
#    fileset) is the first error line printed, not a generic text.
. "$(dirname "$0")/lib.sh"
need python3
need timeout
YAML2JSON=$(dirname "$FLOWBENCH")/tests/yaml2json
[ -x "$YAML2JSON" ] || fail "$YAML2JSON is missing (make check builds it)"

fb() {
	timeout 60 "$FLOWBENCH" "$@"
}

cat >"$tmp/tiny.f" <<'W'
define process name=p {
  thread name=t {
    flowop delay name=nap, value=0.01
  }
}
run 1
W

# the nodes: every kind of file that is not a regular file
nodes=$tmp/nodes
mkdir "$nodes"
echo "outside, keep me" >"$tmp/outside"
kinds="fifo:a FIFO link:a symbolic link dir:a directory"
mkfifo "$nodes/fifo.json"
ln -s ../outside "$nodes/link.json"
mkdir "$nodes/dir.json"
if mknod "$nodes/dev.json" c 1 3 2>/dev/null; then
	kinds="$kinds dev:a character device"
else
	echo "note: mknod not permitted here: no device node case"
fi
if python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
	"$nodes/sock.json" 2>/dev/null; then
	kinds="$kinds sock:a socket"
fi
# snapshot DIR: every entry's type, device numbers, inode and link text
snapshot() {
	for f in "$1"/* "$1"/.[!.]*; do
		[ -e "$f" ] || [ -L "$f" ] || continue
		printf '%s %s\n' "$(stat -c '%n %F %t:%T %i' "$f")" "$(readlink "$f" || true)"
	done
}
snapshot "$nodes" >"$tmp/before"

# each_kind CMD...: run CMD with $p the node and $what its kind's name
each_kind() {
	echo "$kinds" | sed 's/ \([a-z]*\):/\n\1:/g' | while IFS=: read -r k what; do
		p=$nodes/$k.json
		"$@" "$p" "$what" || exit 1
	done
}

refused_report() {
	rc=0
	fb report "$TOP_SRCDIR/tests/data/single.json" -o "$1" >"$tmp/out" 2>&1 || rc=$?
	[ $rc -eq 1 ] || fail "report -o $1 ($2): exit $rc, not 1: $(cat "$tmp/out")"
	grep -qF "refusing to write the report to $1: it is $2, not a regular file" "$tmp/out" ||
		fail "report -o $1: no clear refusal: $(cat "$tmp/out")"
}
each_kind refused_report || exit 1
snapshot "$nodes" >"$tmp/after"
diff "$tmp/before" "$tmp/after" >&2 || fail "report -o changed a node"
[ "$(cat "$tmp/outside")" = "outside, keep me" ] || fail "the link's target changed"
ok "report -o refuses $(echo "$kinds" | sed 's/[a-z]*://g; s/ a /, a /g'): each named, all left as they were"

refused_run() {
	rc=0
	fb run "$tmp/tiny.f" --cache keep --output "$1" >"$tmp/out" 2>&1 || rc=$?
	[ $rc -eq 1 ] || fail "run --output $1 ($2): exit $rc, not 1: $(cat "$tmp/out")"
	grep -qF "refusing to write results to $1: it is $2, not a regular file" "$tmp/out" ||
		fail "run --output $1: no clear refusal: $(cat "$tmp/out")"
	! grep -q 'Running' "$tmp/out" || fail "run --output $1 ($2): refused only after the run"
}
each_kind refused_run || exit 1
snapshot "$nodes" >"$tmp/after"
diff "$tmp/before" "$tmp/after" >&2 || fail "run --output changed a node"
[ "$(cat "$tmp/outside")" = "outside, keep me" ] || fail "the link's target changed"
ok "run --output refuses the same kinds before the run starts, all left as they were"

# nodes appearing at the path during the run: refused at write time.
# They appear after Running; if "Run took" (logged before the results are
# written) was there already when they did, a loaded machine was too slow
# for the run's time: again with a run 4 times longer.
late=$tmp/late
for secs in 3 12 48; do
	rm -rf "$late"
	mkdir "$late"
	fb run "$tmp/tiny.f" --cache keep --runtime $secs --output "$late/link.json" \
		--output "$late/fifo.yaml" >"$tmp/lout" 2>&1 &
	pid=$! bg_pids=$!
	wait_running "$tmp/lout" "$pid"
	ln -s ../outside "$late/link.json"
	mkfifo "$late/fifo.yaml"
	! grep -q 'Run took' "$tmp/lout" && break
	wait "$pid" || true
	echo "the $secs s run ended before the nodes appeared: again, longer"
done
snapshot "$late" >"$tmp/before"
rc=0
wait "$pid" || rc=$?
grep -q 'Run took' "$tmp/lout" || fail "the nodes did not appear during the run: $(cat "$tmp/lout")"
[ $rc -eq 1 ] || fail "nodes at the paths at write time: exit $rc, not 1: $(cat "$tmp/lout")"
grep -qF "refusing to write results to $late/link.json: it is a symbolic link" "$tmp/lout" ||
	fail "no refusal for the link: $(cat "$tmp/lout")"
grep -qF "refusing to write results to $late/fifo.yaml: it is a FIFO" "$tmp/lout" ||
	fail "no refusal for the FIFO: $(cat "$tmp/lout")"
snapshot "$late" >"$tmp/after"
diff "$tmp/before" "$tmp/after" >&2 || fail "a node made during the run was replaced (or a temporary file left)"
[ "$(cat "$tmp/outside")" = "outside, keep me" ] || fail "the link's target changed"
ok "a link and a FIFO put at the paths during the run: refused at write time, untouched, exit 1"

# a regular file with a second hard link: only this name is replaced
hl=$tmp/hardlink
mkdir "$hl"
echo "old results" >"$hl/a.json"
ln "$hl/a.json" "$hl/b.json"
fb run "$tmp/tiny.f" --cache keep --output "$hl/a.json" >"$tmp/hout" 2>&1 ||
	fail "run over a hard-linked file failed: $(cat "$tmp/hout")"
python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["status"] == "ok"' "$hl/a.json" ||
	fail "a.json does not hold the results"
[ "$(cat "$hl/b.json")" = "old results" ] || fail "the other hard link changed"
grep -q "warning: $hl/a.json has 1 other hard link: only this name gets the new results" "$tmp/hout" ||
	fail "no warning about the other hard link: $(cat "$tmp/hout")"
ok "a file with another hard link: this name replaced, the other keeps the old contents, a warning"

# report -o naming one of its inputs: refused, the input kept
cp "$TOP_SRCDIR/tests/data/single.json" "$tmp/in.json"
rc=0
fb report "$tmp/in.json" -o "$tmp/in.json" >"$tmp/out" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "report -o over its input: exit $rc, not 1: $(cat "$tmp/out")"
cmp -s "$TOP_SRCDIR/tests/data/single.json" "$tmp/in.json" || fail "report -o replaced its input"
grep -qF "refusing to write the page over its input $tmp/in.json" "$tmp/out" ||
	fail "no clear refusal: $(cat "$tmp/out")"
ok "report -o naming its input: refused, the results file kept"

# the error field: the first error line printed
first_error() {
	sed -n 's/^flowbench: error: //p' "$1" | head -n 1
}
rc=0
: >"$tmp/afile"
fb run "$WORKLOADS/randomrw.f" -D dir="$tmp/afile/missing" -D filesize=1m --cache keep \
	--runtime 1 --output "$tmp/e1.json" >"$tmp/e1out" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "preflight refusal: exit $rc: $(cat "$tmp/e1out")"
mkdir -p "$tmp/foreign/largefile1"
echo "not flowbench's" >"$tmp/foreign/largefile1/data"
rc=0
fb run "$WORKLOADS/randomrw.f" -D dir="$tmp/foreign" -D filesize=1m --cache keep \
	--runtime 1 --output "$tmp/e2.yaml" >"$tmp/e2out" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "fileset refusal: exit $rc: $(cat "$tmp/e2out")"
"$YAML2JSON" "$tmp/e2.yaml" >"$tmp/e2.json" || fail "e2.yaml is not valid YAML"
[ "$(cat "$tmp/foreign/largefile1/data")" = "not flowbench's" ] || fail "the foreign file changed"
python3 - "$tmp/e1.json" "$(first_error "$tmp/e1out")" "$tmp/e2.json" "$(first_error "$tmp/e2out")" <<'PY' ||
import json, sys
for path, printed in zip(sys.argv[1::2], sys.argv[2::2]):
    r = json.load(open(path))
    assert printed, (path, "no error line printed")
    assert r["status"] == "failed", (path, r["status"])
    assert r["error"] == printed, (path, r["error"], printed)
PY
	fail "the results file's error is not the first error printed"
grep -q 'path .*afile/missing cannot be made' "$tmp/e1out" || fail "unexpected preflight message: $(cat "$tmp/e1out")"
grep -q 'not created by flowbench' "$tmp/e2out" || fail "unexpected fileset message: $(cat "$tmp/e2out")"
ok "preflight and fileset refusals: the file's error is the first error line printed (JSON, YAML)"
