/*
 * session.c - the repeat loop around run_plan() and the results files.
 *
 * Every run is a whole run of the workload: actions, files (re-prepared:
 * reused or recreated as the script says), cache step, timed phase, and
 * its own breakdown.  All runs use the plan's seed, so they make the same
 * random choices.  The results file is written at the end whatever
 * happened: status "ok", "failed" or "interrupted", the first error, and
 * the runs completed until then.  Under flowbench-mpi the reporting
 * client keeps every client's part of each run (results_add_clients);
 * the other clients have no results of their own but take part in
 * every run (next_run).
 *
 * SIGINT and SIGTERM are caught for the whole session (interrupt.h): an
 * interrupt while files are prepared stops the session once that step
 * ends, one during the timed phase stops the run at once; either way the
 * results so far are printed and written, and the status is 128 + the
 * signal.  A run that failed or was interrupted after its timed phase
 * began is kept in the results, marked partial, and left out of the
 * aggregate.
 *
 * The status is settled when the last run ends: the results files say it
 * and the exit status is it.  An interrupt after that (while the files
 * are written) changes neither: the files are completed; a second one
 * abandons them (their temporary files removed, none replaced) and exits
 * 128 + signal; none can make a file say "ok" and the exit status say
 * "interrupted" (write_results).
 */
#include "runtime/results/session.h"

#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "runtime/base/interrupt.h"
#include "runtime/base/log.h"
#include "runtime/results/comparability.h"
#include "runtime/results/doc.h"
#include "runtime/results/oplogfiles.h"
#include "runtime/results/outfile.h"

/* The plan's variables, as the results file lists them. */
static struct res_var *plan_vars(const struct plan *p)
{
	struct res_var *v = calloc((size_t)p->nvars + 1, sizeof(*v));

	for (int i = 0; v && i < p->nvars; i++) {
		v[i].name = p->var_names[i];
		v[i].value = p->var_values[i];
	}
	return v;
}

/*
 * The workload's text and files, for the results file to keep: all of
 * them, or, above SESSION_SOURCE_MAX bytes together, none (said once,
 * before the runs, when a results file is written).
 */
static void keep_source(struct results *res, const struct session_options *so)
{
	size_t total = so->source_len;

	res->source_kind = so->source ? so->source_kind : NULL;
	res->source = so->source;
	res->source_len = so->source_len;
	res->files = so->files;
	res->nfiles = so->nfiles;
	res->import_defines = so->import_defines;
	res->nimport_defines = so->nimport_defines;
	for (int i = 0; i < so->nfiles; i++)
		total += so->files[i].len;
	if (!so->source || total <= SESSION_SOURCE_MAX)
		return;
	snprintf(res->source_omitted, sizeof(res->source_omitted), "the workload's text and files are %zu bytes, over "
		 "the %u KiB a results file keeps", total, SESSION_SOURCE_MAX >> 10);
	res->source = NULL;
	if (so->noutputs > 0)
		log_warn("%s: its text is not kept in the results files (%s): "
			 "flowbench run --again cannot rerun them", so->workload,
			 res->source_omitted);
}

/* One run; 0 when it completed with results, else 1 (error recorded). */
static int one_run(const struct plan *p, const struct run_options *ropt,
		   struct results *res, struct run_outcome *o)
{
	time_t started = time(NULL);
	int rc;

	log_first_error_reset();
	rc = run_plan(p, ropt, o);

	if (o->stats && (results_add_run(res, p, o->stats, o->elapsed_s,
					 (int64_t)started) < 0 ||
			 results_add_intervals(res, o->iv, o->niv, res->nflowops) < 0 ||
			 results_add_usage(res, &o->usage) < 0 ||
			 (o->astats && results_add_async(res, p, o->astats) < 0) ||

			 (o->windows && results_add_phases(res, p, o->windows) < 0) ||
			 (o->has_clients &&
			  results_add_clients(res, p, &o->clients) < 0))) {
		log_error("out of memory");
		results_set_error(res, RES_FAILED, "out of memory");
		return 1;
	}
	if (rc != 0) {
		/*
		 * A client lost during the run makes it failed, not
		 * interrupted: the launcher's SIGTERM to the survivors
		 * (srun -K, Open MPI's mpirun) followed the loss.
		 */
		bool intr = (o->interrupted || interrupt_signal()) && !o->clients.lost_any;
		const char *first = log_first_error();

		if (o->stats)
			res->runs[res->nruns - 1].partial = true;
		/* the first error line printed is the one the file keeps */
		results_set_error(res, intr ? RES_INTERRUPTED : RES_FAILED,
				  intr ? "interrupted" :
				  o->clients.lost_any && o->clients.error[0] ? o->clients.error :
				  first[0] ? first :
				  o->error[0] ? o->error :
				  "the run failed (see the messages before)");
		return 1;
	}
	return 0;
}

/*
 * Whether the session goes on to its next run.  A run that failed ends
 * it, and so does one without results (a script without `run`, or `quit`
 * among its actions) - except on a client of flowbench-mpi that is not
 * the reporter: its results went to the reporter, and the other clients
 * wait for it at the next run's meeting points.
 */
static bool next_run(const struct plan *p, const struct session_options *so,
		     const struct run_outcome *o, int status)
{
	if (status != 0)
		return false;
	if (o->stats)
		return true;
	return so->run.coord && p->has_run && !o->reporter;
}

/* The results files being written, for the second interrupt's cleanup. */
struct pending_files {
	struct outfile *files;
	int n;
};

/*
 * interrupt_on_exit()'s cleanup: async-signal-safe (unlinkat, write), so
 * the error's prefix is spelt here, not by log_error().
 */
static void discard_pending(void *arg)
{
	static const char msg[] = "flowbench: error: the results files were not written\n";
	const struct pending_files *pf = arg;

	for (int i = 0; i < pf->n; i++)
		outfile_discard_async(&pf->files[i]);
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing more can be done */
	}
}

#define LATE_NOTICE "\nflowbench: interrupt after the run ended: writing its results " \
	"files first (interrupt again to abandon them)\n"

/*
 * Write every results file and settle the exit status (returned), in two
 * steps: every file prepared (its temporary file written and fsync'ed,
 * interrupts only noted), then every one renamed with the signals held,
 * the exit status settled before they are released.  So a second
 * interrupt while the files are prepared replaces none and leaves no
 * temporary file (discard_pending), and one after the renames exits with
 * the status the files agree with.
 */
static int write_results(const struct session_options *so,
			 const struct results *res, int status)
{
	struct pending_files pf = { NULL, so->noutputs };
	bool failed = false;
	sigset_t old;

	if (pf.n > 0 && !(pf.files = calloc((size_t)pf.n, sizeof(*pf.files)))) {
		log_error("out of memory: no results file written");
		failed = true;
	}
	if (pf.files && interrupt_signal() && res->status != RES_INTERRUPTED)
		fputs(LATE_NOTICE, stderr);
	interrupt_on_exit(discard_pending, &pf, LATE_NOTICE);
	for (int i = 0; pf.files && i < pf.n; i++)
		if (results_prepare_file(&pf.files[i], so->outputs[i], res) < 0)
			failed = true;
	interrupt_hold(&old);
	for (int i = 0; pf.files && i < pf.n; i++)
		if (pf.files[i].live && outfile_commit(&pf.files[i]) < 0)
			failed = true;
	if (res->status == RES_INTERRUPTED)
		status = interrupt_status();
	else if (failed)
		status = 1;
	interrupt_on_exit(NULL, NULL, NULL);
	interrupt_settle(status);
	interrupt_release(&old);
	for (int i = 0; pf.files && i < pf.n; i++) {
		if (pf.files[i].committed)
			log_info("Results written to %s", so->outputs[i]);
		outfile_close(&pf.files[i]);
	}
	free(pf.files);
	return status;
}

/*
 * Every --output path can be written (its directory exists and is
 * writable, nothing but a regular file at the name): checked before the
 * first run, so that no file is prepared for results that cannot be
 * kept.  Every bad path is named, not only the first.
 */
static int outputs_writable(const struct session_options *so)
{
	int rc = 0;

	for (int i = 0; i < so->noutputs; i++)
		if (outfile_check("results", so->outputs[i]) < 0)
			rc = -1;
	return rc;
}

/* interrupt_on_exit()'s cleanup while the logs' temporary files exist. */
static void discard_logs(void *arg)
{
	static const char msg[] = "flowbench: error: the per-op logs were not written\n";

	results_oplog_discard_async(arg);
	if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
		/* nothing more can be done */
	}
}

/*
 * The per-op logs' files, created before the run (none: nothing to do),
 * removed by a second interrupt.  0 or -1 (said).
 */
static int logs_open(struct results_oplog *logs, const struct plan *p)
{
	sigset_t old;
	int rc;

	interrupt_hold(&old);
	rc = results_oplog_open(logs, p);
	if (rc == 0 && logs->nout)
		interrupt_on_exit(discard_logs, logs, NULL);
	interrupt_release(&old);
	return rc;
}

/*
 * After the runs: the logs kept when a run has results (also a partial
 * one: its logs cover what it did), else removed.  The exit status.
 */
static int logs_close(struct results_oplog *logs, bool keep, int status)
{
	sigset_t old;

	if (!logs->nout)
		return status;
	if (keep && results_oplog_commit(logs) < 0 && status == 0)
		status = 1;
	interrupt_hold(&old);
	interrupt_on_exit(NULL, NULL, NULL);
	results_oplog_close(logs);
	interrupt_release(&old);
	return status;
}

/*
 * Which cache step the results file reports: the run whose warm fill
 * left the least of its files resident, else the last run.  Is `kept`
 * (already chosen) less resident than `next`?
 */
static bool less_resident(const struct cache_report *kept,
			  const struct cache_report *next)
{
	if (!kept->filled || !next->filled || !kept->resident_known ||
	    !next->resident_known || kept->bytes == 0 || next->bytes == 0)
		return false;
	return (double)kept->resident / (double)kept->bytes <
	       (double)next->resident / (double)next->bytes;
}

int session_run(const struct plan *p, const struct session_options *so)
{
	struct results res;
	struct run_outcome o;
	struct res_var *vars = plan_vars(p);
	struct run_options ropt = so->run;
	struct results_oplog logs;
	struct comparability notes;
	struct cache_report cache = { .mode = CACHE_COLD };
	double clock_read_ns = 0, clock_drift_ppm = NAN;
	bool tsc = false, more, reporter = false;
	int status = 0;

	if (outputs_writable(so) < 0) {
		free(vars);
		return 1;
	}
	results_init(&res);
	res.version = PACKAGE_VERSION;
	res.argv = so->argv;
	res.argc = so->argc;
	res.workload = so->workload;
	if (so->source)
		results_sha256_hex(so->source, so->source_len, res.sha256);
	res.vars = vars;
	res.nvars = vars ? p->nvars : 0;
	res.defines = so->defines;
	res.ndefines = so->ndefines;
	keep_source(&res, so);
	res.options = so->options;
	res.rerun_of = so->rerun_of;
	res.seed = p->seed;
	comparability_init(&notes, p->semantics);
	res.compat = &notes;
	res.warmup_s = so->run.warmup_s;
	res.interval_s = so->run.interval_s;
	if (so->run.percentiles && so->run.npercentiles > 0) {
		res.npct = so->run.npercentiles < INTERVAL_MAX_PCT ?
			   so->run.npercentiles : INTERVAL_MAX_PCT;
		memcpy(res.pct, so->run.percentiles, (size_t)res.npct * sizeof(*res.pct));
	}

	interrupt_install();
	if (logs_open(&logs, p) < 0) {
		results_free(&res);
		free(vars);
		return 1;
	}
	ropt.oplog = logs.nout ? &logs.files : NULL;
	for (int i = 0; i < so->repeat; i++) {
		if (so->repeat > 1)
			log_info("Run %d of %d", i + 1, so->repeat);
		status = one_run(p, &ropt, &res, &o);
		comparability_add_run(&notes, p, &o);
		reporter |= o.reporter;
		if (o.cache.text[0] && !less_resident(&cache, &o.cache))
			cache = o.cache;
		tsc = o.tsc;
		clock_read_ns = o.clock_read_ns;
		if (o.tsc && o.stats && (isnan(clock_drift_ppm) ||
					     fabs(o.clock_drift_ppm) > fabs(clock_drift_ppm)))
			clock_drift_ppm = o.clock_drift_ppm;    /* the largest */
		more = next_run(p, so, &o, status);
		run_outcome_free(&o);
		if (!more)
			break;
	}
	if (res.nruns - (res.nruns && res.runs[res.nruns - 1].partial) >= 2) {
		if (results_aggregate(&res) < 0) {
			log_error("out of memory");
			status = 1;
		} else {
			results_print_aggregate(stdout, &res);
		}
	}
	status = logs_close(&logs, res.nruns > 0, status);
	if (reporter)
		comparability_print(stdout, &notes);
	if (so->noutputs > 0)
		results_capture_env(&res, p, cache.text[0] ? &cache : NULL, tsc,
				    clock_read_ns, clock_drift_ppm);
	status = write_results(so, &res, status);
	results_free(&res);
	free(vars);
	return status;
}
