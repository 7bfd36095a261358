/*
 * fbestimate.c - filebench's op count and rate for a run, estimated from
 * the plan and the run's counts (why and how: fbestimate.h).
 */
#include "runtime/results/fbestimate.h"

#include <math.h>
#include <string.h>

#include "plan/flowop.h"
#include "runtime/measure/stats.h"

/* Flowop `f`'s attribute `name` (from its family's table), or NULL. */
static const struct plan_value *attr_named(const struct plan_flowop *f,
					   const char *name)
{
	for (const struct attr_spec *a = f->ops->attrs; a && a->name; a++)
		if (strcmp(a->name, name) == 0 && a->index < f->nattr)
			return &f->attr[a->index];
	return NULL;
}

/*
 * The limit of a finish flowop that counts its whole process in
 * filebench (no `target`), or 0 when `f` is not one.
 */
static uint64_t process_limit(const struct plan_flowop *f, const char *kind)
{
	const struct plan_value *v, *target;
	int64_t n;

	if (strcmp(f->ops->name, kind) != 0)
		return 0;
	target = attr_named(f, "target");
	if (target && target->kind != PV_UNSET)
		return 0;
	v = attr_named(f, "value");
	n = v ? plan_value_int(v, 0) : 0;
	return n > 0 ? (uint64_t)n : 0;
}

/* Is `f` counted in filebench's IO Summary (class exactly IO or AIO)? */
static bool io_summary(const struct plan_flowop *f)
{
	return f->ops && (f->ops->cls == FLOWOP_CLASS_IO ||
			  f->ops->cls == FLOWOP_CLASS_AIO);
}

/*
 * The share of this run's work process `proc` would have done under
 * filebench's finish limits: each instance counts every op (byte) its
 * threads recorded, implicit opens and the limits' own calls included,
 * against the smallest limit of its threads.  1 when no limit would fire.
 */
static double proc_fraction(const struct plan *p, const struct run_outcome *o,
			    int proc)
{
	uint64_t ops = 0, bytes = 0, count_limit = 0, byte_limit = 0;
	double inst = (double)p->procs[proc].instances, frac = 1;

	for (int i = 0; i < p->nflowops; i++) {
		const struct plan_flowop *f = &p->flowops[i];
		const struct fo_stats *s = &o->stats[i];
		uint64_t c, b;

		if (!f->ops || p->threads[f->thread].proc != proc)
			continue;
		ops += s->op.count + s->open.count;
		bytes += s->op.bytes + s->open.bytes;
		c = process_limit(f, "finishoncount");
		b = process_limit(f, "finishonbytes");
		if (c && (!count_limit || c < count_limit))
			count_limit = c;
		if (b && (!byte_limit || b < byte_limit))
			byte_limit = b;
	}
	if (inst < 1)
		inst = 1;
	/* finishoncount stops at count >= value, finishonbytes at bytes > value */
	if (count_limit && (double)ops > (double)count_limit * inst)
		frac = fmin(frac, (double)count_limit * inst / (double)ops);
	if (byte_limit && (double)bytes > (double)byte_limit * inst)
		frac = fmin(frac, (double)byte_limit * inst / (double)bytes);
	return frac;
}

double fbestimate_whole_seconds(double t, double runtime_s)
{
	double w = ceil(t - 1e-9);

	if (w < 1)
		w = 1;
	if (runtime_s > 0 && w > ceil(runtime_s - 1e-9))
		w = ceil(runtime_s - 1e-9);
	return w;
}

void fbestimate_run(const struct plan *p, const struct run_outcome *o,
		    struct fbestimate *e)
{
	double first = 1, last = 0, ops = 0;
	bool all_limited = p->nprocs > 0;

	memset(e, 0, sizeof(*e));
	e->fraction = 1;
	e->elapsed_s = o->elapsed_s;
	if (!o->stats)
		return;
	for (int k = 0; k < p->nprocs; k++) {
		double f = p->semantics == PLAN_SEM_FILEBENCH ? 1 : proc_fraction(p, o, k);

		first = fmin(first, f);
		last = fmax(last, f);
		all_limited &= f < 1;
	}
	e->fraction = p->quit_mode == QUIT_ALLDONE ? last : first;
	/* filebench ends a timeout-mode run whose finish limit fires without results */
	e->no_results = p->quit_mode == QUIT_TIMEOUT && !p->has_phases &&
			(first < 1 || o->finish_fired);
	for (int i = 0; i < p->nflowops; i++) {
		const struct plan_flowop *f = &p->flowops[i];
		uint64_t n = o->stats[i].op.count + o->stats[i].open.count;
		double share = p->quit_mode == QUIT_ALLDONE && p->semantics != PLAN_SEM_FILEBENCH ?
			       proc_fraction(p, o, p->threads[f->thread].proc) : first;

		if (!io_summary(f))
			continue;
		e->our_ops += n;
		ops += share * (double)n;
	}
	e->ops = (uint64_t)llround(ops);
	switch (p->quit_mode) {
	case QUIT_FIRSTDONE:
		e->ends_itself = o->ended_itself || first < 1;
		break;
	case QUIT_ALLDONE:
		e->ends_itself = o->ended_itself || all_limited;
		break;
	case QUIT_TIMEOUT:
		e->ends_itself = o->ended_itself && !e->no_results;
		break;
	}
	if (e->ends_itself) {
		e->end_s = e->fraction * o->elapsed_s;
		e->elapsed_s = fbestimate_whole_seconds(e->end_s, p->runtime_s);
	}
	e->ops_per_s = e->elapsed_s > 0 ? (double)e->ops / e->elapsed_s : 0;
}
