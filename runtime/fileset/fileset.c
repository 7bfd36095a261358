/*
 * fileset.c - populating filesets and making them exist on disk.
 *
 * On-disk layout (filebench's shape, so existing scripts find the same
 * paths): <path>/<name>/ holds numbered (%08d) directories down to the
 * files and leaf directories (runtime/fileset/tree.h); a `define file` is
 * <path>/<name>/00000001/00000001.
 *
 * Ownership (docs/robustness.md has the threat model): flowbench only
 * ever writes, truncates or deletes inside a directory it created itself
 * or adopted with --force, both marked by a .flowbench file
 * (runtime/fileset/marker.h) that it locks for the run.  At the top of the tree
 * only the numbered directories the marker lists as reserved by
 * flowbench are its; below them, entries with flowbench's own names (8
 * decimal digits).  Every such entry must also be a directory or a
 * regular file with one link, owned by the marker's owner; anything else
 * with a flowbench name stops the run, even with --force, because the
 * tree may need that name.  The whole tree is checked before anything is
 * removed or reused: without --force a foreign entry stops the run naming
 * it, with --force it is left in place (and so is the directory holding
 * it).  `trusttree` skips that walk (its cost grows with the tree), never
 * the checks that protect data: the marker, the lock, the reserved top
 * level, and the run-time checks of runtime/fileset/fsaccess.h.
 *
 * The fileset's directory is opened once, through its resolved path with
 * no link followed, and held until the run ends; every later step works
 * relative to it (runtime/fileset/beneath.h), so no symbolic link planted in the
 * tree or above it, before or during the run, is ever followed.  Some
 * directories are never a fileset's, even with --force
 * (runtime/fileset/fsguard.h).  No shell is ever run.
 *
 * Which files and leaf directories exist before the run is decided here
 * with a generator seeded from the fileset's name (not --seed), like the
 * tree's shape: a reused tree matches the next run's population.  The
 * files themselves are written by prealloc.c.
 */
#include "runtime/fileset/fileset.h"

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

#include "runtime/fileset/beneath.h"
#include "runtime/fileset/devtarget.h"
#include "runtime/fileset/fsguard.h"
#include "runtime/fileset/fspath.h"
#include "runtime/base/log.h"
#include "runtime/fileset/prealloc.h"
#include "runtime/base/randvar.h"
#include "runtime/base/rng.h"

#define FS_MAX_DEPTH 64

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

/* One walk over a tree: what it does and what it found. */
struct walk {
	const struct fs_marker *marker;
	bool remove;            /* false: only check that every entry is ours */
	bool force;             /* leave foreign entries instead of refusing */
	unsigned long kept;     /* foreign entries left in place */
};

/* How many kept foreign entries are named in the log, one line each. */
#define FS_KEPT_LOGGED 10

/*
 * Is entry `n` of a directory at `depth` (0: the root) flowbench's by
 * name?  At the top only the serials the marker reserved; below them
 * every 8-digit name.
 */
static bool ours_by_name(const struct walk *w, const char *n, int depth)
{
	uint32_t serial = marker_serial_of(n);

	return serial && (depth > 0 || marker_owns(w->marker, serial));
}

/* An entry with our name that we may not touch: stop, even with --force. */
static int refuse_entry(const char *dpath, const char *n, const char *why)
{
	log_error("refusing to use %s: %s/%s has a flowbench name but %s; flowbench "
		  "never writes, truncates or removes it, even with --force (left "
		  "untouched; remove it or use another path)", dpath, dpath, n, why);
	return -1;
}

/*
 * Walk the directory `dfd` (path `dpath`, for messages): check that every
 * entry is ours, or (w->remove) delete our entries depth first.  With
 * w->force a foreign entry is left in place (and the directory holding
 * it is kept) instead of stopping the walk.  The marker at the top is
 * left alone.
 */
static int walk_tree(int dfd, const char *dpath, int depth, struct walk *w)
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
		char why[160];

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (depth == 0 && !strcmp(n, MARKER_NAME))
			continue;
		if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			log_error("cannot stat %s/%s: %s", dpath, n, strerror(errno));
			rc = -1;
			break;
		}
		if (!ours_by_name(w, n, depth)) {
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
		if (marker_foreign(w->marker, &st, why, sizeof(why))) {
			rc = refuse_entry(dpath, n, why);
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
				rc = walk_tree(sfd, sub, depth + 1, w);
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
static int clean_tree(const struct fileset_state *fs, bool force, bool remove)
{
	struct walk w = { .marker = &fs->marker, .force = force };

	if (walk_tree(fs->rootfd, fs->root, 0, &w) < 0)
		return -1;
	if (w.kept > FS_KEPT_LOGGED)
		log_info("--force: left %lu entr%s in %s that are not flowbench's",
			 w.kept, w.kept == 1 ? "y" : "ies", fs->root);
	if (!remove)
		return 0;
	w.remove = true;
	return walk_tree(fs->rootfd, fs->root, 0, &w);
}

/*
 * The resolved path of <path> (without symbolic links) into *parent, and
 * of <path>/<name> as the result, checked against the directories never
 * used (fsguard.h).  NULL after logging the refusal.
 */
static char *guarded_root(const struct fileset_state *fs, char **parent)
{
	const struct plan_fileset *pf = fs->pf;
	struct fsguard_homes homes;
	const char *why, *shown;
	char *real;

	*parent = realpath(pf->path, NULL);
	if (!*parent) {
		log_error("cannot resolve path '%s' of %s '%s': %s", pf->path,
			  pf->is_file ? "file" : "fileset", pf->name, strerror(errno));
		return NULL;
	}
	real = xasprintf("%s%s%s", *parent, strcmp(*parent, "/") ? "/" : "", pf->name);
	if (!real) {
		log_error("out of memory");
		goto fail;
	}
	/*
	 * Both the resolved path and the one as written: /var/lib/docker
	 * stays /var/lib's even when it is a link to /data/docker.
	 */
	fsguard_homes_get(&homes);
	shown = real;
	why = fsguard_refusal(real, &homes);
	if (!why && fs->root[0] == '/' && (why = fsguard_refusal(fs->root, &homes)))
		shown = fs->root;
	if (why)
		log_error("refusing to use %s as the directory of %s '%s': %s; "
			  "flowbench never creates, cleans or adopts it, even with --force",
			  shown, pf->is_file ? "file" : "fileset", pf->name, why);
	fsguard_homes_free(&homes);
	if (why) {
		free(real);
		goto fail;
	}
	return real;
fail:
	free(*parent);
	*parent = NULL;
	return NULL;
}

/*
 * Open the resolved directory `parent` following no link on the way (a
 * component swapped for a link since realpath() is refused, so the
 * directory checked by the guard is the one used).  -1 after logging.
 */
static int open_parent(const char *parent, const char *shown)
{
	int slash = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int fd = -1;

	if (slash >= 0) {
		fd = parent[1] ? beneath_open(slash, parent + 1, O_PATH | O_DIRECTORY, 0) :
		     dup(slash);
		close(slash);
	}
	if (fd < 0)
		log_error("cannot open %s: %s%s", shown, strerror(errno),
			  errno == ELOOP ? " (it changed into a symbolic link while "
			  "flowbench was resolving it)" : "");
	return fd;
}

/*
 * The fileset's <path>, resolved, judged by the guard and opened without
 * links (the directory its root is made or found in).  -1 after logging.
 */
static int open_root_parent(const struct fileset_state *fs)
{
	char *parent, *real;
	int pfd;

	if (!(real = guarded_root(fs, &parent)))
		return -1;
	pfd = open_parent(parent, fs->pf->path);
	free(parent);
	free(real);
	return pfd;
}

/*
 * Open <path>/<name> as our root into fs->rootfd and lock its marker:
 * create it (with the marker) if missing, adopt it (mark it) with
 * `force`, refuse it if it is not ours.  0 or -1 (logged).
 */
static int open_root(struct fileset_state *fs, bool force, bool *created)
{
	const struct plan_fileset *pf = fs->pf;
	struct stat st;
	int pfd, fd;

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
	if ((pfd = open_root_parent(fs)) < 0)
		return -1;
	if (fstatat(pfd, pf->name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT || mkdirat(pfd, pf->name, 0755) < 0) {
			log_error("cannot create %s: %s", fs->root, strerror(errno));
			close(pfd);
			return -1;
		}
		*created = true;
	} else if (!S_ISDIR(st.st_mode)) {
		log_error("refusing to use %s: it exists and is not a directory "
			  "(left untouched, even with --force)", fs->root);
		close(pfd);
		return -1;
	}
	fd = openat(pfd, pf->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(pfd);
	if (fd < 0) {
		log_error("cannot open %s: %s", fs->root, strerror(errno));
		return -1;
	}
	fs->rootfd = fd;
	if (*created)
		return marker_create(fd, fs->root, false, &fs->marker);
	switch (marker_open(fd, fs->root, &fs->marker)) {
	case MARKER_OURS:
		return 0;
	case MARKER_ERROR:
		return -1;
	case MARKER_NONE:
		break;
	}
	if (!force) {
		log_error("refusing to use %s: it exists and was not created by "
			  "flowbench (no %s marker); remove it, use another path, or "
			  "run with --force to adopt it (flowbench then removes only "
			  "what it creates in it, never the files already there)",
			  fs->root, MARKER_NAME);
		return -1;
	}
	if (marker_create(fd, fs->root, true, &fs->marker) < 0)
		return -1;
	log_info("--force: adopted %s (marked as flowbench's; only what flowbench "
		 "creates in it will be removed)", fs->root);
	return 0;
}

/* The number of numbered directories at the top of the tree (serials 1..N). */
static uint32_t top_count(const struct fs_tree *t)
{
	uint32_t n = 0;

	for (uint32_t d = 1; d < t->ndirs; d++) {
		if (t->dirs[d].parent == 0 && t->dirs[d].serial > n)
			n = t->dirs[d].serial;
	}
	return n;
}

/*
 * Reserve the top-level names the tree needs in the marker, before any
 * is created.  A name not reserved yet must not exist: something that was
 * there before (a user's file in an adopted directory) is never taken
 * for ours, not even with --force.  0 or -1 (logged).
 */
static int reserve_top(struct fileset_state *fs, bool fresh)
{
	uint32_t n = top_count(&fs->tree);
	bool all = true;
	struct stat st;
	char name[16];

	for (uint32_t s = 1; s <= n; s++) {
		if (marker_owns(&fs->marker, s))
			continue;
		all = false;
		if (fresh)
			break;
		snprintf(name, sizeof(name), "%08u", s);
		if (fstatat(fs->rootfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
			log_error("refusing to use %s: the tree needs the name %s/%s, but "
				  "the entry there is not flowbench's (it was not made by "
				  "flowbench%s); flowbench never writes, truncates or "
				  "removes it, even with --force (left untouched; move it or "
				  "use another path)", fs->root, fs->root, name,
				  fs->marker.adopted ? ": it was there when the directory "
				  "was adopted, or was put there later" : "");
			return -1;
		}
		if (errno != ENOENT) {
			log_error("cannot stat %s/%s: %s", fs->root, name, strerror(errno));
			return -1;
		}
	}
	if (all)
		return 0;
	if (marker_reserve(&fs->marker, 1, n) < 0) {
		log_error("out of memory");
		return -1;
	}
	return marker_save(&fs->marker, fs->root);
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
static int map_state(struct fileset_state *fs)
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

/* The tree of fileset `idx` in memory; `announce` logs its summary. */
static int populate(struct fileset_state *fs, const struct plan *p, int idx,
		    struct rng *r, bool announce)
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
	struct blkdev dev = fs->dev;        /* a device is opened before population */
	uint64_t dev_base = fs->dev_base;
	char err[256];
	size_t len;

	if (pf->is_device)
		tp.size = plan_sat_add(dev_base, pf->size);
	memset(fs, 0, sizeof(*fs));
	fs->rootfd = -1;
	fs->marker.fd = -1;
	fs->pf = pf;
	fs->dev = dev;
	fs->dev_base = dev_base;
	if (!pf->name[0] || strchr(pf->name, '/') || !strcmp(pf->name, ".") ||
	    !strcmp(pf->name, "..")) {
		log_error("%s name '%s' is not a plain directory name",
			  pf->is_file ? "file" : "fileset", pf->name);
		return -1;
	}
	len = strlen(pf->path);
	fs->root = pf->is_device ? xasprintf("%s", pf->path) :
		   xasprintf("%s%s%s", pf->path,
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
	if (!pf->is_file && announce)
		log_info("%s populated: %llu file%s, avg. dir. width = %.0f, avg. dir. "
			 "depth = %.1f, %llu leafdir%s, %.3fMB total size", pf->name,
			 (unsigned long long)fs->tree.nfiles, log_plural(fs->tree.nfiles),
			 floor(fs->tree.meanwidth), fs->tree.meandepth,
			 (unsigned long long)fs->tree.nleaf, log_plural(fs->tree.nleaf),
			 (double)fs->tree.total_bytes / 1048576.0);
	return 0;
}

int fileset_populate(struct fileset_state *fs, const struct plan *p, int idx)
{
	struct rng r;

	fileset_rng(&r, &p->filesets[idx]);
	return populate(fs, p, idx, &r, false);
}

void fileset_release(struct fileset_state *fs)
{
	if (fs->shm)
		munmap(fs->shm, fs->shm_len);
	tree_free(&fs->tree);
	free(fs->root);
	marker_close(&fs->marker);          /* the run's lock ends here */
	if (fs->rootfd >= 0)
		close(fs->rootfd);
	blkdev_close(&fs->dev);
	memset(fs, 0, sizeof(*fs));
	fs->rootfd = -1;
	fs->marker.fd = -1;
	fs->dev.fd = -1;
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

/*
 * The tree of fileset `idx` with the files and leaf directories that
 * exist before the run chosen: the same for preparing, attaching and
 * the footprint, whatever the order the filesets are taken in.
 */
static int populate_chosen(struct fileset_state *fs, const struct plan *p, int idx,
			   bool announce)
{
	struct rng r;

	fileset_rng(&r, &p->filesets[idx]);
	if (populate(fs, p, idx, &r, announce) < 0)
		return -1;
	choose_existing(&fs->files, p->filesets[idx].prealloc_pct, &r);
	choose_existing(&fs->leafdirs, p->filesets[idx].prealloc_pct, &r);
	return 0;
}

/* ---- creation on disk ------------------------------------------------ */

/* mkdir every directory below the root, parents first (array order). */
static int make_dirs(const struct fileset_state *fs)
{
	char rel[TREE_PATH_MAX];

	for (uint32_t d = 1; d < fs->tree.ndirs; d++) {
		tree_dir_relpath(&fs->tree, d, rel);
		if (beneath_mkdir(fs->rootfd, rel, 0755) < 0 && errno != EEXIST) {
			log_error("cannot create directory %s/%s: %s", fs->root, rel,
				  strerror(errno));
			return -1;
		}
	}
	return 0;
}

/*
 * Remove the empty leaf directory `rel` of a reused tree, if it exists
 * and is ours.  0 or -1 (logged).
 */
static int remove_leafdir(const struct fileset_state *fs, const char *rel)
{
	const char *name, *why;
	char reason[160];
	struct stat st;
	int pfd = beneath_parent(fs->rootfd, rel, &name);
	int rc = 0;

	if (pfd < 0) {
		if (errno == ENOENT)
			return 0;
		rc = -1;
	} else if (fstatat(pfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		rc = errno == ENOENT ? 0 : -1;
	} else if ((why = marker_foreign(&fs->marker, &st, reason, sizeof(reason)))) {
		beneath_close_parent(fs->rootfd, pfd);
		return refuse_entry(fs->root, rel, why);
	} else if (unlinkat(pfd, name, AT_REMOVEDIR) < 0 && errno != ENOENT) {
		rc = -1;
	}
	if (rc < 0)
		log_error("cannot remove leaf directory %s/%s: %s", fs->root, rel,
			  strerror(errno));
	beneath_close_parent(fs->rootfd, pfd);
	return rc;
}

/* Leaf directories: the chosen ones exist, the others (if reused) not. */
static int make_leafdirs(const struct fileset_state *fs, bool fresh)
{
	char rel[TREE_PATH_MAX];

	for (uint64_t e = 0; e < fs->tree.nleaf; e++) {
		bool want = pick_exists(&fs->leafdirs, e);

		if (!want && fresh)
			continue;
		tree_leaf_relpath(&fs->tree, e, rel);
		if (want && beneath_mkdir(fs->rootfd, rel, 0755) < 0 && errno != EEXIST) {
			log_error("cannot create leaf directory %s/%s: %s", fs->root,
				  rel, strerror(errno));
			return -1;
		}
		if (!want && remove_leafdir(fs, rel) < 0)
			return -1;
	}
	return 0;
}

/*
 * Make one file or fileset exist on disk as populated, below its path as
 * it is.  The root stays open (fs->rootfd) and its marker locked until
 * fileset_release().
 */
static int create_tree(struct fileset_state *fs, const char *pattern, bool force)
{
	const struct plan_fileset *pf = fs->pf;
	struct prealloc_job job = {
		.name = pf->name, .root = fs->root, .is_file = pf->is_file,
		.tree = &fs->tree, .files = &fs->files, .marker = &fs->marker,
		.pattern = pattern, .log_each = pf->is_file,
	};
	bool created;

	if (open_root(fs, force, &created) < 0)
		return -1;
	job.rootfd = fs->rootfd;
	job.fresh = created;
	fs->created = created;
	if (created)
		log_info("Created %s (marked as flowbench's)", fs->root);
	if (reserve_top(fs, created) < 0)
		return -1;
	if (created) {
		/* nothing to check */
	} else if (pf->trusttree) {
		/* the walk's cost grows with the tree; the run's checks stay */
		log_info("Reusing existing %s tree (trusted: not walked; every entry "
			 "is still checked before it is written or removed)", pf->name);
		return 0;
	} else if (pf->reuse) {
		log_info("Reusing existing %s tree", pf->name);
		if (clean_tree(fs, force, false) < 0)
			return -1;
	} else {
		log_info("Removing %s tree (if exists)", pf->name);
		if (clean_tree(fs, force, true) < 0)
			return -1;
		job.fresh = true;
	}
	log_info("Pre-allocating directories in %s tree", pf->name);
	if (make_dirs(fs) < 0 || make_leafdirs(fs, job.fresh) < 0)
		return -1;
	log_info("Pre-allocating files in %s tree", pf->name);
	return prealloc_files(&job);
}

/*
 * Make one file or fileset exist on disk as populated, its missing path
 * first (as filebench does: fspath.h); when that fails, the directories
 * made for the path are removed again (those still empty but for their
 * mark).
 */
static int create_one(struct fileset_state *fs, const char *pattern, bool force)
{
	struct fspath made;
	int rc;

	if (fspath_make(fs->pf->path, fs->pf->name, fs->pf->is_file, &made) < 0)
		return -1;
	rc = create_tree(fs, pattern, force);
	if (rc < 0)
		fspath_undo(&made);
	else
		fspath_release(&made);
	return rc;
}

/*
 * A `define device`: opened (devtarget.h: permission, checks, region),
 * then its one entry, the region, populated as existing; a device that
 * an earlier (higher) `define device` holds shares its descriptor.
 */
static int prepare_device(struct fileset_state *fs, const struct plan *p, int idx)
{
	const struct blkdev **held = calloc((size_t)p->nfilesets + 1, sizeof(*held));
	struct plan_fileset one = p->filesets[idx];
	struct plan copy = *p;
	uint64_t len;
	int nheld = 0, rc;

	if (!held) {
		log_error("out of memory");
		return -1;
	}
	for (int j = idx + 1; j < p->nfilesets; j++)
		if (fs[j].dev.fd >= 0)
			held[nheld++] = &fs[j].dev;
	rc = devtarget_open(p, idx, held, nheld, &fs[idx].dev, &fs[idx].dev_base, &len);
	free(held);
	if (rc < 0)
		return -1;
	/* the entry's size: the region's length (population adds the base) */
	one.size = len;
	copy.filesets = &one;
	copy.nfilesets = 1;
	if (populate_chosen(&fs[idx], &copy, 0, false) < 0)
		return -1;
	fs[idx].pf = &p->filesets[idx];
	return 0;
}

int fileset_prepare_all(const struct plan *p, bool force, struct fileset_state **out)
{
	struct fileset_state *fs = calloc((size_t)p->nfilesets + 1, sizeof(*fs));
	char *pattern = malloc(PREALLOC_BLOCK);
	struct rng r;
	int rc = -1;

	*out = NULL;
	for (int i = 0; fs && i < p->nfilesets; i++) {
		fs[i].rootfd = -1;
		fs[i].marker.fd = -1;
		fs[i].dev.fd = -1;
	}
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
		if (p->filesets[i].is_device) {
			if (prepare_device(fs, p, i) < 0)
				goto out;
			continue;
		}
		if (populate_chosen(&fs[i], p, i, true) < 0)
			goto out;
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

/* ---- the footprint: what preparing will write ----------------------- */

/*
 * Bytes a reused tree still needs: every file chosen to exist that is
 * missing, or smaller than its size, is written up to it (prealloc.c's
 * reuse_file); a larger one is only truncated.  Only lstat-like reads.
 */
static uint64_t reuse_to_write(const struct fileset_state *fs, int rootfd, uint64_t *there)
{
	char rel[TREE_PATH_MAX];
	uint64_t need = 0;

	*there = 0;
	for (uint64_t e = 0; e < fs->tree.nfiles; e++) {
		uint64_t size = tree_file_size(&fs->tree, e);
		struct stat st;

		if (!pick_exists(&fs->files, e))
			continue;
		tree_file_relpath(&fs->tree, e, rel);
		if (fstatat(rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISREG(st.st_mode)) {
			need = plan_sat_add(need, size);
			continue;
		}
		*there = plan_sat_add(*there, (uint64_t)st.st_size < size ?
				      (uint64_t)st.st_size : size);
		if ((uint64_t)st.st_size < size)
			need = plan_sat_add(need, size - (uint64_t)st.st_size);
	}
	return need;
}

/*
 * Space the cleaning of an old tree frees before anything is written:
 * the blocks of the regular files at the tree's own file names (an old
 * tree of another shape may hold more; those are not counted, which only
 * errs on the side of refusing).
 */
static uint64_t clean_frees(const struct fileset_state *fs, int rootfd)
{
	char rel[TREE_PATH_MAX];
	uint64_t freed = 0;

	for (uint64_t e = 0; e < fs->tree.nfiles; e++) {
		struct stat st;

		tree_file_relpath(&fs->tree, e, rel);
		if (fstatat(rootfd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && st.st_nlink == 1)
			freed = plan_sat_add(freed, (uint64_t)st.st_blocks * 512);
	}
	return freed;
}

/* What create_one() will do with the tree already at rootfd (see there). */
static void footprint_on_disk(const struct fileset_state *fs, int rootfd,
			      struct fileset_foot *fp)
{
	const struct plan_fileset *pf = fs->pf;

	fp->exists = true;
	if (pf->trusttree) {
		fp->mode = FILESET_FOOT_TRUSTED;
		fp->to_write = 0;
	} else if (pf->reuse) {
		fp->mode = FILESET_FOOT_REUSED;
		fp->to_write = reuse_to_write(fs, rootfd, &fp->there);
	} else {
		fp->mode = FILESET_FOOT_RECREATED;
		fp->freed = clean_frees(fs, rootfd);
	}
}

int fileset_footprint(const struct plan *p, int idx, bool look,
		      struct fileset_foot *fp)
{
	struct fileset_state fs;
	int rootfd;

	memset(fp, 0, sizeof(*fp));
	if (p->filesets[idx].is_device)
		return 0;               /* nothing created: the device is there */
	memset(&fs, 0, sizeof(fs));
	fs.dev.fd = -1;
	if (populate_chosen(&fs, p, idx, false) < 0) {
		fileset_release(&fs);
		return -1;
	}
	fp->files = pick_count(&fs.files, PICK_WANT_EXISTING);
	fp->dirs = (uint64_t)fs.tree.ndirs + pick_count(&fs.leafdirs, PICK_WANT_EXISTING);
	for (uint64_t e = 0; e < fs.tree.nfiles; e++)
		if (pick_exists(&fs.files, e))
			fp->bytes = plan_sat_add(fp->bytes, tree_file_size(&fs.tree, e));
	fp->to_write = fp->bytes;
	fp->mode = FILESET_FOOT_NEW;
	if (look) {
		rootfd = open(fs.root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (rootfd >= 0) {
			footprint_on_disk(&fs, rootfd, fp);
			close(rootfd);
		}
	}
	fileset_release(&fs);
	return 0;
}

/* ---- sharing a tree another client prepared ------------------------ */

/*
 * Open <path>/<name>, which another client prepared, as our root and
 * take its marker's shared lock: it must be there, be a directory
 * reached without links, and be flowbench's.  0 or -1 (logged).
 */
static int attach_root(struct fileset_state *fs)
{
	const struct plan_fileset *pf = fs->pf;
	int pfd;

	if ((pfd = open_root_parent(fs)) < 0)
		return -1;
	fs->rootfd = openat(pfd, pf->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(pfd);
	if (fs->rootfd < 0) {
		log_error("cannot use %s, which the client preparing the files made: %s "
			  "(is %s on a file system every client shares?)", fs->root,
			  strerror(errno), pf->path);
		return -1;
	}
	switch (marker_attach(fs->rootfd, fs->root, &fs->marker)) {
	case MARKER_OURS:
		return 0;
	case MARKER_NONE:
		log_error("cannot use %s: it has no flowbench marker, although the client "
			  "preparing the files made one (is %s on a file system every "
			  "client shares?)", fs->root, pf->path);
		return -1;
	default:
		return -1;
	}
}

/*
 * Every file the population chose to exist is there, a regular file of
 * flowbench's: the preparing client's work is visible here.  trusttree
 * skips this (its cost grows with the tree; the run's own checks stay).
 */
static int check_attached_files(const struct fileset_state *fs)
{
	char rel[TREE_PATH_MAX];

	for (uint32_t s = 1; s <= top_count(&fs->tree); s++)
		if (!marker_owns(&fs->marker, s)) {
			log_error("cannot use %s: its marker does not list the names the "
				  "tree needs (was it prepared for this workload?)", fs->root);
			return -1;
		}
	if (fs->pf->trusttree)
		return 0;
	for (uint64_t e = 0; e < fs->tree.nfiles; e++) {
		struct stat st;
		char reason[160];
		const char *why = NULL;
		int fd;

		if (!pick_exists(&fs->files, e))
			continue;
		tree_file_relpath(&fs->tree, e, rel);
		fd = beneath_open(fs->rootfd, rel, O_RDONLY, 0);
		if (fd >= 0 && fstat(fd, &st) == 0)
			why = S_ISREG(st.st_mode) ? marker_foreign(&fs->marker, &st, reason,
								   sizeof(reason)) :
			      "not a regular file";
		else
			why = strerror(errno);
		if (fd >= 0)
			close(fd);
		if (why) {
			log_error("cannot use %s/%s, which the client preparing the files "
				  "made: %s", fs->root, rel, why);
			return -1;
		}
	}
	return 0;
}

int fileset_attach_all(const struct plan *p, struct fileset_state **out)
{
	struct fileset_state *fs = calloc((size_t)p->nfilesets + 1, sizeof(*fs));

	*out = NULL;
	if (!fs) {
		log_error("out of memory");
		return -1;
	}
	for (int i = 0; i < p->nfilesets; i++) {
		fs[i].rootfd = -1;
		fs[i].marker.fd = -1;
		fs[i].dev.fd = -1;
	}
	/* the same population, in the same order, as fileset_prepare_all() */
	for (int i = p->nfilesets - 1; i >= 0; i--) {
		if (p->filesets[i].is_device) {
			log_error("device '%s': clients sharing their files do not share "
				  "devices; run without --shared-files", p->filesets[i].name);
			goto fail;
		}
		if (populate_chosen(&fs[i], p, i, true) < 0)
			goto fail;
		if (attach_root(&fs[i]) < 0 || check_attached_files(&fs[i]) < 0)
			goto fail;
	}
	if (p->nfilesets)
		log_info("Using the filesets another client prepared");
	*out = fs;
	return 0;
fail:
	fileset_free_all(fs, p->nfilesets);
	return -1;
}

int fileset_share_all(struct fileset_state *fs, int n)
{
	for (int i = 0; i < n; i++)
		if (marker_share(&fs[i].marker, fs[i].root) < 0)
			return -1;
	return 0;
}

void fileset_undo_created(struct fileset_state *fs, int n)
{
	for (int i = 0; fs && i < n; i++) {
		struct fileset_state *f = &fs[i];
		int pfd;

		if (!f->created || f->rootfd < 0)
			continue;
		if (clean_tree(f, false, true) < 0)
			continue;       /* said; what is left stays */
		if (unlinkat(f->rootfd, MARKER_NAME, 0) < 0 && errno != ENOENT) {
			log_error("cannot remove %s/%s: %s", f->root, MARKER_NAME, strerror(errno));
			continue;
		}
		if ((pfd = open_root_parent(f)) < 0)
			continue;
		if (unlinkat(pfd, f->pf->name, AT_REMOVEDIR) < 0)
			log_error("cannot remove %s: %s", f->root, strerror(errno));
		else
			log_info("Removed %s (made for a run that did not start)", f->root);
		close(pfd);
		f->created = false;
	}
}

void fileset_free_all(struct fileset_state *fs, int n)
{
	if (!fs)
		return;
	for (int i = 0; i < n; i++)
		fileset_release(&fs[i]);
	free(fs);
}

/* root + "/" + relative path (the root itself for "."). */
static size_t join(const struct fileset_state *fs, char *buf, size_t rl)
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

size_t fileset_file_path(const struct fileset_state *fs, uint64_t e, char *buf)
{
	if (fs->pf->is_device) {
		memcpy(buf, fs->root, fs->rootlen + 1);
		return fs->rootlen;
	}
	return join(fs, buf, tree_file_relpath(&fs->tree, e, buf));
}

size_t fileset_leaf_path(const struct fileset_state *fs, uint64_t e, char *buf)
{
	return join(fs, buf, tree_leaf_relpath(&fs->tree, e, buf));
}

size_t fileset_dir_path(const struct fileset_state *fs, uint32_t d, char *buf)
{
	return join(fs, buf, tree_dir_relpath(&fs->tree, d, buf));
}
