"""tree.py - which files of the source tree are checked, and what a path
the compiler or nm names is, relative to the top of the tree.

The source folders are the top-level folders that hold C sources
(.c .h .y .l), but the table's folders outside the layers, hidden
folders and build trees (a folder with a config.status in it, or the
build directory itself); every file in them is checked, with the
top-level C files.  A file bison or flex generated (lang/parser.c,
found in the build directory or, in a release tarball, in the source
tree) stands for its .y or .l.
"""

import os

C_EXTENSIONS = ('.c', '.h', '.y', '.l')
GENERATOR_EXTENSIONS = ('.y', '.l')


class Tree:
    """The source tree and the build tree of one check."""

    def __init__(self, srcdir, builddir, table):
        self.srcdir = os.path.realpath(srcdir)
        self.builddir = os.path.realpath(builddir)
        self.table = table
        # the longer root first: a build tree inside the source tree
        self.roots = sorted({self.srcdir, self.builddir}, key=len, reverse=True)
        self.real_cache = {}

    def rel(self, path, cwd=None):
        """path (absolute, or relative to cwd) relative to the top of
        the tree, or None when it is in neither tree (a system header)."""
        key = (path, cwd)
        hit = self.real_cache.get(key)
        if hit is not None:
            return hit or None
        full = os.path.realpath(os.path.join(cwd or self.builddir, path))
        result = ''
        for root in self.roots:
            if full.startswith(root + os.sep):
                result = os.path.relpath(full, root).replace(os.sep, '/')
                break
        self.real_cache[key] = result
        return result or None

    def source_of(self, rel):
        """The file a path stands for: a generated .c for its .y or .l."""
        stem, ext = os.path.splitext(rel)
        if ext == '.c':
            for g in GENERATOR_EXTENSIONS:
                if os.path.isfile(os.path.join(self.srcdir, stem + g)):
                    return stem + g
        return rel

    def is_build_tree(self, path):
        return path == self.builddir or \
            os.path.isfile(os.path.join(path, 'config.status'))

    def scan(self):
        """The relative paths of every file to check, sorted."""
        outside = self.table.outside_entries()
        found = []
        for name in sorted(os.listdir(self.srcdir)):
            full = os.path.join(self.srcdir, name)
            if name.startswith('.'):
                continue
            if os.path.isfile(full):
                if name.endswith(C_EXTENSIONS) and name not in outside:
                    found.append(name)
                continue
            if not os.path.isdir(full) or self.is_build_tree(full) \
                    or name + '/' in outside:
                continue
            files = []
            for root, dirs, names in os.walk(full):
                rel_root = os.path.relpath(root, self.srcdir).replace(os.sep, '/')
                dirs[:] = sorted(d for d in dirs if not d.startswith('.')
                                 and not self.is_build_tree(os.path.join(root, d))
                                 and rel_root + '/' + d + '/' not in outside)
                files += [rel_root + '/' + n for n in names
                          if not n.startswith('.') and rel_root + '/' + n not in outside
                          and os.path.isfile(os.path.join(root, n))]
            if any(f.endswith(C_EXTENSIONS) for f in files):
                found += files
        return sorted(found)

    def units(self, files):
        """The translation units to preprocess: (absolute path, the file
        it stands for).  Every .c and .h, and for a .y or .l the .c
        generated from it (the build tree's, else the source tree's);
        a missing generated file is returned in the second list."""
        units, missing = [], []
        for rel in files:
            stem, ext = os.path.splitext(rel)
            if ext in ('.c', '.h'):
                if self.source_of(rel) != rel and self.builddir != self.srcdir \
                        and os.path.isfile(os.path.join(self.builddir, rel)):
                    continue    # the build tree's copy is the one compiled
                units.append((os.path.join(self.srcdir, rel), self.source_of(rel)))
            elif ext in GENERATOR_EXTENSIONS:
                gen = stem + '.c'
                if os.path.isfile(os.path.join(self.builddir, gen)):
                    if self.builddir != self.srcdir:
                        units.append((os.path.join(self.builddir, gen), rel))
                elif not os.path.isfile(os.path.join(self.srcdir, gen)):
                    missing.append(rel)
        return units, missing
