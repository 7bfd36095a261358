#!/bin/sh
# layers.sh - the one-way house: every #include between the source
# folders points down the pipeline (docs/architecture.md, "Layers"), and
# no two modules (a .c file with its header) include each other, directly
# or around a loop.  The checker is checked first: a planted include
# against the layers and a planted cycle must both be reported.
. "$(dirname "$0")/lib.sh"
need python3

check() {
	python3 - "$1" <<'PY'
import os, re, sys
os.chdir(sys.argv[1])
# (folder, the folders it may include besides itself), top of the
# pipeline last; main.c, command.c, cli.c, catalog.c and the tests may include all
LAYERS = [
    ('plan/', []),
    ('lang/', ['plan/']),
    ('runtime/base/', ['plan/']),
    ('runtime/measure/', ['runtime/base/', 'plan/']),
    ('runtime/fileset/', ['runtime/measure/', 'runtime/base/', 'plan/']),
    ('runtime/engine/', ['runtime/fileset/', 'runtime/measure/',
                         'runtime/base/', 'plan/']),
    ('flowops/', ['runtime/engine/', 'runtime/fileset/', 'runtime/measure/',
                  'runtime/base/', 'plan/']),
    ('runtime/results/', ['runtime/engine/', 'runtime/fileset/',
                          'runtime/measure/', 'runtime/base/', 'plan/']),
    ('runtime/compare/', ['runtime/results/', 'runtime/base/', 'plan/']),
    # flowbench-mpi's entry and coordinator: on top, like main.c (None:
    # the top-level command.h and cli.h)
    ('mpi/', ['runtime/compare/', 'runtime/results/', 'flowops/',
              'runtime/engine/', 'runtime/fileset/', 'runtime/measure/',
              'runtime/base/', 'lang/', 'plan/', None]),
]
def layer(p):
    for l, ok in LAYERS:
        if p.startswith(l):
            return l, ok
    return None, None
srcs = []
for d in ('plan', 'lang', 'runtime', 'flowops', 'mpi'):
    for root, _, fs in os.walk(d):
        srcs += [os.path.join(root, f) for f in fs
                 if f.endswith(('.c', '.h', '.y', '.l'))]
unknown = [s for s in srcs if layer(s)[0] is None]
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
bad, graph = [], {}
module = lambda p: re.sub(r'\.[chyl]$', '', p)
for s in sorted(srcs):
    l, ok = layer(s)
    for i in inc.findall(open(s, errors='replace').read()):
        if not os.path.exists(i):       # config.h, bison's lang/parser.h
            continue
        il, _ = layer(i)
        if il != l and il not in ok:
            bad.append('%s includes %s: %s may not include %s'
                       % (s, i, l, il or i))
        if module(s) != module(i):
            graph.setdefault(module(s), set()).add(module(i))
# strongly connected components (iterative Tarjan): each one is a cycle
index, low, on, stack, cycles, n = {}, {}, set(), [], [], 0
for v0 in sorted(graph):
    if v0 in index:
        continue
    work = [(v0, iter(sorted(graph.get(v0, ()))))]
    index[v0] = low[v0] = n; n += 1; stack.append(v0); on.add(v0)
    while work:
        v, it = work[-1]
        w = next(it, None)
        if w is not None:
            if w not in index:
                index[w] = low[w] = n; n += 1; stack.append(w); on.add(w)
                work.append((w, iter(sorted(graph.get(w, ())))))
            elif w in on:
                low[v] = min(low[v], index[w])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[v])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))
for u in unknown:
    print('%s: in no layer (add its folder to tests/e2e/layers.sh)' % u)
for b in bad:
    print(b)
for c in cycles:
    print('cycle: ' + ' <-> '.join(c))
sys.exit(1 if unknown or bad or cycles else 0)
PY
}

# the checker finds what it must: a copy with one bad include, one cycle
mkdir "$tmp/src"
(cd "$TOP_SRCDIR" && cp -r plan lang runtime flowops mpi "$tmp/src/")
check "$tmp/src" >"$tmp/out" || { cat "$tmp/out"; fail "the source tree breaks the layers"; }
echo '#include "lang/ast.h"' >>"$tmp/src/runtime/measure/stats.c"
if check "$tmp/src" >"$tmp/out"; then
	fail "an include of lang/ from runtime/measure/ was not reported"
fi
grep -q 'runtime/measure/stats.c includes lang/ast.h' "$tmp/out" || { cat "$tmp/out"; fail "wrong report"; }
(cd "$TOP_SRCDIR" && cp runtime/measure/stats.c "$tmp/src/runtime/measure/")
echo '#include "runtime/engine/thread.h"' >>"$tmp/src/runtime/engine/slot.h"
if check "$tmp/src" >"$tmp/out"; then
	fail "a cycle between slot and thread was not reported"
fi
grep -q '^cycle: .*runtime/engine/slot .*runtime/engine/thread' "$tmp/out" ||
	{ cat "$tmp/out"; fail "wrong report for the cycle"; }
ok "the checker reports an include against the layers and a module cycle"

check "$TOP_SRCDIR" >"$tmp/out" || { cat "$tmp/out"; fail "the source tree breaks the layers"; }
ok "every include points down the pipeline; no module cycle ($(cd "$TOP_SRCDIR" && find plan lang runtime flowops mpi -name '*.[chyl]' | wc -l) files)"
