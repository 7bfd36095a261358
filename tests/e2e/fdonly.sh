#!/bin/sh
# fdonly.sh - flowops that name only an fd slot work on the file an
# earlier openfile/createfile left there (filebench scripts rely on it:
# `readwholefile fd=1`, `writewholefile fd=2,srcfd=1`, `deletefile fd=1`
# after closefile), and a slot with no file is a clear run error.
. "$(dirname "$0")/lib.sh"

cat >"$tmp/fd.f" <<'WML'
set $dir=/tmp
define fileset name=fs,path=$dir,entries=20,dirwidth=5,size=16k,prealloc=50
define process name=p { thread name=t {
  flowop openfile name=open1,filesetname=fs,fd=1
  flowop createfile name=create2,filesetname=fs,fd=2
  flowop readwholefile name=read1,fd=1
  flowop read name=pread1,fd=1,iosize=4k,random
  flowop write name=pwrite2,fd=2,iosize=4k
  flowop writewholefile name=write2,fd=2,srcfd=1
  flowop statfile name=stat1,fd=1
  flowop appendfile name=append2,fd=2,iosize=4k
  flowop closefile name=close1,fd=1
  flowop closefile name=close2,fd=2
  flowop deletefile name=delete2,fd=2
} }
run 2
WML
"$FLOWBENCH" run "$tmp/fd.f" -D dir="$tmp" --cache keep >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "fd-only workload failed"; }
for op in open1 create2 read1 pread1 pwrite2 write2 stat1 append2 close1 close2 delete2; do
	n=$(breakdown_field "$tmp/out" $op ops)
	[ -n "$n" ] && [ "$n" -gt 0 ] || fail "$op did no ops"
done
# every created file is deleted again through its slot reference
[ "$(breakdown_field "$tmp/out" create2 ops)" -ge "$(breakdown_field "$tmp/out" delete2 ops)" ] ||
	fail "more deletes than creates"
ok "read/write/readwholefile/writewholefile/statfile/appendfile/deletefile work on their fd slot"

cat >"$tmp/bad.f" <<'WML'
define process name=p { thread name=t {
  flowop readwholefile name=lost,fd=3
} }
run 1
WML
if "$FLOWBENCH" run "$tmp/bad.f" >"$tmp/out2" 2>"$tmp/err2"; then
	fail "a read from an fd slot that holds no file succeeded"
fi
grep -q "flowop lost: fd slot 3 holds no open file and the flowop names no file" "$tmp/err2" ||
	{ cat "$tmp/err2"; fail "no clear error for an empty fd slot"; }
ok "an fd slot with no file is a clear error"

cat >"$tmp/nofile.f" <<'WML'
define process name=p { thread name=t {
  flowop readwholefile name=nothing
} }
run 1
WML
if "$FLOWBENCH" check "$tmp/nofile.f" >/dev/null 2>"$tmp/err3"; then
	fail "readwholefile with neither a file nor an fd passed check"
fi
grep -q "needs a file or fileset (filename=...) or the fd slot of an open file (fd=N)" "$tmp/err3" ||
	{ cat "$tmp/err3"; fail "unclear error for a flowop without file or fd"; }
ok "a flowop with neither a file nor an fd is a compile error"
