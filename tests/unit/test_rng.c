/*
 * test_rng.c - the per-thread generator: rng_below stays in range, is
 * uniform (chi-square, fixed seed) and unbiased for awkward bounds; random
 * block offsets reach every block including the last; seeding by thread
 * identity is reproducible and distinct.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/rng.h"

#include "tests/unit/check_main.h"

START_TEST(test_below_range)
{
	static const uint64_t bounds[] = {
		1, 2, 3, 7, 10, 1000, 1000000007ull, (1ull << 63) + 1, UINT64_MAX,
	};
	struct rng r;

	rng_seed(&r, 42);
	ck_assert_uint_eq(rng_below(&r, 0), 0);
	for (size_t b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
		for (int i = 0; i < 10000; i++)
			ck_assert(rng_below(&r, bounds[b]) < bounds[b]);
	}
	for (int i = 0; i < 100; i++)
		ck_assert_uint_eq(rng_below(&r, 1), 0);
}
END_TEST

/* Chi-square over 10 buckets, 9 degrees of freedom: 27.88 is p = 0.001. */
START_TEST(test_below_uniform)
{
	enum { K = 10, N = 200000 };
	uint64_t hist[K] = { 0 };
	double chi2 = 0, expect = (double)N / K;
	struct rng r;

	rng_seed_thread(&r, 0, 0, 0, 1, 0);
	for (int i = 0; i < N; i++)
		hist[rng_below(&r, K)]++;
	for (int k = 0; k < K; k++)
		chi2 += ((double)hist[k] - expect) * ((double)hist[k] - expect) / expect;
	ck_assert_msg(chi2 < 27.88, "chi-square %.2f too large", chi2);
}
END_TEST

/*
 * With n = 3 * 2^62, plain `x % n` would give values below 2^62 half the
 * time instead of a third: Lemire's method must not.
 */
START_TEST(test_below_unbiased)
{
	const uint64_t n = 3ull << 62;
	const int N = 300000;
	int low = 0;
	struct rng r;

	rng_seed(&r, 7);
	for (int i = 0; i < N; i++)
		low += rng_below(&r, n) < (1ull << 62);
	ck_assert_msg(low > N / 3 - 2000 && low < N / 3 + 2000,
		      "%d of %d below 2^62, expected about %d", low, N, N / 3);
}
END_TEST

START_TEST(test_offsets_cover_last_block)
{
	const uint64_t iosize = 8192, nblocks = 8;
	int seen[8] = { 0 };
	struct rng r;

	rng_seed_thread(&r, 0, 0, 0, 0, 0);
	for (int i = 0; i < 2000; i++) {
		uint64_t off = rng_block_offset(&r, nblocks, iosize);

		ck_assert_uint_eq(off % iosize, 0);
		ck_assert(off + iosize <= nblocks * iosize);
		seen[off / iosize]++;
	}
	for (int b = 0; b < 8; b++)
		ck_assert_msg(seen[b] > 150, "block %d chosen %d times", b, seen[b]);
	/* wss = 2 x iosize: both blocks, not always offset 0 as in filebench */
	memset(seen, 0, sizeof(seen));
	for (int i = 0; i < 100; i++)
		seen[rng_block_offset(&r, 2, iosize) / iosize]++;
	ck_assert(seen[0] > 0 && seen[1] > 0);
}
END_TEST

START_TEST(test_seed_reproducible)
{
	struct rng a, b, c, d;
	int same = 0, same_seed = 0;

	rng_seed_thread(&a, 9, 1, 2, 3, 4);
	rng_seed_thread(&b, 9, 1, 2, 3, 4);
	rng_seed_thread(&c, 9, 1, 2, 4, 3);
	rng_seed_thread(&d, 10, 1, 2, 3, 4);     /* another --seed */
	for (int i = 0; i < 100; i++) {
		uint64_t x = rng_next(&a);

		ck_assert_uint_eq(x, rng_next(&b));
		same += x == rng_next(&c);
		same_seed += x == rng_next(&d);
	}
	ck_assert_int_eq(same, 0);
	ck_assert_int_eq(same_seed, 0);
}
END_TEST

static Suite *rng_suite(void)
{
	Suite *s = suite_create("rng");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_below_range);
	tcase_add_test(tc, test_below_uniform);
	tcase_add_test(tc, test_below_unbiased);
	tcase_add_test(tc, test_offsets_cover_last_block);
	tcase_add_test(tc, test_seed_reproducible);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(rng_suite)
