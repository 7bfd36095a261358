/*
 * test_nameidx.c - the name index behind compare and report
 * (compare/nameidx.c): lookups with duplicate names, names that
 * differ only in case, the empty name, occurrence numbering and first
 * sight, checked against a linear scan on thousands of random names;
 * then the loader's use of it (rf_find, rf_keys) on the fixtures
 * tests/data/dups-base.json and dups-new.json.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/load.h"
#include "compare/nameidx.h"

#include "tests/unit/check_main.h"

/* An index over names[0..n), all occurrence 0, value = position. */
static void index_of(struct nameidx *ix, const char *const *names, int n)
{
	struct nameidx_entry *e = calloc((size_t)n + 1, sizeof(*e));

	ck_assert_ptr_nonnull(e);
	for (int i = 0; i < n; i++)
		e[i] = (struct nameidx_entry){ names[i], 0, i };
	nameidx_init(ix, e, n);
}

START_TEST(test_empty)
{
	struct nameidx ix;
	int v[1];

	nameidx_init(&ix, NULL, 0);
	ck_assert_int_eq(nameidx_find(&ix, "a", 0), -1);
	ck_assert_int_eq(nameidx_find(&ix, "", 0), -1);
	nameidx_number(&ix);
	ck_assert_int_eq(nameidx_firsts(&ix, v), 0);
	nameidx_free(&ix);
	nameidx_free(&ix);      /* twice is harmless */
}
END_TEST

/* The smallest value wins among equal (name, occurrence) entries. */
START_TEST(test_duplicates)
{
	struct nameidx_entry *e = calloc(5, sizeof(*e));
	struct nameidx ix;

	e[0] = (struct nameidx_entry){ "read", 0, 7 };
	e[1] = (struct nameidx_entry){ "read", 0, 2 };
	e[2] = (struct nameidx_entry){ "read", 1, 1 };
	e[3] = (struct nameidx_entry){ "read", 0, 9 };
	e[4] = (struct nameidx_entry){ "write", 0, 0 };
	nameidx_init(&ix, e, 5);
	ck_assert_int_eq(nameidx_find(&ix, "read", 0), 2);
	ck_assert_int_eq(nameidx_find(&ix, "read", 1), 1);
	ck_assert_int_eq(nameidx_find(&ix, "read", 2), -1);
	ck_assert_int_eq(nameidx_find(&ix, "write", 0), 0);
	ck_assert_int_eq(nameidx_find(&ix, "rea", 0), -1);
	ck_assert_int_eq(nameidx_find(&ix, "reads", 0), -1);
	ck_assert_int_eq(nameidx_find(&ix, "read", -1), -1);
	nameidx_free(&ix);
}
END_TEST

/* Names are bytes: case matters, "" is a name like any other. */
START_TEST(test_case_and_empty_names)
{
	const char *names[] = { "Read", "read", "", "READ", "read", "" };
	struct nameidx ix;

	index_of(&ix, names, 6);
	nameidx_number(&ix);
	ck_assert_int_eq(nameidx_find(&ix, "Read", 0), 0);
	ck_assert_int_eq(nameidx_find(&ix, "read", 0), 1);
	ck_assert_int_eq(nameidx_find(&ix, "read", 1), 4);
	ck_assert_int_eq(nameidx_find(&ix, "READ", 0), 3);
	ck_assert_int_eq(nameidx_find(&ix, "READ", 1), -1);
	ck_assert_int_eq(nameidx_find(&ix, "rEAD", 0), -1);
	ck_assert_int_eq(nameidx_find(&ix, "", 0), 2);
	ck_assert_int_eq(nameidx_find(&ix, "", 1), 5);
	ck_assert_int_eq(nameidx_find(&ix, "", 2), -1);
	nameidx_free(&ix);
}
END_TEST

/* The k-th of a name by position becomes occurrence k. */
START_TEST(test_number)
{
	const char *names[] = { "a", "b", "a", "", "a", "b", "c" };
	const int want[] = { 0, 0, 1, 0, 2, 1, 0 };
	int occ[7] = { 0 };
	struct nameidx ix;

	index_of(&ix, names, 7);
	nameidx_number(&ix);
	for (int i = 0; i < ix.n; i++)
		occ[ix.e[i].value] = ix.e[i].occurrence;
	for (int i = 0; i < 7; i++)
		ck_assert_int_eq(occ[i], want[i]);
	for (int i = 0; i < 7; i++)
		ck_assert_int_eq(nameidx_find(&ix, names[i], want[i]), i);
	nameidx_free(&ix);
}
END_TEST

/* First sight of every (name, occurrence), in order of first sight. */
START_TEST(test_firsts)
{
	/* two "runs": a b a | b a c a */
	struct nameidx_entry *e = calloc(7, sizeof(*e));
	struct nameidx ix;
	int v[7];

	e[0] = (struct nameidx_entry){ "a", 0, 0 };
	e[1] = (struct nameidx_entry){ "b", 0, 1 };
	e[2] = (struct nameidx_entry){ "a", 1, 2 };
	e[3] = (struct nameidx_entry){ "b", 0, 3 };
	e[4] = (struct nameidx_entry){ "a", 0, 4 };
	e[5] = (struct nameidx_entry){ "c", 0, 5 };
	e[6] = (struct nameidx_entry){ "a", 1, 6 };
	nameidx_init(&ix, e, 7);
	ck_assert_int_eq(nameidx_firsts(&ix, v), 4);
	ck_assert_int_eq(v[0], 0);
	ck_assert_int_eq(v[1], 1);
	ck_assert_int_eq(v[2], 2);
	ck_assert_int_eq(v[3], 5);
	nameidx_free(&ix);
}
END_TEST

static int linear_find(const char *const *names, const int *occ, int n,
		       const char *name, int occurrence)
{
	for (int i = 0; i < n; i++)
		if (occ[i] == occurrence && strcmp(names[i], name) == 0)
			return i;
	return -1;
}

/* Thousands of random short names (many repeats, prefixes, ""): same as a scan. */
START_TEST(test_against_linear)
{
	enum { N = 3000 };
	static char buf[N][8];
	const char *names[N];
	int occ[N], seen[N] = { 0 };
	struct nameidx ix;
	unsigned x = 12345;

	for (int i = 0; i < N; i++) {
		int len;

		x = x * 1103515245u + 12345u;
		len = (int)((x >> 16) % 4);      /* 0..3 characters */
		for (int k = 0; k < len; k++) {
			x = x * 1103515245u + 12345u;
			buf[i][k] = "aAb"[(x >> 16) % 3];
		}
		buf[i][len] = '\0';
		names[i] = buf[i];
	}
	for (int i = 0; i < N; i++) {
		occ[i] = 0;
		for (int k = 0; k < i; k++)
			occ[i] += strcmp(names[k], names[i]) == 0;
	}
	index_of(&ix, names, N);
	nameidx_number(&ix);
	for (int i = 0; i < ix.n; i++)
		ck_assert_int_eq(ix.e[i].occurrence, occ[ix.e[i].value]);
	for (int i = 0; i < N; i++) {
		ck_assert_int_eq(nameidx_find(&ix, names[i], occ[i]), i);
		ck_assert_int_eq(nameidx_find(&ix, names[i], occ[i] + N), -1);
		seen[i] = linear_find(names, occ, N, names[i], occ[i] + 1);
		ck_assert_int_eq(nameidx_find(&ix, names[i], occ[i] + 1), seen[i]);
	}
	ck_assert_int_eq(nameidx_find(&ix, "aaaa", 0), -1);
	ck_assert_int_eq(nameidx_find(&ix, "c", 0), -1);
	nameidx_free(&ix);
}
END_TEST

static char *fixture(const char *name)
{
	const char *top = getenv("TOP_SRCDIR");
	char *path = NULL;

	ck_assert_int_ge(asprintf(&path, "%s/tests/data/%s", top ? top : ".", name), 0);
	return path;
}

/*
 * The loader: occurrences per run, rf_find by name and occurrence, and
 * rf_keys in order of first sight across runs and files.
 */
START_TEST(test_loader)
{
	static const struct { const char *name; int occ; } want[] = {
		{ "a", 0 }, { "A", 0 }, { "a", 1 }, { "", 0 }, { "b", 0 },
		{ "a", 2 }, { "c", 0 }, { "a", 3 }, { "d", 0 },
	};
	char *paths[2] = { fixture("dups-base.json"), fixture("dups-new.json") };
	struct rf_doc docs[2];
	const struct rf_flowop *fo;
	struct rf_key *keys;
	int nkeys = -1;

	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(rf_load(paths[i], &docs[i], stderr), 0);
	/* base run 2: b a "" a c */
	ck_assert_int_eq(docs[0].runs[1].flowops[3].occurrence, 1);
	fo = rf_find(&docs[0].runs[1], "a", 1);
	ck_assert_ptr_eq(fo, &docs[0].runs[1].flowops[3]);
	ck_assert_double_eq(fo->ops_per_s, 12);
	ck_assert_ptr_eq(rf_find(&docs[0].runs[1], "", 0), &docs[0].runs[1].flowops[2]);
	ck_assert_ptr_null(rf_find(&docs[0].runs[1], "a", 2));
	ck_assert_ptr_null(rf_find(&docs[0].runs[1], "A", 0));
	ck_assert_ptr_eq(rf_find(&docs[1].runs[0], "a", 3), &docs[1].runs[0].flowops[4]);
	keys = rf_keys(docs, 2, &nkeys);
	ck_assert_ptr_nonnull(keys);
	ck_assert_int_eq(nkeys, (int)(sizeof(want) / sizeof(want[0])));
	for (int i = 0; i < nkeys; i++) {
		ck_assert_str_eq(keys[i].name, want[i].name);
		ck_assert_int_eq(keys[i].occurrence, want[i].occ);
	}
	free(keys);
	for (int i = 0; i < 2; i++) {
		rf_free(&docs[i]);
		free(paths[i]);
	}
}
END_TEST

static Suite *nameidx_suite(void)
{
	Suite *s = suite_create("nameidx");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_duplicates);
	tcase_add_test(tc, test_case_and_empty_names);
	tcase_add_test(tc, test_number);
	tcase_add_test(tc, test_firsts);
	tcase_add_test(tc, test_against_linear);
	tcase_add_test(tc, test_loader);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(nameidx_suite)
