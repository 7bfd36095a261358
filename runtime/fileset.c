/*
 * fileset.c - creating, reusing and preallocating the files of a run.
 *
 * On-disk layout (filebench's shape, so existing scripts find the same
 * paths):  <path>/<name>/00000001/00000001 for a `define file`; a fileset
 * will put its entries in numbered (%08d) subdirectories of <path>/<name>.
 *
 * Ownership: flowbench only ever deletes inside a directory it created
 * itself.  When it creates <path>/<name> it writes the marker file
 * <path>/<name>/.flowbench.  An existing <path>/<name> without the marker
 * is refused, never touched.  Cleaning a marked tree removes only entries
 * with flowbench's own names (8 decimal digits, directories or regular
 * files); the whole tree is checked for foreign entries before anything
 * is removed, and a foreign entry stops the run naming it.  Every step
 * works relative to directory descriptors opened with O_NOFOLLOW and uses
 * lstat semantics, so a symbolic link planted in the tree is never
 * followed.  No shell is ever run.
 *
 * Preallocation writes the data in 1 MiB blocks from a buffer of
 * pseudo-random bytes (not zeros: no file system may compress or dedupe
 * them away) and does not fsync: the cache step decides what stays cached.
 */
#include "runtime/fileset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/log.h"
#include "runtime/rng.h"

#define FS_MARKER ".flowbench"
#define FS_MARKER_LINE "This directory was created by flowbench; it owns and may delete its contents.\n"
#define FS_MARKER_TAG "This directory was created by flowbench"
#define FS_BLOCK (1u << 20)
#define FS_MAX_DEPTH 64

/* What one preparation needs besides the fileset: the fill buffer. */
struct prep {
	char *buf;             /* FS_BLOCK bytes of pattern */
};

static bool is_serial_name(const char *n)
{
	int i;

	for (i = 0; n[i]; i++) {
		if (n[i] < '0' || n[i] > '9')
			return false;
	}
	return i == 8;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/* Does directory `dfd` carry our marker? */
static bool has_marker(int dfd)
{
	char buf[sizeof(FS_MARKER_TAG)];
	ssize_t n;
	int fd = openat(dfd, FS_MARKER, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(FS_MARKER_TAG) - 1);
	close(fd);
	return n == (ssize_t)sizeof(FS_MARKER_TAG) - 1 &&
	       memcmp(buf, FS_MARKER_TAG, sizeof(FS_MARKER_TAG) - 1) == 0;
}

static int write_marker(int dfd, const char *root)
{
	int fd = openat(dfd, FS_MARKER, O_WRONLY | O_CREAT | O_EXCL |
			O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t len = strlen(FS_MARKER_LINE);

	if (fd < 0 || write(fd, FS_MARKER_LINE, len) != (ssize_t)len) {
		log_error("cannot write %s/%s: %s", root, FS_MARKER, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/*
 * Walk the directory `dfd` (path `dpath`, for messages): with `remove`
 * false only check that every entry is ours; with `remove` true delete
 * our entries depth first.  The marker at the top is left alone.
 */
static int walk_tree(int dfd, const char *dpath, int depth, bool top, bool remove)
{
	DIR *d;
	struct dirent *e;
	int rc = 0;
	int fd = dup(dfd);

	if (fd < 0 || !(d = fdopendir(fd))) {
		log_error("cannot read directory %s: %s", dpath, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while (rc == 0 && (errno = 0, e = readdir(d))) {
		struct stat st;
		const char *n = e->d_name;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (top && !strcmp(n, FS_MARKER))
			continue;
		if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			log_error("cannot stat %s/%s: %s", dpath, n, strerror(errno));
			rc = -1;
			break;
		}
		if (!is_serial_name(n) || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))) {
			log_error("refusing to clean %s: %s/%s was not created by flowbench "
				  "(left untouched; remove it or use another path)",
				  dpath, dpath, n);
			rc = -1;
			break;
		}
		if (S_ISDIR(st.st_mode)) {
			char *sub = xasprintf("%s/%s", dpath, n);
			int sfd = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (!sub || sfd < 0 || depth >= FS_MAX_DEPTH) {
				log_error("cannot open directory %s/%s: %s", dpath, n,
					  depth >= FS_MAX_DEPTH ? "tree too deep" : strerror(errno));
				rc = -1;
			} else {
				rc = walk_tree(sfd, sub, depth + 1, false, remove);
			}
			if (sfd >= 0)
				close(sfd);
			free(sub);
			if (rc == 0 && remove && unlinkat(dfd, n, AT_REMOVEDIR) < 0) {
				log_error("cannot remove %s/%s: %s", dpath, n, strerror(errno));
				rc = -1;
			}
		} else if (remove && unlinkat(dfd, n, 0) < 0) {
			log_error("cannot remove %s/%s: %s", dpath, n, strerror(errno));
			rc = -1;
		}
	}
	if (rc == 0 && errno) {
		log_error("cannot read directory %s: %s", dpath, strerror(errno));
		rc = -1;
	}
	closedir(d);
	return rc;
}

/* Write pattern bytes to [from, to) of fd; -1 after logging on failure. */
static int fill_range(const struct prep *pr, int fd, const char *path,
		      uint64_t from, uint64_t to)
{
	while (from < to) {
		size_t n = to - from < FS_BLOCK ? (size_t)(to - from) : FS_BLOCK;
		ssize_t w = pwrite(fd, pr->buf, n, (off_t)from);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			log_error("cannot preallocate %s: pwrite at offset %llu: %s", path,
				  (unsigned long long)from,
				  w < 0 ? strerror(errno) : "wrote nothing");
			return -1;
		}
		from += (uint64_t)w;
	}
	return 0;
}

/*
 * Make file `leaf` in directory `dfd` exist with exactly `size` bytes,
 * keeping what a reused tree already holds.
 */
static int prealloc_file(const struct prep *pr, int dfd, const char *leaf,
			 const char *path, uint64_t size)
{
	struct stat st;
	int fd;
	uint64_t have = 0;
	int rc = 0;

	if (fstatat(dfd, leaf, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (!S_ISREG(st.st_mode)) {
			log_error("refusing to use %s: not a regular file", path);
			return -1;
		}
		have = (uint64_t)st.st_size;
		if (have == size) {
			log_info("Reusing %s: size %llu matches", path,
				 (unsigned long long)size);
			return 0;
		}
		fd = openat(dfd, leaf, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	} else if (errno == ENOENT) {
		fd = openat(dfd, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0644);
	} else {
		log_error("cannot stat %s: %s", path, strerror(errno));
		return -1;
	}
	if (fd < 0) {
		log_error("cannot open %s: %s", path, strerror(errno));
		return -1;
	}
	if (have > size) {
		if (ftruncate(fd, (off_t)size) < 0) {
			log_error("cannot truncate %s: %s", path, strerror(errno));
			rc = -1;
		} else {
			log_info("Reusing %s: truncated from %llu to %llu bytes", path,
				 (unsigned long long)have, (unsigned long long)size);
		}
	} else {
		rc = fill_range(pr, fd, path, have, size);
		if (rc == 0 && have > 0)
			log_info("Reusing %s: extended from %llu to %llu bytes", path,
				 (unsigned long long)have, (unsigned long long)size);
	}
	if (close(fd) < 0 && rc == 0) {
		log_error("cannot close %s: %s", path, strerror(errno));
		rc = -1;
	}
	return rc;
}

/*
 * Open <path>/<name> as our root: create it (with the marker) if missing,
 * refuse it if it is not ours.  Returns a directory fd or -1.
 */
static int open_root(const struct fs_state *fs, bool *created)
{
	const struct plan_fileset *pf = fs->pf;
	struct stat st;
	int fd;

	*created = false;
	if (stat(pf->path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		bool missing = errno == ENOENT;

		log_error("path '%s' of %s '%s' %s", pf->path,
			  pf->is_file ? "file" : "fileset", pf->name,
			  missing ? "does not exist" : "is not a usable directory");
		return -1;
	}
	if (lstat(fs->root, &st) < 0) {
		if (errno != ENOENT || mkdir(fs->root, 0755) < 0) {
			log_error("cannot create %s: %s", fs->root, strerror(errno));
			return -1;
		}
		*created = true;
	} else if (!S_ISDIR(st.st_mode)) {
		log_error("refusing to use %s: it exists and was not created by flowbench",
			  fs->root);
		return -1;
	}
	fd = open(fs->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		log_error("cannot open %s: %s", fs->root, strerror(errno));
		return -1;
	}
	if (*created) {
		if (write_marker(fd, fs->root) < 0)
			goto fail;
	} else if (!has_marker(fd)) {
		log_error("refusing to use %s: it exists and was not created by flowbench",
			  fs->root);
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

/* Prepare one `define file`: its root, directory and (maybe) the file. */
static int prepare_file(const struct prep *pr, struct fs_state *fs)
{
	const struct plan_fileset *pf = fs->pf;
	struct fs_file *f = &fs->files[0];
	bool created;
	int rootfd, dirfd = -1, rc = -1;
	/* Files preallocated: prealloc% of entries, rounded to nearest. */
	bool want = ((uint64_t)pf->prealloc_pct * fs->nfiles + 50) / 100 >= 1;

	rootfd = open_root(fs, &created);
	if (rootfd < 0)
		return -1;
	if (created) {
		log_info("Created %s (marked as flowbench's)", fs->root);
	} else if (pf->reuse) {
		log_info("Reusing existing %s tree", pf->name);
	} else {
		log_info("Removing %s tree (if exists)", pf->name);
		if (walk_tree(rootfd, fs->root, 0, true, false) < 0 ||
		    walk_tree(rootfd, fs->root, 0, true, true) < 0)
			goto out;
	}
	log_info("Pre-allocating directories in %s tree", pf->name);
	if (mkdirat(rootfd, "00000001", 0755) < 0 && errno != EEXIST) {
		log_error("cannot create %s/00000001: %s", fs->root, strerror(errno));
		goto out;
	}
	dirfd = openat(rootfd, "00000001", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0) {
		log_error("cannot open %s/00000001: %s", fs->root, strerror(errno));
		goto out;
	}
	log_info("Pre-allocating files in %s tree", pf->name);
	if (want) {
		if (prealloc_file(pr, dirfd, "00000001", f->path, pf->size) < 0)
			goto out;
		f->exists = true;
	} else if (unlinkat(dirfd, "00000001", 0) == 0) {
		log_info("Removed %s (not preallocated)", f->path);
	} else if (errno != ENOENT) {
		log_error("cannot remove %s: %s", f->path, strerror(errno));
		goto out;
	}
	f->size = pf->size;
	rc = 0;
out:
	if (dirfd >= 0)
		close(dirfd);
	close(rootfd);
	return rc;
}

static int init_state(struct fs_state *fs, const struct plan_fileset *pf)
{
	fs->pf = pf;
	if (!pf->name[0] || strchr(pf->name, '/') || !strcmp(pf->name, ".") ||
	    !strcmp(pf->name, "..")) {
		log_error("%s name '%s' is not a plain directory name",
			  pf->is_file ? "file" : "fileset", pf->name);
		return -1;
	}
	if (!pf->is_file) {
		log_error("fileset '%s': filesets (define fileset) are not implemented yet; "
			  "only 'define file' is", pf->name);
		return -1;
	}
	fs->root = xasprintf("%s/%s", pf->path, pf->name);
	fs->nfiles = 1;
	fs->files = calloc(1, sizeof(*fs->files));
	if (!fs->root || !fs->files)
		return -1;
	fs->files[0].path = xasprintf("%s/00000001/00000001", fs->root);
	return fs->files[0].path ? 0 : -1;
}

int fileset_prepare_all(const struct plan *p, struct fs_state **out)
{
	struct fs_state *fs = calloc((size_t)p->nfilesets + 1, sizeof(*fs));
	struct prep pr = { .buf = malloc(FS_BLOCK) };
	struct rng r;
	int rc = -1;

	*out = NULL;
	if (!fs || !pr.buf) {
		log_error("out of memory");
		goto out;
	}
	rng_seed(&r, 0x70617474u);
	for (size_t i = 0; i < FS_BLOCK; i += 8) {
		uint64_t v = rng_next(&r);

		memcpy(pr.buf + i, &v, 8);
	}
	for (int i = 0; i < p->nfilesets; i++) {
		if (init_state(&fs[i], &p->filesets[i]) < 0)
			goto out;
	}
	if (p->nfilesets)
		log_info("Populating and pre-allocating filesets");
	/* Newest first, like filebench. */
	for (int i = p->nfilesets - 1; i >= 0; i--) {
		if (prepare_file(&pr, &fs[i]) < 0)
			goto out;
	}
	if (p->nfilesets)
		log_info("Population and pre-allocation of filesets completed");
	rc = 0;
out:
	free(pr.buf);
	if (rc < 0) {
		fileset_free_all(fs, p->nfilesets);
		return -1;
	}
	*out = fs;
	return 0;
}

void fileset_free_all(struct fs_state *fs, int n)
{
	if (!fs)
		return;
	for (int i = 0; i < n; i++) {
		for (uint64_t j = 0; fs[i].files && j < fs[i].nfiles; j++)
			free(fs[i].files[j].path);
		free(fs[i].files);
		free(fs[i].root);
	}
	free(fs);
}

const struct fs_file *fileset_pick_existing(const struct fs_state *fs)
{
	for (uint64_t i = 0; i < fs->nfiles; i++) {
		if (fs->files[i].exists)
			return &fs->files[i];
	}
	return NULL;
}
