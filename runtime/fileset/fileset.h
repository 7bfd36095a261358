/*
 * fileset.h - the files of a run, on disk and as the workers see them.
 *
 * The master populates every file and fileset in memory (runtime/fileset/tree.h),
 * creates them on disk (reusing, cleaning, preallocating) and maps their
 * shared run-time state (runtime/fileset/pick.h) before forking.  Workers inherit
 * struct fileset_state through fork(): the tree is read-only, the pick sets
 * point into shared memory and change during the run.
 *
 * A `define file` is a fileset of one file: <path>/<name>/00000001/00000001.
 * A `define device` is one too, whose entry is a region of a block
 * device (devtarget.h): nothing is created, cleaned or marked.
 */
#ifndef FLOWBENCH_FILESET_H
#define FLOWBENCH_FILESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/fileset/blkdev.h"
#include "runtime/fileset/marker.h"
#include "runtime/fileset/pick.h"
#include "plan/plan.h"
#include "runtime/fileset/tree.h"

struct fileset_state {
	const struct plan_fileset *pf;
	char *root;               /* <path>/<name>, owned by flowbench (marker) */
	size_t rootlen;
	int rootfd;               /* <path>/<name>, held from preparation to the end
				     (workers inherit it); -1 before */
	struct fs_marker marker;  /* its marker, locked for the run */
	struct fs_tree tree;
	struct pick_set files;    /* existence, busy, open counts, rotors */
	struct pick_set leafdirs; /* existence, busy, rotors */
	struct pick_set dirs;     /* every directory (listdir): busy, rotor */
	bool created;             /* its root was made by this preparation */
	void *shm;                /* the shared mapping behind the pick sets */
	size_t shm_len;
	/*
	 * `define device`: the held device (dev.fd >= 0) and where its
	 * region starts; the one entry's size is the region's end, so the
	 * flowops' offsets run from dev_base to it (io.h).  root is the
	 * device's path, rootfd -1, no marker.
	 */
	struct blkdev dev;
	uint64_t dev_base;
};

/*
 * Populate, create and preallocate every fileset of `p`; *out receives
 * p->nfilesets states.  Returns 0, or -1 after logging the error (nothing
 * foreign is ever touched).  `force` (--force) adopts an existing
 * unmarked directory and leaves foreign entries in place instead of
 * refusing; it never removes them, nor uses a directory fsguard.h refuses.
 */
int fileset_prepare_all(const struct plan *p, bool force,
			struct fileset_state **out);
void fileset_free_all(struct fileset_state *fs, int n);

/*
 * Remove again the trees fileset_prepare_all() made from nothing (their
 * root created by it: `created`), entry by entry with the same checks
 * as cleaning, then the marker and the root: for a run abandoned before
 * it started (flowbench-mpi: another client could not prepare its
 * files), so that it leaves nothing behind.  A reused or adopted tree
 * stays as it was found.  Before fileset_free_all().
 */
void fileset_undo_created(struct fileset_state *fs, int n);

/*
 * Clients of one run sharing its files (flowbench-mpi --shared-files):
 * one prepares them with fileset_prepare_all() then turns its locks into
 * shared ones (fileset_share_all); the others, once it is done, populate
 * the same trees in memory and use what it made (fileset_attach_all):
 * nothing is created, changed or removed, every chosen file must be
 * there and flowbench's, the markers locked shared.  0 or -1 (logged).
 */
int fileset_attach_all(const struct plan *p, struct fileset_state **out);
int fileset_share_all(struct fileset_state *fs, int n);

/*
 * Population only (no disk): the tree of p->filesets[idx] and its shared
 * state, every entry absent.  For fileset_prepare_all(), tests and
 * benchmarks.  0 or -1 (logged).
 */
int fileset_populate(struct fileset_state *fs, const struct plan *p, int idx);
void fileset_release(struct fileset_state *fs);

/*
 * A fileset's disk footprint once prepared, and what preparing it will
 * write given what is on disk now: the preflight check compares
 * to_write with the free space (plus what cleaning an old tree frees
 * first) whether the tree is new, reused or recreated; `check` prints
 * the planned part.
 */
enum fileset_foot_mode {
	FILESET_FOOT_NEW,         /* <path>/<name> does not exist (or not looked) */
	FILESET_FOOT_REUSED,      /* reuse: kept, completed, trimmed */
	FILESET_FOOT_RECREATED,   /* emptied, then written again */
	FILESET_FOOT_TRUSTED,     /* trusttree: used as it is, nothing written */
};

struct fileset_foot {
	uint64_t bytes;           /* the files' bytes once prepared */
	uint64_t files;           /* files that exist before the run */
	uint64_t dirs;            /* directories, the root and leaf dirs included */
	uint64_t to_write;        /* bytes still to write */
	uint64_t there;           /* reused: bytes already there and kept */
	uint64_t freed;           /* recreated: bytes the cleaning frees first */
	bool exists;              /* <path>/<name> is there */
	enum fileset_foot_mode mode;
};

/*
 * The footprint of p->filesets[idx]: populated in memory as
 * fileset_prepare_all() would (quietly); with `look`, what is on disk is
 * read (never changed) to tell the bytes still to write.  0, or -1 after
 * logging (a tree that cannot be populated).
 */
int fileset_footprint(const struct plan *p, int idx, bool look,
		      struct fileset_foot *fp);

/* Size of the buffers the path functions below need. */
static inline size_t fileset_path_max(const struct fileset_state *fs)
{
	return fs->rootlen + 1 + TREE_PATH_MAX;
}

/* Absolute paths of entries, built into buf (fileset_path_max() bytes). */
size_t fileset_file_path(const struct fileset_state *fs, uint64_t e, char *buf);
size_t fileset_leaf_path(const struct fileset_state *fs, uint64_t e, char *buf);
size_t fileset_dir_path(const struct fileset_state *fs, uint32_t d, char *buf);

/* A file's size at population (the default working set). */
static inline uint64_t fileset_file_size(const struct fileset_state *fs, uint64_t e)
{
	return tree_file_size(&fs->tree, e);
}

#endif
