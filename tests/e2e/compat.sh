#!/bin/sh
# compat.sh - constructs found by running filebench's shipped personalities
# through flowbench, each reduced to a tiny workload of our own.
#
# deletefile fd=N after closefile deletes the file slot N held; when that
# file is open in another slot (several threads picking the same file
# with `indexed`) or was deleted meanwhile, it deletes another file of the
# same fileset instead of failing the run.  A slot that never held a file
# (or whose file it already deleted) is a clear error.
. "$(dirname "$0")/lib.sh"

# The file slot 1 held is still open in slot 2 (both opened the same
# indexed file): deletefile fd=1 must leave it and delete another one.
cat >"$tmp/busy.f" <<'WML'
set $dir=/tmp
define fileset name=fs,path=$dir,entries=16,dirwidth=4,size=4k,prealloc=50
define process name=p { thread name=t {
  flowop openfile name=first,filesetname=fs,fd=1,indexed=3
  flowop openfile name=again,filesetname=fs,fd=2,indexed=3
  flowop closefile name=shut1,fd=1
  flowop deletefile name=del,fd=1
  flowop closefile name=shut2,fd=2
  flowop createfile name=refill,filesetname=fs,fd=3
  flowop closefile name=shut3,fd=3
} }
run 1
WML
"$FLOWBENCH" run "$tmp/busy.f" -D dir="$tmp" --cache keep >"$tmp/out1" 2>"$tmp/err1" ||
	{ cat "$tmp/err1"; fail "deletefile fd=1 of a file open in another slot failed the run"; }
opens=$(breakdown_field "$tmp/out1" first ops)
dels=$(breakdown_field "$tmp/out1" del ops)
[ -n "$dels" ] && [ "$dels" -gt 0 ] || fail "deletefile fd=1 did no ops"
[ $((opens - dels)) -le 1 ] && [ $((dels - opens)) -le 1 ] ||
	fail "one delete per loop expected: $opens opens, $dels deletes"
ok "deletefile fd=N deletes another file while the slot's file is open elsewhere"

# The file slot 1 held was deleted by another flowop first.
cat >"$tmp/gone.f" <<'WML'
set $dir=/tmp
define fileset name=fs,path=$dir,entries=16,dirwidth=4,size=4k,prealloc=50
define process name=p { thread name=t {
  flowop openfile name=first,filesetname=fs,fd=1,indexed=5
  flowop closefile name=shut1,fd=1
  flowop deletefile name=other,filesetname=fs,indexed=5
  flowop deletefile name=del,fd=1
  flowop createfile name=refill3,filesetname=fs,fd=3
  flowop closefile name=shut3,fd=3
  flowop createfile name=refill4,filesetname=fs,fd=4
  flowop closefile name=shut4,fd=4
} }
run 1
WML
"$FLOWBENCH" run "$tmp/gone.f" -D dir="$tmp" --cache keep >"$tmp/out2" 2>"$tmp/err2" ||
	{ cat "$tmp/err2"; fail "deletefile fd=1 of an already deleted file failed the run"; }
dels=$(breakdown_field "$tmp/out2" del ops)
others=$(breakdown_field "$tmp/out2" other ops)
[ -n "$dels" ] && [ "$dels" -gt 0 ] || fail "deletefile fd=1 did no ops"
[ $((others - dels)) -le 1 ] && [ $((dels - others)) -le 1 ] ||
	fail "one delete each per loop expected: $others and $dels"
ok "deletefile fd=N deletes another file when the slot's file is gone"

# Two deletes through one slot reference: the second has nothing to delete.
cat >"$tmp/twice.f" <<'WML'
set $dir=/tmp
define fileset name=fs,path=$dir,entries=8,dirwidth=4,size=4k,prealloc
define process name=p { thread name=t {
  flowop openfile name=first,filesetname=fs,fd=1
  flowop closefile name=shut1,fd=1
  flowop deletefile name=del1,fd=1
  flowop deletefile name=del2,fd=1
} }
run 1
WML
if "$FLOWBENCH" run "$tmp/twice.f" -D dir="$tmp" --cache keep >"$tmp/out3" 2>"$tmp/err3"; then
	fail "a second deletefile through a used-up slot reference succeeded"
fi
grep -q "flowop del2: fd slot 1 holds no file to delete" "$tmp/err3" ||
	{ cat "$tmp/err3"; fail "no clear error for a used-up slot reference"; }
ok "deletefile fd=N with no file in the slot is a clear error"

# Several flowops of one thread read and write files of their own without
# fd= (tpcso.f reads 30 files in one thread): each works on its own file,
# opened once, instead of failing on slot 0 holding another file.
cat >"$tmp/own.f" <<'WML'
set $dir=/tmp
define file name=small,path=$dir,size=8k,prealloc
define file name=large,path=$dir,size=64k,prealloc
define process name=p { thread name=t {
  flowop read name=rsmall,filename=small,iosize=4k
  flowop read name=rlarge,filename=large,iosize=4k
  flowop write name=wlarge,filename=large,iosize=4k,random
} }
run 1
WML
"$FLOWBENCH" run "$tmp/own.f" -D dir="$tmp" --cache keep >"$tmp/out4" 2>"$tmp/err4" ||
	{ cat "$tmp/err4"; fail "flowops reading files of their own without fd= failed"; }
grep -q "Implicit opens: 3 " "$tmp/out4" ||
	{ cat "$tmp/out4"; fail "each flowop should open its file once"; }
# Sequential 4k reads wrap at EOF with one 0-byte read: 8k gives 2/3 of
# the bytes per op that 64k gives; equal rates would mean the same file.
s=$(breakdown_field "$tmp/out4" rsmall mbs)
l=$(breakdown_field "$tmp/out4" rlarge mbs)
awk -v s="$s" -v l="$l" 'BEGIN { exit !(s > 0 && l > 1.25 * s) }' ||
	fail "rlarge did not read its own file ($s vs $l mb/s)"
ok "flowops without fd= read and write the files they name, each in its own slot"

# Private slots are limited: past them the conflict is a clear error.
{
	echo 'set $dir=/tmp'
	i=0
	while [ $i -lt 70 ]; do echo "define file name=f$i,path=\$dir,size=4k,prealloc"; i=$((i + 1)); done
	echo 'define process name=p { thread name=t {'
	i=0
	while [ $i -lt 70 ]; do echo "  flowop read name=r$i,filename=f$i,iosize=4k"; i=$((i + 1)); done
	echo '} }'
	echo 'run 1'
} >"$tmp/many.f"
if "$FLOWBENCH" run "$tmp/many.f" -D dir="$tmp" --cache keep >"$tmp/out5" 2>"$tmp/err5"; then
	fail "70 flowops with files of their own in one thread should run out of slots"
fi
grep -q "fd slot 0 holds a file of 'f0'.*give them fd=N" "$tmp/err5" ||
	{ cat "$tmp/err5"; fail "no clear error when private slots run out"; }
ok "running out of private slots is a clear error"
