/*
 * outfile.h - writing a file the user named (a results file, the HTML
 * report): atomically, and only over a regular file or nothing.  Its own
 * header because <sys/stat.h> names clash with doc.c's helpers.
 */
#ifndef FLOWBENCH_REPORT_OUTFILE_H
#define FLOWBENCH_REPORT_OUTFILE_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

#include "runtime/results/results.h"

/*
 * A file the user named (results file, HTML report), written atomically
 * and only over a regular file or nothing (atomic.c says why and what race
 * remains).  outfile_prepare() writes the whole document into a new
 * temporary file beside the target and fsyncs it; outfile_commit()
 * checks the target again and renames the temporary file over it;
 * outfile_close() fsyncs the directory after a commit, removes the
 * temporary file otherwise, and releases everything.  Every failure
 * prints its message to stderr and leaves the target as it was.
 */
struct outfile {
	const char *path;                 /* as given */
	const char *what;                 /* "results", "the report" */
	mode_t mode;                      /* of the new file */
	char *dir;                        /* path's directory (malloc'ed) */
	const char *base;                 /* path's last component */
	int dirfd;                        /* dir, O_PATH: every step is relative to it */
	char tmp[48];                     /* the temporary file's name in dir */
	volatile sig_atomic_t live;       /* tmp exists and is ours to remove */
	bool committed;
};

/*
 * Before the work (a run of an hour must not be lost at its end): `path`
 * is absent or a regular file, in an existing directory this user may
 * write to.  0, or -1 with the refusal printed ("refusing to write
 * results to /dev/null: it is a character device, not a regular file").
 */
int outfile_check(const char *what, const char *path);

/* `prefix` names the temporary file (".flowbench-results."). 0 or -1. */
int outfile_prepare(struct outfile *o, const char *what, const char *path,
		    mode_t mode, const char *prefix,
		    int (*fn)(FILE *f, const void *arg), const void *arg);
int outfile_commit(struct outfile *o);
/*
 * outfile_prepare() for a file written later, by whoever holds the
 * descriptor returned (per-op logs: the workers): the new temporary
 * file beside the target, with `mode` and the status `flags` (O_APPEND)
 * set.  The caller fsyncs and closes it before outfile_commit().  The
 * descriptor, or -1 with the message printed.
 */
int outfile_create(struct outfile *o, const char *what, const char *path,
		   mode_t mode, const char *prefix, int flags);
/* The mode a new file gets: 0666 less the umask, like creat(2). */
mode_t outfile_default_mode(void);
void outfile_close(struct outfile *o);

/*
 * Remove the temporary file of a prepared, uncommitted outfile; only
 * unlinkat(2): for interrupt_on_exit()'s cleanup in a signal handler.
 */
void outfile_discard_async(const struct outfile *o);

/* outfile_prepare() for the results in the format of path's extension. */
int results_prepare_file(struct outfile *o, const char *path,
			 const struct results *r);

#endif
