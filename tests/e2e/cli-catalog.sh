#!/bin/sh
# cli-catalog.sh - right after the Quick start (nothing installed), bare
# workload names and `list` work with the build tree's flowbench: an
# uninstalled binary reads the source tree's workloads/; a binary that is
# neither installed nor in its build tree says how to name a catalogue
# (FLOWBENCH_WORKLOADS=...), in an error that starts 'flowbench: error:'.
. "$(dirname "$0")/lib.sh"

unset FLOWBENCH_WORKLOADS
mkdir "$tmp/cwd"
cd "$tmp/cwd"

"$FLOWBENCH" list >"$tmp/list" 2>"$tmp/err" || { cat "$tmp/err"; fail "list from the build tree failed"; }
n=$(ls "$WORKLOADS"/*.f | wc -l)
[ "$(wc -l <"$tmp/list")" -eq "$n" ] || { cat "$tmp/list"; fail "list from the build tree shows $(wc -l <"$tmp/list") workloads, not $n"; }
dir=$("$FLOWBENCH" list --dir)
[ "$dir" -ef "$WORKLOADS" ] || fail "the build tree's catalogue is '$dir', not $WORKLOADS"
"$FLOWBENCH" check fileserver -D nfiles=10 >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "check fileserver (a bare name) failed from the build tree"; }
grep -q "fileserver.f: ok" "$tmp/out" || { cat "$tmp/out"; fail "check fileserver did not check the catalogue's fileserver.f"; }
ok "the build tree's flowbench lists the source tree's $n workloads and runs them by name"

# a copy elsewhere is not the build tree's binary: the installed catalogue
cp "$FLOWBENCH" "$tmp/flowbench"
dir=$("$tmp/flowbench" list --dir)
[ "$dir" -ef "$WORKLOADS" ] && fail "a copy outside the build tree still reads the source tree"
if [ -e "$dir" ]; then
	ok "a copy outside the build tree reads the installed catalogue $dir (installed here: the no-catalogue message is not tested)"
	exit 0
fi
set +e
"$tmp/flowbench" check fileserver >"$tmp/out" 2>"$tmp/err"
rc=$?
"$tmp/flowbench" list >"$tmp/out2" 2>"$tmp/err2"
rc2=$?
set -e
[ $rc -eq 1 ] && grep -q '^flowbench: error: ' "$tmp/err" && grep -q 'FLOWBENCH_WORKLOADS=' "$tmp/err" ||
	{ cat "$tmp/err"; fail "a bare name without a catalogue: no 'flowbench: error:' with the FLOWBENCH_WORKLOADS= hint (status $rc)"; }
[ $rc2 -eq 1 ] && grep -q '^flowbench: error: ' "$tmp/err2" && grep -q 'FLOWBENCH_WORKLOADS=' "$tmp/err2" ||
	{ cat "$tmp/err2"; fail "list without a catalogue: no 'flowbench: error:' with the FLOWBENCH_WORKLOADS= hint (status $rc2)"; }
ok "without any catalogue, check NAME and list say 'flowbench: error:' and how to set FLOWBENCH_WORKLOADS="
