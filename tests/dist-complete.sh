#!/bin/sh
# dist-complete.sh - the release tarball holds every file git tracks
# (but .gitignore and m4/.keep): Makefile.am lists what goes in it file
# by file, and a file added to the tree but not to those lists would be
# missing from the release with nothing else noticing.
#
#   tests/dist-complete.sh TARBALL
#
# tests/run-all.sh runs it after `make distcheck`.  Outside a git
# checkout (a tree unpacked from a tarball) it says so and exits 0.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] && [ -f "$1" ] || { echo "usage: $0 TARBALL" >&2; exit 2; }
tarball=$1
if ! git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "dist-complete: $top is not a git checkout: not checked"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flowbench-dist.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
git -C "$top" ls-files | grep -vxE '\.gitignore|m4/\.keep' | sort >"$tmp/tracked"
tar tzf "$tarball" | sed 's|^[^/]*/||' | sort >"$tmp/shipped"
missing=$(comm -23 "$tmp/tracked" "$tmp/shipped")
if [ -n "$missing" ]; then
	echo "dist-complete: tracked by git but not in $(basename "$tarball") (add them to Makefile.am):"
	echo "$missing" | sed 's/^/  /'
	exit 1
fi
echo "dist-complete: ok (all $(wc -l <"$tmp/tracked") tracked files are in $(basename "$tarball"))"
