/*
 * test_report.c - the text report, byte for byte: breakdown lines (normal,
 * zero-op, long name, 64-bit count), the IO Summary with rd/wr rates and
 * the totals it is computed from, and flowbench's percentile block; and
 * the numbers of the HTML report (`flowbench report`) as people read them.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "runtime/base/units.h"
#include "compare/svg.h"
#include "runtime/measure/text.h"

#include "tests/unit/check_main.h"

/* Run `fn` into a memory stream and return what it printed (malloc'd). */
#define CAPTURE(buf, call)                                       \
	do {                                                     \
		size_t len_;                                     \
		FILE *out = open_memstream(&(buf), &len_);       \
		ck_assert_ptr_nonnull(out);                      \
		call;                                            \
		fclose(out);                                     \
	} while (0)

static struct op_stats mk(uint64_t count, uint64_t bytes, uint64_t sum,
			  uint64_t min, uint64_t max)
{
	struct op_stats s = { count, bytes, sum, min, max };

	return s;
}

START_TEST(test_line_normal)
{
	struct op_stats s = mk(1000, 1000 * 8192, 1000 * 50000, 10000, 2500000);
	char *buf = NULL;

	CAPTURE(buf, text_flowop_line(out, "rand-read1", &s, 2.0));
	ck_assert_str_eq(buf, "rand-read1           1000ops      500ops/s   3.9mb/s"
			 "    0.050ms/op [0.010ms - 2.500ms]\n");
	free(buf);
}
END_TEST

START_TEST(test_line_zero_ops)
{
	struct op_stats s;
	char *buf = NULL;

	stats_init(&s);      /* min = UINT64_MAX must never show */
	CAPTURE(buf, text_flowop_line(out, "idle1", &s, 2.0));
	ck_assert_str_eq(buf, "idle1                0ops        0ops/s   0.0mb/s"
			 "    0.000ms/op [0.000ms - 0.000ms]\n");
	free(buf);
}
END_TEST

START_TEST(test_line_long_name)
{
	struct op_stats s = mk(7, 7 * 4096, 7 * 1234567, 1000000, 1500000);
	char *buf = NULL;

	CAPTURE(buf, text_flowop_line(out, "a-very-long-flowop-name-x", &s, 1.0));
	ck_assert_str_eq(buf, "a-very-long-flowop-name-x 7ops        7ops/s   0.0mb/s"
			 "    1.235ms/op [1.000ms - 1.500ms]\n");
	free(buf);
}
END_TEST

START_TEST(test_line_64bit)
{
	struct op_stats s = mk(5000000000ull, 0, 5000000000000ull, 1000, 1000);
	char *buf = NULL;

	CAPTURE(buf, text_flowop_line(out, "big", &s, 10.0));
	ck_assert_str_eq(buf, "big                  5000000000ops 500000000ops/s   0.0mb/s"
			 "    0.001ms/op [0.001ms - 0.001ms]\n");
	free(buf);
}
END_TEST

START_TEST(test_summary)
{
	struct text_totals t = {
		.ops = 2002, .rd_ops = 1000, .wr_ops = 1000,
		.bytes = 2000 * 8192, .lat_sum_ns = 2002 * 100000ull,
	};
	char *buf = NULL;

	CAPTURE(buf, text_io_summary(out, &t, 2.0));
	ck_assert_str_eq(buf, "IO Summary:  2002 ops 1001.000 ops/s 500/500 rd/wr"
			 "   7.8mb/s 0.100ms/op\n");
	free(buf);
}
END_TEST

START_TEST(test_summary_empty)
{
	struct text_totals t = { 0 };
	char *buf = NULL;

	CAPTURE(buf, text_io_summary(out, &t, 0.0));
	ck_assert_str_eq(buf, "IO Summary:     0 ops 0.000 ops/s 0/0 rd/wr"
			 "   0.0mb/s 0.000ms/op\n");
	free(buf);
}
END_TEST

/* A SYNC-class flowop that must stay out of the IO Summary. */
static const struct flowop_ops fake_sync = {
	.name = "fake-sync", .cls = FLOWOP_CLASS_SYNC,
};

START_TEST(test_totals)
{
	struct plan_flowop fo[3];
	struct fo_stats st[3];
	struct plan p = { .flowops = fo, .nflowops = 3 };
	struct text_totals t;

	memset(fo, 0, sizeof(fo));
	fo[0].ops = flowop_registry_lookup(&flowops_registry, "read");
	fo[1].ops = flowop_registry_lookup(&flowops_registry, "write");
	fo[2].ops = &fake_sync;
	ck_assert_ptr_nonnull(fo[0].ops);
	ck_assert_ptr_nonnull(fo[1].ops);
	for (int i = 0; i < 3; i++)
		fo_stats_init(&st[i]);
	st[0].op = mk(10, 10 * 8192, 1000, 50, 200);
	st[0].open = mk(1, 0, 30, 30, 30);
	st[1].op = mk(4, 4 * 8192, 400, 100, 100);
	st[1].open = mk(1, 0, 70, 70, 70);
	st[2].op = mk(99, 0, 99000, 1000, 1000);
	text_io_totals(&p, st, &t);
	ck_assert_uint_eq(t.ops, 16);          /* 10 + 4 + 2 opens; sync excluded */
	ck_assert_uint_eq(t.rd_ops, 10);       /* opens are not reads */
	ck_assert_uint_eq(t.wr_ops, 4);
	ck_assert_uint_eq(t.bytes, 14 * 8192);
	ck_assert_uint_eq(t.lat_sum_ns, 1000 + 30 + 400 + 70);
	ck_assert_uint_eq(t.opens, 2);
}
END_TEST

/* Remove the "<seconds>: " stamps so the lines can be compared. */
static void unstamp(char *buf)
{
	char *r = buf, *w = buf;

	while (*r) {
		char *colon = strstr(r, ": ");

		ck_assert_ptr_nonnull(colon);
		for (char *c = r; c < colon; c++)
			ck_assert((*c >= '0' && *c <= '9') || *c == '.');
		r = colon + 2;
		while (*r && *r != '\n')
			*w++ = *r++;
		if (*r)
			*w++ = *r++;
	}
	*w = '\0';
}

START_TEST(test_percentile_block)
{
	struct plan_flowop fo[3];
	struct fo_stats *st = malloc(3 * sizeof(*st));
	struct plan p = { .flowops = fo, .nflowops = 3 };
	static const double pct[] = { 50, 99.9 };
	char *buf = NULL;

	memset(fo, 0, sizeof(fo));
	fo[0].name = "r1";
	fo[1].name = "idle";
	fo[2].name = "w1";
	for (int i = 0; i < 3; i++)
		fo_stats_init(&st[i]);
	fo_stats_record(&st[0], 1500000, 0);
	fo_stats_record(&st[2], 100, 0);
	fo_stats_record(&st[2], 200, 0);
	CAPTURE(buf, text_percentiles(out, &p, st, pct, 2));
	unstamp(buf);
	/* newest first like the breakdown; no line for a flowop without ops */
	ck_assert_str_eq(buf,
		"Latency percentiles               p50        p99.9\n"
		"w1                              100ns        200ns\n"
		"r1                            1.500ms      1.500ms\n");
	free(buf);
	/* the defaults */
	CAPTURE(buf, text_percentiles(out, &p, st, NULL, 0));
	unstamp(buf);
	ck_assert_str_eq(buf,
		"Latency percentiles               p50          p90          p95"
		"          p99        p99.9       p99.99\n"
		"w1                              100ns        200ns        200ns"
		"        200ns        200ns        200ns\n"
		"r1                            1.500ms      1.500ms      1.500ms"
		"      1.500ms      1.500ms      1.500ms\n");
	free(buf);
	/* nothing ran: no block at all */
	fo_stats_init(&st[0]);
	fo_stats_init(&st[2]);
	CAPTURE(buf, text_percentiles(out, &p, st, pct, 2));
	ck_assert_str_eq(buf, "");
	free(buf);
	free(st);
}
END_TEST

/* svg_human(v) as a string in a static buffer of the test. */
static const char *human(double v)
{
	static char buf[128];

	svg_human(buf, sizeof(buf), v);
	return buf;
}

/* The HTML report's numbers: grouped thousands, never an exponent. */
START_TEST(test_human_numbers)
{
	char buf[128];

	ck_assert_str_eq(human(588035.4), "588,035");
	ck_assert_str_eq(human(1234567890.0), "1,234,567,890");
	ck_assert_str_eq(human(999.6), "1,000");
	ck_assert_str_eq(human(100), "100");
	ck_assert_str_eq(human(12.345), "12.3");
	ck_assert_str_eq(human(3.14159), "3.14");
	ck_assert_str_eq(human(0.0038142), "0.00381");
	ck_assert_str_eq(human(1e-7), "0.000000100");
	ck_assert_str_eq(human(-1500), "-1,500");
	ck_assert_str_eq(human(-0.0001), "-0.000100");
	ck_assert_str_eq(human(0), "0");
	ck_assert_str_eq(human(1e21), "1,000,000,000,000,000,000,000");
	ck_assert_str_eq(human(NAN), "-");
	ck_assert_str_eq(human(INFINITY), "-");
	svg_human_pm(buf, sizeof(buf), 588035.2, 57821.4);
	ck_assert_str_eq(buf, "588,035 ± 57,821");
	svg_human_pm(buf, sizeof(buf), 0.0038142, 0.00021);
	ck_assert_str_eq(buf, "0.00381 ± 0.00021");
	svg_human_pm(buf, sizeof(buf), 5.0, NAN);
	ck_assert_str_eq(buf, "5.00");
	svg_human_pm(buf, sizeof(buf), NAN, 1);
	ck_assert_str_eq(buf, "-");
}
END_TEST

/* A buffer too short cuts the text, never writes past it. */
START_TEST(test_human_short_buffer)
{
	char buf[8];

	memset(buf, 'x', sizeof(buf));
	svg_human(buf, 6, 1234567.0);
	ck_assert_str_eq(buf, "1,234");
	ck_assert_int_eq(buf[6], 'x');
	svg_human_pm(buf, 6, 588035.2, 57821.4);
	ck_assert_int_eq((int)strlen(buf), 5);
}
END_TEST

/*
 * Latencies in automatic units with four significant digits, the unit
 * picked after rounding; no six-decimal milliseconds.
 */
START_TEST(test_latency_units)
{
	static const struct { double ns; const char *text; } cases[] = {
		{ 0, "0ns" }, { 812, "812ns" }, { 999.4, "999ns" }, { 999.6, "1.000µs" },
		{ 3604.7, "3.605µs" }, { 16020, "16.02µs" }, { 849900, "849.9µs" },
		{ 999960, "1.000ms" }, { 12345678, "12.35ms" }, { 1.5e9, "1.500s" },
		{ 7.5e12, "7500.0s" }, { NAN, "-" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		ck_assert_str_eq(units_latency(buf, sizeof(buf), cases[i].ns),
				 cases[i].text);
	ck_assert_int_eq(text_width("3.605µs"), 7);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("text");

	tcase_add_test(tc, test_line_normal);
	tcase_add_test(tc, test_line_zero_ops);
	tcase_add_test(tc, test_line_long_name);
	tcase_add_test(tc, test_line_64bit);
	tcase_add_test(tc, test_summary);
	tcase_add_test(tc, test_summary_empty);
	tcase_add_test(tc, test_totals);
	tcase_add_test(tc, test_percentile_block);
	tcase_add_test(tc, test_human_numbers);
	tcase_add_test(tc, test_human_short_buffer);
	tcase_add_test(tc, test_latency_units);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(report_suite)
