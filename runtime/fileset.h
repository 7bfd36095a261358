/*
 * fileset.h - the files of a run, on disk and as the workers see them.
 *
 * The master prepares every file and fileset before forking (creating,
 * reusing or preallocating them); the resulting table (paths, sizes at
 * population time, which files exist) is plain master memory that the
 * workers inherit through fork() and only read.
 *
 * For now only `define file` is supported (one file per set).  Filesets
 * with many entries will keep the same table; what changes at run time
 * (existence, busy marks, pick rotors) will then move into the shared
 * region.
 */
#ifndef FLOWBENCH_FILESET_H
#define FLOWBENCH_FILESET_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/plan.h"

struct fs_file {
	char *path;          /* <path>/<name>/00000001/00000001 */
	uint64_t size;       /* size at population: the default working set */
	bool exists;         /* created (preallocated) before the run */
};

struct fs_state {
	const struct plan_fileset *pf;
	char *root;          /* <path>/<name>, owned by flowbench (marker) */
	uint64_t nfiles;
	struct fs_file *files;
};

/*
 * Prepare all filesets of `p` on disk; *out receives p->nfilesets states.
 * Returns 0, or -1 after logging the error (nothing foreign is touched).
 */
int fileset_prepare_all(const struct plan *p, struct fs_state **out);
void fileset_free_all(struct fs_state *fs, int n);

/*
 * An existing file to open, or NULL if there is none ("no resource").
 * Worker side; must not block or allocate.
 */
const struct fs_file *fileset_pick_existing(const struct fs_state *fs);

#endif
