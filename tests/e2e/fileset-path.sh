#!/bin/sh
# fileset-path.sh - a fileset whose path does not exist: flowbench makes
# it, as filebench does, but only below a directory that exists, never
# through a symbolic link, each directory it makes marked as made for the
# path (runtime/fileset/fspath.h).  A run whose preparation fails removes
# the directories it made (never the existing parent); a symbolic link
# planted in the path is refused and what it points to is not touched.
. "$(dirname "$0")/lib.sh"

# wml PATH [NAME]: a workload with one fileset of 4 files at PATH
wml() {
	cat <<EOF2
define fileset name=${2:-fs}, path=$1, size=4k, entries=4, dirwidth=4, prealloc
define process name=p {
  thread name=t {
    flowop openfile name=open, filesetname=${2:-fs}, fd=1
    flowop closefile name=close, fd=1
  }
}
run 1
EOF2
}

# ---- a missing path is made, marked, and used -----------------------------
mkdir "$tmp/base"
wml "$tmp/base/new/deeper" >"$tmp/a.f"
"$FLOWBENCH" run --cache keep "$tmp/a.f" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the run on a missing path failed"; }
grep -q "Made the missing path $tmp/base/new/deeper of fileset 'fs' (2 directories" "$tmp/out" ||
	{ cat "$tmp/out"; fail "no word of the path made"; }
[ -d "$tmp/base/new/deeper/fs" ] || fail "the fileset's directory was not made below the new path"
for d in new new/deeper; do
	head -1 "$tmp/base/$d/.flowbench" | grep -qx "flowbench-path 1" ||
		fail "$d is not marked as made for the path"
done
[ ! -e "$tmp/base/.flowbench" ] || fail "the existing parent was marked"
ok "a missing path of 2 directories is made below the existing one, each marked, the parent not"

# a second run finds the path and the tree as any other
"$FLOWBENCH" run --cache keep "$tmp/a.f" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the second run failed"; }
! grep -q "Made the missing path" "$tmp/out" || fail "the second run made the path again"
ok "the next run uses the path as it is"

# ---- a failed preparation removes what it made, not the parent ------------
# a fileset name of 300 characters: the path is made, the fileset's own
# directory cannot be (ENAMETOOLONG), the run fails
mkdir "$tmp/base2"
long=$(printf 'n%.0s' $(seq 300))
wml "$tmp/base2/x/y" "$long" >"$tmp/b.f"
! "$FLOWBENCH" run --cache keep "$tmp/b.f" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "a run with an impossible name succeeded"; }
grep -q "Made the missing path $tmp/base2/x/y" "$tmp/out" || { cat "$tmp/out"; fail "the path was not made first"; }
[ ! -e "$tmp/base2/x" ] || { ls -laR "$tmp/base2"; cat "$tmp/out"; fail "the directories made for the path stayed after the failure"; }
[ -d "$tmp/base2" ] || fail "the existing parent was removed"
ok "a run that fails after making the path removes x/y, keeps the existing parent"

# ---- a symbolic link in the path is refused, never followed ---------------
mkdir "$tmp/base4" "$tmp/elsewhere"
ln -s "$tmp/elsewhere/target" "$tmp/base4/link"       # dangling: target missing
wml "$tmp/base4/link/sub" >"$tmp/d.f"
! "$FLOWBENCH" run --cache keep "$tmp/d.f" >"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "a path through a planted link was used"; }
grep -q "a symbolic link is in its place: refused, never followed" "$tmp/out" ||
	{ cat "$tmp/out"; fail "the refusal does not name the link"; }
[ ! -e "$tmp/elsewhere/target" ] || fail "the link was followed: its target was made"
[ -L "$tmp/base4/link" ] || fail "the link was removed"
[ -z "$(ls -A "$tmp/elsewhere")" ] || fail "something was made where the link points"
ok "a dangling symbolic link planted in the path is refused; nothing is made where it points"

# ---- never below a directory the guard refuses ----------------------------
wml "/etc/flowbench-e2e-$$/x" >"$tmp/e.f"
! "$FLOWBENCH" run --cache keep "$tmp/e.f" >"$tmp/out" 2>&1 || fail "a path below /etc was made"
[ ! -e "/etc/flowbench-e2e-$$" ] || { rm -rf "/etc/flowbench-e2e-$$"; fail "a directory was made in /etc"; }
grep -q "refusing to make /etc/flowbench-e2e-$$ for the path of fileset 'fs'" "$tmp/out" ||
	{ cat "$tmp/out"; fail "the guard's refusal is not said"; }
ok "a missing path below /etc is refused by the guard before anything is made"

# ---- nor a directory the guard would refuse once made: a user's home ------
# (passwd names homes that do not exist, such as Debian's /nonexistent of
# nobody and _apt: making one would make that user's home)
# one directly below / first: the path's root would pass the guard there
# (inside a home is allowed), so only the check of what is made refuses it
home=$(getent passwd | awk -F: '$6 ~ /^\/[^ ]+$/ && $6 != "/" { print gsub("/", "/", $6), $6 }' |
	sort -n | while read -r _ h; do [ -e "$h" ] || { echo "$h"; break; }; done)
if [ -n "$home" ]; then
	wml "$home/x" >"$tmp/h.f"
	! "$FLOWBENCH" run --cache keep "$tmp/h.f" >"$tmp/out" 2>&1 || fail "a path through the missing home $home was made"
	[ ! -e "$home" ] || fail "the missing home $home was made"
	grep -q "refusing to make .* for the path of fileset 'fs': " "$tmp/out" ||
		{ cat "$tmp/out"; fail "the refusal of a missing home is not said"; }
	ok "a missing path through a user's home that does not exist ($home) is refused, nothing made"
else
	echo "skip: passwd names no home that does not exist"
fi
