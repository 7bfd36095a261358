#!/bin/sh
# options.sh - the option table (cli.c), the man page and the README say
# the same: every option of the table is documented in a term of
# docs/flowbench.1 (a .TP entry) and of the README's "Command line"
# definition list, and neither documents an option flowbench does not
# have.  The table is read from `flowbench --help`, which is printed from
# it, row by row.
. "$(dirname "$0")/lib.sh"

man=$TOP_SRCDIR/docs/flowbench.1
readme=$TOP_SRCDIR/README

# "-D" and "--define" from option words in any text, one per line, sorted
options_in() {
	grep -oE -- '(^|[][ `,(])--?[A-Za-z][A-Za-z-]*' |
		sed -E 's/^[][ `,(]//' | sort -u
}

# the table: "  -D, --define NAME=VALUE  help..." -> -D, --define
"$FLOWBENCH" --help >"$tmp/help"
awk '/^  -/ { sub(/^  /, ""); sub(/  .*/, ""); n = split($0, p, ", ");
	      for (i = 1; i <= n; i++) { split(p[i], w, " "); print w[1] } }' \
	"$tmp/help" | sort -u >"$tmp/table"
n=$(wc -l <"$tmp/table")
[ "$n" -ge 15 ] && grep -qx -- '--runtime' "$tmp/table" && grep -qx -- '-D' "$tmp/table" ||
	{ cat "$tmp/help"; fail "could not read the option table from --help ($n options)"; }
ok "$n options in the table: $(tr '\n' ' ' <"$tmp/table")"

# the man page in plain text: \- is -, fonts and quotes dropped; the
# examples of fio's command lines (between the comments fio-words-begin
# and fio-words-end) hold fio's options, not flowbench's
sed -e '/^\.\\" fio-words-begin/,/^\.\\" fio-words-end/d' \
    -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\&//g' -e 's/"//g' "$man" >"$tmp/man"
# its terms: the line after each .TP
awk 'prev == ".TP" { print } { prev = $0 }' "$tmp/man" | options_in >"$tmp/man-terms"
# every --long word anywhere in it, examples and prose included
grep -v '^\.\\"' "$tmp/man" | grep -oE -- '--[A-Za-z][A-Za-z-]*' | sort -u >"$tmp/man-long"

# the README's "Command line" section: terms are lines in backquotes
# followed by a ": " line; the section ends at the next underlined heading
awk '{ line[NR] = $0 }
     END {
	for (i = 1; i <= NR; i++)
		if (line[i] == "Command line" && line[i + 1] ~ /^-+$/)
			break
	for (i += 2; i <= NR && line[i + 1] !~ /^-+$/; i++)
		if (line[i] ~ /^`/ && line[i + 1] ~ /^: /)
			print line[i]
     }' "$readme" | options_in >"$tmp/readme-terms"
[ -s "$tmp/readme-terms" ] || fail "README: no option term found in its 'Command line' section"

status=0
# missing FILE WHAT: lines of the table not in FILE
missing() {
	comm -23 "$tmp/table" "$1" | while read -r o; do
		echo "FAIL: option $o of flowbench (cli.c) is not documented in $2" >&2
		echo x
	done
}
# extra FILE WHAT: lines of FILE not in the table
extra() {
	comm -13 "$tmp/table" "$1" | while read -r o; do
		echo "FAIL: $2 documents $o, which flowbench (cli.c) does not have" >&2
		echo x
	done
}
[ -z "$(missing "$tmp/man-terms" "docs/flowbench.1 (a .TP term)")" ] || status=1
[ -z "$(extra "$tmp/man-terms" "docs/flowbench.1 (a .TP term)")" ] || status=1
[ -z "$(extra "$tmp/man-long" "docs/flowbench.1")" ] || status=1
[ -z "$(missing "$tmp/readme-terms" "the README's Command line section")" ] || status=1
[ -z "$(extra "$tmp/readme-terms" "the README's Command line section")" ] || status=1
[ $status -eq 0 ] || exit 1
ok "the man page and the README document every option of the table, and no other"

# every option the table lists is accepted by the parser: a flag alone,
# an option with a value given one (the value may be refused, the option
# may not be unknown)
while read -r o; do
	case $o in -h|--help|-V|--version|-o|--format|--lenient|--dir|--fio) continue ;;
	--again|--run|--threshold|--junit) continue ;;   # run's and compare's own, below
	esac
	set +e
	"$FLOWBENCH" check "$WORKLOADS/randomrw.f" "$o" 1 >/dev/null 2>"$tmp/err"
	set -e
	if grep -q "unknown option" "$tmp/err"; then
		cat "$tmp/err"
		fail "--help lists $o, but check does not take it"
	fi
done <"$tmp/table"
ok "check takes every option --help lists for it"

# the options of one other command: taken by it, refused by check
for o in "run --again" "run --run" "compare a.json b.json --threshold" \
	"compare a.json b.json --junit"; do
	set +e
	# shellcheck disable=SC2086
	"$FLOWBENCH" $o 1 >/dev/null 2>"$tmp/err"
	set -e
	! grep -q "unknown option" "$tmp/err" || { cat "$tmp/err"; fail "$o: unknown"; }
	set +e
	"$FLOWBENCH" check "$WORKLOADS/randomrw.f" "${o##* }" 1 >/dev/null 2>"$tmp/err"
	set -e
	grep -q "unknown option" "$tmp/err" || fail "check takes ${o##* }"
done
ok "run takes --again and --run, compare --threshold and --junit, check none of them"
