/*
 * rng.h - the per-thread random number generator.
 *
 * xoshiro256** (Blackman and Vigna), seeded through splitmix64 from the
 * thread's identity (process index, process instance, thread index, thread
 * instance), so every run of the same plan draws the same offsets in every
 * thread and no generator is ever shared between threads.
 */
#ifndef FLOWBENCH_RNG_H
#define FLOWBENCH_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];
};

/* splitmix64: advances *x and returns a well mixed 64-bit value. */
static inline uint64_t rng_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline void rng_seed(struct rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = rng_splitmix64(&seed);
}

/* Seed from a thread instance's identity; distinct identities, distinct streams. */
static inline void rng_seed_thread(struct rng *r, uint64_t proc, uint64_t proc_inst,
				   uint64_t thread, uint64_t thread_inst)
{
	uint64_t x = 0x666c6f7762656e63ull;   /* "flowbenc" */

	x = rng_splitmix64(&x) ^ proc;
	x = rng_splitmix64(&x) ^ proc_inst;
	x = rng_splitmix64(&x) ^ thread;
	x = rng_splitmix64(&x) ^ thread_inst;
	rng_seed(r, x);
}

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/*
 * Uniform in [0, n) without modulo bias: Lemire's multiply-and-reject.
 * The rejection loop runs with probability below n / 2^64.  n = 0 gives 0.
 */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	unsigned __int128 m;
	uint64_t lo;

	if (n == 0)
		return 0;
	m = (unsigned __int128)rng_next(r) * n;
	lo = (uint64_t)m;
	if (lo < n) {
		uint64_t threshold = -n % n;

		while (lo < threshold) {
			m = (unsigned __int128)rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

/*
 * A random I/O offset: a whole block of `iosize` bytes chosen uniformly
 * among all `nblocks` blocks 0 .. nblocks-1 (filebench never picks the
 * last block; we do).
 */
static inline uint64_t rng_block_offset(struct rng *r, uint64_t nblocks,
					uint64_t iosize)
{
	return rng_below(r, nblocks) * iosize;
}

#endif
