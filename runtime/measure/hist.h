/*
 * hist.h - log-linear latency histograms with a bounded relative error.
 *
 * Why: percentiles people can publish need more than filebench's 64
 * power-of-two buckets (a 2x error).  Every power of two [2^p, 2^(p+1))
 * is split into HIST_SUB (128) equal sub-buckets, so a bucket is never
 * wider than 1/128 of its lower bound; values below 256 ns get a bucket
 * each (exact).  Reporting a bucket by its midpoint is therefore within
 * 1/256 (0.4 %) of every value in it.  The linear range reaches 2^42 ns
 * (73 minutes, past the 1 hour guarantee); longer values fall into
 * overflow buckets of one power of two each (2^42 .. 2^63 and above),
 * still counted and still bounded by the exact maximum the caller keeps.
 *
 * Since every power of two is a bucket boundary, the histogram converts
 * exactly to filebench's 64 power-of-two buckets (`enable lathist`).
 *
 * Memory: HIST_BUCKETS (4630) 64-bit counters plus a 128-bit sum of
 * squares: 37,056 bytes per histogram, i.e. per flowop per thread.
 *
 * Concurrency (see stats.h): only the owning thread records, with
 * relaxed atomic stores (plain moves); readers of a live histogram load
 * it word by word (hist_load).  Nothing here locks or allocates.
 */
#ifndef FLOWBENCH_HIST_H
#define FLOWBENCH_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)          /* sub-buckets per power of two */
#define HIST_TOP_BIT 41                         /* highest linear power: 2^41 */
/* Linear buckets: values 0 .. 2^(HIST_TOP_BIT + 1) - 1. */
#define HIST_LINEAR ((HIST_TOP_BIT - HIST_SUB_BITS + 2) * HIST_SUB)
/* Overflow buckets: one per power of two from 2^(HIST_TOP_BIT + 1) up. */
#define HIST_OVERFLOW (63 - HIST_TOP_BIT)
#define HIST_BUCKETS (HIST_LINEAR + HIST_OVERFLOW)

/* filebench's lathist: bucket i holds 2^(i-1) <= ns < 2^i; 0 ns in 0. */
#define HIST_POW2_BUCKETS 64

struct hist {
	uint64_t sumsq_lo;        /* exact sum of ns^2, as a 128-bit number */
	uint64_t sumsq_hi;
	uint64_t b[HIST_BUCKETS];
};

/*
 * The bucket of a latency: the value itself below 256 ns; then the
 * position p of the top bit and the 7 bits under it; past the linear
 * range, one bucket per top-bit position.  One predictable branch.
 */
static inline unsigned hist_index(uint64_t ns)
{
	unsigned p = 63u - (unsigned)__builtin_clzll(ns | 1);   /* 0 for 0 and 1 */
	unsigned s = p > HIST_SUB_BITS ? p - HIST_SUB_BITS : 0;

	if (__builtin_expect(p > HIST_TOP_BIT, 0))
		return HIST_LINEAR + p - (HIST_TOP_BIT + 1);
	return (s << HIST_SUB_BITS) + (unsigned)(ns >> s);
}

/*
 * Hot path: add one latency.  The owner's stores are relaxed atomics so
 * that a live reader sees whole words (a reader may still see the two
 * halves of the sum of squares from different ops: hist_load).
 */
static inline void hist_record(struct hist *h, uint64_t ns)
{
	unsigned i = hist_index(ns);
	unsigned __int128 sq = ((unsigned __int128)h->sumsq_hi << 64 | h->sumsq_lo) +
			       (unsigned __int128)ns * ns;

	__atomic_store_n(&h->b[i], h->b[i] + 1, __ATOMIC_RELAXED);
	__atomic_store_n(&h->sumsq_lo, (uint64_t)sq, __ATOMIC_RELAXED);
	__atomic_store_n(&h->sumsq_hi, (uint64_t)(sq >> 64), __ATOMIC_RELAXED);
}

void hist_init(struct hist *h);

/* Lowest value of bucket `i` and its width (values low .. low+width-1). */
uint64_t hist_bucket_low(unsigned i);
uint64_t hist_bucket_width(unsigned i);

/* dst += src: exact (counts and sums of squares add). */
void hist_merge(struct hist *dst, const struct hist *src);

/* *dst = `src` read word by word while its owner may be recording. */
void hist_load(struct hist *dst, const struct hist *src);

/* *out = cur - prev, word by word (a torn read never goes below 0). */
void hist_diff(struct hist *out, const struct hist *cur, const struct hist *prev);

/* Ops recorded (the sum of the buckets). */
uint64_t hist_count(const struct hist *h);

/*
 * The q-th percentile (0 < q <= 100, to 9 decimals), nearest rank: the
 * bucket holding the ceil(q/100 * n)-th smallest latency, reported as
 * the bucket's midpoint clamped to [min_ns, max_ns] (the data's exact
 * extremes, which the caller keeps; ranks 1 and n are those extremes).
 * 0 when empty.  Within 1/256 (0.4 %) of the exact value for latencies
 * below 2^42 ns.
 */
double hist_percentile(const struct hist *h, double q, uint64_t min_ns,
		       uint64_t max_ns);

/*
 * Sample standard deviation (divisor n - 1) of n latencies summing to
 * sum_ns, from the exact integer sum of squares: exact up to the final
 * rounding to double.  0 for n < 2 or an inconsistent (torn) snapshot.
 */
double hist_stdev(const struct hist *h, uint64_t n, uint64_t sum_ns);

/* filebench's power-of-two bucket of a latency (at most 63). */
unsigned hist_pow2_bucket(uint64_t ns);

/* out[HIST_POW2_BUCKETS] = the same ops in power-of-two buckets (exact). */
void hist_to_pow2(const struct hist *h, uint64_t *out);

#endif
