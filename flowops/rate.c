/*
 * rate.c - the flowops paced by the event generator (reference 4.25-4.28).
 *
 * eventlimit takes one event per call.  iopslimit, opslimit and bwlimit
 * charge what their thread did since their previous call: one event per
 * op (iops: of READ/WRITE-marked flowops; ops: of any IO/AIO flowop) or
 * per MiB (bw: bytes of READ/WRITE-marked flowops), of the `target`
 * flowop of this thread if given, else of this thread's own flowops
 * (struct thread_watch).  Unlike filebench they never count their own
 * calls or SYNC/OTHER ops, and count per thread, not per process.
 * Each call records one op whose latency is the time it waited, measured
 * from the call's own start.  A call that must wait for events first
 * reaps the thread's asynchronous requests in flight (thread_quiesce(),
 * flowbench's rules only), so their latencies do not include the wait.
 * With no generator (no eventgen, or rate <= 0) they return at once and
 * record nothing.  A wait ends when the run stops: the call then records
 * nothing and the thread ends.
 *
 * Under --compat filebench the three have variants that count as
 * filebench does (struct thread_tally): without a target, the process
 * instance's read+write ops (iops), all its recorded ops, their own
 * included (ops), or its read+write bytes (bw); a target's implicit
 * opens count as its ops.  As in filebench, the first call that sees a
 * non-zero counter only notes it (no op recorded, nothing charged).
 * Latencies stay measured from each call's own start.
 */
#include <stdlib.h>
#include <string.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "plan/diag.h"
#include "runtime/engine/eventgen.h"
#include "runtime/engine/thread.h"

#define MIB (1024 * 1024)

/* The limit flowops' own attributes. */
enum rate_attr {
	RATE_TARGET = PA_OWN,   /* the flowop of this thread whose ops or bytes count */
	RATE_COUNT
};

/* The target, or NULL: every IO/AIO flowop of the thread. */
static const char *limit_target(const struct plan_flowop *f)
{
	const struct plan_value *v = &f->attr[RATE_TARGET];

	return f->nattr > RATE_TARGET && v->kind == PV_STRING ? v->u.s : NULL;
}

struct limit_priv {
	bool on;                     /* the run has an event generator */
	struct thread_watch watch;   /* flowbench's counter */
	struct thread_tally tally;   /* filebench's (its variants only) */
	uint64_t last;               /* counter at the previous call */
	int64_t debt;                /* ops or bytes not yet paid for */
	int64_t unit;                /* 1 op, or 1 MiB, per event */
};

/* Events that pay a debt of `debt` units of `unit` (rounded up). */
static int64_t events_for(int64_t debt, int64_t unit)
{
	return debt <= 0 ? 0 : (debt + unit - 1) / unit;
}

/*
 * Take `n` events.  A thread that would sleep for them first reaps what
 * it has in flight (thread_quiesce()).  FLOWOP_OK, FLOWOP_DONE or FLOWOP_ERROR.
 */
static inline enum flowop_result take_events(struct fb_thread *t,
					     const struct flowop_inst *fi, int64_t n)
{
	if (t->quiesce && !eventgen_ready(t->ctl, n)) {
		enum flowop_result res = thread_quiesce(t, fi);

		if (res != FLOWOP_OK)
			return res;
	}
	return eventgen_take(t->ctl, n) ? FLOWOP_OK : FLOWOP_DONE;
}

/*
 * The default run functions are flattened: the filebench variants also
 * use thread_record(), and without it the compiler may stop inlining
 * that into them, adding a call to the default path.
 */
static __attribute__((flatten)) enum flowop_result
eventlimit_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct limit_priv *p = fi->priv;
	enum flowop_result res;
	uint64_t t0, t1;

	if (!p->on)
		return FLOWOP_OK;
	t0 = thread_ticks(t);
	res = take_events(t, fi, 1);
	if (res != FLOWOP_OK)
		return res;
	t1 = thread_ticks(t);
	return thread_record(t, fi->stats, &fi->stats->op, t0, t1, 0) ?
	       FLOWOP_OK : FLOWOP_DONE;
}

/*
 * The call that began at t0 read counter `cur`: take the events that
 * pay for its increase since the previous call, then record the op
 * (inlined into each run function, as the default one always was).
 */
static inline __attribute__((always_inline)) enum flowop_result
limit_pay(struct fb_thread *t, struct flowop_inst *fi, struct limit_priv *p,
	  uint64_t t0, uint64_t cur)
{
	uint64_t t1;
	int64_t n;

	p->debt += (int64_t)(cur - p->last);
	p->last = cur;
	n = events_for(p->debt, p->unit);
	if (n > 0) {
		enum flowop_result res = take_events(t, fi, n);

		if (res != FLOWOP_OK)
			return res;
		p->debt -= n * p->unit;
	}
	t1 = thread_ticks(t);
	return thread_record(t, fi->stats, &fi->stats->op, t0, t1, 0) ?
	       FLOWOP_OK : FLOWOP_DONE;
}

static __attribute__((flatten)) enum flowop_result
limit_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct limit_priv *p = fi->priv;
	uint64_t t0;

	if (!p->on)
		return FLOWOP_OK;
	t0 = thread_ticks(t);
	return limit_pay(t, fi, p, t0, thread_watch_read(&p->watch));
}

/*
 * --compat filebench: filebench's counter; until it has seen it
 * non-zero a call only notes it, recording and charging nothing.
 */
static enum flowop_result limit_run_filebench(struct fb_thread *t,
					      struct flowop_inst *fi)
{
	struct limit_priv *p = fi->priv;
	uint64_t t0, cur;

	if (!p->on)
		return FLOWOP_OK;
	t0 = thread_ticks(t);
	cur = thread_tally_read(&p->tally);
	if (p->last == 0) {
		p->last = cur;
		return FLOWOP_OK;
	}
	return limit_pay(t, fi, p, t0, cur);
}

/* The private state, paid in `unit`s per event, or NULL (the run failed). */
static struct limit_priv *limit_priv_new(struct fb_thread *t, struct flowop_inst *fi,
					 unsigned flags)
{
	struct limit_priv *p = calloc(1, sizeof(*p));

	if (!p) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return NULL;
	}
	fi->priv = p;
	p->on = eventgen_rate(t->plan) > 0;
	p->unit = (flags & WATCH_BYTES) ? MIB : 1;
	return p;
}

static int limit_init_flags(struct fb_thread *t, struct flowop_inst *fi,
			    unsigned flags, bool watch)
{
	struct limit_priv *p = limit_priv_new(t, fi, flags);

	if (!p)
		return FLOWOP_ERROR;
	if (!watch)
		return 0;
	return thread_watch_init(t, fi, limit_target(fi->pf), flags, &p->watch);
}

/* --compat filebench: the counter is filebench's (struct thread_tally). */
static int limit_init_filebench(struct fb_thread *t, struct flowop_inst *fi,
				unsigned flags)
{
	struct limit_priv *p = limit_priv_new(t, fi, flags);

	if (!p)
		return FLOWOP_ERROR;
	return thread_tally_init(t, fi, limit_target(fi->pf), flags, &p->tally);
}

static int eventlimit_init(struct fb_thread *t, struct flowop_inst *fi)
{
	return limit_init_flags(t, fi, 0, false);
}

static int iopslimit_init(struct fb_thread *t, struct flowop_inst *fi)
{
	return limit_init_flags(t, fi, WATCH_RW_ONLY, true);
}

static int opslimit_init(struct fb_thread *t, struct flowop_inst *fi)
{
	return limit_init_flags(t, fi, 0, true);
}

static int bwlimit_init(struct fb_thread *t, struct flowop_inst *fi)
{
	return limit_init_flags(t, fi, WATCH_BYTES | WATCH_RW_ONLY, true);
}

static int iopslimit_init_filebench(struct fb_thread *t, struct flowop_inst *fi)
{
	return limit_init_filebench(t, fi, WATCH_RW_ONLY);
}

static int opslimit_init_filebench(struct fb_thread *t, struct flowop_inst *fi)
{
	return limit_init_filebench(t, fi, 0);
}

static int bwlimit_init_filebench(struct fb_thread *t, struct flowop_inst *fi)
{
	return limit_init_filebench(t, fi, WATCH_BYTES | WATCH_RW_ONLY);
}

static void limit_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	struct limit_priv *p = fi->priv;

	(void)t;
	if (p) {
		thread_watch_free(&p->watch);
		thread_tally_free(&p->tally);
	}
	free(p);
	fi->priv = NULL;
}

/* A target must be a flowop of the same thread; iops/bw: a read or write. */
static int limit_validate(const struct plan *p, const struct plan_flowop *f,
			  struct diag *d)
{
	const char *target = limit_target(f);
	bool rw_only = strcmp(f->ops->name, "opslimit") != 0;
	const struct plan_flowop *found = NULL;

	if (!target || !*target)
		return 0;
	for (int i = 0; i < p->nflowops && !found; i++) {
		if (p->flowops[i].thread == f->thread && !strcmp(p->flowops[i].name, target))
			found = &p->flowops[i];
	}
	if (!found) {
		diag_error(d, f->attr[RATE_TARGET].loc,
			   "flowop %s: target '%s' is not a flowop of thread %s",
			   f->name, target, p->threads[f->thread].name);
		return 1;
	}
	if (rw_only && !(found->ops->rw & (FLOWOP_RW_READ | FLOWOP_RW_WRITE))) {
		diag_error(d, f->attr[RATE_TARGET].loc,
			   "flowop %s: the target of %s must read or write data, "
			   "and '%s' is a %s", f->name, f->ops->name, target,
			   found->ops->name);
		return 1;
	}
	return 0;
}

/*
 * Its private state and, for the watching ones, the table of statistics
 * blocks it watches (at most one per flowop of the thread).
 */
static void limit_need(const struct plan *p, const struct plan_flowop *f,
		       struct flowop_need *n)
{
	n->mem = sizeof(struct limit_priv) +
		 ((uint64_t)p->threads[f->thread].nflowops + 1) * sizeof(void *);
}

/* The same, with room for filebench's process-wide counter. */
static void limit_need_filebench(const struct plan *p, const struct plan_flowop *f,
				 struct flowop_need *n)
{
	limit_need(p, f, n);
	n->mem += thread_tally_mem(p, f);
}

static const struct attr_spec limit_attrs[] = {
	{ "target", T_STRING, RATE_TARGET,
	  "the flowop of this thread whose ops or bytes are paid for" },
	{ NULL, 0, 0, NULL }
};

static const struct flowop_ops fo_eventlimit = {
	.name = "eventlimit",
	.cls = FLOWOP_CLASS_OTHER,
	.need = limit_need,
	.init = eventlimit_init,
	.run = eventlimit_run,
	.fini = limit_fini,
};

/* filebench's variants (--compat filebench): its counters. */
static const struct flowop_ops fo_iopslimit_filebench = {
	.name = "iopslimit",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = limit_attrs,
	.validate = limit_validate,
	.need = limit_need_filebench,
	.init = iopslimit_init_filebench,
	.run = limit_run_filebench,
	.fini = limit_fini,
};

static const struct flowop_ops fo_opslimit_filebench = {
	.name = "opslimit",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = limit_attrs,
	.validate = limit_validate,
	.need = limit_need_filebench,
	.init = opslimit_init_filebench,
	.run = limit_run_filebench,
	.fini = limit_fini,
};

static const struct flowop_ops fo_bwlimit_filebench = {
	.name = "bwlimit",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = limit_attrs,
	.validate = limit_validate,
	.need = limit_need_filebench,
	.init = bwlimit_init_filebench,
	.run = limit_run_filebench,
	.fini = limit_fini,
};

static const struct flowop_ops fo_iopslimit = {
	.name = "iopslimit",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = limit_attrs,
	.validate = limit_validate,
	.need = limit_need,
	.init = iopslimit_init,
	.run = limit_run,
	.fini = limit_fini,
	.filebench = &fo_iopslimit_filebench,
};

static const struct flowop_ops fo_opslimit = {
	.name = "opslimit",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = limit_attrs,
	.validate = limit_validate,
	.need = limit_need,
	.init = opslimit_init,
	.run = limit_run,
	.fini = limit_fini,
	.filebench = &fo_opslimit_filebench,
};

static const struct flowop_ops fo_bwlimit = {
	.name = "bwlimit",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = limit_attrs,
	.validate = limit_validate,
	.need = limit_need,
	.init = bwlimit_init,
	.run = limit_run,
	.fini = limit_fini,
	.filebench = &fo_bwlimit_filebench,
};

const struct flowop_ops *const flowops_rate[] = {
	&fo_eventlimit, &fo_iopslimit, &fo_opslimit, &fo_bwlimit, NULL,
};
