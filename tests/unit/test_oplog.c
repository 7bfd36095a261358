/*
 * test_oplog.c - per-op logs in fio's formats (runtime/measure/oplog.h):
 * lines byte for byte from fixed inputs, fio's file names, the
 * histogram's bins against fio's rule computed here another way, the
 * averaging windows (means, rates, stamps, the last partial window), the
 * histogram windows, buffers written whole past their size, and a failed
 * write reported with its file.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime/measure/oplog.h"

#include "tests/unit/check_main.h"

START_TEST(test_lines)
{
	char buf[OPLOG_LINE_MAX + 1];
	size_t n;

	n = oplog_format_line(buf, 0, 589405, 0, 4096, false, 0);
	buf[n] = '\0';
	ck_assert_str_eq(buf, "0, 589405, 0, 4096, 0\n");
	n = oplog_format_line(buf, 998, 75131, 1, 8192, true, 3952640);
	buf[n] = '\0';
	ck_assert_str_eq(buf, "998, 75131, 1, 8192, 3952640, 0\n");
	n = oplog_format_line(buf, UINT64_MAX, UINT64_MAX, 1, UINT64_MAX, true, UINT64_MAX);
	ck_assert_uint_le(n, OPLOG_LINE_MAX);
	buf[n] = '\0';
	ck_assert_str_eq(buf, "18446744073709551615, 18446744073709551615, 1, "
			 "18446744073709551615, 18446744073709551615, 0\n");
	/* fio's values: a per-op bandwidth in bytes per ms, window rates in KiB/s */
	ck_assert_uint_eq(oplog_op_bw(4096, 589405), 6949);
	ck_assert_uint_eq(oplog_op_bw(4096, 0), 0);
	ck_assert_uint_eq(oplog_window_bw(4096 * 1000, 1000000000), 4000);
	ck_assert_uint_eq(oplog_window_bw(1 << 20, 100000000), 10240);
	ck_assert_uint_eq(oplog_window_iops(14, 100000000), 140);
	ck_assert_uint_eq(oplog_window_iops(1, 0), 0);
	ck_assert_uint_eq(oplog_mean(10, 4), 3);       /* 2.5 rounds up */
	ck_assert_uint_eq(oplog_mean(9, 4), 2);
	ck_assert_uint_eq(oplog_mean(0, 0), 0);
}
END_TEST

START_TEST(test_names)
{
	char buf[64];

	ck_assert_uint_eq(oplog_path(buf, sizeof(buf), "lg", OPLOG_LAT, 1, false), 12);
	ck_assert_str_eq(buf, "lg_lat.1.log");
	oplog_path(buf, sizeof(buf), "d/x", OPLOG_HIST, 12, false);
	ck_assert_str_eq(buf, "d/x_clat_hist.12.log");
	oplog_path(buf, sizeof(buf), "x", OPLOG_SLAT, 3, true);
	ck_assert_str_eq(buf, "x_slat.log");
	oplog_path(buf, sizeof(buf), "x", OPLOG_IOPS, 3, false);
	ck_assert_str_eq(buf, "x_iops.3.log");
	oplog_path(buf, sizeof(buf), "x", OPLOG_BW, 3, false);
	ck_assert_str_eq(buf, "x_bw.3.log");
	oplog_path(buf, sizeof(buf), "x", OPLOG_CLAT, 3, false);
	ck_assert_str_eq(buf, "x_clat.3.log");
	ck_assert_uint_ge(oplog_path(buf, 4, "long", OPLOG_LAT, 1, false), 4);
	ck_assert_int_eq(oplog_file_kind(OPLOG_SLAT), PLAN_OPLOG_LAT);
	ck_assert_int_eq(oplog_file_kind(OPLOG_HIST), PLAN_OPLOG_HIST);
}
END_TEST

/*
 * fio's bins (stat.h, stat.c plat_val_to_idx()) described another way:
 * values 0..127 one each, then for each power of two 2^m (m = 7 ..) 64
 * bins of 2^(m-6) values; the last bin holds everything above.
 */
static uint64_t lower[OPLOG_HIST_BINS + 1];

static void layout(void)
{
	unsigned i = 0;

	for (; i < 128; i++)
		lower[i] = (uint64_t)i;
	for (int m = 7; i < OPLOG_HIST_BINS; m++)
		for (int j = 0; j < 64 && i < OPLOG_HIST_BINS; j++)
			lower[i++] = (1ull << m) + ((uint64_t)j << (m - 6));
	lower[OPLOG_HIST_BINS] = UINT64_MAX;
}

/* The bin `v` falls in under that description. */
static unsigned bin_of(uint64_t v)
{
	unsigned lo = 0, hi = OPLOG_HIST_BINS - 1;

	while (lo < hi) {
		unsigned mid = (lo + hi + 1) / 2;

		if (lower[mid] <= v)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

START_TEST(test_hist_bins)
{
	uint64_t x = 88172645463325252ull;

	layout();
	ck_assert_uint_eq(OPLOG_HIST_BINS, 1856);
	for (unsigned i = 0; i < OPLOG_HIST_BINS; i++) {
		ck_assert_uint_eq(oplog_hist_index(lower[i]), i);
		if (i + 1 < OPLOG_HIST_BINS)
			ck_assert_uint_eq(oplog_hist_index(lower[i + 1] - 1), i);
	}
	/* the last group: 2^33 .. 2^34 in steps of 2^27, then all above */
	ck_assert_uint_eq(lower[OPLOG_HIST_BINS - 64], 1ull << 33);
	ck_assert_uint_eq(oplog_hist_index(1ull << 34), OPLOG_HIST_BINS - 1);
	ck_assert_uint_eq(oplog_hist_index(UINT64_MAX), OPLOG_HIST_BINS - 1);
	for (int k = 0; k < 200000; k++) {
		uint64_t v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x >> (x % 40 + 24);          /* every magnitude up to 2^40 */
		ck_assert_uint_eq(oplog_hist_index(v), bin_of(v));
	}
}
END_TEST

START_TEST(test_hist_line)
{
	uint64_t bins[OPLOG_HIST_BINS] = { 0 };
	char *buf = malloc(oplog_hist_line_max(0) + 1);
	size_t n;
	int commas = 0;

	bins[0] = 1;
	bins[1] = 2;
	bins[5] = 7;
	bins[OPLOG_HIST_BINS - 1] = 3;
	n = oplog_format_hist(buf, 200, 1, 4096, bins, 2);
	buf[n] = '\0';
	ck_assert_uint_le(n, oplog_hist_line_max(2));
	ck_assert(strncmp(buf, "200, 1, 4096, 3, 7, 0, 0, ", 26) == 0);
	ck_assert_str_eq(buf + n - 4, ", 3\n");
	for (size_t i = 0; i < n; i++)
		commas += buf[i] == ',';
	ck_assert_int_eq(commas, 2 + OPLOG_HIST_BINS / 4);    /* 464 columns */
	n = oplog_format_hist(buf, 7, 0, 512, bins, 0);
	commas = 0;
	for (size_t i = 0; i < n; i++)
		commas += buf[i] == ',';
	ck_assert_int_eq(commas, 2 + OPLOG_HIST_BINS);        /* 1856 columns */
	free(buf);
}
END_TEST

/* A writer of every file of `c`, each into its own memory file. */
struct rig {
	struct plan_oplog c;
	struct oplog_target tg;
	struct oplog_writer w;
};

static void rig_open(struct rig *r)
{
	r->tg.conf = &r->c;
	for (int f = 0; f < OPLOG_NFILES; f++) {
		r->tg.fd[f] = -1;
		r->tg.path[f] = "test";
		if (r->c.prefix[oplog_file_kind((enum oplog_file)f)])
			r->tg.fd[f] = memfd_create("oplog", 0);
	}
	ck_assert_int_eq(oplog_writer_init(&r->w, &r->tg), 0);
}

/* What file f received (malloc'ed, NUL-terminated). */
static char *rig_text(const struct rig *r, enum oplog_file f)
{
	off_t n = lseek(r->tg.fd[f], 0, SEEK_END);
	char *s = malloc((size_t)n + 1);

	ck_assert_int_eq(pread(r->tg.fd[f], s, (size_t)n, 0), n);
	s[n] = '\0';
	return s;
}

static void rig_close(struct rig *r)
{
	oplog_writer_free(&r->w);
	for (int f = 0; f < OPLOG_NFILES; f++)
		if (r->tg.fd[f] >= 0)
			close(r->tg.fd[f]);
}

static void expect(const struct rig *r, enum oplog_file f, const char *want)
{
	char *got = rig_text(r, f);

	ck_assert_str_eq(got, want);
	free(got);
}

static void op(struct rig *r, uint64_t end_us, uint64_t lat, unsigned dir,
	       uint64_t bytes, uint64_t off)
{
	struct oplog_op o = { end_us * 1000, lat, lat, 0, bytes, off, dir, false };

	ck_assert_int_eq(oplog_writer_op(&r->w, &o), 0);
}

/* A line per op: every file's line, fio's values, the offset column. */
START_TEST(test_per_op)
{
	struct rig r = { .c = { .prefix = { "a", "b", "c", NULL }, .offset = true } };
	struct oplog_op split = { 7654321, 3000, 2000, 1000, 512, 1024, 1, true };

	rig_open(&r);
	op(&r, 1500, 589405, 0, 4096, 249856);
	ck_assert_int_eq(oplog_writer_op(&r.w, &split), 0);
	ck_assert_int_eq(oplog_writer_finish(&r.w, 8000000), 0);
	expect(&r, OPLOG_LAT, "1, 589405, 0, 4096, 249856, 0\n7, 3000, 1, 512, 1024, 0\n");
	expect(&r, OPLOG_CLAT, "1, 589405, 0, 4096, 249856, 0\n7, 2000, 1, 512, 1024, 0\n");
	expect(&r, OPLOG_SLAT, "7, 1000, 1, 512, 1024, 0\n");      /* async only */
	expect(&r, OPLOG_BW, "1, 6949, 0, 4096, 249856, 0\n7, 256000, 1, 512, 1024, 0\n");
	expect(&r, OPLOG_IOPS, "1, 1, 0, 4096, 249856, 0\n7, 1, 1, 512, 1024, 0\n");
	ck_assert_int_eq(r.tg.fd[OPLOG_HIST], -1);
	rig_close(&r);
}
END_TEST

/*
 * Averaged: a line per direction with ops per window, stamped with the
 * window's end, the means rounded, rates over the window (the last one
 * over its own length, to the end); a window without ops in a
 * direction, or at all, writes nothing for it.
 */
START_TEST(test_windows)
{
	struct rig r = { .c = { .prefix = { "a", "b", "c", NULL }, .avg_msec = 100 } };

	rig_open(&r);
	/* window [0, 100): reads of 10, 20, 31 us; one write of 5 us */
	op(&r, 10000, 10000, 0, 4096, 0);
	op(&r, 20000, 20000, 0, 4096, 0);
	op(&r, 50000, 5000, 1, 8192, 0);
	op(&r, 99999, 31000, 0, 4096, 0);
	/* [100, 200): nothing; [200, 300): one read exactly at 200 ms */
	op(&r, 200000, 1000, 0, 1024, 0);
	/* the last window, [300, 350): two writes, the run ends at 350 ms */
	op(&r, 310000, 100, 1, 1 << 20, 0);
	op(&r, 340000, 201, 1, 1 << 20, 0);
	ck_assert_int_eq(oplog_writer_finish(&r.w, 350000000), 0);
	expect(&r, OPLOG_LAT,
	       "100, 20333, 0, 0, 0\n100, 5000, 1, 0, 0\n"
	       "300, 1000, 0, 0, 0\n"
	       "350, 151, 1, 0, 0\n");
	expect(&r, OPLOG_CLAT,
	       "100, 20333, 0, 0, 0\n100, 5000, 1, 0, 0\n"
	       "300, 1000, 0, 0, 0\n"
	       "350, 151, 1, 0, 0\n");
	expect(&r, OPLOG_SLAT, "");
	/* 3 x 4 KiB in 0.1 s = 120 KiB/s; 8 KiB: 80; 1 KiB: 10; 2 MiB in 50 ms */
	expect(&r, OPLOG_BW,
	       "100, 120, 0, 0, 0\n100, 80, 1, 0, 0\n"
	       "300, 10, 0, 0, 0\n"
	       "350, 40960, 1, 0, 0\n");
	expect(&r, OPLOG_IOPS,
	       "100, 30, 0, 0, 0\n100, 10, 1, 0, 0\n"
	       "300, 10, 0, 0, 0\n"
	       "350, 40, 1, 0, 0\n");
	rig_close(&r);
}
END_TEST

/* Averaged with offsets: the offset column, 0 as fio's. */
START_TEST(test_windows_offset)
{
	struct rig r = { .c = { .prefix = { "a", NULL, NULL, NULL }, .avg_msec = 5,
				.offset = true } };

	rig_open(&r);
	op(&r, 1000, 7, 1, 4096, 12345);
	ck_assert_int_eq(oplog_writer_finish(&r.w, 2000000), 0);
	expect(&r, OPLOG_LAT, "2, 7, 1, 0, 0, 0\n");
	rig_close(&r);
}
END_TEST

/*
 * The histogram log: per window a line per direction with ops, its
 * completion latencies counted in fio's bins, the block size of its
 * latest op; the last partial window at the end.
 */
START_TEST(test_hist_windows)
{
	struct rig r = { .c = { .prefix = { NULL, NULL, NULL, "h" }, .hist_msec = 100,
				.hist_coarseness = 0 } };
	uint64_t want[3][OPLOG_HIST_BINS] = { { 0 } };
	char *text, *line, *save = NULL;
	int lines = 0;

	rig_open(&r);
	op(&r, 1000, 5, 0, 4096, 0);
	op(&r, 2000, 130, 0, 512, 0);
	op(&r, 3000, 1000000, 1, 8192, 0);
	op(&r, 150000, 5, 0, 4096, 0);
	ck_assert_int_eq(oplog_writer_finish(&r.w, 170000000), 0);
	want[0][5] = 1;
	want[0][oplog_hist_index(130)] = 1;
	want[1][oplog_hist_index(1000000)] = 1;
	want[2][5] = 1;
	text = rig_text(&r, OPLOG_HIST);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		static const uint64_t head[3][3] = { { 100, 0, 512 }, { 100, 1, 8192 },
						     { 170, 0, 4096 } };
		char *p = line;
		int col = 0;

		ck_assert_int_lt(lines, 3);
		for (char *tok = strsep(&p, ","); tok; tok = strsep(&p, ","), col++) {
			uint64_t v = strtoull(tok, NULL, 10);

			if (col < 3)
				ck_assert_uint_eq(v, head[lines][col]);
			else
				ck_assert_uint_eq(v, want[lines][col - 3]);
		}
		ck_assert_int_eq(col, 3 + OPLOG_HIST_BINS);
		lines++;
	}
	ck_assert_int_eq(lines, 3);
	free(text);
	rig_close(&r);
}
END_TEST

/* Past its buffer's size every line still arrives, once, in order. */
START_TEST(test_buffers)
{
	struct rig r = { .c = { .prefix = { "a", NULL, "c", NULL } } };
	char *text, *p;
	uint64_t n = 0;

	rig_open(&r);
	for (uint64_t i = 0; i < 100000; i++)
		op(&r, i, i, (unsigned)(i & 1), 4096, 0);
	ck_assert_int_eq(oplog_writer_finish(&r.w, 100000000), 0);
	text = rig_text(&r, OPLOG_LAT);
	for (p = text; *p; n++) {
		char want[OPLOG_LINE_MAX + 1];
		size_t len = oplog_format_line(want, n / 1000, n, (unsigned)(n & 1), 4096,
					       false, 0);

		ck_assert(strncmp(p, want, len) == 0);
		p += len;
	}
	ck_assert_uint_eq(n, 100000);
	free(text);
	ck_assert_uint_eq(oplog_writer_mem(&r.c), sizeof(struct oplog_writer) + 4 * 32768);
	rig_close(&r);
}
END_TEST

/* A write that fails stops the writer, naming the file; ENOSPC from /dev/full. */
START_TEST(test_write_error)
{
	struct plan_oplog c = { .prefix = { NULL, "b", NULL, NULL } };
	struct oplog_target tg = { .conf = &c };
	struct oplog_writer w;
	struct oplog_op o = { 1000, 1, 1, 0, 4096, 0, 0, false };
	int rc = 0;

	for (int f = 0; f < OPLOG_NFILES; f++)
		tg.fd[f] = -1;
	tg.fd[OPLOG_BW] = open("/dev/full", O_WRONLY);
	tg.path[OPLOG_BW] = "full_bw.1.log";
	if (tg.fd[OPLOG_BW] < 0)
		return;         /* no /dev/full here */
	ck_assert_int_eq(oplog_writer_init(&w, &tg), 0);
	for (int i = 0; i < 10000 && rc == 0; i++)
		rc = oplog_writer_op(&w, &o);
	if (rc == 0)
		rc = oplog_writer_finish(&w, 2000);
	ck_assert_int_eq(rc, -1);
	ck_assert_int_eq(w.err, ENOSPC);
	ck_assert_int_eq(w.err_file, OPLOG_BW);
	ck_assert_int_eq(oplog_writer_op(&w, &o), -1);      /* and stays stopped */
	oplog_writer_free(&w);
	close(tg.fd[OPLOG_BW]);
}
END_TEST

static Suite *oplog_suite(void)
{
	Suite *s = suite_create("oplog");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_lines);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_hist_bins);
	tcase_add_test(tc, test_hist_line);
	tcase_add_test(tc, test_per_op);
	tcase_add_test(tc, test_windows);
	tcase_add_test(tc, test_windows_offset);
	tcase_add_test(tc, test_hist_windows);
	tcase_add_test(tc, test_buffers);
	tcase_add_test(tc, test_write_error);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(oplog_suite)
