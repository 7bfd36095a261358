#!/bin/sh
# results-signals.sh - a signal while a results file is written never
# makes the file and the exit status disagree, and never leaves a
# temporary file.  strace holds the fsync of the temporary file for a few
# seconds (fault injection, nothing in flowbench itself), so the signals
# land inside the write:
#  - one SIGINT after the run ended: the file is completed, says "ok",
#    and the exit status is 0;
#  - SIGINT, then SIGTERM while the second of two files is prepared: the
#    write is abandoned, exit 130, both old files unchanged, no
#    .flowbench-results.* temporary left;
#  - `flowbench report -o` sent SIGTERM while its page is written (the
#    first write into the temporary file held): exit 143, the old page
#    kept, no temporary left.
# A case whose signal comes too late (a busy machine took longer than the
# hold to notice the temporary file, and flowbench ended first) says
# nothing about flowbench: it is run again with the hold doubled (3, 6,
# 12, 24 s), so the bound follows what the machine actually took.
. "$(dirname "$0")/lib.sh"
need python3
need strace
strace -o /dev/null true 2>/dev/null || { echo "SKIP: strace cannot trace here"; exit 77; }

hold_s=3        # how long the fsync is held (doubled after a missed window)
# LeakSanitizer cannot run under ptrace: off in a sanitizer build
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS

cat >"$tmp/tiny.f" <<'W'
define process name=p {
  thread name=t {
    flowop delay name=nap, value=0.01
  }
}
run 1
W

# traced OUT ARGS...: flowbench ARGS under strace, its first $call (or
# those $held says: 1..2) held hold_s seconds; pid = flowbench's, spid =
# strace's (same exit status)
call=fsync
held=1
traced() {
	out=$1; shift
	strace -o /dev/null -e trace=$call -e inject=$call:delay_enter=${hold_s}s:when=$held \
		"$FLOWBENCH" "$@" >"$out" 2>&1 &
	spid=$!
	i=0
	until pid=$(pgrep -P "$spid"); do
		i=$((i + 1)); [ $i -le 100 ] || fail "flowbench did not start under strace"
		sleep 0.05
	done
	missed=0
}
# signal SIG: send it to flowbench; too late (it has ended) is a missed window
signal() {
	kill -"$1" "$pid" 2>/dev/null || missed=1
}
# still: flowbench has not ended (else the window was missed)
still() {
	kill -0 "$pid" 2>/dev/null || { missed=1; return 1; }
}
# wait_temp DIR [N [any]]: until N (1) temporary files in DIR have
# contents (written, flushed, the last one now in the held fsync), or
# with "any" just exist
wait_temp() {
	size="-size +0"
	[ "${3:-}" != any ] || size=
	i=0
	# shellcheck disable=SC2086
	until [ "$(find "$1" -maxdepth 1 \( -name '.flowbench-*' -o -name '*.tmp.*' \) \
			$size | wc -l)" -ge "${2:-1}" ]; do
		still || return 0
		i=$((i + 1))
		[ $i -le 400 ] || { kill -9 "$pid"; fail "no temporary file appeared in $1: $(cat "$out")"; }
		sleep 0.05
	done
}
# finish: st = the exit status (at most 30 s)
finish() {
	i=0
	while kill -0 "$spid" 2>/dev/null && ! grep -q '^State:.*Z' "/proc/$spid/status" 2>/dev/null; do
		i=$((i + 1)); [ $i -le 600 ] || { kill -9 "$pid" "$spid"; fail "still running: $(cat "$out")"; }
		sleep 0.05
	done
	st=0; wait "$spid" || st=$?
}
# only DIR NAME...: DIR holds exactly these names (no temporary file)
only() {
	d=$1; shift
	got=$(cd "$d" && ls -A | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "$d holds '$got', not '$want'"
}

# one SIGINT during the write: completed, "ok", exit 0
case_one() {
d1=$tmp/one
rm -rf "$d1"
mkdir "$d1"
traced "$tmp/o1" run "$tmp/tiny.f" --cache keep --output "$d1/r.json"
wait_temp "$d1"
signal INT
finish
[ $missed -eq 0 ] || return 2
python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(r["status"])' "$d1/r.json" \
	>"$tmp/s1" 2>&1 || fail "no valid results file after one SIGINT: $(cat "$tmp/o1")"
[ "$(cat "$tmp/s1")" = ok ] || fail "the file says $(cat "$tmp/s1") for a run that ended"
[ "$st" -eq 0 ] || fail "one SIGINT during the write: exit $st while the file says ok: $(cat "$tmp/o1")"
grep -q 'interrupt after the run ended' "$tmp/o1" || fail "no notice of the deferred interrupt: $(cat "$tmp/o1")"
only "$d1" r.json
ok "one SIGINT while the results are written: the file is completed, says ok, exit 0"
}

# SIGINT, then SIGTERM while the second file is prepared: abandoned, exit
# 130, nothing replaced, nothing left
case_two() {
d2=$tmp/two
rm -rf "$d2"
mkdir "$d2"
echo "previous results" >"$d2/r.json"
echo "previous results" >"$d2/r.yaml"
held=1..2
traced "$tmp/o2" run "$tmp/tiny.f" --cache keep --output "$d2/r.json" --output "$d2/r.yaml"
held=1
wait_temp "$d2"
signal INT
i=0
until [ $missed -ne 0 ] || grep -q 'interrupt after the run ended' "$tmp/o2"; do
	still || break
	i=$((i + 1)); [ $i -le 400 ] || { kill -9 "$pid"; fail "no notice of the first interrupt: $(cat "$tmp/o2")"; }
	sleep 0.05
done
wait_temp "$d2" 2
signal TERM
finish
[ $missed -eq 0 ] || return 2
[ "$st" -eq 130 ] || fail "two signals during the write: exit $st, not 130: $(cat "$tmp/o2")"
for f in r.json r.yaml; do
	[ "$(cat "$d2/$f")" = "previous results" ] || fail "the previous $f changed: $(cat "$d2/$f")"
done
only "$d2" r.json r.yaml
grep -q '^flowbench: error: the results files were not written' "$tmp/o2" || fail "no message: $(cat "$tmp/o2")"
ok "a second signal while the files are written: exit 130, the old files kept, no temporary left"
}

# report -o sent SIGTERM while the page is written
case_three() {
d3=$tmp/page
rm -rf "$d3"
mkdir "$d3"
echo "previous page" >"$d3/p.html"
call="write"
traced "$tmp/o3" report "$TOP_SRCDIR/tests/data/single.json" -o "$d3/p.html"
wait_temp "$d3" 1 any
signal TERM
finish
call=fsync
[ $missed -eq 0 ] || return 2
[ "$st" -eq 143 ] || fail "report interrupted: exit $st, not 143: $(cat "$tmp/o3")"
[ "$(cat "$d3/p.html")" = "previous page" ] || fail "the previous page changed"
only "$d3" p.html
ok "report -o sent SIGTERM while writing: exit 143, the old page kept, no temporary left"
}

# each case until its signals land inside the hold (see the top)
for c in case_one case_two case_three; do
	hold_s=3
	while :; do
		rc=0
		$c || rc=$?
		[ $rc -eq 2 ] || break
		[ $hold_s -lt 24 ] || fail "$c: flowbench ended before its signal even with a $hold_s s hold"
		echo "($c: flowbench ended before the signal came; again with a ${hold_s}x2 s hold)"
		hold_s=$((hold_s * 2))
	done
	[ $rc -eq 0 ] || exit $rc
done
