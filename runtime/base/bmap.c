/*
 * bmap.c - the levelled map of blocks done (bmap.h).  The bits past the
 * last block of each level's last word are kept set, so that they are
 * never found free and a full word is simply ~0.
 */
#include "runtime/base/bmap.h"

#include <stdlib.h>
#include <string.h>

/* Words of 64 bits holding `bits` bits. */
static uint64_t words_of(uint64_t bits)
{
	return bits / 64 + (bits % 64 != 0);
}

uint64_t bmap_bytes(uint64_t nbits)
{
	uint64_t bytes = 0;

	for (uint64_t bits = nbits; ; bits = words_of(bits)) {
		bytes += words_of(bits) * sizeof(uint64_t);
		if (words_of(bits) <= 1)
			break;
	}
	return bytes;
}

/* Each level's bits past its last block set (the padding of its last word). */
static void bmap_pad(struct bmap *m)
{
	uint64_t bits = m->nbits;

	for (int k = 0; k < m->nlevels; k++) {
		if (bits % 64)
			m->lv[k][bits / 64] |= ~0ull << (bits % 64);
		bits = m->nwords[k];
	}
}

int bmap_init(struct bmap *m, uint64_t nbits)
{
	uint64_t bits = nbits;

	memset(m, 0, sizeof(*m));
	m->nbits = nbits;
	do {
		if (m->nlevels == BMAP_LEVELS)
			return -1;
		m->nwords[m->nlevels] = words_of(bits);
		m->lv[m->nlevels] = calloc(m->nwords[m->nlevels], sizeof(uint64_t));
		if (!m->lv[m->nlevels]) {
			bmap_free(m);
			return -1;
		}
		bits = m->nwords[m->nlevels++];
	} while (bits > 1);
	bmap_pad(m);
	return 0;
}

void bmap_free(struct bmap *m)
{
	for (int k = 0; k < m->nlevels; k++)
		free(m->lv[k]);
	memset(m, 0, sizeof(*m));
}

void bmap_clear(struct bmap *m)
{
	for (int k = 0; k < m->nlevels; k++)
		memset(m->lv[k], 0, m->nwords[k] * sizeof(uint64_t));
	bmap_pad(m);
	m->nset = 0;
}

/*
 * The first free bit at or after `b`, up to the end (no wrap): look in
 * b's word, then climb to the first level whose word has a free bit at
 * or after the next word's index, and descend through the first free
 * bits of the words below.
 */
static uint64_t bmap_find(const struct bmap *m, uint64_t b)
{
	uint64_t idx = b, w, free_bits;
	int k = 0;

	for (;;) {
		if (idx / 64 >= m->nwords[k])
			return BMAP_NONE;
		w = idx / 64;
		free_bits = ~m->lv[k][w] & (~0ull << (idx % 64));
		if (free_bits)
			break;
		if (++k == m->nlevels)
			return BMAP_NONE;
		idx = w + 1;            /* the next word below, at this level */
	}
	idx = w * 64 + (uint64_t)__builtin_ctzll(free_bits);
	while (k-- > 0)                 /* that word below is not full */
		idx = idx * 64 + (uint64_t)__builtin_ctzll(~m->lv[k][idx]);
	return idx;
}

uint64_t bmap_next_free(const struct bmap *m, uint64_t b)
{
	uint64_t r = b < m->nbits ? bmap_find(m, b) : BMAP_NONE;

	return r != BMAP_NONE || b == 0 ? r : bmap_find(m, 0);
}

/* Set bit `b` (not set) and, when its word fills, the word's bit above. */
static void bmap_set(struct bmap *m, uint64_t b)
{
	for (int k = 0; k < m->nlevels; k++) {
		uint64_t *word = &m->lv[k][b / 64];

		*word |= 1ull << (b % 64);
		if (*word != ~0ull)
			return;
		b /= 64;
	}
}

uint64_t bmap_set_run(struct bmap *m, uint64_t b, uint64_t n)
{
	uint64_t done = 0;

	for (; done < n && b + done < m->nbits && !bmap_isset(m, b + done); done++)
		bmap_set(m, b + done);
	m->nset += done;
	return done;
}
