/*
 * cli.h - the command line of flowbench: what the user asked for.
 *
 *   flowbench run FILE [options]            (-f FILE: the same, filebench's habit)
 *   flowbench check FILE [options]
 *   flowbench list [--dir]                  (the workload catalogue)
 *   flowbench compare A.json B.json... [--format text|markdown|csv]
 *   flowbench report A.json... -o report.html
 *   flowbench import-fio JOB.fio            (WML for an fio job file, on stdout)
 *   flowbench import-fio --name=a --rw=...  (the same for fio's command line)
 *   flowbench run|check JOB.fio, run|check --fio FIO-ARGS...  (imported in memory)
 *   flowbench run --again RESULTS [--run N] [-D NAME=VALUE] [-o FILE]  (a rerun)
 *   flowbench --help | --version
 *
 * cli.c holds two tables, the subcommands and the options (one row each:
 * names, argument, the subcommands that take it, parser, help line); the
 * parsing and `flowbench --help` both come from them.  FILE may also be
 * the bare name of a catalogue workload (catalog.h).
 */
#ifndef FLOWBENCH_CLI_H
#define FLOWBENCH_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lang/frontend.h"
#include "runtime/fileset/cache.h"

/* The subcommands; main.c has a handler for each. */
enum cli_command {
	CLI_RUN,
	CLI_CHECK,
	CLI_LIST,
	CLI_COMPARE,
	CLI_REPORT,
	CLI_IMPORT_FIO,
	CLI_HELP,
	CLI_VERSION,
	CLI_NCOMMANDS
};

/* --percentiles: how many values at most. */
#define CLI_MAX_PERCENTILES 16

struct cli_args {
	enum cli_command cmd;
	const char *file;
	char **inputs;            /* compare, report: results files (malloc'ed) */
	int ninputs;
	const char *format;       /* compare --format: "text" unless given */
	const char **thresholds;  /* compare --threshold LIST, each as typed (malloc'ed) */
	int nthresholds;
	const char *junit;        /* compare --junit FILE */
	const char *again;        /* run --again RESULTS: rerun what it records */
	int again_run;            /* run --run N: that run only; 0: every run */
	uint64_t given;           /* bit i: options[i] of cli.c's table was given */
	const char *report_out;   /* report -o FILE */
	bool list_dir;            /* list --dir: the catalogue's directory */
	struct frontend_define *defines;   /* -D: names malloc'ed, values in argv */
	int ndefines;
	bool runtime_given;
	double runtime_s;
	enum cache_mode cache;    /* --cache (CACHE_COLD when not given) */
	bool seed_given;
	unsigned long long seed;
	bool allow_system;
	enum plan_semantics semantics;   /* --compat */
	bool keep_going;          /* --keep-going: count op failures, go on */
	bool force;               /* --force: adopt unmarked fileset directories */
	bool shared_files;        /* --shared-files: flowbench-mpi's ranks share the files */
	double percentiles[CLI_MAX_PERCENTILES];   /* --percentiles, each in (0, 100) */
	int npercentiles;                          /* 0: the defaults */
	int repeat;               /* --repeat N: 1 unless given */
	double warmup_s;          /* --warmup: 0 unless given */
	double interval_s;        /* --interval: 0 unless given */
	const char **outputs;     /* --output FILE (.json/.yaml/.yml), malloc'ed */
	int noutputs;
	const char **write_devices;   /* --write-device DEV, malloc'ed */
	int nwrite_devices;
	const char **destroy_devices; /* --destroy-data DEV, malloc'ed */
	int ndestroy_devices;
	bool fio_lenient;         /* import-fio --lenient: NOT IMPORTED comments */
	int *fio_words;           /* argv indices of fio's words (malloc'ed): import-fio's
				     operands and unknown options, or all after run --fio */
	int nfio_words;
	bool fio_args;            /* run/check --fio: the rest of the line is fio's */
	struct plan_oplog oplog;  /* --log-*: per-op logs of every thread instance */
	bool log_coarseness_given;
	char *const *argv;        /* the whole command line, for results files */
	int argc;
};

/*
 * Parse argv.  On a usage error prints the reason to `err` and returns -1
 * (the caller exits with status 2).  Release `args` with cli_args_free()
 * in either case.
 */
int cli_parse(int argc, char **argv, struct cli_args *args, FILE *err);
void cli_args_free(struct cli_args *args);

/* `flowbench --help`: the subcommands, then every option of the table. */
void cli_usage(FILE *out);

/*
 * "NAME=VALUE" (NAME may start with '$', which is dropped) into a define:
 * the name malloc'ed, the value pointing into `text`.  Returns 0, or -1
 * when `text` has no '=' or nothing before it.  The fuzz target splits
 * its "# -D" line with it too.
 */
int cli_split_define(const char *text, struct frontend_define *def);

#endif
