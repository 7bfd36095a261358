"""table.py - the layer table of docs/architecture.md, the one place the
layers are written down (tests/layers.py --help describes its format).

parse() reads the file and returns a Table; a table it cannot read is a
TableError naming the line, never a traceback.
"""

import re

MARKER = re.compile(r'^\s*<!--\s*layers:.*-->\s*$')
ENTRY = re.compile(r'^(?:[A-Za-z0-9_+-][A-Za-z0-9_.+-]*/)*'
                   r'(?:[A-Za-z0-9_+-][A-Za-z0-9_.+-]*/?)$')
BACKTICKED = re.compile(r'`([^`]*)`')
HEADER = ['layer', 'holds', 'may include']


class TableError(Exception):
    """The table is missing or malformed: the message names the line."""


class Row:
    """One line of the table: its entries (folders ending in '/', or
    files), whether it is a layer or outside the layers, and what it may
    include: a set of other rows' entries, or every layer but some."""

    def __init__(self, lineno, entries, outside, every, listed):
        self.lineno = lineno
        self.entries = entries
        self.outside = outside
        self.every = every      # True: every layer but `listed`
        self.listed = listed    # entries named in the last column
        self.allowed = set()    # row indices, filled in by Table


class Table:
    """The rows, and the questions the checks ask of them."""

    def __init__(self, path, rows):
        self.path = path
        self.rows = rows
        self.by_entry = {}
        for i, row in enumerate(rows):
            for e in row.entries:
                if e in self.by_entry:
                    raise TableError('%s:%d: `%s` is already in the row of line %d'
                                     % (path, row.lineno, e,
                                        rows[self.by_entry[e]].lineno))
                self.by_entry[e] = i
        for i, row in enumerate(rows):
            named = set()
            for e in row.listed:
                j = self.by_entry.get(e)
                if j is None:
                    raise TableError('%s:%d: `%s` is in no row\'s first column'
                                     % (path, row.lineno, e))
                if rows[j].outside:
                    raise TableError('%s:%d: `%s` is outside the layers: no layer includes it'
                                     % (path, row.lineno, e))
                named.add(j)
            if row.every:
                row.allowed = {j for j, r in enumerate(rows)
                               if not r.outside and j not in named}
            else:
                row.allowed = named
            row.allowed.add(i)

    def locate(self, rel):
        """(row index, entry) of the longest entry that holds the path
        rel (relative to the top of the tree), or (None, None)."""
        best, best_entry = None, None
        for entry, i in self.by_entry.items():
            if (rel == entry or (entry.endswith('/') and rel.startswith(entry))) \
                    and (best_entry is None or len(entry) > len(best_entry)):
                best, best_entry = i, entry
        return best, best_entry

    def outside_entries(self):
        return sorted(e for e, i in self.by_entry.items() if self.rows[i].outside)

    def allows(self, a, b):
        """May row a include (or call) row b?"""
        return b in self.rows[a].allowed


def split_cells(line):
    """The cells of a markdown table line; '|' inside backticks or
    escaped with a backslash does not end a cell."""
    s = line.strip()
    if s.startswith('|'):
        s = s[1:]
    if s.endswith('|') and not s.endswith('\\|'):
        s = s[:-1]
    cells, cur, tick = [], '', False
    i = 0
    while i < len(s):
        c = s[i]
        if c == '\\' and i + 1 < len(s) and s[i + 1] == '|':
            cur += '|'
            i += 2
            continue
        if c == '`':
            tick = not tick
        if c == '|' and not tick:
            cells.append(cur.strip())
            cur = ''
        else:
            cur += c
        i += 1
    cells.append(cur.strip())
    return cells


def words(text):
    """Plain text between entries, lower case, commas dropped."""
    return ' '.join(text.replace(',', ' ').lower().split())


def parse_entries(path, lineno, cell, what):
    """The backticked entries of a cell, checked."""
    entries = BACKTICKED.findall(cell)
    for e in entries:
        if not ENTRY.match(e) or e in ('./', '../'):
            raise TableError('%s:%d: %s: `%s` is not a folder (`dir/`) or a file '
                             '(`name.c`) relative to the top of the tree'
                             % (path, lineno, what, e))
        if '/./' in '/' + e or '/../' in '/' + e or e.startswith('../') \
                or e.startswith('./'):
            raise TableError('%s:%d: %s: `%s` must not hold . or .. components'
                             % (path, lineno, what, e))
    return entries


def parse_first(path, lineno, cell):
    entries = parse_entries(path, lineno, cell, 'first column')
    rest = words(BACKTICKED.sub(' ', cell)).split()
    if not entries or any(w != 'and' for w in rest):
        raise TableError('%s:%d: the first column must be backticked folders '
                         '(`dir/`) or files (`name.c`) separated by commas, not "%s"'
                         % (path, lineno, cell))
    return entries


def parse_last(path, lineno, cell):
    """(outside, every, listed) from the "May include" column."""
    entries = parse_entries(path, lineno, cell, 'last column')
    parts = BACKTICKED.split(cell)      # text, entry, text, entry, ..., text
    head = words(parts[0])
    seps = [words(p) for p in parts[2:-1:2]]
    tail = words(parts[-1]) if entries else ''
    bad = ('%s:%d: the last column must be "nothing of ours", "every layer", '
           '"every layer but `dir/`, ...", "outside the layers" or backticked '
           'folders and files, optionally followed by ", and" and words '
           'about libraries; not "%s"' % (path, lineno, cell))
    if not entries:
        for phrase in ('nothing of ours', 'every layer', 'outside the layers'):
            if head == phrase or head.startswith(phrase + ' and '):
                return phrase == 'outside the layers', phrase == 'every layer', []
        raise TableError(bad)
    if head not in ('', 'every layer but', 'every layer except'):
        raise TableError(bad)
    if any(s not in ('', 'and') for s in seps):
        raise TableError(bad)
    if tail and not tail.startswith('and '):
        raise TableError(bad)
    return False, head != '', entries


def parse(path):
    """The Table of the file at path."""
    try:
        with open(path, encoding='utf-8', errors='replace') as f:
            lines = f.read().split('\n')
    except OSError as e:
        raise TableError('%s: cannot read: %s' % (path, e.strerror))
    marks = [i for i, l in enumerate(lines) if MARKER.match(l)]
    if len(marks) != 1:
        raise TableError('%s: %s marker line "<!-- layers: ... -->" before the layer table'
                         % (path, 'no' if not marks else 'more than one'))
    i = marks[0] + 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    if i >= len(lines) or [c.lower() for c in split_cells(lines[i])] != HEADER \
            or not lines[i].lstrip().startswith('|'):
        raise TableError('%s:%d: the marker must be followed by the header row '
                         '"| Layer | Holds | May include |"' % (path, i + 1))
    i += 1
    if i >= len(lines) or len(split_cells(lines[i])) != 3 or \
            not all(re.match(r'^:?-+:?$', c) for c in split_cells(lines[i])):
        raise TableError('%s:%d: the header row must be followed by "|---|---|---|"'
                         % (path, i + 1))
    i += 1
    rows = []
    while i < len(lines) and lines[i].lstrip().startswith('|'):
        cells = split_cells(lines[i])
        if len(cells) != 3:
            raise TableError('%s:%d: a row has three cells, this one %d'
                             % (path, i + 1, len(cells)))
        entries = parse_first(path, i + 1, cells[0])
        outside, every, listed = parse_last(path, i + 1, cells[2])
        rows.append(Row(i + 1, entries, outside, every, listed))
        i += 1
    if not rows:
        raise TableError('%s:%d: the layer table has no rows' % (path, i + 1))
    return Table(path, rows)
