/*
 * iomap.h - randommap's state, a flowop's own or the one that the
 * members of a choice share, as fio keeps one random map per file for
 * rw=randrw (iomap.c).
 */
#ifndef FLOWBENCH_FLOWOPS_IOMAP_H
#define FLOWBENCH_FLOWOPS_IOMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/base/bmap.h"
#include "runtime/base/permute.h"

struct fb_slot;
struct fb_thread;
struct plan_flowop;

/*
 * The open file (slot and its open) the map was made for, and either the
 * permutation of its iosize blocks or, with blockalign, the map of the
 * blocks a pass has done (flowops/io.c's random offsets).
 */
struct iomap {
	const struct fb_slot *slot;   /* NULL: not made yet */
	uint32_t gen;
	struct permute pm;
	struct bmap bmap;
};

/* What members must agree on to share a map: they draw from the same blocks. */
struct iomap_key {
	int fileset;
	bool size_random;         /* iosize is a random variable */
	uint64_t iosize;          /* else this constant */
	uint64_t blockalign, misalign, workingset;
};

/*
 * The map flowop `pf` uses, into *map: the one its choice's members with
 * the same key share in this thread when `pf` is a direct member of a
 * choice (made by the first of them), else `own`.  0, or -1 with the
 * run's error set (out of memory).
 */
int iomap_join(struct fb_thread *t, const struct plan_flowop *pf,
	       const struct iomap_key *key, struct iomap *own, struct iomap **map);

/* Let go of *map: `own` is freed; a shared one when its last member goes. */
void iomap_leave(struct fb_thread *t, struct iomap *own, struct iomap **map);

#endif
