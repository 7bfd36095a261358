#!/bin/sh
# workloads.sh - the catalogue: `flowbench list` shows every workload of
# workloads/ with the description of its header, a bare name runs the
# catalogue's file, and EVERY workload runs, scaled down (2 s, warm
# cache), to a result block in which every flowop did work.
#
# Each workload needs an entry in the table below: the -D values that
# scale it down (only variables it uses: an unused -D is an error) and
# the flowops allowed to show 0 ops (composite lines, limit flowops with
# the event generator off).  A run that fails only because flowbench
# does not implement something yet prints SKIP-NOT-YET and is counted,
# not failed; any other failure fails the test.
. "$(dirname "$0")/lib.sh"

# name | -D values (besides dir) | flowops that may show 0 ops
table='
aio-seqread | filesize=16m nthreads=2 |
compflow-demo | nfiles=20 filesize=16k iosize=64k meanappendsize=1k | file-small file-large file-small.fetch file-large.fetch browse
copyfiles | nfiles=20 filesize=16k iosize=64k |
createdelete-swing | nfiles=20 filesize=4k iosize=64k | fill fill-pace
createfiles | nfiles=50 filesize=4k nthreads=2 |
dio-randrw | filesize=16m nthreads=2 | dio-rw
dio-smallblock | filesize=16m count=200 nops=800 |
filemicro_create | iosize=64k count=64 |
filemicro_createfiles | nfiles=40 count=10 filesize=4k |
filemicro_createrand | iosize=16k totalbytes=1m |
filemicro_delete | nfiles=50 filesize=4k count=20 nthreads=2 | delete-cap
filemicro_rread | filesize=4m iosize=4k totalbytes=1m |
filemicro_rwrite | filesize=4m iosize=4k totalbytes=1m |
filemicro_rwritedsync | filesize=4m iosize=4k count=100 |
filemicro_rwritefsync | filesize=4m iosize=4k nwrites=16 count=10 |
filemicro_seqread | filesize=4m iosize=64k |
filemicro_seqwrite | iosize=16k nappends=4 count=200 |
filemicro_seqwriterand | filesize=64k iosize=4k count=200 |
filemicro_seqwriterandvargam | nfiles=4 filesize=64k meaniosize=4k count=200 |
filemicro_seqwriterandvartab | nfiles=4 filesize=64k count=200 |
filemicro_statfile | nfiles=20 filesize=4k nthreads=2 |
filemicro_writefsync | iosize=4k count=50 |
fileserver | nfiles=20 filesize=16k nthreads=2 iosize=64k meanappendsize=4k |
fivestreamread | filesize=4m iosize=64k |
fsmark-reader | nfiles=100000 readsize=16m |
fivestreamreaddirect | filesize=4m iosize=64k |
fivestreamwrite | filesize=1m iosize=64k |
fivestreamwritedirect | filesize=1m iosize=64k |
listdirs | nfiles=50 nthreads=2 |
makedirs | ndirs=50 nthreads=2 |
mongo | nfiles=10 nchunks=50 filesize=16k chunksize=4k nthreads=2 iosize=64k meanappendsize=1k |
netsfs | nfiles=20 eventrate=200 iosize=64k | reads appends creates
networkfs | nclients=2 filesperclient=10 filesize=8k eventrate=200 bulkiosize=64k | smallread bulkread update
oltp | nfiles=2 filesize=4m logfilesize=1m nshadows=2 ndbwriters=1 usermode=1000 | sh-pace
openfiles | nfiles=50 nthreads=2 |
randomfileaccess | nfiles=20 filesize=16k nthreads=2 iosize=64k |
randomread | filesize=4m nthreads=2 |
randomrw | filesize=4m nthreads=2 |
randomwrite | filesize=4m nthreads=2 |
ratelimcopyfiles | nfiles=20 filesize=16k iosize=64k eventrate=50 |
removedirs | ndirs=50 nthreads=2 |
singlestreamread | filesize=4m iosize=64k |
singlestreamreaddirect | filesize=4m iosize=64k |
singlestreamwrite | filesize=1m iosize=64k |
singlestreamwritedirect | filesize=1m iosize=64k |
tpcso | datasize=1m logsize=1m ctlsize=64k nshadows=2 ndbwriters=1 usermode=1000 | sh-pace
varmail | nfiles=20 filesize=16k nthreads=2 iosize=64k |
videoserver | filesize=1m nactive=2 npassive=4 nthreads=2 repintval=1 readiosize=64k writeiosize=256k |
webproxy | nfiles=20 filesize=16k nthreads=2 | throttle
webserver | nfiles=20 filesize=16k nthreads=2 logsize=64k |
'

entry() {
	printf '%s\n' "$table" | awk -F'|' -v n="$1" '
		{ line = $0; key = $1; gsub(/^ +| +$/, "", key) }
		key == n { print line; found = 1; exit }
		END { exit !found }'
}

# ---- flowbench list ------------------------------------------------------
FLOWBENCH_WORKLOADS=$WORKLOADS "$FLOWBENCH" list >"$tmp/list" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "flowbench list exited non-zero"; }
nfiles=0
for f in "$WORKLOADS"/*.f; do
	name=$(basename "$f" .f)
	nfiles=$((nfiles + 1))
	# the title line: "# NAME.f - description" (randomrw.f keeps a bare '#' first)
	title=$(grep -m1 -v '^#[[:space:]]*$' "$f")
	desc=${title#"# $name.f - "}
	[ "$desc" != "$title" ] && [ -n "$desc" ] ||
		fail "$name.f: the first comment line with text is not '# $name.f - description': $title"
	awk -v n="$name" -v d="$desc" '
		$1 == n { sub(/^[^ ]+ +/, ""); if ($0 == d) ok = 1 }
		END { exit !ok }' "$tmp/list" ||
		{ cat "$tmp/list"; fail "flowbench list does not show '$name' with '$desc'"; }
done
[ "$(wc -l <"$tmp/list")" -eq "$nfiles" ] || fail "flowbench list shows $(wc -l <"$tmp/list") lines for $nfiles workloads"
# aligned: every description starts in the same column
[ "$(awk '{ match($0, /^[^ ]+ +/); print RLENGTH }' "$tmp/list" | sort -u | wc -l)" -eq 1 ] ||
	{ cat "$tmp/list"; fail "flowbench list is not aligned"; }
ok "flowbench list shows all $nfiles workloads with their header descriptions, aligned"

set +e
FLOWBENCH_WORKLOADS= "$FLOWBENCH" list >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
if [ $rc -ne 0 ]; then
	grep -q "FLOWBENCH_WORKLOADS" "$tmp/err" ||
		{ cat "$tmp/err"; fail "list without a catalogue does not say to set FLOWBENCH_WORKLOADS"; }
	ok "list without an installed catalogue says where it looked and what to set"
fi

# a bare name is a catalogue workload, unless the current directory has it
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && FLOWBENCH_WORKLOADS=$WORKLOADS "$FLOWBENCH" check randomrw) >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "check randomrw did not find the catalogue's randomrw.f"; }
grep -qF "$WORKLOADS/randomrw.f: ok" "$tmp/out" || { cat "$tmp/out"; fail "check randomrw did not use $WORKLOADS/randomrw.f"; }
printf 'set $dir=/tmp\n' >"$tmp/cwd/randomrw"
set +e
(cd "$tmp/cwd" && FLOWBENCH_WORKLOADS=$WORKLOADS "$FLOWBENCH" check randomrw) >"$tmp/out" 2>"$tmp/err"
rc=$?
(cd "$tmp/cwd" && FLOWBENCH_WORKLOADS=$WORKLOADS "$FLOWBENCH" check nosuchworkload) >"$tmp/out2" 2>"$tmp/err2"
rc2=$?
set -e
[ $rc -ne 0 ] && grep -q "randomrw" "$tmp/err" && ! grep -qF "$WORKLOADS" "$tmp/err" ||
	{ cat "$tmp/err"; fail "a file in the current directory did not win over the catalogue"; }
[ $rc2 -eq 1 ] && grep -q "flowbench list" "$tmp/err2" ||
	{ cat "$tmp/err2"; fail "an unknown bare name does not point at 'flowbench list'"; }
ok "a bare name runs the catalogue's file; a file in the current directory wins"

# ---- every workload, scaled down -----------------------------------------
to=
command -v timeout >/dev/null 2>&1 && to="timeout 60"
passed=0
failed=0
skipped=0
for f in "$WORKLOADS"/*.f; do
	name=$(basename "$f" .f)
	line=$(entry "$name") || { echo "FAIL: $name: no entry in the table of workloads.sh"; failed=$((failed + 1)); continue; }
	defs=$(printf '%s\n' "$line" | cut -d'|' -f2)
	allow=$(printf '%s\n' "$line" | cut -d'|' -f3)
	d=$tmp/run-$name
	mkdir "$d"
	args="-D dir=$d"
	for v in $defs; do
		args="$args -D $v"
	done
	set +e
	# shellcheck disable=SC2086 # word splitting of $args is intended
	$to "$FLOWBENCH" run "$f" $args --runtime 2 --cache keep >"$d.out" 2>"$d.err" </dev/null
	rc=$?
	set -e
	rm -rf "$d"
	if [ $rc -ne 0 ]; then
		if grep -q "not implemented yet" "$d.err"; then
			echo "SKIP-NOT-YET: $name: $(grep -m1 'not implemented yet' "$d.err")"
			skipped=$((skipped + 1))
		else
			echo "FAIL: $name: exit status $rc"
			sed 's/^/    /' "$d.err" | head -20
			failed=$((failed + 1))
		fi
		continue
	fi
	problems=$(awk -v allow=" $allow " '
		/Per-Operation Breakdown/ { inb = 1; seen_b = 1; next }
		/IO Summary:/ { inb = 0; seen_s = 1; next }
		inb && $2 ~ /^[0-9]+ops$/ {
			n = $2; sub(/ops$/, "", n)
			lines[$1] = 1
			if (n + 0 == 0 && index(allow, " " $1 " ") == 0)
				printf "flowop %s did no op; ", $1
		}
		END {
			if (!seen_b) printf "no Per-Operation Breakdown; "
			if (!seen_s) printf "no IO Summary; "
			k = split(allow, a, " ")
			for (i = 1; i <= k; i++)
				if (!(a[i] in lines))
					printf "allow-listed flowop %s is not in the breakdown; ", a[i]
		}' "$d.out")
	if [ -n "$problems" ]; then
		echo "FAIL: $name: $problems"
		sed 's/^/    /' "$d.out" | tail -25
		failed=$((failed + 1))
	else
		echo "ok: $name"
		passed=$((passed + 1))
	fi
done
echo "workloads: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] || fail "$failed workload(s) failed"
