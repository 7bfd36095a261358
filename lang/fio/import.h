/*
 * import.h - flowbench's second front end: fio job files (INI) in,
 * an equivalent, commented WML workload out (`flowbench import-fio`).
 *
 * Two steps: parse.c reads the job file into a list of jobs
 * (job.h: the [global] options copied into each job that follows,
 * the job's own lines overriding them) and rejects every option it does
 * not know, all of them in one pass; import.c, plan.c and write.c
 * (emit.h) write the WML.
 * docs/import-fio.md has the mapping table and its limits.
 */
#ifndef FLOWBENCH_LANG_FIO_IMPORT_H
#define FLOWBENCH_LANG_FIO_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lang/fio/job.h"

/*
 * Write the WML workload for a parsed job file to `out`.  Combinations
 * flowbench cannot express are errors through `d`; returns their count
 * (nothing useful is written then).
 */
int fio_emit(const struct fio_jobfile *jf, const char *source_name,
	     struct diag *d, FILE *out);

/* The whole command: parse and emit; 0 on success, 1 on any error. */
int fio_import(const char *source_name, const char *text, size_t len,
	       FILE *out, FILE *err);

/*
 * The same with --lenient: an option import-fio cannot honour becomes a
 * `# NOT IMPORTED:` comment (the job runs without it) instead of an
 * error.  Job-level impossibilities (no size, a device) stay errors.
 */
int fio_import_lenient(const char *source_name, const char *text, size_t len,
		       FILE *out, FILE *err, bool lenient);

/*
 * The command `flowbench import-fio ARGS`: fio's command line (options
 * and job files, cl) read as fio reads it, with -D and --lenient (ro),
 * then emitted.  0 on success, 1 on any error (nothing on `out` then).
 * ro->define_used, if given, says which -D the import used.
 */
int fio_import_cmdline(const struct fio_cmdline *cl, const struct fio_read_opts *ro,
		       FILE *out, FILE *err);

#endif
