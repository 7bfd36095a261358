/*
 * finish.c - finishoncount and finishonbytes (reference 4.29, 4.30).
 *
 * Each call compares a counter of this thread with `value` (read once,
 * at start) and, at the limit, returns FLOWOP_NORSC marked as a finish limit
 * (thread_finish_reached()): the run then ends normally WITH results in
 * every quit mode (timeout and firstdone: the whole run; alldone: this
 * thread).  The counter is the ops (or bytes) of the `target` flowop of
 * this thread if given, else of this thread's IO/AIO-class flowops
 * (struct thread_watch): unlike filebench, never the finish flowop
 * itself, limit flowops or SYNC/OTHER flowops, and per thread rather
 * than per process.  finishoncount stops when count >= value,
 * finishonbytes when bytes > value, as in filebench.  Each call records
 * one op.
 *
 * Under --compat filebench their variants count as filebench does
 * (struct thread_tally): without a target, every op (byte) recorded by
 * this process instance, their own and other limits' included; the
 * target's implicit opens count as its ops.  The end of the run stays
 * flowbench's: results in every quit mode.
 */
#include <stdlib.h>
#include <string.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "plan/diag.h"
#include "runtime/engine/thread.h"

/* The finish flowops' own attributes. */
enum finish_attr {
	FIN_VALUE = PA_OWN,   /* the limit */
	FIN_TARGET,           /* the flowop of this thread whose ops or bytes count */
	FIN_COUNT
};

static const char *finish_target(const struct plan_flowop *f)
{
	const struct plan_value *v = &f->attr[FIN_TARGET];

	return v->kind == PV_STRING ? v->u.s : NULL;
}

struct finish_priv {
	struct thread_watch watch;   /* flowbench's counter */
	struct thread_tally tally;   /* filebench's (its variants only) */
	uint64_t limit;
};

/* The private state with its limit, or NULL (the run failed). */
static struct finish_priv *finish_priv_new(struct fb_thread *t, struct flowop_inst *fi)
{
	struct finish_priv *p = calloc(1, sizeof(*p));
	double v;

	if (!p) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return NULL;
	}
	fi->priv = p;
	v = thread_attr_double(t, fi->pf, FIN_VALUE, 0);
	p->limit = v > 0 ? (v < 1.8e19 ? (uint64_t)v : UINT64_MAX) : 0;
	return p;
}

static int finish_init_flags(struct fb_thread *t, struct flowop_inst *fi,
			     unsigned flags)
{
	struct finish_priv *p = finish_priv_new(t, fi);

	if (!p)
		return FLOWOP_ERROR;
	return thread_watch_init(t, fi, finish_target(fi->pf), flags, &p->watch);
}

static int count_init(struct fb_thread *t, struct flowop_inst *fi)
{
	return finish_init_flags(t, fi, 0);
}

static int bytes_init(struct fb_thread *t, struct flowop_inst *fi)
{
	return finish_init_flags(t, fi, WATCH_BYTES);
}

/* --compat filebench: the counter is filebench's (struct thread_tally). */
static int finish_init_filebench(struct fb_thread *t, struct flowop_inst *fi,
				 unsigned flags)
{
	struct finish_priv *p = finish_priv_new(t, fi);

	if (!p)
		return FLOWOP_ERROR;
	return thread_tally_init(t, fi, finish_target(fi->pf), flags, &p->tally);
}

static int count_init_filebench(struct fb_thread *t, struct flowop_inst *fi)
{
	return finish_init_filebench(t, fi, 0);
}

static int bytes_init_filebench(struct fb_thread *t, struct flowop_inst *fi)
{
	return finish_init_filebench(t, fi, WATCH_BYTES);
}

static void finish_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	struct finish_priv *p = fi->priv;

	(void)t;
	if (p) {
		thread_watch_free(&p->watch);
		thread_tally_free(&p->tally);
	}
	free(p);
	fi->priv = NULL;
}

/*
 * The call that began at t0 read counter `c`: record its op, and end
 * the run at the limit (reached_if_equal: count >= value, else >).
 * One out-of-line copy that every run function jumps to, as the default
 * ones always did: the only user of thread_record() here, which it
 * inlines.
 */
static __attribute__((noinline)) enum flowop_result
finish_judge(struct fb_thread *t, struct flowop_inst *fi, uint64_t t0, uint64_t c,
	     bool reached_if_equal)
{
	const struct finish_priv *p = fi->priv;
	uint64_t t1 = thread_ticks(t);

	if (!thread_record(t, fi->stats, &fi->stats->op, t0, t1, 0))
		return FLOWOP_DONE;
	if (c > p->limit || (reached_if_equal && c == p->limit)) {
		thread_finish_reached(t);
		return FLOWOP_NORSC;
	}
	return FLOWOP_OK;
}

static enum flowop_result count_run(struct fb_thread *t, struct flowop_inst *fi)
{
	const struct finish_priv *p = fi->priv;
	uint64_t t0 = thread_ticks(t);

	return finish_judge(t, fi, t0, thread_watch_read(&p->watch), true);
}

static enum flowop_result bytes_run(struct fb_thread *t, struct flowop_inst *fi)
{
	const struct finish_priv *p = fi->priv;
	uint64_t t0 = thread_ticks(t);

	return finish_judge(t, fi, t0, thread_watch_read(&p->watch), false);
}

/* --compat filebench: the counter read before this call's op is recorded. */
static enum flowop_result count_run_filebench(struct fb_thread *t,
					      struct flowop_inst *fi)
{
	const struct finish_priv *p = fi->priv;
	uint64_t t0 = thread_ticks(t);

	return finish_judge(t, fi, t0, thread_tally_read(&p->tally), true);
}

static enum flowop_result bytes_run_filebench(struct fb_thread *t,
					      struct flowop_inst *fi)
{
	const struct finish_priv *p = fi->priv;
	uint64_t t0 = thread_ticks(t);

	return finish_judge(t, fi, t0, thread_tally_read(&p->tally), false);
}

/* A finish flowop needs its limit; a target must be a flowop of its thread. */
static int finish_validate(const struct plan *p, const struct plan_flowop *f,
			   struct diag *d)
{
	const char *target = finish_target(f);
	int errs = 0;

	if (!plan_attr_given(f, FIN_VALUE)) {
		diag_error(d, f->loc, "flowop %s: %s needs a limit (value=N)", f->name,
			   f->ops->name);
		errs++;
	} else if (f->attr[FIN_VALUE].kind == PV_STRING) {
		diag_error(d, f->attr[FIN_VALUE].loc, "flowop %s: value must be a number",
			   f->name);
		errs++;
	}
	if (target && *target) {
		bool found = false;

		for (int i = 0; i < p->nflowops && !found; i++)
			found = p->flowops[i].thread == f->thread &&
				!strcmp(p->flowops[i].name, target);
		if (!found) {
			diag_error(d, f->attr[FIN_TARGET].loc,
				   "flowop %s: target '%s' is not a flowop of thread %s",
				   f->name, target, p->threads[f->thread].name);
			errs++;
		}
	}
	return errs;
}

/* Its private state and the statistics blocks it watches (one per flowop at most). */
static void finish_need(const struct plan *p, const struct plan_flowop *f,
			struct flowop_need *n)
{
	n->mem = sizeof(struct finish_priv) +
		 ((uint64_t)p->threads[f->thread].nflowops + 1) * sizeof(void *);
}

/* The same, with room for filebench's process-wide counter. */
static void finish_need_filebench(const struct plan *p, const struct plan_flowop *f,
				  struct flowop_need *n)
{
	finish_need(p, f, n);
	n->mem += thread_tally_mem(p, f);
}

static const struct attr_spec finish_attrs[] = {
	{ "value", T_ANY, FIN_VALUE, "the limit: ops, or bytes" },
	{ "target", T_STRING, FIN_TARGET,
	  "the flowop of this thread whose ops or bytes count" },
	{ NULL, 0, 0, NULL }
};

/* filebench's variants (--compat filebench): its counters. */
static const struct flowop_ops fo_finishoncount_filebench = {
	.name = "finishoncount",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = finish_attrs,
	.validate = finish_validate,
	.need = finish_need_filebench,
	.init = count_init_filebench,
	.run = count_run_filebench,
	.fini = finish_fini,
};

static const struct flowop_ops fo_finishonbytes_filebench = {
	.name = "finishonbytes",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = finish_attrs,
	.validate = finish_validate,
	.need = finish_need_filebench,
	.init = bytes_init_filebench,
	.run = bytes_run_filebench,
	.fini = finish_fini,
};

static const struct flowop_ops fo_finishoncount = {
	.name = "finishoncount",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = finish_attrs,
	.validate = finish_validate,
	.need = finish_need,
	.init = count_init,
	.run = count_run,
	.fini = finish_fini,
	.filebench = &fo_finishoncount_filebench,
};

static const struct flowop_ops fo_finishonbytes = {
	.name = "finishonbytes",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = finish_attrs,
	.validate = finish_validate,
	.need = finish_need,
	.init = bytes_init,
	.run = bytes_run,
	.fini = finish_fini,
	.filebench = &fo_finishonbytes_filebench,
};

const struct flowop_ops *const flowops_finish[] = {
	&fo_finishoncount, &fo_finishonbytes, NULL,
};
