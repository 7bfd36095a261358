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
 * With results files to write, SIGINT and SIGTERM are caught for the
 * whole session (run.c catches them itself during the timed phase): an
 * interrupt while files are prepared stops the session once that step
 * ends, instead of killing flowbench before it could write the file.
 */
#include "runtime/session.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "runtime/log.h"
#include "runtime/report/doc.h"

/*
 * Process global (documented exception): a signal handler can only set
 * a flag it can reach without arguments.
 */
static volatile sig_atomic_t session_stop;

static void on_stop_signal(int sig)
{
	(void)sig;
	session_stop = 1;
}

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

	if (rc != 0) {
		bool intr = o->interrupted || session_stop;

		results_set_error(res, intr ? RES_INTERRUPTED : RES_FAILED,
				  intr ? "interrupted" : o->error[0] ? o->error :
				  "the run failed (see the messages before)");
		return 1;
	}
	if (o->stats && (results_add_run(res, p, o->stats, o->elapsed_s,
					 (int64_t)started) < 0 ||
			 results_add_intervals(res, o->iv, o->niv, res->nflowops) < 0)) {
		log_error("out of memory");
		results_set_error(res, RES_FAILED, "out of memory");
		return 1;
	}
	return 0;
}

int session_run(const struct plan *p, const struct session_options *so)
{
	struct run_results res;
	struct run_outcome o;
	struct sigaction sa, old_int, old_term;
	struct session_options opts = *so;
	struct res_var *vars = plan_vars(p);
	char cache[sizeof(o.cache)] = "";
	double clock_read_ns = 0;
	bool tsc = false, catch = so->noutputs > 0 || so->repeat > 1;
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

	session_stop = 0;
	if (catch) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_stop_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, &old_int);
		sigaction(SIGTERM, &sa, &old_term);
		opts.run.stop = &session_stop;
	}
	for (int i = 0; i < so->repeat; i++) {
		if (so->repeat > 1)
			log_info("Run %d of %d", i + 1, so->repeat);
		status = one_run(p, &opts, &res, &o);
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
	if (res.nruns >= 2) {
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
	if (catch) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGTERM, &old_term, NULL);
	}
	results_free(&res);
	free(vars);
	return status;
}
