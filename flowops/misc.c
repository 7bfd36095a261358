/*
 * misc.c - delay, hog, print and testrandvar (reference 4.19, 4.20, 4.31,
 * 4.32).
 *
 * delay sleeps `value` seconds (fractions allowed) on the shared halt
 * word, so the end of the run interrupts it at once; an interrupted
 * delay records nothing.  It first reaps the thread's asynchronous
 * requests in flight (thread_quiesce()), within its `value` seconds.
 * hog stores a byte `value` times into the thread's memory behind a
 * compiler barrier, so the work cannot be optimised away, and checks the
 * halt word every HOG_CHUNK iterations.
 * print logs a line and records nothing; testrandvar samples `value` and
 * logs the count, mean and standard deviation when the thread ends.
 */
#include <math.h>
#include <stdlib.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "plan/diag.h"
#include "runtime/base/log.h"
#include "runtime/engine/thread.h"

/* Their one attribute of their own. */
enum misc_attr {
	MISC_VALUE = PA_OWN,   /* seconds, iterations, the text, the sample */
	MISC_COUNT
};

#define NS_PER_S 1e9
#define HOG_CHUNK (1u << 20)
#define HOG_SCRATCH 64

static enum flowop_result delay_run(struct fb_thread *t, struct flowop_inst *fi)
{
	double secs = thread_attr_double(t, fi->pf, MISC_VALUE, 0);
	uint64_t t0 = thread_ticks(t), t1;
	uint64_t now = clock_now_ns();
	uint64_t until;

	/*
	 * A random value is sampled here, past the compiler's range check:
	 * hold it to the longest time a run may last (a NaN waits 0 s).
	 */
	if (!(secs > 0))
		secs = 0;
	else if (secs > PLAN_MAX_SECONDS)
		secs = PLAN_MAX_SECONDS;
	until = now + (uint64_t)(secs * NS_PER_S);
	if (t->quiesce && now < until) {
		/* within the delay: requests in flight complete while it lasts */
		enum flowop_result res = thread_quiesce(t, fi);

		if (res != FLOWOP_OK)
			return res;
		now = clock_now_ns();
	}

	while (now < until) {
		uint32_t h = shared_halted(t->ctl);

		if (h)
			return FLOWOP_DONE;
		shared_halt_wait(t->ctl, h, until - now);
		now = clock_now_ns();
	}
	t1 = thread_ticks(t);
	return thread_record(t, fi->stats, &fi->stats->op, t0, t1, 0) ?
	       FLOWOP_OK : FLOWOP_DONE;
}

/* The thread's memory, or a scratch area of the flowop's own. */
static int hog_init(struct fb_thread *t, struct flowop_inst *fi)
{
	if (t->mem)
		return 0;
	fi->priv = calloc(1, HOG_SCRATCH);
	if (!fi->priv) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return FLOWOP_ERROR;
	}
	return 0;
}

static void free_priv(struct fb_thread *t, struct flowop_inst *fi)
{
	(void)t;
	free(fi->priv);
	fi->priv = NULL;
}

static enum flowop_result hog_run(struct fb_thread *t, struct flowop_inst *fi)
{
	double v = thread_attr_double(t, fi->pf, MISC_VALUE, 0);
	uint64_t n = v > 0 ? (v < 1.8e19 ? (uint64_t)v : UINT64_MAX) : 0;
	unsigned char *mem = fi->priv ? fi->priv : t->mem;
	uint64_t t0 = thread_ticks(t), t1;

	for (uint64_t i = 0; i < n; i++) {
		mem[0] = (unsigned char)i;
		/* the store must happen, every time */
		__asm__ __volatile__("" : : "r"(mem) : "memory");
		if ((i & (HOG_CHUNK - 1)) == HOG_CHUNK - 1 && thread_halted(t))
			return FLOWOP_DONE;
	}
	t1 = thread_ticks(t);
	return thread_record(t, fi->stats, &fi->stats->op, t0, t1, 0) ?
	       FLOWOP_OK : FLOWOP_DONE;
}

static enum flowop_result print_run(struct fb_thread *t, struct flowop_inst *fi)
{
	const struct plan_value *v = &fi->pf->attr[MISC_VALUE];
	const struct plan_proc *pp = &t->plan->procs[t->proc];
	char num[64];
	const char *text = "";

	if (v->kind == PV_STRING) {
		text = v->u.s;
	} else if (v->kind != PV_UNSET) {
		snprintf(num, sizeof(num), "%.17g", thread_attr_double(t, fi->pf, MISC_VALUE, 0));
		text = num;
	}
	log_info("Message from process (%s,%llu), thread (%s,%llu): %s", pp->name,
		 (unsigned long long)t->proc_inst, t->pt->name,
		 (unsigned long long)t->thread_inst, text);
	return FLOWOP_OK;
}

struct testrv_priv {
	uint64_t n;
	double sum, sumsq;
};

static int testrv_init(struct fb_thread *t, struct flowop_inst *fi)
{
	fi->priv = calloc(1, sizeof(struct testrv_priv));
	if (!fi->priv) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return FLOWOP_ERROR;
	}
	return 0;
}

static enum flowop_result testrv_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct testrv_priv *p = fi->priv;
	double v = thread_attr_double(t, fi->pf, MISC_VALUE, 0);

	p->n++;
	p->sum += v;
	p->sumsq += v * v;
	return FLOWOP_OK;
}

static void testrv_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	struct testrv_priv *p = fi->priv;

	if (p && p->n) {
		double mean = p->sum / (double)p->n;
		double var = p->sumsq / (double)p->n - mean * mean;

		log_info("testrandvar %s (process %s, thread %s): %llu samples, "
			 "mean %.6g, stddev %.6g", fi->pf->name,
			 t->plan->procs[t->proc].name, t->pt->name,
			 (unsigned long long)p->n, mean, var > 0 ? sqrt(var) : 0.0);
	}
	free_priv(t, fi);
}

/* delay and hog take a number (a string is an error, not 0). */
static int numeric_value(const struct plan *p, const struct plan_flowop *f,
			 struct diag *d)
{
	(void)p;
	if (f->attr[MISC_VALUE].kind == PV_STRING) {
		diag_error(d, f->attr[MISC_VALUE].loc, "flowop %s: %s needs a number as value",
			   f->name, f->ops->name);
		return 1;
	}
	return 0;
}

/* hog without thread memory stores into a scratch area of its own. */
static void hog_need(const struct plan *p, const struct plan_flowop *f,
		     struct flowop_need *n)
{
	n->mem = p->threads[f->thread].memsize ? 0 : HOG_SCRATCH;
}

static void testrv_need(const struct plan *p, const struct plan_flowop *f,
			struct flowop_need *n)
{
	(void)p;
	(void)f;
	n->mem = sizeof(struct testrv_priv);
}

static const struct attr_spec delay_attrs[] = {
	{ "value", T_SECONDS, MISC_VALUE, "seconds to sleep (fractions allowed)" },
	{ NULL, 0, 0, NULL }
};

static const struct attr_spec hog_attrs[] = {
	{ "value", T_ANY, MISC_VALUE, "bytes to store into the thread's memory" },
	{ NULL, 0, 0, NULL }
};

static const struct attr_spec print_attrs[] = {
	{ "value", T_ANY, MISC_VALUE, "the text (or number) to log" },
	{ NULL, 0, 0, NULL }
};

static const struct attr_spec testrandvar_attrs[] = {
	{ "value", T_ANY, MISC_VALUE, "the random variable to sample" },
	{ NULL, 0, 0, NULL }
};

static const struct flowop_ops fo_delay = {
	.name = "delay",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = delay_attrs,
	.validate = numeric_value,
	.run = delay_run,
};

static const struct flowop_ops fo_hog = {
	.name = "hog",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = hog_attrs,
	.validate = numeric_value,
	.need = hog_need,
	.init = hog_init,
	.run = hog_run,
	.fini = free_priv,
};

static const struct flowop_ops fo_print = {
	.name = "print",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = print_attrs,
	.run = print_run,
};

static const struct flowop_ops fo_testrandvar = {
	.name = "testrandvar",
	.cls = FLOWOP_CLASS_OTHER,
	.attrs = testrandvar_attrs,
	.validate = numeric_value,
	.need = testrv_need,
	.init = testrv_init,
	.run = testrv_run,
	.fini = testrv_fini,
};

const struct flowop_ops *const flowops_misc[] = {
	&fo_delay, &fo_hog, &fo_print, &fo_testrandvar, NULL,
};
