/*
 * command.c - the command line (cli.h) picks a subcommand, and this file
 * hands it to its handler; flowbench's main.c and flowbench-mpi's
 * mpi/main.c both come here (command.h), the second with the hooks
 * that make one run of many clients.  `run` and `check`
 * go through the front end's one entry (lang/frontend.h: read, parse,
 * -D, compile) to a plan; `run` then hands the plan to the session
 * (runtime/results/session.h: processes, threads, statistics, report).
 * Each stage reports its own errors; the handlers only decide the exit
 * status: 0 success, 1 script error or failed run, 2 usage error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "cli/again.h"
#include "cli/catalog.h"
#include "cli/cli.h"
#include "cli/command.h"
#include "config.h"
#include "flowops/registry.h"
#include "lang/fio/import.h"
#include "lang/frontend.h"
#include "runtime/base/log.h"
#include "compare/commands.h"
#include "runtime/engine/preflight.h"
#include "runtime/fileset/devtarget.h"
#include "runtime/measure/oplog.h"
#include "runtime/results/session.h"
#include "plan/oom.h"

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
	return p->nactions && p->actions[p->nactions - 1].kind == PLAN_ACTION_QUIT;
}

/*
 * The file `run FILE` means: FILE itself, or a catalogue workload when
 * FILE is a bare name that is not a file here (`run fileserver`).
 * Malloc'ed; NULL after a message.
 */
static char *workload_path(const char *file)
{
	char *found = catalog_resolve(file, catalog_dir(NULL));

	if (found)
		return found;
	if (!strchr(file, '/') && access(file, F_OK) < 0) {
		catalog_not_found(file, stderr);
		return NULL;
	}
	found = xstrdup(file);
	return found;
}

/* A workload compiled for `run` or `check`. */
struct workload {
	char *path;
	struct frontend_result fe;
	char *fio_wml;            /* an fio job's WML, imported in memory */
	char *fio_path;           /* the name its messages give it */
	struct frontend_define *fio_defines;   /* the -D its WML gets */
	/* what the results file keeps besides the text (session.h) */
	const char *kind;         /* "wml" or "fio" */
	const char *record_name;  /* workload.file: the path, or the rerun's */
	struct res_file *files;   /* fio: the job files read (owned copies) */
	int nfiles;
	const struct res_file *files_in;    /* those or the rerun's record's */
	const char **import_defines;        /* fio: -D the import took */
	int nimport_defines;
	const char *const *import_in;       /* those or the record's */
};

/* fio_read_opts.file_read: a copy of every job file the import read. */
static void keep_file(void *ctx, const char *name, const char *text, size_t len)
{
	struct workload *w = ctx;

	w->files = xreallocarray(w->files, (size_t)w->nfiles + 1, sizeof(*w->files));
	w->files[w->nfiles].name = xstrdup(name);
	w->files[w->nfiles].text = xstrndup(text, len);
	w->files[w->nfiles++].len = len;
}

/*
 * An fio job file: named .fio, .job or .ini (fio's habits).  Any other
 * name is WML; a WML file that starts as a job file does gets a hint
 * from the front end instead of a guess.
 */
static bool is_fio_job_file(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot && !strchr(dot, '/') && (strcmp(dot, ".fio") == 0 ||
					    strcmp(dot, ".job") == 0 ||
					    strcmp(dot, ".ini") == 0);
}

/* -D as import-fio takes them (the same NAME=VALUE pairs). */
static struct fio_define *fio_defines(const struct cli_args *args)
{
	struct fio_define *defs = xcalloc((size_t)args->ndefines + 1, sizeof(*defs));

	for (int i = 0; i < args->ndefines; i++) {
		defs[i].name = args->defines[i].name;
		defs[i].value = args->defines[i].value;
	}
	return defs;
}

/*
 * run or check of an fio job: `run JOB.fio` (its word of argv) or `run
 * --fio ARGS...`, imported into memory as import-fio would print it,
 * after a line saying so; the import's warnings come before the run's
 * output.  The -D the import used (${NAME}, keywords, a device's size)
 * are left out of those the WML gets.  0, or 1 after the messages.
 */
static int fio_load(const struct cli_args *args, struct workload *w,
		    struct frontend_define *wml_defs, int *nwml_defs, FILE *err)
{
	struct fio_define *defs = fio_defines(args);
	bool *used = xcalloc((size_t)args->ndefines + 1, sizeof(*used));
	struct fio_read_opts ro = {
		.defines = defs, .ndefines = args->ndefines, .define_used = used,
		.file_read = keep_file, .file_ctx = w,
	};
	int file_word = -1, status;
	struct fio_cmdline cl = {
		.argv = args->argv, .argc = args->argc,
		.words = args->fio_words, .nwords = args->nfio_words,
	};
	size_t n = 0;
	FILE *mem;

	if (!args->fio_args) {
		for (int i = 0; i < args->argc; i++)
			if (args->argv[i] == args->file)
				file_word = i;
		cl.words = &file_word;
		cl.nwords = 1;
		fprintf(err, "%s: an fio job file: imported (flowbench import-fio %s "
			"shows the WML)\n", args->file, args->file);
	} else {
		fprintf(err, "flowbench: an fio command line: imported (flowbench "
			"import-fio with the same words shows the WML)\n");
	}
	mem = open_memstream(&w->fio_wml, &n);
	if (!mem)
		oom_exit();
	status = fio_import_cmdline(&cl, &ro, mem, err);
	fclose(mem);
	*nwml_defs = 0;
	w->import_defines = xcalloc((size_t)args->ndefines + 1, sizeof(*w->import_defines));
	for (int i = 0; status == 0 && i < args->ndefines; i++)
		if (!used[i])
			wml_defs[(*nwml_defs)++] = args->defines[i];
		else
			w->import_defines[w->nimport_defines++] = args->defines[i].name;
	w->fio_path = xstrdup(args->fio_args ? "the fio command line" : args->file);
	free(defs);
	free(used);
	return status ? 1 : 0;
}

/*
 * run and check: FILE through the front end to a plan that has something
 * to do.  0, or 1 after the messages; release with workload_free() in
 * either case.
 */
static int workload_load(const struct cli_args *args, struct workload *w,
			 const struct command_hooks *h, const struct again *ag)
{
	struct frontend_input in = {
		.defines = args->defines, .ndefines = args->ndefines,
		.compile = {
			.registry = &flowops_registry,
			.runtime_given = args->runtime_given,
			.runtime_s = args->runtime_s,
			.seed = args->seed_given ? args->seed : fresh_seed(),
			.allow_system = args->allow_system,
			.semantics = args->semantics,
		},
		.err = h && h->diag ? h->diag : stderr,
	};

	if (h && h->builtins) {
		in.compile.builtins = h->builtins;
		in.compile.nbuiltins = h->nbuiltins;
	}

	memset(w, 0, sizeof(*w));
	w->kind = "wml";
	if (ag) {
		/* run --again: the recorded text, as recorded */
		w->kind = ag->rec.kind;
		w->path = xstrdup(ag->name);
		w->record_name = ag->rec.workload;
		w->files_in = ag->rec.files;
		w->nfiles = ag->rec.nfiles;
		w->import_in = ag->rec.import_defines;
		w->nimport_defines = ag->rec.nimport_defines;
		in.path = w->path;
		in.text = ag->rec.text;
		in.len = ag->rec.len;
		in.defines = ag->wml_defines;
		in.ndefines = ag->nwml_defines;
	} else if (args->fio_args || is_fio_job_file(args->file)) {
		struct frontend_define *defs = xcalloc((size_t)args->ndefines + 1,
						       sizeof(*defs));
		int st = fio_load(args, w, defs, &in.ndefines, in.err);

		in.defines = defs;
		w->fio_defines = defs;
		if (st)
			return 1;
		w->path = xstrdup(w->fio_path);
		w->kind = "fio";
		w->files_in = w->files;
		w->import_in = w->import_defines;
		in.path = w->fio_path;
		in.text = w->fio_wml;
		in.len = strlen(w->fio_wml);
	} else {
		w->path = workload_path(args->file);
		if (!w->path)
			return 1;
		in.path = w->path;
	}
	if (h && h->compiled) {
		/* every client compiles; one message for all, from one client */
		if (h->compiled(h->ctx, frontend_compile(&in, &w->fe)) != 0)
			return 1;
	} else if (frontend_compile(&in, &w->fe)) {
		return 1;
	}
	w->fe.plan.oplog = args->oplog;     /* --log-*: the command line's logs */
	/* --write-device, --destroy-data: which devices may be written (blkdev.h) */
	w->fe.plan.write_devices = args->write_devices;
	w->fe.plan.nwrite_devices = args->nwrite_devices;
	w->fe.plan.destroy_devices = args->destroy_devices;
	w->fe.plan.ndestroy_devices = args->ndestroy_devices;
	if (!w->fe.plan.has_run && !ends_with_quit(&w->fe.plan)) {
		log_error("%s: the script has no 'run' command: nothing to do "
			  "(add 'run SECONDS' or pass --runtime SECONDS)", w->path);
		return 1;
	}
	return 0;
}

static void workload_free(struct workload *w)
{
	for (int i = 0; w->files && i < w->nfiles; i++) {
		free((char *)w->files[i].name);
		free((char *)w->files[i].text);
	}
	free(w->files);
	free(w->import_defines);
	frontend_free(&w->fe);
	free(w->path);
	free(w->fio_wml);
	free(w->fio_path);
	free(w->fio_defines);
}

/* check's one line: what the plan holds. */
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

/*
 * check's line for each choice (a composite defined with `choose`): its
 * members with their weights and odds, so that a mix is seen as the run
 * will draw it.
 */
static void print_choices(const struct plan *p)
{
	for (int k = 0; k < p->nflowops; k++) {
		const struct plan_flowop *f = &p->flowops[k];
		uint64_t total = 0;

		if (f->ops != flowops_registry.choice)
			continue;
		for (int j = k + 1; j <= k + f->ndesc; j += 1 + p->flowops[j].ndesc)
			total += (uint64_t)plan_attr_int(&p->flowops[j], PA_WEIGHT, 0);
		printf("%s: choice %s (thread %s) draws one of:", p->filename,
		       f->name, p->threads[f->thread].name);
		for (int j = k + 1; j <= k + f->ndesc; j += 1 + p->flowops[j].ndesc) {
			int64_t w = plan_attr_int(&p->flowops[j], PA_WEIGHT, 0);

			printf("%s %s %lld (%.4g %%)", j == k + 1 ? "" : ",",
			       p->flowops[j].name, (long long)w,
			       total ? 100.0 * (double)w / (double)total : 0.0);
		}
		printf("\n");
	}
}

/*
 * check's second line: the disk the files and filesets will take once
 * prepared (bytes, files, directories), so that a workload's size is
 * seen before it is run.  1 when a tree cannot be made (said).
 */
static int print_footprint(const struct plan *p)
{
	uint64_t bytes = 0, files = 0, dirs = 0;
	bool about = false;
	char b[32];

	for (int i = 0; i < p->nfilesets; i++) {
		struct fileset_foot fp;
		int rc = preflight_footprint(p, i, &fp);

		if (rc < 0)
			return 1;
		about |= rc > 0;
		bytes = plan_sat_add(bytes, fp.bytes);
		files = plan_sat_add(files, fp.files);
		dirs = plan_sat_add(dirs, fp.dirs);
	}
	if (p->nfilesets)
		printf("%s: disk once the files are prepared: %s%s (%llu bytes) in "
		       "%llu file%s and %llu director%s\n", p->filename,
		       about ? "about " : "", preflight_bytes(bytes, b, sizeof(b)),
		       (unsigned long long)bytes, (unsigned long long)files,
		       files == 1 ? "" : "s", (unsigned long long)dirs,
		       dirs == 1 ? "y" : "ies");
	return 0;
}

/*
 * Per-op logs are of one run of one client: refused with --repeat (each
 * run would write them over the last's) and under flowbench-mpi (every
 * rank would write the same names).  0, or 2 after the message.
 */
static int logs_refused(const struct cli_args *args, const struct plan *p,
			const struct command_hooks *h)
{
	const struct plan_oplog *l = plan_oplog_any(&p->oplog) ? &p->oplog : NULL;
	const char *whose = "--log-* options";
	char where[160] = "flowbench";

	for (int i = 0; !l && i < p->nprocs; i++)
		if (plan_oplog_any(&p->procs[i].log)) {
			l = &p->procs[i].log;
			whose = p->procs[i].name;
			snprintf(where, sizeof(where), "%s:%d:%d", p->filename, l->loc.line,
				 l->loc.col);
		}
	if (!l)
		return 0;
	if (h && h->many_clients) {
		fprintf(stderr, "%s: error: per-op logs (%s%s) are written by one client: "
			"flowbench-mpi's ranks would all write the same files; run "
			"flowbench on one client for them\n", where,
			l == &p->oplog ? "" : "process ", whose);
		return 2;
	}
	if (args->repeat > 1) {
		fprintf(stderr, "%s: error: per-op logs (%s%s) cover one run: --repeat %d "
			"would write each run's over the last's; run once per log\n", where,
			l == &p->oplog ? "" : "process ", whose, args->repeat);
		return 2;
	}
	return 0;
}

/* Run the compiled plan --repeat times and write the results files. */
static int run_session(const struct cli_args *args, const struct workload *w,
		       const struct command_hooks *h, const struct res_rerun_of *of)
{
	struct res_define *defs = xcalloc((size_t)args->ndefines + 1, sizeof(*defs));
	struct res_options opts = {
		.runtime_given = args->runtime_given, .runtime_s = args->runtime_s,
		.cache = args->cache, .repeat = args->repeat,
		.keep_going = args->keep_going, .force = args->force,
		.allow_system = args->allow_system, .shared_files = args->shared_files,
	};
	struct session_options so = {
		.run.cache = args->cache,
		.run.percentiles = args->percentiles,
		.run.npercentiles = args->npercentiles,
		.run.warmup_s = args->warmup_s,
		.run.interval_s = args->interval_s,
		.run.keep_going = args->keep_going,
		.run.force = args->force,
		.run.coord = h ? h->coord : NULL,
		.repeat = args->repeat,
		.outputs = args->outputs,
		.noutputs = h && !h->writes_results ? 0 : args->noutputs,
		.argv = args->argv, .argc = args->argc,
		.workload = w->record_name ? w->record_name : w->path,
		.source = w->fe.text, .source_len = w->fe.len, .source_kind = w->kind,
		.files = w->files_in, .nfiles = w->files_in ? w->nfiles : 0,
		.import_defines = w->import_in, .nimport_defines = w->nimport_defines,
		.defines = defs, .ndefines = args->ndefines,
		.options = &opts, .rerun_of = of,
	};
	int status;

	for (int i = 0; i < args->ndefines; i++) {
		defs[i].name = args->defines[i].name;
		defs[i].value = args->defines[i].value;
	}
	status = session_run(&w->fe.plan, &so);
	free(defs);
	return status;
}

/* ---- the handlers, one per subcommand ---------------------------------- */

/*
 * run FILE, or run --again RESULTS: the same path once the rerun's
 * command line is made from the results file (again.h).
 */
static int cmd_run(const struct cli_args *args, const struct command_hooks *h)
{
	struct workload w;
	struct again ag;
	const struct cli_args *use = args;
	int status = 0;

	memset(&w, 0, sizeof(w));
	if (args->again) {
		status = again_prepare(args, h && h->many_clients, &ag, stderr);
		use = &ag.args;
	}
	if (status == 0)
		status = workload_load(use, &w, h, args->again ? &ag : NULL);
	if (status == 0)
		status = logs_refused(use, &w.fe.plan, h);
	if (status == 0 && h && h->adapt_plan)
		status = h->adapt_plan(h->ctx, &w.fe.plan);
	if (status == 0 && args->again)
		again_announce(&ag, args, &w.fe.plan);
	if (status == 0) {
		log_info("Seed: %llu (repeat this run's random choices with --seed %llu)",
			 (unsigned long long)w.fe.plan.seed,
			 (unsigned long long)w.fe.plan.seed);
		status = run_session(use, &w, h, args->again ? &ag.of : NULL);
	}
	workload_free(&w);
	if (args->again)
		again_free(&ag);
	return status;
}

static int cmd_check(const struct cli_args *args, const struct command_hooks *h)
{
	struct workload w;
	int status = workload_load(args, &w, h, NULL);

	if (status == 0) {
		print_summary(&w.fe.plan);
		print_choices(&w.fe.plan);
		status = print_footprint(&w.fe.plan);
		/* what a run would refuse to write, found before anything is written */
		if (devtarget_check(&w.fe.plan, stdout) > 0)
			status = 1;
		oplog_describe(stdout, &w.fe.plan);
	}
	workload_free(&w);
	return status;
}

static int cmd_list(const struct cli_args *args, const struct command_hooks *h)
{
	(void)h;
	if (args->list_dir) {
		printf("%s\n", catalog_dir(NULL));
		return 0;
	}
	return catalog_list(stdout, stderr);
}

static int cmd_compare_files(const struct cli_args *args, const struct command_hooks *h)
{
	struct compare_request rq = {
		.files = args->inputs, .nfiles = args->ninputs, .format = args->format,
		.thresholds = args->thresholds, .nthresholds = args->nthresholds,
		.junit = args->junit,
	};

	(void)h;
	return compare_command(&rq, stdout, stderr);
}

static int cmd_report_files(const struct cli_args *args, const struct command_hooks *h)
{
	(void)h;
	return report_command(args->inputs, args->ninputs, args->report_out, stderr);
}

/* `import-fio JOB.fio` or fio's command line: the WML on stdout. */
static int cmd_import_fio(const struct cli_args *args, const struct command_hooks *h)
{
	struct fio_define *defs = fio_defines(args);
	struct fio_read_opts ro = {
		.lenient = args->fio_lenient, .defines = defs,
		.ndefines = args->ndefines,
	};
	struct fio_cmdline cl = {
		.argv = args->argv, .argc = args->argc,
		.words = args->fio_words, .nwords = args->nfio_words,
	};
	int status;

	(void)h;
	status = fio_import_cmdline(&cl, &ro, stdout, stderr);
	free(defs);
	return status;
}

static int cmd_help(const struct cli_args *args, const struct command_hooks *h)
{
	(void)h;
	(void)args;
	cli_usage(stdout);
	return 0;
}

static int cmd_version(const struct cli_args *args, const struct command_hooks *h)
{
	(void)h;
	(void)args;
	printf("flowbench %s\nLicense: %s (SPDX-License-Identifier: %s)\n",
	       PACKAGE_VERSION, PACKAGE_LICENSE, PACKAGE_LICENSE);
	return 0;
}

static int (*const handlers[CLI_NCOMMANDS])(const struct cli_args *,
					     const struct command_hooks *) = {
	[CLI_RUN] = cmd_run,
	[CLI_CHECK] = cmd_check,
	[CLI_LIST] = cmd_list,
	[CLI_COMPARE] = cmd_compare_files,
	[CLI_REPORT] = cmd_report_files,
	[CLI_IMPORT_FIO] = cmd_import_fio,
	[CLI_HELP] = cmd_help,
	[CLI_VERSION] = cmd_version,
};

int command_main(int argc, char **argv, const struct command_hooks *h)
{
	struct cli_args args;
	int status = 2;

	if (cli_parse(argc, argv, &args, h && h->diag ? h->diag : stderr) == 0) {
		if (args.shared_files && !(h && h->many_clients)) {
			fprintf(stderr, "flowbench: error: --shared-files is for flowbench-mpi, whose "
				"ranks share the files; flowbench runs one client\n");
			status = 2;
		} else if (h && h->accepts && !h->accepts(h->ctx, &args)) {
			status = 2;
		} else {
			status = handlers[args.cmd](&args, h);
		}
	}
	cli_args_free(&args);
	return status;
}
