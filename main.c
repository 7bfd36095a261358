/*
 * main.c - flowbench's pipeline, end to end:
 *   read the file -> ast_parse (tokens, AST) -> compile_script (plan)
 *   -> run_plan (processes, threads, statistics, report).
 * Each stage reports its own errors; this file only decides the exit
 * status: 0 success, 1 script error or failed run, 2 usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "catalog.h"
#include "cli.h"
#include "config.h"
#include "lang/ast.h"
#include "lang/parse.h"
#include "lang/compile.h"
#include "plan/diag.h"
#include "lang/fio_import.h"
#include "lang/srcfile.h"
#include "runtime/compare/commands.h"
#include "runtime/base/log.h"
#include "runtime/results/session.h"

/* `import-fio JOB.fio`: the WML translation on stdout. */
static int import_fio(const char *path)
{
	size_t len = 0;
	char *text = srcfile_read(path, &len);
	int status;

	if (!text) {
		fprintf(stderr, "flowbench: cannot read '%s': %s\n", path,
			strerror(errno));
		return 1;
	}
	status = fio_import(path, text, len, stdout, stderr);
	free(text);
	return status;
}

/* A seed for a run without --seed: different every time, and printed. */
static uint64_t fresh_seed(void)
{
	uint64_t seed = 0;

	if (getrandom(&seed, sizeof(seed), 0) != sizeof(seed))
		seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
	return seed >> 1;       /* < 2^63: easy to paste back */
}

/* `quit` before any run: nothing runs, which is not an error. */
static bool ends_with_quit(const struct plan *p)
{
	return p->nactions && p->actions[p->nactions - 1].kind == PA_QUIT;
}

static void print_summary(const struct plan *p)
{
	uint64_t threads = 0;
	int files = 0;
	char run[64];

	for (int i = 0; i < p->nfilesets; i++)
		files += p->filesets[i].is_file;
	for (int i = 0; i < p->nthreads; i++)
		threads += p->threads[i].instances *
			   p->procs[p->threads[i].proc].instances;
	if (p->runtime_s > 0)
		snprintf(run, sizeof(run), "run %.3g s", p->runtime_s);
	else
		snprintf(run, sizeof(run), "run until the workload ends");
	printf("%s: ok: %d file%s, %d fileset%s, %d process definition%s, "
	       "%llu thread%s, %d flowop%s, %s\n",
	       p->filename, files, files == 1 ? "" : "s",
	       p->nfilesets - files, p->nfilesets - files == 1 ? "" : "s",
	       p->nprocs, p->nprocs == 1 ? "" : "s",
	       (unsigned long long)threads, threads == 1 ? "" : "s",
	       p->nflowops, p->nflowops == 1 ? "" : "s", run);
}

/* Run the compiled plan --repeat times and write the results files. */
static int run_session(const struct cli_args *args, const struct plan *plan,
		       const char *source, size_t len)
{
	struct res_define *defs = calloc((size_t)args->ndefines + 1, sizeof(*defs));
	struct session_options so = {
		.run.cache = args->cache_warm ? CACHE_WARM : CACHE_COLD,
		.run.percentiles = args->percentiles,
		.run.npercentiles = args->npercentiles,
		.run.warmup_s = args->warmup_s,
		.run.interval_s = args->interval_s,
		.run.keep_going = args->keep_going,
		.run.force = args->force,
		.repeat = args->repeat,
		.outputs = args->outputs, .noutputs = args->noutputs,
		.argv = args->argv, .argc = args->argc,
		.workload = args->file, .source = source, .source_len = len,
		.defines = defs, .ndefines = args->ndefines,
	};
	int status;

	if (!defs)
		abort();
	for (int i = 0; i < args->ndefines; i++) {
		defs[i].name = args->defines[i].name;
		defs[i].value = args->defines[i].value;
	}
	status = session_run(plan, &so);
	free(defs);
	return status;
}

/* Parse, compile and (for `run`) execute the workload. */
static int flowbench(const struct cli_args *args)
{
	struct ast_script script;
	struct compile_options copts = { 0 };
	struct diag d;
	struct plan plan;
	size_t len = 0;
	char *source = srcfile_read(args->file, &len);
	int status = 1;

	if (!source) {
		fprintf(stderr, "flowbench: cannot read '%s': %s\n", args->file,
			strerror(errno));
		return 1;
	}
	diag_init(&d, args->file, source, len, stderr);
	ast_parse(args->file, source, len, &d, &script);

	copts.defines = calloc((size_t)args->ndefines + 1, sizeof(*copts.defines));
	if (!copts.defines)
		abort();
	for (int i = 0; i < args->ndefines; i++) {
		struct diag dd;
		char origin[300];

		snprintf(origin, sizeof(origin), "-D %s", args->defines[i].name);
		diag_init(&dd, origin, NULL, 0, stderr);
		copts.defines[i].name = args->defines[i].name;
		copts.defines[i].value = ast_parse_value(origin,
				args->defines[i].value, &dd, &script.arena);
		if (!copts.defines[i].value || dd.errors)
			d.errors++;
	}
	copts.ndefines = args->ndefines;
	copts.runtime_given = args->runtime_given;
	copts.runtime_s = args->runtime_s;
	copts.seed = args->seed_given ? args->seed : fresh_seed();
	copts.allow_system = args->allow_system;

	if (d.errors == 0)
		compile_script(&script, &copts, &d, &plan);
	else
		memset(&plan, 0, sizeof(plan));

	if (d.errors) {
		fprintf(stderr, "%s: %d error%s", args->file, d.errors,
			d.errors == 1 ? "" : "s");
		if (d.errors > d.max_errors)
			fprintf(stderr, " (the first %d shown)", d.max_errors);
		fputc('\n', stderr);
	} else if (!plan.has_run && !ends_with_quit(&plan)) {
		fprintf(stderr, "%s: the script has no 'run' command: nothing to do "
			"(add 'run SECONDS' or pass --runtime SECONDS)\n",
			args->file);
	} else if (args->cmd == CLI_CHECK) {
		print_summary(&plan);
		status = 0;
	} else {
		log_info("Seed: %llu (repeat this run's random choices with --seed %llu)",
			 (unsigned long long)plan.seed,
			 (unsigned long long)plan.seed);
		status = run_session(args, &plan, source, len);
	}
	plan_free(&plan);
	free(copts.defines);
	ast_script_free(&script);
	free(source);
	return status;
}

int main(int argc, char **argv)
{
	struct cli_args args;
	int status;

	log_init();
	if (cli_parse(argc, argv, &args, stderr) < 0) {
		cli_args_free(&args);
		return 2;
	}
	switch (args.cmd) {
	case CLI_HELP:
		cli_usage(stdout);
		status = 0;
		break;
	case CLI_VERSION:
		printf("flowbench %s\n", PACKAGE_VERSION);
		status = 0;
		break;
	case CLI_LIST:
		status = catalog_list(stdout, stderr);
		break;
	case CLI_COMPARE:
		status = cmd_compare(args.inputs, args.ninputs, args.format,
				     stdout, stderr);
		break;
	case CLI_REPORT:
		status = cmd_report(args.inputs, args.ninputs, args.report_out,
				    stderr);
		break;
	case CLI_IMPORT_FIO:
		status = import_fio(args.file);
		break;
	default: {
		/* `run fileserver`: a bare name may come from the catalogue */
		char *found = catalog_resolve(args.file, catalog_dir(NULL));

		if (found) {
			args.file = found;
		} else if (!strchr(args.file, '/') && access(args.file, F_OK) < 0) {
			fprintf(stderr, "flowbench: '%s' is neither a file nor a workload of the catalogue '%s' (see 'flowbench list')\n",
				args.file, catalog_dir(NULL));
			status = 1;
			break;
		}
		status = flowbench(&args);
		free(found);
		break;
	}
	}
	cli_args_free(&args);
	return status;
}
