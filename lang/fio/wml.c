/*
 * wml.c - the WML import-fio writes, in small pieces the planner
 * (plan.c) and the writer (write.c) share: names made unique and fit for
 * WML, the $dir variables, sizes and seconds written so that WML reads
 * back the same number, quoted strings and comments that nothing copied
 * from the job file can break out of; and the lookup trees and growing
 * arrays behind them (struct emit, emit.h).
 */
#include "lang/fio/emit.h"
#include "plan/oom.h"

#include <ctype.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

/* Room for element n of an array of n: the capacity doubles each time n
 * reaches a power of two, so n additions cost linear time. */
void *fio_grow(void *p, int n, size_t size)
{
	void *np;

	if (n & (n - 1))
		return p;
	np = xreallocarray(p, n ? 2 * (size_t)n : 1, size);
	return np;
}

static int keyed_cmp(const void *a, const void *b)
{
	return strcmp(((const struct keyed *)a)->key, ((const struct keyed *)b)->key);
}

/*
 * The entry of `key` in the tree `*root` (glibc's balanced tsearch: a
 * lookup costs log n whatever the keys, so a job file of many jobs is
 * translated in n log n), NULL if absent.
 */
struct keyed *fio_lookup(void *const *root, const char *key)
{
	struct keyed probe = { key, 0 };
	struct keyed **found = tfind(&probe, root, keyed_cmp);

	return found ? *found : NULL;
}

/* Add `key` (copied) with `val`; it must not be there yet. */
struct keyed *fio_insert(struct emit *e, void **root, const char *key, int val)
{
	struct keyed *n = arena_new(&e->a, struct keyed);

	n->key = arena_strdup(&e->a, key);
	n->val = val;
	if (!tsearch(n, root, keyed_cmp))
		oom_exit();
	return n;
}

void fio_no_free(void *p)
{
	(void)p;
}

/*
 * A WML word made of `raw`: other characters become '_', and a name
 * starting with something else than a letter or '_' gets `prefix`, as
 * does one the scanner would read as a boolean (true, false).  A name
 * given already gets "-2", "-3", ...: the next one to try is kept with
 * each name, so n jobs of the same name cost n lookups, not n^2.
 */
const char *fio_unique_name(struct emit *e, const char *raw, const char *prefix)
{
	char base[80], cand[96];
	struct keyed *first;
	size_t n = 0;

	if ((!isalpha((unsigned char)raw[0]) && raw[0] != '_') ||
	    strcmp(raw, "true") == 0 || strcmp(raw, "false") == 0)
		n = (size_t)snprintf(base, sizeof(base), "%s", prefix);
	for (const char *p = raw; *p && n < sizeof(base) - 1; p++)
		base[n++] = isalnum((unsigned char)*p) || strchr("_.-", *p) ? *p : '_';
	base[n] = '\0';
	first = fio_lookup(&e->names, base);
	if (!first)
		return fio_insert(e, &e->names, base, 2)->key;
	for (;;) {
		snprintf(cand, sizeof(cand), "%s-%d", base, first->val++);
		if (!fio_lookup(&e->names, cand))
			return fio_insert(e, &e->names, cand, 2)->key;
	}
}

/* The index of directory `dir`'s variable, adding it if new. */
int fio_dir_index(struct emit *e, const char *dir)
{
	struct keyed *d = fio_lookup(&e->dir_index, dir);

	if (d)
		return d->val;
	e->dirs = fio_grow(e->dirs, e->ndirs, sizeof(*e->dirs));
	e->dirs[e->ndirs] = fio_insert(e, &e->dir_index, dir, e->ndirs)->key;
	return e->ndirs++;
}

/* "$dir" for the first directory, then "$dir2", "$dir3", ... */
void fio_print_dir_var(const struct emit *e, int i)
{
	if (i == 0)
		fprintf(e->out, "$dir");
	else
		fprintf(e->out, "$dir%d", i + 1);
}

/* A size as WML writes it: 20g, 4k, 1536. */
const char *fio_wml_size(char *buf, size_t n, uint64_t v)
{
	static const char sfx[] = "tgmk";

	for (int i = 0; i < 4; i++) {
		int shift = 10 * (4 - i);

		if (v && v % ((uint64_t)1 << shift) == 0) {
			snprintf(buf, n, "%llu%c", (unsigned long long)(v >> shift), sfx[i]);
			return buf;
		}
	}
	snprintf(buf, n, "%llu", (unsigned long long)v);
	return buf;
}

/* A signed size for WML (stride): fio_wml_size() of |v|, with a '-' if negative. */
const char *fio_signed_size(char *buf, size_t n, int64_t v)
{
	if (n < 2)
		return "";
	buf[0] = '-';
	fio_wml_size(buf + (v < 0), n - 1, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
	return buf;
}

/*
 * A WML quoted string: \, " and $ escaped, newline and tab as \n and \t.
 * Only an unescaped '"' ends a WML string, so nothing inside can become
 * a statement (and the parser refuses other control characters in paths).
 */
void fio_print_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '\n' || *s == '\t') {
			fprintf(out, "\\%c", *s == '\n' ? 'n' : 't');
			continue;
		}
		if (*s == '\\' || *s == '"' || *s == '$')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/*
 * Text from the job file (a job name, an option line) or its file name,
 * made fit for a WML comment.  A comment ends at a newline, so a newline
 * copied as is would start a live statement (`system ...`): every control
 * character is shown as \n, \r, \t or \xNN instead, and '\' as "\\" so
 * that the escapes cannot be confused with the text.  Bytes from 0x80 on
 * (UTF-8 names) are kept.
 */
const char *fio_commented(struct emit *e, const char *s)
{
	size_t n = strlen(s);
	char *buf = arena_alloc(&e->a, 4 * n + 1), *p = buf;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\')
			p += sprintf(p, "\\\\");
		else if (c == '\n' || c == '\r' || c == '\t')
			p += sprintf(p, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
		else if (c < 0x20 || c == 0x7f)
			p += sprintf(p, "\\x%02x", c);
		else
			*p++ = (char)c;
	}
	*p = '\0';
	return buf;
}

/*
 * Microseconds as WML seconds: "30", "0.5", "1234.000001".  Digits and
 * at most one '.', never an exponent (the WML scanner reads no "1e+06"),
 * and exact: the scanner reads back the same number of microseconds.
 */
const char *fio_wml_seconds(char *buf, size_t n, uint64_t us)
{
	unsigned long long whole = us / 1000000, frac = us % 1000000;
	int digits = 6;

	if (!frac) {
		snprintf(buf, n, "%llu", whole);
		return buf;
	}
	for (; frac % 10 == 0; frac /= 10)
		digits--;
	snprintf(buf, n, "%llu.%0*llu", whole, digits, frac);
	return buf;
}
