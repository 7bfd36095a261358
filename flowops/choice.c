/*
 * choice.c - executing an invocation of a composite defined with
 * `choose` (docs/wml.md §4.6, a flowbench extension): each execution
 * runs ONE of its direct children, drawn at random with odds in
 * proportion to their `weight`s, where a plain composite runs them all.
 *
 * The draw is one uniform integer in [0, total weight) from the thread's
 * own generator (rng_below(): exact, no modulo bias, so each child is
 * chosen with exactly its weight / total), then a binary search of the
 * children's cumulative weights; a child of weight 0 is never chosen and
 * is left out of the table.  The same --seed draws the same sequence in
 * every thread, and each draw is independent of the ones before: the
 * sequence has the odds in expectation and no period but the
 * generator's.  The table is built per thread instance at init from the
 * plan (lang/ checked the weights: at least two children, whole numbers,
 * not all 0).  Like a composite, the invocation records no op of its own;
 * the chosen child runs its `iters` times (through thread_run_entry(),
 * or called directly when that is once: choice_run()).
 */
#include <stdlib.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "runtime/base/rng.h"
#include "runtime/engine/thread.h"

/* One child that can be chosen: the cumulative weight up to and with it. */
struct choice_member {
	uint64_t upto;            /* its draws are [previous upto, upto) */
	int entry;                /* its index in t->fo */
};

struct choice_table {
	uint64_t total;           /* the sum of the weights */
	int n;                    /* members of weight > 0 */
	struct choice_member m[];
};

/* Its table of cumulative weights, per thread instance (at most one
 * member per entry below it). */
static void choice_need(const struct plan *p, const struct plan_flowop *f,
			struct flowop_need *n)
{
	(void)p;
	n->mem = sizeof(struct choice_table) +
		 (uint64_t)f->ndesc * sizeof(struct choice_member);
}

static int choice_init(struct fb_thread *t, struct flowop_inst *fi)
{
	int k = thread_entry_index(t, fi), last = k + fi->ndesc;
	const struct plan_flowop *pf = fi->pf;
	struct choice_table *tab;
	uint64_t total = 0;
	int n = 0;

	for (int j = k + 1; j <= last; j += 1 + t->fo[j].ndesc)
		n++;
	tab = malloc(sizeof(*tab) + (size_t)n * sizeof(tab->m[0]));
	n = 0;
	if (!tab) {
		thread_fail(t, "flowop %s: out of memory", pf->name);
		return FLOWOP_ERROR;
	}
	for (int j = k + 1; j <= last; j += 1 + t->fo[j].ndesc) {
		int64_t w = plan_attr_int(t->fo[j].pf, PA_WEIGHT, 0);

		if (w <= 0)
			continue;
		total += (uint64_t)w;   /* lang/ bounds each weight: no overflow */
		tab->m[n++] = (struct choice_member){ total, j };
	}
	if (n == 0) {                   /* lang/ refuses it: a plan built by hand */
		free(tab);
		thread_fail(t, "flowop %s: every weight of its choice is 0", pf->name);
		return FLOWOP_ERROR;
	}
	tab->total = total;
	tab->n = n;
	fi->priv = tab;
	return 0;
}

/* Up to this many members the draw's member is found by a linear scan. */
#define CHOICE_SCAN 8

/* The member draw `r` falls on in a table of more than CHOICE_SCAN. */
static __attribute__((noinline)) const struct choice_member *
choice_search(const struct choice_table *tab, uint64_t r)
{
	int lo = 0, hi = tab->n - 1;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (r < tab->m[mid].upto)
			hi = mid;
		else
			lo = mid + 1;
	}
	return &tab->m[lo];
}

/*
 * One execution: draw a member, run it.  A member of constant iters 1
 * (most) is called directly, as thread_run_entry() would call it once:
 * the halt check the choice's own execution just made stands for its
 * own, FLOWOP_FAILED goes up to the choice's loop, which goes on as
 * the member's would, and FLOWOP_NORSC names the member.  That spares
 * about 30 instructions per draw (bench/opinsns).
 */
static enum flowop_result choice_run(struct fb_thread *t, struct flowop_inst *fi)
{
	const struct choice_table *tab = fi->priv;
	uint64_t r = rng_below(&t->rng, tab->total);
	const struct choice_member *m = tab->m;
	struct flowop_inst *mi;
	enum flowop_result res;

	if (__builtin_expect(tab->n <= CHOICE_SCAN, 1)) {
		/* the last member's upto is the total: the scan ends */
		while (r >= m->upto)
			m++;
	} else {
		m = choice_search(tab, r);
	}
	mi = &t->fo[m->entry];
	if (__builtin_expect(mi->iters != 1, 0))
		return thread_run_entry(t, m->entry);
	res = mi->run(t, mi);
	if (__builtin_expect(res == FLOWOP_NORSC, 0) && !t->norsc_fi)
		t->norsc_fi = mi;
	return res;
}

static void choice_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	(void)t;
	free(fi->priv);
	fi->priv = NULL;
}

const struct flowop_ops flowops_choice = {
	.name = "choice",
	.cls = FLOWOP_CLASS_COMPOSITE,
	.rw = FLOWOP_RW_NONE,
	.need = choice_need,
	.init = choice_init,
	.run = choice_run,
	.fini = choice_fini,
};
