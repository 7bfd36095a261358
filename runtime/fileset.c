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
 * is refused, never touched, unless --force adopts it (writes the marker
 * first).  Cleaning a marked tree removes only entries with flowbench's
 * own names (8 decimal digits, directories or regular files); the whole
 * tree is checked for foreign entries before anything is removed (and
 * before a tree is reused): without --force a foreign entry stops the run
 * naming it, with --force it is left in place (and so is the numbered
 * directory holding it).  A numbered entry that is neither a directory
 * nor a regular file (a symbolic link) stops the run even with --force.
 * Every step works relative to directory descriptors opened with
 * O_NOFOLLOW and uses lstat semantics, so a symbolic link planted in the
 * tree is never followed.  Some directories are never a fileset's, even
 * with --force (runtime/fsguard.h).  No shell is ever run.
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

#include "runtime/fsguard.h"
#include "runtime/log.h"
#include "runtime/prealloc.h"
#include "runtime/randvar.h"
#include "runtime/rng.h"

#define FS_MARKER ".flowbench"
#define FS_MARKER_LINE "This directory was created by flowbench; it owns and may delete its contents.\n"
#define FS_MARKER_TAG "This directory was created by flowbench"
#define FS_ADOPTED_LINE "This directory was adopted by flowbench (--force); it may delete the entries with its own 8-digit names, never other files.\n"
#define FS_ADOPTED_TAG "This directory was adopted by flowbench"
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

/* Does directory `dfd` carry our marker (written at creation or adoption)? */
static bool has_marker(int dfd)
{
	char buf[sizeof(FS_MARKER_TAG) + sizeof(FS_ADOPTED_TAG)];
	size_t want = sizeof(FS_MARKER_TAG) - 1;
	ssize_t n;
	int fd = openat(dfd, FS_MARKER, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return false;
	return ((size_t)n >= want && memcmp(buf, FS_MARKER_TAG, want) == 0) ||
	       ((size_t)n >= sizeof(FS_ADOPTED_TAG) - 1 &&
		memcmp(buf, FS_ADOPTED_TAG, sizeof(FS_ADOPTED_TAG) - 1) == 0);
}

static int write_marker(int dfd, const char *root, const char *line)
{
	int fd = openat(dfd, FS_MARKER, O_WRONLY | O_CREAT | O_EXCL |
			O_NOFOLLOW | O_CLOEXEC, 0644);
	size_t len = strlen(line);

	if (fd < 0 || write(fd, line, len) != (ssize_t)len) {
		log_error("cannot write %s/%s: %s", root, FS_MARKER, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* One walk over a tree: what it does and what it found. */
struct walk {
	bool remove;            /* false: only check that every entry is ours */
	bool force;             /* leave foreign entries instead of refusing */
	unsigned long kept;     /* foreign entries left in place */
};

/* How many kept foreign entries are named in the log, one line each. */
#define FS_KEPT_LOGGED 10

/*
 * Walk the directory `dfd` (path `dpath`, for messages): check that every
 * entry is ours, or (w->remove) delete our entries depth first.  With
 * w->force a foreign entry is left in place (and the directory holding
 * it is kept) instead of stopping the walk.  The marker at the top is
 * left alone.
 */
static int walk_tree(int dfd, const char *dpath, int depth, bool top, struct walk *w)
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
		if (is_serial_name(n) && !S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
			/* the tree may need this name: never follow nor remove it */
			log_error("refusing to use %s: %s/%s has a flowbench name but is "
				  "not a directory or regular file (left untouched, even "
				  "with --force; remove it or use another path)",
				  dpath, dpath, n);
			rc = -1;
			break;
		}
		if (!is_serial_name(n)) {
			if (!w->force) {
				log_error("refusing to clean or reuse %s: %s/%s was not created "
					  "by flowbench (left untouched); remove it, use another "
					  "path, or run with --force to keep it and use the tree "
					  "around it", dpath, dpath, n);
				rc = -1;
				break;
			}
			if (!w->remove && ++w->kept <= FS_KEPT_LOGGED)
				log_info("--force: leaving %s/%s in place (not flowbench's)",
					 dpath, n);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			char *sub = xasprintf("%s/%s", dpath, n);
			int sfd = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

			if (!sub || sfd < 0 || depth >= FS_MAX_DEPTH) {
				log_error("cannot open directory %s/%s: %s", dpath, n,
					  depth >= FS_MAX_DEPTH ? "tree too deep" : strerror(errno));
				rc = -1;
			} else {
				rc = walk_tree(sfd, sub, depth + 1, false, w);
			}
			if (sfd >= 0)
				close(sfd);
			free(sub);
			if (rc == 0 && w->remove && unlinkat(dfd, n, AT_REMOVEDIR) < 0 &&
			    !(w->force && (errno == ENOTEMPTY || errno == EEXIST))) {
				log_error("cannot remove %s/%s: %s", dpath, n, strerror(errno));
				rc = -1;
			}
		} else if (w->remove && unlinkat(dfd, n, 0) < 0) {
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

/* Check the tree at rootfd, then (remove) empty it of our entries. */
static int clean_tree(int rootfd, const char *root, bool force, bool remove)
{
	struct walk w = { .force = force };

	if (walk_tree(rootfd, root, 0, true, &w) < 0)
		return -1;
	if (w.kept > FS_KEPT_LOGGED)
		log_info("--force: left %lu entries in %s that are not flowbench's",
			 w.kept, root);
	if (!remove)
		return 0;
	w.remove = true;
	return walk_tree(rootfd, root, 0, true, &w);
}

/*
 * The resolved path of <path>/<name> (its parent without symbolic
 * links), checked against the directories never used (fsguard.h).
 * NULL after logging the refusal.
 */
static char *guarded_root(const struct fs_state *fs)
{
	const struct plan_fileset *pf = fs->pf;
	struct fsguard_homes homes;
	const char *why;
	char *parent = realpath(pf->path, NULL);
	char *real;

	if (!parent) {
		log_error("cannot resolve path '%s' of %s '%s': %s", pf->path,
			  pf->is_file ? "file" : "fileset", pf->name, strerror(errno));
		return NULL;
	}
	real = xasprintf("%s%s%s", parent, strcmp(parent, "/") ? "/" : "", pf->name);
	free(parent);
	if (!real) {
		log_error("out of memory");
		return NULL;
	}
	fsguard_homes_get(&homes);
	why = fsguard_refusal(real, &homes);
	fsguard_homes_free(&homes);
	if (why) {
		log_error("refusing to use %s as the directory of %s '%s': %s; "
			  "flowbench never creates, cleans or adopts it, even with --force",
			  real, pf->is_file ? "file" : "fileset", pf->name, why);
		free(real);
		return NULL;
	}
	return real;
}

/*
 * Open <path>/<name> as our root: create it (with the marker) if missing,
 * adopt it (mark it) with `force`, refuse it if it is not ours.  Returns
 * a directory fd or -1.
 */
static int open_root(const struct fs_state *fs, bool force, bool *created)
{
	const struct plan_fileset *pf = fs->pf;
	struct stat st;
	char *real;
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
	if (!(real = guarded_root(fs)))
		return -1;
	if (lstat(real, &st) < 0) {
		if (errno != ENOENT || mkdir(real, 0755) < 0) {
			log_error("cannot create %s: %s", fs->root, strerror(errno));
			goto fail_path;
		}
		*created = true;
	} else if (!S_ISDIR(st.st_mode)) {
		log_error("refusing to use %s: it exists and is not a directory "
			  "(left untouched, even with --force)", fs->root);
		goto fail_path;
	}
	fd = open(real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		log_error("cannot open %s: %s", fs->root, strerror(errno));
		goto fail_path;
	}
	free(real);
	if (*created) {
		if (write_marker(fd, fs->root, FS_MARKER_LINE) < 0)
			goto fail;
	} else if (!has_marker(fd)) {
		if (!force) {
			log_error("refusing to use %s: it exists and was not created by "
				  "flowbench (no %s marker); remove it, use another path, or "
				  "run with --force to adopt it (flowbench then removes only "
				  "entries with its own 8-digit names in it, never other files)",
				  fs->root, FS_MARKER);
			goto fail;
		}
		if (faccessat(fd, FS_MARKER, F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
			log_error("refusing to adopt %s: its %s is not flowbench's "
				  "marker (left untouched)", fs->root, FS_MARKER);
			goto fail;
		}
		if (write_marker(fd, fs->root, FS_ADOPTED_LINE) < 0)
			goto fail;
		log_info("--force: adopted %s (marked as flowbench's; only entries "
			 "with its 8-digit names will be removed)", fs->root);
	}
	return fd;
fail:
	close(fd);
	return -1;
fail_path:
	free(real);
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
	size_t len;

	memset(fs, 0, sizeof(*fs));
	fs->pf = pf;
	if (!pf->name[0] || strchr(pf->name, '/') || !strcmp(pf->name, ".") ||
	    !strcmp(pf->name, "..")) {
		log_error("%s name '%s' is not a plain directory name",
			  pf->is_file ? "file" : "fileset", pf->name);
		return -1;
	}
	len = strlen(pf->path);
	fs->root = xasprintf("%s%s%s", pf->path,
			     len && pf->path[len - 1] == '/' ? "" : "/", pf->name);
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
static int create_one(struct fs_state *fs, const char *pattern, bool force)
{
	const struct plan_fileset *pf = fs->pf;
	struct prealloc_job job = { .fs = fs, .pattern = pattern,
				    .log_each = pf->is_file };
	bool created, trusted = false;
	int rootfd = open_root(fs, force, &created);
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
		if (clean_tree(rootfd, fs->root, force, false) < 0)
			goto out;
	} else {
		log_info("Removing %s tree (if exists)", pf->name);
		if (clean_tree(rootfd, fs->root, force, true) < 0)
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

int fileset_prepare_all(const struct plan *p, bool force, struct fs_state **out)
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
		if (create_one(&fs[i], pattern, force) < 0)
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
