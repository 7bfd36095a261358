/*
 * results.c - turning merged statistics into struct results, and the
 * statistics over repeated runs.
 *
 * Each run's numbers are the breakdown's numbers (same divisions as
 * runtime/measure/text.c); percentiles come from fo_stats_percentile().
 * The aggregate treats each run as one sample of a rate: mean, sample
 * standard deviation (n - 1), extremes, and the 95 % confidence interval
 * of the mean, mean +- t(0.975, n - 1) * stdev / sqrt(n), its lower
 * bound never below 0 (none of these quantities can be).
 */
#include "runtime/results/results.h"

#include <math.h>
#include <nettle/sha2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plan/flowop.h"
#include "runtime/engine/coord.h"
#include "runtime/measure/text.h"

static const double default_pct[] = { 50, 90, 95, 99, 99.9, 99.99 };

void results_init(struct results *r)
{
	memset(r, 0, sizeof(*r));
	r->npct = (int)(sizeof(default_pct) / sizeof(default_pct[0]));
	memcpy(r->pct, default_pct, sizeof(default_pct));
}

static void clients_free(struct res_clients *c)
{
	for (int i = 0; c && c->ranks && i < c->n; i++) {
		for (int j = 0; c->ranks[i].flowops && j < c->ranks[i].nflowops; j++)
			free(c->ranks[i].flowops[j].lat.hist);
		free(c->ranks[i].flowops);
	}
	if (c) {
		free(c->ranks);
		free(c->lost);
	}
	free(c);
}

void results_free(struct results *r)
{
	for (int i = 0; i < r->nruns; i++) {
		for (int j = 0; r->runs[i].flowops && j < r->nflowops; j++) {
			free(r->runs[i].flowops[j].iv);
			free(r->runs[i].flowops[j].lat.hist);
			results_async_free(r->runs[i].flowops[j].async);
		}
		free(r->runs[i].flowops);
		free(r->runs[i].phases);
		clients_free(r->runs[i].clients);
		usage_free(&r->runs[i].usage);
	}
	free(r->runs);
	free(r->agg);
	free(r->error);
	for (int i = 0; i < r->env.nfs; i++) {
		free(r->env.fs[i].path);
		free(r->env.fs[i].type);
		free(r->env.fs[i].device);
		free(r->env.fs[i].options);
		free(r->env.fs[i].disk);
		free(r->env.fs[i].disk_model);
	}
	free(r->env.fs);
	for (int i = 0; i < r->env.ndev; i++) {
		struct res_device *d = &r->env.dev[i];

		free(d->path);
		free(d->model);
		free(d->serial);
		free(d->scheduler);
		free(d->write_cache);
		free(d->backing_file);
	}
	free(r->env.dev);
	memset(r, 0, sizeof(*r));
}

const char *results_status_name(enum res_status st)
{
	static const char *const names[] = {
		[RES_OK] = "ok", [RES_FAILED] = "failed",
		[RES_INTERRUPTED] = "interrupted",
	};

	return names[st];
}

void results_set_error(struct results *r, enum res_status st,
		       const char *text)
{
	if (r->status == RES_OK)
		r->status = st;
	if (!r->error && text)
		r->error = strdup(text);
}

static double per_s(double v, double elapsed_s)
{
	return elapsed_s > 0 ? v / elapsed_s : 0.0;
}

static const char *class_name(const struct flowop_ops *ops)
{
	static const char *const names[] = {
		[FLOWOP_CLASS_IO] = "io", [FLOWOP_CLASS_AIO] = "aio",
		[FLOWOP_CLASS_SYNC] = "sync", [FLOWOP_CLASS_COMPOSITE] = "composite",
		[FLOWOP_CLASS_OTHER] = "other",
	};

	if (!ops || ops->cls < FLOWOP_CLASS_IO || ops->cls > FLOWOP_CLASS_OTHER)
		return "other";
	return names[ops->cls];
}

static const char *rw_name(const struct flowop_ops *ops)
{
	static const char *const names[] = { "none", "read", "write", "readwrite" };

	return names[ops ? (ops->rw & 3) : 0];
}

static int fill_flowop(struct res_flowop *o, const struct results *r,
			const struct plan_flowop *pf, const struct fo_stats *s,
			double elapsed_s)
{
	const struct op_stats *op = &s->op;

	o->name = pf->name;
	o->type = pf->ops ? pf->ops->name : "";
	o->cls = class_name(pf->ops);
	o->rw = rw_name(pf->ops);
	o->ops = op->count;
	o->bytes = op->bytes;
	o->implicit_opens = s->open.count;
	o->not_counted = s->discarded;
	o->errors = fo_stats_errors(s);
	memcpy(o->err, s->err, sizeof(o->err));
	o->ops_per_s = per_s((double)op->count, elapsed_s);
	o->mb_per_s = per_s((double)op->bytes / 1048576.0, elapsed_s);
	o->ms_per_op = op->count ? (double)op->lat_sum_ns / (double)op->count / 1e6 : 0;
	o->has_latency = op->count > 0;
	if (!o->has_latency)
		return 0;
	o->lat.mean = (double)op->lat_sum_ns / (double)op->count;
	o->lat.stdev = fo_stats_stdev(s);
	o->lat.min = (double)op->lat_min_ns;
	o->lat.max = (double)op->lat_max_ns;
	for (int k = 0; k < r->npct; k++)
		o->lat.pct[k] = fo_stats_percentile(s, r->pct[k]);
	return results_sparse_hist(&o->lat, &s->lat);
}

int results_add_run(struct results *r, const struct plan *p,
		    const struct fo_stats *per_flowop, double elapsed_s,
		    int64_t started)
{
	struct res_run *runs, *run;
	struct text_totals t;
	int nlines = 0;
	time_t when = (time_t)started;
	struct tm tm;

	for (int i = 0; i < p->nflowops; i++)
		nlines += p->flowops[i].line == i;
	if (r->nruns && r->nflowops != nlines)
		return -1;
	runs = realloc(r->runs, (size_t)(r->nruns + 1) * sizeof(*runs));
	if (!runs)
		return -1;
	r->runs = runs;
	run = &runs[r->nruns];
	memset(run, 0, sizeof(*run));
	run->flowops = calloc((size_t)p->nflowops + 1, sizeof(*run->flowops));
	if (!run->flowops)
		return -1;
	r->nruns++;             /* from here results_free() owns the run */
	r->nflowops = nlines;
	run->index = r->nruns;
	run->elapsed_s = elapsed_s;
	if (gmtime_r(&when, &tm))
		strftime(run->started, sizeof(run->started), "%Y-%m-%dT%H:%M:%SZ", &tm);
	/* one entry per report line: flowops sharing a name share it */
	for (int i = 0, n = 0; i < p->nflowops; i++)
		if (p->flowops[i].line == i &&
		    fill_flowop(&run->flowops[n++], r, &p->flowops[i],
				&per_flowop[i], elapsed_s) < 0) {
			run->partial = true;   /* half filled: out of the aggregate */
			return -1;
		}
	text_io_totals(p, per_flowop, &t);
	run->summary.ops = t.ops;
	run->summary.ops_per_s = per_s((double)t.ops, elapsed_s);
	run->summary.rd_per_s = per_s((double)t.rd_ops, elapsed_s);
	run->summary.wr_per_s = per_s((double)t.wr_ops, elapsed_s);
	run->summary.mb_per_s = per_s((double)t.bytes / 1048576.0, elapsed_s);
	run->summary.ms_per_op = t.ops ? (double)t.lat_sum_ns / (double)t.ops / 1e6 : 0;
	return 0;
}

int results_add_phases(struct results *r, const struct plan *p,
		       const struct text_proc_window *windows)
{
	struct res_run *run;

	if (r->nruns == 0)
		return -1;
	run = &r->runs[r->nruns - 1];
	for (int i = 0, n = 0; i < p->nflowops; i++) {
		struct res_flowop *o;
		double window_s;

		if (p->flowops[i].line != i)
			continue;
		o = &run->flowops[n++];
		window_s = text_flowop_window(p, windows, i, run->elapsed_s);
		o->ops_per_s = per_s((double)o->ops, window_s);
		o->mb_per_s = per_s((double)o->bytes / 1048576.0, window_s);
	}
	free(run->phases);
	run->nphases = 0;
	run->phases = calloc((size_t)p->nprocs + 1, sizeof(*run->phases));
	if (!run->phases)
		return -1;
	for (int pi = 0; pi < p->nprocs; pi++) {
		const struct text_proc_window *w = &windows[pi];

		if (w->phased)
			run->phases[run->nphases++] = (struct res_phase){
				.process = p->procs[pi].name, .started = w->started,
				.start_s = w->start_s, .end_s = w->end_s,
				.window_s = w->window_s,
			};
	}
	return 0;
}

int results_add_intervals(struct results *r, const struct interval_row *rows,
			  int n, int nlines)
{
	struct res_run *run;

	if (r->nruns == 0 || nlines != r->nflowops || n <= 0)
		return n <= 0 ? 0 : -1;
	run = &r->runs[r->nruns - 1];
	for (int j = 0; j < nlines; j++) {
		struct interval_row *iv = calloc((size_t)n, sizeof(*iv));

		if (!iv)
			return -1;
		for (int i = 0; i < n; i++)
			iv[i] = rows[(size_t)i * (size_t)nlines + (size_t)j];
		free(run->flowops[j].iv);
		run->flowops[j].iv = iv;
		run->flowops[j].niv = n;
	}
	return 0;
}

/*
 * One client's part: its IO Summary counts, its own window and rate,
 * and its counts per report line.  The engine merges the flowops that
 * share a line into the line's own entry (plan_flowop.line == index) and
 * leaves the others empty, as in the merged stats fill_flowop() reads;
 * so the line's entry is the whole line here too.
 */
/*
 * A client's latency on one line, as the merged flowop's is written
 * (its histogram's buckets, so the merge can be checked from the file).
 */
static int rank_latency(struct res_rank_flowop *o, const struct results *r,
			const struct coord_lat *l)
{
	struct fo_stats *s = malloc(sizeof(*s));
	int rc;

	if (!s)
		return -1;
	coord_lat_stats(l, s);
	o->has_latency = true;
	o->lat.mean = (double)s->op.lat_sum_ns / (double)s->op.count;
	o->lat.stdev = fo_stats_stdev(s);
	o->lat.min = (double)s->op.lat_min_ns;
	o->lat.max = (double)s->op.lat_max_ns;
	for (int k = 0; k < r->npct; k++)
		o->lat.pct[k] = fo_stats_percentile(s, r->pct[k]);
	rc = results_sparse_hist(&o->lat, &s->lat);
	free(s);
	return rc;
}

static int fill_rank(struct res_rank *o, const struct results *r, const struct plan *p,
		     const struct run_client *c, int nlines)
{
	o->rank = c->rank;
	snprintf(o->host, sizeof(o->host), "%s", c->host);
	o->failed = c->failed;
	if (c->failed)
		snprintf(o->error, sizeof(o->error), "%s",
			 c->error[0] ? c->error : "the run failed");
	o->start_s = c->start_s;
	o->end_s = c->end_s;
	o->window_s = c->end_s > c->start_s ? c->end_s - c->start_s : 0;
	o->ops = c->ops;
	o->bytes = c->bytes;
	o->errors = c->errors;
	o->ops_per_s = per_s((double)c->ops, o->window_s);
	o->usage = c->usage;
	o->flowops = calloc((size_t)nlines + 1, sizeof(*o->flowops));
	if (!o->flowops)
		return -1;
	o->nflowops = nlines;
	o->p50_ns = c->p50_ns;
	o->p99_ns = c->p99_ns;
	o->outlier = c->outlier;
	snprintf(o->outlier_why, sizeof(o->outlier_why), "%s", c->outlier_why);
	for (int i = 0, n = 0; i < p->nflowops; i++) {
		if (p->flowops[i].line != i)
			continue;
		o->flowops[n].ops = c->fo_ops ? c->fo_ops[i] : 0;
		o->flowops[n].bytes = c->fo_bytes ? c->fo_bytes[i] : 0;
		o->flowops[n].errors = c->fo_errors ? c->fo_errors[i] : 0;
		if (c->lat && c->lat[i].count &&
		    rank_latency(&o->flowops[n], r, &c->lat[i]) < 0)
			return -1;
		n++;
	}
	return 0;
}

int results_add_clients(struct results *r, const struct plan *p,
			const struct coord_combined *c)
{
	struct res_clients *rc;
	struct res_run *run;

	if (r->nruns == 0 || c->nclients < 0)
		return -1;
	run = &r->runs[r->nruns - 1];
	rc = calloc(1, sizeof(*rc));
	if (!rc)
		return -1;
	rc->ranks = calloc((size_t)c->nclients + 1, sizeof(*rc->ranks));
	rc->lost = calloc((size_t)c->nlost + 1, sizeof(*rc->lost));
	if (!rc->ranks || !rc->lost) {
		clients_free(rc);
		return -1;
	}
	for (; rc->nlost < c->nlost; rc->nlost++) {
		rc->lost[rc->nlost].rank = c->lost[rc->nlost].rank;
		snprintf(rc->lost[rc->nlost].host, sizeof(rc->lost[rc->nlost].host), "%s",
			 c->lost[rc->nlost].host);
	}
	rc->start_skew_s = c->skew_s;
	rc->clock_error_s = c->skew_error_s;
	rc->merge_s = c->merge_s;
	rc->wait_s = c->wait_s;
	rc->lead_s = c->lead_s;
	rc->spread_s = c->spread_s;
	rc->late_s = c->late_s;
	rc->nominal_s = c->nominal_s;
	rc->window_s = c->elapsed_s;
	for (; rc->n < c->nclients; rc->n++)
		if (fill_rank(&rc->ranks[rc->n], r, p, &c->clients[rc->n], r->nflowops) < 0) {
			clients_free(rc);
			return -1;
		}
	clients_free(run->clients);
	run->clients = rc;
	return 0;
}

int results_add_usage(struct results *r, const struct usage_report *u)
{
	struct res_run *run;

	if (r->nruns == 0)
		return -1;
	run = &r->runs[r->nruns - 1];
	usage_free(&run->usage);
	return usage_copy(&run->usage, u);
}

/* t(0.975, dof) for dof 1..30. */
static const double t975[30] = {
	12.706205, 4.302653, 3.182446, 2.776445, 2.570582,
	2.446912, 2.364624, 2.306004, 2.262157, 2.228139,
	2.200985, 2.178813, 2.160369, 2.144787, 2.131450,
	2.119905, 2.109816, 2.100922, 2.093024, 2.085963,
	2.079614, 2.073873, 2.068658, 2.063899, 2.059539,
	2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
};

double results_t975(int dof)
{
	const double z = 1.959963985;      /* normal quantile at 0.975 */
	double n = dof, z2 = z * z;

	if (dof < 1)
		return NAN;
	if (dof <= 30)
		return t975[dof - 1];
	/* Cornish-Fisher: t = z + g1/n + g2/n^2 + g3/n^3 */
	return z + z * (z2 + 1) / (4 * n) +
	       z * ((5 * z2 + 16) * z2 + 3) / (96 * n * n) +
	       z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / (384 * n * n * n);
}

void results_stat(const double *v, int n, struct res_stat *out)
{
	double sum = 0, ss = 0, half;

	memset(out, 0, sizeof(*out));
	if (n < 1)
		return;
	out->min = out->max = v[0];
	for (int i = 0; i < n; i++) {
		sum += v[i];
		if (v[i] < out->min)
			out->min = v[i];
		if (v[i] > out->max)
			out->max = v[i];
	}
	out->mean = sum / n;
	for (int i = 0; i < n; i++)
		ss += (v[i] - out->mean) * (v[i] - out->mean);
	out->stdev = n > 1 ? sqrt(ss / (n - 1)) : 0;
	half = n > 1 ? results_t975(n - 1) * out->stdev / sqrt(n) : 0;
	out->ci_lo = out->mean - half;
	out->ci_hi = out->mean + half;
	if (out->ci_lo < 0 && out->min >= 0) {
		out->ci_lo = 0;        /* a rate or latency is never negative */
		out->ci_clamped = true;
	}
}

/* One quantity picked from each run. */
typedef double (*run_value_fn)(const struct res_run *run, int fo);

static double fo_ops_of(const struct res_run *run, int fo) { return run->flowops[fo].ops_per_s; }
static double fo_mb_of(const struct res_run *run, int fo) { return run->flowops[fo].mb_per_s; }
static double fo_ms_of(const struct res_run *run, int fo) { return run->flowops[fo].ms_per_op; }
static double sum_ops_of(const struct res_run *run, int fo) { (void)fo; return run->summary.ops_per_s; }
static double sum_mb_of(const struct res_run *run, int fo) { (void)fo; return run->summary.mb_per_s; }
static double sum_ms_of(const struct res_run *run, int fo) { (void)fo; return run->summary.ms_per_op; }

/* Runs that completed: a partial run can only be the last one. */
static int complete_runs(const struct results *r)
{
	return r->nruns - (r->nruns > 0 && r->runs[r->nruns - 1].partial);
}

static void stat_over_runs(const struct results *r, double *buf,
			   run_value_fn fn, int fo, struct res_stat *out)
{
	int n = complete_runs(r);

	for (int i = 0; i < n; i++)
		buf[i] = fn(&r->runs[i], fo);
	results_stat(buf, n, out);
}

int results_aggregate(struct results *r)
{
	double *buf;

	r->has_aggregate = false;
	if (complete_runs(r) < 2)
		return 0;
	buf = malloc((size_t)r->nruns * sizeof(*buf));
	free(r->agg);
	r->agg = calloc((size_t)r->nflowops + 1, sizeof(*r->agg));
	if (!buf || !r->agg) {
		free(buf);
		return -1;
	}
	for (int j = 0; j < r->nflowops; j++) {
		stat_over_runs(r, buf, fo_ops_of, j, &r->agg[j].ops_per_s);
		stat_over_runs(r, buf, fo_mb_of, j, &r->agg[j].mb_per_s);
		stat_over_runs(r, buf, fo_ms_of, j, &r->agg[j].ms_per_op);
	}
	stat_over_runs(r, buf, sum_ops_of, 0, &r->agg_summary.ops_per_s);
	stat_over_runs(r, buf, sum_mb_of, 0, &r->agg_summary.mb_per_s);
	stat_over_runs(r, buf, sum_ms_of, 0, &r->agg_summary.ms_per_op);
	free(buf);
	r->has_aggregate = true;
	r->agg_runs = complete_runs(r);
	return 0;
}

void results_sha256_hex(const void *data, size_t len, char out[65])
{
	struct sha256_ctx ctx;
	uint8_t digest[SHA256_DIGEST_SIZE];
	static const char hex[] = "0123456789abcdef";

	sha256_init(&ctx);
	sha256_update(&ctx, len, data);
	sha256_digest(&ctx, sizeof(digest), digest);
	for (int i = 0; i < SHA256_DIGEST_SIZE; i++) {
		out[2 * i] = hex[digest[i] >> 4];
		out[2 * i + 1] = hex[digest[i] & 15];
	}
	out[64] = '\0';
}
