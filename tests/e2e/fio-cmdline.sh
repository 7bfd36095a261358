#!/bin/sh
# fio-cmdline.sh - an fio job in one flowbench command, and what the
# import says about it: fio's command line gives the same WML statements
# as the equivalent job file (fio's own --showcmd line too, when fio is
# installed); `flowbench run job.fio` and `run --fio ...` import in
# memory, say so, and do the job's I/O (strace counts every pread of the
# job's file: as many as flowbench reports, and the bytes the job asked
# for); --lenient warns of what it drops at the included file's own line
# and refuses to drop what changes how much work a job does.
. "$(dirname "$0")/lib.sh"

d=$tmp/data
mkdir -p "$d"

# ---- the command line and the job file: the same statements
cat >"$tmp/two.fio" <<EOF
[global]
bs=8k
directory=$d
[a]
rw=randread
size=1m
numjobs=2
[b]
rw=write
size=2m
stonewall
EOF
"$FLOWBENCH" import-fio "$tmp/two.fio" >"$tmp/file.f" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "import of the job file failed"; }
"$FLOWBENCH" import-fio --bs=8k --directory="$d" --name=a --rw=randread --size=1m \
	--numjobs=2 --name=b --rw=write --size=2m --stonewall >"$tmp/args.f" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "import of the command line failed"; }
grep -v '^#' "$tmp/file.f" >"$tmp/file.st"
grep -v '^#' "$tmp/args.f" >"$tmp/args.st"
cmp -s "$tmp/file.st" "$tmp/args.st" ||
	{ diff "$tmp/file.st" "$tmp/args.st"; fail "the command line's statements differ from the job file's"; }
[ "$(grep -c '^define process' "$tmp/args.st")" -eq 2 ] || fail "not two jobs"
ok "fio's command line and the job file give byte-identical WML statements"

if command -v fio >/dev/null 2>&1; then
	# fio's own translation of the job file into a command line
	fio --showcmd "$tmp/two.fio" >"$tmp/showcmd" 2>&1 || fail "fio --showcmd failed"
	# shellcheck disable=SC2046
	set -- $(sed 's/^fio //' "$tmp/showcmd")
	"$FLOWBENCH" import-fio "$@" >"$tmp/show.f" 2>"$tmp/err" ||
		{ cat "$tmp/showcmd" "$tmp/err"; fail "import of fio --showcmd's line failed"; }
	grep -v '^#' "$tmp/show.f" >"$tmp/show.st"
	cmp -s "$tmp/file.st" "$tmp/show.st" ||
		{ cat "$tmp/showcmd"; diff "$tmp/file.st" "$tmp/show.st"; fail "fio --showcmd's line gives other statements"; }
	ok "fio --showcmd's command line gives the same statements: $(cat "$tmp/showcmd")"
else
	echo "SKIP (part): fio is not installed: --showcmd not compared"
fi

# ---- run job.fio: imported in memory, said so; the I/O is the job's
need strace
cat >"$tmp/r.fio" <<EOF
[r]
directory=$d
filename=r.dat
rw=read
bs=4k
size=1m
EOF
"$FLOWBENCH" check "$tmp/r.fio" >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "check r.fio failed"; }
grep -qxF "$tmp/r.fio: an fio job file: imported (flowbench import-fio $tmp/r.fio shows the WML)" "$tmp/err" ||
	{ cat "$tmp/err"; fail "check did not say it imported an fio job file"; }
grep -q "r.fio: ok: 1 file, 0 filesets, 1 process definition, 1 thread" "$tmp/out" ||
	{ cat "$tmp/out"; fail "check's summary"; }
# the file first, so that preallocation is not in the count
"$FLOWBENCH" run "$tmp/r.fio" --cache keep >/dev/null 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "first run of r.fio failed"; }
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -ff -qq -s 0 -e trace=pread64 -o "$tmp/st" \
	"$FLOWBENCH" run "$tmp/r.fio" --cache keep >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "run r.fio under strace failed"; }
preads=$(cat "$tmp/st".* | grep -cE '^pread64\([0-9]+, .*, 4096, [0-9]+\) += 4096$' || true)
reads=$(breakdown_field "$tmp/out" r-read ops)
echo "r.fio: flowbench reports $reads reads, strace counts $preads 4 KiB preads"
[ "$reads" -eq "$preads" ] || fail "reported reads $reads != pread64 calls $preads"
# fio reads 1 MiB in 256 reads; flowbench checks its bytes once per pass
# of one read, after the 256th
[ "$preads" -eq 256 ] || fail "$preads reads of 4 KiB, not the job's 1 MiB (256)"
ok "run r.fio: imported in memory (said on stderr), 256 reads of 4 KiB, as strace counts"

# ---- run --fio: fio's command line, with -D for the import and the run
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -f -qq -s 0 -e trace=pwrite64 -o "$tmp/st2" \
	"$FLOWBENCH" run -D BS=8k --cache keep --fio --name=w --directory="$d" \
	--filename=w.dat --rw=write --bs='${BS}' --size=512k >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "run --fio failed"; }
grep -q "an fio command line: imported" "$tmp/err" || fail "run --fio did not say it imported"
pwrites=$(grep -cE '^[0-9]+ +pwrite64\([0-9]+, .*, 8192, [0-9]+\) += 8192$' "$tmp/st2" || true)
writes=$(breakdown_field "$tmp/out" w-write ops)
echo "run --fio: flowbench reports $writes writes, strace counts $pwrites 8 KiB pwrites"
[ "$writes" -ge 64 ] && [ "$writes" -le 65 ] || fail "$writes writes for 512 KiB of 8 KiB"
ok "run --fio: -D BS=8k reached \${BS}, the writes are the job's"

# ---- offset_increment: each clone reads its own region of the shared
# file, as fio's do (fio 3.33: a 7 MiB file, clone k reading [k, k + 4) MiB)
rm -f "$tmp/st".*
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -ff -qq -s 0 -e trace=pread64 -o "$tmp/st" \
	"$FLOWBENCH" run --cache keep --fio --name=oi --filename="$d/oi" --size=4m \
	--numjobs=4 --offset_increment=1m --rw=read --bs=64k >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "run --fio with offset_increment failed"; }
for f in "$tmp/st".*; do
	grep -oE ', 65536, [0-9]+\) += 65536$' "$f" | tr -d ',)=' |
		awk '{ o = $2; if (!n || o < lo) lo = o; if (o > hi) hi = o; n++ }
		     END { if (n) print n, lo / 1048576, (hi + 65536) / 1048576 }'
done | sort -n -k2 >"$tmp/regions"
printf '64 0 4\n64 1 5\n64 2 6\n64 3 7\n' | cmp -s - "$tmp/regions" ||
	{ cat "$tmp/regions"; fail "offset_increment: the clones' regions are not fio's"; }
[ "$(find "$d" -type f -path "*/oi*" -name 00000001 -size 7168k | wc -l)" -eq 1 ] ||
	fail "offset_increment: the shared file is not 7 MiB"
ok "offset_increment=1m with 4 clones: 64 reads each in [k, k + 4) MiB of a 7 MiB file, as fio"

# ---- an included file: --lenient warns at its own line; strict refuses there
printf 'ioscheduler=none\nsize=1m\n' >"$tmp/common.fio"
printf '[i]\nrw=randread\ndirectory=%s\ninclude common.fio\n' "$d" >"$tmp/inc.fio"
st=0
"$FLOWBENCH" import-fio "$tmp/inc.fio" >/dev/null 2>"$tmp/err" || st=$?
[ "$st" -eq 1 ] && grep -q "^$tmp/common.fio:1:1: unsupported option 'ioscheduler'" "$tmp/err" ||
	{ cat "$tmp/err"; fail "the included file's option is not refused at its own line"; }
"$FLOWBENCH" import-fio --lenient "$tmp/inc.fio" >"$tmp/inc.f" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "--lenient import with an include failed"; }
grep -q "^$tmp/common.fio:1:1: warning: ioscheduler=none: not imported (--lenient)" "$tmp/err" ||
	{ cat "$tmp/err"; fail "the dropped option is not warned at the included file's line"; }
grep -q "# NOT IMPORTED: ioscheduler=none ($tmp/common.fio line 1: " "$tmp/inc.f" ||
	{ cat "$tmp/inc.f"; fail "the NOT IMPORTED comment does not name the included file"; }
ok "--lenient: an included file's dropped option is warned at common.fio:1:1"

# ---- --lenient does not drop what changes the work
for opt in io_size=10% rate_min=1m thinktime_blocks=4 'numjobs=${FB_E2E_NOPE}'; do
	printf '[j]\nsize=1m\ndirectory=%s\n%s\n' "$d" "$opt" >"$tmp/k.fio"
	st=0
	env -u FB_E2E_NOPE "$FLOWBENCH" import-fio --lenient "$tmp/k.fio" >"$tmp/k.f" 2>"$tmp/err" || st=$?
	[ "$st" -eq 1 ] && [ ! -s "$tmp/k.f" ] && grep -q "k.fio:4:1: " "$tmp/err" ||
		{ cat "$tmp/err"; fail "--lenient dropped $opt"; }
done
grep -q "numjobs: \${FB_E2E_NOPE} is not set: give it with -D FB_E2E_NOPE=VALUE" "$tmp/err" ||
	{ cat "$tmp/err"; fail "an unset \${VAR}'s message"; }
ok "--lenient refuses io_size=10%, rate_min, thinktime_blocks and an unset \${VAR}, each at its line"

# ---- a WML file that starts as a job file does: a hint, not a guess
printf '[j]\nrw=read\nsize=1m\n' >"$tmp/job.txt"
st=0
"$FLOWBENCH" check "$tmp/job.txt" >/dev/null 2>"$tmp/err" || st=$?
[ "$st" -eq 1 ] && grep -q "looks like an fio job file" "$tmp/err" ||
	{ cat "$tmp/err"; fail "no hint for an fio job file read as WML"; }
ok "a job file not named .fio: read as WML, with a hint to name it .fio or use import-fio"
