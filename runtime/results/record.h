/*
 * record.h - what a results file says about how its run was made, read
 * back for `flowbench run --again`: the workload's text, variables,
 * seed, options and environment (docs/results-format.md, "Rerunning a
 * results file").  Only what a rerun needs; compare and report read the
 * numbers with compare/load.h.
 */
#ifndef FLOWBENCH_RESULTS_RECORD_H
#define FLOWBENCH_RESULTS_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/results/results.h"

struct results_record {
	const char *path;             /* the results file, as named */
	char sha256[65];              /* of its bytes */
	json_t *root;                 /* owned: every string below is in it */
	const char *workload;         /* workload.file */
	const char *workload_sha256;  /* "" when absent */
	const char *kind;             /* workload.source.kind: "wml", "fio" */
	const char *text;             /* workload.source.text */
	size_t len;
	struct res_define *defines;   /* workload.defines, in order (malloc'ed) */
	int ndefines;
	const char **import_defines;  /* fio: the -D the import took (malloc'ed) */
	int nimport_defines;
	struct res_file *files;       /* fio: the job files (malloc'ed array) */
	int nfiles;
	uint64_t seed;
	const char *compat;           /* "flowbench", "filebench" */
	double warmup_s, interval_s;
	double pct[INTERVAL_MAX_PCT];
	int npct;
	struct res_options options;
	int nruns;                    /* runs[] */
	const json_t *runs;
	const json_t *environment;    /* the recorded environment, or NULL */
};

/*
 * Read `path` into `rec`.  0, or -1 after a located message on `err`
 * (not a flowbench results file, no workload text kept, a key of the
 * wrong type).  Release with results_record_free() in either case.
 */
int results_record_read(const char *path, struct results_record *rec, FILE *err);
void results_record_free(struct results_record *rec);

/*
 * Print to `out` what differs between the recorded environment and
 * `now` (kernel, host, CPUs and their model, memory, and per fileset
 * path its file system, mount options, device, disk and its model),
 * one line each, or one line saying nothing does.  Returns how many
 * differ.
 */
int results_env_diff(FILE *out, const json_t *recorded, const struct res_env *now);

#endif
