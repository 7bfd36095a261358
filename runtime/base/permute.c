/*
 * permute.c - setting up the block permutation of permute.h: its width
 * and each pass's keys (the per-op part is inline in the header).
 */
#include "runtime/base/permute.h"

/* The smallest k with 2^k >= n (0 for n <= 1). */
static unsigned permute_width(uint64_t n)
{
	return n <= 1 ? 0 : 64u - (unsigned)__builtin_clzll(n - 1);
}

/* A small pass: the table shuffled (Fisher-Yates, from its last order). */
static void permute_shuffle(struct permute *pm, struct rng *r)
{
	for (uint64_t i = pm->n - 1; i > 0; i--) {
		uint64_t j = rng_below(r, i + 1);
		uint8_t v = pm->table[i];

		pm->table[i] = pm->table[j];
		pm->table[j] = v;
	}
}

void permute_new_pass(struct permute *pm, struct rng *r)
{
	if (pm->n <= PERMUTE_TABLE)
		permute_shuffle(pm, r);
	else
		for (int i = 0; i < PERMUTE_ROUNDS; i++)
			pm->key[i] = rng_next(r);
	pm->pos = 0;
	pm->passes++;
}

void permute_start(struct permute *pm, uint64_t n, struct rng *r)
{
	unsigned k = permute_width(n);

	pm->n = n ? n : 1;
	pm->hi_bits = (k + 1) / 2;
	pm->lo_bits = k / 2;
	pm->hi_mask = (1ull << pm->hi_bits) - 1;
	pm->lo_mask = (1ull << pm->lo_bits) - 1;
	pm->passes = 0;
	for (uint64_t i = 0; i < PERMUTE_TABLE && i < pm->n; i++)
		pm->table[i] = (uint8_t)i;
	permute_new_pass(pm, r);
}
