/*
 * test_catalog.c - the workload catalogue: the one-line description is
 * taken from a header's first comment line with text, in the form
 * "# NAME.f - description", and nothing else; `list` prints NAME.f files
 * only, sorted and aligned; a bare name resolves to <catalogue>/NAME.f
 * only when no such file is in the current directory; without
 * FLOWBENCH_WORKLOADS a binary still in its build tree reads the source
 * tree's workloads/.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/catalog.h"

#include "tests/unit/check_main.h"

static char desc[256];

static int describe(const char *text)
{
	memset(desc, 'x', sizeof(desc));
	return catalog_description(text, desc, sizeof(desc));
}

START_TEST(test_plain_header)
{
	ck_assert_int_eq(describe("# fileserver.f - a busy file server\n#\n# more\nset $dir=/tmp\n"), 0);
	ck_assert_str_eq(desc, "a busy file server");
}
END_TEST

/* randomrw.f opens its header with a bare '#' line */
START_TEST(test_leading_empty_comment_lines)
{
	ck_assert_int_eq(describe("\n#\n  #   \n# randomrw.f - random reads and writes\n"), 0);
	ck_assert_str_eq(desc, "random reads and writes");
	ck_assert_int_eq(describe("## x.f - doubled hashes, tabs\t \r\n"), 0);
	ck_assert_str_eq(desc, "doubled hashes, tabs");
}
END_TEST

START_TEST(test_dash_inside_description)
{
	ck_assert_int_eq(describe("# a-b.f - one - two\n"), 0);
	ck_assert_str_eq(desc, "one - two");
	ck_assert_int_eq(describe("# last.f - no newline at the end"), 0);
	ck_assert_str_eq(desc, "no newline at the end");
}
END_TEST

START_TEST(test_not_a_title)
{
	/* a statement before any comment */
	ck_assert_int_eq(describe("set $dir=/tmp\n# x.f - too late\n"), -1);
	/* the first comment line with text decides, even if a title follows */
	ck_assert_int_eq(describe("# just some words\n# x.f - too late\n"), -1);
	/* the name must be a NAME.f word, followed by " - " */
	ck_assert_int_eq(describe("# x - not a workload name\n"), -1);
	ck_assert_int_eq(describe("# x.f-no spaces\n"), -1);
	ck_assert_int_eq(describe("# x.f description without dash\n"), -1);
	ck_assert_int_eq(describe("# .f - nameless\n"), -1);
	ck_assert_int_eq(describe("# x.f -   \n"), -1);
	ck_assert_int_eq(describe(""), -1);
	ck_assert_int_eq(describe("#\n#\n"), -1);
}
END_TEST

START_TEST(test_truncated_to_buffer)
{
	char small[6];

	ck_assert_int_eq(catalog_description("# x.f - abcdefghij\n", small,
					     sizeof(small)), 0);
	ck_assert_str_eq(small, "abcde");
}
END_TEST

/* A scratch directory for the file-system tests. */
static char scratch[64];

static void make_scratch(void)
{
	strcpy(scratch, "/tmp/test_catalog.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(scratch));
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static void remove_scratch(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	ck_assert_int_eq(system(cmd), 0);
}

/* Run catalog_list_dir() into strings. */
static int list(const char *dir, char **out, char **err)
{
	size_t no, ne;
	FILE *o = open_memstream(out, &no), *e = open_memstream(err, &ne);
	int rc = catalog_list_dir(dir, o, e);

	fclose(o);
	fclose(e);
	return rc;
}

START_TEST(test_list_sorted_aligned)
{
	char sub[128], *out, *err;

	make_scratch();
	put(scratch, "webserver.f", "# webserver.f - serves pages\nrun 1\n");
	put(scratch, "copy.f", "#\n# copy.f - copies files\n");
	put(scratch, "bare.f", "set $x=1\n");
	put(scratch, "notes.txt", "# notes.f - not a workload\n");
	put(scratch, ".hidden.f", "# hidden.f - hidden\n");
	snprintf(sub, sizeof(sub), "%s/dir.f", scratch);
	ck_assert_int_eq(mkdir(sub, 0755), 0);

	ck_assert_int_eq(list(scratch, &out, &err), 0);
	ck_assert_str_eq(out,
		"bare       (no description: the header has no '# NAME.f - ...' line)\n"
		"copy       copies files\n"
		"webserver  serves pages\n");
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	remove_scratch();
}
END_TEST

START_TEST(test_list_errors)
{
	char *out, *err;

	make_scratch();
	ck_assert_int_eq(list(scratch, &out, &err), 1);
	ck_assert_str_eq(out, "");
	ck_assert_ptr_nonnull(strstr(err, "no workload"));
	ck_assert_ptr_nonnull(strstr(err, scratch));
	free(out);
	free(err);

	remove_scratch();
	ck_assert_int_eq(list(scratch, &out, &err), 1);
	ck_assert_ptr_nonnull(strstr(err, "cannot read the workload catalogue"));
	ck_assert_ptr_nonnull(strstr(err, "No such file"));
	free(out);
	free(err);
}
END_TEST

START_TEST(test_catalog_dir_env)
{
	bool from_env = true;

	unsetenv("FLOWBENCH_WORKLOADS");
	ck_assert_str_eq(catalog_dir(&from_env), FLOWBENCH_WORKLOADS_DIR);
	ck_assert(!from_env);
	setenv("FLOWBENCH_WORKLOADS", "", 1);
	ck_assert_str_eq(catalog_dir(&from_env), FLOWBENCH_WORKLOADS_DIR);
	ck_assert(!from_env);
	setenv("FLOWBENCH_WORKLOADS", "/somewhere/else", 1);
	ck_assert_str_eq(catalog_dir(&from_env), "/somewhere/else");
	ck_assert(from_env);
	ck_assert_str_eq(catalog_dir(NULL), "/somewhere/else");
	unsetenv("FLOWBENCH_WORKLOADS");
}
END_TEST

/*
 * Without FLOWBENCH_WORKLOADS, a binary in the build tree it was built in
 * reads the source tree's workloads/ (the Quick start's build/flowbench,
 * nothing installed); any other binary, or a missing source tree, the
 * installed directory.
 */
START_TEST(test_default_dir)
{
	char build[128], src[128], other[128], link[128], exe[160];
	const char *inst = "/nonexistent/share/flowbench/workloads";

	make_scratch();
	snprintf(build, sizeof(build), "%s/build", scratch);
	snprintf(src, sizeof(src), "%s/workloads", scratch);
	snprintf(other, sizeof(other), "%s/bin", scratch);
	snprintf(link, sizeof(link), "%s/build-link", scratch);
	ck_assert_int_eq(mkdir(build, 0755), 0);
	ck_assert_int_eq(mkdir(other, 0755), 0);
	ck_assert_int_eq(symlink(build, link), 0);

	snprintf(exe, sizeof(exe), "%s/flowbench", build);
	/* no source tree (a build tree whose sources are gone): installed */
	ck_assert_str_eq(catalog_default_dir(exe, build, src, inst), inst);
	ck_assert_int_eq(mkdir(src, 0755), 0);
	ck_assert_str_eq(catalog_default_dir(exe, build, src, inst), src);
	/* the build tree reached through a symbolic link is the same tree */
	ck_assert_str_eq(catalog_default_dir(exe, link, src, inst), src);
	snprintf(exe, sizeof(exe), "%s/flowbench-mpi", link);
	ck_assert_str_eq(catalog_default_dir(exe, build, src, inst), src);
	/* installed (or copied) elsewhere: never the build tree */
	snprintf(exe, sizeof(exe), "%s/flowbench", other);
	ck_assert_str_eq(catalog_default_dir(exe, build, src, inst), inst);
	ck_assert_str_eq(catalog_default_dir("flowbench", build, src, inst), inst);
	ck_assert_str_eq(catalog_default_dir(NULL, build, src, inst), inst);
	ck_assert_str_eq(catalog_default_dir(exe, NULL, NULL, inst), inst);

	remove_scratch();
}
END_TEST

START_TEST(test_resolve)
{
	char cat[128], cwd[128], want[160], *p, *old = getcwd(NULL, 0);

	make_scratch();
	snprintf(cat, sizeof(cat), "%s/cat", scratch);
	snprintf(cwd, sizeof(cwd), "%s/cwd", scratch);
	ck_assert_int_eq(mkdir(cat, 0755), 0);
	ck_assert_int_eq(mkdir(cwd, 0755), 0);
	put(cat, "wl.f", "# wl.f - w\n");
	ck_assert_int_eq(chdir(cwd), 0);
	snprintf(want, sizeof(want), "%s/wl.f", cat);

	p = catalog_resolve("wl", cat);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p, want);
	free(p);
	p = catalog_resolve("wl.f", cat);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p, want);
	free(p);
	ck_assert_ptr_null(catalog_resolve("nope", cat));
	ck_assert_ptr_null(catalog_resolve("./wl", cat));
	ck_assert_ptr_null(catalog_resolve("", cat));
	/* a file of that name here wins over the catalogue */
	put(".", "wl", "# here\n");
	ck_assert_ptr_null(catalog_resolve("wl", cat));

	ck_assert_int_eq(chdir(old), 0);
	free(old);
	remove_scratch();
}
END_TEST

static Suite *catalog_suite(void)
{
	Suite *s = suite_create("catalog");
	TCase *tc = tcase_create("description");

	tcase_add_test(tc, test_plain_header);
	tcase_add_test(tc, test_leading_empty_comment_lines);
	tcase_add_test(tc, test_dash_inside_description);
	tcase_add_test(tc, test_not_a_title);
	tcase_add_test(tc, test_truncated_to_buffer);
	suite_add_tcase(s, tc);
	tc = tcase_create("directory");
	tcase_add_test(tc, test_list_sorted_aligned);
	tcase_add_test(tc, test_list_errors);
	tcase_add_test(tc, test_catalog_dir_env);
	tcase_add_test(tc, test_default_dir);
	tcase_add_test(tc, test_resolve);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(catalog_suite)
