#!/usr/bin/env python3
"""layers.py - the one-way house: checks that the code keeps to the layers
of docs/architecture.md, reading them from the table there.

usage: tests/layers.py [options]

`make check` runs it (tests/e2e/layers.sh) with the build's own compiler
and flags in the environment:
  LAYERS_CC        the compiler (CC)
  LAYERS_CPPFLAGS  its preprocessor flags, LAYERS_CFLAGS its other flags:
                   one per line, or else split as the shell splits words
  LAYERS_SRCDIR    the source tree those flags were written for
  LAYERS_BUILDDIR  the build tree they were written for (relative include
                   directories are taken from there)
  NM               nm (default: nm)
By hand, from a build directory:
  make check TESTS=tests/e2e/layers.sh VERBOSE=1

options:
  --srcdir DIR     the source tree to check (default: LAYERS_SRCDIR);
                   include directories the flags name in LAYERS_SRCDIR
                   are taken here instead (a copy of the tree)
  --builddir DIR   its build tree, holding the objects and the generated
                   files (default: LAYERS_BUILDDIR), likewise
  --table FILE     the layer table (default: SRCDIR/docs/architecture.md)
  --cc=CC, --cppflags=FLAGS, --cflags=FLAGS, --nm=NM
                   instead of the environment (with '=': FLAGS start with -)
  --checks LIST    some of includes,calls,names (default: all three)
  -j N             preprocess N files at once (default: the CPUs)
  -h, --help       this text

The layer table.  docs/architecture.md has one line
  <!-- layers: ... -->
followed (blank lines between allowed) by the header row
"| Layer | Holds | May include |", the separator row and one row per
layer, up to the first line that is not a table row.
  First column: backticked folders, ending in '/' (`runtime/base/`), and
    files (`main.c`), relative to the top of the tree, comma-separated.
    A file belongs to the row with the longest entry holding it: a file
    entry names that file, a folder entry everything under it (so a
    `lang/fio/` row takes lang/fio/ from a `lang/` row).
  Second column: free text.
  Last column: "nothing of ours"; backticked entries of other rows
    (`plan/`, `runtime/base/`); "every layer"; "every layer but `mpi/`";
    or "outside the layers": that row's files are not checked, and no
    layer may include or call them (tests/, bench/).  Any of them may
    end in ", and" words about libraries (", and MPI"), not checked.
  A row may always include itself.  A table that does not follow this is
  an error (exit 2) naming the line.

The checks.
  Every file of a source folder (a top-level folder holding C sources,
  but folders outside the layers, hidden ones and build trees) and every
  top-level C file must be in a layer, and so must every file the
  compiler reaches through an include in either tree:
    "PATH: in no layer (add its folder to the table in docs/architecture.md)"
  includes: every .c and .h (a .y or .l through the .c generated from
    it) is preprocessed by the compiler with the project's flags, so an
    include is found as the build finds it ("../", <...>, macros, any
    extension, nested headers, headers included twice); a <...> header
    missing here that neither tree holds (<mpi.h> without MPI) gets an
    empty stand-in, any other missing header is an error.  An include from a
    layer into one it may not include, and a cycle of modules (a .c with
    its .h) including each other:
      "FILE includes HEADER: LAYER may not include LAYER"
      "cycle: lang/a <-> lang/b"
  calls: nm on every object of the build (but in folders outside the
    layers), mapped to its source by automake's <dir>/<target>-<base>.o:
    a symbol used from a layer it may not call (symbols no object of
    ours defines are the libraries'), and sources using each other's
    symbols around a loop (followed by the symbols of each step):
      "SOURCE uses SYMBOL defined in SOURCE: LAYER may not call LAYER"
      "call cycle: lang/a.c -> lang/b.c -> lang/a.c"
  names: a name's prefix is its part before the first '_', in lower case
    (the whole name without one).  Public names are the objects' global
    symbols and the headers' macros (but include guards), enum constants,
    typedef names, struct/union/enum tags and static functions/objects.
      "prefix P_: FILE (NAMES), FILE (NAMES)"   one prefix, two layers
      "name N defined in K layers: FILE (static), FILE (public)"   a
          name defined in two layers, one of them a static; statics are
          read from the preprocessed sources, not from nm (which statics
          an object keeps is the optimizer's choice), and a header's
          static inline function counts as the header's
      "enums of HEADER share prefix P_: enum a (...), enum b (...)"
          two enums of one header whose constants have the same stem
          (the longest prefix up to an '_' common to all of an enum's
          constants: PA_NAME for an attribute, PA_ECHO for an action)
    Exempt by rule: main; yy*/YY* (flex, bison); names starting with '_'
    (reserved for the implementation: the compiler's and sanitizers').
  A LAYER in a message is the table entry that holds the file.

Output: one line per finding (a call cycle adds indented lines), sorted,
then exit 0 (none), 1 (some), 2 (usage, a malformed table, a tree that
is not built, a compiler failure).
"""

import sys
sys.dont_write_bytecode = True

import argparse         # noqa: E402
import os               # noqa: E402
import shutil           # noqa: E402
import tempfile         # noqa: E402
import time             # noqa: E402
from concurrent.futures import ThreadPoolExecutor   # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from layercheck import checks, cpp, objects, table as layertable, tree as layertree  # noqa: E402

CHECKS = ('includes', 'calls', 'names')


class Usage(Exception):
    """A mistake in how the checker was called or the tree is not ready."""


class HelpParser(argparse.ArgumentParser):
    def format_help(self):
        return __doc__

    def error(self, message):
        raise Usage(message + ' (see --help)')


def arguments(argv):
    p = HelpParser(add_help=True)
    env = os.environ
    p.add_argument('--srcdir', default=env.get('LAYERS_SRCDIR'))
    p.add_argument('--builddir', default=env.get('LAYERS_BUILDDIR'))
    p.add_argument('--table')
    p.add_argument('--cc', default=env.get('LAYERS_CC', 'cc'))
    p.add_argument('--cppflags', default=env.get('LAYERS_CPPFLAGS'))
    p.add_argument('--cflags', default=env.get('LAYERS_CFLAGS', ''))
    p.add_argument('--nm', default=env.get('NM', 'nm'))
    p.add_argument('--checks', default=','.join(CHECKS))
    p.add_argument('-j', type=int, default=os.cpu_count() or 2)
    a = p.parse_args(argv)
    if not a.srcdir or not a.builddir:
        raise Usage('no source or build tree: give --srcdir and --builddir '
                    '(make check sets LAYERS_SRCDIR and LAYERS_BUILDDIR)')
    for d in (a.srcdir, a.builddir):
        if not os.path.isdir(d):
            raise Usage('%s: not a directory' % d)
    a.checks = [c for c in a.checks.split(',') if c]
    if any(c not in CHECKS for c in a.checks):
        raise Usage('--checks: one or more of %s' % ','.join(CHECKS))
    if a.cppflags is None:
        raise Usage('no compiler flags: give --cppflags (make check sets LAYERS_CPPFLAGS)')
    if a.j < 1:
        raise Usage('-j: at least 1')
    return a


def flags_dir(a):
    """The build directory the flags were written for."""
    return os.path.realpath(os.environ.get('LAYERS_BUILDDIR') or a.builddir)


def moves(a):
    """Directories the flags name, and where to look instead."""
    pairs = []
    for env, new in (('LAYERS_BUILDDIR', a.builddir), ('LAYERS_SRCDIR', a.srcdir)):
        old = os.environ.get(env)
        if old:
            pairs.append((os.path.realpath(old), os.path.realpath(new)))
    return sorted(pairs, key=lambda p: len(p[0]), reverse=True)


def preprocess(a, tree, units):
    """The cpp.Unit of every unit, in order."""
    stubdir = tempfile.mkdtemp(prefix='layers-stubs.')
    try:
        flags = cpp.split_flags(a.cppflags) + cpp.split_flags(a.cflags)
        pre = cpp.Preprocessor(a.cc, flags, (tree.srcdir, tree.builddir), flags_dir(a),
                               moves(a), os.path.realpath(stubdir))
        with ThreadPoolExecutor(max_workers=a.j) as pool:
            return list(pool.map(pre.run, [path for path, _ in units]))
    finally:
        shutil.rmtree(stubdir, ignore_errors=True)


def run(a):
    start = time.time()
    table_path = a.table or os.path.join(a.srcdir, 'docs', 'architecture.md')
    table = layertable.parse(table_path)
    tree = layertree.Tree(a.srcdir, a.builddir, table)
    files = tree.scan()
    sections = [checks.unplaced(table, files)]
    found = {}
    if 'includes' in a.checks or 'names' in a.checks:
        units, missing = tree.units(files)
        if missing:
            raise Usage('%s: no generated %s.c in the build or the source tree '
                        '(build first)' % (missing[0], os.path.splitext(missing[0])[0]))
        found['units'] = preprocess(a, tree, units)
    if 'calls' in a.checks or 'names' in a.checks:
        found['objects'] = objects.read(tree, a.nm)
        if not found['objects']:
            raise Usage('no object files under %s: build first' % a.builddir)
    if 'includes' in a.checks:
        reached, bad, cycles = checks.includes(table, tree, found['units'])
        sections[0] += [r for r in reached if r not in sections[0]]
        sections += [bad, cycles]
    if 'calls' in a.checks:
        sections += list(checks.calls(table, found['objects']))
    if 'names' in a.checks:
        sections.append(checks.names(table, tree, found['units'], found['objects']))
    lines = [l for s in sections for l in sorted(set(s))]
    for line in lines:
        print(line)
    sys.stderr.write('layers.py: %d files, %d preprocessed, %d objects: %d findings (%.1f s)\n'
                     % (len(files), len(found.get('units', ())),
                        sum(len(s.objects) for s in found.get('objects', {}).values()),
                        len(lines), time.time() - start))
    return 1 if lines else 0


def main(argv):
    try:
        return run(arguments(argv))
    except (Usage, layertable.TableError, cpp.PreprocessError, OSError) as e:
        sys.stderr.write('layers.py: %s\n' % e)
        return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
