/*
 * atomic.c - writing a file the user named (a results file, the HTML
 * report) so that it is never seen half-written and nothing else is ever
 * written over: a temporary file created beside the target, flushed and
 * fsync'ed, renamed over it, then the directory fsync'ed so the rename
 * itself is durable.
 *
 * Only a regular file, or nothing, is replaced.  A symbolic link, a FIFO,
 * a device, a socket or a directory at the name is refused (as root,
 * `-o /dev/null` would otherwise replace /dev/null), checked before the
 * work (outfile_check) and again just before the rename.  A regular file
 * with other hard links loses only this name: the rename gives the name a
 * new inode, the other names keep the previous contents (a warning says
 * so).
 */
#include "runtime/results/outfile.h"

#include "runtime/results/doc.h"
#include "runtime/results/format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/base/interrupt.h"
#include "runtime/base/log.h"

/* The kinds of file that are never written over, and how to name them. */
static const struct {
	mode_t type;
	const char *name;
} not_regular[] = {
	{ S_IFLNK, "a symbolic link" },
	{ S_IFIFO, "a FIFO" },
	{ S_IFCHR, "a character device" },
	{ S_IFBLK, "a block device" },
	{ S_IFSOCK, "a socket" },
	{ S_IFDIR, "a directory" },
};

/* What a file of mode `m` is, for the refusal message. */
static const char *kind_name(mode_t m)
{
	for (size_t i = 0; i < sizeof(not_regular) / sizeof(not_regular[0]); i++)
		if ((m & S_IFMT) == not_regular[i].type)
			return not_regular[i].name;
	return "of an unknown kind";
}

/*
 * Split `path` into its directory (malloc'ed into *dir) and its last
 * component (*base, pointing into path).  -1 (message printed) when the
 * path has no file name (empty, or ending in '/').
 */
static int split_path(const char *path, char **dir, const char **base)
{
	const char *slash = strrchr(path, '/');

	*base = slash ? slash + 1 : path;
	if (!**base || strcmp(*base, ".") == 0 || strcmp(*base, "..") == 0) {
		log_error("cannot write %s: it names a directory, not a file",
			path);
		return -1;
	}
	if (!slash)
		*dir = strdup(".");
	else if (slash == path)
		*dir = strdup("/");
	else
		*dir = strndup(path, (size_t)(slash - path));
	if (!*dir) {
		log_error("cannot write %s: out of memory", path);
		return -1;
	}
	return 0;
}

/* The target's directory, as a handle every later step is relative to. */
static int open_dir(const char *path, const char *dir)
{
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		log_error("cannot write %s: directory %s: %s",
			path, dir, strerror(errno));
	return fd;
}

/*
 * The name `base` in `dirfd` is absent or a regular file: 0.  Otherwise
 * -1 with the refusal or the error printed.  *links receives its link
 * count (0 when absent).
 */
static int target_ok(int dirfd, const char *base, const char *what,
		     const char *path, nlink_t *links)
{
	struct stat st;

	*links = 0;
	if (fstatat(dirfd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return 0;
		log_error("cannot write %s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		log_error("refusing to write %s to %s: it is %s, not a regular file",
			what, path, kind_name(st.st_mode));
		return -1;
	}
	*links = st.st_nlink;
	return 0;
}

int outfile_check(const char *what, const char *path)
{
	const char *base;
	char *dir;
	nlink_t links;
	int dirfd, rc = -1;

	if (split_path(path, &dir, &base) < 0)
		return -1;
	dirfd = open_dir(path, dir);
	if (dirfd >= 0 && target_ok(dirfd, base, what, path, &links) == 0) {
		if (faccessat(dirfd, ".", W_OK | X_OK, 0) < 0)
			log_error("cannot write %s: directory %s: %s",
				path, dir, strerror(errno));
		else
			rc = 0;
	}
	if (dirfd >= 0)
		close(dirfd);
	free(dir);
	return rc;
}

/*
 * Create a new temporary file in o->dirfd: O_EXCL|O_NOFOLLOW, so it is
 * always a file this call made, never one that was there (nor a link's
 * target).  Its name goes into o->tmp and o->live is set with the signals
 * held, so an interrupt sees either no file or one it may remove.
 */
static int create_temp(struct outfile *o, const char *prefix)
{
	static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz"
				       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t n = strlen(prefix);
	unsigned char rnd[8];
	char name[sizeof(o->tmp)];
	sigset_t old;
	int fd = -1;

	if (n + sizeof(rnd) >= sizeof(name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(name, prefix, n);
	name[n + sizeof(rnd)] = '\0';
	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd)) {
			errno = EAGAIN;
			return -1;
		}
		for (size_t i = 0; i < sizeof(rnd); i++)
			name[n + i] = alphabet[rnd[i] % (sizeof(alphabet) - 1)];
		interrupt_hold(&old);
		fd = openat(o->dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd >= 0) {
			memcpy(o->tmp, name, sizeof(o->tmp));
			o->live = 1;
		}
		interrupt_release(&old);
		if (fd < 0 && errno != EEXIST)
			return -1;
	}
	return fd;
}

/* Remove the temporary file, if any (not from a signal handler). */
static void discard(struct outfile *o)
{
	sigset_t old;

	interrupt_hold(&old);
	if (o->live)
		unlinkat(o->dirfd, o->tmp, 0);
	o->live = 0;
	interrupt_release(&old);
}

void outfile_discard_async(const struct outfile *o)
{
	if (o->live)
		unlinkat(o->dirfd, o->tmp, 0);
}

/* Write the document into the temporary file `fd`, flush and fsync it. */
static int fill(struct outfile *o, int fd, int (*fn)(FILE *f, const void *arg),
		const void *arg)
{
	const char *what = "write";
	FILE *f = NULL;
	bool failed = false;
	int e;

	errno = 0;
	if (fchmod(fd, o->mode) < 0 || !(f = fdopen(fd, "w"))) {
		what = "open";
		failed = true;
	} else if (fn(f, arg) < 0 || fflush(f) == EOF || ferror(f)) {
		failed = true;
	} else if (fsync(fd) < 0) {
		what = "fsync";
		failed = true;
	}
	e = errno;
	if (f ? fclose(f) == EOF : close(fd) < 0) {
		if (!failed)
			e = errno;
		failed = true;
	}
	if (failed)
		log_error("cannot %s %s: %s", what, o->path,
			e ? strerror(e) : "the document could not be written");
	return failed ? -1 : 0;
}

int outfile_prepare(struct outfile *o, const char *what, const char *path,
		    mode_t mode, const char *prefix,
		    int (*fn)(FILE *f, const void *arg), const void *arg)
{
	nlink_t links;
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->what = what;
	o->mode = mode;
	o->dirfd = -1;
	if (split_path(path, &o->dir, &o->base) < 0)
		return -1;
	o->dirfd = open_dir(path, o->dir);
	if (o->dirfd < 0 || target_ok(o->dirfd, o->base, what, path, &links) < 0)
		goto fail;
	fd = create_temp(o, prefix);
	if (fd < 0) {
		log_error("cannot write %s: cannot create a temporary file in %s: %s",
			path, o->dir, strerror(errno));
		goto fail;
	}
	if (fill(o, fd, fn, arg) < 0)
		goto fail;
	return 0;
fail:
	outfile_close(o);
	return -1;
}

int outfile_create(struct outfile *o, const char *what, const char *path,
		   mode_t mode, const char *prefix, int flags)
{
	nlink_t links;
	int fd;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->what = what;
	o->mode = mode;
	o->dirfd = -1;
	if (split_path(path, &o->dir, &o->base) < 0)
		return -1;
	o->dirfd = open_dir(path, o->dir);
	if (o->dirfd < 0 || target_ok(o->dirfd, o->base, what, path, &links) < 0)
		goto fail;
	fd = create_temp(o, prefix);
	if (fd < 0) {
		log_error("cannot write %s: cannot create a temporary file in %s: %s",
			path, o->dir, strerror(errno));
		goto fail;
	}
	if (fchmod(fd, mode) < 0 || (flags && fcntl(fd, F_SETFL, flags) < 0)) {
		log_error("cannot write %s: %s", path, strerror(errno));
		close(fd);
		goto fail;
	}
	return fd;
fail:
	outfile_close(o);
	return -1;
}

/*
 * The check is repeated here, just before the rename.  What remains is
 * the window between this fstatat() and renameat(): someone who may write
 * to the directory can put a link, a FIFO or a device node at the name in
 * between.  rename() then replaces that directory entry without opening
 * it - a symbolic link's target, a FIFO's reader, a device are never
 * written to - and an entry that becomes a directory makes it fail.  The
 * worst case is that a name just created by someone with write access to
 * this directory is replaced; no data of another file is written over or
 * freed (a file with another link keeps its data under that name), and
 * every step is relative to the directory opened at the start, so a
 * renamed or swapped parent changes nothing.
 */
int outfile_commit(struct outfile *o)
{
	nlink_t links;
	sigset_t old;
	int rc = -1;

	if (!o->live)
		return -1;
	if (target_ok(o->dirfd, o->base, o->what, o->path, &links) < 0) {
		discard(o);
		return -1;
	}
	if (links > 1)
		log_warn("%s has %ju other hard link%s: only this name gets the new %s, "
			 "the other names keep the previous contents",
			 o->path, (uintmax_t)(links - 1), links == 2 ? "" : "s", o->what);
	interrupt_hold(&old);           /* the file is renamed or removed, never left */
	o->live = 0;
	if (renameat(o->dirfd, o->tmp, o->dirfd, o->base) < 0) {
		log_error("cannot rename %s/%s to %s: %s", o->dir,
			o->tmp, o->path, strerror(errno));
		unlinkat(o->dirfd, o->tmp, 0);
	} else {
		o->committed = true;
		rc = 0;
	}
	interrupt_release(&old);
	return rc;
}

void outfile_close(struct outfile *o)
{
	if (o->dirfd >= 0) {
		discard(o);
		if (o->committed) {
			/* the rename's durability: best effort, some fs refuse */
			int fd = openat(o->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

			if (fd >= 0) {
				fsync(fd);
				close(fd);
			}
		}
		close(o->dirfd);
		o->dirfd = -1;
	}
	free(o->dir);
	o->dir = NULL;
}

/* 0666 less the umask, like creat(2). */
mode_t outfile_default_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

int atomic_write_file(const char *path, int (*fn)(FILE *f, const void *arg),
		      const void *arg)
{
	struct outfile o;
	int rc = -1;

	if (outfile_prepare(&o, "results", path, outfile_default_mode(), ".flowbench-results.",
			    fn, arg) < 0)
		return -1;
	rc = outfile_commit(&o);
	outfile_close(&o);
	return rc;
}

/* A results file's writer and what it writes, as one outfile argument. */
struct formatted {
	const struct results_format *format;
	const struct results *results;
};

static int write_formatted(FILE *f, const void *arg)
{
	const struct formatted *w = arg;

	return w->format->write(f, w->results);
}

int results_prepare_file(struct outfile *o, const char *path,
			 const struct results *r)
{
	struct formatted w = { results_format_of(path), r };
	char endings[128];

	if (!w.format) {
		log_error("%s: a results file ends in %s", path,
			results_format_list(endings, sizeof(endings), RESULTS_ENDINGS));
		return -1;
	}
	return outfile_prepare(o, "results", path, outfile_default_mode(), ".flowbench-results.",
			       write_formatted, &w);
}
