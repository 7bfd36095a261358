/*
 * test_fsaccess.c - the pieces that keep a fileset's writes inside it:
 * runtime/fileset/beneath.c (paths resolved below a held directory, no link
 * followed, both with openat2 and with the component-by-component
 * fallback) and runtime/fileset/marker.c (the marker's text, the reserved
 * top-level ranges, the ownership rule, the run's lock).  Everything
 * happens in a fresh temporary directory.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/fileset/beneath.h"
#include "runtime/fileset/marker.h"

#include "tests/unit/check_main.h"

static char top[64];
static int topfd = -1;

static void make_tree(void)
{
	char path[128];
	int fd;

	snprintf(top, sizeof(top), "/tmp/test_fsaccess.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(top));
	topfd = open(top, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ck_assert_int_ge(topfd, 0);
	/* root/00000001/00000001 (a file), root/00000002 -> outside, outside/x */
	ck_assert_int_eq(mkdirat(topfd, "root", 0755), 0);
	ck_assert_int_eq(mkdirat(topfd, "root/00000001", 0755), 0);
	ck_assert_int_eq(mkdirat(topfd, "outside", 0755), 0);
	fd = openat(topfd, "root/00000001/00000001", O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
	fd = openat(topfd, "outside/00000001", O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "keep", 4), 4);
	close(fd);
	snprintf(path, sizeof(path), "%s/outside", top);
	ck_assert_int_eq(symlinkat(path, topfd, "root/00000002"), 0);
	ck_assert_int_eq(symlinkat("../../outside/00000001", topfd,
				   "root/00000001/00000003"), 0);
}

static void remove_tree(void)
{
	static const char *const files[] = {
		"root/00000001/00000001", "root/00000001/00000003", "root/00000002",
		"root/00000001/new", "outside/00000001", "root/.flowbench", NULL
	};

	for (int i = 0; files[i]; i++)
		unlinkat(topfd, files[i], 0);
	unlinkat(topfd, "root/00000001/d", AT_REMOVEDIR);
	unlinkat(topfd, "root/00000001", AT_REMOVEDIR);
	unlinkat(topfd, "root", AT_REMOVEDIR);
	unlinkat(topfd, "outside", AT_REMOVEDIR);
	close(topfd);
	rmdir(top);
}

static int open_root(void)
{
	int fd = openat(topfd, "root", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	ck_assert_int_ge(fd, 0);
	return fd;
}

/* Both ways of resolving must refuse the same things. */
typedef int (*opener)(int, const char *, int, mode_t);
static const opener openers[] = { beneath_open, beneath_open_walk };

START_TEST(opens_below_without_links)
{
	int root = open_root();
	opener op = openers[_i];
	int fd;

	fd = op(root, "00000001/00000001", O_RDWR, 0);
	ck_assert_int_ge(fd, 0);
	close(fd);
	/* a link as the directory on the way */
	errno = 0;
	ck_assert_int_eq(op(root, "00000002/00000001", O_RDWR, 0), -1);
	ck_assert_int_eq(errno, ELOOP);
	/* a link as the last component, to open and to create */
	errno = 0;
	ck_assert_int_eq(op(root, "00000001/00000003", O_RDWR, 0), -1);
	ck_assert_int_eq(errno, ELOOP);
	errno = 0;
	ck_assert_int_eq(op(root, "00000001/00000003", O_RDWR | O_CREAT, 0644), -1);
	ck_assert_int_eq(errno, ELOOP);
	/* no way up or out */
	ck_assert_int_eq(op(root, "../outside/00000001", O_RDONLY, 0), -1);
	ck_assert_int_eq(op(root, "/etc/passwd", O_RDONLY, 0), -1);
	/* creating a new file works */
	fd = op(root, "00000001/new", O_RDWR | O_CREAT | O_EXCL, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
	close(root);
}
END_TEST

START_TEST(parent_and_mkdir)
{
	int root = open_root();
	const char *leaf;
	struct stat st;
	int pfd;

	pfd = beneath_parent(root, "00000001/00000001", &leaf);
	ck_assert_int_ge(pfd, 0);
	ck_assert_int_ne(pfd, root);
	ck_assert_str_eq(leaf, "00000001");
	ck_assert_int_eq(fstatat(pfd, leaf, &st, AT_SYMLINK_NOFOLLOW), 0);
	ck_assert(S_ISREG(st.st_mode));
	beneath_close_parent(root, pfd);
	/* one component: the root itself, not to be closed */
	pfd = beneath_parent(root, "00000007", &leaf);
	ck_assert_int_eq(pfd, root);
	ck_assert_str_eq(leaf, "00000007");
	beneath_close_parent(root, pfd);
	ck_assert_int_ge(fcntl(root, F_GETFD), 0);
	/* the parent through a link is refused */
	errno = 0;
	ck_assert_int_eq(beneath_parent(root, "00000002/00000001", &leaf), -1);
	ck_assert_int_eq(errno, ELOOP);
	ck_assert_int_eq(beneath_mkdir(root, "00000002/d", 0755), -1);
	ck_assert_int_eq(errno, ELOOP);
	ck_assert_int_eq(fstatat(topfd, "outside/d", &st, 0), -1);
	ck_assert_int_eq(beneath_mkdir(root, "00000001/d", 0755), 0);
	close(root);
}
END_TEST

START_TEST(marker_text)
{
	static const char ok[] =
		"This directory was created by flowbench; it owns and may delete "
		"its contents.\nflowbench-marker 2\nowns 00000001-00000003\n"
		"owns 00000010-00000010\n";
	static const char legacy[] =
		"This directory was adopted by flowbench (--force); it may delete the "
		"entries with its own 8-digit names, never other files.\n";
	static const char *const bad[] = {
		"", "hello\n", "This directory was created by flowbench\nowns x\n",
		"This directory was created by flowbench\nflowbench-marker 2\n"
		"owns 00000003-00000001\n",
		"This directory was created by flowbench\nflowbench-marker 2\nextra\n",
		NULL
	};
	struct fs_marker m = { .fd = -1 };
	bool old;

	ck_assert_int_eq(marker_parse(ok, strlen(ok), &m, &old), 0);
	ck_assert(!old);
	ck_assert(!m.adopted);
	ck_assert(marker_owns(&m, 1) && marker_owns(&m, 3) && marker_owns(&m, 10));
	ck_assert(!marker_owns(&m, 0) && !marker_owns(&m, 4) && !marker_owns(&m, 11));
	marker_close(&m);
	ck_assert_int_eq(marker_parse(legacy, strlen(legacy), &m, &old), 0);
	ck_assert(old && m.adopted && m.nowned == 0);
	marker_close(&m);
	for (int i = 0; bad[i]; i++) {
		memset(&m, 0, sizeof(m));
		ck_assert_msg(marker_parse(bad[i], strlen(bad[i]), &m, &old) < 0,
			      "accepted: %s", bad[i]);
		marker_close(&m);
	}
	ck_assert_uint_eq(marker_serial_of("00000042"), 42);
	ck_assert_uint_eq(marker_serial_of("20231231"), 20231231);
	ck_assert_uint_eq(marker_serial_of("0000004"), 0);
	ck_assert_uint_eq(marker_serial_of("000000042"), 0);
	ck_assert_uint_eq(marker_serial_of("0000004x"), 0);
	ck_assert_uint_eq(marker_serial_of("00000000"), 0);
}
END_TEST

START_TEST(marker_ranges_merge)
{
	struct fs_marker m = { .fd = -1 };

	ck_assert_int_eq(marker_reserve(&m, 5, 7), 0);
	ck_assert_int_eq(marker_reserve(&m, 1, 2), 0);
	ck_assert_int_eq(marker_reserve(&m, 10, 12), 0);
	ck_assert_uint_eq(m.nowned, 3);
	ck_assert_int_eq(marker_reserve(&m, 3, 4), 0);     /* joins 1-2 and 5-7 */
	ck_assert_uint_eq(m.nowned, 2);
	ck_assert_uint_eq(m.owned[0].lo, 1);
	ck_assert_uint_eq(m.owned[0].hi, 7);
	ck_assert_int_eq(marker_reserve(&m, 6, 20), 0);    /* swallows 10-12 */
	ck_assert_uint_eq(m.nowned, 1);
	ck_assert_uint_eq(m.owned[0].hi, 20);
	ck_assert_int_eq(marker_reserve(&m, 30, 30), 0);
	ck_assert(marker_owns(&m, 30) && !marker_owns(&m, 29) && !marker_owns(&m, 21));
	marker_close(&m);
}
END_TEST

START_TEST(ownership_rule)
{
	struct fs_marker m = { .fd = -1, .owner = 1000 };
	struct stat st = { .st_mode = S_IFREG | 0644, .st_nlink = 1, .st_uid = 1000 };
	char why[160];

	ck_assert_ptr_null(marker_foreign(&m, &st, why, sizeof(why)));
	st.st_nlink = 0;              /* an open file removed since: ours */
	ck_assert_ptr_null(marker_foreign(&m, &st, why, sizeof(why)));
	st.st_nlink = 2;
	ck_assert_ptr_nonnull(marker_foreign(&m, &st, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "2 links"));
	st.st_nlink = 1;
	st.st_uid = 0;
	ck_assert_ptr_nonnull(marker_foreign(&m, &st, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "uid 0"));
	st.st_uid = 1000;
	st.st_mode = S_IFIFO | 0644;
	ck_assert_ptr_nonnull(marker_foreign(&m, &st, why, sizeof(why)));
	st.st_mode = S_IFDIR | 0755;
	st.st_nlink = 5;              /* directories have many links */
	ck_assert_ptr_null(marker_foreign(&m, &st, why, sizeof(why)));
}
END_TEST

START_TEST(marker_on_disk_and_lock)
{
	int root = open_root();
	struct fs_marker a, b;
	struct stat st;

	ck_assert_int_eq(marker_open(root, "root", &a), MARKER_NONE);
	ck_assert_int_eq(marker_create(root, "root", false, &a), 0);
	ck_assert_int_eq(marker_reserve(&a, 1, 4), 0);
	ck_assert_int_eq(marker_save(&a, "root"), 0);
	/* a second opener (another run) is refused while `a` holds it */
	ck_assert_int_eq(marker_open(root, "root", &b), MARKER_ERROR);
	ck_assert_int_eq(fstatat(root, MARKER_NAME, &st, 0), 0);
	ck_assert_uint_eq(st.st_uid, a.owner);
	marker_close(&a);
	ck_assert_int_eq(marker_open(root, "root", &b), MARKER_OURS);
	ck_assert(marker_owns(&b, 4) && !marker_owns(&b, 5));
	marker_close(&b);
	/* a marker with a second link is not used, nor written */
	ck_assert_int_eq(linkat(root, MARKER_NAME, topfd, "outside/m", 0), 0);
	ck_assert_int_eq(marker_open(root, "root", &b), MARKER_ERROR);
	unlinkat(topfd, "outside/m", 0);
	close(root);
}
END_TEST

static Suite *fsaccess_suite(void)
{
	Suite *s = suite_create("fsaccess");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, make_tree, remove_tree);
	tcase_add_loop_test(tc, opens_below_without_links, 0, 2);
	tcase_add_test(tc, parent_and_mkdir);
	tcase_add_test(tc, marker_text);
	tcase_add_test(tc, marker_ranges_merge);
	tcase_add_test(tc, ownership_rule);
	tcase_add_test(tc, marker_on_disk_and_lock);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fsaccess_suite)
