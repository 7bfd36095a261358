/*
 * test_tree.c - fileset population: entry counts, directory widths and
 * depths with dirgamma 0 (filebench's own examples), paths built on
 * demand, files and leaf directories in separate directories, the same
 * tree for the same seed, per-file sizes, and 10^5 entries quickly.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "runtime/base/rng.h"
#include "runtime/fileset/tree.h"

#include "tests/unit/check_main.h"

static void build(struct fs_tree *t, uint64_t entries, uint64_t leafdirs,
		  double width, int64_t gamma, uint64_t seed)
{
	struct tree_params p = {
		.entries = entries, .leafdirs = leafdirs, .width = width,
		.gamma1000 = gamma, .size = 4096,
	};
	struct rng r;
	char err[128];

	rng_seed(&r, seed);
	ck_assert_int_eq(tree_build(t, &p, &r, err, sizeof(err)), 0);
}

static const char *file_path(const struct fs_tree *t, uint64_t e)
{
	static char buf[TREE_PATH_MAX];

	tree_file_relpath(t, e, buf);
	return buf;
}

/* A `define file`: one file, width 10, gamma 0. */
START_TEST(test_single_file)
{
	struct fs_tree t;

	build(&t, 1, 0, 10, 0, 1);
	ck_assert_uint_eq(t.nfiles, 1);
	ck_assert_uint_eq(t.ndirs, 2);
	ck_assert_str_eq(file_path(&t, 0), "00000001/00000001");
	ck_assert_uint_eq(t.total_bytes, 4096);
	tree_free(&t);
}
END_TEST

/* Reference 5.3: entries=30, dirwidth=4, dirgamma=0: 8 dirs of 4 files (last 2). */
START_TEST(test_flat_example)
{
	struct fs_tree t;
	char buf[TREE_PATH_MAX];

	build(&t, 30, 0, 4, 0, 1);
	ck_assert_uint_eq(t.nfiles, 30);
	ck_assert_uint_eq(t.ndirs, 9);
	for (uint32_t d = 1; d < 9; d++) {
		ck_assert_uint_eq(t.dirs[d].parent, 0);
		ck_assert_uint_eq(t.dirs[d].serial, d);
		ck_assert_uint_eq(t.dirs[d].count, d < 8 ? 4 : 2);
		ck_assert_uint_eq(tree_dir_depth(&t, d), 2);
	}
	ck_assert_str_eq(file_path(&t, 0), "00000001/00000001");
	ck_assert_str_eq(file_path(&t, 5), "00000002/00000002");
	ck_assert_str_eq(file_path(&t, 29), "00000008/00000002");
	tree_dir_relpath(&t, 0, buf);
	ck_assert_str_eq(buf, ".");
	tree_dir_relpath(&t, 3, buf);
	ck_assert_str_eq(buf, "00000003");
	tree_free(&t);
}
END_TEST

/* entries=200, width 5: mean depth 3.29 -> files in directories at level 3 (root = 1). */
START_TEST(test_depth)
{
	struct fs_tree t;

	build(&t, 200, 0, 5, 0, 1);
	ck_assert_uint_eq(t.nfiles, 200);
	ck_assert(t.meandepth > 3.2 && t.meandepth < 3.3);
	for (uint64_t e = 0; e < 200; e++) {
		uint32_t d = tree_file_dir(&t, e);

		ck_assert_uint_eq(tree_dir_depth(&t, d), 3);
		ck_assert(t.dirs[d].first <= e && e < t.dirs[d].first + t.dirs[d].count);
	}
	ck_assert_str_eq(file_path(&t, 0), "00000001/00000001/00000001");
	ck_assert_str_eq(file_path(&t, 199), "00000008/00000005/00000005");
	ck_assert_uint_eq(t.maxdepth, 3);
	tree_free(&t);
}
END_TEST

/* Files and leaf dirs never share a directory, and no path repeats. */
START_TEST(test_leafdirs_separate)
{
	struct fs_tree t;
	char a[TREE_PATH_MAX], b[TREE_PATH_MAX];

	build(&t, 50, 40, 3, 0, 7);
	ck_assert_uint_eq(t.nfiles, 50);
	ck_assert_uint_eq(t.nleaf, 40);
	for (uint64_t e = 0; e < t.nleaf; e++) {
		uint32_t d = tree_leaf_dir(&t, e);

		ck_assert_uint_ge(d, t.nfiledirs);
		ck_assert(t.dirs[d].first <= e && e < t.dirs[d].first + t.dirs[d].count);
	}
	for (uint64_t e = 0; e < t.nfiles; e++)
		ck_assert_uint_lt(tree_file_dir(&t, e), t.nfiledirs);
	/* top-level dirs of the two subtrees are numbered apart */
	for (uint32_t d = 1; d < t.ndirs; d++) {
		for (uint32_t d2 = d + 1; d2 < t.ndirs; d2++) {
			tree_dir_relpath(&t, d, a);
			tree_dir_relpath(&t, d2, b);
			ck_assert_str_ne(a, b);
		}
	}
	for (uint64_t e = 0; e < t.nleaf; e++) {
		tree_leaf_relpath(&t, e, a);
		for (uint64_t f = 0; f < t.nfiles; f++) {
			tree_file_relpath(&t, f, b);
			ck_assert_str_ne(a, b);
			/* a leaf dir is never a file's directory */
			ck_assert(strncmp(b, a, strlen(a)) != 0 || b[strlen(a)] != '/');
		}
	}
	tree_free(&t);
}
END_TEST

/* Same seed, same tree; another seed, another tree (with dirgamma). */
START_TEST(test_deterministic)
{
	struct fs_tree t1, t2, t3;

	build(&t1, 5000, 100, 20, 1500, 42);
	build(&t2, 5000, 100, 20, 1500, 42);
	build(&t3, 5000, 100, 20, 1500, 43);
	ck_assert_uint_eq(t1.ndirs, t2.ndirs);
	ck_assert(memcmp(t1.dirs, t2.dirs, t1.ndirs * sizeof(*t1.dirs)) == 0);
	ck_assert(t1.ndirs != t3.ndirs ||
		  memcmp(t1.dirs, t3.dirs, t1.ndirs * sizeof(*t1.dirs)) != 0);
	tree_free(&t1);
	tree_free(&t2);
	tree_free(&t3);
}
END_TEST

static double size_sampler(void *ctx, struct rng *r)
{
	(void)ctx;
	return (double)(1 + rng_below(r, 1000));
}

START_TEST(test_sizes_vary)
{
	struct tree_params p = {
		.entries = 1000, .width = 10, .gamma1000 = 0, .size = 5,
		.size_rv = size_sampler,
	};
	struct fs_tree t;
	struct rng r;
	char err[128];
	uint64_t sum = 0;
	int distinct = 0;

	rng_seed(&r, 3);
	ck_assert_int_eq(tree_build(&t, &p, &r, err, sizeof(err)), 0);
	ck_assert_ptr_nonnull(t.sizes);
	for (uint64_t e = 0; e < 1000; e++) {
		ck_assert(tree_file_size(&t, e) >= 1 && tree_file_size(&t, e) <= 1000);
		sum += tree_file_size(&t, e);
		distinct += e && tree_file_size(&t, e) != tree_file_size(&t, e - 1);
	}
	ck_assert_uint_eq(sum, t.total_bytes);
	ck_assert_int_gt(distinct, 900);
	tree_free(&t);
}
END_TEST

/* CPU seconds of building a tree of `entries` (the fastest of five). */
static double build_seconds(uint64_t entries, uint64_t leafdirs)
{
	double best = 1e9;

	for (int k = 0; k < 5; k++) {
		struct timespec a, b;
		struct fs_tree t;
		double s;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
		build(&t, entries, leafdirs, 20, 1500, 9);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
		tree_free(&t);
		s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
		best = s < best ? s : best;
	}
	return best;
}

/*
 * 10^5 entries with dirgamma 1.5: fast, complete, widths near the mean.
 * Fast is linear: ten times the entries take well under forty times the
 * CPU time of 10^4 measured here (a quadratic population takes a hundred
 * times), so no machine's speed or load is assumed.
 */
/* Entry names and paths: the 8 digits printf's "%08u" gives, built two at a time. */
START_TEST(test_serial_names)
{
	static const uint32_t serials[] = { 1, 7, 9, 10, 42, 99, 100, 101, 909, 1000,
					    12345678, 10000000, 98765432, 99999999 };
	char got[16], want[16];

	for (size_t i = 0; i < sizeof(serials) / sizeof(serials[0]); i++) {
		memset(got, 'x', sizeof(got));
		tree_serial_name(serials[i], got);
		snprintf(want, sizeof(want), "%08u", serials[i]);
		ck_assert_str_eq(got, want);
	}
	for (uint32_t v = 1; v < 100000; v += 7) {
		tree_serial_name(v, got);
		snprintf(want, sizeof(want), "%08u", v);
		ck_assert_str_eq(got, want);
	}
}
END_TEST

START_TEST(test_large_fast)
{
	struct fs_tree t;
	uint64_t containers = 0, held = 0;
	double small = build_seconds(10000, 100), large = build_seconds(100000, 1000);

	ck_assert_msg(large < 40 * small, "population of 10^5 entries took "
		      "%.4f s of CPU, of 10^4 %.4f s", large, small);
	build(&t, 100000, 1000, 20, 1500, 9);
	ck_assert_uint_eq(t.nfiles, 100000);
	ck_assert_uint_eq(t.nleaf, 1000);
	for (uint32_t d = 1; d < t.nfiledirs; d++) {
		if (t.dirs[d].count) {
			containers++;
			held += t.dirs[d].count;
		}
	}
	ck_assert_uint_eq(held, 100000);
	ck_assert_msg(held / containers >= 10 && held / containers <= 40,
		      "mean files per directory %llu for width 20",
		      (unsigned long long)(held / containers));
	for (uint64_t e = 0; e < t.nfiles; e += 997) {
		uint32_t d = tree_file_dir(&t, e);

		ck_assert(t.dirs[d].first <= e && e < t.dirs[d].first + t.dirs[d].count);
		ck_assert_uint_le(tree_dir_depth(&t, d), TREE_MAX_DEPTH);
	}
	/* a tree this size costs well under a byte per file */
	ck_assert_uint_lt(tree_bytes(&t), 100000);
	tree_free(&t);
}
END_TEST

static Suite *tree_suite(void)
{
	Suite *s = suite_create("tree");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_single_file);
	tcase_add_test(tc, test_flat_example);
	tcase_add_test(tc, test_depth);
	tcase_add_test(tc, test_leafdirs_separate);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_sizes_vary);
	tcase_add_test(tc, test_large_fast);
	tcase_add_test(tc, test_serial_names);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(tree_suite)
