/*
 * session.c - the repeat loop around run_plan() and the results files.
 *
 * Every run is a whole run of the workload: actions, files (re-prepared:
 * reused or recreated as the script says), cache step, timed phase, and
 * its own breakdown.  All runs use the plan's seed, so they make the same
 * random choices.  The results file is written at the end whatever
 * happened: status "ok", "failed" or "interrupted", the first error, and
 * the runs completed until then.
 *
 * SIGINT and SIGTERM are caught for the whole session (interrupt.h): an
 * interrupt while files are prepared stops the session once that step
 * ends, one during the timed phase stops the run at once; either way the
 * results so far are printed and written, and the status is 128 + the
 * signal.  A run that failed or was interrupted after its timed phase
 * began is kept in the results, marked partial, and left out of the
 * aggregate.
 */
#include "runtime/session.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "runtime/interrupt.h"
#include "runtime/log.h"
#include "runtime/report/doc.h"

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

/* One run; 0 when it completed with results, else 1 (error recorded). */
static int one_run(const struct plan *p, const struct session_options *so,
		   struct run_results *res, struct run_outcome *o)
{
	time_t started = time(NULL);
	int rc = run_plan(p, &so->run, o);

	if (o->stats && (results_add_run(res, p, o->stats, o->elapsed_s,
					 (int64_t)started) < 0 ||
			 results_add_intervals(res, o->iv, o->niv, res->nflowops) < 0)) {
		log_error("out of memory");
		results_set_error(res, RES_FAILED, "out of memory");
		return 1;
	}
	if (rc != 0) {
		bool intr = o->interrupted || interrupt_signal();

		if (o->stats)
			res->runs[res->nruns - 1].partial = true;
		results_set_error(res, intr ? RES_INTERRUPTED : RES_FAILED,
				  intr ? "interrupted" : o->error[0] ? o->error :
				  "the run failed (see the messages before)");
		return 1;
	}
	return 0;
}

int session_run(const struct plan *p, const struct session_options *so)
{
	struct run_results res;
	struct run_outcome o;
	struct res_var *vars = plan_vars(p);
	char cache[sizeof(o.cache)] = "";
	double clock_read_ns = 0;
	bool tsc = false;
	int status = 0;

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
	res.seed = p->seed;
	res.warmup_s = so->run.warmup_s;
	res.interval_s = so->run.interval_s;
	if (so->run.percentiles && so->run.npercentiles > 0) {
		res.npct = so->run.npercentiles < RES_MAX_PCT ?
			   so->run.npercentiles : RES_MAX_PCT;
		memcpy(res.pct, so->run.percentiles, (size_t)res.npct * sizeof(*res.pct));
	}

	interrupt_install();
	for (int i = 0; i < so->repeat; i++) {
		if (so->repeat > 1)
			log_info("Run %d of %d", i + 1, so->repeat);
		status = one_run(p, so, &res, &o);
		if (o.cache[0])
			memcpy(cache, o.cache, sizeof(cache));
		tsc = o.tsc;
		clock_read_ns = o.clock_read_ns;
		if (status != 0 || !o.stats) {
			run_outcome_free(&o);
			break;          /* failed, or a script without a run */
		}
		run_outcome_free(&o);
	}
	if (res.nruns - (res.nruns && res.runs[res.nruns - 1].partial) >= 2) {
		if (results_aggregate(&res) < 0) {
			log_error("out of memory");
			status = 1;
		} else {
			text_aggregate(stdout, &res);
		}
	}
	if (so->noutputs > 0)
		results_capture_env(&res, p, cache, tsc, clock_read_ns);
	for (int i = 0; i < so->noutputs; i++) {
		if (results_write_file(so->outputs[i], &res) < 0)
			status = 1;
		else
			log_info("Results written to %s", so->outputs[i]);
	}
	if (interrupt_signal())
		status = interrupt_status();
	interrupt_restore();
	results_free(&res);
	free(vars);
	return status;
}
