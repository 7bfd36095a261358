/*
 * names.c - the compile stage's name index (names.h): open addressing
 * with linear probing, doubled when half full.
 */
#include "lang/names.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/oom.h"

/* FNV-1a: short names, no adversary worth a keyed hash (input is a file). */
static size_t name_hash(const char *name)
{
	uint64_t h = UINT64_C(14695981039346656037);

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * UINT64_C(1099511628211);
	return (size_t)h;
}

/* The slot of `name`, or the empty slot where it would go. */
static size_t name_slot(const struct name_index *ix, const char *name)
{
	size_t i = name_hash(name) & (ix->cap - 1);

	while (ix->keys[i] && strcmp(ix->keys[i], name) != 0)
		i = (i + 1) & (ix->cap - 1);
	return i;
}

int name_find(const struct name_index *ix, const char *name)
{
	size_t i;

	if (!ix->cap)
		return -1;
	i = name_slot(ix, name);
	return ix->keys[i] ? ix->vals[i] : -1;
}

/* Twice the slots (at least 64), every name moved over. */
static void name_grow(struct name_index *ix)
{
	struct name_index big = { .cap = ix->cap ? ix->cap * 2 : 64 };

	big.keys = xcalloc(big.cap, sizeof(*big.keys));
	big.vals = xcalloc(big.cap, sizeof(*big.vals));
	for (size_t i = 0; i < ix->cap; i++)
		if (ix->keys[i])
			name_put(&big, ix->keys[i], ix->vals[i]);
	name_index_free(ix);
	*ix = big;
}

void name_put(struct name_index *ix, const char *name, int val)
{
	size_t i;

	if (2 * (ix->n + 1) > ix->cap)
		name_grow(ix);
	i = name_slot(ix, name);
	if (!ix->keys[i]) {
		ix->keys[i] = name;
		ix->n++;
	}
	ix->vals[i] = val;
}

void name_index_free(struct name_index *ix)
{
	free(ix->keys);
	free(ix->vals);
	memset(ix, 0, sizeof(*ix));
}
