#!/bin/sh
# cli-man.sh - the man page agrees with flowbench: its SYNOPSIS lists
# every option of the table (`flowbench --help`), it names the installed
# docs (share/doc/flowbench), it documents the `usage` keyword among the
# script's actions, and it no longer says that a failed run prints no
# results (they are printed on failure and interrupt, marked partial).
. "$(dirname "$0")/lib.sh"

man=$TOP_SRCDIR/docs/flowbench.1
sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' -e 's/"//g' "$man" >"$tmp/man"
awk '/^\.SH SYNOPSIS/ { on = 1; next } /^\.SH/ { on = 0 } on' "$tmp/man" >"$tmp/synopsis"
"$FLOWBENCH" --help | awk '/^  -/ { sub(/^  /, ""); sub(/  .*/, ""); n = split($0, p, ", ");
	for (i = 1; i <= n; i++) { split(p[i], w, " "); print w[1] } }' | sort -u >"$tmp/table"
[ "$(wc -l <"$tmp/table")" -ge 15 ] || fail "could not read the options from --help"
missing=
while read -r o; do
	grep -qE -- "(^|[ [])$o([] ]|$)" "$tmp/synopsis" || missing="$missing $o"
done <"$tmp/table"
[ -z "$missing" ] || fail "the man page's SYNOPSIS lacks:$missing"
ok "the SYNOPSIS lists all $(wc -l <"$tmp/table") options of the table"

grep -q 'share/doc/flowbench' "$tmp/man" || fail "the man page does not name share/doc/flowbench"
ok "the man page names the installed docs"

grep -qE '^\.(B|BR|RB) (\( )?usage( |,|$)' "$tmp/man" || fail "the man page does not document the 'usage' keyword"
ok "the 'usage' keyword is documented"

grep -qi 'fails no result lines are printed' "$tmp/man" &&
	fail "the man page still says a failed run prints no results"
grep -q 'flowbench: error:' "$tmp/man" || fail "the man page does not give the error prefix"
ok "no contradiction left on failed runs' results"
