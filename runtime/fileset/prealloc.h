/*
 * prealloc.h - writing a fileset's files before the run, in parallel,
 * without a thread in the master.
 */
#ifndef FLOWBENCH_PREALLOC_H
#define FLOWBENCH_PREALLOC_H

#include <stdbool.h>

#include "runtime/fileset/marker.h"
#include "runtime/fileset/pick.h"
#include "runtime/fileset/tree.h"

#define PREALLOC_BLOCK (1u << 20)   /* write size: 1 MiB */

/* One fileset's files to write (fileset.c fills it from its state). */
struct prealloc_job {
	const char *name;         /* the fileset's, for messages */
	const char *root;         /* <path>/<name>, for messages */
	bool is_file;             /* a `define file`: no summary line */
	const struct fs_tree *tree;
	const struct pick_set *files;   /* which files must exist */
	const struct fs_marker *marker; /* whose a reused file must be */
	int rootfd;               /* the fileset's root directory */
	bool fresh;               /* the tree was just created or emptied */
	bool log_each;            /* log what happens to each reused file */
	const char *pattern;      /* PREALLOC_BLOCK bytes to write */
};

/*
 * Make every file whose existence bit is set exist with its population
 * size, and (unless fresh) remove the others, with up to one thread per
 * online CPU, in a child process (or in this one if it cannot fork): the
 * caller never runs a thread, so the workers it forks later stay
 * single-threaded to glibc.  Shows progress on stderr if it is a
 * terminal; stops on SIGINT/SIGTERM (interrupt.h).  0, or -1 after
 * logging the first error (or the interrupt).
 */
int prealloc_files(const struct prealloc_job *job);

#endif
