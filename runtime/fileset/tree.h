/*
 * tree.h - the in-memory shape of a fileset: directories, files, leaf dirs.
 *
 * Population (WML reference 5.3) decides, before anything touches the
 * disk, where every file and empty leaf directory of a fileset lives and
 * how big each file is.  The tree is kept small so that filesets of
 * millions of entries cost a few bytes each: no path string is stored.
 * A directory records its parent and its serial (its %08d name); the
 * entries a leaf directory holds are a contiguous index range, so an
 * entry needs no record at all (only its size, and only when sizes vary).
 * Paths are built on demand into a caller's buffer.
 *
 * Layout: dirs[0] is the root <path>/<name>; dirs[1 .. nfiledirs) is the
 * subtree holding the files; dirs[nfiledirs .. ndirs) the subtree holding
 * the leaf directories.  The second subtree's top directories are numbered
 * after the first's under the root, so files and leaf dirs never share a
 * directory (filebench numbers both from 1 and collides).
 */
#ifndef FLOWBENCH_TREE_H
#define FLOWBENCH_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rng;

/* Deepest directory level (the root is level 1); keeps paths short. */
#define TREE_MAX_DEPTH 48
/* Longest relative path: TREE_MAX_DEPTH components of 8 digits and a '/'. */
#define TREE_PATH_MAX (TREE_MAX_DEPTH * 9 + 1)
#define TREE_NONE UINT32_MAX

struct tree_dir {
	uint32_t parent;      /* TREE_NONE for the root */
	uint32_t serial;      /* its name, %08d, within the parent */
	uint32_t first;       /* first entry held directly (file or leaf dir) */
	uint32_t count;       /* entries held directly; 0: subdirectories only */
};

/*
 * What to populate.  A sampler, if given, replaces a constant with one
 * draw per file (size) or per directory (width, depth): WML's random
 * variables.  `gamma1000` is dirgamma: 0 gives exact widths and depths.
 */
struct tree_params {
	uint64_t entries;
	uint64_t leafdirs;
	double width;             /* mean directory width (dirwidth) */
	int64_t gamma1000;
	uint64_t size;            /* bytes per file */
	double (*size_rv)(void *ctx, struct rng *r);    /* NULL: `size` */
	double (*width_rv)(void *ctx, struct rng *r);   /* NULL: gamma or `width` */
	double (*depth_rv)(void *ctx, struct rng *r);   /* NULL: gamma or mean */
	void *ctx;
};

struct fs_tree {
	struct tree_dir *dirs;
	uint32_t ndirs;
	uint32_t capdirs;
	uint32_t nfiledirs;       /* dirs[0 .. nfiledirs): root and files' subtree */
	uint64_t nfiles;
	uint64_t nleaf;
	uint64_t size;            /* every file's size, when sizes == NULL */
	uint64_t *sizes;          /* per file, only when sizes vary */
	uint64_t total_bytes;
	double meanwidth;         /* the nominal width and depth (for the log) */
	double meandepth;
	unsigned maxdepth;        /* deepest level reached (root = 1) */
};

/*
 * Populate `t` from `p` with the deterministic generator `r`.
 * 0, or -1 with a message in err (too many entries, out of memory).
 */
int tree_build(struct fs_tree *t, const struct tree_params *p, struct rng *r,
	       char *err, size_t errlen);
void tree_free(struct fs_tree *t);

/* Bytes of private memory the tree holds (for the bytes-per-entry figure). */
size_t tree_bytes(const struct fs_tree *t);

/* The directory holding file (leaf dir) `e`. */
uint32_t tree_file_dir(const struct fs_tree *t, uint64_t e);
uint32_t tree_leaf_dir(const struct fs_tree *t, uint64_t e);

static inline uint64_t tree_file_size(const struct fs_tree *t, uint64_t e)
{
	return t->sizes ? t->sizes[e] : t->size;
}

/*
 * Relative paths below the root ("00000003/00000001"), written to buf
 * (at least TREE_PATH_MAX bytes).  The root's own relative path is ".".
 * Return the length.
 */
size_t tree_dir_relpath(const struct fs_tree *t, uint32_t d, char *buf);
size_t tree_file_relpath(const struct fs_tree *t, uint64_t e, char *buf);
size_t tree_leaf_relpath(const struct fs_tree *t, uint64_t e, char *buf);
/*
 * An entry's own name in its directory, the 8 digits of its serial
 * (1 .. 99999999) and a NUL, into buf (at least 9 bytes): what
 * snprintf("%08u") gives, without its ~850 instructions per call.
 */
void tree_serial_name(uint32_t serial, char *buf);

/* Depth of directory d (root = 1). */
unsigned tree_dir_depth(const struct fs_tree *t, uint32_t d);

#endif
