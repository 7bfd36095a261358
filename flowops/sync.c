/*
 * sync.c - block/wakeup and semblock/sempost across threads and processes
 * (reference 4.21-4.24), without System V IPC.
 *
 * Every instance of a block or semblock flowop owns a struct shared_sync in
 * the shared region (its thread slot's object for that flowop).  A
 * wakeup or sempost resolves its `target` once, at start, to the objects
 * of every instance of every block (semblock) flowop of that name in
 * every process.
 *
 * block/wakeup count: each wakeup adds one pass to each target instance
 * and each block consumes one, waiting while it has none.  So a wakeup
 * sent while the blocker is not yet waiting is kept, not lost as in
 * filebench, and over a run a block completes exactly as many times as
 * it was woken (at most).
 * semblock/sempost keep filebench's two counters per semblock instance:
 * `count` (posted units) and `hw` (credit, initially `highwater`).
 * semblock adds `value` to hw and takes `value` from count, waiting;
 * sempost adds `value` to each target's count and, with `blocking`,
 * takes `value` from its hw, waiting: posters run at most `highwater`
 * units ahead.  `value` defaults to 1.
 * Waits sleep on the object's event count and end when the run stops
 * (the master wakes every object); an interrupted wait records nothing.
 * block, semblock and sempost record one op per call, wakeup one op per
 * target instance, as in filebench.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "plan/diag.h"
#include "runtime/engine/thread.h"

/* A sleeping waiter re-checks the halt word at least this often. */
#define SYNC_RECHECK_NS 1000000000ull

static const struct flowop_ops fo_block, fo_semblock;

/* The sync flowops' own attributes. */
enum sync_attr {
	SYNC_TARGET = PA_OWN,  /* wakeup, sempost: the block/semblock flowop */
	SYNC_VALUE,            /* semblock, sempost: units, default 1 */
	SYNC_HIGHWATER,        /* semblock: initial credit, default 1 */
	SYNC_BLOCKING,         /* sempost: wait for credit */
	SYNC_COUNT
};

struct sync_targets {
	struct shared_sync **obj;
	uint64_t n;
};

static const char *target_of(const struct plan_flowop *pf)
{
	const struct plan_value *v = &pf->attr[SYNC_TARGET];

	return v->kind == PV_STRING && *v->u.s ? v->u.s : NULL;
}

/* Add `v` to *field and wake the object's waiters. */
static void sync_add(struct shared_sync *o, _Atomic int64_t *field, int64_t v)
{
	atomic_fetch_add(field, v);
	shared_waitq_wake(&o->q, INT_MAX);
}

/*
 * Take `v` units from *field as one piece, sleeping while fewer are
 * there.  False when the run stopped first (nothing taken).
 */
static bool sync_take(struct fb_thread *t, struct shared_sync *o,
		      _Atomic int64_t *field, int64_t v)
{
	for (;;) {
		uint32_t seq = shared_waitq_seq(&o->q);
		int64_t cur = atomic_load(field);

		if (cur >= v) {
			if (atomic_compare_exchange_weak(field, &cur, cur - v))
				return true;
			continue;
		}
		if (thread_halted(t))
			return false;
		shared_waitq_wait(&o->q, seq, SYNC_RECHECK_NS);
	}
}

static int64_t sync_value(struct fb_thread *t, const struct plan_flowop *pf)
{
	double v = thread_attr_double(t, pf, SYNC_VALUE, 1);

	return v > 0 ? (v < 9e18 ? (int64_t)v : INT64_MAX) : 0;
}

/* This thread instance's object for flowop instance `fi`. */
static struct shared_sync *own_object(struct fb_thread *t, const struct flowop_inst *fi)
{
	return &t->sync[thread_entry_index(t, fi)];
}

/* Every instance of every `ops` flowop named by fi's target. */
static int targets_init(struct fb_thread *t, struct flowop_inst *fi,
			const struct flowop_ops *ops)
{
	const struct plan *p = t->plan;
	const struct shared *sh = t->sh;
	const char *target = target_of(fi->pf);
	struct sync_targets *st = calloc(1, sizeof(*st));
	uint64_t n = 0;

	fi->priv = st;
	if (!st)
		goto nomem;
	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t s = 0; s < sh->nslots; s++) {
			const struct plan_thread *pt = &p->threads[sh->slots[s].thread];

			for (int k = 0; k < pt->nflowops; k++) {
				const struct plan_flowop *f = &p->flowops[pt->first_flowop + k];

				if (f->ops != ops || !target || strcmp(f->name, target))
					continue;
				if (pass == 1)
					st->obj[st->n++] = &sh->slots[s].sync[k];
				else
					n++;
			}
		}
		if (pass == 0) {
			if (n == 0) {
				thread_fail(t, "flowop %s: no %s flowop named '%s'",
					    fi->pf->name, ops->name, target ? target : "");
				return FLOWOP_ERROR;
			}
			st->obj = calloc(n, sizeof(*st->obj));
			if (!st->obj)
				goto nomem;
		}
	}
	return 0;
nomem:
	thread_fail(t, "flowop %s: out of memory", fi->pf->name);
	return FLOWOP_ERROR;
}

static void targets_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	struct sync_targets *st = fi->priv;

	(void)t;
	if (st)
		free(st->obj);
	free(st);
	fi->priv = NULL;
}

static int wakeup_init(struct fb_thread *t, struct flowop_inst *fi)
{
	return targets_init(t, fi, &fo_block);
}

static int sempost_init(struct fb_thread *t, struct flowop_inst *fi)
{
	return targets_init(t, fi, &fo_semblock);
}

static enum flowop_result record(struct fb_thread *t, struct flowop_inst *fi,
				 uint64_t t0)
{
	uint64_t t1 = thread_ticks(t);

	return thread_record(t, fi->stats, &fi->stats->op, t0, t1, 0) ?
	       FLOWOP_OK : FLOWOP_DONE;
}

static enum flowop_result block_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct shared_sync *o = own_object(t, fi);
	uint64_t t0 = thread_ticks(t);

	if (!sync_take(t, o, &o->count, 1))
		return FLOWOP_DONE;
	return record(t, fi, t0);
}

static enum flowop_result wakeup_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct sync_targets *st = fi->priv;

	for (uint64_t i = 0; i < st->n; i++) {
		uint64_t t0 = thread_ticks(t);
		enum flowop_result r;

		sync_add(st->obj[i], &st->obj[i]->count, 1);
		r = record(t, fi, t0);
		if (r != FLOWOP_OK)
			return r;
	}
	return FLOWOP_OK;
}

static int semblock_init(struct fb_thread *t, struct flowop_inst *fi)
{
	struct shared_sync *o = own_object(t, fi);

	/* Before the barrier, so before any sempost can run. */
	atomic_fetch_add(&o->hw, plan_attr_int(fi->pf, SYNC_HIGHWATER, 1));
	return 0;
}

static enum flowop_result semblock_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct shared_sync *o = own_object(t, fi);
	int64_t v = sync_value(t, fi->pf);
	uint64_t t0 = thread_ticks(t);

	sync_add(o, &o->hw, v);
	if (!sync_take(t, o, &o->count, v))
		return FLOWOP_DONE;
	return record(t, fi, t0);
}

static enum flowop_result sempost_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct sync_targets *st = fi->priv;
	int64_t v = sync_value(t, fi->pf);
	bool blocking = plan_attr_bool(fi->pf, SYNC_BLOCKING, false);
	uint64_t t0 = thread_ticks(t);

	for (uint64_t i = 0; i < st->n; i++) {
		struct shared_sync *o = st->obj[i];

		sync_add(o, &o->count, v);
		if (blocking && !sync_take(t, o, &o->hw, v))
			return FLOWOP_DONE;
	}
	return record(t, fi, t0);
}

/* wakeup/sempost: the target must name a block/semblock flowop. */
static int target_validate(const struct plan *p, const struct plan_flowop *f,
			   struct diag *d, const struct flowop_ops *ops)
{
	const char *target = target_of(f);

	if (!target) {
		diag_error(d, f->loc, "flowop %s: %s needs a target (target=<%s flowop name>)",
			   f->name, f->ops->name, ops->name);
		return 1;
	}
	for (int i = 0; i < p->nflowops; i++) {
		if (p->flowops[i].ops == ops && !strcmp(p->flowops[i].name, target))
			return 0;
	}
	diag_error(d, f->attr[SYNC_TARGET].loc, "flowop %s: no %s flowop named '%s'",
		   f->name, ops->name, target);
	return 1;
}

static int wakeup_validate(const struct plan *p, const struct plan_flowop *f,
			   struct diag *d)
{
	return target_validate(p, f, d, &fo_block);
}

static int sempost_validate(const struct plan *p, const struct plan_flowop *f,
			    struct diag *d)
{
	return target_validate(p, f, d, &fo_semblock);
}

static int semblock_validate(const struct plan *p, const struct plan_flowop *f,
			     struct diag *d)
{
	(void)p;
	if (f->attr[SYNC_HIGHWATER].kind == PV_RANDOM ||
	    f->attr[SYNC_HIGHWATER].kind == PV_STRING) {
		diag_error(d, f->attr[SYNC_HIGHWATER].loc,
			   "flowop %s: highwater must be a fixed number", f->name);
		return 1;
	}
	return 0;
}

/*
 * wakeup/sempost: their table of target objects, one per instance of
 * every `ops` flowop named by the target in the run (targets_init()).
 */
static void targets_need(const struct plan *p, const struct plan_flowop *f,
			 struct flowop_need *n, const struct flowop_ops *ops)
{
	const char *target = target_of(f);
	uint64_t objs = 0;

	for (int i = 0; target && i < p->nflowops; i++) {
		const struct plan_flowop *g = &p->flowops[i];
		const struct plan_thread *pt = &p->threads[g->thread];

		if (g->ops == ops && !strcmp(g->name, target))
			objs = plan_sat_add(objs, plan_sat_mul(pt->instances,
							       p->procs[pt->proc].instances));
	}
	n->mem = plan_sat_add(sizeof(struct sync_targets),
			      plan_sat_mul(objs, sizeof(struct shared_sync *)));
}

static void wakeup_need(const struct plan *p, const struct plan_flowop *f,
			struct flowop_need *n)
{
	targets_need(p, f, n, &fo_block);
}

static void sempost_need(const struct plan *p, const struct plan_flowop *f,
			 struct flowop_need *n)
{
	targets_need(p, f, n, &fo_semblock);
}

#define SYNC_ATTR_TARGET(what)                                          \
	{ "target", T_STRING, SYNC_TARGET, "the " what " flowop to post to" }
#define SYNC_ATTR_VALUE                                                 \
	{ "value", T_ANY, SYNC_VALUE, "units to take or post (default 1)" }

static const struct attr_spec wakeup_attrs[] = {
	SYNC_ATTR_TARGET("block"),
	{ NULL, 0, 0, NULL }
};

static const struct attr_spec semblock_attrs[] = {
	SYNC_ATTR_VALUE,
	{ "highwater", T_SIZE, SYNC_HIGHWATER, "initial credit (default 1)" },
	{ NULL, 0, 0, NULL }
};

static const struct attr_spec sempost_attrs[] = {
	SYNC_ATTR_VALUE,
	SYNC_ATTR_TARGET("semblock"),
	{ "blocking", T_BOOL, SYNC_BLOCKING,
	  "wait for credit: run at most highwater units ahead" },
	{ NULL, 0, 0, NULL }
};

static const struct flowop_ops fo_block = {
	.name = "block",
	.cls = FLOWOP_CLASS_SYNC,
	.run = block_run,
};

static const struct flowop_ops fo_wakeup = {
	.name = "wakeup",
	.cls = FLOWOP_CLASS_SYNC,
	.attrs = wakeup_attrs,
	.nattr = SYNC_COUNT,
	.validate = wakeup_validate,
	.need = wakeup_need,
	.init = wakeup_init,
	.run = wakeup_run,
	.fini = targets_fini,
};

static const struct flowop_ops fo_semblock = {
	.name = "semblock",
	.cls = FLOWOP_CLASS_SYNC,
	.attrs = semblock_attrs,
	.nattr = SYNC_COUNT,
	.validate = semblock_validate,
	.init = semblock_init,
	.run = semblock_run,
};

static const struct flowop_ops fo_sempost = {
	.name = "sempost",
	.cls = FLOWOP_CLASS_SYNC,
	.attrs = sempost_attrs,
	.nattr = SYNC_COUNT,
	.validate = sempost_validate,
	.need = sempost_need,
	.init = sempost_init,
	.run = sempost_run,
	.fini = targets_fini,
};

const struct flowop_ops *const flowops_sync[] = {
	&fo_block, &fo_wakeup, &fo_semblock, &fo_sempost, NULL,
};
