/*
 * again.c - the command line of `run --again` (again.h).
 *
 * A rerun is of what ran, not of what the workload's file says today:
 * the text comes from the results file, and so do the -D values, the
 * seed and every option that changes a run (runtime, repeat, cache,
 * compat, keep-going, warm-up, interval, percentiles).  What the user
 * may still say: -D (the directory to run in, above all; each one said),
 * where the outputs go, which run of several to redo, and the two
 * options a results file from elsewhere must not switch on by itself:
 * --allow-system (its `system` commands) and --force (adopting
 * directories flowbench did not create).
 */
#include "cli/again.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "plan/oom.h"
#include "runtime/base/log.h"

/* Whether the fio import of the recorded run took -D `name`. */
static bool import_took(const struct results_record *rec, const char *name)
{
	for (int i = 0; i < rec->nimport_defines; i++)
		if (strcmp(rec->import_defines[i], name) == 0)
			return true;
	return false;
}

/*
 * The recorded -D values with this command line's on top: a name given
 * now replaces the recorded one in place, a new one is added.  Returns
 * 0, or 2 after a message for a -D the fio import took (a rerun runs
 * the WML as imported, so that value cannot change).
 */
static int merge_defines(const struct cli_args *args, struct again *a, FILE *err)
{
	const struct results_record *rec = &a->rec;
	int n = rec->ndefines;

	a->defines = xcalloc((size_t)(rec->ndefines + args->ndefines) + 1,
			     sizeof(*a->defines));
	a->overrides = xcalloc((size_t)args->ndefines + 1, sizeof(*a->overrides));
	for (int i = 0; i < rec->ndefines; i++) {
		a->defines[i].name = rec->defines[i].name;
		a->defines[i].value = rec->defines[i].value;
	}
	for (int k = 0; k < args->ndefines; k++) {
		const struct frontend_define *d = &args->defines[k];
		int at = n;

		if (strcmp(rec->kind, "fio") == 0 && import_took(rec, d->name)) {
			fprintf(err, "flowbench: error: -D %s with --again: the fio import of "
				"the recorded run took it (the job's WML was made with it), and "
				"a rerun runs that WML; import the job again to change it\n",
				d->name);
			return 2;
		}
		for (int i = 0; i < n; i++)
			if (strcmp(a->defines[i].name, d->name) == 0)
				at = i;
		a->defines[at] = *d;
		n += at == n;
		a->overrides[a->of.noverrides++] = d->name;
	}
	a->args.defines = a->defines;
	a->args.ndefines = n;
	a->wml_defines = xcalloc((size_t)n + 1, sizeof(*a->wml_defines));
	for (int i = 0; i < n; i++)
		if (!import_took(rec, a->defines[i].name))
			a->wml_defines[a->nwml_defines++] = a->defines[i];
	a->of.overrides = a->overrides;
	return 0;
}

/* --run N: a run the file has (by its index).  0, or 2 after a message. */
static int pick_run(const struct cli_args *args, struct again *a, FILE *err)
{
	const json_t *runs = a->rec.runs, *run = NULL;
	size_t i;
	json_t *r;

	a->of.run = args->again_run;
	json_array_foreach(runs, i, r)
		if (json_integer_value(json_object_get(r, "index")) ==
		    (args->again_run ? args->again_run : 1))
			run = r;
	if (args->again_run && !run) {
		fprintf(err, "flowbench: error: --run %d: %s has %d run%s%s\n",
			args->again_run, a->rec.path, a->rec.nruns, log_plural((unsigned)a->rec.nruns),
			a->rec.nruns ? " (runs[].index from 1)" : "");
		return 2;
	}
	snprintf(a->of.started, sizeof(a->of.started), "%s",
		 run && json_string_value(json_object_get(run, "started")) ?
		 json_string_value(json_object_get(run, "started")) : "");
	return 0;
}

_Static_assert(INTERVAL_MAX_PCT <= CLI_MAX_PERCENTILES,
	       "a results file's percentiles fit --percentiles");

/* The recorded options into the rerun's command line. */
static void recorded_options(struct again *a, const struct cli_args *args)
{
	const struct results_record *rec = &a->rec;
	struct cli_args *ra = &a->args;

	*ra = *args;
	ra->again = args->again;
	ra->file = NULL;
	ra->fio_args = false;
	ra->runtime_given = rec->options.runtime_given;
	ra->runtime_s = rec->options.runtime_s;
	ra->cache = rec->options.cache;
	ra->seed_given = true;
	ra->seed = rec->seed;
	ra->semantics = strcmp(rec->compat, "filebench") == 0 ? PLAN_SEM_FILEBENCH :
			PLAN_SEM_FLOWBENCH;
	ra->keep_going = rec->options.keep_going;
	ra->shared_files = rec->options.shared_files;
	ra->repeat = args->again_run ? 1 : rec->options.repeat;
	ra->warmup_s = rec->warmup_s;
	ra->interval_s = rec->interval_s;
	memcpy(ra->percentiles, rec->pct, sizeof(ra->percentiles[0]) * (size_t)rec->npct);
	ra->npercentiles = rec->npct;
	/* never from the file: the user says them again (see the top) */
	ra->allow_system = args->allow_system;
	ra->force = args->force;
}

/*
 * An --output that is the results file being rerun would replace the
 * record by its rerun: refused, as report refuses its own inputs.
 */
static bool output_is_record(const struct cli_args *args, FILE *err)
{
	struct stat rec, out;

	if (stat(args->again, &rec) < 0)
		return false;
	for (int i = 0; i < args->noutputs; i++)
		if (stat(args->outputs[i], &out) == 0 && out.st_dev == rec.st_dev &&
		    out.st_ino == rec.st_ino) {
			fprintf(err, "flowbench: error: --output %s is the results file "
				"--again reruns: refusing to write the rerun over it\n",
				args->outputs[i]);
			return true;
		}
	return false;
}

int again_prepare(const struct cli_args *args, bool many_clients, struct again *a,
		  FILE *err)
{
	int st;

	memset(a, 0, sizeof(*a));
	if (output_is_record(args, err))
		return 2;
	if (results_record_read(args->again, &a->rec, err) < 0)
		return 1;
	if (a->rec.options.shared_files && !many_clients) {
		fprintf(err, "flowbench: error: %s was run by flowbench-mpi with "
			"--shared-files: rerun it with flowbench-mpi\n", args->again);
		return 2;
	}
	/* before the compile, which refuses a `system` without it */
	if (a->rec.options.allow_system && !args->allow_system)
		log_warn("%s: the recorded run had --allow-system: give it again for "
			 "the script's system commands to run (a results file does not "
			 "switch it on by itself)", args->again);
	if (a->rec.options.force && !args->force)
		log_warn("%s: the recorded run had --force: give it again to adopt a "
			 "directory flowbench did not create", args->again);
	recorded_options(a, args);
	if ((st = merge_defines(args, a, err)) != 0 || (st = pick_run(args, a, err)) != 0)
		return st;
	a->of.file = args->again;
	memcpy(a->of.results_sha256, a->rec.sha256, sizeof(a->of.results_sha256));
	snprintf(a->of.workload_sha256, sizeof(a->of.workload_sha256), "%s",
		 a->rec.workload_sha256);
	if (asprintf(&a->name, "%s (from %s)", a->rec.workload, args->again) < 0)
		oom_exit();
	return 0;
}

/* The recorded value of -D `name`, or NULL. */
static const char *recorded_define(const struct results_record *rec, const char *name)
{
	for (int i = 0; i < rec->ndefines; i++)
		if (strcmp(rec->defines[i].name, name) == 0)
			return rec->defines[i].value;
	return NULL;
}

void again_announce(const struct again *a, const struct cli_args *args,
		    const struct plan *p)
{
	const struct results_record *rec = &a->rec;
	struct results now;

	log_info("Rerun of %s: workload %s (sha256 %.12s), seed %llu, %s, with the "
		 "recorded -D values and options", rec->path, rec->workload,
		 *rec->workload_sha256 ? rec->workload_sha256 : "unknown",
		 (unsigned long long)rec->seed, a->of.run ? "one of its runs" :
		 "all its runs");
	if (a->of.run)
		log_info("Rerun of run %d of %d (once)", a->of.run, rec->nruns);
	for (int k = 0; k < args->ndefines; k++) {
		const char *was = recorded_define(rec, args->defines[k].name);

		if (was)
			log_info("-D %s=%s overrides the recorded %s=%s", args->defines[k].name,
				 args->defines[k].value, args->defines[k].name, was);
		else
			log_info("-D %s=%s: not in the recorded run, added",
				 args->defines[k].name, args->defines[k].value);
	}
	results_init(&now);
	results_capture_env(&now, p, NULL, false, 0, NAN);
	fflush(stdout);
	results_env_diff(stdout, rec->environment, &now.env);
	results_free(&now);
}

void again_free(struct again *a)
{
	results_record_free(&a->rec);
	free(a->defines);
	free(a->wml_defines);
	free(a->overrides);
	free(a->name);
	memset(a, 0, sizeof(*a));
}
