/*
 * again.h - `flowbench run --again RESULTS [--run N]`: the command line
 * of a rerun made from what a results file records (runtime/results/
 * record.h): its workload's text instead of a file on disk, its -D
 * values (those given with --again override them, and are said), seed
 * and options.  command.c compiles and runs it like any workload, and
 * the new results record what they rerun (`rerun_of`).
 */
#ifndef FLOWBENCH_CLI_AGAIN_H
#define FLOWBENCH_CLI_AGAIN_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"
#include "lang/frontend.h"
#include "runtime/results/record.h"

struct again {
	struct results_record rec;
	/* the rerun's command line: the recorded options, this line's -D
	   overrides, outputs and logs; its defines are `defines` */
	struct cli_args args;
	struct frontend_define *defines;     /* every -D, for the results file */
	struct frontend_define *wml_defines; /* those the WML compile gets (fio:
						not the import's) */
	int nwml_defines;
	const char **overrides;              /* names of the -D given now */
	struct res_rerun_of of;
	char *name;                          /* "x.f (from r.json)": messages */
};

/*
 * Read args->again and make the rerun's command line.  0; 1 when the
 * results file cannot be rerun (said); 2 for a usage error (--run out
 * of range, -D of a value the fio import took, a flowbench-mpi option
 * under flowbench).  Release with again_free() in every case.
 */
int again_prepare(const struct cli_args *args, bool many_clients, struct again *a,
		  FILE *err);

/*
 * After the compile, before the run: what is rerun, each -D override,
 * and what differs in the environment from the recorded one (the
 * plan's fileset paths as they are now).
 */
void again_announce(const struct again *a, const struct cli_args *args,
		    const struct plan *p);

void again_free(struct again *a);

#endif
