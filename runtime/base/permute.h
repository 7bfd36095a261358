/*
 * permute.h - a random permutation of the blocks 0 .. n-1 in O(1) memory.
 *
 * fio's random map (its default for random I/O) visits every block of a
 * file once per pass, in random order; drawing each block uniformly with
 * replacement instead re-reads about 1/e of a pass from the page cache.
 * flowbench's `randommap` flowop attribute (flowops/io.c) walks this
 * permutation instead: an 8-round Feistel network on the k-bit numbers
 * (2^k the next power of two >= n, the two halves of k/2 bits or one bit
 * apart), keyed from the thread's generator at each pass, restricted to
 * [0, n) by cycle walking (a value at or above n is permuted again until
 * it falls inside, which keeps the map a bijection on [0, n); fewer than
 * two network evaluations on average, since n > 2^(k-1)).  A network
 * on a few bits is far from uniform (its halves take only a handful of
 * values), so up to PERMUTE_TABLE blocks are instead a table shuffled
 * (Fisher-Yates) at each pass: exactly uniform, in a bounded 64 bytes.
 */
#ifndef FLOWBENCH_PERMUTE_H
#define FLOWBENCH_PERMUTE_H

#include <stdint.h>

#include "runtime/base/rng.h"

#define PERMUTE_ROUNDS 8       /* 4 leave n = 2^8 visibly non-uniform */
#define PERMUTE_TABLE 64        /* at most this many blocks: a shuffled table */

struct permute {
	uint64_t n;              /* blocks: the permutation is on [0, n) */
	uint64_t pos;            /* the next position of this pass, 0 .. n */
	unsigned hi_bits, lo_bits;    /* the halves' widths, hi_bits >= lo_bits */
	uint64_t hi_mask, lo_mask;
	uint64_t key[PERMUTE_ROUNDS];  /* this pass's round keys */
	uint64_t passes;         /* passes begun (the first is 1) */
	uint8_t table[PERMUTE_TABLE];  /* n <= PERMUTE_TABLE: this pass's order */
};

/* Blocks 0 .. n-1 (n >= 1), the first pass keyed from `r`. */
void permute_start(struct permute *pm, uint64_t n, struct rng *r);

/* A new pass: new round keys from `r`, back to position 0. */
void permute_new_pass(struct permute *pm, struct rng *r);

/*
 * The round function: one multiply and one xorshift.  The product's high
 * half depends on every bit of `x` and is folded onto the low bits the
 * round keeps; a Feistel network needs no stronger round than that (8 of
 * them), and a second multiply-xorshift cost randommap ops 43
 * instructions each (380 -> 337 per op on bench/overhead.f with
 * randommap; plain random: 177).  test_permute's chi-square tests on
 * 65-256 blocks pass with either.
 */
static inline uint64_t permute_mix(uint64_t x)
{
	x *= 0x9e3779b97f4a7c15ull;
	return x ^ (x >> 32);
}

/*
 * The network once: a bijection on [0, 2^(hi_bits + lo_bits)).  The
 * value is split once into its high part h (hi_bits) and low part l
 * (lo_bits).  A Feistel round moves the low part up and puts below it
 * the high part masked with the mixed low part; two rounds so come back
 * to the same widths with h ^= F(l) and then l ^= F(h), which is how
 * they are computed: in place, with no packing between rounds (the same
 * permutation; 337 -> 285 instructions per op on bench/overhead.f with
 * randommap, of which the network 151 -> 98).
 * Invertible whatever the keys.
 */
static inline uint64_t permute_network(const struct permute *pm, uint64_t x)
{
	uint64_t h = x >> pm->lo_bits, l = x & pm->lo_mask;

	for (int i = 0; i < PERMUTE_ROUNDS; i += 2) {
		h ^= permute_mix(l ^ pm->key[i]) & pm->hi_mask;
		l ^= permute_mix(h ^ pm->key[i + 1]) & pm->lo_mask;
	}
	return (h << pm->lo_bits) | l;
}

/* The block at position `pos` of this pass (pos < n). */
static inline uint64_t permute_at(const struct permute *pm, uint64_t pos)
{
	uint64_t x;

	if (pm->n <= PERMUTE_TABLE)
		return pm->table[pos];
	x = permute_network(pm, pos);

	while (x >= pm->n)      /* cycle walking: ends, the network is a bijection */
		x = permute_network(pm, x);
	return x;
}

/* The next block; after the n-th of a pass, a new pass starts. */
static inline uint64_t permute_next(struct permute *pm, struct rng *r)
{
	if (__builtin_expect(pm->pos >= pm->n, 0))
		permute_new_pass(pm, r);
	return permute_at(pm, pm->pos++);
}

#endif
