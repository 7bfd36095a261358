/*
 * test_fsguard.c - the directories never used for a fileset
 * (runtime/fsguard.c): the root, system trees and what is inside them,
 * top-level directories themselves, home directories and their parents;
 * and what stays allowed (scratch space below them, names that merely
 * start like a system directory).  The real / and $HOME are never touched:
 * the check is a function of the path.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/fsguard.h"

#include "tests/unit/check_main.h"

static struct fsguard_homes homes(const char *a, const char *b)
{
	struct fsguard_homes h = { .n = 0 };

	if (a)
		h.dir[h.n++] = (char *)a;
	if (b)
		h.dir[h.n++] = (char *)b;
	return h;
}

START_TEST(refuses_root_and_system_trees)
{
	static const char *const bad[] = {
		"/", "/etc", "/etc/largefile1", "/usr", "/usr/lib", "/usr/local/x",
		"/bin", "/sbin/x", "/boot", "/lib", "/lib64", "/lib32/x", "/libx32",
		"/proc", "/proc/self", "/sys", "/sys/fs/x", "/dev", "/dev/sda",
		NULL
	};

	for (int i = 0; bad[i]; i++)
		ck_assert_msg(fsguard_refusal(bad[i], NULL) != NULL, "%s allowed", bad[i]);
	ck_assert_str_eq(fsguard_refusal("/", NULL), "it is the root directory");
	ck_assert_str_eq(fsguard_refusal("/usr/share", NULL),
			 "it is inside a system directory");
}
END_TEST

START_TEST(refuses_top_level_dirs_but_not_inside)
{
	static const char *const top[] = {
		"/tmp", "/var", "/var/tmp", "/home", "/root", "/mnt", "/opt",
		"/srv", "/media", "/run", "/dev/shm", "/var/lib", "/var/log", NULL
	};
	static const char *const fine[] = {
		"/tmp/largefile1", "/var/tmp/bigfileset", "/mnt/test/x",
		"/dev/shm/fs", "/home/alice/bench/x", "/etcetera", "/usrdata/x",
		"/data/bigfileset", "/srv/bench/x", NULL
	};

	for (int i = 0; top[i]; i++)
		ck_assert_msg(fsguard_refusal(top[i], NULL) != NULL, "%s allowed", top[i]);
	for (int i = 0; fine[i]; i++)
		ck_assert_msg(fsguard_refusal(fine[i], NULL) == NULL, "%s refused: %s",
			      fine[i], fsguard_refusal(fine[i], NULL));
}
END_TEST

START_TEST(refuses_home_and_its_parents)
{
	struct fsguard_homes h = homes("/data/users/alice", "/root");

	ck_assert_str_eq(fsguard_refusal("/data/users/alice", &h),
			 "it is the home directory");
	ck_assert_str_eq(fsguard_refusal("/data/users", &h), "it holds the home directory");
	ck_assert_str_eq(fsguard_refusal("/data", &h), "it holds the home directory");
	ck_assert_ptr_null(fsguard_refusal("/data/users/alice/bench", &h));
	ck_assert_ptr_null(fsguard_refusal("/data/users/alicebench", &h));
	ck_assert_ptr_null(fsguard_refusal("/data/users/bob", &h));
	ck_assert_str_eq(fsguard_refusal("/root", &h), "it is the home directory");
	ck_assert_ptr_null(fsguard_refusal("/root/bench", &h));
	ck_assert_ptr_nonnull(fsguard_refusal("relative/dir", &h));
}
END_TEST

/* The real home directories are found, resolved, without duplicates. */
START_TEST(finds_homes)
{
	struct fsguard_homes h;

	setenv("HOME", "/tmp/../tmp", 1);
	fsguard_homes_get(&h);
	ck_assert_int_ge(h.n, 1);
	ck_assert_str_eq(h.dir[0], "/tmp");
	for (int i = 1; i < h.n; i++)
		ck_assert_str_ne(h.dir[i], h.dir[0]);
	ck_assert_str_eq(fsguard_refusal("/tmp", &h), "it is the home directory");
	fsguard_homes_free(&h);
	ck_assert_int_eq(h.n, 0);
}
END_TEST

static Suite *fsguard_suite(void)
{
	Suite *s = suite_create("fsguard");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, refuses_root_and_system_trees);
	tcase_add_test(tc, refuses_top_level_dirs_but_not_inside);
	tcase_add_test(tc, refuses_home_and_its_parents);
	tcase_add_test(tc, finds_homes);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fsguard_suite)
