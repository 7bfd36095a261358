#!/bin/sh
# builtins.sh - the read-only variables $rank, $nranks and $hostname under
# plain flowbench: a script using them checks clean, they read 0, 1 and
# this host's name when the run starts (in a path too) and in the results
# file's variables, and -D cannot set them (exit 1, with the reason).
. "$(dirname "$0")/lib.sh"
need python3

host=$(python3 -c 'import socket; print(socket.gethostname())')

expect_status() {
	want=$1
	shift
	set +e
	"$@" >"$tmp/out" 2>"$tmp/err"
	got=$?
	set -e
	[ "$got" -eq "$want" ] ||
		{ cat "$tmp/out" "$tmp/err"; fail "'$*' exited $got, expected $want"; }
}

cat >"$tmp/echo.f" <<'WML'
echo "$rank $nranks $hostname"
set $twice = $nranks * 2
echo "twice=$twice"
quit
WML
expect_status 0 "$FLOWBENCH" check "$tmp/echo.f"
expect_status 0 "$FLOWBENCH" run "$tmp/echo.f"
grep -qF ": 0 1 $host" "$tmp/out" ||
	{ cat "$tmp/out" "$tmp/err"; fail "echo did not show '0 1 $host'"; }
grep -qF ": twice=2" "$tmp/out" ||
	{ cat "$tmp/out" "$tmp/err"; fail "\$nranks * 2 is not 2"; }
ok "check accepts \$rank \$nranks \$hostname; run echoes 0 1 $host"

# a per-client directory, and the variables in the results file
mkdir "$tmp/client-0"
cat >"$tmp/dir.f" <<'WML'
define file name=f1,path="$dir/client-$rank",size=64k,prealloc
define process name=p {
  thread name=t,instances=$nranks {
    flowop read name=r1,filename=f1,iosize=4k
  }
}
run 1
WML
expect_status 0 "$FLOWBENCH" run "$tmp/dir.f" -D dir="$tmp" --runtime 0.2 \
	--output "$tmp/r.json"
[ -e "$tmp/client-0/f1" ] || fail "no file in \$dir/client-\$rank: $(ls -R "$tmp")"
python3 - "$tmp/r.json" "$host" <<'PY' || fail "results file: $(cat "$tmp/r.json")"
import json, sys
v = json.load(open(sys.argv[1]))["workload"]["variables"]
assert v["rank"] == 0 and v["nranks"] == 1 and v["hostname"] == sys.argv[2], v
PY
ok "\"\$dir/client-\$rank\" is client-0; the results file lists rank 0, nranks 1, hostname"

expect_status 1 "$FLOWBENCH" run "$tmp/dir.f" -D dir="$tmp" -D rank=1
grep -qF -- "-D rank: '\$rank' is read-only: the rank of this client, set by flowbench-mpi" "$tmp/err" ||
	{ cat "$tmp/err"; fail "-D rank=1 was not refused as read-only"; }
grep -q "no variable" "$tmp/err" && { cat "$tmp/err"; fail "-D rank=1 reported as an unknown variable"; }
ok "run -D rank=1 exits 1: '\$rank' is read-only"
