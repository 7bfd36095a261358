/*
 * finish.c - finishoncount and finishonbytes (reference 4.29, 4.30).
 *
 * Each call compares a counter of this thread with `value` (read once,
 * at start) and, at the limit, returns FO_NORSC marked as a finish limit
 * (thread_finish_reached()): the run then ends normally WITH results in
 * every quit mode (timeout and firstdone: the whole run; alldone: this
 * thread).  The counter is the ops (or bytes) of the `target` flowop of
 * this thread if given, else of this thread's IO/AIO-class flowops
 * (struct thread_watch): unlike filebench, never the finish flowop
 * itself, limit flowops or SYNC/OTHER flowops, and per thread rather
 * than per process.  finishoncount stops when count >= value,
 * finishonbytes when bytes > value, as in filebench.  Each call records
 * one op.
 */
#include <stdlib.h>
#include <string.h>

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
	struct thread_watch watch;
	uint64_t limit;
};

static int finish_init_flags(struct fb_thread *t, struct flowop_inst *fi,
			     unsigned flags)
{
	struct finish_priv *p = calloc(1, sizeof(*p));
	double v;

	if (!p) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return FO_ERROR;
	}
	fi->priv = p;
	v = thread_attr_double(t, fi->pf, FIN_VALUE, 0);
	p->limit = v > 0 ? (v < 1.8e19 ? (uint64_t)v : UINT64_MAX) : 0;
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

static void finish_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	struct finish_priv *p = fi->priv;

	(void)t;
	if (p)
		thread_watch_free(&p->watch);
	free(p);
	fi->priv = NULL;
}

static enum fo_result finish_check(struct fb_thread *t, struct flowop_inst *fi,
				   bool reached_if_equal)
{
	struct finish_priv *p = fi->priv;
	uint64_t t0 = thread_ticks(t);
	uint64_t c = thread_watch_read(&p->watch);
	uint64_t t1 = thread_ticks(t);

	if (!thread_record(t, fi->stats, &fi->stats->op, t0, t1, 0))
		return FO_DONE;
	if (c > p->limit || (reached_if_equal && c == p->limit)) {
		thread_finish_reached(t);
		return FO_NORSC;
	}
	return FO_OK;
}

static enum fo_result count_run(struct fb_thread *t, struct flowop_inst *fi)
{
	return finish_check(t, fi, true);
}

static enum fo_result bytes_run(struct fb_thread *t, struct flowop_inst *fi)
{
	return finish_check(t, fi, false);
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

static const struct attr_spec finish_attrs[] = {
	{ "value", T_ANY, FIN_VALUE, "the limit: ops, or bytes" },
	{ "target", T_STRING, FIN_TARGET,
	  "the flowop of this thread whose ops or bytes count" },
	{ NULL, 0, 0, NULL }
};

static const struct flowop_ops fo_finishoncount = {
	.name = "finishoncount",
	.cls = FO_CLASS_OTHER,
	.attrs = finish_attrs,
	.validate = finish_validate,
	.need = finish_need,
	.init = count_init,
	.run = count_run,
	.fini = finish_fini,
};

static const struct flowop_ops fo_finishonbytes = {
	.name = "finishonbytes",
	.cls = FO_CLASS_OTHER,
	.attrs = finish_attrs,
	.validate = finish_validate,
	.need = finish_need,
	.init = bytes_init,
	.run = bytes_run,
	.fini = finish_fini,
};

const struct flowop_ops *const flowops_finish[] = {
	&fo_finishoncount, &fo_finishonbytes, NULL,
};
