/*
 * sampler.c - psrun snapshots, the --interval series and the status line
 * (see sampler.h).
 *
 * Jobs are due at fixed points: psrun and the series at start + k *
 * period (so a warm-up is never sampled), the status line every second
 * from the release.  A job that runs late reads the statistics when it
 * runs and uses the real time elapsed, so a late reading makes a longer
 * interval, never a wrong rate.  The status line sums op counts only;
 * the other jobs read every thread's statistics and histograms, which for
 * N thread instances and F flowops is N * F * ~36 KiB of memory read per
 * reading (webserver.f's 100 threads x 31 flowops: about 110 MB), so
 * those buffers exist only when psrun or --interval asks for them.
 */
#include "runtime/engine/sampler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/log.h"
#include "runtime/base/units.h"
#include "runtime/measure/text.h"

#define MIN_PERIOD_NS 1000000ull

static uint64_t period_ns(double s)
{
	uint64_t ns = (uint64_t)(s * 1e9);

	return ns < MIN_PERIOD_NS ? MIN_PERIOD_NS : ns;
}

static struct fo_stats *stats_array(size_t n)
{
	return malloc((n + 1) * sizeof(struct fo_stats));
}

int sampler_init(struct sampler *s, const struct plan *p,
		 const struct shared *sh, const struct sampler_options *o)
{
	size_t n = (size_t)p->nflowops;

	memset(s, 0, sizeof(*s));
	s->plan = p;
	s->sh = sh;
	s->opt = *o;
	if (!s->opt.pct || s->opt.npct <= 0) {
		s->opt.pct = stats_default_percentiles;
		s->opt.npct = STATS_DEFAULT_NPERCENTILES;
	}
	status_init(&s->status);
	s->psrun = o->psrun_period != 0;
	s->psrun_diff = o->psrun_period < 0;
	s->series = o->interval_s > 0;
	for (int i = 0; i < p->nflowops; i++)
		s->nlines += p->flowops[i].line == i;
	if (!s->psrun && !s->series)
		return 0;           /* the status line needs no buffer */
	s->cur = stats_array(n);
	s->scratch = stats_array(2);
	if (s->psrun) {
		s->ps_prev = stats_array(n);
		s->ps_out = stats_array(n);
	}
	if (s->series) {
		s->iv_prev = stats_array(n);
		s->iv_out = stats_array(n);
	}
	if (!s->cur || !s->scratch || (s->psrun && (!s->ps_prev || !s->ps_out)) ||
	    (s->series && (!s->iv_prev || !s->iv_out))) {
		sampler_free(s);
		log_error("out of memory");
		return -1;
	}
	for (int i = 0; i < p->nflowops; i++) {
		if (s->psrun)
			fo_stats_init(&s->ps_prev[i]);
		if (s->series)
			fo_stats_init(&s->iv_prev[i]);
	}
	return 0;
}

void sampler_free(struct sampler *s)
{
	free(s->cur);
	free(s->scratch);
	free(s->ps_prev);
	free(s->ps_out);
	free(s->ps_span);
	free(s->iv_prev);
	free(s->iv_out);
	free(s->rows);
	free(s->iv_stats);
	memset(s, 0, sizeof(*s));
}

void sampler_begin(struct sampler *s, uint64_t release_ns, uint64_t start_ns)
{
	s->release_ns = release_ns;
	s->start_ns = start_ns;
	if (s->psrun) {
		double per = s->opt.psrun_period;

		s->ps.period_ns = period_ns(per < 0 ? -per : per);
		s->ps.prev_ns = start_ns;
		s->ps.next_ns = start_ns + s->ps.period_ns;
	}
	if (s->series) {
		s->iv.period_ns = period_ns(s->opt.interval_s);
		s->iv.prev_ns = start_ns;
		s->iv.next_ns = start_ns + s->iv.period_ns;
	}
	if (s->status.on) {
		s->st.period_ns = STATUS_PERIOD_NS;
		s->st.next_ns = release_ns;
	}
}

static uint64_t earlier(uint64_t a, bool on, const struct sampler_clock *c)
{
	return on && c->next_ns < a ? c->next_ns : a;
}

uint64_t sampler_next(const struct sampler *s)
{
	uint64_t n = UINT64_MAX;

	n = earlier(n, s->psrun, &s->ps);
	n = earlier(n, s->series, &s->iv);
	return earlier(n, s->status.on, &s->st);
}

/* Due at `now`?  Then schedule the next one (skipping missed ones). */
static bool due(struct sampler_clock *c, uint64_t now)
{
	if (now < c->next_ns)
		return false;
	while (c->next_ns <= now)
		c->next_ns += c->period_ns;
	return true;
}

static void read_live(struct sampler *s)
{
	shared_sum_stats(s->sh, s->cur, &s->scratch[0], &s->scratch[1]);
}

/*
 * With other clients: this snapshot (ps_out, spanning `span_s`) goes to
 * the coordinator; the merged one is printed by sampler_collect().
 */
static void share_snapshot(struct sampler *s, double span_s)
{
	const struct run_coord *co = s->opt.coord;

	if (s->nps == s->capps) {
		int cap = s->capps ? 2 * s->capps : 16;
		double *g = realloc(s->ps_span, (size_t)cap * sizeof(*g));

		if (!g) {
			s->lost = true;
			return;
		}
		s->ps_span = g;
		s->capps = cap;
	}
	s->ps_span[s->nps++] = span_s;
	co->ops->share(co->ctx, COORD_READING_SNAPSHOT, s->ps_out, s->plan->nflowops);
}

static void psrun_snapshot(struct sampler *s, uint64_t now)
{
	const struct plan *p = s->plan;

	if (s->opt.coord) {
		double span = (double)(now - (s->psrun_diff ? s->ps.prev_ns : s->start_ns)) / 1e9;

		if (s->psrun_diff) {
			for (int i = 0; i < p->nflowops; i++)
				fo_stats_diff(&s->ps_out[i], &s->cur[i], &s->ps_prev[i]);
			memcpy(s->ps_prev, s->cur, (size_t)p->nflowops * sizeof(*s->cur));
		} else {
			memcpy(s->ps_out, s->cur, (size_t)p->nflowops * sizeof(*s->cur));
		}
		if (!s->lost)
			share_snapshot(s, span);
		s->ps.prev_ns = now;
		return;
	}
	sampler_quiet(s);
	if (s->psrun_diff) {
		for (int i = 0; i < p->nflowops; i++)
			fo_stats_diff(&s->ps_out[i], &s->cur[i], &s->ps_prev[i]);
		text_report(stdout, p, s->ps_out, (double)(now - s->ps.prev_ns) / 1e9,
			    s->opt.pct, s->opt.npct);
		memcpy(s->ps_prev, s->cur, (size_t)p->nflowops * sizeof(*s->cur));
	} else {
		text_report(stdout, p, s->cur, (double)(now - s->start_ns) / 1e9,
			    s->opt.pct, s->opt.npct);
	}
	fflush(stdout);
	s->ps.prev_ns = now;
}

/* Room for one more row of the series.  false when out of memory. */
static bool grow_rows(struct sampler *s)
{
	struct interval_row *r;
	int cap;

	if (s->nrows < s->caprows)
		return true;
	cap = s->caprows ? 2 * s->caprows : 64;
	r = realloc(s->rows, (size_t)cap * (size_t)s->nlines * sizeof(*r));
	if (!r)
		return false;
	s->rows = r;
	if (s->opt.coord) {
		struct fo_stats *st = realloc(s->iv_stats, (size_t)cap *
					      (size_t)s->plan->nflowops * sizeof(*st));

		if (!st)
			return false;
		s->iv_stats = st;
	}
	s->caprows = cap;
	return true;
}

/* One line per interval in the log: the IO Summary's totals over it. */
static void log_interval(struct sampler *s, const struct fo_stats *d, int number,
			 double t0, double t1)
{
	struct text_totals t;
	double dt = t1 - t0;
	char lat[32];

	text_io_totals(s->plan, d, &t);
	units_latency(lat, sizeof(lat), t.ops ? (double)t.lat_sum_ns / (double)t.ops : 0);
	log_info("Interval %d (%.2f-%.2f s): %.0f ops/s %.1fmb/s %s/op",
		 number, t0, t1, dt > 0 ? (double)t.ops / dt : 0,
		 dt > 0 ? (double)t.bytes / 1048576.0 / dt : 0, lat);
}

/* Does any report line have ops (or implicit opens) in iv_out? */
static bool any_ops(const struct sampler *s)
{
	for (int i = 0; i < s->plan->nflowops; i++)
		if (s->iv_out[i].op.count || s->iv_out[i].open.count)
			return true;
	return false;
}

/*
 * Append the interval from iv.prev_ns to `now` whose cumulative end is
 * `cum`.  The last one (`last`) is dropped when it is empty and has no
 * length: the run ended on an interval's boundary.
 */
static void add_interval(struct sampler *s, const struct fo_stats *cum,
			 uint64_t now, bool last)
{
	const struct plan *p = s->plan;
	uint64_t from = s->iv.prev_ns, to = now > from ? now : from;
	double t0 = (double)(from - s->start_ns) / 1e9;
	double t1 = (double)(to - s->start_ns) / 1e9;
	struct interval_row *row;

	for (int i = 0; i < p->nflowops; i++)
		fo_stats_diff(&s->iv_out[i], &cum[i], &s->iv_prev[i]);
	memcpy(s->iv_prev, cum, (size_t)p->nflowops * sizeof(*cum));
	s->iv.prev_ns = to;
	if (last && to == from && !any_ops(s))
		return;
	if (s->lost || !grow_rows(s)) {
		s->lost = true;
		return;
	}
	row = &s->rows[(size_t)s->nrows * (size_t)s->nlines];
	for (int i = 0, n = 0; i < p->nflowops; i++)
		if (p->flowops[i].line == i)
			interval_fill(&row[n++], &s->iv_out[i], t1, t1 - t0,
					      s->opt.pct, s->opt.npct);
	if (s->opt.coord) {
		memcpy(&s->iv_stats[(size_t)s->nrows * (size_t)p->nflowops], s->iv_out,
		       (size_t)p->nflowops * sizeof(*s->iv_out));
		s->nrows++;
		s->opt.coord->ops->share(s->opt.coord->ctx, COORD_READING_INTERVAL,
					 s->iv_out, p->nflowops);
		return;         /* printed once merged with the other clients' */
	}
	s->nrows++;
	sampler_quiet(s);
	log_interval(s, s->iv_out, s->nrows, t0, t1);
}

int sampler_replace_series(struct sampler *s, const struct fo_stats *stats, int n,
			   double end_s)
{
	const struct plan *p = s->plan;
	double dt = s->opt.interval_s;
	struct interval_row *rows = calloc((size_t)(n ? n : 1) * (size_t)s->nlines,
					   sizeof(*rows));

	if (!rows) {
		log_warn("out of memory: the interval series is dropped");
		free(s->rows);
		s->rows = NULL;
		s->nrows = 0;
		return -1;
	}
	for (int k = 0; k < n; k++) {
		const struct fo_stats *d = &stats[(size_t)k * (size_t)p->nflowops];
		double t0 = k * dt, t1 = (k + 1) * dt;

		if (t1 > end_s || k == n - 1)
			t1 = end_s > t0 ? end_s : t0;
		for (int i = 0, m = 0; i < p->nflowops; i++)
			if (p->flowops[i].line == i)
				interval_fill(&rows[(size_t)k * (size_t)s->nlines + (size_t)m++],
					      &d[i], t1, t1 - t0, s->opt.pct, s->opt.npct);
		if (k >= s->nlogged)
			log_interval(s, d, k + 1, t0, t1);
	}
	free(s->rows);
	s->rows = rows;
	s->nrows = n;
	s->caprows = n;
	return 0;
}

static void show_status(struct sampler *s, uint64_t now)
{
	uint64_t ops = shared_total_ops(s->sh);

	if (now < s->start_ns)
		status_show(&s->status, "warming up", (double)(now - s->release_ns) / 1e9,
			    s->opt.warmup_s, ops, now);
	else
		status_show(&s->status, "running", (double)(now - s->start_ns) / 1e9,
			    s->opt.runtime_s, ops, now);
}

void sampler_tick(struct sampler *s, uint64_t now)
{
	bool ps = s->psrun && due(&s->ps, now);
	bool iv = s->series && due(&s->iv, now);

	if (ps || iv)
		read_live(s);
	if (ps)
		psrun_snapshot(s, now);
	if (iv)
		add_interval(s, s->cur, now, false);
	if (s->status.on && due(&s->st, now))
		show_status(s, now);
}

void sampler_collect(struct sampler *s)
{
	const struct run_coord *co = s->opt.coord;
	const struct fo_stats *st;
	int seq;

	if (!co || (!s->psrun && !s->series))
		return;
	while ((st = co->ops->merged(co->ctx, COORD_READING_SNAPSHOT, &seq))) {
		if (seq >= s->nps)
			continue;       /* this client took fewer: no span to divide by */
		sampler_quiet(s);
		text_report(stdout, s->plan, st, s->ps_span[seq], s->opt.pct, s->opt.npct);
		fflush(stdout);
	}
	while ((st = co->ops->merged(co->ctx, COORD_READING_INTERVAL, &seq))) {
		double dt = s->opt.interval_s;

		if (seq != s->nlogged || seq >= s->nrows)
			continue;       /* printed after the run, from the final merge */
		/* the clients' readings differ by their lateness: the merged
		   interval spans the nominal period, as in the final series */
		sampler_quiet(s);
		log_interval(s, st, seq + 1, seq * dt, (seq + 1) * dt);
		s->nlogged++;
	}
}

void sampler_quiet(struct sampler *s)
{
	status_clear(&s->status);
}

void sampler_end(struct sampler *s, const struct fo_stats *final, uint64_t end_ns)
{
	sampler_quiet(s);
	if (s->series && final)
		add_interval(s, final, end_ns, true);
	if (s->lost)
		log_warn("out of memory: the interval series is incomplete");
}
