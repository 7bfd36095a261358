#!/bin/sh
# layers.sh - the one-way house: tests/layers.py checks the code against
# the layer table of docs/architecture.md: includes as the compiler finds
# them, calls and names in the build's objects, every file in a layer.
# The checker is checked first, on a copy of the source tree and of the
# build's objects with a violation of each kind planted: each must be
# reported with its own message, one the real tree's report does not
# have.  A malformed table must be an error naming its line.  Then the
# real tree must be clean.
. "$(dirname "$0")/lib.sh"
skip_sanitized "the source and the objects' symbols are checked in the plain build"
need python3
need nm
: "${LAYERS_CPPFLAGS:?run through make check, which sets LAYERS_CC, LAYERS_CPPFLAGS, LAYERS_CFLAGS}"
builddir=${LAYERS_BUILDDIR:?run through make check}
checker=$TOP_SRCDIR/tests/layers.py
nl='
'

# the real tree, first: its report is what a planted copy adds to
rc=0
python3 "$checker" >"$tmp/real.out" 2>"$tmp/real.err" || rc=$?
[ "$rc" -le 1 ] || { cat "$tmp/real.err"; fail "the checker could not check the tree (status $rc)"; }

# a copy of the source tree's C folders, top-level C files and table
# (writable: distcheck's sources are read-only), and of the build's
# objects and generated files
mkdir "$tmp/src" "$tmp/build" "$tmp/src/docs"
cp "$TOP_SRCDIR/docs/architecture.md" "$tmp/src/docs/"
for f in "$TOP_SRCDIR"/*; do
	case $f in
	*.[chyl]) cp "$f" "$tmp/src/" ;;
	*)	[ -d "$f" ] && [ -z "$(find "$f" -name config.status)" ] &&
		[ -n "$(find "$f" -name '*.[chyl]')" ] && cp -R "$f" "$tmp/src/" ;;
	esac
done
chmod -R u+w "$tmp/src"
# (not tests/, bench/, hidden folders or build trees inside the build tree)
(cd "$builddir" && find . ! -name . -type d \( -name tests -o -name bench -o -name '.*' \
	-o -exec sh -c 'test -f "$0/config.status"' {} \; \) -prune \
	-o -type f \( -name '*.o' -o -name '*.[ch]' \) -print | tar cf - -T -) |
	(cd "$tmp/build" && tar xf -)

# compile SOURCE: the copy's SOURCE, compiled as the build compiles it,
# over the copied object of the same source
compile() {
	src=$1
	base=$(basename "$src" .c)
	obj=$(cd "$tmp/build" && find "$(dirname "$src")" \( -name "*-$base.o" -o -name "$base.o" \) | head -1)
	[ -n "$obj" ] || fail "no object of $src in the build"
	(
		cd "$builddir"
		set -f
		IFS=' '
		set -- $LAYERS_CC
		IFS=$nl
		"$@" $LAYERS_CPPFLAGS $LAYERS_CFLAGS -c "$tmp/src/$src" -o "$tmp/build/$obj"
	) || fail "cannot compile the planted $src"
}
plant() {	# plant FILE LINE...: the lines appended to the copy's FILE
	f=$1
	shift
	[ -f "$tmp/src/$f" ] || fail "no $f to plant in (moved? update layers.sh)"
	printf '%s\n' "$@" >>"$tmp/src/$f"
}
plant_in_guard() {	# plant_in_guard HEADER LINE: LINE after the guard's #define
	awk -v line="$2" '{ print } /^#define FLOWBENCH_/ && !done { print line; done = 1 }' \
		"$tmp/src/$1" >"$tmp/in_guard" && cat "$tmp/in_guard" >"$tmp/src/$1"
}

# includes the compiler finds, whatever the spelling
plant runtime/measure/stats.c '#include "lang/ast.h"'
plant runtime/engine/slot.h '#include "runtime/engine/thread.h"'
plant runtime/base/log.c '#include "../../lang/ast.h"'
plant runtime/fileset/tree.c '#include <lang/ast.h>'
# (after a system header missing here: it gets an empty stand-in)
printf '#include <layers_no_such_header.h>\n#include "lang/ast.h"\n' \
	>"$tmp/src/runtime/measure/x.inc"
plant runtime/measure/hist.c '#include "runtime/measure/x.inc"'
# (lang/ast.h included a second time: the compiler skips it, its guard
# being defined, and -dI still shows the #include)
printf '#include "lang/ast.h"\n' >"$tmp/src/runtime/measure/y.h"
plant runtime/measure/usage.c '#include "runtime/measure/y.h"' '#include "lang/ast.h"'
plant cli/command.c '#include "mpi/cluster.h"'
# a C file at the top of the tree
printf 'int toplevel_x;\n' >"$tmp/src/toplevel.c"
mkdir "$tmp/src/newlayer"
printf 'int newlayer_x;\n' >"$tmp/src/newlayer/x.c"
# calls only nm can see: a prototype of lang/'s frontend_free and a call,
# no include; two base files calling each other
plant runtime/measure/interval.c '' \
	'void frontend_free(void *result);' \
	'void interval_planted_call(void *result);' \
	'void interval_planted_call(void *result)' '{' '	frontend_free(result);' '}'
plant runtime/base/clock.c '' \
	'int units_planted_pong(int n);' 'int clock_planted_ping(int n);' \
	'int clock_planted_ping(int n)' '{' '	return n ? units_planted_pong(n - 1) : 0;' '}' \
	'int ast_planted_public(void);' 'int ast_planted_public(void)' '{' '	return 2;' '}'
plant runtime/base/units.c '' \
	'int units_planted_pong(int n);' 'int clock_planted_ping(int n);' \
	'int units_planted_pong(int n)' '{' '	return n ? clock_planted_ping(n - 1) : 1;' '}'
# names: one static in two layers (read from the sources), lang/'s
# prefix in runtime/base/'s object and header, two enums of one header
# sharing a prefix
for f in plan/plan.c lang/ast.c; do
	plant $f '' '__attribute__((used)) static int layers_twin(void)' '{' '	return 1;' '}'
done
plant_in_guard runtime/base/clock.h '#define PA_PLANTED_MACRO 1'
plant_in_guard runtime/base/units.h 'enum units_planted_a { UP_ONE }; enum units_planted_b { UP_TWO };'
for src in runtime/measure/interval.c runtime/base/clock.c runtime/base/units.c; do
	compile $src
done

rc=0
python3 "$checker" --srcdir "$tmp/src" --builddir "$tmp/build" >"$tmp/out" 2>"$tmp/err" || rc=$?
[ "$rc" -eq 1 ] || { cat "$tmp/out" "$tmp/err"; fail "the planted copy: status $rc, not 1"; }
# expect WHAT PATTERN: the planted copy's report has a line matching
# PATTERN (grep -E), the real tree's none
expect() {
	grep -Eq -- "$2" "$tmp/out" || { cat "$tmp/out"; fail "$1: not reported ($2)"; }
	! grep -Eq -- "$2" "$tmp/real.out" || fail "$1: already in the real tree's report ($2)"
	ok "reported: $1"
}
expect "an include against the layers" \
	'^runtime/measure/stats\.c includes lang/ast\.h: runtime/measure/ may not include lang/$'
expect "a module cycle" '^cycle: (.* )?runtime/engine/slot <-> (.* )?runtime/engine/thread( |$)'
expect 'an include through "../../"' \
	'^runtime/base/log\.c includes lang/ast\.h: runtime/base/ may not include lang/$'
expect "an include through <...> and -I" \
	'^runtime/fileset/tree\.c includes lang/ast\.h: runtime/fileset/ may not include lang/$'
expect "an include in a .inc file" \
	'^runtime/measure/x\.inc includes lang/ast\.h: runtime/measure/ may not include lang/$'
expect "an include the compiler skips (a second time)" \
	'^runtime/measure/usage\.c includes lang/ast\.h: runtime/measure/ may not include lang/$'
expect "an include of mpi/ from the command line" \
	'^cli/command\.c includes mpi/cluster\.h: cli/ may not include mpi/$'
expect "a cycle between the command line and mpi/" '^cycle: (.* )?cli/command <-> (.* )?mpi/cluster( |$)'
expect "a top-level C file in no layer" \
	'^toplevel\.c: in no layer \(add its folder to the table in docs/architecture\.md\)$'
expect "a folder in no layer" \
	'^newlayer/x\.c: in no layer \(add its folder to the table in docs/architecture\.md\)$'
expect "a call with no include" \
	'^runtime/measure/interval\.c uses frontend_free defined in lang/frontend\.c: runtime/measure/ may not call lang/$'
expect "a call cycle" '^call cycle: (.* )?runtime/base/clock\.c -> (.* )?runtime/base/units\.c -> '
expect "a static in two layers" \
	'^name layers_twin defined in 2 layers: lang/ast\.c \(static\), plan/plan\.c \(static\)$'
expect "a public prefix in two layers" '^prefix ast_: .*runtime/base/clock\.c \(ast_planted_public\)'
expect "a header's prefix in two layers" '^prefix pa_: .*runtime/base/clock\.h \(#define PA_PLANTED_MACRO\)'
expect "two enums of one header sharing a prefix" \
	'^enums of runtime/base/units\.h share prefix up_: enum units_planted_a \(UP_ONE\), enum units_planted_b \(UP_TWO\)$'

# a malformed table is an error naming its line, never a traceback
table_error() {	# table_error WHAT SED-SCRIPT PATTERN
	sed "$2" "$TOP_SRCDIR/docs/architecture.md" >"$tmp/table.md"
	rc=0
	python3 "$checker" --checks includes --table "$tmp/table.md" >"$tmp/out" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] && grep -Eq -- "$3" "$tmp/err" && ! grep -q Traceback "$tmp/err" ||
		{ cat "$tmp/err"; fail "a table with $1: status $rc, or not '$3'"; }
}
table_error "no marker" '/^<!-- layers:/d' 'no marker line'
table_error "an unknown entry" 's/^| `lang\/` \(.*\)| `plan\/` |$/| `lang\/` \1| `plan\/`, `nowhere\/` |/' \
	'table\.md:[0-9]+: `nowhere/` is in no row'
table_error "a word for an entry" 's/^| `mpi\/` \(.*\)| every layer, and MPI |$/| `mpi\/` \1| all of them |/' \
	'table\.md:[0-9]+: the last column must be'
table_error "two cells" 's/^| `flowops\/` | \(.*\) |$/| `flowops\/` \1 |/' 'table\.md:[0-9]+: a row has three cells'
ok "a malformed table is an error naming its line"

[ ! -s "$tmp/real.out" ] || { cat "$tmp/real.out"; fail "the tree breaks the layers (above)"; }
ok "the tree keeps to the layers of docs/architecture.md: includes, calls, names ($(sed 's/^layers.py: //' "$tmp/real.err"))"
