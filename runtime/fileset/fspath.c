/*
 * fspath.c - making a fileset's missing path below an existing directory,
 * link-free, marked, and undone on failure (why and the rules: fspath.h).
 */
#include "runtime/fileset/fspath.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/base/log.h"
#include "runtime/fileset/beneath.h"
#include "runtime/fileset/fsguard.h"
#include "runtime/fileset/marker.h"

#define FSPATH_MARK FSPATH_MARK_LINE "\nThis directory was made by flowbench for the " \
	"path of a fileset; flowbench removes it only while it holds nothing but " \
	"this file.\n"

char *fspath_existing(const char *path)
{
	char *p = strdup(path);
	struct stat st;
	size_t n;

	if (!p)
		return NULL;
	for (;;) {
		if (stat(p, &st) == 0)
			return p;
		if (errno != ENOENT)
			break;
		n = strlen(p);
		while (n > 1 && p[n - 1] == '/')       /* trailing slashes */
			p[--n] = '\0';
		while (n > 0 && p[n - 1] != '/')       /* the last component */
			n--;
		while (n > 1 && p[n - 1] == '/')       /* the slashes before it */
			n--;
		if (n == 0) {
			free(p);
			return strdup(".");
		}
		p[n] = '\0';
	}
	free(p);
	return NULL;
}

/* The part of `path` after its existing prefix `have` (slashes skipped). */
static const char *missing_part(const char *path, const char *have)
{
	const char *rest = strcmp(have, ".") == 0 && path[0] != '.' ? path :
			   path + strlen(have);

	while (*rest == '/')
		rest++;
	return rest;
}

/*
 * Is a directory the path would make (<real>/<c1>, <real>/<c1>/<c2>, ...:
 * say a user's home that does not exist yet, as /nonexistent is nobody's)
 * or the would-be root <real>/<rest>/<name> refused by the guard?  Logs it.
 */
static bool guard_refuses(const char *real, const char *rest, const char *name,
			  bool is_file)
{
	struct fsguard_homes homes;
	const char *why = NULL;
	char *root = NULL, *dir = NULL;
	size_t n = strlen(rest);

	if (asprintf(&root, "%s%s%s/%s", real, strcmp(real, "/") ? "/" : "", rest,
		     name) < 0) {
		log_error("out of memory");
		return true;
	}
	fsguard_homes_get(&homes);
	/* each directory to be made: root's prefixes ending where rest's words do */
	for (size_t i = 1; i <= n && !why; i++) {
		if (i < n && rest[i] != '/')
			continue;
		free(dir);
		dir = NULL;
		if (asprintf(&dir, "%s%s%.*s", real, strcmp(real, "/") ? "/" : "",
			     (int)i, rest) < 0) {
			log_error("out of memory");
			why = "out of memory";
			break;
		}
		why = fsguard_refusal(dir, &homes);
		if (why)
			log_error("refusing to make %s for the path of %s '%s': %s; "
				  "flowbench never creates, cleans or adopts it, even with --force",
				  dir, is_file ? "file" : "fileset", name, why);
	}
	if (!why && (why = fsguard_refusal(root, &homes)))
		log_error("refusing to use %s as the directory of %s '%s': %s; "
			  "flowbench never creates, cleans or adopts it, even with --force",
			  root, is_file ? "file" : "fileset", name, why);
	fsguard_homes_free(&homes);
	free(dir);
	free(root);
	return why != NULL;
}

/* Mark the directory `fd` (just made) as made for a path.  0 or -1. */
static int mark(int fd)
{
	int m = openat(fd, MARKER_NAME, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		       O_CLOEXEC, 0644);
	ssize_t len = (ssize_t)strlen(FSPATH_MARK);
	int rc = 0;

	if (m < 0)
		return -1;
	if (write(m, FSPATH_MARK, (size_t)len) != len)
		rc = -1;
	if (close(m) < 0)
		rc = -1;
	return rc;
}

/*
 * Make component `c` in the directory `dirfd` and open it, never through
 * a link.  It was missing a moment ago: anything there now (a symbolic
 * link, dangling or not, a directory someone made meanwhile) is refused,
 * not used.  -1 with errno (ELOOP: a link is in its place).
 */
static int make_one(int dirfd, const char *c)
{
	struct stat st;

	if (mkdirat(dirfd, c, 0755) < 0) {
		if (errno == EEXIST && fstatat(dirfd, c, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISLNK(st.st_mode))
			errno = ELOOP;
		return -1;
	}
	return openat(dirfd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int fspath_make(const char *path, const char *name, bool is_file, struct fspath *fp)
{
	char *have, *real = NULL, *rest = NULL, *save = NULL, *shown = NULL;
	int slash, dirfd, rc = -1;

	memset(fp, 0, sizeof(*fp));
	fp->top = -1;
	if (!(have = fspath_existing(path))) {
		log_error("cannot resolve path '%s' of %s '%s': %s", path,
			  is_file ? "file" : "fileset", name, strerror(errno));
		return -1;
	}
	if (strcmp(have, path) == 0) {          /* nothing missing */
		free(have);
		return 0;
	}
	if (!(real = realpath(have, NULL)) || !(rest = strdup(missing_part(path, have)))) {
		log_error("cannot resolve path '%s' of %s '%s': %s", have,
			  is_file ? "file" : "fileset", name, strerror(errno));
		goto out;
	}
	{
		struct stat st;

		if (stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
			log_error("path '%s' of %s '%s': %s is not a directory", path,
				  is_file ? "file" : "fileset", name, have);
			goto out;
		}
	}
	if (guard_refuses(real, rest, name, is_file))
		goto out;
	slash = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	fp->top = slash < 0 ? -1 : real[1] ?
		  beneath_open(slash, real + 1, O_PATH | O_DIRECTORY, 0) : dup(slash);
	if (slash >= 0)
		close(slash);
	if (fp->top < 0) {
		log_error("cannot open %s: %s", real, strerror(errno));
		goto out;
	}
	shown = strdup(real);
	dirfd = fp->top;
	for (char *c = strtok_r(rest, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		char *next = NULL;
		int fd;

		if (!shown || asprintf(&next, "%s%s%s", shown, strcmp(shown, "/") ? "/" : "",
				       c) < 0) {
			log_error("out of memory");
			goto out;
		}
		free(shown);
		shown = next;
		if (!strcmp(c, ".") || !strcmp(c, "..")) {
			log_error("refusing to make path '%s' of %s '%s': it goes through "
				  "'%s' below %s, which does not exist", path,
				  is_file ? "file" : "fileset", name, c, have);
			goto out;
		}
		if (fp->n == FSPATH_MAX_MADE) {
			log_error("refusing to make path '%s': more than %d missing "
				  "directories", path, FSPATH_MAX_MADE);
			goto out;
		}
		if ((fd = make_one(dirfd, c)) < 0) {
			int e = errno;

			log_error("cannot make %s (path of %s '%s'): %s%s", shown,
				  is_file ? "file" : "fileset", name, strerror(e),
				  e == ELOOP ? " (a symbolic link is in its place: refused, "
				  "never followed)" : e == EEXIST ? " (it appeared while "
				  "flowbench was making the path: refused, not taken for "
				  "flowbench's)" : "");
			goto out;
		}
		fp->fd[fp->n] = fd;
		fp->name[fp->n] = strdup(c);
		fp->shown[fp->n] = strdup(shown);
		fp->n++;
		if (!fp->name[fp->n - 1] || !fp->shown[fp->n - 1] || mark(fd) < 0) {
			log_error("cannot mark %s as made by flowbench: %s", shown,
				  strerror(errno));
			goto out;
		}
		dirfd = fd;
	}
	log_info("Made the missing path %s of %s '%s' (%d director%s, marked as "
		 "flowbench's)", path, is_file ? "file" : "fileset", name, fp->n,
		 fp->n == 1 ? "y" : "ies");
	rc = 0;
out:
	if (rc < 0)
		fspath_undo(fp);
	free(shown);
	free(have);
	free(real);
	free(rest);
	return rc;
}

/* Does the directory `fd` hold exactly our path mark and nothing else? */
static bool only_mark(int fd)
{
	int dfd = openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char buf[sizeof(FSPATH_MARK_LINE)];
	bool mark_ok = false, other = false;
	struct dirent *e;
	struct stat st;
	DIR *d;
	int m;

	if (dfd < 0 || !(d = fdopendir(dfd))) {
		if (dfd >= 0)
			close(dfd);
		return false;
	}
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
		    strcmp(e->d_name, MARKER_NAME))
			other = true;
	closedir(d);
	m = openat(fd, MARKER_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (m >= 0) {
		mark_ok = fstat(m, &st) == 0 && S_ISREG(st.st_mode) && st.st_nlink == 1 &&
			  st.st_uid == geteuid() &&
			  pread(m, buf, sizeof(buf) - 1, 0) == (ssize_t)sizeof(buf) - 1 &&
			  !memcmp(buf, FSPATH_MARK_LINE, sizeof(buf) - 1);
		close(m);
	}
	return mark_ok && !other;
}

void fspath_undo(struct fspath *fp)
{
	for (int i = fp->n - 1; i >= 0; i--) {
		int above = i ? fp->fd[i - 1] : fp->top;
		struct stat here, there;

		/* still the directory we made, at its name, holding only its mark */
		if (fstat(fp->fd[i], &here) < 0 ||
		    fstatat(above, fp->name[i], &there, AT_SYMLINK_NOFOLLOW) < 0 ||
		    here.st_dev != there.st_dev || here.st_ino != there.st_ino ||
		    !only_mark(fp->fd[i])) {
			log_info("Kept %s: it holds more than flowbench's mark now",
				 fp->shown[i]);
			break;
		}
		if (unlinkat(fp->fd[i], MARKER_NAME, 0) < 0 ||
		    unlinkat(above, fp->name[i], AT_REMOVEDIR) < 0) {
			log_warn("cannot remove %s: %s", fp->shown[i], strerror(errno));
			break;
		}
		log_info("Removed %s (made for the path, now unused)", fp->shown[i]);
	}
	fspath_release(fp);
}

void fspath_release(struct fspath *fp)
{
	for (int i = 0; i < fp->n; i++) {
		close(fp->fd[i]);
		free(fp->name[i]);
		free(fp->shown[i]);
	}
	if (fp->top >= 0)
		close(fp->top);
	fp->n = 0;
	fp->top = -1;
}
