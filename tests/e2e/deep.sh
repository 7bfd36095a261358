#!/bin/sh
# deep.sh - scripts nested absurdly deep, or expanding absurdly wide, are
# refused with one located error (exit 1) by both `check` and `run`: no
# signal, no stack overflow, no endless expansion.  The limits themselves
# (1000 expression levels, composites 64 deep, 100000 flowops; docs/wml.md)
# are accepted and one more is refused.
. "$(dirname "$0")/lib.sh"

# rep N TEXT: TEXT N times, no newline
rep() {
	awk -v n="$1" -v s="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}

# workload NAME EXPR: a complete workload whose hog takes EXPR as value
workload() {
	{
		printf 'set $v = '
		cat
		printf '\ndefine process name=p { thread name=t { flowop hog name=h, value=$v } }\nrun 1\n'
	} >"$tmp/$1.f"
}

# refused CMD NAME PATTERN: `flowbench CMD NAME.f` exits 1 (not a signal,
# not 0) and its first line of stderr matches PATTERN
refused() {
	st=0
	"$FLOWBENCH" "$1" "$tmp/$2.f" --cache keep >"$tmp/out" 2>"$tmp/err" || st=$?
	[ "$st" -eq 1 ] || { head -c 2000 "$tmp/err"; fail "$2: $1 exited $st, not 1"; }
	head -1 "$tmp/err" | grep -qE "$3" ||
		{ head -c 2000 "$tmp/err"; fail "$2: $1: first line does not match '$3'"; }
	ok "$2: $1 refuses it: $(head -1 "$tmp/err" | cut -c1-100)"
}

accepted() {
	"$FLOWBENCH" check "$tmp/$1.f" >"$tmp/out" 2>&1 ||
		{ head -c 2000 "$tmp/out"; fail "$1: check refused it"; }
	ok "$1: check accepts it"
}

too_deep="expression nested too deeply \(more than 1000 levels\)"

# 50,000 terms (100 KB on one line) once overflowed the stack
{ printf 1; rep 49999 +1; } | workload sum50000
for cmd in check run; do
	refused $cmd sum50000 "^.*/sum50000\.f:1:2009: $too_deep\$"
done

# 100,000 '(' or '-' fill the parser's own stack: the same message
{ rep 100000 '('; printf 1; rep 100000 ')'; } | workload parens
refused check parens "^.*/parens\.f:1:[0-9]+: $too_deep\$"
{ rep 100000 '- '; printf 1; } | workload minus
refused check minus "^.*/minus\.f:1:[0-9]+: $too_deep\$"

# the limit: 1000 levels are fine, 1001 are not
{ printf 1; rep 999 +1; } | workload sum1000
accepted sum1000
{ printf 1; rep 1000 +1; } | workload sum1001
refused check sum1001 "^.*/sum1001\.f:1:2009: $too_deep\$"
{ rep 999 '('; printf 1; rep 999 ')'; } | workload parens1000
accepted parens1000
{ rep 1000 '('; printf 1; rep 1000 ')'; } | workload parens1001
refused check parens1001 "^.*/parens1001\.f:1:10: $too_deep\$"

# chain NAME N FAN: c1 hogs, cK invokes c(K-1) FAN times, the thread cN
chain() {
	awk -v n="$2" -v fan="$3" 'BEGIN {
		print "define flowop name=c1 { flowop hog name=h, value=1 }"
		for (k = 2; k <= n; k++) {
			printf "define flowop name=c%d {", k
			for (i = 0; i < fan; i++)
				printf " flowop c%d name=i%d", k - 1, i
			print " }"
		}
		printf "define process name=p { thread name=t { flowop c%d name=top } }\n", n
		print "run 1"
	}' >"$tmp/$1.f"
}

# composites 30,000 deep once overflowed the stack; 64 is the limit
chain chain30000 30000 1
refused check chain30000 "^.*/chain30000\.f:29937:36: composite flowops nested too deeply \(more than 64 levels\)\$"
chain chain64 64 1
accepted chain64
chain chain65 65 1
refused check chain65 "^.*/chain65\.f:2:32: composite flowops nested too deeply \(more than 64 levels\)\$"

# each composite invoking the previous twice, 40 deep: 2^40 flowops
# (once an endless expansion; `timeout` only catches a regression)
chain fan40 40 2
st=0
timeout 600 "$FLOWBENCH" check "$tmp/fan40.f" >"$tmp/out" 2>"$tmp/err" || st=$?
[ "$st" -eq 1 ] || { head -c 2000 "$tmp/err"; fail "fan40: check exited $st, not 1"; }
grep -q "more than flowbench's limit of 100000 flowops in one run" "$tmp/err" ||
	{ head -c 2000 "$tmp/err"; fail "fan40: no flowop-limit error"; }
ok "fan40: check refuses it: $(grep -m1 'limit of 100000 flowops' "$tmp/err" | cut -c1-100)"

# out of memory in the front end: the one policy (plan/oom.h) is a
# message and status 1, never abort() (134) or a crash.  100,000 flowops
# need about 80 MB to compile; the process gets 60 MB of address space.
# (Not in sanitizer builds: ASan and TSan reserve terabytes up front.)
if grep -qE '__(asan|tsan)_init' "$FLOWBENCH"; then
	echo "SKIP (part): out of memory, in a sanitizer build"
else
	awk 'BEGIN { print "define process name=p { thread name=t {"
		for (i = 0; i < 100000; i++) printf "flowop hog name=h%d, value=1\n", i
		print "} }"; print "run 1" }' >"$tmp/big.f"
	st=0
	(ulimit -v 60000 && exec "$FLOWBENCH" check "$tmp/big.f") >"$tmp/out" 2>"$tmp/err" || st=$?
	[ "$st" -eq 1 ] || { head -c 2000 "$tmp/err"; fail "out of memory: check exited $st, not 1"; }
	grep -qx "flowbench: error: out of memory" "$tmp/err" || { head -c 2000 "$tmp/err"; fail "out of memory: no message"; }
	"$FLOWBENCH" check "$tmp/big.f" >"$tmp/out" 2>"$tmp/err" ||
		{ head -c 2000 "$tmp/err"; fail "100,000 flowops refused with memory to spare"; }
	ok "out of memory while compiling: 'flowbench: error: out of memory', status 1 (the same script compiles with memory)"
fi
