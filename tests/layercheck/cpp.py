"""cpp.py - what the compiler's preprocessor opens, and from where.

Each translation unit is preprocessed with the project's own compiler and
flags (`CC -E -dD -dI`), so an include is found exactly as the build
finds it: "../", <...> through -I, macros, any extension, nested
headers.  The line markers of the output say which file includes which
(flag 1: entering a file, 2: back in its includer); -dI prints every
#include directive, so one the compiler skipped because the header was
already included (its guard) is still an edge: it is found again along
the compiler's own search path (`CC -E -v`).  A header that does not
exist here (<mpi.h> in a build without MPI) is given an empty stand-in
in a directory searched last, and the unit is preprocessed again; not
one included with "..." or one the trees hold (the flags would be wrong,
and the stand-in would hide an include): that is an error.
"""

import os
import re
import shlex
import subprocess

LINE = re.compile(r'^#(?: (\d+) "((?:[^"\\\n]|\\.)*)"([ \d]*)'
                  r'|(include|include_next|import)[ \t]*([<"])([^>"\n]*)[>"][^\n]*)$',
                  re.M)
MISSING = re.compile(r"fatal error: (?:'([^'\n]+)' file not found"
                     r"|([^:\n]+): No such file or directory)")
DIR_FLAGS = ('-I', '-iquote', '-isystem', '-idirafter')
FILE_FLAGS = ('-include', '-imacros')


class PreprocessError(Exception):
    """The compiler failed on a unit for another reason than a missing header."""


def split_flags(value):
    """Flags from an environment variable: one per line when it holds a
    newline (as `printf '%s\\n' $(FLAGS)` writes them), else split as
    the shell splits words."""
    if '\n' in value:
        return [l for l in value.split('\n') if l]
    return shlex.split(value)


class Unit:
    """What preprocessing one file found: the include edges (includer,
    included, both as the compiler names them), the text of each header (the main file too, when it is not a .c file),
    and a .c file's own text."""

    def __init__(self, path):
        self.path = path
        self.edges = []
        self.texts = {}
        self.main_text = ''


class Preprocessor:
    """Runs the compiler on one unit at a time (thread-safe)."""

    def __init__(self, cc, flags, roots, flags_dir, moves, stubdir):
        """flags are the compile's flags, written for the build directory
        flags_dir (a relative include directory is taken from there);
        moves maps directories of the tree they were written for to the
        ones to check instead; roots are the source and build trees
        checked (the compiler runs in the build tree, roots[1]); stubdir
        holds stand-ins for missing headers."""
        self.cc = shlex.split(cc)
        self.roots = roots
        self.builddir = roots[1]
        self.stubdir = stubdir
        self.flags = self.remap(flags, flags_dir, moves) + ['-idirafter', stubdir]
        self.quote_dirs, self.bracket_dirs = self.search_dirs()

    def remap(self, flags, flags_dir, moves):
        """The flags with every include directory absolute and moved."""
        def move(d):
            full = os.path.realpath(os.path.join(flags_dir, d))
            for old, new in moves:
                if full == old or full.startswith(old + os.sep):
                    return new + full[len(old):]
            return full
        out, i = [], 0
        while i < len(flags):
            f = flags[i]
            opt = next((o for o in DIR_FLAGS + FILE_FLAGS if f.startswith(o)), None)
            if opt is None:
                out.append(f)
            elif f == opt and i + 1 < len(flags):
                out += [opt, move(flags[i + 1])]
                i += 1
            elif opt == '-I' or f[len(opt):]:
                out += [opt, move(f[len(opt):])]
            else:
                out.append(f)
            i += 1
        return out

    def command(self, path, extra):
        return self.cc + self.flags + ['-w'] + extra + ['-x', 'c', path, '-o', '-']

    def search_dirs(self):
        """The compiler's "..." and <...> search lists (CC -E -v)."""
        p = subprocess.run(self.command('/dev/null', ['-E', '-v']), cwd=self.builddir,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           universal_newlines=True, errors='replace')
        quote, bracket, into = [], [], None
        for line in p.stderr.split('\n'):
            if line.startswith('#include "..." search starts here'):
                into = quote
            elif line.startswith('#include <...> search starts here'):
                into = bracket
            elif line.startswith('End of search list'):
                into = None
            elif into is not None and line.startswith(' '):
                d = line.strip().replace(' (framework directory)', '')
                into.append(os.path.join(self.builddir, d))
        if not bracket:
            raise PreprocessError('%s -E -v printed no search list:\n%s'
                                  % (' '.join(self.cc), p.stderr))
        return quote, bracket

    def stub(self, name, output):
        """An empty stand-in for a missing header; False if it must not
        have one: one included with "..." (ours), or one the trees hold
        (the flags are wrong: it would hide an include)."""
        target = os.path.normpath(os.path.join(self.stubdir, name))
        if not target.startswith(self.stubdir + os.sep):
            return False
        if not re.search(r'^#(?:include|include_next|import)[ \t]*<%s>' % re.escape(name),
                         output, re.M):
            return False
        if any(os.path.exists(os.path.join(root, name)) for root in self.roots):
            return False
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target):
            with open(target, 'a'):
                pass
        return True

    def run(self, path):
        """The Unit of the file at path."""
        stubbed = set()
        while True:
            p = subprocess.run(self.command(path, ['-E', '-dD', '-dI']),
                               cwd=self.builddir, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True,
                               errors='replace')
            if p.returncode == 0:
                return self.parse(path, p.stdout)
            missing = [a or b for a, b in MISSING.findall(p.stderr)]
            if not missing or any(m in stubbed for m in missing) \
                    or not all(self.stub(m, p.stdout) for m in missing):
                raise PreprocessError('cannot preprocess %s:\n%s' % (path, p.stderr.rstrip()))
            stubbed.update(missing)

    def find(self, includer, kind, name):
        """Where the compiler finds `#include <name>` or "name" of includer."""
        dirs = self.bracket_dirs
        if kind == '"':
            here = os.path.dirname(os.path.join(self.builddir, includer))
            dirs = [here] + self.quote_dirs + self.bracket_dirs
        for d in dirs:
            candidate = os.path.join(d, name)
            if os.path.isfile(candidate):
                return candidate
        return None

    def parse(self, path, text):
        unit = Unit(path)
        main_is_c = path.endswith('.c')
        stack = [path]
        presumed = path
        pending = None      # an #include not (yet) followed by its file
        pos = 0
        chunks = {}

        def settle():
            includer, kind, name = pending
            found = self.find(includer, kind, name)
            if found is not None:
                unit.edges.append((includer, found))

        for m in LINE.finditer(text):
            gap = text[pos:m.start()]
            pos = m.end()
            if gap.strip():
                if pending:
                    settle()
                    pending = None
                top = stack[-1]
                if not top.startswith('<') and not presumed.startswith('<'):
                    chunks.setdefault(top, []).append(gap)
            if m.group(1) is not None:
                flags = m.group(3).split()
                name = m.group(2).replace('\\"', '"').replace('\\\\', '\\')
                if flags and flags[0] == '1':
                    pending = None
                    if not stack[-1].startswith('<') and not name.startswith('<'):
                        unit.edges.append((stack[-1], name))
                    stack.append(name)
                elif flags and flags[0] == '2':
                    if pending:
                        settle()
                        pending = None
                    if len(stack) > 1:
                        stack.pop()
                presumed = name
            else:
                if pending:
                    settle()
                pending = None
                if not stack[-1].startswith('<') and m.group(4) != 'include_next':
                    pending = (stack[-1], m.group(5), m.group(6))
        tail = text[pos:]
        if pending:
            settle()
        if tail.strip() and not stack[-1].startswith('<') and not presumed.startswith('<'):
            chunks.setdefault(stack[-1], []).append(tail)
        unit.main_text = ''.join(chunks.pop(path, [])) if main_is_c else ''
        unit.texts = {f: ''.join(c) for f, c in chunks.items()}
        return unit
