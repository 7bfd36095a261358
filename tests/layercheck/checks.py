"""checks.py - the checks, each returning its report lines (unsorted).

unplaced: files in no layer.  includes: includes against the layers,
module cycles.  calls: symbols used against the layers, call cycles
between sources.  names: prefixes and names shared by layers, enums of
one header sharing a prefix.  The rules are in tests/layers.py --help.
"""

import os

from . import decls, graph

TABLE_HINT = 'add its folder to the table in docs/architecture.md'


def unplaced(table, files):
    """'path: in no layer' for every file no row holds."""
    return ['%s: in no layer (%s)' % (f, TABLE_HINT)
            for f in files if table.locate(f)[0] is None]


def include_edges(tree, units):
    """{(includer, included)} between files of the tree, as each stands
    for its source (lang/parser.c for lang/parser.y)."""
    edges = set()
    for unit in units:
        for a, b in unit.edges:
            ra, rb = tree.rel(a), tree.rel(b)
            if ra is None or rb is None:
                continue
            ra, rb = tree.source_of(ra), tree.source_of(rb)
            if ra != rb:
                edges.add((ra, rb))
    return edges


def module(path):
    """A .c and its .h (and a .y with its generated .h) are one module."""
    return os.path.splitext(path)[0]


def includes(table, tree, units):
    """Includes against the layers, files reached in no layer, cycles
    between modules."""
    bad, reached, modules = [], set(), {}
    for a, b in include_edges(tree, units):
        la, ea = table.locate(a)
        lb, eb = table.locate(b)
        if la is not None and table.rows[la].outside:
            continue
        if lb is None:
            reached.add(b)
        elif la is not None and not table.allows(la, lb):
            bad.append('%s includes %s: %s may not include %s' % (a, b, ea, eb))
        if module(a) != module(b):
            modules.setdefault(module(a), set()).add(module(b))
    cycles = ['cycle: ' + ' <-> '.join(c) for c in graph.components(modules)]
    return ['%s: in no layer (%s)' % (r, TABLE_HINT) for r in reached], bad, cycles


def calls(table, sources):
    """Symbols a source uses from a layer it may not call, and cycles
    of sources using each other's symbols."""
    definers = {}
    for src in sources.values():
        for name in src.defined:
            definers.setdefault(name, set()).add(src.rel)
    bad, uses = [], {}
    for src in sources.values():
        la, ea = table.locate(src.rel)
        if la is None or table.rows[la].outside:
            continue
        for name in src.used:
            others = definers.get(name, set()) - {src.rel}
            placed = [(d,) + table.locate(d) for d in sorted(others)]
            placed = [p for p in placed if p[1] is not None]
            for d, _, _ in placed:
                uses.setdefault(src.rel, {}).setdefault(d, set()).add(name)
            if placed and not any(table.allows(la, lb) for _, lb, _ in placed):
                for d, _, eb in placed:
                    bad.append('%s uses %s defined in %s: %s may not call %s'
                               % (src.rel, name, d, ea, eb))
    g = {a: set(bs) for a, bs in uses.items()}
    cycles = []
    for comp in graph.components(g):
        path = graph.walk(g, comp)
        lines = ['call cycle: ' + ' -> '.join(path)]
        for a, b in zip(path, path[1:]):
            lines.append('    %s -> %s: %s' % (a, b, ', '.join(sorted(uses[a][b]))))
        cycles.append('\n'.join(lines))
    return bad, cycles


def exempt(name):
    """Names no rule applies to: main, flex's and bison's yy*/YY*, and
    the implementation's (a leading underscore: the C standard reserves
    them; sanitizers and the compiler make such symbols)."""
    return name == 'main' or name[:2].lower() == 'yy' or name.startswith('_')


def prefix(name):
    """The part of a name before its first '_', lower case."""
    return name.split('_', 1)[0].lower()


def stem(constants):
    """The longest prefix ending in '_' that every one of `constants` has
    ('' if none): an enum's own part of its constants' names."""
    if not constants:
        return ''
    common = constants[0]
    for c in constants[1:]:
        n = 0
        while n < min(len(common), len(c)) and common[n] == c[n]:
            n += 1
        common = common[:n]
    if len(constants) == 1:
        common = common[:len(common) - 1] if common.endswith('_') else common
    cut = common.rfind('_')
    return common[:cut + 1] if cut > 0 else ''


SHOWN = {'symbol': '%s', 'macro': '#define %s', 'enum constant': '%s',
         'typedef': 'typedef %s', 'struct': 'struct %s', 'union': 'union %s',
         'enum': 'enum %s', 'static': 'static %s'}


class HeaderNames:
    """The names of every header reached in the layers, by header."""

    def __init__(self, table, tree, units):
        self.names = {}     # rel -> {(kind, name)}
        self.enums = {}     # rel -> [(tag, constants)]
        paths, seen = {}, set()
        for unit in units:
            for path, text in unit.texts.items():
                rel = tree.rel(path)
                if rel is None:
                    continue
                lr, _ = table.locate(rel)
                if lr is None or table.rows[lr].outside:
                    continue
                rel = tree.source_of(rel)
                if (rel, text) in seen:
                    continue
                seen.add((rel, text))
                paths[rel] = os.path.join(tree.builddir, path)
                found = decls.scan(text)
                self.names.setdefault(rel, set()).update(found.names)
                enums = self.enums.setdefault(rel, [])
                for e in found.enums:
                    if e not in enums:
                        enums.append(e)
        for rel, path in paths.items():
            try:
                with open(path, encoding='utf-8', errors='replace') as f:
                    guard = decls.include_guard(f.read())
            except OSError:
                guard = None
            if guard:
                self.names[rel].discard(('macro', guard))


def names(table, tree, units, sources):
    """Prefixes in more than one layer, names in more than one layer
    (one at least a static), enums of one header sharing a prefix."""
    headers = HeaderNames(table, tree, units)

    def layer(rel):
        i, _ = table.locate(rel)
        return None if i is None or table.rows[i].outside else i

    # (a) and (c): public names, by prefix
    prefixes = {}
    for rel, found in headers.names.items():
        for kind, name in found:
            if not exempt(name):
                prefixes.setdefault(prefix(name), {}).setdefault(layer(rel), {}) \
                    .setdefault(rel, set()).add(SHOWN[kind] % name)
    for src in sources.values():
        if layer(src.rel) is None:
            continue
        for name in src.defined:
            if not exempt(name):
                prefixes.setdefault(prefix(name), {}).setdefault(layer(src.rel), {}) \
                    .setdefault(src.rel, set()).add(name)
    out = []
    for p, by_layer in prefixes.items():
        by_layer.pop(None, None)
        if len(by_layer) > 1:
            files = {}
            for fs in by_layer.values():
                files.update(fs)
            out.append('prefix %s_: %s' % (p, ', '.join(
                '%s (%s)' % (f, ', '.join(sorted(files[f]))) for f in sorted(files))))

    # (b): one name defined in two layers, a static at least once.  The
    # statics are read from the sources, not from nm: which statics an
    # object keeps depends on the optimizer (gcc and clang inline
    # different ones), and an object also holds the static inline
    # functions of system headers.
    owners = {}
    for rel, found in headers.names.items():
        for kind, name in found:
            if kind == 'static':
                owners.setdefault(name, set()).add((rel, 'static'))
    for unit in units:
        main = tree.rel(unit.path)
        if main is not None and unit.main_text:
            for kind, name in decls.scan(unit.main_text).names:
                if kind == 'static':
                    owners.setdefault(name, set()).add((tree.source_of(main), 'static'))
    for src in sources.values():
        for name in src.defined:
            owners.setdefault(name, set()).add((src.rel, 'public'))
    for name, where in owners.items():
        where = {(f, k) for f, k in where if layer(f) is not None}
        if exempt(name) or not any(k == 'static' for _, k in where):
            continue
        if len({layer(f) for f, _ in where}) > 1:
            out.append('name %s defined in %d layers: %s' % (
                name, len({layer(f) for f, _ in where}),
                ', '.join('%s (%s)' % fk for fk in sorted(where))))

    # (c): two enums of one header whose constants share one stem (the
    # longest prefix, up to an '_', common to all of an enum's constants):
    # PA_NAME and PA_ECHO would name an attribute and an action alike.
    # Enums of one module may share the module's prefix (COORD_STOP,
    # COORD_FILES_OWN) as long as their stems differ.
    for rel, enums in headers.enums.items():
        by_stem = {}
        for i, (tag, constants) in enumerate(enums):
            shown = [c for c in constants if not exempt(c)]
            s = stem(shown)
            if s:
                by_stem.setdefault(s, []).append((i, shown))
        for s, which in by_stem.items():
            if len(which) > 1:
                out.append('enums of %s share prefix %s: %s' % (rel, s.lower(), ', '.join(
                    '%s (%s)' % ('enum ' + enums[i][0] if enums[i][0] else 'an unnamed enum',
                                 ', '.join(cs)) for i, cs in which)))
    return out
