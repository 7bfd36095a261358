#!/bin/sh
# install.sh - installed, flowbench is complete: `make install
# DESTDIR=...` from the build tree puts every workload of workloads/ in
# the catalogue, the docs (README, LICENSE, docs/*.md) in
# share/doc/flowbench, the man page (which names them there) and the bash
# and zsh completions where their loaders look; the installed binary
# states its licence and never reads the build tree; the README's
# catalogue table is `flowbench list`, line for line.
. "$(dirname "$0")/lib.sh"

builddir=$(dirname "$FLOWBENCH")
[ -f "$builddir/Makefile" ] || { echo "SKIP: no Makefile next to $FLOWBENCH"; exit 77; }
dest=$tmp/dest
# a make of its own, not the jobserver of the `make check` running us
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$builddir" install DESTDIR="$dest" \
	>"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; fail "make install DESTDIR=$dest failed"; }
ok "make install DESTDIR=... from the build tree"

# one installed path matching a find -path pattern
installed() {
	p=$(find "$dest" -path "$1" | head -n 1)
	[ -n "$p" ] || { find "$dest" | sed -n '1,80p'; fail "nothing installed at */$1"; }
	echo "$p"
}

# every workload, and nothing else
cat_dir=$(dirname "$(installed '*/share/flowbench/workloads/randomrw.f')")
(cd "$TOP_SRCDIR/workloads" && ls -- *.f) | sort >"$tmp/source"
(cd "$cat_dir" && ls -- *.f) | sort >"$tmp/installed"
diff "$tmp/source" "$tmp/installed" >"$tmp/diff" ||
	{ cat "$tmp/diff"; fail "the installed catalogue is not workloads/*.f ('<' missing, '>' extra)"; }
ok "all $(wc -l <"$tmp/source") workloads of workloads/ installed"

bin=$(installed '*/bin/flowbench')
FLOWBENCH_WORKLOADS=$cat_dir "$bin" list >"$tmp/list" || fail "the installed flowbench cannot list its catalogue"
[ "$(wc -l <"$tmp/list")" -eq "$(wc -l <"$tmp/source")" ] || fail "the installed list has $(wc -l <"$tmp/list") lines"
# without FLOWBENCH_WORKLOADS it looks in its own $(pkgdatadir), not the build tree
want=${cat_dir#"$dest"}
got=$(env -u FLOWBENCH_WORKLOADS "$bin" list --dir)
[ "$got" = "$want" ] || fail "the installed flowbench's catalogue is '$got', not '$want'"
ok "the installed flowbench lists them all, and reads its own catalogue ($want)"

# the documentation, the licence
doc=$(dirname "$(installed '*/share/doc/flowbench/README')")
for f in README LICENSE $(cd "$TOP_SRCDIR/docs" && ls -- *.md); do
	cmp -s "$doc/$f" "$( [ -f "$TOP_SRCDIR/$f" ] && echo "$TOP_SRCDIR/$f" || echo "$TOP_SRCDIR/docs/$f")" ||
		fail "$f is not installed in share/doc/flowbench"
done
grep -q '^MIT License' "$doc/LICENSE" || fail "LICENSE is not the MIT licence"
grep -q 'MIT' "$TOP_SRCDIR/README" && grep -qi 'licen[cs]e' "$TOP_SRCDIR/README" ||
	fail "the README does not state the licence"
"$bin" --version | grep -qx 'License: MIT (SPDX-License-Identifier: MIT)' ||
	fail "flowbench --version does not state the licence"
ok "README, LICENSE (MIT) and docs/*.md in share/doc/flowbench; --version states the licence"

man=$(installed '*/share/man/man1/flowbench.1')
grep -q 'share/doc/flowbench' "$man" || fail "the man page does not say where the docs are installed"
ok "the man page names share/doc/flowbench"

bash_c=$(installed '*/share/bash-completion/completions/flowbench')
zsh_c=$(installed '*/share/zsh/site-functions/_flowbench')
bash -n "$bash_c" || fail "the installed bash completion has a syntax error"
head -n 1 "$zsh_c" | grep -q '^#compdef flowbench' || fail "the installed zsh completion has no #compdef line"
if [ -n "$(find "$dest" -path '*/bin/flowbench-mpi')" ]; then
	[ "$(dirname "$bash_c")/flowbench-mpi" -ef "$bash_c" ] ||
		fail "flowbench-mpi is installed, but bash-completion would not find its completion"
fi
ok "bash and zsh completions installed (flowbench-mpi's too, when built)"

# the README's catalogue table: `flowbench list` of workloads/, indented
awk '/^The catalogue, as `flowbench list` prints it/ { on = 1; next }
     on && /^    [^ ]/ { sub(/^    /, ""); print; seen = 1; next }
     on && seen && !/^    / { exit }' "$TOP_SRCDIR/README" >"$tmp/readme-table"
FLOWBENCH_WORKLOADS=$TOP_SRCDIR/workloads "$FLOWBENCH" list >"$tmp/src-list"
diff "$tmp/src-list" "$tmp/readme-table" >"$tmp/diff" ||
	{ cat "$tmp/diff"; fail "the README's catalogue table is not 'flowbench list' ('<' list, '>' README)"; }
ok "the README's catalogue table lists every workload, as flowbench list prints it"
