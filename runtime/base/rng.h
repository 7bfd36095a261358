/*
 * rng.h - the per-thread random number generator.
 *
 * xoshiro256** (Blackman and Vigna), seeded through splitmix64 from the
 * run's seed (--seed, or one chosen and printed) and the thread's identity
 * (process index, process instance, thread index, thread instance): runs
 * with the same seed draw the same offsets in every thread, and no
 * generator is ever shared between threads.
 */
#ifndef FLOWBENCH_RNG_H
#define FLOWBENCH_RNG_H

#include <math.h>
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
static inline void rng_seed_thread(struct rng *r, uint64_t run_seed,
				   uint64_t proc, uint64_t proc_inst,
				   uint64_t thread, uint64_t thread_inst)
{
	uint64_t x = 0x666c6f7762656e63ull ^ run_seed;   /* "flowbenc" */

	x = rng_splitmix64(&x) ^ proc;
	x = rng_splitmix64(&x) ^ proc_inst;
	x = rng_splitmix64(&x) ^ thread;
	x = rng_splitmix64(&x) ^ thread_inst;
	rng_seed(r, x);
}

/*
 * A thread instance's identity as one well mixed 64-bit value, for
 * seeding further per-thread streams (randvar_stream_seed()).
 */
static inline uint64_t rng_identity(uint64_t proc, uint64_t proc_inst,
				    uint64_t thread, uint64_t thread_inst)
{
	uint64_t x = 0x6964656e74697479ull;   /* "identity" */

	x = rng_splitmix64(&x) ^ proc;
	x = rng_splitmix64(&x) ^ proc_inst;
	x = rng_splitmix64(&x) ^ thread;
	x = rng_splitmix64(&x) ^ thread_inst;
	return rng_splitmix64(&x);
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

/*
 * Continuous variates, for random variables (runtime/base/randvar.c).  Each is
 * a pure function of the stream: no cached second value, so a sample
 * depends only on the generator's state and a reseeded stream replays
 * exactly.
 */

/* Uniform in [0, 1): the top 53 bits, every double a multiple of 2^-53. */
static inline double rng_double(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1p-53;
}

/* Uniform in (0, 1]: safe to take the logarithm of. */
static inline double rng_double_pos(struct rng *r)
{
	return (double)((rng_next(r) >> 11) + 1) * 0x1p-53;
}

/* Exponential with mean 1, by inversion. */
static inline double rng_exponential(struct rng *r)
{
	return -log(rng_double_pos(r));
}

/*
 * Standard normal by Marsaglia's polar method.  The method yields two
 * independent normals per accepted pair; we return one and drop the
 * other rather than keep it in hidden state (struct rng is only the
 * xoshiro state, and a cache would make a sample depend on call history).
 * About 1.27 pairs are drawn per call on average.
 */
static inline double rng_normal(struct rng *r)
{
	double x, y, s;

	do {
		x = 2.0 * rng_double(r) - 1.0;
		y = 2.0 * rng_double(r) - 1.0;
		s = x * x + y * y;
	} while (s >= 1.0 || s == 0.0);
	return x * sqrt(-2.0 * log(s) / s);
}

/*
 * Gamma(shape, 1) by Marsaglia and Tsang's squeeze method (2000), valid
 * for shape >= 1; below 1 it draws Gamma(shape + 1) and multiplies by
 * U^(1/shape) (their boost).  shape must be > 0.  Acceptance is above
 * 95% for every shape, so the loop runs about once.
 */
static inline double rng_gamma(struct rng *r, double shape)
{
	double a = shape < 1.0 ? shape + 1.0 : shape;
	double d = a - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
	double x, v, u, g;

	for (;;) {
		do {
			x = rng_normal(r);
			v = 1.0 + c * x;
		} while (v <= 0.0);
		v = v * v * v;
		u = rng_double_pos(r);
		if (u < 1.0 - 0.0331 * (x * x) * (x * x))
			break;
		if (log(u) < 0.5 * x * x + d * (1.0 - v + log(v)))
			break;
	}
	g = d * v;
	if (shape < 1.0)
		g *= pow(rng_double_pos(r), 1.0 / shape);
	return g;
}

#endif
