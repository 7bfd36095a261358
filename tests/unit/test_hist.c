/*
 * test_hist.c - the log-linear latency histogram against exact answers:
 * percentiles of 10^6-sample distributions versus sorting, bucket
 * layout (contiguous, powers of two are boundaries, width <= 1/128),
 * merging versus recording everything in one, the conversion to
 * filebench's power-of-two buckets, and mean/stdev versus two passes.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/measure/hist.h"

#include "tests/unit/check_main.h"

#define NSAMPLES 1000000

/* splitmix64: a self-contained, reproducible sample stream. */
static uint64_t next_u64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double next_unit(uint64_t *s)          /* (0, 1) */
{
	return ((double)(next_u64(s) >> 11) + 0.5) / 9007199254740992.0;
}

enum dist { UNIFORM, EXPONENTIAL, LOGNORMAL, BIMODAL, LOGUNIFORM, NDIST };

static uint64_t sample(enum dist d, uint64_t *s)
{
	double u = next_unit(s), v;

	switch (d) {
	case UNIFORM:          /* 1 ns .. 1 ms */
		return 1 + next_u64(s) % 1000000;
	case EXPONENTIAL:      /* mean 50 us */
		return (uint64_t)(-log(u) * 50000.0);
	case LOGNORMAL:        /* median ~ 20 us, heavy tail */
		v = sqrt(-2 * log(u)) * cos(2 * M_PI * next_unit(s));
		return (uint64_t)(20000.0 * exp(1.5 * v));
	case BIMODAL:          /* cached hits ~ 800 ns, misses ~ 5 ms */
		return u < 0.9 ? 700 + next_u64(s) % 200 : 4000000 + next_u64(s) % 2000000;
	case LOGUNIFORM:       /* 1 ns .. 1 hour, every power of two */
		return (uint64_t)exp(u * log(3.6e12));
	default:
		return 0;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Exact nearest rank for q given in thousandths of a percent. */
static uint64_t exact_pct(const uint64_t *sorted, uint64_t n, uint64_t q_milli)
{
	uint64_t rank = (q_milli * n + 100000 - 1) / 100000;

	return sorted[(rank ? rank : 1) - 1];
}

static const uint64_t q_milli[] = {
	1, 1000, 10000, 25000, 50000, 75000, 90000, 95000, 99000,
	99900, 99990, 99999, 100000,
};

START_TEST(test_percentiles_match_sorting)
{
	enum dist d = (enum dist)_i;
	uint64_t *x = malloc(NSAMPLES * sizeof(*x));
	struct hist *h = malloc(sizeof(*h));
	uint64_t seed = 42 + (uint64_t)d, mn = UINT64_MAX, mx = 0;

	ck_assert_ptr_nonnull(x);
	ck_assert_ptr_nonnull(h);
	hist_init(h);
	for (int i = 0; i < NSAMPLES; i++) {
		x[i] = sample(d, &seed);
		hist_record(h, x[i]);
		mn = x[i] < mn ? x[i] : mn;
		mx = x[i] > mx ? x[i] : mx;
	}
	ck_assert_uint_eq(hist_count(h), NSAMPLES);
	qsort(x, NSAMPLES, sizeof(*x), cmp_u64);
	for (size_t k = 0; k < sizeof(q_milli) / sizeof(q_milli[0]); k++) {
		double q = (double)q_milli[k] / 1000.0;
		double exact = (double)exact_pct(x, NSAMPLES, q_milli[k]);
		double got = hist_percentile(h, q, mn, mx);

		/* the promise: 1 % (+1 ns); the design: half a bucket, 1/256 */
		ck_assert_msg(fabs(got - exact) <= exact * 0.01 + 1,
			      "dist %d p%g: %.1f vs exact %.1f", d, q, got, exact);
		ck_assert_msg(fabs(got - exact) <= exact / 256.0 + 0.5,
			      "dist %d p%g: %.1f vs exact %.1f (> 1/256)", d, q, got, exact);
	}
	ck_assert(hist_percentile(h, 100, mn, mx) == (double)mx);
	free(x);
	free(h);
}
END_TEST

START_TEST(test_small_values_exact)
{
	struct hist *h = malloc(sizeof(*h));

	hist_init(h);
	for (uint64_t v = 0; v < 256; v++)
		hist_record(h, v);                 /* 256 values, one each */
	ck_assert(hist_percentile(h, 50, 0, 255) == 127.0);
	ck_assert(hist_percentile(h, 0.1, 0, 255) == 0.0);
	ck_assert(hist_percentile(h, 100, 0, 255) == 255.0);
	/* q is taken as written: 99.6 % of 250 is rank 249, not 250 */
	hist_init(h);
	for (uint64_t v = 1; v <= 250; v++)
		hist_record(h, v);
	ck_assert(hist_percentile(h, 99.6, 1, 250) == 249.0);
	ck_assert(hist_percentile(h, 99.7, 1, 250) == 250.0);
	ck_assert(hist_percentile(h, 0.8, 1, 250) == 2.0);
	ck_assert(hist_percentile(h, 0.81, 1, 250) == 3.0);
	hist_init(h);
	ck_assert(hist_percentile(h, 50, UINT64_MAX, 0) == 0.0);
	free(h);
}
END_TEST

START_TEST(test_bucket_layout)
{
	uint64_t prev_end = 0;

	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		uint64_t lo = hist_bucket_low(i), w = hist_bucket_width(i);

		ck_assert_uint_eq(lo, prev_end);              /* contiguous */
		ck_assert_uint_eq(hist_index(lo), i);
		ck_assert_uint_eq(hist_index(lo + (w - 1)), i);
		if (i < HIST_LINEAR && lo >= 256)
			ck_assert_uint_le(w * HIST_SUB, lo);  /* width <= 1/128 */
		if (i < 256)
			ck_assert_uint_eq(w, 1);              /* exact */
		prev_end = lo + w;                            /* 0 after the last */
	}
	ck_assert_uint_eq(prev_end, 0);                       /* covers 2^64 - 1 */
	ck_assert_uint_eq(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
	/* one hour is in the linear range */
	ck_assert_uint_lt(hist_index(3600ull * 1000000000ull), HIST_LINEAR);
	ck_assert_uint_ge(hist_index(1ull << (HIST_TOP_BIT + 1)), HIST_LINEAR);
	/* every power of two starts a bucket */
	for (unsigned p = 1; p < 64; p++) {
		uint64_t v = 1ull << p;

		ck_assert_uint_ne(hist_index(v - 1), hist_index(v));
		ck_assert_uint_eq(hist_bucket_low(hist_index(v)), v);
	}
	ck_assert_uint_le(sizeof(struct hist), 48 * 1024);
}
END_TEST

START_TEST(test_merge_equals_one)
{
	struct hist *all = malloc(sizeof(*all)), *part = malloc(4 * sizeof(*part));
	struct hist *sum = malloc(sizeof(*sum));
	uint64_t seed = 7;

	hist_init(all);
	hist_init(sum);
	for (int k = 0; k < 4; k++)
		hist_init(&part[k]);
	for (int i = 0; i < 200000; i++) {
		uint64_t v = sample((enum dist)(i % NDIST), &seed);

		hist_record(all, v);
		hist_record(&part[i % 4], v);
	}
	for (int k = 0; k < 4; k++)
		hist_merge(sum, &part[k]);
	ck_assert_int_eq(memcmp(all, sum, sizeof(*all)), 0);
	free(all);
	free(part);
	free(sum);
}
END_TEST

START_TEST(test_load_and_diff)
{
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct hist *d = malloc(sizeof(*d));

	hist_init(a);
	hist_record(a, 3000000000000ull);     /* 50 min: sumsq past 2^64 */
	hist_record(a, 5);
	hist_load(b, a);
	ck_assert_int_eq(memcmp(a, b, sizeof(*a)), 0);
	hist_record(a, 5);
	hist_record(a, 1ull << 50);           /* an overflow bucket */
	hist_diff(d, a, b);
	ck_assert_uint_eq(hist_count(d), 2);
	ck_assert_uint_eq(d->b[5], 1);
	ck_assert_uint_eq(d->b[hist_index(1ull << 50)], 1);
	ck_assert_uint_eq(d->sumsq_lo, 25);   /* 25 + 2^100 */
	ck_assert_uint_eq(d->sumsq_hi, 1ull << 36);
	hist_diff(d, b, a);                   /* a torn read: never negative */
	ck_assert_uint_eq(hist_count(d), 0);
	free(a);
	free(b);
	free(d);
}
END_TEST

/* Reference bucket of filebench's histogram: 0, or floor(log2)+1 <= 63. */
static unsigned pow2_ref(uint64_t v)
{
	unsigned b = 0;

	while (v) {
		b++;
		v >>= 1;
	}
	return b > 63 ? 63 : b;
}

START_TEST(test_pow2_conversion)
{
	struct hist *h = malloc(sizeof(*h));
	uint64_t want[HIST_POW2_BUCKETS] = { 0 }, got[HIST_POW2_BUCKETS];
	uint64_t seed = 99;
	static const uint64_t edges[] = { 0, 1, 2, 3, 4, 255, 256, 1023, 1024,
					  (1ull << 42) - 1, 1ull << 42, 1ull << 62,
					  (1ull << 62) - 1, 1ull << 63, UINT64_MAX };

	hist_init(h);
	for (size_t k = 0; k < sizeof(edges) / sizeof(edges[0]); k++) {
		ck_assert_uint_eq(hist_pow2_bucket(edges[k]), pow2_ref(edges[k]));
		hist_record(h, edges[k]);
		want[pow2_ref(edges[k])]++;
	}
	for (int i = 0; i < 300000; i++) {
		uint64_t v = sample((enum dist)(i % NDIST), &seed);

		hist_record(h, v);
		want[pow2_ref(v)]++;
	}
	hist_to_pow2(h, got);
	for (int b = 0; b < HIST_POW2_BUCKETS; b++)
		ck_assert_msg(got[b] == want[b], "bucket %d: %llu vs %llu", b,
			      (unsigned long long)got[b], (unsigned long long)want[b]);
	free(h);
}
END_TEST

/* Two passes in long double: the reference mean and sample stdev. */
static void ref_stdev(const uint64_t *x, int n, long double *mean, long double *sd)
{
	long double s = 0, m2 = 0;

	for (int i = 0; i < n; i++)
		s += x[i];
	*mean = s / n;
	for (int i = 0; i < n; i++)
		m2 += ((long double)x[i] - *mean) * ((long double)x[i] - *mean);
	*sd = sqrtl(m2 / (n - 1));
}

START_TEST(test_stdev_exact)
{
	static const uint64_t small[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct hist *h = malloc(sizeof(*h));
	uint64_t *x = malloc(NSAMPLES * sizeof(*x)), seed = 3, sum = 0;
	long double mean, sd;

	hist_init(h);
	for (int i = 0; i < 8; i++)
		hist_record(h, small[i]);
	ck_assert_double_eq_tol(hist_stdev(h, 8, 40), sqrt(32.0 / 7.0), 1e-15);
	ck_assert(hist_stdev(h, 1, 2) == 0.0);
	/* large latencies (sum of squares far past 2^64) and a tiny spread */
	for (enum dist d = 0; d <= NDIST; d++) {
		hist_init(h);
		sum = 0;
		for (int i = 0; i < NSAMPLES; i++) {
			x[i] = d < NDIST ? sample(d, &seed)
					 : 3000000000000ull + next_u64(&seed) % 3;
			hist_record(h, x[i]);
			sum += x[i];
		}
		ref_stdev(x, NSAMPLES, &mean, &sd);
		ck_assert_double_eq_tol((double)sum / NSAMPLES, (double)mean,
					1e-9 * (double)mean);
		ck_assert_msg(fabsl(hist_stdev(h, NSAMPLES, sum) - sd) <= sd * 1e-9,
			      "dist %d: stdev %.6f vs %.6Lf", d,
			      hist_stdev(h, NSAMPLES, sum), sd);
	}
	free(h);
	free(x);
}
END_TEST

static Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("hist");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_percentiles_match_sorting, 0, NDIST);
	tcase_add_test(tc, test_small_values_exact);
	tcase_add_test(tc, test_bucket_layout);
	tcase_add_test(tc, test_merge_equals_one);
	tcase_add_test(tc, test_load_and_diff);
	tcase_add_test(tc, test_pow2_conversion);
	tcase_add_test(tc, test_stdev_exact);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(hist_suite)
