/*
 * test_stats.c - recording and merging operation counters: the arithmetic,
 * true minimum and maximum, empty sources, 64-bit counts, and the merged
 * histogram's percentiles, mean and standard deviation.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/measure/stats.h"

#include "tests/unit/check_main.h"

START_TEST(test_init_is_empty)
{
	struct fo_stats s;

	fo_stats_init(&s);
	ck_assert_uint_eq(s.op.count, 0);
	ck_assert_uint_eq(s.op.bytes, 0);
	ck_assert_uint_eq(s.op.lat_sum_ns, 0);
	ck_assert_uint_eq(s.op.lat_min_ns, UINT64_MAX);
	ck_assert_uint_eq(s.op.lat_max_ns, 0);
	ck_assert_uint_eq(s.open.lat_min_ns, UINT64_MAX);
	ck_assert_uint_eq(s.discarded, 0);
}
END_TEST

START_TEST(test_record)
{
	struct op_stats s;

	stats_init(&s);
	stats_record(&s, 300, 8192);
	stats_record(&s, 100, 0);
	stats_record(&s, 200, 4096);
	ck_assert_uint_eq(s.count, 3);
	ck_assert_uint_eq(s.bytes, 12288);
	ck_assert_uint_eq(s.lat_sum_ns, 600);
	ck_assert_uint_eq(s.lat_min_ns, 100);
	ck_assert_uint_eq(s.lat_max_ns, 300);
}
END_TEST

START_TEST(test_merge_true_extremes)
{
	struct op_stats a, b, sum;

	stats_init(&a);
	stats_init(&b);
	stats_init(&sum);
	stats_record(&a, 50, 1);
	stats_record(&a, 70, 1);
	stats_record(&b, 20, 2);
	stats_record(&b, 900, 2);
	stats_merge(&sum, &a);
	stats_merge(&sum, &b);
	ck_assert_uint_eq(sum.count, 4);
	ck_assert_uint_eq(sum.bytes, 6);
	ck_assert_uint_eq(sum.lat_sum_ns, 1040);
	ck_assert_uint_eq(sum.lat_min_ns, 20);
	ck_assert_uint_eq(sum.lat_max_ns, 900);
}
END_TEST

/* A thread that did nothing must not drag the minimum to 0 (filebench's bug). */
START_TEST(test_merge_ignores_empty)
{
	struct op_stats a, empty, sum;

	stats_init(&a);
	stats_init(&empty);
	stats_init(&sum);
	stats_record(&a, 500, 10);
	stats_merge(&sum, &empty);
	ck_assert_uint_eq(sum.count, 0);
	ck_assert_uint_eq(sum.lat_min_ns, UINT64_MAX);
	stats_merge(&sum, &a);
	stats_merge(&sum, &empty);
	ck_assert_uint_eq(sum.count, 1);
	ck_assert_uint_eq(sum.lat_min_ns, 500);
	ck_assert_uint_eq(sum.lat_max_ns, 500);
	/* merging into an empty destination copies the source */
	stats_init(&sum);
	stats_merge(&sum, &a);
	ck_assert_uint_eq(sum.lat_min_ns, 500);
	ck_assert_uint_eq(sum.lat_sum_ns, 500);
}
END_TEST

START_TEST(test_64bit_counts)
{
	struct op_stats a, sum;
	const uint64_t big = (1ull << 32) + 5;

	stats_init(&a);
	stats_init(&sum);
	stats_record(&a, 1000, 1u << 20);
	a.count = big;                       /* as if recorded 2^32 + 5 times */
	a.bytes = big << 20;
	a.lat_sum_ns = big * 1000;
	stats_merge(&sum, &a);
	stats_merge(&sum, &a);
	ck_assert_uint_eq(sum.count, 2 * big);
	ck_assert_uint_eq(sum.bytes, (2 * big) << 20);
	ck_assert_uint_eq(sum.lat_sum_ns, 2 * big * 1000);
	ck_assert(sum.count > UINT32_MAX);
}
END_TEST

START_TEST(test_fo_merge)
{
	struct fo_stats a, sum;

	fo_stats_init(&a);
	fo_stats_init(&sum);
	stats_record(&a.op, 10, 8192);
	stats_record(&a.open, 40, 0);
	a.discarded = 1;
	fo_stats_merge(&sum, &a);
	fo_stats_merge(&sum, &a);
	ck_assert_uint_eq(sum.op.count, 2);
	ck_assert_uint_eq(sum.open.count, 2);
	ck_assert_uint_eq(sum.open.lat_min_ns, 40);
	ck_assert_uint_eq(sum.op.bytes, 16384);
	ck_assert_uint_eq(sum.discarded, 2);
}
END_TEST

/* Two threads' latencies 1..100 us: merged, the percentiles of all. */
START_TEST(test_fo_percentiles)
{
	struct fo_stats a, b, sum;

	fo_stats_init(&a);
	fo_stats_init(&b);
	fo_stats_init(&sum);
	ck_assert(fo_stats_percentile(&sum, 50) == 0.0);
	ck_assert(fo_stats_stdev(&sum) == 0.0);
	for (uint64_t v = 1; v <= 100; v++)
		fo_stats_record(v % 2 ? &a : &b, v * 1000, 0);
	stats_record(&a.open, 5, 0);     /* implicit opens: no histogram */
	fo_stats_merge(&sum, &a);
	fo_stats_merge(&sum, &b);
	ck_assert_uint_eq(hist_count(&sum.lat), 100);
	ck_assert_double_eq_tol(fo_stats_percentile(&sum, 50), 50000, 50000 / 256.0);
	ck_assert_double_eq_tol(fo_stats_percentile(&sum, 90), 90000, 90000 / 256.0);
	ck_assert_double_eq_tol(fo_stats_percentile(&sum, 99), 99000, 99000 / 256.0);
	ck_assert(fo_stats_percentile(&sum, 100) == 100000.0);
	ck_assert(fo_stats_percentile(&sum, 1) == 1000.0);
	ck_assert(fo_stats_percentile(&sum, 50) < fo_stats_percentile(&sum, 51));
	ck_assert_double_eq_tol(fo_stats_mean(&sum), 50500, 1e-9);
	/* sample stdev of 1000 * (1..100): 1000 * sqrt(100 * 101 / 12) */
	ck_assert_double_eq_tol(fo_stats_stdev(&sum), 1000 * sqrt(10100.0 / 12), 1e-6);
}
END_TEST

/* How many 64-byte lines of `n` bytes differ between a and b; the first two's
 * indices in *first_two (the first in the high half). */
static int lines_changed(const unsigned char *a, const unsigned char *b,
			 size_t n, uint64_t *first_two)
{
	int changed = 0;

	*first_two = 0;
	for (size_t off = 0; off < n; off += 64) {
		if (memcmp(a + off, b + off, 64) == 0)
			continue;
		if (changed < 2)
			first_two[0] = first_two[0] << 32 | (off / 64);
		changed++;
	}
	return changed;
}

/*
 * Recording one op writes the block's first line (the counters and the
 * histogram's sum of squares) and the latency's bucket line, nothing
 * else (issue 15: after pread() returns, every line an op touches may
 * have been evicted by the kernel's copy).  The block is a whole number
 * of lines, so each flowop's block in a thread's array starts a line.
 */
START_TEST(test_record_touches_two_lines)
{
	size_t size = (sizeof(struct fo_stats) + 63) / 64 * 64;
	struct fo_stats *s = aligned_alloc(64, size);
	unsigned char *before = malloc(size);
	const uint64_t lat[] = { 1244, 0, 1, 255, 300, 65536, 1ull << 40,
				 (1ull << 44) + 5, 1244, 7 };
	uint64_t which;

	ck_assert_ptr_nonnull(s);
	ck_assert_ptr_nonnull(before);
	ck_assert_uint_eq(sizeof(struct fo_stats) % 64, 0);
	memset(s, 0, size);
	fo_stats_init(s);
	for (size_t i = 0; i < sizeof(lat) / sizeof(lat[0]); i++) {
		unsigned bucket_line = (unsigned)(((char *)&s->lat.b[hist_index(lat[i])] -
						   (char *)s) / 64);
		int n;

		memcpy(before, s, size);
		fo_stats_record(s, lat[i], 8192);
		n = lines_changed(before, (unsigned char *)s, size, &which);
		ck_assert_msg(n == 1 || n == 2, "latency %llu: %d lines written",
			      (unsigned long long)lat[i], n);
		/* line 0, then the bucket's (when it is not line 0 itself) */
		if (n == 2)
			ck_assert_msg(which == ((uint64_t)0 << 32 | bucket_line),
				      "latency %llu: lines %llu and %llu written, not 0 and %u",
				      (unsigned long long)lat[i],
				      (unsigned long long)(which >> 32),
				      (unsigned long long)(which & 0xffffffffu), bucket_line);
		else
			ck_assert_uint_eq(bucket_line, 0);
	}
	ck_assert_uint_eq(s->op.count, sizeof(lat) / sizeof(lat[0]));
	ck_assert_uint_eq(hist_count(&s->lat), sizeof(lat) / sizeof(lat[0]));
	free(before);
	free(s);
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_init_is_empty);
	tcase_add_test(tc, test_record);
	tcase_add_test(tc, test_merge_true_extremes);
	tcase_add_test(tc, test_merge_ignores_empty);
	tcase_add_test(tc, test_64bit_counts);
	tcase_add_test(tc, test_fo_merge);
	tcase_add_test(tc, test_fo_percentiles);
	tcase_add_test(tc, test_record_touches_two_lines);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(stats_suite)
