/*
 * nameidx.c - a sorted array of (name, occurrence, value) with binary
 * search: what compare and report use instead of a linear scan per
 * lookup, which made them quadratic in the number of flowops.  See
 * nameidx.h for why sorted rather than hashed.
 */
#include "compare/nameidx.h"

#include <stdlib.h>
#include <string.h>

/* Order of the index: name, then occurrence, then value. */
static int entry_cmp(const void *a, const void *b)
{
	const struct nameidx_entry *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->occurrence != y->occurrence)
		return x->occurrence < y->occurrence ? -1 : 1;
	return (x->value > y->value) - (x->value < y->value);
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

void nameidx_init(struct nameidx *ix, struct nameidx_entry *e, int n)
{
	ix->e = e;
	ix->n = e && n > 0 ? n : 0;
	if (ix->n > 1)
		qsort(ix->e, (size_t)ix->n, sizeof(*ix->e), entry_cmp);
}

void nameidx_free(struct nameidx *ix)
{
	free(ix->e);
	ix->e = NULL;
	ix->n = 0;
}

/* Lower bound: the first entry not before (name, occurrence, INT_MIN). */
int nameidx_find(const struct nameidx *ix, const char *name, int occurrence)
{
	int lo = 0, hi = ix->n;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		const struct nameidx_entry *m = &ix->e[mid];
		int c = strcmp(m->name, name);

		if (c < 0 || (c == 0 && m->occurrence < occurrence))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < ix->n && ix->e[lo].occurrence == occurrence &&
	    strcmp(ix->e[lo].name, name) == 0)
		return ix->e[lo].value;
	return -1;
}

/*
 * Entries given with one occurrence are sorted by (name, value): a name's
 * entries are adjacent and in value order, so numbering them 0, 1, 2 ...
 * keeps the index sorted by (name, occurrence, value).
 */
void nameidx_number(struct nameidx *ix)
{
	int start = 0;

	for (int i = 0; i < ix->n; i++) {
		if (i > 0 && strcmp(ix->e[i].name, ix->e[start].name) != 0)
			start = i;
		ix->e[i].occurrence = i - start;
	}
}

int nameidx_firsts(const struct nameidx *ix, int *values)
{
	int n = 0;

	for (int i = 0; i < ix->n; i++) {
		const struct nameidx_entry *p = i ? &ix->e[i - 1] : NULL;

		if (p && p->occurrence == ix->e[i].occurrence &&
		    strcmp(p->name, ix->e[i].name) == 0)
			continue;
		values[n++] = ix->e[i].value;
	}
	if (n > 1)
		qsort(values, (size_t)n, sizeof(*values), int_cmp);
	return n;
}
