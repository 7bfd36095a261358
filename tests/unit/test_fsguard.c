/*
 * test_fsguard.c - the directories never used for a fileset
 * (runtime/fileset/fsguard.c): the root; the system trees and what is inside
 * them, but not the scratch space below /var/tmp, /dev/shm, /run/shm;
 * the shared directories themselves; the home directories of a password
 * database the test makes up (odd homes included: "/", /nonexistent,
 * system directories, duplicates, homes behind symbolic links) and of
 * the real one; every directory above any of these; system directories
 * that are symbolic links, followed to where they are (OSTree's /home
 * -> /var/home stays usable); and what stays allowed.  Only the guard's
 * answers are looked at: nothing is created outside a temporary
 * directory.
 */
#include <check.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/fileset/fsguard.h"

#include "tests/unit/check_main.h"

/* Each path of `list` refused (or allowed, when `refused` is false). */
static void check_all(struct fsguard_homes *h, const char *const *list, bool refused)
{
	for (int i = 0; list[i]; i++) {
		const char *why = fsguard_refusal(list[i], h);

		if (refused)
			ck_assert_msg(why != NULL, "%s allowed", list[i]);
		else
			ck_assert_msg(why == NULL, "%s refused: %s", list[i], why);
	}
}

static void says(struct fsguard_homes *h, const char *dir, const char *why)
{
	const char *got = fsguard_refusal(dir, h);

	ck_assert_msg(got != NULL, "%s allowed, expected '%s'", dir, why);
	ck_assert_msg(strcmp(got, why) == 0, "%s: '%s', expected '%s'", dir, got, why);
}

START_TEST(refuses_system_trees_at_and_below)
{
	static const char *const bad[] = {
		"/etc", "/etc/largefile1", "/usr", "/usr/lib", "/usr/local/x",
		"/bin", "/sbin/x", "/boot", "/boot/efi/EFI", "/lib", "/lib64",
		"/lib32/x", "/libx32", "/proc", "/proc/self", "/sys", "/sys/fs/x",
		"/dev", "/dev/sda", "/dev/shmem/x", "/var", "/var/lib",
		"/var/lib/dpkg", "/var/lib/flowbench-test", "/var/cache/apt",
		"/var/log/x", "/var/spool/x", "/var/mail/x", "/var/backups/x",
		"/var/opt/x", "/var/www/html", "/var/anything/x", "/var/tmpfoo",
		"/run", "/run/user", "/run/user/1000", "/run/user/1000/fs1",
		"/run/lock/x", "/srv", "/srv/bench/x", "/opt", "/opt/app/x", "/snap/x",
		"/lost+found", "/lost+found/x", "/efi/x", "/nix/store/x", NULL
	};

	struct fsguard_homes h;

	fsguard_homes_init(&h);
	check_all(&h, bad, true);
	says(&h, "/var/lib/dpkg", "it is inside the system tree /var/lib");
	says(&h, "/var/lib", "it is the system tree /var/lib");
	says(&h, "/var/www/html", "it is inside the system tree /var/www");
	says(&h, "/var/anything/x", "it is inside the system tree /var");
	says(&h, "/run/user/1000/fs1", "it is inside the system tree /run/user");
	says(&h, "/run/x", "it is inside the system tree /run");
	says(&h, "/usr/share", "it is inside the system tree /usr");
	says(&h, "/boot/efi/EFI", "it is inside the system tree /boot/efi");
	fsguard_homes_free(&h);
}
END_TEST

/* ".", "..", repeated slashes cannot walk out of a rule. */
START_TEST(paths_are_taken_lexically)
{
	static const char *const bad[] = {
		"/tmp/../etc", "/var/tmp/../lib/x", "//etc//", "/dev/shm/../sda",
		"/tmp/x/../..", "/home/./", "/./var/./lib/./dpkg", NULL
	};
	struct fsguard_homes h;

	fsguard_homes_init(&h);
	check_all(&h, bad, true);
	says(&h, "/var/tmp/../lib/x", "it is inside the system tree /var/lib");
	says(&h, "/tmp/x/../..", "it is the root directory");
	ck_assert_ptr_null(fsguard_refusal("/tmp/./x//", &h));
	ck_assert_str_eq(fsguard_refusal("relative/dir", &h), "it is not an absolute path");
	fsguard_homes_free(&h);
}
END_TEST

START_TEST(refuses_shared_dirs_but_not_inside)
{
	static const char *const shared[] = {
		"/tmp", "/var/tmp", "/dev/shm", "/run/shm", "/mnt", "/media", "/home",
		NULL
	};
	static const char *const fine[] = {
		"/tmp/largefile1", "/var/tmp/bigfileset", "/var/tmp/a/b",
		"/dev/shm/fs", "/run/shm/fs", "/mnt/test", "/mnt/test/x",
		"/media/usb/x", "/home/alice/bench/x", "/etcetera", "/usrdata/x",
		"/variable/x", "/runner/x", "/data/bigfileset", "/scratch/x",
		"/work/x", "/fs/x", NULL
	};
	struct fsguard_homes h;

	fsguard_homes_init(&h);
	check_all(&h, shared, true);
	check_all(&h, fine, false);
	says(&h, "/tmp", "it is the shared directory /tmp (use a directory inside it)");
	says(&h, "/dev/shm", "it is the shared directory /dev/shm (use a directory inside it)");
	fsguard_homes_free(&h);
}
END_TEST

/* The parents of every rule: "/" holds everything, /var holds /var/lib. */
START_TEST(refuses_parents)
{
	struct fsguard_homes h;

	fsguard_homes_init(&h);
	says(&h, "/", "it is the root directory");
	says(&h, "//", "it is the root directory");
	says(&h, "/var", "it is the system tree /var");
	says(&h, "/boot", "it is the system tree /boot");
	fsguard_homes_add(&h, "alice", "passwd", "/data/users/alice");
	says(&h, "/data", "it holds the home directory of user 'alice' (passwd)");
	ck_assert(fsguard_homes_add_link(&h, "/tmp", "/fast/tmp"));
	says(&h, "/fast", "it holds the shared directory /tmp (at /fast/tmp)");
	fsguard_homes_free(&h);
}
END_TEST

/* A made-up password database, odd entries included. */
START_TEST(refuses_every_home_and_its_parents)
{
	static const char *const passwd[][2] = {
		{ "alice", "/data/users/alice" }, { "bob", "/data/users/bob" },
		{ "alice2", "/data/users//alice/" }, { "daemon", "/usr/sbin" },
		{ "nobody", "/nonexistent" }, { "_apt", "/nonexistent" },
		{ "systemd-network", "/" }, { "postgres", "/var/lib/postgresql" },
		{ "irc", "/run/ircd" }, { "sys", "/dev" }, { "build", "/var/tmp/build" },
		{ "odd", "relative/home" }, { "empty", "" }, { NULL, NULL }
	};
	static const char *const fine[] = {
		"/data/users/alice/bench", "/data/users/alice/scratch/fs1",
		"/data/users/alicebench", "/data/users/carol", "/data/other/x",
		"/scratch/x", "/nonexistentx", "/var/tmp/build2", "/var/tmp/build/x",
		NULL
	};
	struct fsguard_homes h;

	fsguard_homes_init(&h);
	for (int i = 0; passwd[i][0]; i++)
		fsguard_homes_add(&h, passwd[i][0], "passwd", passwd[i][1]);
	/* "/", system directories, relative and empty homes add nothing */
	for (size_t i = 0; i < h.n; i++) {
		ck_assert_str_ne(h.home[i].dir, "/");
		ck_assert_msg(strncmp(h.home[i].dir, "/usr", 4) && strncmp(h.home[i].dir, "/var/lib", 8) &&
			      strncmp(h.home[i].dir, "/run", 4) && strncmp(h.home[i].dir, "/dev", 4),
			      "%s kept", h.home[i].dir);
	}
	ck_assert_int_eq(h.n, 6);
	says(&h, "/data/users/alice", "it is the home directory of user 'alice' (passwd)");
	says(&h, "/data/users/bob", "it is the home directory of user 'bob' (passwd)");
	says(&h, "/data/users", "it holds the home directory of user 'alice' (passwd)");
	says(&h, "/nonexistent", "it is the home directory of user 'nobody' (passwd)");
	says(&h, "/var/tmp/build", "it is the home directory of user 'build' (passwd)");
	says(&h, "/var/tmp", "it holds the home directory of user 'build' (passwd)");
	/* homes inside system trees are refused by the tree's rule */
	says(&h, "/var/lib/postgresql", "it is inside the system tree /var/lib");
	says(&h, "/run/ircd", "it is inside the system tree /run");
	says(&h, "/usr/sbin", "it is inside the system tree /usr");
	/* a home of "/" does not refuse everything */
	check_all(&h, fine, false);
	fsguard_homes_free(&h);
	ck_assert_int_eq(h.n, 0);
}
END_TEST

/* Homes behind symbolic links are refused where they are, and as named. */
START_TEST(resolves_homes)
{
	char tmpl[] = "/tmp/fsguard-test.XXXXXX";
	char *t = mkdtemp(tmpl);
	char *real, *link, *alice, *via_link, *bob, *bob_real, *inside;
	char *away, *dave, *dave_link;
	struct fsguard_homes h;

	ck_assert_ptr_nonnull(t);
	ck_assert_int_ge(asprintf(&real, "%s/real", t), 0);
	ck_assert_int_ge(asprintf(&link, "%s/link", t), 0);
	ck_assert_int_ge(asprintf(&alice, "%s/real/alice", t), 0);
	ck_assert_int_ge(asprintf(&via_link, "%s/link/alice", t), 0);
	ck_assert_int_ge(asprintf(&bob, "%s/link/bob", t), 0);
	ck_assert_int_ge(asprintf(&bob_real, "%s/real/bob", t), 0);
	ck_assert_int_ge(asprintf(&inside, "%s/real/alice/bench", t), 0);
	ck_assert_int_eq(mkdir(real, 0755), 0);
	ck_assert_int_eq(mkdir(alice, 0755), 0);
	ck_assert_int_ge(asprintf(&away, "%s/away", t), 0);
	ck_assert_int_ge(asprintf(&dave, "%s/away/dave", t), 0);
	ck_assert_int_ge(asprintf(&dave_link, "%s/real/dave", t), 0);
	ck_assert_int_eq(symlink(real, link), 0);
	ck_assert_int_eq(mkdir(away, 0755), 0);
	ck_assert_int_eq(mkdir(dave, 0755), 0);
	ck_assert_int_eq(symlink(dave, dave_link), 0);

	fsguard_homes_init(&h);
	fsguard_homes_add(&h, "alice", "passwd", via_link);	/* exists */
	fsguard_homes_add(&h, "bob", "passwd", bob);		/* not yet */
	fsguard_homes_add(&h, "dave", "passwd", dave_link);	/* a link */
	says(&h, dave, "it is the home directory of user 'dave' (passwd)");
	says(&h, away, "it holds the home directory of user 'dave' (passwd)");
	says(&h, alice, "it is the home directory of user 'alice' (passwd)");
	says(&h, via_link, "it is the home directory of user 'alice' (passwd)");
	says(&h, bob_real, "it is the home directory of user 'bob' (passwd)");
	says(&h, real, "it holds the home directory of user 'alice' (passwd)");
	says(&h, t, "it holds the home directory of user 'alice' (passwd)");
	ck_assert_ptr_null(fsguard_refusal(inside, &h));
	fsguard_homes_free(&h);

	ck_assert_int_eq(unlink(link), 0);
	ck_assert_int_eq(unlink(dave_link), 0);
	ck_assert_int_eq(rmdir(dave), 0);
	ck_assert_int_eq(rmdir(away), 0);
	ck_assert_int_eq(rmdir(alice), 0);
	ck_assert_int_eq(rmdir(real), 0);
	ck_assert_int_eq(rmdir(t), 0);
	free(real);
	free(link);
	free(alice);
	free(via_link);
	free(bob);
	free(bob_real);
	free(inside);
	free(away);
	free(dave);
	free(dave_link);
}
END_TEST

/* A home with ".." after a link: realpath's answer, not the lexical one. */
START_TEST(resolves_dotdot_after_a_link)
{
	char tmpl[] = "/tmp/fsguard-test.XXXXXX";
	char *t = mkdtemp(tmpl);
	char *deep, *inner, *carol, *link, *home;
	struct fsguard_homes h;

	ck_assert_ptr_nonnull(t);
	ck_assert_int_ge(asprintf(&deep, "%s/deep", t), 0);
	ck_assert_int_ge(asprintf(&inner, "%s/deep/inner", t), 0);
	ck_assert_int_ge(asprintf(&carol, "%s/deep/carol", t), 0);
	ck_assert_int_ge(asprintf(&link, "%s/l2", t), 0);
	ck_assert_int_ge(asprintf(&home, "%s/l2/../carol", t), 0);
	ck_assert_int_eq(mkdir(deep, 0755), 0);
	ck_assert_int_eq(mkdir(inner, 0755), 0);
	ck_assert_int_eq(mkdir(carol, 0755), 0);
	ck_assert_int_eq(symlink(inner, link), 0);

	fsguard_homes_init(&h);
	fsguard_homes_add(&h, "carol", "passwd", home);
	says(&h, carol, "it is the home directory of user 'carol' (passwd)");
	says(&h, deep, "it holds the home directory of user 'carol' (passwd)");
	fsguard_homes_free(&h);

	ck_assert_int_eq(unlink(link), 0);
	ck_assert_int_eq(rmdir(carol), 0);
	ck_assert_int_eq(rmdir(inner), 0);
	ck_assert_int_eq(rmdir(deep), 0);
	ck_assert_int_eq(rmdir(t), 0);
	free(deep);
	free(inner);
	free(carol);
	free(link);
	free(home);
}
END_TEST

/* System directories that are links are guarded where they lead. */
START_TEST(follows_system_links)
{
	struct fsguard_homes h;

	fsguard_homes_init(&h);
	ck_assert(fsguard_homes_add_link(&h, "/opt", "/data/opt"));
	ck_assert(fsguard_homes_add_link(&h, "/var", "/big/var"));
	ck_assert(fsguard_homes_add_link(&h, "/var/lib", "/big/var/lib"));
	ck_assert(fsguard_homes_add_link(&h, "/var/tmp", "/big/var/tmp"));
	ck_assert(!fsguard_homes_add_link(&h, "/data", "/elsewhere"));
	says(&h, "/data/opt", "it is the system tree /opt (at /data/opt)");
	says(&h, "/data/opt/app", "it is inside the system tree /opt (at /data/opt)");
	says(&h, "/data", "it holds the system tree /opt (at /data/opt)");
	says(&h, "/big/var/lib/dpkg", "it is inside the system tree /var/lib (at /big/var/lib)");
	says(&h, "/big/var/www", "it is inside the system tree /var (at /big/var)");
	says(&h, "/big/var/tmp", "it is the shared directory /var/tmp (at /big/var/tmp) "
	     "(use a directory inside it)");
	ck_assert_ptr_null(fsguard_refusal("/big/var/tmp/fs1", &h));
	ck_assert_ptr_null(fsguard_refusal("/data/optical", &h));
	/* a home inside a linked tree is the tree's */
	fsguard_homes_add(&h, "svc", "passwd", "/data/opt/svc");
	ck_assert_int_eq(h.n, 0);
	fsguard_homes_free(&h);
}
END_TEST

/* OSTree: /home -> /var/home, /root -> /var/roothome; homes stay usable. */
START_TEST(shared_dirs_linked_into_a_tree)
{
	struct fsguard_homes h;

	fsguard_homes_init(&h);
	ck_assert(fsguard_homes_add_link(&h, "/home", "/var/home"));
	ck_assert(fsguard_homes_add_link(&h, "/root", "/var/roothome"));
	ck_assert(fsguard_homes_add_link(&h, "/mnt", "/var/mnt"));
	fsguard_homes_add(&h, "alice", "passwd", "/var/home/alice");
	fsguard_homes_add(&h, "root", "passwd", "/var/roothome");
	ck_assert_int_eq(h.n, 2);	/* below /var, but each one a shared place's */
	ck_assert_ptr_null(fsguard_refusal("/var/home/alice/bench", &h));
	ck_assert_ptr_null(fsguard_refusal("/var/home/bob", &h));
	ck_assert_ptr_null(fsguard_refusal("/var/roothome/bench", &h));
	ck_assert_ptr_null(fsguard_refusal("/var/mnt/test", &h));
	says(&h, "/var/home/alice", "it is the home directory of user 'alice' (passwd)");
	says(&h, "/var/roothome", "it is the home directory of user 'root' (passwd)");
	says(&h, "/var/mnt", "it is the shared directory /mnt (at /var/mnt) "
	     "(use a directory inside it)");
	says(&h, "/var/lib/x", "it is inside the system tree /var/lib");
	says(&h, "/var/x", "it is inside the system tree /var");
	fsguard_homes_free(&h);
	fsguard_homes_init(&h);
	says(&h, "/root", "it is the home directory /root (use a directory inside it)");
	ck_assert_ptr_null(fsguard_refusal("/root/bench", &h));
	fsguard_homes_free(&h);
}
END_TEST

/*
 * The machine's: every passwd home (and $HOME) refused, with its parent;
 * the system directories that are links here (merged /usr: /bin).
 */
START_TEST(finds_the_machines_homes)
{
	static const char *const links[] = {
		"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/var/run", "/var/lock",
		"/var/mail", NULL
	};
	struct fsguard_homes h;
	struct passwd *pw;
	int checked = 0;

	setenv("HOME", "/tmp/../tmp", 1);
	fsguard_homes_get(&h);
	ck_assert(!h.incomplete);
	for (size_t i = 1; i < h.n; i++)
		ck_assert_msg(strcmp(h.home[i - 1].dir, h.home[i].dir) < 0,
			      "%s listed twice or out of order", h.home[i].dir);
	pw = getpwuid(getuid());
	ck_assert_ptr_nonnull(pw);
	ck_assert_ptr_nonnull(fsguard_refusal("/tmp", &h));
	ck_assert_msg(strstr(fsguard_refusal("/tmp", &h), "($HOME)"), "%s",
		      fsguard_refusal("/tmp", &h));
	setpwent();
	while ((pw = getpwent())) {
		char *home = pw->pw_dir[0] == '/' ? realpath(pw->pw_dir, NULL) : NULL;

		const char *why;

		if (!home)
			continue;
		why = fsguard_refusal(home, &h);
		ck_assert_msg(why, "%s's home %s allowed", pw->pw_name, home);
		/* found in the list, not only by its owner (owner_rule) */
		ck_assert_msg(!strstr(why, "(its owner)"), "%s: %s", home, why);
		*strrchr(home, '/') = '\0';
		ck_assert_msg(!home[0] || fsguard_refusal(home, &h),
			      "%s's home's parent %s allowed", pw->pw_name, home);
		free(home);
		checked++;
	}
	endpwent();
	ck_assert_int_ge(checked, 1);
	/* system directories that are links here are known where they lead */
	for (const char *const *l = links; *l; l++) {
		struct stat st;
		char *real;
		bool found = false;

		if (lstat(*l, &st) < 0 || !S_ISLNK(st.st_mode) || !(real = realpath(*l, NULL)))
			continue;
		for (size_t i = 0; i < h.nlinks; i++)
			found = found || strcmp(h.link[i].real, real) == 0;
		ck_assert_msg(found, "%s -> %s not known", *l, real);
		free(real);
	}
	fsguard_homes_free(&h);
	ck_assert_int_eq(h.n, 0);
}
END_TEST

/*
 * An existing directory that is its owner's home, whatever getpwent
 * lists: the guard is given no homes; each home below /home owned by its
 * user (the machine's, when there is one) is found through its owner.
 */
START_TEST(refuses_the_owners_home)
{
	char tmpl[] = "/tmp/fsguard-test.XXXXXX";
	char *mine = mkdtemp(tmpl);
	struct fsguard_homes h;
	struct passwd *pw;

	ck_assert_ptr_nonnull(mine);
	fsguard_homes_init(&h);
	ck_assert_ptr_null(fsguard_refusal(mine, &h));	/* ours, not a home */
	ck_assert_int_eq(rmdir(mine), 0);
	setpwent();
	while ((pw = getpwent())) {
		char *home = pw->pw_dir[0] == '/' ? realpath(pw->pw_dir, NULL) : NULL;
		struct passwd *owner;
		struct stat st;
		char *expect;

		if (home && strncmp(home, "/home/", 6) == 0 && stat(home, &st) == 0 &&
		    st.st_uid == pw->pw_uid && (owner = getpwuid(st.st_uid)) &&
		    strcmp(owner->pw_name, pw->pw_name) == 0) {
			ck_assert_int_ge(asprintf(&expect, "it is the home directory of "
						  "user '%s' (its owner)", pw->pw_name), 0);
			says(&h, home, expect);
			free(expect);
		}
		free(home);
	}
	endpwent();
	fsguard_homes_free(&h);
}
END_TEST

START_TEST(refuses_everything_when_incomplete)
{
	struct fsguard_homes h;

	fsguard_homes_init(&h);
	h.incomplete = true;
	ck_assert_ptr_nonnull(fsguard_refusal("/scratch/fs1", &h));
	fsguard_homes_free(&h);
}
END_TEST

static Suite *fsguard_suite(void)
{
	Suite *s = suite_create("fsguard");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, refuses_system_trees_at_and_below);
	tcase_add_test(tc, paths_are_taken_lexically);
	tcase_add_test(tc, refuses_shared_dirs_but_not_inside);
	tcase_add_test(tc, refuses_parents);
	tcase_add_test(tc, refuses_every_home_and_its_parents);
	tcase_add_test(tc, resolves_homes);
	tcase_add_test(tc, resolves_dotdot_after_a_link);
	tcase_add_test(tc, follows_system_links);
	tcase_add_test(tc, shared_dirs_linked_into_a_tree);
	tcase_add_test(tc, finds_the_machines_homes);
	tcase_add_test(tc, refuses_the_owners_home);
	tcase_add_test(tc, refuses_everything_when_incomplete);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fsguard_suite)
