/*
 * test_diag.c - "did you mean": diag_suggest()'s bounded search gives the
 * answer of a plain full edit-distance search (nearest within one typo
 * per three characters, the first of equals, case-insensitive, adjacent
 * transpositions one edit), on fixed cases and on thousands of random
 * misspellings of an option list.
 */
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/diag.h"
#include "runtime/base/rng.h"

#include "tests/unit/check_main.h"

static const char *const options[] = {
	"rw", "readwrite", "rwmixread", "rwmixwrite", "bs", "blocksize", "size",
	"filesize", "filename", "directory", "nrfiles", "numjobs", "iodepth",
	"ioengine", "direct", "buffered", "runtime", "timeout", "time_based",
	"ramp_time", "fsync", "thread", "group_reporting", "loops", "rate_iops",
	"rate", "thinktime", "random_distribution", "bssplit", "fdatasync",
	"sync", "offset", "offset_increment", "openfiles", "file_service_type",
	"iosize", "iters", "dsync", "directio", "indexed", "opennext", "fd",
	NULL
};

/* The reference: the whole optimal-string-alignment matrix, no cut-offs. */
static size_t full_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[72][72];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			int x = tolower((unsigned char)a[i - 1]);
			int y = tolower((unsigned char)b[j - 1]);
			size_t best = d[i - 1][j - 1] + (x != y);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && x == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == y &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	return d[la][lb];
}

static const char *reference_suggest(const char *word, const char *const *c)
{
	size_t len = strlen(word), limit = len < 3 ? 1 : (len + 2) / 3;
	size_t best_dist = (size_t)-1;
	const char *best = NULL;

	if (len > 64)
		return NULL;
	for (; *c; c++) {
		size_t dist = strlen(*c) > 64 ? (size_t)-1 : full_distance(word, *c);

		if (dist < best_dist) {
			best_dist = dist;
			best = *c;
		}
	}
	return best_dist <= limit ? best : NULL;
}

START_TEST(test_fixed_cases)
{
	ck_assert_str_eq(diag_suggest("iosze", options), "iosize");
	ck_assert_str_eq(diag_suggest("IOSIZE", options), "iosize");
	ck_assert_str_eq(diag_suggest("blcoksize", options), "blocksize");
	ck_assert_str_eq(diag_suggest("numjob", options), "numjobs");
	ck_assert_str_eq(diag_suggest("rw", options), "rw");
	/* equally near: the first listed wins ("rw" before "bs" for "rs") */
	ck_assert_str_eq(diag_suggest("rs", options), "rw");
	ck_assert_ptr_null(diag_suggest("zzzzzz", options));
	ck_assert_ptr_null(diag_suggest("", options));
	/* one typo per three characters: 3 allowed for "xyzsize" (and "size", listed first, is 3 away, as "iosize")... */
	ck_assert_str_eq(diag_suggest("xyzsize", options), "size");
	/* ... 4 needed for "qqqqsize" */
	ck_assert_ptr_null(diag_suggest("qqqqsize", options));
	/* ... and over 64 characters nothing is compared */
	char longword[80];

	memset(longword, 'a', sizeof(longword) - 1);
	longword[sizeof(longword) - 1] = '\0';
	ck_assert_ptr_null(diag_suggest(longword, options));
}
END_TEST

static struct rng rng;

static unsigned next(void)
{
	return (unsigned)rng_next(&rng);
}

/* A candidate with 0..3 random edits (substitute, insert, delete, swap). */
static void misspell(char *out, const char *word)
{
	size_t len = strlen(word);
	int edits = next() % 4;

	memcpy(out, word, len + 1);
	for (int e = 0; e < edits; e++) {
		size_t at = len ? next() % len : 0;
		char c = "abcdefgiorstuwxyz_"[next() % 18];

		switch (next() % 4) {
		case 0:
			if (len)
				out[at] = c;
			break;
		case 1:
			memmove(out + at + 1, out + at, len - at + 1);
			out[at] = c;
			len++;
			break;
		case 2:
			if (len) {
				memmove(out + at, out + at + 1, len - at);
				len--;
			}
			break;
		default:
			if (at + 1 < len) {
				char t = out[at];

				out[at] = out[at + 1];
				out[at + 1] = t;
			}
		}
	}
}

START_TEST(test_matches_full_search)
{
	size_t nopts = sizeof(options) / sizeof(options[0]) - 1, found = 0;
	char word[80];

	rng_seed(&rng, 20261202);

	for (int n = 0; n < 20000; n++) {
		const char *want, *got;

		misspell(word, options[next() % nopts]);
		want = reference_suggest(word, options);
		got = diag_suggest(word, options);
		if (want)
			found++;
		ck_assert_msg(want == got, "'%s': full search says %s, diag_suggest %s",
			      word, want ? want : "nothing", got ? got : "nothing");
	}
	/* the misspellings reached both answers: some near, some not */
	ck_assert_uint_gt(found, 5000);
	ck_assert_uint_lt(found, 20000);
}
END_TEST

static Suite *diag_suite(void)
{
	Suite *s = suite_create("diag");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fixed_cases);
	tcase_add_test(tc, test_matches_full_search);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(diag_suite)
