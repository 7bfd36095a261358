/*
 * hist.c - the reporting side of the latency histogram (hist.h): bucket
 * bounds, merging, live loads, differences, percentiles, the standard
 * deviation and the conversion to filebench's power-of-two buckets.
 * None of it runs on the hot path.
 */
#include "runtime/measure/hist.h"

#include <math.h>
#include <string.h>

typedef unsigned __int128 u128;

static u128 sumsq(const struct hist *h)
{
	return (u128)h->sumsq_hi << 64 | h->sumsq_lo;
}

static void set_sumsq(struct hist *h, u128 v)
{
	h->sumsq_lo = (uint64_t)v;
	h->sumsq_hi = (uint64_t)(v >> 64);
}

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

uint64_t hist_bucket_low(unsigned i)
{
	unsigned s;

	if (i < 2 * HIST_SUB)
		return i;
	if (i < HIST_LINEAR) {
		s = (i >> HIST_SUB_BITS) - 1;
		return (uint64_t)((i & (HIST_SUB - 1)) | HIST_SUB) << s;
	}
	return 1ull << (i - HIST_LINEAR + HIST_TOP_BIT + 1);
}

uint64_t hist_bucket_width(unsigned i)
{
	if (i < 2 * HIST_SUB)
		return 1;
	if (i < HIST_LINEAR)
		return 1ull << ((i >> HIST_SUB_BITS) - 1);
	return hist_bucket_low(i);   /* [2^p, 2^(p+1)) */
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	set_sumsq(dst, sumsq(dst) + sumsq(src));
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] += src->b[i];
}

void hist_load(struct hist *dst, const struct hist *src)
{
	dst->sumsq_lo = __atomic_load_n(&src->sumsq_lo, __ATOMIC_RELAXED);
	dst->sumsq_hi = __atomic_load_n(&src->sumsq_hi, __ATOMIC_RELAXED);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		dst->b[i] = __atomic_load_n(&src->b[i], __ATOMIC_RELAXED);
}

void hist_diff(struct hist *out, const struct hist *cur, const struct hist *prev)
{
	u128 a = sumsq(cur), b = sumsq(prev);

	set_sumsq(out, a > b ? a - b : 0);
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		out->b[i] = cur->b[i] > prev->b[i] ? cur->b[i] - prev->b[i] : 0;
}

uint64_t hist_count(const struct hist *h)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		n += h->b[i];
	return n;
}

/*
 * ceil(q/100 * n) in [1, n], in integers: q is taken to 9 decimals, so
 * q = 99.9 is exactly 99.9 and not the binary double just above it.
 */
static uint64_t nearest_rank(double q, uint64_t n)
{
	const u128 scale = 100000000000ull;     /* 100 x 1e9 */
	u128 qs, r;

	if (!(q > 0))
		return 1;
	if (q >= 100)
		return n;
	qs = (u128)llround(q * 1e9);
	r = (qs * n + scale - 1) / scale;
	if (r < 1)
		r = 1;
	return r > n ? n : (uint64_t)r;
}

double hist_percentile(const struct hist *h, double q, uint64_t min_ns,
		       uint64_t max_ns)
{
	uint64_t n = hist_count(h), rank, seen = 0;
	double v;

	if (n == 0)
		return 0;
	rank = nearest_rank(q, n);
	if (rank == n)
		return (double)max_ns;     /* the extremes are known exactly */
	if (rank == 1)
		return (double)min_ns;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->b[i];
		if (seen < rank)
			continue;
		v = (double)hist_bucket_low(i) + (double)(hist_bucket_width(i) - 1) / 2;
		if (v < (double)min_ns)
			v = (double)min_ns;
		if (v > (double)max_ns)
			v = (double)max_ns;
		return v;
	}
	return (double)max_ns;     /* not reached: seen ends at n >= rank */
}

/*
 * With sum = qn + r (0 <= r < n): sum^2/n = q^2 n + 2qr + r^2/n, so the
 * sum of squared deviations is sumsq - q^2 n - 2qr (an exact integer,
 * never negative for consistent data) minus r^2/n (< n).
 */
double hist_stdev(const struct hist *h, uint64_t n, uint64_t sum_ns)
{
	u128 ss = sumsq(h), qq, sub;
	uint64_t q, r;
	long double m2;

	if (n < 2)
		return 0;
	q = sum_ns / n;
	r = sum_ns % n;
	if (q >> 60)
		return 0;                          /* beyond any real latency */
	qq = (u128)q * q;
	if (qq && (u128)n > ((u128)-1) / qq)
		return 0;                          /* cannot be consistent */
	sub = qq * n;
	if (sub > (u128)-1 - (u128)2 * q * r)
		return 0;
	sub += (u128)2 * q * r;
	if (ss < sub)
		return 0;                          /* torn live snapshot */
	m2 = (long double)(ss - sub) - (long double)r * (long double)r / (long double)n;
	if (m2 <= 0)
		return 0;
	return (double)sqrtl(m2 / (long double)(n - 1));
}

unsigned hist_pow2_bucket(uint64_t ns)
{
	unsigned b = 64u - (unsigned)__builtin_clzll(ns | 1);   /* 1..64 */

	b -= (ns == 0);
	return b > HIST_POW2_BUCKETS - 1 ? HIST_POW2_BUCKETS - 1 : b;
}

/* Every bucket lies inside one power of two, so this is exact. */
void hist_to_pow2(const struct hist *h, uint64_t *out)
{
	memset(out, 0, HIST_POW2_BUCKETS * sizeof(*out));
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (h->b[i])
			out[hist_pow2_bucket(hist_bucket_low(i))] += h->b[i];
	}
}
