/*
 * test_bmap.c - the random map of randommap with blockalign
 * (runtime/base/bmap.h), against a plain array of flags: for maps of 1,
 * 63, 64, 65, 4096 and 2^20+3 blocks, filled in a random order, the next
 * free block from any point (wrapping to the start), runs that stop at a
 * block done already or at the map's end, a full map (BMAP_NONE), a new
 * pass after bmap_clear(), and bmap_bytes() equal to what bmap_init()
 * allocates and to one bit per block plus the levels above.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/bmap.h"
#include "runtime/base/rng.h"

#include "tests/unit/check_main.h"

static const uint64_t sizes[] = { 1, 63, 64, 65, 4096, (1u << 20) + 3 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))

/* The reference: the first block not done at or after b, else from 0. */
static uint64_t naive_next_free(const uint8_t *done, uint64_t n, uint64_t b)
{
	for (uint64_t i = b; i < n; i++)
		if (!done[i])
			return i;
	for (uint64_t i = 0; i < b && i < n; i++)
		if (!done[i])
			return i;
	return BMAP_NONE;
}

/* Bytes of a map of n bits: each level one bit per word below, up to one word. */
static uint64_t expected_bytes(uint64_t n)
{
	uint64_t bytes = 0, words;

	do {
		words = (n + 63) / 64;
		bytes += 8 * words;
		n = words;
	} while (words > 1);
	return bytes;
}

/* The map agrees with `done` for `q` random points and every block near the ends. */
static void agree(const struct bmap *m, const uint8_t *done, uint64_t n,
		  struct rng *r, int q)
{
	for (int i = 0; i < q + 6; i++) {
		uint64_t b = i < 3 ? (uint64_t)i : i < 6 ? n - 1 - (uint64_t)(i - 3) :
			     rng_below(r, n);

		if (b >= n)
			continue;
		if (bmap_isset(m, b) != (done[b] != 0))
			ck_abort_msg("n=%llu: block %llu is%s set", (unsigned long long)n,
				     (unsigned long long)b, done[b] ? " not" : "");
		if (bmap_next_free(m, b) != naive_next_free(done, n, b))
			ck_abort_msg("n=%llu: next free from %llu is %llu, not %llu",
				     (unsigned long long)n, (unsigned long long)b,
				     (unsigned long long)bmap_next_free(m, b),
				     (unsigned long long)naive_next_free(done, n, b));
	}
}

START_TEST(test_bytes)
{
	for (size_t i = 0; i < NSIZES; i++) {
		struct bmap m;
		uint64_t alloc = 0;

		ck_assert_int_eq(bmap_init(&m, sizes[i]), 0);
		for (int k = 0; k < m.nlevels; k++)
			alloc += m.nwords[k] * sizeof(uint64_t);
		ck_assert_uint_eq(bmap_bytes(sizes[i]), alloc);
		ck_assert_uint_eq(bmap_bytes(sizes[i]), expected_bytes(sizes[i]));
		bmap_free(&m);
	}
	/* 2^20 + 3 blocks: 16385 + 257 + 5 + 1 words */
	ck_assert_uint_eq(bmap_bytes((1u << 20) + 3), 8 * (16385 + 257 + 5 + 1));
	ck_assert_uint_eq(bmap_bytes(64), 8);
	ck_assert_uint_eq(bmap_bytes(65), 8 * 3);
}
END_TEST

/*
 * Fill each map one block at a time in a random order (a block drawn,
 * or the next free one, as io_random_mapped() does), checking the map
 * against the array along the way; then full: BMAP_NONE from anywhere;
 * then cleared: a new pass with nothing done.
 */
START_TEST(test_fill_random_order)
{
	struct rng r;

	rng_seed(&r, 22);
	for (size_t i = 0; i < NSIZES; i++) {
		uint64_t n = sizes[i];
		uint8_t *done = calloc(n, 1);
		struct bmap m;
		uint64_t next_check = 0;

		ck_assert_ptr_nonnull(done);
		ck_assert_int_eq(bmap_init(&m, n), 0);
		for (uint64_t k = 0; k < n; k++) {
			uint64_t b = rng_below(&r, n);

			if (k == next_check) {      /* 0, 1, 3, 7, ... and near the end */
				agree(&m, done, n, &r, 20);
				next_check = 2 * next_check + 1;
			}
			if (k + 2 >= n)
				agree(&m, done, n, &r, 20);
			if (bmap_isset(&m, b))
				b = bmap_next_free(&m, b);
			if (b == BMAP_NONE || done[b])
				ck_abort_msg("n=%llu: no free block found after %llu of them",
					     (unsigned long long)n, (unsigned long long)k);
			if (bmap_set_run(&m, b, 1) != 1)
				ck_abort_msg("n=%llu: block %llu not marked",
					     (unsigned long long)n, (unsigned long long)b);
			done[b] = 1;
		}
		ck_assert_uint_eq(m.nset, n);
		for (uint64_t b = 0; b < n && b < 200; b++)
			ck_assert_uint_eq(bmap_next_free(&m, b), BMAP_NONE);
		ck_assert_uint_eq(bmap_next_free(&m, n - 1), BMAP_NONE);
		ck_assert_uint_eq(bmap_set_run(&m, n - 1, 1), 0);
		bmap_clear(&m);
		memset(done, 0, n);
		ck_assert_uint_eq(m.nset, 0);
		agree(&m, done, n, &r, 50);
		ck_assert_uint_eq(bmap_next_free(&m, n - 1), n - 1);
		free(done);
		bmap_free(&m);
	}
}
END_TEST

/* The next free block wraps to the start when none is left after b. */
START_TEST(test_next_free_wraps)
{
	for (size_t i = 1; i < NSIZES; i++) {
		uint64_t n = sizes[i], from = n / 2;
		struct bmap m;

		ck_assert_int_eq(bmap_init(&m, n), 0);
		ck_assert_uint_eq(bmap_set_run(&m, from, n - from), n - from);
		ck_assert_uint_eq(bmap_next_free(&m, from), 0);
		ck_assert_uint_eq(bmap_next_free(&m, n - 1), 0);
		ck_assert_uint_eq(bmap_set_run(&m, 0, 1), 1);
		ck_assert_uint_eq(bmap_next_free(&m, n - 1), from > 1 ? 1 : BMAP_NONE);
		/* past the end: not a block */
		ck_assert_uint_eq(bmap_next_free(&m, n), n > 2 ? 1 : BMAP_NONE);
		bmap_free(&m);
	}
}
END_TEST

/* A run stops before the first block done already, and at the map's end. */
START_TEST(test_set_run_stops)
{
	struct bmap m;

	ck_assert_int_eq(bmap_init(&m, 4096), 0);
	ck_assert_uint_eq(bmap_set_run(&m, 70, 1), 1);
	ck_assert_uint_eq(bmap_set_run(&m, 60, 32), 10);        /* 60..69, across a word */
	for (uint64_t b = 60; b <= 70; b++)
		ck_assert(bmap_isset(&m, b));
	ck_assert(!bmap_isset(&m, 59) && !bmap_isset(&m, 71));
	ck_assert_uint_eq(bmap_next_free(&m, 60), 71);
	ck_assert_uint_eq(bmap_set_run(&m, 4090, 32), 6);       /* the map's end */
	ck_assert_uint_eq(bmap_next_free(&m, 4090), 0);
	ck_assert_uint_eq(m.nset, 17);
	/* a whole word filled by runs: the level above says so */
	ck_assert_uint_eq(bmap_set_run(&m, 128, 64), 64);
	ck_assert_uint_eq(bmap_next_free(&m, 128), 192);
	ck_assert_uint_eq(bmap_set_run(&m, 0, 60), 60);
	ck_assert_uint_eq(bmap_set_run(&m, 71, 57), 57);
	ck_assert_uint_eq(bmap_next_free(&m, 0), 192);
	bmap_free(&m);

	/* one block: done, then nothing free, then a new pass */
	ck_assert_int_eq(bmap_init(&m, 1), 0);
	ck_assert_uint_eq(bmap_next_free(&m, 0), 0);
	ck_assert_uint_eq(bmap_set_run(&m, 0, 8), 1);
	ck_assert_uint_eq(bmap_next_free(&m, 0), BMAP_NONE);
	bmap_clear(&m);
	ck_assert_uint_eq(bmap_next_free(&m, 0), 0);
	bmap_free(&m);
}
END_TEST

static Suite *bmap_suite(void)
{
	Suite *s = suite_create("bmap");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_bytes);
	tcase_add_test(tc, test_fill_random_order);
	tcase_add_test(tc, test_next_free_wraps);
	tcase_add_test(tc, test_set_run_stops);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(bmap_suite)
