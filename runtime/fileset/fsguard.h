/*
 * fsguard.h - where a fileset's directory may never be.
 *
 * flowbench creates, cleans and (with --force) adopts one directory per
 * file or fileset, <path>/<name>.  Whatever the workload or the command
 * line says, some directories are never used that way: the root
 * directory; every system tree of the file system hierarchy (/etc, /usr,
 * /var, /run, ...) and everything inside it, except the scratch space
 * below /var/tmp, /dev/shm and /run/shm; the shared directories
 * themselves (/tmp, /home, /mnt, ..., and /root); every home directory of the
 * password database (and $HOME); and every directory above any of these.
 * docs/robustness.md lists them.  The rules are checked on the resolved
 * path, and the system directories that are symbolic links (/bin ->
 * /usr/bin, /opt -> /data/opt) are checked where they really are.
 */
#ifndef FLOWBENCH_FSGUARD_H
#define FLOWBENCH_FSGUARD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

/* Room for the longest refusal phrase: a path and a user's name. */
#define FSGUARD_WHY_MAX (PATH_MAX + 512)

/* A home directory, and whose it is for the message. */
struct fsguard_home {
	char *dir;	/* absolute, normalized; resolved where it exists */
	char *whose;	/* "user 'alice' (passwd)" */
	size_t seq;	/* the order it was found: the first owner is named */
};

/* A system directory that is a symbolic link, and where it really is. */
struct fsguard_link {
	char *real;
	size_t sysdir;	/* its index in fsguard.c's table */
};

/*
 * What the guard knows about this machine: the home directories and the
 * system directories reached through symbolic links; plus room for the
 * last refusal's phrase.
 */
struct fsguard_homes {
	struct fsguard_home *home;
	size_t n, cap;
	struct fsguard_link *link;
	size_t nlinks;
	char *parent, *parent_real;	/* the last home's parent, resolved */
	bool incomplete;	/* out of memory while gathering: refuse all */
	char why[FSGUARD_WHY_MAX];
};

/* No homes and no links (what tests start from). */
void fsguard_homes_init(struct fsguard_homes *h);

/*
 * The machine's: every entry of the password database (getpwent), the
 * current user's and $SUDO_USER's entries, and $HOME; the system
 * directories that are symbolic links.  Not thread-safe (getpwent).
 */
void fsguard_homes_get(struct fsguard_homes *h);

/*
 * Add `dir`, the home of `user` found in `source` ("passwd", "$HOME"),
 * resolved as far as it exists.  A home of "/", or one inside a system
 * tree, adds nothing: the tree's rule already refuses it and the
 * directories above it.  Adding a link of a system directory first
 * (fsguard_homes_add_link) lets that rule see through it.
 */
void fsguard_homes_add(struct fsguard_homes *h, const char *user,
		       const char *source, const char *dir);

/*
 * Record that the system directory `sysdir` ("/opt") is really `real`
 * ("/data/opt").  False when `sysdir` is not in the table.
 */
bool fsguard_homes_add_link(struct fsguard_homes *h, const char *sysdir,
			    const char *real);

/* Free the lists; h->why, the last refusal's phrase, stays readable. */
void fsguard_homes_free(struct fsguard_homes *h);

/*
 * Why the absolute path `dir` (resolved by the caller; ".", ".." and
 * repeated slashes are taken lexically here) must not be a fileset's
 * directory: a phrase saying which rule refuses it ("it is inside the
 * system tree /var/lib"), kept in h->why until the next call (even
 * after fsguard_homes_free); or NULL
 * when it may.  An existing `dir` is also refused when it is the home
 * directory of the user owning it, which finds homes the password
 * database does not enumerate (LDAP, sssd).
 */
const char *fsguard_refusal(const char *dir, struct fsguard_homes *h);

#endif
