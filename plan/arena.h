/*
 * arena.h - a bump allocator for the front end.
 *
 * The AST and the plan are built once and freed once, so their nodes come
 * from an arena: no per-node free, no leaks on error paths.  Allocation
 * failure aborts (there is nothing sensible to do half-way through parsing).
 */
#ifndef FLOWBENCH_ARENA_H
#define FLOWBENCH_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *head;
};

void arena_init(struct arena *a);
void arena_free(struct arena *a);

/* Zero-filled, aligned for any type. */
void *arena_alloc(struct arena *a, size_t size);
char *arena_strdup(struct arena *a, const char *s);
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_printf(struct arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define arena_new(a, type) ((type *)arena_alloc((a), sizeof(type)))

#endif
