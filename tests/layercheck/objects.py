"""objects.py - what the build's object files define and use (nm).

The objects are every .o under the build directory but in the folders
outside the layers (tests/, bench/); automake names one
`<dir>/<target>-<base>.o` (or `<dir>/<base>.o`), which maps it back to
`<dir>/<base>.c` (or the .y/.l that .c is generated from).  An object
whose source is gone (a stale one, after a move) is left out.  Several
objects of one source (flowbench-mpi's and a test's) count as one.
"""

import os
import subprocess

# nm's letters: defined global; U, w, v: used, not defined (the locals,
# lower case, are not read: checks.py reads statics from the sources)
GLOBAL = set('TDBRCGSVWi')
UNDEFINED = set('Uwv')


class Source:
    """One source's symbols over its objects."""

    def __init__(self, rel):
        self.rel = rel
        self.objects = []
        self.defined = set()    # global names
        self.used = set()       # undefined names


def find_objects(tree):
    """The relative paths of the build's objects, sorted."""
    outside = tree.table.outside_entries()
    found = []
    for root, dirs, names in os.walk(tree.builddir):
        rel_root = os.path.relpath(root, tree.builddir).replace(os.sep, '/')
        prefix = '' if rel_root == '.' else rel_root + '/'
        dirs[:] = sorted(d for d in dirs if not d.startswith('.')
                         and prefix + d + '/' not in outside
                         and not tree.is_build_tree(os.path.join(root, d)))
        found += [prefix + n for n in names if n.endswith('.o')]
    return sorted(found)


def source_of_object(tree, rel):
    """The source an object is compiled from, or None."""
    d, base = os.path.split(rel[:-2])
    prefix = d + '/' if d else ''
    stems = [base]
    if '-' in base:
        stems.append(base.split('-', 1)[1])
    for stem in stems:
        c = prefix + stem + '.c'
        for root in (tree.srcdir, tree.builddir):
            if os.path.isfile(os.path.join(root, c)):
                return tree.source_of(c)
        for ext in ('.y', '.l'):
            if os.path.isfile(os.path.join(tree.srcdir, prefix + stem + ext)):
                return prefix + stem + ext
    return None


def read(tree, nm='nm'):
    """{source: Source} of the build's objects."""
    sources = {}
    objects = []
    for rel in find_objects(tree):
        src = source_of_object(tree, rel)
        if src is not None:
            objects.append(rel)
            sources.setdefault(src, Source(src)).objects.append(rel)
    if not objects:
        return sources
    by_object = {}
    for src in sources.values():
        for o in src.objects:
            by_object[o] = src
    # nm -A -P: "object: name type [value size]"
    for i in range(0, len(objects), 200):
        batch = objects[i:i + 200]
        p = subprocess.run([nm, '-A', '-P'] + batch, cwd=tree.builddir,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, errors='replace')
        if p.returncode != 0:
            raise OSError('%s failed: %s' % (nm, p.stderr.strip()))
        for line in p.stdout.split('\n'):
            obj, sep, rest = line.partition(': ')
            if not sep:
                continue
            fields = rest.split()
            if len(fields) < 2:
                continue
            name, kind = fields[0], fields[1]
            src = by_object.get(obj)
            if src is None:
                continue
            if kind in UNDEFINED:
                src.used.add(name)
            elif kind in GLOBAL:
                src.defined.add(name)
    for src in sources.values():
        src.used -= src.defined
    return sources
