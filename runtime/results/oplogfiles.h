/*
 * oplogfiles.h - the files of a run's per-op logs (runtime/measure/oplog.h):
 * named as fio names them, created before the run beside their names
 * as temporary files, renamed into place after it, under the same rules
 * as a results file (runtime/results/outfile.h): only over a regular
 * file or nothing.  A log name is a user-named output, like --output.
 */
#ifndef FLOWBENCH_OPLOGFILES_H
#define FLOWBENCH_OPLOGFILES_H

#include <stddef.h>

#include "plan/plan.h"
#include "runtime/measure/oplog.h"
#include "runtime/results/outfile.h"

struct results_oplog {
	struct oplog_files files;     /* every thread instance's targets, for the run */
	struct outfile *out;          /* one per file [nout] */
	int *fd;                      /* its descriptor, -1 once closed [nout] */
	char **path;                  /* its name [nout] */
	size_t nout;
};

/*
 * Every log file of plan `p` (its command-line set, its processes'),
 * created and open: 0 (also when there is none: ro->nout 0), or -1 with
 * the reason printed (a bad name, two logs naming the same file, more
 * files than may be open) and nothing left behind.
 */
int results_oplog_open(struct results_oplog *ro, const struct plan *p);
/*
 * After the run: each file flushed to disk, closed and renamed over its
 * name, then "Logs written" said.  0, or -1 when one could not be (said;
 * the others are still written).
 */
int results_oplog_commit(struct results_oplog *ro);
/* Release everything; temporary files not committed are removed. */
void results_oplog_close(struct results_oplog *ro);
/* Remove the temporary files only: async-signal-safe (interrupt_on_exit()). */
void results_oplog_discard_async(const struct results_oplog *ro);

#endif
