/*
 * names.h - names to indexes, for the compile stage (variables,
 * composites, files, flowop lines, a composite's locals): a hash table,
 * so that a script with tens of thousands of names compiles in linear
 * time rather than comparing every name with every other.  Keys are
 * borrowed (they live in the AST or the plan's arena).
 */
#ifndef FLOWBENCH_LANG_NAMES_H
#define FLOWBENCH_LANG_NAMES_H

#include <stddef.h>

struct name_index {
	const char **keys;
	int *vals;
	size_t cap;               /* slots: 0 or a power of two */
	size_t n;
};

/* The index stored for `name`, or -1. */
int name_find(const struct name_index *ix, const char *name);
/* Store `val` for `name`, replacing any earlier one. */
void name_put(struct name_index *ix, const char *name, int val);
void name_index_free(struct name_index *ix);

#endif
