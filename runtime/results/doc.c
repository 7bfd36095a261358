/*
 * doc.c - the results file's tree, walked once for every format.
 *
 * The order and the key names are docs/results-format.md's.  A walker
 * keeps the first sink error and skips everything after it, so the
 * emitting code reads like the document.
 */
#include "runtime/results/doc.h"

#include <math.h>
#include <stdio.h>

#include "config.h"
#include "plan/flowop.h"
#include "runtime/results/comparability.h"

struct walk {
	const struct doc_sink *s;
	int err;
};

static void map_begin(struct walk *w) { if (!w->err) w->err = w->s->map_begin(w->s->ctx); }
static void map_end(struct walk *w) { if (!w->err) w->err = w->s->map_end(w->s->ctx); }
static void list_begin(struct walk *w) { if (!w->err) w->err = w->s->list_begin(w->s->ctx); }
static void flow_list_begin(struct walk *w) { if (!w->err) w->err = w->s->flow_list_begin(w->s->ctx); }
static void list_end(struct walk *w) { if (!w->err) w->err = w->s->list_end(w->s->ctx); }
static void key(struct walk *w, const char *k) { if (!w->err) w->err = w->s->key(w->s->ctx, k); }

static void str(struct walk *w, const char *k, const char *v)
{
	key(w, k);
	if (!w->err)
		w->err = w->s->string(w->s->ctx, v);
}

static void uint(struct walk *w, const char *k, uint64_t v)
{
	key(w, k);
	if (!w->err)
		w->err = w->s->integer(w->s->ctx, v);
}

static void real(struct walk *w, const char *k, double v)
{
	key(w, k);
	if (!w->err)
		w->err = w->s->real(w->s->ctx, v);
}

/* A list item or a value after key(). */
static void boolean(struct walk *w, const char *k, bool v)
{
	key(w, k);
	if (!w->err)
		w->err = w->s->boolean(w->s->ctx, v);
}

static void real_item(struct walk *w, double v)
{
	if (!w->err)
		w->err = w->s->real(w->s->ctx, v);
}

static void uint_item(struct walk *w, uint64_t v)
{
	if (!w->err)
		w->err = w->s->integer(w->s->ctx, v);
}

static void str_item(struct walk *w, const char *v)
{
	if (!w->err)
		w->err = w->s->string(w->s->ctx, v);
}

/* A percentile as a key: 50, 99.9, 99.99 (no trailing zeros). */
static void pct_key(struct walk *w, double q)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%g", q);
	key(w, buf);
}

static void plan_value(struct walk *w, const char *k, const struct plan_value *v)
{
	char buf[48];

	key(w, k);
	if (w->err)
		return;
	switch (v->kind) {
	case PV_INT:
		if (v->u.i >= 0) {
			w->err = w->s->integer(w->s->ctx, (uint64_t)v->u.i);
			break;
		}
		w->err = w->s->real(w->s->ctx, (double)v->u.i);
		break;
	case PV_DOUBLE:
		w->err = w->s->real(w->s->ctx, v->u.d);
		break;
	case PV_BOOL:
		w->err = w->s->boolean(w->s->ctx, v->u.b);
		break;
	case PV_STRING:
		w->err = w->s->string(w->s->ctx, v->u.s);
		break;
	case PV_RANDOM:
		snprintf(buf, sizeof(buf), "random variable %d", v->u.rv);
		w->err = w->s->string(w->s->ctx, buf);
		break;
	default:
		w->err = w->s->string(w->s->ctx, NULL);
		break;
	}
}

/*
 * What a rerun compiles (`run --again`): the text that ran, and for an
 * fio job the files it was imported from and the -D the import took.
 * Strings whatever their bytes: the sinks write them escaped.
 */
static void source(struct walk *w, const struct results *r)
{
	char hex[65];

	if (!r->source_kind)
		return;
	key(w, "source");
	map_begin(w);
	str(w, "kind", r->source_kind);
	uint(w, "bytes", r->source_len);
	str(w, "text", r->source);
	if (!r->source)
		str(w, "omitted", r->source_omitted);
	map_end(w);
	key(w, "files");
	list_begin(w);
	for (int i = 0; i < r->nfiles; i++) {
		const struct res_file *f = &r->files[i];

		results_sha256_hex(f->text, f->len, hex);
		map_begin(w);
		str(w, "name", f->name);
		uint(w, "bytes", f->len);
		str(w, "sha256", hex);
		str(w, "text", r->source ? f->text : NULL);
		map_end(w);
	}
	list_end(w);
	key(w, "import_defines");
	list_begin(w);
	for (int i = 0; i < r->nimport_defines; i++)
		str_item(w, r->import_defines[i]);
	list_end(w);
}

/* The command line's options that change the run, for a rerun. */
static void rerun_options(struct walk *w, const struct results *r)
{
	const struct res_options *o = r->options;

	if (!o)
		return;
	key(w, "options");
	map_begin(w);
	real(w, "runtime_s", o->runtime_given ? o->runtime_s : NAN);
	str(w, "cache", cache_mode_name(o->cache));
	uint(w, "repeat", o->repeat > 0 ? (uint64_t)o->repeat : 1);
	boolean(w, "keep_going", o->keep_going);
	boolean(w, "force", o->force);
	boolean(w, "allow_system", o->allow_system);
	boolean(w, "shared_files", o->shared_files);
	map_end(w);
}

/* "rerun_of": the results file this run reran (run --again). */
static void rerun_of(struct walk *w, const struct res_rerun_of *o)
{
	if (!o)
		return;
	key(w, "rerun_of");
	map_begin(w);
	str(w, "results", o->file);
	str(w, "results_sha256", o->results_sha256);
	str(w, "workload_sha256", o->workload_sha256[0] ? o->workload_sha256 : NULL);
	str(w, "started", o->started[0] ? o->started : NULL);
	key(w, "run");
	if (o->run > 0)
		uint_item(w, (uint64_t)o->run);
	else
		str_item(w, NULL);
	key(w, "overrides");
	list_begin(w);
	for (int i = 0; i < o->noverrides; i++)
		str_item(w, o->overrides[i]);
	list_end(w);
	map_end(w);
}

static void workload(struct walk *w, const struct results *r)
{
	key(w, "workload");
	map_begin(w);
	str(w, "file", r->workload);
	str(w, "sha256", r->sha256[0] ? r->sha256 : NULL);
	key(w, "variables");
	map_begin(w);
	for (int i = 0; i < r->nvars; i++)
		plan_value(w, r->vars[i].name, &r->vars[i].value);
	map_end(w);
	key(w, "defines");
	map_begin(w);
	for (int i = 0; i < r->ndefines; i++)
		str(w, r->defines[i].name, r->defines[i].value);
	map_end(w);
	source(w, r);
	map_end(w);
}

/* A count, or null when it was not taken. */
static void uint_or_null(struct walk *w, const char *k, bool known, uint64_t v)
{
	if (known)
		uint(w, k, v);
	else
		str(w, k, NULL);
}

/*
 * "cache": the cache step (docs/results-format.md): its state, the
 * decision as logged, and for a warm fill how the cache was filled and
 * how much of the files it holds; null when no run reached the step.
 */
static void cache(struct walk *w, const struct cache_report *c)
{
	char how[96];
	bool fill = c->filled, res = fill && c->resident_known;

	key(w, "cache");
	if (!c->text[0]) {
		str_item(w, NULL);
		return;
	}
	snprintf(how, sizeof(how), "sequential %u KiB reads after fdatasync and "
		 "POSIX_FADV_DONTNEED", CACHE_WARM_READ / 1024);
	map_begin(w);
	str(w, "state", cache_mode_name(c->mode));
	str(w, "method", c->text);
	str(w, "filled_by", fill ? how : NULL);
	uint_or_null(w, "files", fill, c->files);
	uint_or_null(w, "bytes", fill, c->bytes);
	uint_or_null(w, "resident_bytes", res, c->resident);
	real(w, "resident_pct", !res ? NAN : c->bytes ?
	     100.0 * (double)c->resident / (double)c->bytes : 100.0);
	uint_or_null(w, "not_evicted_bytes", fill, c->not_evicted);
	map_end(w);
}

static void environment(struct walk *w, const struct res_env *e)
{
	key(w, "environment");
	map_begin(w);
	str(w, "hostname", e->hostname);
	str(w, "kernel", e->kernel);
	uint(w, "cpus", e->cpus > 0 ? (uint64_t)e->cpus : 0);
	str(w, "cpu_model", e->cpu_model[0] ? e->cpu_model : NULL);
	uint(w, "memory_bytes", e->memory_bytes);
	key(w, "clock");
	map_begin(w);
	str(w, "source", e->clock_source);
	real(w, "read_cost_ns", e->clock_read_ns);
	real(w, "drift_ppm", e->clock_drift_ppm);
	str(w, "kernel_source", e->kernel_clock[0] ? e->kernel_clock : NULL);
	map_end(w);
	cache(w, &e->cache);
	key(w, "filesystems");
	list_begin(w);
	for (int i = 0; i < e->nfs; i++) {
		const struct res_filesystem *f = &e->fs[i];

		map_begin(w);
		str(w, "path", f->path);
		str(w, "type", f->type);
		str(w, "statfs_magic", f->magic[0] ? f->magic : NULL);
		str(w, "device", f->device);
		str(w, "mount_options", f->options);
		str(w, "disk", f->disk);
		str(w, "disk_model", f->disk_model);
		if (f->rotational >= 0)
			boolean(w, "rotational", f->rotational);
		else
			str(w, "rotational", NULL);
		map_end(w);
	}
	list_end(w);
	key(w, "devices");
	list_begin(w);
	for (int i = 0; i < e->ndev; i++) {
		const struct res_device *d = &e->dev[i];

		map_begin(w);
		str(w, "path", d->path);
		str(w, "name", d->name[0] ? d->name : NULL);
		str(w, "model", d->model);
		str(w, "serial", d->serial);
		uint(w, "size_bytes", d->size_bytes);
		uint(w, "logical_block_size", d->logical_block_size);
		uint(w, "physical_block_size", d->physical_block_size);
		if (d->rotational >= 0)
			boolean(w, "rotational", d->rotational == 1);
		else
			str(w, "rotational", NULL);
		str(w, "scheduler", d->scheduler);
		uint(w, "queue_depth", d->queue_depth);
		str(w, "write_cache", d->write_cache);
		str(w, "backing_file", d->backing_file);
		map_end(w);
	}
	list_end(w);
	map_end(w);
}

/* "percentiles": { "50": v[0], ... } at the results' percentiles. */
static void percentiles(struct walk *w, const struct results *r,
			const double *v)
{
	key(w, "percentiles");
	map_begin(w);
	for (int k = 0; k < r->npct; k++) {
		pct_key(w, r->pct[k]);
		real_item(w, v[k]);
	}
	map_end(w);
}

/*
 * "histogram": [[lower_ns, upper_ns, count], ...], the non-empty buckets
 * in ascending order (docs/results-format.md says how to recompute a
 * percentile from them and how to merge runs).
 */
static void hist_buckets(struct walk *w, const struct res_latency *l)
{
	key(w, "histogram");
	list_begin(w);
	for (int i = 0; i < l->nhist; i++) {
		flow_list_begin(w);
		uint_item(w, l->hist[i].lower_ns);
		uint_item(w, l->hist[i].upper_ns);
		uint_item(w, l->hist[i].count);
		list_end(w);
	}
	list_end(w);
}

static void latency(struct walk *w, const struct results *r,
		    const struct res_latency *l)
{
	key(w, "latency_ns");
	map_begin(w);
	real(w, "mean", l->mean);
	real(w, "stdev", l->stdev);
	real(w, "min", l->min);
	real(w, "max", l->max);
	percentiles(w, r, l->pct);
	hist_buckets(w, l);
	map_end(w);
}

/* A latency of an asynchronous flowop under key `k`, histogram if any. */
static void async_latency(struct walk *w, const struct results *r, const char *k,
			  const struct res_latency *l, bool buckets)
{
	key(w, k);
	map_begin(w);
	real(w, "mean", l->mean);
	real(w, "stdev", l->stdev);
	real(w, "min", l->min);
	real(w, "max", l->max);
	percentiles(w, r, l->pct);
	if (buckets)
		hist_buckets(w, l);
	map_end(w);
}

/* One of fio's distributions: { "1": 0.1, ... } in percent, at its labels. */
static void async_map(struct walk *w, const char *k, const char *const *labels,
		      const double *pct, int n)
{
	key(w, k);
	map_begin(w);
	for (int i = 0; i < n; i++)
		real(w, labels[i], pct[i]);
	map_end(w);
}

static void async_counts(struct walk *w, const char *k, const uint64_t *v, int n)
{
	key(w, k);
	flow_list_begin(w);
	for (int i = 0; i < n; i++)
		uint_item(w, v[i]);
	list_end(w);
}

/*
 * "async": fio's figures of an asynchronous flowop (docs/results-format.md):
 * its engine and depth, slat, clat (the flowop's latency_ns, without a
 * second histogram) and lat, fio's IO depths, submit and complete
 * distributions and latency buckets, in percent and as counts.
 */
static void async_block(struct walk *w, const struct results *r,
			const struct res_flowop *o)
{
	static const char *const depth[ASTATS_MAP_NR] = {
		"1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const calls[ASTATS_MAP_NR] = {
		"0", "4", "8", "16", "32", "64", ">=64" };
	static const char *const units[3] = { "ns", "us", "ms" };
	const struct res_async *a = o->async;

	key(w, "async");
	map_begin(w);
	str(w, "ioengine", a->engine);
	uint(w, "iodepth", a->iodepth > 0 ? (uint64_t)a->iodepth : 0);
	async_latency(w, r, "slat_ns", &a->slat, true);
	async_latency(w, r, "clat_ns", &o->lat, false);
	async_latency(w, r, "lat_ns", &a->lat, true);
	async_map(w, "iodepth_level", depth, a->depth_pct, ASTATS_MAP_NR);
	async_map(w, "iodepth_submit", calls, a->submit_pct, ASTATS_MAP_NR);
	async_map(w, "iodepth_complete", calls, a->complete_pct, ASTATS_MAP_NR);
	key(w, "latency_buckets");
	map_begin(w);
	for (int u = 0; u < 3; u++) {
		const char *labels[12];
		int from = u == 0 ? ASTATS_LATB_NSEC : u == 1 ? ASTATS_LATB_USEC :
			   ASTATS_LATB_MSEC;
		int to = u == 0 ? ASTATS_LATB_USEC : u == 1 ? ASTATS_LATB_MSEC :
			 ASTATS_LATB_NR;

		for (int i = from; i < to; i++)
			labels[i - from] = astats_latb_label((unsigned)i);
		async_map(w, units[u], labels, &a->latb_pct[from], to - from);
	}
	map_end(w);
	key(w, "counts");
	map_begin(w);
	async_counts(w, "iodepth_level", a->depth, ASTATS_MAP_NR);
	async_counts(w, "iodepth_submit", a->submit, ASTATS_MAP_NR);
	async_counts(w, "iodepth_complete", a->complete, ASTATS_MAP_NR);
	async_counts(w, "latency_buckets", a->latb, ASTATS_LATB_NR);
	map_end(w);
	map_end(w);
}

/* One --interval entry: its counts, rates and latency (mean, percentiles). */
static void interval(struct walk *w, const struct results *r,
		     const struct interval_row *iv)
{
	map_begin(w);
	real(w, "t_s", iv->t_s);
	real(w, "dt_s", iv->dt_s);
	uint(w, "ops", iv->ops);
	uint(w, "bytes", iv->bytes);
	real(w, "ops_per_s", iv->ops_per_s);
	real(w, "mb_per_s", iv->mb_per_s);
	if (iv->has_latency) {
		key(w, "latency_ns");
		map_begin(w);
		real(w, "mean", iv->mean_ns);
		percentiles(w, r, iv->pct);
		map_end(w);
	}
	map_end(w);
}

static void flowop(struct walk *w, const struct results *r,
		   const struct res_flowop *o)
{
	map_begin(w);
	str(w, "name", o->name);
	str(w, "type", o->type);
	str(w, "class", o->cls);
	str(w, "rw", o->rw);
	uint(w, "ops", o->ops);
	uint(w, "bytes", o->bytes);
	real(w, "ops_per_s", o->ops_per_s);
	real(w, "mb_per_s", o->mb_per_s);
	real(w, "ms_per_op", o->ms_per_op);
	uint(w, "implicit_opens", o->implicit_opens);
	uint(w, "not_counted", o->not_counted);
	uint(w, "errors", o->errors);
	key(w, "error_kinds");
	map_begin(w);
	for (int k = 0; k < FE_NKINDS; k++)
		if (o->err[k])
			uint(w, fo_err_kind_name((enum fo_err_kind)k), o->err[k]);
	map_end(w);
	if (o->has_latency)
		latency(w, r, &o->lat);
	if (o->async && o->has_latency)
		async_block(w, r, o);
	key(w, "intervals");
	list_begin(w);
	for (int i = 0; i < o->niv; i++)
		interval(w, r, &o->iv[i]);
	list_end(w);
	map_end(w);
}

static void latency(struct walk *w, const struct results *r,
		    const struct res_latency *l);

/*
 * One client's counts of one report line, named like the run's line,
 * and its own latency in the merged flowop's form.
 */
static void rank_flowop(struct walk *w, const struct results *r, const char *name,
			const struct res_rank_flowop *o)
{
	map_begin(w);
	str(w, "name", name);
	uint(w, "ops", o->ops);
	uint(w, "bytes", o->bytes);
	uint(w, "errors", o->errors);
	if (o->has_latency)
		latency(w, r, &o->lat);
	map_end(w);
}

static void cpu_fields(struct walk *w, const struct cpu_usage *u);
static void disk(struct walk *w, const struct usage_disk *d);

/*
 * A rank's own "usage": its workers summed, its master, its first
 * devices, and "disks_total": how many it had (more than "disks" holds
 * when the wire's fixed size cut them).
 */
static void rank_usage(struct walk *w, const struct usage_summary *u)
{
	key(w, "usage");
	map_begin(w);
	real(w, "window_s", u->window_s);
	key(w, "workers");
	map_begin(w);
	cpu_fields(w, &u->workers);
	map_end(w);
	key(w, "master");
	map_begin(w);
	cpu_fields(w, &u->master);
	map_end(w);
	real(w, "disk_window_s", u->disk_window_s);
	key(w, "disks");
	list_begin(w);
	for (int i = 0; i < u->ndisk; i++)
		disk(w, &u->disk[i]);
	list_end(w);
	uint(w, "disks_total", (uint64_t)(u->ndisk_total > u->ndisk ? u->ndisk_total : u->ndisk));
	map_end(w);
}

static void rank(struct walk *w, const struct results *r,
		 const struct res_run *run, const struct res_rank *k)
{
	map_begin(w);
	uint(w, "rank", k->rank > 0 ? (uint64_t)k->rank : 0);
	str(w, "host", k->host);
	boolean(w, "failed", k->failed);
	if (k->failed)
		str(w, "error", k->error);
	real(w, "start_s", k->start_s);
	real(w, "end_s", k->end_s);
	real(w, "window_s", k->window_s);
	uint(w, "ops", k->ops);
	uint(w, "bytes", k->bytes);
	uint(w, "errors", k->errors);
	real(w, "ops_per_s", k->ops_per_s);
	key(w, "flowops");
	list_begin(w);
	for (int j = 0; j < r->nflowops; j++)
		rank_flowop(w, r, run->flowops[j].name, &k->flowops[j]);
	list_end(w);
	real(w, "p50_ns", k->p50_ns);
	real(w, "p99_ns", k->p99_ns);
	boolean(w, "outlier", k->outlier);
	if (k->outlier)
		str(w, "outlier_why", k->outlier_why);
	if (k->usage.measured)
		rank_usage(w, &k->usage);
	map_end(w);
}

/* flowbench-mpi's run: the "clients" block and the "ranks" list. */
static void clients(struct walk *w, const struct results *r,
		    const struct res_run *run)
{
	const struct res_clients *c = run->clients;

	key(w, "clients");
	map_begin(w);
	uint(w, "n", c->n > 0 ? (uint64_t)c->n : 0);
	real(w, "start_skew_s", c->start_skew_s);
	real(w, "clock_error_s", c->clock_error_s);
	real(w, "merge_s", c->merge_s);
	real(w, "wait_s", c->wait_s);
	real(w, "window_s", c->window_s);
	if (c->nominal_s > 0)
		real(w, "window_error_s", c->window_s - c->nominal_s);
	real(w, "lead_s", c->lead_s);
	real(w, "spread_s", c->spread_s);
	real(w, "late_s", c->late_s);
	map_end(w);
	key(w, "ranks");
	list_begin(w);
	for (int i = 0; i < c->n; i++)
		rank(w, r, run, &c->ranks[i]);
	list_end(w);
	key(w, "lost");         /* ranks that stopped answering: no results */
	list_begin(w);
	for (int i = 0; i < c->nlost; i++) {
		map_begin(w);
		uint(w, "rank", c->lost[i].rank > 0 ? (uint64_t)c->lost[i].rank : 0);
		str(w, "host", c->lost[i].host);
		map_end(w);
	}
	list_end(w);
}

/*
 * Whose rules the runs followed ("compat"), where filebench's differed
 * in them ("comparability", one entry per rule that applied), and under
 * filebench's, what is not emulated (comparability.h).
 */
static void comparability(struct walk *w, const struct comparability *c)
{
	enum plan_semantics sem = c ? c->semantics : PLAN_SEM_FLOWBENCH;

	str(w, "compat", plan_semantics_name(sem));
	key(w, "comparability");
	list_begin(w);
	for (int i = 0; c && i < c->n; i++) {
		map_begin(w);
		str(w, "rule", c->notes[i].rule);
		str(w, "section", c->notes[i].section);
		boolean(w, "emulated", c->notes[i].emulated);
		str(w, "effect", c->notes[i].effect);
		if (!isnan(c->notes[i].estimate))
			real(w, "filebench_ops_per_s", c->notes[i].estimate);
		map_end(w);
	}
	list_end(w);
	if (sem == PLAN_SEM_FILEBENCH) {
		key(w, "not_emulated");
		list_begin(w);
		for (int i = 0; comparability_not_emulated[i]; i++)
			str_item(w, comparability_not_emulated[i]);
		list_end(w);
	}
}

/* One process's CPU use (fio's names: usr, sys, ctx, majf, minf). */
static void cpu_fields(struct walk *w, const struct cpu_usage *u)
{
	real(w, "usr_pct", u->user_pct);
	real(w, "sys_pct", u->sys_pct);
	real(w, "usr_s", u->user_s);
	real(w, "sys_s", u->sys_s);
	uint(w, "ctx", u->ctx);
	uint(w, "majf", u->majflt);
	uint(w, "minf", u->minflt);
}

static void disk(struct walk *w, const struct usage_disk *d)
{
	const struct disk_counters *c = &d->u.d;

	map_begin(w);
	str(w, "name", d->name);
	uint(w, "major", d->major);
	uint(w, "minor", d->minor);
	str(w, "on", d->on);
	boolean(w, "found", d->found);
	uint(w, "read_ios", c->ios[DISK_READ]);
	uint(w, "write_ios", c->ios[DISK_WRITE]);
	uint(w, "read_merges", c->merges[DISK_READ]);
	uint(w, "write_merges", c->merges[DISK_WRITE]);
	uint(w, "read_sectors", c->sectors[DISK_READ]);
	uint(w, "write_sectors", c->sectors[DISK_WRITE]);
	uint(w, "read_ticks_ms", c->ticks[DISK_READ]);
	uint(w, "write_ticks_ms", c->ticks[DISK_WRITE]);
	uint(w, "io_ticks_ms", c->io_ticks);
	uint(w, "in_queue_ms", c->in_queue);
	real(w, "util_pct", d->u.util_pct);
	map_end(w);
}

/* What the window cost this client: "usage" (usage.h). */
static void usage(struct walk *w, const struct usage_report *u)
{
	key(w, "usage");
	map_begin(w);
	real(w, "window_s", u->window_s);
	key(w, "cpu");
	list_begin(w);
	for (int i = 0; i < u->ncpu; i++) {
		map_begin(w);
		str(w, "process", u->cpu[i].process);
		uint(w, "instance", u->cpu[i].instance);
		cpu_fields(w, &u->cpu[i].u);
		map_end(w);
	}
	list_end(w);
	key(w, "master");
	map_begin(w);
	cpu_fields(w, &u->master.u);
	map_end(w);
	real(w, "disk_window_s", u->disk_window_s);
	key(w, "disks");
	list_begin(w);
	for (int i = 0; i < u->ndisk; i++)
		disk(w, &u->disk[i]);
	list_end(w);
	key(w, "no_block_device");
	list_begin(w);
	for (int i = 0; i < u->nnone; i++) {
		map_begin(w);
		str(w, "dir", u->none[i].dir);
		str(w, "fstype", u->none[i].fstype);
		map_end(w);
	}
	list_end(w);
	map_end(w);
}

/* Run phases: each phased process's window (res_phase). */
static void phases(struct walk *w, const struct res_run *run)
{
	key(w, "phases");
	list_begin(w);
	for (int i = 0; i < run->nphases; i++) {
		const struct res_phase *ph = &run->phases[i];

		map_begin(w);
		str(w, "process", ph->process);
		boolean(w, "started", ph->started);
		real(w, "start_s", ph->start_s);
		real(w, "end_s", ph->end_s);
		real(w, "window_s", ph->window_s);
		map_end(w);
	}
	list_end(w);
}

static void run(struct walk *w, const struct results *r,
		const struct res_run *run)
{
	const struct res_summary *s = &run->summary;

	map_begin(w);
	uint(w, "index", (uint64_t)run->index);
	str(w, "started", run->started);
	real(w, "elapsed_s", run->elapsed_s);
	boolean(w, "partial", run->partial);
	key(w, "flowops");
	list_begin(w);
	for (int j = 0; j < r->nflowops; j++)
		flowop(w, r, &run->flowops[j]);
	list_end(w);
	key(w, "summary");
	map_begin(w);
	uint(w, "ops", s->ops);
	real(w, "ops_per_s", s->ops_per_s);
	real(w, "rd_per_s", s->rd_per_s);
	real(w, "wr_per_s", s->wr_per_s);
	real(w, "mb_per_s", s->mb_per_s);
	real(w, "ms_per_op", s->ms_per_op);
	map_end(w);
	if (run->clients)
		clients(w, r, run);
	if (run->usage.measured)
		usage(w, &run->usage);
	if (run->nphases)
		phases(w, run);
	map_end(w);
}

static void stat(struct walk *w, const char *k, const struct res_stat *s)
{
	key(w, k);
	map_begin(w);
	real(w, "mean", s->mean);
	real(w, "stdev", s->stdev);
	real(w, "min", s->min);
	real(w, "max", s->max);
	key(w, "ci95");
	list_begin(w);
	real_item(w, s->ci_lo);
	real_item(w, s->ci_hi);
	list_end(w);
	map_end(w);
}

static void agg_stats(struct walk *w, const struct res_agg *a)
{
	stat(w, "ops_per_s", &a->ops_per_s);
	stat(w, "mb_per_s", &a->mb_per_s);
	stat(w, "ms_per_op", &a->ms_per_op);
}

static void aggregate(struct walk *w, const struct results *r)
{
	key(w, "aggregate");
	map_begin(w);
	uint(w, "runs", (uint64_t)r->agg_runs);
	key(w, "flowops");
	list_begin(w);
	for (int j = 0; j < r->nflowops; j++) {
		map_begin(w);
		str(w, "name", r->runs[0].flowops[j].name);
		agg_stats(w, &r->agg[j]);
		map_end(w);
	}
	list_end(w);
	key(w, "summary");
	map_begin(w);
	agg_stats(w, &r->agg_summary);
	map_end(w);
	map_end(w);
}

int results_emit(const struct results *r, const struct doc_sink *sink)
{
	struct walk w = { .s = sink };

	map_begin(&w);
	str(&w, "format", "flowbench-results/1");
	key(&w, "flowbench");
	map_begin(&w);
	str(&w, "version", r->version ? r->version : PACKAGE_VERSION);
	map_end(&w);
	key(&w, "command");
	list_begin(&w);
	for (int i = 0; i < r->argc; i++)
		str_item(&w, r->argv[i]);
	list_end(&w);
	str(&w, "status", results_status_name(r->status));
	str(&w, "error", r->error);
	workload(&w, r);
	uint(&w, "seed", r->seed);
	real(&w, "warmup_s", r->warmup_s);
	real(&w, "interval_s", r->interval_s);
	rerun_options(&w, r);
	rerun_of(&w, r->rerun_of);
	comparability(&w, r->compat);
	environment(&w, &r->env);
	key(&w, "percentiles");
	list_begin(&w);
	for (int k = 0; k < r->npct; k++)
		real_item(&w, r->pct[k]);
	list_end(&w);
	key(&w, "runs");
	list_begin(&w);
	for (int i = 0; i < r->nruns; i++)
		run(&w, r, &r->runs[i]);
	list_end(&w);
	if (r->has_aggregate && r->agg_runs >= 2)
		aggregate(&w, r);
	map_end(&w);
	return w.err ? -1 : 0;
}
