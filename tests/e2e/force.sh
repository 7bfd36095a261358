#!/bin/sh
# force.sh - never destroying what is not ours, case by case (docs/
# robustness.md): an unmarked directory is refused (with and without
# reuse) naming it and --force; --force adopts it but removes only
# what flowbench made there (listed in the marker), never a user's
# 8-digit file; foreign files in a marked tree stop the
# run, or survive it with --force; symbolic links in the tree are never
# followed; /, system directories and $HOME (even marked by someone
# else) are refused even with --force; `system` runs only with
# --allow-system; no program is ever executed to create or remove files;
# nothing is made inside /var/lib, /var/cache, /run/user, /srv, /opt ...
# (through links and ..), and another user's home from the password
# database and its parent are refused and left unchanged (fsguard.c).
. "$(dirname "$0")/lib.sh"

# a fileset of 4 files of 4 KiB in 2 directories, named $name, in $dir
wl() {
	cat >"$tmp/$1.f" <<EOF
set \$dir=/nonexistent
set \$name=fs1
define fileset name=\$name,path=\$dir,entries=4,dirwidth=2,size=4k,prealloc$2
define process name=p,instances=1
{
  thread name=t,instances=1
  {
    flowop statfile name=stat1,filesetname=\$name
  }
}
run 1
EOF
}
wl clean ""
wl reuse ",reuse"

# fb WORKLOAD DIR [options...]: run quietly; output in $tmp/out, $tmp/err
fb() {
	w=$1 d=$2
	shift 2
	"$FLOWBENCH" run "$tmp/$w.f" --cache keep -D dir="$d" "$@" \
		>"$tmp/out" 2>"$tmp/err"
}
refused() {
	if fb "$@"; then
		cat "$tmp/err"
		fail "flowbench ran: $*"
	fi
}
must_run() {
	fb "$@" || { cat "$tmp/err"; fail "flowbench failed: $*"; }
}
same() {
	[ "$(cat "$1")" = "$2" ] || fail "$1 was changed or removed"
}
says() {
	grep -q -- "$1" "$tmp/err" || { cat "$tmp/err"; fail "the error does not say '$1'"; }
}

# -- an existing directory without the marker, with and without reuse
for w in clean reuse; do
	d=$tmp/unmarked-$w
	mkdir -p "$d/fs1/00000001"
	echo mine >"$d/fs1/notes.txt"
	echo data >"$d/fs1/00000001/00000001"
	refused $w "$d"
	says "$d/fs1"
	says "run with --force to adopt it"
	same "$d/fs1/notes.txt" mine
	same "$d/fs1/00000001/00000001" data
	[ ! -e "$d/fs1/.flowbench" ] || fail "an unmarked directory was marked without --force"
	ok "$w: an unmarked directory is refused, named, --force explained, left as it was"
done

# -- --force adopts it: marked, foreign files kept, the fileset made around them
d=$tmp/adopt
mkdir -p "$d/fs1/photos"
echo mine >"$d/fs1/notes.txt"
echo cat >"$d/fs1/photos/cat.jpg"
echo budget >"$d/fs1/20231231"
must_run clean "$d" --force
grep -q "adopted by flowbench" "$d/fs1/.flowbench" || fail "adopted directory is not marked"
same "$d/fs1/notes.txt" mine
same "$d/fs1/photos/cat.jpg" cat
n=$(find "$d/fs1" -type f -size 4k | wc -l)
[ "$n" -eq 4 ] || fail "adopted tree holds $n files of 4 KiB, not 4"
ok "--force adopts an unmarked directory, keeps foreign files, makes the fileset"
# an 8-digit user file in the adopted directory is not flowbench's: a
# second run cleans the tree (with and without --force) and keeps it
must_run clean "$d" --force
same "$d/fs1/20231231" budget
refused clean "$d"
says "run with --force"
same "$d/fs1/20231231" budget
top=$(ls "$d/fs1" | grep -E '^0000[0-9]{4}$' | sort | tail -1)
grep -q "^owns 00000001-$top\$" "$d/fs1/.flowbench" ||
	{ cat "$d/fs1/.flowbench"; fail "the marker does not list the top-level directories 00000001-$top"; }
grep -q '20231231' "$d/fs1/.flowbench" && fail "the marker claims the user's 20231231"
ok "an 8-digit user file (20231231) in an adopted directory survives cleaning; the marker lists only what flowbench made"
# a numbered entry the tree needs that was there before adoption: refused
d=$tmp/adopt-numbered
mkdir -p "$d/fs1/00000001/photos"
echo cat >"$d/fs1/00000001/photos/cat.jpg"
echo data >"$d/fs1/00000002"
refused clean "$d" --force
says "$d/fs1/00000001"
says "it was there when the directory was adopted"
same "$d/fs1/00000001/photos/cat.jpg" cat
same "$d/fs1/00000002" data
ok "numbered entries that predate adoption are never taken for flowbench's, even with --force"

# -- a marked tree with foreign files: refused without --force, kept with it
for w in clean reuse; do
	d=$tmp/marked-$w
	mkdir -p "$d"
	must_run $w "$d"
	echo mine >"$d/fs1/notes.txt"
	sub=$(find "$d/fs1" -mindepth 1 -maxdepth 1 -type d | head -1)
	echo deep >"$sub/deep.txt"
	refused $w "$d"
	says "$d/fs1"
	says "run with --force"
	same "$d/fs1/notes.txt" mine
	same "$sub/deep.txt" deep
	must_run $w "$d" --force
	same "$d/fs1/notes.txt" mine
	same "$sub/deep.txt" deep
	ok "$w: foreign files in a marked tree stop the run; with --force they survive it"
done

# -- symbolic links in a marked tree are never followed
d=$tmp/links
victim=$tmp/victim
mkdir -p "$d" "$victim/00000001"
echo v1 >"$victim/00000001/00000001"
echo v2 >"$victim/00000002"
must_run clean "$d"
# a link in place of one of the tree's own directories: refused even with --force
top=$(ls "$d/fs1" | grep -E '^[0-9]{8}$' | tail -1)
mv "$d/fs1/$top" "$tmp/moved-top"
ln -s "$victim" "$d/fs1/$top"
refused clean "$d" --force
says "$d/fs1/$top"
same "$victim/00000001/00000001" v1
same "$victim/00000002" v2
rm "$d/fs1/$top"
mv "$tmp/moved-top" "$d/fs1/$top"
# links with names flowbench never made: foreign, kept with --force, not followed
ln -s "$victim" "$d/fs1/00000009"
refused clean "$d"
says "$d/fs1/00000009"
ln -s "$victim" "$d/fs1/elsewhere"
ln -s "$victim/00000002" "$d/fs1/$(ls "$d/fs1" | grep -E '^[0-9]{8}$' | head -1)/link"
must_run clean "$d" --force
same "$victim/00000001/00000001" v1
same "$victim/00000002" v2
[ -L "$d/fs1/elsewhere" ] || fail "a foreign symbolic link was removed"
[ -L "$d/fs1/00000009" ] || fail "a foreign numbered symbolic link was removed"
ok "symbolic links in the tree are never followed nor removed, even with --force"

# -- /, system directories, $HOME and its parents: refused even with --force
# (only names whose creation would fail or harm nothing, should the
# guard ever break: /proc and /sys are virtual, the others do not exist)
ln -s / "$tmp/slash"
for name in proc sys; do
	refused clean "$tmp/slash" -D name=$name --force
	says "refusing to use /$name as the directory"
	says "even with --force"
done
for sys in etc usr/lib; do
	refused clean "$tmp/slash/$sys" -D name=flowbench-guard-test --force
	says "refusing to use /$sys/flowbench-guard-test as the directory"
	[ ! -e "/$sys/flowbench-guard-test" ] || fail "/$sys/flowbench-guard-test was created"
done
ok "/proc, /sys and directories inside /etc, /usr (through a link to /) are refused even with --force"
home=$tmp/home/alice
mkdir -p "$home/00000001"
echo keep >"$home/00000001/00000001"
printf 'This directory was created by flowbench; planted\n' >"$home/.flowbench"
HOME=$home refused clean "$tmp/home" -D name=alice --force
says "it is the home directory"
same "$home/00000001/00000001" keep
HOME=$home refused reuse "$tmp" -D name=home --force
says "it holds the home directory"
same "$home/00000001/00000001" keep
ok "\$HOME (marked by someone else) and its parent are refused even with --force"

# -- `system` runs only with --allow-system
printf 'system "echo ran >%s/ran"\nquit\n' "$tmp" >"$tmp/sys.f"
if "$FLOWBENCH" run "$tmp/sys.f" >"$tmp/out" 2>"$tmp/err"; then
	fail "'system' ran without --allow-system"
fi
says "allow-system"
[ ! -e "$tmp/ran" ] || fail "the shell command ran without --allow-system"
"$FLOWBENCH" run "$tmp/sys.f" --allow-system >"$tmp/out" 2>"$tmp/err" ||
	{ cat "$tmp/err"; fail "--allow-system run failed"; }
same "$tmp/ran" ran
ok "'system' runs only with --allow-system"

# -- no program is executed to create, adopt or clean a tree
if command -v strace >/dev/null 2>&1; then
	d=$tmp/exec
	mkdir -p "$d/fs1"
	echo mine >"$d/fs1/notes.txt"
	for i in 1 2; do
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		strace -f -qq -e trace=execve,execveat -o "$tmp/trace$i" \
			"$FLOWBENCH" run "$tmp/clean.f" --cache keep -D dir="$d" --force \
			>"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "traced run $i failed"; }
		n=$(grep -c 'execve' "$tmp/trace$i" || true)
		[ "$n" -eq 1 ] || { cat "$tmp/trace$i"; fail "$n execve calls, expected only flowbench's own"; }
	done
	same "$d/fs1/notes.txt" mine
	ok "adopting, creating and cleaning a tree execute no program (strace: one execve)"
fi

# ---- issue 10 item 5: system trees, /run/user, every passwd home --------
# (runtime/fileset/fsguard.c).  Made-up names: the refusal must come before
# anything is created.  Should the guard ever break, the directory made
# (its name is unique, checked absent first) is removed and the test fails.
tag=flowbench-guard-test-$$

# guard_refused DIR: --force with name=$tag in DIR is refused, nothing made
guard_refused() {
	made=$(realpath "$1")/$tag
	[ ! -e "$made" ] || fail "$made exists before the test"
	ran=0
	fb clean "$1" -D name="$tag" --force || ran=$?
	if [ -e "$made" ]; then
		rm -rf -- "$made"
		cat "$tmp/err"
		fail "$made was created"
	fi
	[ "$ran" -ne 0 ] || { cat "$tmp/err"; fail "flowbench ran in $made"; }
	says "refusing to use $made"
	says "even with --force"
}

ln -s /var/lib "$tmp/varlib"
for dir in /var/lib /var/cache /var/log /var/spool /srv /opt \
	"$tmp/varlib" "$tmp/slash/var/./lib/../lib"; do
	[ -d "$dir" ] || continue
	guard_refused "$dir"
	says "it is inside the system tree $(realpath "$dir")"
done
ok "inside /var/lib, /var/cache, /var/log, /var/spool, /srv, /opt (also through a link and ..): refused before anything is made"

for dir in /run "/run/user" "/run/user/$(id -u)"; do
	[ -d "$dir" ] || continue
	guard_refused "$dir"
	says "it is inside the system tree /run"
done
ok "inside /run and /run/user/UID: refused before anything is made"

# a name that is a link to a system tree is not followed (fileset.c's
# lstat; this case passes without fsguard.c too)
ln -s /var/lib "$tmp/namelink"
refused clean "$tmp" -D name=namelink --force
says "is not a directory"
ok "a fileset name that is a link to /var/lib is refused"

# another user's home: an existing passwd entry, outside the system
# trees, not ours; nothing is planted in it, nothing may change in it
me=$(id -un)
myhome=$(realpath "$HOME" 2>/dev/null || echo "$HOME")
other=
while IFS=: read -r user _ _ _ _ home _; do
	[ -n "$home" ] && [ -d "$home" ] && [ "$user" != "$me" ] || continue
	real=$(realpath "$home")
	case $real in
	/|/bin*|/boot*|/dev*|/etc*|/lib*|/opt*|/proc*|/run*|/sbin*|/srv*|\
	/sys*|/usr*|/var*|/snap*|"$tmp"*) continue ;;
	esac
	[ "$real" != "$myhome" ] || continue
	other=$user otherhome=$real
	break
done <<EOT
$(getent passwd)
EOT
if [ -n "$other" ]; then
	snapshot() {
		stat -c '%i %y %z' "$otherhome"
		ls -la --full-time "$otherhome" 2>/dev/null || true
	}
	before=$(snapshot)
	refused clean "$(dirname "$otherhome")" -D name="$(basename "$otherhome")" --force
	says "it is the home directory of user '$other' (passwd)"
	[ "$(snapshot)" = "$before" ] || fail "$otherhome was changed"
	[ ! -e "$otherhome/.flowbench" ] || fail "$otherhome was marked"
	parent=$(dirname "$otherhome")
	if [ "$parent" != / ]; then
		refused clean "$(dirname "$parent")" -D name="$(basename "$parent")" --force
		says "it holds the home directory of user '$other' (passwd)"
		[ "$(snapshot)" = "$before" ] || fail "$otherhome was changed"
	fi
	ok "$otherhome, user $other's home (passwd), and its parent are refused with --force, left unchanged"
else
	echo "skip: no other user's home directory outside the system trees here"
fi

# scratch space stays usable (these pass without this change too: they
# guard against refusing too much)
for dir in /var/tmp /dev/shm; do
	[ -d "$dir" ] && [ -w "$dir" ] || continue
	made=$dir/$tag
	[ ! -e "$made" ] || fail "$made exists before the test"
	must_run clean "$dir" -D name="$tag"
	[ -f "$made/.flowbench" ] || fail "$made was not made"
	rm -rf -- "$made"
done
ok "/var/tmp and /dev/shm still hold filesets"
