/*
 * session.h - one `flowbench run`: the workload run --repeat times, each
 * run's report, the aggregate over the runs and the results files.
 */
#ifndef FLOWBENCH_SESSION_H
#define FLOWBENCH_SESSION_H

#include <stddef.h>
#include <stdio.h>

#include "plan/plan.h"
#include "runtime/results/results.h"
#include "runtime/engine/run.h"

struct session_options {
	struct run_options run;
	int repeat;                       /* >= 1 */
	const char *const *outputs;       /* results files (.json/.yaml/.yml) */
	int noutputs;
	/* for the results file */
	char *const *argv;
	int argc;
	const char *workload;             /* file name as given */
	const void *source;               /* the text compiled: a .f file's bytes,
					     an fio job's WML as imported */
	size_t source_len;
	const char *source_kind;          /* "wml" or "fio" */
	const struct res_file *files;     /* fio: the job files read, includes too */
	int nfiles;
	const char *const *import_defines;   /* fio: the -D the import took */
	int nimport_defines;
	const struct res_define *defines;
	int ndefines;
	const struct res_options *options;   /* the options a rerun repeats */
	const struct res_rerun_of *rerun_of; /* run --again: what it reruns */
};

/*
 * The most bytes of workload text (the source and its files together) a
 * results file keeps; above it they are left out with a warning, and
 * `run --again` cannot rerun that file.
 */
#define SESSION_SOURCE_MAX (1u << 20)

/*
 * Run the plan so->repeat times (each run prepares its files and applies
 * the cache mode as configured), stop at the first failed or interrupted
 * run, print the aggregate when two or more runs completed, and write
 * every results file, also after a failure.  Returns the exit status:
 * 0, 1 when a run failed or a results file could not be written (or an
 * --output path is refused before the first run), 128 + signal when a
 * run was interrupted.  The status is settled (interrupt_settle) before
 * returning: a later signal exits at once with it.
 */
int session_run(const struct plan *p, const struct session_options *so);

/* The aggregate block printed after the runs' reports. */
void results_print_aggregate(FILE *out, const struct results *r);

#endif
