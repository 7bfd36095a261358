/*
 * bmap.h - a map of which blocks of a file a pass has done, as fio keeps
 * one (its random map) when the I/Os of a random job are not all one
 * block: a random block that is done already gives way to the next one
 * not done (wrapping at the end), an I/O marks its blocks up to the
 * first one done before it (fio then shrinks the I/O to those), and a
 * full map starts a new pass.  flowbench's randommap with a blockalign
 * (flowops/io.c) keeps one per flowop; randommap with one block size
 * needs none (permute.h).
 *
 * One bit per block, and above it levels of one bit per word below
 * (set when that word is full) until one word holds the top, so finding
 * the next free block reads a few words whatever the map's size.
 */
#ifndef FLOWBENCH_BMAP_H
#define FLOWBENCH_BMAP_H

#include <stdbool.h>
#include <stdint.h>

/* Enough levels for 2^64 blocks (64 bits a word: 6 bits a level). */
#define BMAP_LEVELS 11
/* bmap_next_free() when every block is done. */
#define BMAP_NONE UINT64_MAX

struct bmap {
	uint64_t nbits;              /* blocks */
	uint64_t nset;               /* done this pass */
	int nlevels;
	uint64_t nwords[BMAP_LEVELS];
	uint64_t *lv[BMAP_LEVELS];   /* lv[0]: the blocks; lv[k]: full words of lv[k-1] */
};

/* A map of `nbits` (>= 1) blocks, none done.  0, or -1 out of memory. */
int bmap_init(struct bmap *m, uint64_t nbits);
void bmap_free(struct bmap *m);
/* Bytes bmap_init() allocates for `nbits` blocks (need hooks). */
uint64_t bmap_bytes(uint64_t nbits);

/* A new pass: no block done. */
void bmap_clear(struct bmap *m);

static inline bool bmap_isset(const struct bmap *m, uint64_t b)
{
	return m->lv[0][b >> 6] >> (b & 63) & 1;
}

/* The first block not done at or after `b`, else from 0; BMAP_NONE if full. */
uint64_t bmap_next_free(const struct bmap *m, uint64_t b);

/*
 * Mark up to `n` blocks from `b` (not done) done, stopping before the
 * first one done already or the end of the map: how many were marked.
 */
uint64_t bmap_set_run(struct bmap *m, uint64_t b, uint64_t n);

#endif
