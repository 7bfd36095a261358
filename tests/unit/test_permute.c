/*
 * test_permute.c - randommap's block permutation (runtime/base/permute.h):
 * every block exactly once per pass for awkward sizes (1, 2, 3, primes,
 * powers of two and one more, both sides of the table/network limit), a
 * new order each pass, and orders that
 * look random: chi-square over which block lands at which position (an
 * identity fails) and over the step between consecutive blocks (a
 * stride, even from a random start, fails).
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/permute.h"

#include "tests/unit/check_main.h"

/* Three passes of n blocks: each block seen exactly once in each. */
static void check_passes(uint64_t n)
{
	struct permute pm;
	struct rng r;
	uint8_t *seen = malloc(n);

	ck_assert_ptr_nonnull(seen);
	rng_seed(&r, 7 + n);
	permute_start(&pm, n, &r);
	for (int pass = 1; pass <= 3; pass++) {
		memset(seen, 0, n);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t b = permute_next(&pm, &r);

			/* (no ck_assert per block: each one writes to Check's pipe) */
			if (b >= n)
				ck_abort_msg("n=%llu: block %llu out of range",
					     (unsigned long long)n, (unsigned long long)b);
			if (seen[b])
				ck_abort_msg("n=%llu pass %d: block %llu twice",
					     (unsigned long long)n, pass, (unsigned long long)b);
			seen[b] = 1;
		}
		ck_assert_uint_eq(pm.passes, (uint64_t)pass);
	}
	free(seen);
}

START_TEST(test_every_block_once_per_pass)
{
	static const uint64_t sizes[] = {
		1, 2, 3, 4, 5, 7, 8, 13, 63, 64, 65, 97, 1000, 1024, 1025, 4099, 65536,
		65537, 1000003,
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		check_passes(sizes[i]);
}
END_TEST

/* Two passes of 1000 blocks: not the same order (new keys each pass). */
START_TEST(test_new_order_each_pass)
{
	enum { N = 1000 };
	uint64_t first[N];
	struct permute pm;
	struct rng r;
	int same = 0;

	rng_seed(&r, 3);
	permute_start(&pm, N, &r);
	for (int i = 0; i < N; i++)
		first[i] = permute_next(&pm, &r);
	for (int i = 0; i < N; i++)
		same += permute_next(&pm, &r) == first[i];
	ck_assert_int_lt(same, 20);       /* about 1 expected by chance */
}
END_TEST

/*
 * Pearson's chi-square of `cells` counts against a uniform expectation,
 * compared with a bound well above its p = 0.001 point: df + 4.5 sqrt(2 df)
 * (the normal approximation, for df in the hundreds).
 */
static void check_uniform(const uint64_t *count, int cells, uint64_t total,
			  const char *what, uint64_t n)
{
	double expect = (double)total / cells, chi2 = 0;
	double df = cells - 1, bound = df + 4.5 * __builtin_sqrt(2 * df);

	for (int c = 0; c < cells; c++)
		chi2 += ((double)count[c] - expect) * ((double)count[c] - expect) / expect;
	ck_assert_msg(chi2 < bound, "n=%llu %s: chi-square %.1f over %d cells (bound %.1f)",
		      (unsigned long long)n, what, chi2, cells, bound);
}

/*
 * Many passes of n blocks: the block at each position of the pass is
 * uniform (n*n cells), and so is the step from one block to the next
 * modulo n (n-1 cells, 0 impossible).
 */
static void check_random_orders(uint64_t n, int passes)
{
	uint64_t *at = calloc(n * n, sizeof(*at)), *step = calloc(n, sizeof(*step));
	struct permute pm;
	struct rng r;

	ck_assert(at && step);
	rng_seed(&r, 11 + n);
	permute_start(&pm, n, &r);
	for (int p = 0; p < passes; p++) {
		uint64_t prev = 0;

		for (uint64_t i = 0; i < n; i++) {
			uint64_t b = permute_next(&pm, &r);

			at[i * n + b]++;
			if (i)
				step[(b + n - prev) % n]++;
			prev = b;
		}
	}
	ck_assert_uint_eq(step[0], 0);
	check_uniform(at, (int)(n * n), n * (uint64_t)passes, "block by position", n);
	check_uniform(step + 1, (int)n - 1, (n - 1) * (uint64_t)passes,
		      "step between consecutive blocks", n);
	free(at);
	free(step);
}

START_TEST(test_orders_look_random)
{
	check_random_orders(16, 20000);     /* small: the shuffled table */
	check_random_orders(23, 10000);
	check_random_orders(65, 5000);      /* the network, on 7 bits: cycle walking */
	check_random_orders(101, 3000);
	check_random_orders(256, 2000);     /* a power of two: no cycle walking */
}
END_TEST

/*
 * The network as first written, one Feistel round at a time, packing the
 * value after each: permute_network() computes two rounds in place, and
 * must give the same permutation (the same order for the same --seed).
 */
static uint64_t packed_round(uint64_t x, unsigned a, uint64_t a_mask, unsigned b,
			     uint64_t b_mask, uint64_t key)
{
	uint64_t hi = x >> b, lo = x & b_mask;

	return (lo << a) | (hi ^ (permute_mix(lo ^ key) & a_mask));
}

static uint64_t packed_network(const struct permute *pm, uint64_t x)
{
	for (int i = 0; i < PERMUTE_ROUNDS; i += 2) {
		x = packed_round(x, pm->hi_bits, pm->hi_mask, pm->lo_bits, pm->lo_mask,
				 pm->key[i]);
		x = packed_round(x, pm->lo_bits, pm->lo_mask, pm->hi_bits, pm->hi_mask,
				 pm->key[i + 1]);
	}
	return x;
}

START_TEST(test_network_as_packed_rounds)
{
	static const uint64_t sizes[] = { 65, 101, 256, 257, 4096, 32768, 99999,
					  (1ull << 33) + 5, (1ull << 50) + 123 };
	struct rng r;

	rng_seed(&r, 3);
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		struct permute pm;
		unsigned k;

		permute_start(&pm, sizes[s], &r);
		k = pm.hi_bits + pm.lo_bits;
		for (int pass = 0; pass < 3; pass++, permute_new_pass(&pm, &r))
			for (uint64_t i = 0; i < 5000; i++) {
				uint64_t x = k < 13 ? i % (1ull << k) : rng_next(&r) >> (64 - k);

				ck_assert_uint_eq(permute_network(&pm, x), packed_network(&pm, x));
			}
	}
}
END_TEST

/* The checks themselves catch an identity and a stride from a random start. */
START_TEST(test_checks_catch_patterns)
{
	enum { N = 23, PASSES = 2000 };
	static uint64_t at[N * N], step[N];
	double expect = (double)PASSES / N, chi2 = 0;
	struct rng r;

	rng_seed(&r, 5);
	for (int p = 0; p < PASSES; p++) {
		uint64_t start = rng_below(&r, N);

		for (uint64_t i = 0; i < N; i++)
			at[i * N + (start + 5 * i) % N]++;   /* a stride of 5 */
		step[5] += N - 1;
	}
	for (int c = 0; c < N * N; c++)        /* uniform by position: looks fine */
		chi2 += ((double)at[c] - expect) * ((double)at[c] - expect) / expect;
	ck_assert(chi2 < N * N + 4.5 * __builtin_sqrt(2.0 * N * N));
	chi2 = 0;                              /* but not by step */
	expect = (double)(N - 1) * PASSES / (N - 1);
	for (int c = 1; c < N; c++)
		chi2 += ((double)step[c] - expect) * ((double)step[c] - expect) / expect;
	ck_assert(chi2 > 1000);
}
END_TEST

static Suite *permute_suite(void)
{
	Suite *s = suite_create("permute");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_every_block_once_per_pass);
	tcase_add_test(tc, test_new_order_each_pass);
	tcase_add_test(tc, test_orders_look_random);
	tcase_add_test(tc, test_checks_catch_patterns);
	tcase_add_test(tc, test_network_as_packed_rounds);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(permute_suite)
