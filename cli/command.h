/*
 * command.h - the subcommands, shared by both binaries.
 *
 * flowbench's main() calls command_main() without hooks.  flowbench-mpi
 * (mpi/main.c) passes hooks that make one `run` of many clients: where
 * the front end's messages go and how the clients agree that every one
 * compiled the workload, the plan adapted to the client (its own
 * directory), the run's coordinator (runtime/engine/coord.h), and
 * whether this client writes the results files.
 */
#ifndef FLOWBENCH_COMMAND_H
#define FLOWBENCH_COMMAND_H

#include <stdbool.h>
#include <stdio.h>

#include "cli/cli.h"
#include "lang/compile.h"
#include "plan/plan.h"
#include "runtime/engine/coord.h"

struct command_hooks {
	void *ctx;
	/* Refuse what this binary does not do (after a message): false. */
	bool (*accepts)(void *ctx, const struct cli_args *args);
	FILE *diag;                /* the front end's messages (NULL: stderr) */
	/* $rank, $nranks, $hostname of this client (NULL: plain flowbench's) */
	const struct compile_builtin *builtins;
	int nbuiltins;
	/* This client's front end found `errors`: 0 when every client compiled. */
	int (*compiled)(void *ctx, int errors);
	/* Adapt the compiled plan to this client: 0, or 1 after a message. */
	int (*adapt_plan)(void *ctx, struct plan *p);
	const struct run_coord *coord;
	bool writes_results;       /* --output files written by this client */
	bool many_clients;         /* flowbench-mpi: --shared-files means something */
};

/* Parse argv and run the subcommand; the process's exit status. */
int command_main(int argc, char **argv, const struct command_hooks *h);

#endif
