/*
 * test_astats.c - the asynchronous flowops' extension block
 * (runtime/measure/astats.[ch]) and fio's lines for it (textaio.c):
 * fio's bucket rules value by value at every boundary (io_u.c's
 * io_u_mark_depth(), __io_u_mark_map(), io_u_mark_latency()), its
 * percentage floors, merging, the warm-up difference, and the printed
 * block byte for byte.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/measure/astats.h"
#include "runtime/measure/textaio.h"

#include "tests/unit/check_main.h"

START_TEST(test_depth_buckets)
{
	/* fio: 1, 2-3, 4-7, 8-15, 16-31, 32-63, >= 64 */
	static const struct { uint64_t v; unsigned b; } c[] = {
		{ 1, 0 }, { 2, 1 }, { 3, 1 }, { 4, 2 }, { 7, 2 }, { 8, 3 },
		{ 15, 3 }, { 16, 4 }, { 31, 4 }, { 32, 5 }, { 63, 5 }, { 64, 6 },
		{ 256, 6 },
	};

	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ck_assert_msg(astats_depth_index(c[i].v) == c[i].b, "depth %llu",
			      (unsigned long long)c[i].v);
}
END_TEST

START_TEST(test_map_buckets)
{
	/* fio: 0, 1-4, 5-8, 9-16, 17-32, 33-64, > 64 */
	static const struct { uint64_t v; unsigned b; } c[] = {
		{ 0, 0 }, { 1, 1 }, { 4, 1 }, { 5, 2 }, { 8, 2 }, { 9, 3 },
		{ 16, 3 }, { 17, 4 }, { 32, 4 }, { 33, 5 }, { 64, 5 }, { 65, 6 },
		{ 256, 6 },
	};

	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		ck_assert_msg(astats_map_index(c[i].v) == c[i].b, "n %llu",
			      (unsigned long long)c[i].v);
}
END_TEST

START_TEST(test_latency_buckets)
{
	/* fio's io_u_mark_lat_*: a bucket is [previous bound, bound) in its unit */
	static const struct { uint64_t ns; unsigned b; const char *label, *unit; } c[] = {
		{ 0, 0, "2", "nsec" }, { 1, 0, "2", "nsec" }, { 2, 1, "4", "nsec" },
		{ 9, 2, "10", "nsec" }, { 10, 3, "20", "nsec" }, { 999, 9, "1000", "nsec" },
		{ 1000, 10, "2", "usec" }, { 1999, 10, "2", "usec" },
		{ 2000, 11, "4", "usec" }, { 249999, 16, "250", "usec" },
		{ 250000, 17, "500", "usec" }, { 999999, 19, "1000", "usec" },
		{ 1000000, 20, "2", "msec" }, { 4000000, 22, "10", "msec" },
		{ 999999999, 29, "1000", "msec" }, { 1000000000, 30, "2000", "msec" },
		{ 1999999999, 30, "2000", "msec" }, { 2000000000, 31, ">=2000", "msec" },
		{ UINT64_MAX, 31, ">=2000", "msec" },
	};

	for (unsigned i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned b = astats_latb_index(c[i].ns);

		ck_assert_msg(b == c[i].b, "%llu ns: bucket %u, not %u",
			      (unsigned long long)c[i].ns, b, c[i].b);
		ck_assert_str_eq(astats_latb_label(b), c[i].label);
		ck_assert_str_eq(astats_latb_unit(b), c[i].unit);
	}
}
END_TEST

/* fio's floors: a non-zero share shows as at least 0.1 % (maps), 0.01 % (buckets). */
START_TEST(test_percent_floors)
{
	uint64_t map[ASTATS_MAP_NR] = { 0, 1, 0, 0, 9999, 0, 0 };
	double pct[ASTATS_MAP_NR], lb[ASTATS_LATB_NR];
	struct astats a;

	astats_map_pct(map, pct);
	ck_assert(pct[0] == 0 && pct[1] == 0.1);
	ck_assert_double_eq_tol(pct[4], 99.99, 1e-9);
	astats_init(&a);
	a.latb[3] = 1;
	a.latb[15] = 99999;
	astats_latb_pct(&a, 100000, lb);
	ck_assert(lb[3] == 0.01 && lb[0] == 0);
	ck_assert_double_eq_tol(lb[15], 99.999, 1e-9);
	memset(map, 0, sizeof(map));
	astats_map_pct(map, pct);
	ck_assert(pct[4] == 0);
}
END_TEST

/* Recording, merging, and a warm-up's baseline taken away. */
START_TEST(test_record_merge_diff)
{
	struct astats *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b)),
		      *base = malloc(sizeof(*base)), *out = malloc(sizeof(*out));

	ck_assert(a && b && base && out);
	astats_init(a);
	astats_init(b);
	astats_record(a, 100, 5000, 5100);
	astats_submitted(a, 16, 1);
	astats_completed(a, 1);
	memcpy(base, a, sizeof(*a));           /* the measured phase starts here */
	astats_reset_extremes(a);
	astats_record(a, 300, 2000000, 2000300);
	astats_record(a, 200, 7000, 7200);
	astats_submitted(a, 16, 2);
	astats_completed(a, 2);
	astats_diff(out, a, base);
	ck_assert_uint_eq(out->slat.count, 2);
	ck_assert_uint_eq(out->slat.lat_sum_ns, 500);
	ck_assert_uint_eq(out->slat.lat_min_ns, 200);
	ck_assert_uint_eq(out->lat.lat_max_ns, 2000300);
	ck_assert_uint_eq(out->depth[4], 2);
	ck_assert_uint_eq(out->submit[1], 1);
	ck_assert_uint_eq(out->complete[1], 1);
	ck_assert_uint_eq(out->latb[ASTATS_LATB_MSEC + 1], 1);   /* 2 ms: "4=" */
	ck_assert_uint_eq(out->latb[ASTATS_LATB_USEC + 2], 1);   /* 7 us: "10=" */
	ck_assert_uint_eq(out->latb[ASTATS_LATB_USEC + 1], 0);   /* the warm-up's 5 us */
	ck_assert_double_eq_tol(astats_slat_percentile(out, 50), 200, 1);
	ck_assert_double_eq_tol(astats_lat_percentile(out, 100), 2000300, 1);
	astats_record(b, 50, 60, 110);
	astats_merge(b, out);
	ck_assert_uint_eq(b->slat.count, 3);
	ck_assert_uint_eq(b->slat.lat_min_ns, 50);
	ck_assert_uint_eq(b->lat.lat_max_ns, 2000300);
	ck_assert_uint_eq(hist_count(&b->lat_h), 3);
	free(a);
	free(b);
	free(base);
	free(out);
}
END_TEST

/* The printed block, as fio's normal output lays it out. */
START_TEST(test_block_bytes)
{
	static const double pct[] = { 50, 99 };
	struct fo_stats *s = malloc(sizeof(*s));
	struct astats *a = malloc(sizeof(*a));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert(s && a && f);
	fo_stats_init(s);
	astats_init(a);
	for (int i = 0; i < 4; i++) {
		uint64_t clat = 1000000 + 100000 * (uint64_t)i;      /* 1.0 .. 1.3 ms */

		fo_stats_record(s, clat, 4096);
		astats_record(a, 3000, clat, clat + 3000);
		astats_submitted(a, 16, 1);
		astats_completed(a, 1);
	}
	text_async_block(f, false, "rd", "libaio", 16, s, a, pct, 2);
	fclose(f);
	ck_assert_str_eq(buf,
		"Async I/O of rd (ioengine=libaio, iodepth=16): 4 requests\n"
		"    slat (nsec): min=3000, max=3000, avg=3000.00, stdev= 0.00\n"
		"    clat (usec): min=1000, max=1300, avg=1150.00, stdev=129.10\n"
		"     lat (usec): min=1003, max=1303, avg=1153.00, stdev=129.10\n"
		"    clat percentiles (usec):\n"
		"     | 50.00th=[ 1102], 99.00th=[ 1300]\n"
		"  lat (msec)   : 2=100.00%\n"
		"  IO depths    : 1=0.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=100.0%, 32=0.0%, >=64=0.0%\n"
		"     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		"     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n");
	free(buf);
	free(s);
	free(a);
}
END_TEST

static Suite *astats_suite(void)
{
	Suite *s = suite_create("astats");
	TCase *tc = tcase_create("astats");

	tcase_add_test(tc, test_depth_buckets);
	tcase_add_test(tc, test_map_buckets);
	tcase_add_test(tc, test_latency_buckets);
	tcase_add_test(tc, test_percent_floors);
	tcase_add_test(tc, test_record_merge_diff);
	tcase_add_test(tc, test_block_bytes);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(astats_suite)
