"""decls.py - the names a header gives the rest of the program.

From a header's preprocessed text (cpp.py: its own lines, with the
#define lines -dD leaves in): macros, enum constants, typedef names,
struct/union/enum tags, and the names of static functions and objects
(static inline functions in a header end up in every object that
includes it).  A small tokenizer and a scan of file-scope declarations
is enough here: the preprocessor has already removed comments,
conditionals and macros.  Include guards are found in the header's own
text: the first directive `#ifndef X` (or `#if !defined X`), the
second `#define X` with nothing after it, the matching #endif the last.
"""

import re

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\''
                   r'|[A-Za-z_]\w*|\.?\d(?:[eEpP][+-]|[\w.])*'
                   r'|\.\.\.|->|\S')
IDENT = re.compile(r'^[A-Za-z_]\w*$')
DEFINE = re.compile(r'^#define[ \t]+([A-Za-z_]\w*)', re.M)
DIRECTIVE_LINE = re.compile(r'^[ \t]*#[^\n]*', re.M)
ATTRIBUTES = {'__attribute__', '__attribute', '__declspec', '__asm__', '__asm',
              'asm', '_Alignas', 'alignas', '__typeof__', 'typeof', '__typeof'}
KEYWORDS = {
    'auto', 'break', 'case', 'char', 'const', 'continue', 'default', 'do',
    'double', 'else', 'enum', 'extern', 'float', 'for', 'goto', 'if',
    'inline', 'int', 'long', 'register', 'restrict', 'return', 'short',
    'signed', 'sizeof', 'static', 'struct', 'switch', 'typedef', 'union',
    'unsigned', 'void', 'volatile', 'while', '_Bool', '_Complex',
    '_Imaginary', '_Atomic', '_Noreturn', '_Thread_local', '_Static_assert',
    '__inline', '__inline__', '__restrict', '__restrict__', '__const',
    '__volatile__', '__extension__', '__signed__', '__thread', 'bool',
}
CLOSE = {'(': ')', '[': ']', '{': '}'}


class Names:
    """What one header declares: (kind, name) pairs, kind being
    'macro', 'enum constant', 'typedef', 'struct', 'union', 'enum',
    'static'; and its enums as (tag or None, [constants]) in order."""

    def __init__(self):
        self.names = set()
        self.enums = []


def tokens(text):
    return TOKEN.findall(DIRECTIVE_LINE.sub(' ', text))


def skip_group(toks, i):
    """Index after the bracketed group that starts at toks[i]."""
    depth = 0
    while i < len(toks):
        if toks[i] in CLOSE:
            depth += 1
        elif toks[i] in (')', ']', '}'):
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def strip_attributes(toks):
    """The tokens without __attribute__((...)) and the like."""
    out, i = [], 0
    while i < len(toks):
        if toks[i] in ATTRIBUTES and i + 1 < len(toks) and toks[i + 1] == '(':
            i = skip_group(toks, i + 1)
        else:
            out.append(toks[i])
            i += 1
    return out


def aggregates(toks, into):
    """Tags of struct/union/enum definitions (any depth), enum constants."""
    for i, t in enumerate(toks):
        if t not in ('struct', 'union', 'enum'):
            continue
        j, tag = i + 1, None
        if j < len(toks) and IDENT.match(toks[j]) and toks[j] not in KEYWORDS:
            tag = toks[j]
            j += 1
        if j >= len(toks) or toks[j] != '{':
            continue
        if tag:
            into.names.add((t, tag))
        if t == 'enum':
            end = skip_group(toks, j)
            constants, depth, expect = [], 0, True
            for u in toks[j + 1:end - 1]:
                if u in CLOSE:
                    depth += 1
                elif u in (')', ']', '}'):
                    depth -= 1
                elif depth == 0 and u == ',':
                    expect = True
                elif depth == 0 and expect and IDENT.match(u):
                    constants.append(u)
                    expect = False
            for c in constants:
                into.names.add(('enum constant', c))
            into.enums.append((tag, constants))


def declarator_name(toks):
    """The name a declarator declares: `(*name)(...)`, `name[4]`,
    `unsigned long name`; None if there is none."""
    name, i = None, 0
    while i < len(toks):
        t = toks[i]
        if t == '(':
            if i + 1 < len(toks) and toks[i + 1] in ('*', '^', '('):
                end = skip_group(toks, i)
                inner = declarator_name(toks[i + 1:end - 1])
                return inner or name
            break           # a parameter list
        if t in ('[', '=', ':', '{'):
            break
        if IDENT.match(t) and t not in KEYWORDS:
            name = t
        i += 1
    return name


def split_top(toks, sep):
    """toks split at sep outside brackets."""
    parts, cur, depth = [], [], 0
    for t in toks:
        if t in CLOSE:
            depth += 1
        elif t in (')', ']', '}'):
            depth -= 1
        if t == sep and depth == 0:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def collapse_bodies(toks):
    """A declaration with every {...} group replaced by nothing."""
    out, i = [], 0
    while i < len(toks):
        if toks[i] == '{':
            i = skip_group(toks, i)
        else:
            out.append(toks[i])
            i += 1
    return out


def outer(toks):
    """The tokens outside brackets."""
    out, depth = [], 0
    for t in toks:
        if t in CLOSE:
            depth += 1
        elif t in (')', ']', '}'):
            depth -= 1
        elif depth == 0:
            out.append(t)
    return out


def declarations(toks):
    """File-scope declarations: lists of tokens, ending at a ';' or at
    the '}' of a function body."""
    decls, cur, depth = [], [], 0
    for t in toks:
        cur.append(t)
        if t in CLOSE:
            depth += 1
        elif t in (')', ']', '}'):
            depth -= 1
            if t == '}' and depth == 0 and len(cur) >= 2:
                # a function body: '{' that follows ')'
                k = len(cur) - 1
                d = 0
                while k >= 0:
                    if cur[k] == '}':
                        d += 1
                    elif cur[k] == '{':
                        d -= 1
                        if d == 0:
                            break
                    k -= 1
                if k > 0 and cur[k - 1] == ')':
                    decls.append(cur)
                    cur = []
        elif t == ';' and depth == 0:
            decls.append(cur[:-1])
            cur = []
    if cur:
        decls.append(cur)
    return decls


def scan(text):
    """The Names of a header's preprocessed text."""
    found = Names()
    for m in DEFINE.finditer(text):
        found.names.add(('macro', m.group(1)))
    toks = strip_attributes(tokens(text))
    aggregates(toks, found)
    for d in declarations(toks):
        flat = collapse_bodies(d)
        top = outer(flat)
        if 'typedef' in top:
            for part in split_top(flat[flat.index('typedef') + 1:], ','):
                name = declarator_name(part)
                if name:
                    found.names.add(('typedef', name))
        elif 'static' in top:
            for part in split_top(flat, ','):
                name = declarator_name(part)
                if name:
                    found.names.add(('static', name))
    return found


COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
DIRECTIVE = re.compile(r'^[ \t]*#[ \t]*(\w+)(.*)$', re.M)


def include_guard(source):
    """The include guard macro of a header's source text, or None."""
    text = COMMENT.sub(' ', source.replace('\\\n', ''))
    dirs = [(m.group(1), m.group(2).strip(), m.end()) for m in DIRECTIVE.finditer(text)]
    if len(dirs) < 3:
        return None
    kind, arg, _ = dirs[0]
    guard = None
    if kind == 'ifndef':
        guard = arg
    elif kind == 'if':
        m = re.match(r'^!\s*defined\s*(?:\(\s*(\w+)\s*\)|(\w+))$', arg)
        guard = m and (m.group(1) or m.group(2))
    if not guard or dirs[1][0] != 'define' or dirs[1][1] != guard:
        return None
    depth = 0
    for i, (kind, _, end) in enumerate(dirs):
        if kind in ('if', 'ifdef', 'ifndef'):
            depth += 1
        elif kind == 'endif':
            depth -= 1
            if depth == 0:
                if i == len(dirs) - 1 and not text[end:].strip():
                    return guard
                return None
    return None
