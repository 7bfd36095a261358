/*
 * fileset.c - populating filesets and making them exist on disk.
 *
 * On-disk layout (filebench's shape, so existing scripts find the same
 * paths): <path>/<name>/ holds numbered (%08d) directories down to the
 * files and leaf directories (runtime/tree.h); a `define file` is
 * <path>/<name>/00000001/00000001.
 *
 * Ownership: flowbench only ever deletes inside a directory it created
 * itself.  When it creates <path>/<name> it writes the marker file
 * <path>/<name>/.flowbench.  An existing <path>/<name> without the marker
 * is refused, never touched.  Cleaning a marked tree removes only entries
 * with flowbench's own names (8 decimal digits, directories or regular
 * files); the whole tree is checked for foreign entries before anything
 * is removed (and before a tree is reused), and a foreign entry stops the
 * run naming it.  Every step works relative to directory descriptors
 * opened with O_NOFOLLOW and uses lstat semantics, so a symbolic link
 * planted in the tree is never followed.  No shell is ever run.
 *
 * Which files and leaf directories exist before the run is decided here
 * with a generator seeded from the fileset's name (not --seed), like the
 * tree's shape: a reused tree matches the next run's population.  The
 * files themselves are written by prealloc.c.
 */
#include "runtime/fileset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sys/mman.h>

#include "runtime/log.h"
#include "runtime/prealloc.h"
#include "runtime/randvar.h"
#include "runtime/rng.h"

#define FS_MARKER ".flowbench"
#define FS_MARKER_LINE "This directory was created by flowbench; it owns and may delete its contents.\n"
#define FS_MARKER_TAG "This directory was created by flowbench"
#define FS_MAX_DEPTH 64

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
	/* a dup shares the offset: an earlier walk may have left it at the end */
	rewinddir(d);
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
	if (stat(fs->root, &st) == 0 && S_ISBLK(st.st_mode)) {
		if (pf->is_file)
			log_error("file '%s': %s is a block device: raw devices are not "
				  "supported yet", pf->name, fs->root);
		else
			log_error("fileset '%s': %s is a block device; a fileset needs "
				  "a directory", pf->name, fs->root);
		return -1;
	}
	if (stat(pf->path, &st) < 0 || !S_ISDIR(st.st_mode)) {
		bool exists = stat(pf->path, &st) == 0;

		log_error("path '%s' of %s '%s' %s", pf->path,
			  pf->is_file ? "file" : "fileset", pf->name,
			  exists ? "is not a directory" :
			  errno == ENOENT ? "does not exist" : strerror(errno));
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


/* ---- population ------------------------------------------------------ */

/* A random attribute's sampler, bound to the plan (tree_params.ctx). */
struct rv_ctx {
	const struct plan *p;
	const struct plan_fileset *pf;
};

static double size_rv(void *ctx, struct rng *r)
{
	const struct rv_ctx *c = ctx;

	return randvar_sample(&c->p->randvars[c->pf->size_rv], r);
}

static double width_rv(void *ctx, struct rng *r)
{
	const struct rv_ctx *c = ctx;

	return randvar_sample(&c->p->randvars[c->pf->dirwidth_rv], r);
}

static double depth_rv(void *ctx, struct rng *r)
{
	const struct rv_ctx *c = ctx;

	return randvar_sample(&c->p->randvars[c->pf->dirdepth_rv], r);
}

/* The generator of a fileset's population: a function of its name only. */
static void fileset_rng(struct rng *r, const struct plan_fileset *pf)
{
	uint64_t h = 0xcbf29ce484222325ull;     /* FNV-1a */

	for (const char *s = pf->name; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	rng_seed(r, h);
}

/* Map the shared state of the three pick sets, every entry absent. */
static int map_state(struct fs_state *fs)
{
	const struct fs_tree *t = &fs->tree;
	size_t fb = pick_set_bytes(t->nfiles, true, true);
	size_t lb = pick_set_bytes(t->nleaf, true, false);
	size_t db = pick_set_bytes(t->ndirs, false, false);
	char *m;

	fs->shm_len = fb + lb + db;
	m = mmap(NULL, fs->shm_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (m == MAP_FAILED) {
		log_error("%s '%s': cannot map %zu bytes of shared state: %s",
			  fs->pf->is_file ? "file" : "fileset", fs->pf->name,
			  fs->shm_len, strerror(errno));
		fs->shm = NULL;
		return -1;
	}
	fs->shm = m;
	pick_set_init(&fs->files, m, t->nfiles, true, true);
	pick_set_init(&fs->leafdirs, m + fb, t->nleaf, true, false);
	pick_set_init(&fs->dirs, m + fb + lb, t->ndirs, false, false);
	return 0;
}

static int populate(struct fs_state *fs, const struct plan *p, int idx, struct rng *r)
{
	const struct plan_fileset *pf = &p->filesets[idx];
	struct rv_ctx ctx = { .p = p, .pf = pf };
	struct tree_params tp = {
		.entries = pf->is_file ? 1 : pf->entries,
		.leafdirs = pf->is_file ? 0 : pf->leafdirs,
		.width = pf->is_file ? 10 : pf->dirwidth,
		.gamma1000 = pf->is_file ? 0 : pf->dirgamma,
		.size = pf->size,
		.ctx = &ctx,
	};
	char err[256];

	memset(fs, 0, sizeof(*fs));
	fs->pf = pf;
	if (!pf->name[0] || strchr(pf->name, '/') || !strcmp(pf->name, ".") ||
	    !strcmp(pf->name, "..")) {
		log_error("%s name '%s' is not a plain directory name",
			  pf->is_file ? "file" : "fileset", pf->name);
		return -1;
	}
	fs->root = xasprintf("%s/%s", pf->path, pf->name);
	if (!fs->root) {
		log_error("out of memory");
		return -1;
	}
	fs->rootlen = strlen(fs->root);
	if (pf->size_rv >= 0 && pf->size_rv < p->nrandvars)
		tp.size_rv = size_rv;
	if (!pf->is_file && pf->dirwidth_rv >= 0 && pf->dirwidth_rv < p->nrandvars) {
		tp.width_rv = width_rv;
		tp.width = randvar_mean(&p->randvars[pf->dirwidth_rv]);
	}
	if (!pf->is_file && pf->dirdepth_rv >= 0 && pf->dirdepth_rv < p->nrandvars)
		tp.depth_rv = depth_rv;
	if (tree_build(&fs->tree, &tp, r, err, sizeof(err)) < 0) {
		log_error("%s '%s': cannot populate: %s",
			  pf->is_file ? "file" : "fileset", pf->name, err);
		return -1;
	}
	if (map_state(fs) < 0)
		return -1;
	if (!pf->is_file)
		log_info("%s populated: %llu files, avg. dir. width = %.0f, avg. dir. "
			 "depth = %.1f, %llu leafdirs, %.3fMB total size", pf->name,
			 (unsigned long long)fs->tree.nfiles, floor(fs->tree.meanwidth),
			 fs->tree.meandepth, (unsigned long long)fs->tree.nleaf,
			 (double)fs->tree.total_bytes / 1048576.0);
	return 0;
}

int fileset_populate(struct fs_state *fs, const struct plan *p, int idx)
{
	struct rng r;

	fileset_rng(&r, &p->filesets[idx]);
	return populate(fs, p, idx, &r);
}

void fileset_release(struct fs_state *fs)
{
	if (fs->shm)
		munmap(fs->shm, fs->shm_len);
	tree_free(&fs->tree);
	free(fs->root);
	memset(fs, 0, sizeof(*fs));
}

/*
 * Mark exactly round(pct% of n) entries of `s` existent, chosen uniformly
 * (selection sampling: one pass, each entry taken with probability
 * wanted-left / entries-left).
 */
static void choose_existing(struct pick_set *s, int pct, struct rng *r)
{
	uint64_t n = s->n;
	uint64_t want = ((uint64_t)(pct < 0 ? 0 : pct > 100 ? 100 : pct) * n + 50) / 100;

	for (uint64_t e = 0; e < n && want; e++) {
		if (want == n - e || rng_below(r, n - e) < want) {
			pick_set_exists(s, e, true);
			want--;
		}
	}
}

/* ---- creation on disk ------------------------------------------------ */

/* mkdir every directory below the root, parents first (array order). */
static int make_dirs(const struct fs_state *fs, int rootfd)
{
	char rel[TREE_PATH_MAX];

	for (uint32_t d = 1; d < fs->tree.ndirs; d++) {
		tree_dir_relpath(&fs->tree, d, rel);
		if (mkdirat(rootfd, rel, 0755) < 0 && errno != EEXIST) {
			log_error("cannot create directory %s/%s: %s", fs->root, rel,
				  strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Leaf directories: the chosen ones exist, the others (if reused) not. */
static int make_leafdirs(const struct fs_state *fs, int rootfd, bool fresh)
{
	char rel[TREE_PATH_MAX];

	for (uint64_t e = 0; e < fs->tree.nleaf; e++) {
		bool want = pick_exists(&fs->leafdirs, e);

		if (!want && fresh)
			continue;
		tree_leaf_relpath(&fs->tree, e, rel);
		if (want && mkdirat(rootfd, rel, 0755) < 0 && errno != EEXIST) {
			log_error("cannot create leaf directory %s/%s: %s", fs->root,
				  rel, strerror(errno));
			return -1;
		}
		if (!want && unlinkat(rootfd, rel, AT_REMOVEDIR) < 0 && errno != ENOENT) {
			log_error("cannot remove leaf directory %s/%s: %s", fs->root,
				  rel, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* Make one file or fileset exist on disk as populated. */
static int create_one(struct fs_state *fs, const char *pattern)
{
	const struct plan_fileset *pf = fs->pf;
	struct prealloc_job job = { .fs = fs, .pattern = pattern,
				    .log_each = pf->is_file };
	bool created, trusted = false;
	int rootfd = open_root(fs, &created);
	int rc = -1;

	if (rootfd < 0)
		return -1;
	job.rootfd = rootfd;
	if (created) {
		log_info("Created %s (marked as flowbench's)", fs->root);
		job.fresh = true;
	} else if (pf->trusttree) {
		log_info("Reusing existing %s tree (trusted, not checked)", pf->name);
		trusted = true;
	} else if (pf->reuse) {
		log_info("Reusing existing %s tree", pf->name);
		if (walk_tree(rootfd, fs->root, 0, true, false) < 0)
			goto out;
	} else {
		log_info("Removing %s tree (if exists)", pf->name);
		if (walk_tree(rootfd, fs->root, 0, true, false) < 0 ||
		    walk_tree(rootfd, fs->root, 0, true, true) < 0)
			goto out;
		job.fresh = true;
	}
	if (trusted) {
		rc = 0;
		goto out;
	}
	log_info("Pre-allocating directories in %s tree", pf->name);
	if (make_dirs(fs, rootfd) < 0 || make_leafdirs(fs, rootfd, job.fresh) < 0)
		goto out;
	log_info("Pre-allocating files in %s tree", pf->name);
	rc = prealloc_files(&job);
out:
	close(rootfd);
	return rc;
}

int fileset_prepare_all(const struct plan *p, struct fs_state **out)
{
	struct fs_state *fs = calloc((size_t)p->nfilesets + 1, sizeof(*fs));
	char *pattern = malloc(PREALLOC_BLOCK);
	struct rng r;
	int rc = -1;

	*out = NULL;
	if (!fs || !pattern) {
		log_error("out of memory");
		goto out;
	}
	rng_seed(&r, 0x70617474u);
	for (size_t i = 0; i < PREALLOC_BLOCK; i += 8) {
		uint64_t v = rng_next(&r);

		memcpy(pattern + i, &v, 8);
	}
	if (p->nfilesets)
		log_info("Populating and pre-allocating filesets");
	/* Newest first, like filebench. */
	for (int i = p->nfilesets - 1; i >= 0; i--) {
		fileset_rng(&r, &p->filesets[i]);
		if (populate(&fs[i], p, i, &r) < 0)
			goto out;
		choose_existing(&fs[i].files, p->filesets[i].prealloc_pct, &r);
		choose_existing(&fs[i].leafdirs, p->filesets[i].prealloc_pct, &r);
		if (create_one(&fs[i], pattern) < 0)
			goto out;
	}
	if (p->nfilesets) {
		log_info("Waiting for pre-allocation to finish (in case of a parallel "
			 "pre-allocation)");
		log_info("Population and pre-allocation of filesets completed");
	}
	rc = 0;
out:
	free(pattern);
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
	for (int i = 0; i < n; i++)
		fileset_release(&fs[i]);
	free(fs);
}

/* root + "/" + relative path (the root itself for "."). */
static size_t join(const struct fs_state *fs, char *buf, size_t rl)
{
	memmove(buf + fs->rootlen + 1, buf, rl + 1);
	memcpy(buf, fs->root, fs->rootlen);
	if (rl == 1 && buf[fs->rootlen + 1] == '.') {
		buf[fs->rootlen] = '\0';
		return fs->rootlen;
	}
	buf[fs->rootlen] = '/';
	return fs->rootlen + 1 + rl;
}

size_t fileset_file_path(const struct fs_state *fs, uint64_t e, char *buf)
{
	return join(fs, buf, tree_file_relpath(&fs->tree, e, buf));
}

size_t fileset_leaf_path(const struct fs_state *fs, uint64_t e, char *buf)
{
	return join(fs, buf, tree_leaf_relpath(&fs->tree, e, buf));
}

size_t fileset_dir_path(const struct fs_state *fs, uint32_t d, char *buf)
{
	return join(fs, buf, tree_dir_relpath(&fs->tree, d, buf));
}
