/*
 * load.c - reading a results file back: its tree from runtime/results/
 * (read.c: JSON or YAML, whichever its content is, into one jansson
 * tree, and fio's JSON output mapped into the same tree with a
 * "source"), refuse a `format` this flowbench does not know, and pull
 * out per run and per flowop the numbers compare and report need, and for a
 * flowbench-mpi run each rank's rate.  The runs come one at a time from
 * the reader and only what is pulled out of each is kept, so memory
 * grows with the runs' numbers, not the file.  Keys the schema does not
 * name are ignored; a number that is absent (or null) reads as NaN
 * (shown as "-"); one that cannot be a measurement is an error naming
 * its JSON path (loadnum.c).
 */
#include "compare/load.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare/loadnum.h"
#include "runtime/base/log.h"
#include "runtime/results/format.h"

/*
 * What reading one file needs: the document, where the numbers are read
 * (for their errors) and why the reading stopped.  Strings of a run are
 * copied into the document's arena and the blocks the report reads
 * (histogram, async) kept by reference in doc->kept: each run's tree is
 * dropped as soon as it is read.
 */
struct loader {
	struct rf_doc *doc;
	struct rf_at at;
	const char *why;        /* set: said by log_error_to after the path */
	int cap;                /* of doc->runs */
};

/* A string of the top-level tree (which lives as long as the document). */
static const char *jstr(const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s ? s : "";
}

/* A string of a run's tree, copied into the document. */
static const char *kstr(struct loader *l, const json_t *obj, const char *key)
{
	const char *s = json_string_value(json_object_get(obj, key));

	return s && *s ? arena_strdup(&l->doc->arena, s) : "";
}

/* A block of a run's tree the report reads, kept with the document. */
static const json_t *keep_block(struct loader *l, const json_t *v)
{
	if (!v)
		return NULL;
	if (!l->doc->kept && !(l->doc->kept = json_array()))
		return NULL;
	return json_array_append(l->doc->kept, (json_t *)v) < 0 ? NULL : v;
}

static int by_pct(const void *a, const void *b)
{
	const struct rf_point *x = a, *y = b;

	return (x->pct > y->pct) - (x->pct < y->pct);
}

/*
 * latency_ns.percentiles: {"50": ns, "99.9": ns, ...}, sorted; each a
 * latency, and a higher percentile never a lower latency.
 */
static int load_percentiles(struct loader *l, const char *at, const json_t *pcts,
			    struct rf_flowop *fo)
{
	const char *key;
	json_t *v;

	if (!json_is_object(pcts))
		return 0;
	fo->pcts = calloc(json_object_size(pcts) + 1, sizeof(*fo->pcts));
	if (!fo->pcts)
		return -1;
	json_object_foreach((json_t *)pcts, key, v) {
		char *end;
		double p = strtod(key, &end), ns;

		if (end == key || *end || !(p > 0 && p < 100))
			continue;       /* not a percentile: ignore */
		ns = rf_num(&l->at, at, pcts, key, RF_NS);
		if (isnan(ns))
			continue;
		fo->pcts[fo->npcts].pct = p;
		fo->pcts[fo->npcts].ns = ns;
		fo->npcts++;
	}
	qsort(fo->pcts, (size_t)fo->npcts, sizeof(*fo->pcts), by_pct);
	for (int i = 1; i < fo->npcts; i++)
		if (fo->pcts[i].ns < fo->pcts[i - 1].ns) {
			char k[32];

			snprintf(k, sizeof(k), "%g", fo->pcts[i].pct);
			rf_bad(&l->at, at, k, "%g ns is below the %g-th percentile's "
			       "%g ns: percentiles only grow", fo->pcts[i].ns,
			       fo->pcts[i - 1].pct, fo->pcts[i - 1].ns);
			break;
		}
	return 0;
}

static int load_intervals(struct loader *l, const char *at, const json_t *ivs,
			  struct rf_flowop *fo)
{
	size_t i;
	json_t *v;

	if (!json_is_array(ivs) || json_array_size(ivs) == 0)
		return 0;
	fo->iv = calloc(json_array_size(ivs), sizeof(*fo->iv));
	if (!fo->iv)
		return -1;
	json_array_foreach((json_t *)ivs, i, v) {
		char p[160], pp[192];
		const json_t *pcts = json_object_get(json_object_get(v, "latency_ns"),
						     "percentiles");

		if (!json_is_object(v))
			continue;
		snprintf(p, sizeof(p), "%s[%zu]", at, i);
		snprintf(pp, sizeof(pp), "%s.latency_ns.percentiles", p);
		fo->iv[fo->niv].t_s = rf_num(&l->at, p, v, "t_s", RF_SECONDS);
		fo->iv[fo->niv].ops_per_s = rf_num(&l->at, p, v, "ops_per_s", RF_RATE);
		fo->iv[fo->niv].mb_per_s = rf_num(&l->at, p, v, "mb_per_s", RF_MBPS);
		fo->iv[fo->niv].p50_ns = rf_num(&l->at, pp, pcts, "50", RF_NS);
		fo->iv[fo->niv].p99_ns = rf_num(&l->at, pp, pcts, "99", RF_NS);
		fo->niv++;
	}
	return 0;
}

/*
 * One of fio's latencies of flowop `j` (slat_ns, clat_ns, lat_ns): in a
 * flowbench file its "async" block's, in an fio file's (runtime/results/
 * fio_run.c) its own key; NULL when absent.
 */
static const json_t *fio_latency(const json_t *j, const json_t *async, const char *what)
{
	return json_object_get(async ? async : j, what);
}

/* Its percentiles, or NULL. */
static const json_t *fio_pcts(const json_t *j, const json_t *async, const char *what)
{
	return json_object_get(fio_latency(j, async, what), "percentiles");
}

/* An fio latency's mean (ms) and p50/p99 (ns), checked at its path. */
static void fio_lat(struct loader *l, const char *fo_at, const json_t *j,
		    const json_t *async, const char *what, double *ms,
		    double *p50, double *p99)
{
	char p[96], pp[128];

	snprintf(p, sizeof(p), "%s.%s%s", fo_at, async ? "async." : "", what);
	snprintf(pp, sizeof(pp), "%s.percentiles", p);
	if (ms)
		*ms = rf_num(&l->at, p, fio_latency(j, async, what), "mean", RF_NS) / 1e6;
	if (p50)
		*p50 = rf_num(&l->at, pp, fio_pcts(j, async, what), "50", RF_NS);
	if (p99)
		*p99 = rf_num(&l->at, pp, fio_pcts(j, async, what), "99", RF_NS);
}

static int load_flowop(struct loader *l, const json_t *j, size_t k, struct rf_flowop *fo)
{
	const json_t *lat = json_object_get(j, "latency_ns"), *async;
	char at[48], lat_at[64], p[96];

	snprintf(at, sizeof(at), "flowops[%zu]", k);
	if (!json_is_object(j) || !json_is_string(json_object_get(j, "name"))) {
		rf_bad(&l->at, at, "name", "a flowop without a \"name\"");
		return -1;
	}
	snprintf(lat_at, sizeof(lat_at), "%s.latency_ns", at);
	fo->name = kstr(l, j, "name");
	fo->ops = rf_num(&l->at, at, j, "ops", RF_COUNT);
	fo->ops_per_s = rf_num(&l->at, at, j, "ops_per_s", RF_RATE);
	fo->mb_per_s = rf_num(&l->at, at, j, "mb_per_s", RF_MBPS);
	fo->ms_per_op = rf_num(&l->at, lat_at, lat, "mean", RF_NS) / 1e6;
	async = json_is_object(json_object_get(j, "async")) ?
		json_object_get(j, "async") : NULL;
	fio_lat(l, at, j, async, "slat_ns", &fo->slat_ms_per_op, &fo->slat_p50_ns,
		&fo->slat_p99_ns);
	fio_lat(l, at, j, async, "lat_ns", &fo->lat_ms_per_op, NULL, NULL);
	fio_lat(l, at, j, async, "clat_ns", NULL, &fo->clat_p50_ns, &fo->clat_p99_ns);
	fo->min_ns = rf_num(&l->at, lat_at, lat, "min", RF_NS);
	fo->max_ns = rf_num(&l->at, lat_at, lat, "max", RF_NS);
	if (fo->max_ns < fo->min_ns)
		rf_bad(&l->at, lat_at, "max", "%g ns is below min (%g ns)",
		       fo->max_ns, fo->min_ns);
	fo->histogram = json_is_array(json_object_get(lat, "histogram")) ?
			keep_block(l, json_object_get(lat, "histogram")) : NULL;
	fo->async = keep_block(l, async);
	snprintf(p, sizeof(p), "%s.percentiles", lat_at);
	if (load_percentiles(l, p, json_object_get(lat, "percentiles"), fo) < 0)
		return -1;
	snprintf(p, sizeof(p), "%s.intervals", at);
	if (load_intervals(l, p, json_object_get(j, "intervals"), fo) < 0)
		return -1;
	return l->at.bad ? -1 : 0;
}

/*
 * The run's index by name, and every flowop's occurrence from it: the
 * k-th flowop of a name (in file order) is occurrence k.
 */
static int index_run(struct rf_run *run)
{
	struct nameidx_entry *e = calloc((size_t)run->nflowops + 1, sizeof(*e));

	if (!e)
		return -1;
	for (int k = 0; k < run->nflowops; k++)
		e[k] = (struct nameidx_entry){ run->flowops[k].name, 0, k };
	nameidx_init(&run->byname, e, run->nflowops);
	nameidx_number(&run->byname);
	for (int i = 0; i < run->byname.n; i++)
		run->flowops[run->byname.e[i].value].occurrence =
			run->byname.e[i].occurrence;
	return 0;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* run->spread from the ranks' ops/s (NaN rates left out).  0 or -1 (memory). */
static int spread_ranks(struct rf_run *run)
{
	struct rf_spread *s = &run->spread;
	double *v = calloc((size_t)run->nranks + 1, sizeof(*v));

	*s = (struct rf_spread){ .slowest = -1 };
	if (!v)
		return -1;
	for (int i = 0; i < run->nranks; i++) {
		double x = run->ranks[i].ops_per_s;

		if (!isfinite(x))
			continue;
		if (s->slowest < 0 || x < run->ranks[s->slowest].ops_per_s)
			s->slowest = i;
		v[s->n++] = x;
	}
	if (s->n > 0) {
		qsort(v, (size_t)s->n, sizeof(*v), by_value);
		s->min = v[0];
		s->max = v[s->n - 1];
		s->median = s->n % 2 ? v[s->n / 2] : (v[s->n / 2 - 1] + v[s->n / 2]) / 2;
	}
	free(v);
	return 0;
}

/* The highest util_pct of the devices found in /proc/diskstats; NaN: none. */
static double busiest(struct loader *l, const char *at, const json_t *disks)
{
	double util = NAN;
	size_t i;
	json_t *v;

	json_array_foreach((json_t *)disks, i, v) {
		char p[64];
		double u;

		snprintf(p, sizeof(p), "%s[%zu]", at, i);
		u = rf_num(&l->at, p, v, "util_pct", RF_PERCENT);
		if (json_is_true(json_object_get(v, "found")) && !(u <= util))
			util = u;
	}
	return util;
}

/* One process's CPU fields (fio's names, docs/results-format.md). */
static void load_cpu(struct loader *l, const char *at, const json_t *j, struct rf_cpu *c)
{
	c->usr_pct = rf_num(&l->at, at, j, "usr_pct", RF_PERCENT);
	c->sys_pct = rf_num(&l->at, at, j, "sys_pct", RF_PERCENT);
	c->cpu_s = rf_num(&l->at, at, j, "usr_s", RF_SECONDS) +
		   rf_num(&l->at, at, j, "sys_s", RF_SECONDS);
	c->ctx = rf_num(&l->at, at, j, "ctx", RF_COUNT);
	c->majf = rf_num(&l->at, at, j, "majf", RF_COUNT);
	c->minf = rf_num(&l->at, at, j, "minf", RF_COUNT);
}

/*
 * A rank's "usage": its workers' CPU %, its busiest device, and how
 * many devices it had ("disks_total"; files written before it: the
 * ones listed).
 */
static void load_rank_usage(struct loader *l, const char *at, const json_t *usage,
			    struct rf_rank *k)
{
	const json_t *disks = json_object_get(usage, "disks");
	const json_t *total = json_object_get(usage, "disks_total");
	char p[96];
	struct rf_cpu w;

	k->cpu_pct = k->disk_util_pct = NAN;
	if (!json_is_object(usage))
		return;
	k->usage_measured = true;
	snprintf(p, sizeof(p), "%s.usage.workers", at);
	load_cpu(l, p, json_object_get(usage, "workers"), &w);
	k->cpu_pct = w.usr_pct + w.sys_pct;
	snprintf(p, sizeof(p), "%s.usage.disks", at);
	k->disk_util_pct = busiest(l, p, disks);
	k->ndisks = json_is_array(disks) ? (int)(json_array_size(disks) & INT_MAX) : 0;
	k->disks_total = k->ndisks;
	if (json_is_integer(total) && json_integer_value(total) > k->ndisks &&
	    json_integer_value(total) <= INT_MAX)
		k->disks_total = (int)json_integer_value(total);
}

/*
 * A flowbench-mpi run's "ranks": each entry's rank, host, rate, window,
 * errors and failure, and their spread.  Entries that are not objects
 * are skipped, like any key this reader does not know.
 */
static int load_ranks(struct loader *l, const json_t *ranks, struct rf_run *run)
{
	size_t i;
	json_t *v;

	run->spread.slowest = -1;
	if (!json_is_array(ranks) || json_array_size(ranks) == 0)
		return 0;
	run->ranks = calloc(json_array_size(ranks), sizeof(*run->ranks));
	if (!run->ranks)
		return -1;
	json_array_foreach((json_t *)ranks, i, v) {
		struct rf_rank *k = &run->ranks[run->nranks];
		char at[32];

		if (!json_is_object(v))
			continue;
		snprintf(at, sizeof(at), "ranks[%zu]", i);
		k->rank = json_is_integer(json_object_get(v, "rank")) ?
			  (int)json_integer_value(json_object_get(v, "rank")) : (int)i;
		k->host = kstr(l, v, "host");
		k->failed = json_is_true(json_object_get(v, "failed"));
		k->error = kstr(l, v, "error");
		k->window_s = rf_num(&l->at, at, v, "window_s", RF_SECONDS);
		k->ops_per_s = rf_num(&l->at, at, v, "ops_per_s", RF_RATE);
		k->errors = rf_num(&l->at, at, v, "errors", RF_COUNT);
		load_rank_usage(l, at, json_object_get(v, "usage"), k);
		run->nranks++;
	}
	return spread_ranks(run);
}

/* The workers' CPU: every instance of "usage.cpu" summed. */
static void sum_workers(struct loader *l, const json_t *cpu, struct rf_cpu *w)
{
	size_t i;
	json_t *v;

	*w = (struct rf_cpu){ 0 };
	json_array_foreach((json_t *)cpu, i, v) {
		struct rf_cpu c;
		char at[48];

		snprintf(at, sizeof(at), "usage.cpu[%zu]", i);
		load_cpu(l, at, v, &c);
		w->usr_pct += c.usr_pct;
		w->sys_pct += c.sys_pct;
		w->cpu_s += c.cpu_s;
		w->ctx += c.ctx;
		w->majf += c.majf;
		w->minf += c.minf;
	}
}

/*
 * The run's "usage" (CPU and disks of the window) into its summary:
 * what compare shows next to the rates, since a change that keeps ops/s
 * but costs more CPU per op is a change too.  NaN where absent.
 */
static void load_usage(struct loader *l, const json_t *usage, double ops,
		       struct rf_summary *s)
{
	const json_t *cpu = json_object_get(usage, "cpu");
	struct rf_cpu w;

	s->cpu_pct = s->cpu_us_per_op = s->disk_util_pct = NAN;
	if (!json_is_array(cpu) || json_array_size(cpu) == 0)
		return;
	sum_workers(l, cpu, &w);
	s->cpu_pct = w.usr_pct + w.sys_pct;
	if (ops > 0)
		s->cpu_us_per_op = w.cpu_s * 1e6 / ops;
	s->disk_util_pct = busiest(l, "usage.disks", json_object_get(usage, "disks"));
}

/* "usage.disks" and "usage.no_block_device" into u.  0, or -1 (memory). */
static int load_devices(struct loader *l, const json_t *usage, struct rf_usage *u)
{
	const json_t *disks = json_object_get(usage, "disks");
	const json_t *none = json_object_get(usage, "no_block_device");
	size_t i;
	json_t *v;

	if ((json_array_size(disks) &&
	     !(u->disks = calloc(json_array_size(disks), sizeof(*u->disks)))) ||
	    (json_array_size(none) &&
	     !(u->nodev = calloc(json_array_size(none), sizeof(*u->nodev)))))
		return -1;
	json_array_foreach((json_t *)disks, i, v) {
		struct rf_disk *d = &u->disks[u->ndisks];
		char at[48];

		if (!json_is_object(v))
			continue;
		snprintf(at, sizeof(at), "usage.disks[%zu]", i);
		d->name = kstr(l, v, "name");
		d->on = kstr(l, v, "on");
		d->found = json_is_true(json_object_get(v, "found"));
		d->read_ios = rf_num(&l->at, at, v, "read_ios", RF_COUNT);
		d->write_ios = rf_num(&l->at, at, v, "write_ios", RF_COUNT);
		d->util_pct = rf_num(&l->at, at, v, "util_pct", RF_PERCENT);
		u->ndisks++;
	}
	json_array_foreach((json_t *)none, i, v) {
		if (!json_is_object(v))
			continue;
		u->nodev[u->nnodev].dir = kstr(l, v, "dir");
		u->nodev[u->nnodev++].fstype = kstr(l, v, "fstype");
	}
	return 0;
}

/*
 * The run's "usage" as the report shows it: the workers summed, the
 * master, each device and each directory on none.  Absent: not
 * measured.  0, or -1 when out of memory.
 */
static int load_run_usage(struct loader *l, const json_t *usage, struct rf_usage *u)
{
	if (!json_is_object(usage))
		return 0;
	u->measured = true;
	sum_workers(l, json_object_get(usage, "cpu"), &u->workers);
	load_cpu(l, "usage.master", json_object_get(usage, "master"), &u->master);
	return load_devices(l, usage, u);
}

/* Whether the run has a rate derived from its elapsed time. */
static bool has_rate(const struct rf_run *run)
{
	if (run->summary.ops_per_s > 0 || run->summary.mb_per_s > 0)
		return true;
	for (int k = 0; k < run->nflowops; k++)
		if (run->flowops[k].ops_per_s > 0 || run->flowops[k].mb_per_s > 0)
			return true;
	return false;
}

static int load_run(struct loader *l, const json_t *j, struct rf_run *run)
{
	const json_t *fos = json_object_get(j, "flowops");
	const json_t *sum = json_object_get(j, "summary");
	size_t i;
	json_t *v;

	if (!json_is_object(j) || !json_is_array(fos)) {
		rf_bad(&l->at, "", "", "a run without a \"flowops\" array");
		return -1;
	}
	run->index = (int)json_integer_value(json_object_get(j, "index"));
	run->partial = json_is_true(json_object_get(j, "partial"));
	run->started = kstr(l, j, "started");
	run->elapsed_s = rf_num(&l->at, "", j, "elapsed_s", RF_SECONDS);
	run->summary.ops_per_s = rf_num(&l->at, "summary", sum, "ops_per_s", RF_RATE);
	run->summary.mb_per_s = rf_num(&l->at, "summary", sum, "mb_per_s", RF_MBPS);
	run->summary.ms_per_op = rf_num(&l->at, "summary", sum, "ms_per_op", RF_SECONDS);
	load_usage(l, json_object_get(j, "usage"),
		   rf_num(&l->at, "summary", sum, "ops", RF_COUNT), &run->summary);
	run->flowops = calloc(json_array_size(fos) + 1, sizeof(*run->flowops));
	if (!run->flowops)
		return -1;
	json_array_foreach((json_t *)fos, i, v) {
		if (load_flowop(l, v, i, &run->flowops[run->nflowops]) < 0)
			return -1;
		run->nflowops++;
	}
	if (!l->at.bad && run->elapsed_s == 0 && has_rate(run))
		rf_bad(&l->at, "", "elapsed_s", "0, but the run has rates, which are "
		       "per second of it");
	if (l->at.bad)
		return -1;
	if (index_run(run) < 0 || load_ranks(l, json_object_get(j, "ranks"), run) < 0 ||
	    load_run_usage(l, json_object_get(j, "usage"), &run->usage) < 0)
		return -1;
	return l->at.bad ? -1 : 0;
}

/*
 * The cache step's state (rf_doc's cache_state).  Files written before
 * environment.cache was a map hold the logged decision as a string: its
 * "warm (not flushed)" left the cache as it was, which is keep now.
 */
static void cache_state(struct rf_doc *doc, const json_t *c)
{
	const json_t *pct = json_object_get(c, "resident_pct");
	const char *s = jstr(c, "state");
	double v = json_is_number(pct) ? json_number_value(pct) : NAN;

	doc->cache_resident_pct = v >= 0 && v <= 100 ? v : NAN;
	if (json_is_string(c))
		doc->cache_state = strncmp(json_string_value(c), "warm", 4) == 0 ?
				   "keep" : "cold";
	else if (strcmp(s, "cold") == 0 || strcmp(s, "warm") == 0 ||
		 strcmp(s, "keep") == 0)
		doc->cache_state = s;
	else
		doc->cache_state = "";
}

/* What the file says about its workload and machine (rf_doc's comments). */
static void describe(struct rf_doc *doc)
{
	const json_t *wl = json_object_get(doc->root, "workload");
	const json_t *env = json_object_get(doc->root, "environment");
	const json_t *vars = json_object_get(wl, "variables");
	const json_t *fss = json_object_get(env, "filesystems");
	const json_t *clock = json_object_get(env, "clock");
	const json_t *drift = json_object_get(clock, "drift_ppm");
	const json_t *source = json_object_get(doc->root, "source");

	doc->tool = *jstr(source, "tool") ? jstr(source, "tool") : "flowbench";
	doc->tool_version = jstr(source, "version");
	doc->tool_format = jstr(source, "output_format");
	doc->notes = json_array_size(json_object_get(source, "notes")) ?
		     json_object_get(source, "notes") : NULL;
	doc->workload = jstr(wl, "file");
	doc->status = jstr(doc->root, "status");
	doc->sha256 = jstr(wl, "sha256");
	doc->variables = json_is_object(vars) ? vars : NULL;
	doc->kernel = jstr(env, "kernel");
	doc->clock_source = jstr(clock, "source");
	doc->clock_drift_ppm = json_is_number(drift) ? json_number_value(drift) : NAN;
	doc->kernel_clock = jstr(clock, "kernel_source");
	doc->filesystems = json_is_array(fss) ? fss : NULL;
	cache_state(doc, json_object_get(env, "cache"));
	doc->partial |= *doc->status && strcmp(doc->status, "ok") != 0;
}

/*
 * The hook of the reader (results_read_file()): run i, read and checked
 * into doc->runs, its tree then dropped by the reader.
 */
static int take_run(void *ctx, const json_t *j, size_t i, int line)
{
	struct loader *l = ctx;
	struct rf_doc *doc = l->doc;

	if (doc->nruns == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		struct rf_run *r = cap > 0 && (size_t)cap < SIZE_MAX / sizeof(*r) ?
				   realloc(doc->runs, (size_t)cap * sizeof(*r)) : NULL;

		if (!r) {
			log_error_to(l->at.err, "%s: out of memory", doc->path);
			return -1;
		}
		doc->runs = r;
		l->cap = cap;
	}
	memset(&doc->runs[doc->nruns], 0, sizeof(doc->runs[0]));
	snprintf(l->at.run, sizeof(l->at.run), "runs[%zu]", i);
	l->at.line = line;
	if (load_run(l, j, &doc->runs[doc->nruns++]) < 0) {
		if (!l->at.bad)
			log_error_to(l->at.err, "%s: out of memory", doc->path);
		return -1;
	}
	doc->partial |= doc->runs[doc->nruns - 1].partial;
	return 0;
}

int rf_load(const char *path, struct rf_doc *doc, FILE *err)
{
	struct loader l = { .doc = doc, .at = { .file = path, .err = err } };
	struct results_runs each = { take_run, NULL, &l };
	const json_t *fmt;

	memset(doc, 0, sizeof(*doc));
	doc->path = path;
	arena_init(&doc->arena);
	doc->root = results_read_file(path, err, &each);
	if (!doc->root)
		goto fail;
	fmt = json_object_get(doc->root, "format");
	if (!json_is_object(doc->root) || !json_is_string(fmt)) {
		log_error_to(err, "%s: not a flowbench results file (no \"format\" key; write one with 'flowbench run --output FILE.json' or FILE.yaml)",
			path);
		goto fail;
	}
	if (strcmp(json_string_value(fmt), RF_FORMAT) != 0) {
		log_error_to(err, "%s: unknown results format '%s' (this flowbench reads '%s' only; was it written by another version?)",
			path, json_string_value(fmt), RF_FORMAT);
		goto fail;
	}
	describe(doc);
	doc->compat = *jstr(doc->root, "compat") ?
		      jstr(doc->root, "compat") : "flowbench";
	if (doc->nruns == 0) {
		const char *e = jstr(doc->root, "error");

		log_error_to(err, "%s: no run in it (status '%s'%s%s)",
			path, doc->status, *e ? ": " : "", e);
		goto fail;
	}
	return 0;
fail:
	rf_free(doc);
	return -1;
}

void rf_free(struct rf_doc *doc)
{
	for (int r = 0; r < doc->nruns; r++) {
		struct rf_run *run = &doc->runs[r];

		for (int k = 0; k <= run->nflowops && run->flowops; k++) {
			free(run->flowops[k].pcts);
			free(run->flowops[k].iv);
		}
		free(run->flowops);
		free(run->ranks);
		free(run->usage.disks);
		free(run->usage.nodev);
		nameidx_free(&run->byname);
	}
	free(doc->runs);
	json_decref(doc->root);
	json_decref(doc->kept);
	arena_free(&doc->arena);
	memset(doc, 0, sizeof(*doc));
}

/*
 * Keep `text` in the document (its "source" notes, made when absent) and
 * return the kept copy, which lives as long as the document; NULL when
 * out of memory.
 */
static const char *doc_keep_note(struct rf_doc *doc, const char *text)
{
	json_t *source = json_object_get(doc->root, "source");
	json_t *notes = json_object_get(source, "notes");

	if (!json_is_object(source) || !text)
		return NULL;
	if (!json_is_array(notes)) {
		notes = json_array();
		if (!notes || json_object_set_new(source, "notes", notes) < 0)
			return NULL;
	}
	if (json_array_append_new(notes, json_string(text)) < 0)
		return NULL;
	doc->notes = notes;
	return json_string_value(json_array_get(notes, json_array_size(notes) - 1));
}

int rf_rename_flowop(struct rf_doc *doc, struct rf_run *run, int k, const char *name,
		     const char *why)
{
	json_t *kept = json_object_get(doc->root, "source");
	json_t *names;

	if (!json_is_object(kept))
		return -1;
	names = json_object_get(kept, "renamed");
	if (!json_is_array(names)) {
		names = json_array();
		if (!names || json_object_set_new(kept, "renamed", names) < 0)
			return -1;
	}
	if (json_array_append_new(names, json_string(name)) < 0)
		return -1;
	run->flowops[k].name = json_string_value(json_array_get(names,
							       json_array_size(names) - 1));
	nameidx_free(&run->byname);
	if (index_run(run) < 0)
		return -1;
	if (why) {
		/* said once per text, however many runs the file holds */
		size_t i;
		json_t *v;

		json_array_foreach((json_t *)doc->notes, i, v)
			if (strcmp(json_string_value(v), why) == 0)
				return 0;
		if (!doc_keep_note(doc, why))
			return -1;
	}
	return 0;
}

const struct rf_flowop *rf_find(const struct rf_run *run, const char *name,
				int occurrence)
{
	int k = nameidx_find(&run->byname, name, occurrence);

	return k >= 0 ? &run->flowops[k] : NULL;
}

/* Every flowop of every run of every file, once, in that order. */
static const struct rf_flowop **all_flowops(const struct rf_doc *docs, int ndocs,
					    int *n)
{
	size_t total = 0;
	const struct rf_flowop **all;

	for (int d = 0; d < ndocs; d++)
		for (int r = 0; r < docs[d].nruns; r++)
			total += (size_t)docs[d].runs[r].nflowops;
	if (total >= INT_MAX)
		return NULL;
	all = calloc(total + 1, sizeof(*all));
	if (!all)
		return NULL;
	*n = 0;
	for (int d = 0; d < ndocs; d++)
		for (int r = 0; r < docs[d].nruns; r++)
			for (int k = 0; k < docs[d].runs[r].nflowops; k++)
				all[(*n)++] = &docs[d].runs[r].flowops[k];
	return all;
}

/*
 * Index every flowop by (name, occurrence) with its position in the
 * sequence of all of them; the smallest position of each distinct pair,
 * in ascending order, is the order of first sight.
 */
struct rf_key *rf_keys(const struct rf_doc *docs, int ndocs, int *nkeys)
{
	int n = 0, *first = NULL;
	const struct rf_flowop **all = all_flowops(docs, ndocs, &n);
	struct nameidx_entry *e = all ? calloc((size_t)n + 1, sizeof(*e)) : NULL;
	struct nameidx ix = { 0 };
	struct rf_key *keys = NULL;

	if (!e)
		goto out;
	for (int i = 0; i < n; i++)
		e[i] = (struct nameidx_entry){ all[i]->name, all[i]->occurrence, i };
	nameidx_init(&ix, e, n);
	first = calloc((size_t)n + 1, sizeof(*first));
	keys = calloc((size_t)n + 1, sizeof(*keys));
	if (!first || !keys) {
		free(keys);
		keys = NULL;
		goto out;
	}
	*nkeys = nameidx_firsts(&ix, first);
	for (int i = 0; i < *nkeys; i++) {
		keys[i].name = all[first[i]]->name;
		keys[i].occurrence = all[first[i]]->occurrence;
	}
out:
	nameidx_free(&ix);
	free(first);
	free(all);
	return keys;
}
