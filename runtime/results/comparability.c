/*
 * comparability.c - the rules where a run's numbers and filebench's
 * differ, and the note saying which applied (comparability.h).
 *
 * One row per rule, in the order of docs/differences.md section 10: its
 * name, its section, whether `--compat filebench` emulates it, and a
 * test of whether it applied in a run that also writes the effect line.
 * The tests read only the plan and the run's outcome (its statistics and
 * how it ended): flowops are recognised by name in the rows' lists, as
 * the report recognises nothing else about them.
 */
#include "runtime/results/comparability.h"

#include "runtime/results/fbestimate.h"

#include <math.h>
#include <string.h>

#include "plan/flowop.h"
#include "runtime/base/log.h"
#include "runtime/measure/stats.h"
#include "runtime/measure/text.h"

/* Flowop names a rule is about, NULL-terminated. */
static const char *const finish_names[] = { "finishoncount", "finishonbytes", NULL };
static const char *const limit_names[] = { "opslimit", "iopslimit", "bwlimit", NULL };
static const char *const opening_names[] = {
	"read", "write", "aiowrite", "aioread", "readwholefile", "writewholefile",
	"appendfile", "appendfilerand", NULL
};
static const char *const buffer_names[] = {
	"read", "write", "readwholefile", "writewholefile", NULL
};
static const char *const aiowrite_names[] = { "aiowrite", NULL };
static const char *const append_names[] = { "appendfile", "appendfilerand", NULL };
static const char *const event_names[] = {
	"eventlimit", "opslimit", "iopslimit", "bwlimit", NULL
};

static bool named(const struct plan_flowop *f, const char *const *names)
{
	for (; *names; names++)
		if (strcmp(f->ops->name, *names) == 0)
			return true;
	return false;
}

/* Ops recorded by the flowops of these names (on their own report lines). */
static uint64_t ops_of(const struct plan *p, const struct run_outcome *o,
		       const char *const *names)
{
	uint64_t n = 0;

	for (int i = 0; i < p->nflowops; i++)
		if (named(&p->flowops[i], names))
			n += o->stats[i].op.count;
	return n;
}

/* The value of flowop `f`'s attribute `name` as a flag (false: none). */
static bool attr_flag(const struct plan_flowop *f, const char *name)
{
	for (const struct attr_spec *a = f->ops->attrs; a && a->name; a++)
		if (strcmp(a->name, name) == 0 && a->index < f->nattr)
			return plan_value_bool(&f->attr[a->index], false);
	return false;
}

/* Did a flowop of these names run in a thread with thread memory? */
static uint64_t memory_ops(const struct plan *p, const struct run_outcome *o,
			   const char *const *names, bool directio)
{
	uint64_t n = 0;

	for (int i = 0; i < p->nflowops; i++) {
		const struct plan_flowop *f = &p->flowops[i];

		if (named(f, names) && p->threads[f->thread].memsize > 0 &&
		    attr_flag(f, "directio") == directio)
			n += o->stats[i].op.count;
	}
	return n;
}

typedef bool (*applies_fn)(const struct plan *p, const struct run_outcome *o,
			   enum plan_semantics sem, char *effect, size_t size);

/*
 * A finish limit applies when one fired in this run, or when filebench's,
 * counting its whole process, would have stopped this run sooner (decided
 * from the run's counts: fbestimate.h), even if flowbench's never fired.
 */
static bool finish_limits(const struct plan *p, const struct run_outcome *o,
			  enum plan_semantics sem, char *effect, size_t size)
{
	struct fbestimate e;

	fbestimate_run(p, o, &e);
	if (e.fraction < 1) {
		snprintf(effect, size, "filebench's finish limit counts every op of "
			 "its process, its own calls and implicit opens included, so "
			 "it would have stopped this run after about %llu of these "
			 "%llu I/O ops (%.1f %%)%s", (unsigned long long)e.ops,
			 (unsigned long long)e.our_ops, 100 * e.fraction,
			 e.no_results ? " and, in timeout mode, ended it without "
			 "results" : "");
		return true;
	}
	if (!o->finish_fired || !ops_of(p, o, finish_names))
		return false;
	if (sem == PLAN_SEM_FILEBENCH && e.no_results) {
		snprintf(effect, size, "a finish limit ended the run, counted over its "
			 "whole process with its own ops, as filebench counts; in timeout "
			 "mode filebench would have ended it without results (not "
			 "emulated)");
		return true;
	}
	snprintf(effect, size, sem == PLAN_SEM_FILEBENCH ?
		 "a finish limit ended the run, counted over its whole process with "
		 "its own ops, as filebench counts" :
		 "a finish limit ended the run: flowbench counts its thread's I/O ops, "
		 "filebench every op of the process, the limit's own included, so "
		 "the same limit stops filebench after about half the work");
	return true;
}

static bool rate_limits(const struct plan *p, const struct run_outcome *o,
			enum plan_semantics sem, char *effect, size_t size)
{
	uint64_t n = ops_of(p, o, limit_names);

	if (!n)
		return false;
	snprintf(effect, size, sem == PLAN_SEM_FILEBENCH ?
		 "opslimit/iopslimit/bwlimit charged every op of their process, their "
		 "own included, as filebench does" :
		 "opslimit/iopslimit/bwlimit charged their thread's I/O ops only; "
		 "filebench charges every op of the process, its own included, and so "
		 "lets fewer I/O ops through at the same rate");
	return true;
}

static bool implicit_opens(const struct plan *p, const struct run_outcome *o,
			   enum plan_semantics sem, char *effect, size_t size)
{
	uint64_t opens = 0;

	for (int i = 0; i < p->nflowops; i++)
		opens += o->stats[i].open.count;
	if (sem == PLAN_SEM_FILEBENCH) {
		if (!ops_of(p, o, opening_names))
			return false;
		snprintf(effect, size, "implicit opens were counted as ops (reads, writes) "
			 "of their flowops, as filebench counts them");
		return true;
	}
	if (!opens)
		return false;
	snprintf(effect, size, "%llu implicit open%s counted on its own line; "
		 "filebench counts each as an op (a read or a write) of its flowop: its "
		 "counts are that much higher and its latencies include the opens",
		 (unsigned long long)opens, opens == 1 ? " was" : "s were");
	return true;
}

/* Decimals for a rate in a note: one below 1000 ops/s, none above. */
static int rate_digits(double r)
{
	return r < 1000 ? 1 : 0;
}

/*
 * filebench's run loop sleeps 1 s at a time and looks for the end after
 * each sleep: a run that ends by itself (here, or in filebench because
 * of its finish limits) is divided by its time rounded up to whole
 * seconds.  Applies when that changes the rate by more than 1 %.
 */
static bool whole_seconds(const struct plan *p, const struct run_outcome *o,
			  enum plan_semantics sem, char *effect, size_t size)
{
	struct fbestimate e;
	double ours;

	(void)sem;
	fbestimate_run(p, o, &e);
	if (e.no_results || !e.ends_itself || e.end_s <= 0 ||
	    fabs(e.elapsed_s - e.end_s) <= 0.01 * e.end_s)
		return false;
	ours = o->elapsed_s > 0 ? (double)e.our_ops / o->elapsed_s : 0;
	snprintf(effect, size, "the run ended by itself after %.3f s%s; filebench's "
		 "run loop sleeps whole seconds until the run has ended, so it "
		 "divides by %.0f s and would show about %.*f ops/s for %llu op%s, "
		 "not %.*f", o->elapsed_s, e.fraction < 1 ?
		 " (filebench's after about the share its finish limit allows)" : "",
		 e.elapsed_s, rate_digits(e.ops_per_s), e.ops_per_s,
		 (unsigned long long)e.ops, log_plural(e.ops), rate_digits(ours), ours);
	return true;
}

static bool direct_buffers(const struct plan *p, const struct run_outcome *o,
			   enum plan_semantics sem, char *effect, size_t size)
{
	uint64_t n = 0;

	for (int i = 0; i < p->nflowops; i++)
		if (attr_flag(&p->flowops[i], "directio"))
			n += o->stats[i].op.count;
	if (!n)
		return false;
	snprintf(effect, size, sem == PLAN_SEM_FILEBENCH ?
		 "direct I/O buffers sat at random 512-byte boundaries in thread "
		 "memory, as in filebench" :
		 "direct I/O ran with page-aligned buffers; filebench puts them at "
		 "random 512-byte boundaries in thread memory, which some devices "
		 "serve far slower");
	return true;
}

static bool buffer_places(const struct plan *p, const struct run_outcome *o,
			  enum plan_semantics sem, char *effect, size_t size)
{
	if (!memory_ops(p, o, buffer_names, false))
		return false;
	snprintf(effect, size, sem == PLAN_SEM_FILEBENCH ?
		 "each I/O took its buffer at a random place in thread memory, as "
		 "in filebench" :
		 "I/O buffers stayed at one place in thread memory; filebench takes "
		 "each op's at a random place in it, touching more memory and cache");
	return true;
}

static bool thread_memory(const struct plan *p, const struct run_outcome *o,
			  enum plan_semantics sem, char *effect, size_t size)
{
	uint64_t bytes = 0;

	for (int i = 0; i < p->nthreads; i++) {
		const struct plan_thread *th = &p->threads[i];

		bytes += th->memsize * th->instances * p->procs[th->proc].instances;
	}
	if (!bytes || !o->stats)
		return false;
	snprintf(effect, size, sem == PLAN_SEM_FILEBENCH ?
		 "the threads zero-filled their memory (%.1f MiB in all) inside the "
		 "timed window, as filebench does" :
		 "thread memory (%.1f MiB in all) was made ready before the timed "
		 "phase; filebench zero-fills it inside the timed window, which costs "
		 "it ops", (double)bytes / 1048576.0);
	return true;
}

static bool aiowrite_latency(const struct plan *p, const struct run_outcome *o,
			     enum plan_semantics sem, char *effect, size_t size)
{
	if (!ops_of(p, o, aiowrite_names))
		return false;
	snprintf(effect, size, sem == PLAN_SEM_FILEBENCH ?
		 "aiowrite was timed and counted at submission, as in filebench" :
		 "aiowrite was timed from submission to completion; filebench times "
		 "the submission only, so its latencies are far lower");
	return true;
}

static bool appends(const struct plan *p, const struct run_outcome *o,
		    enum plan_semantics sem, char *effect, size_t size)
{
	if (!ops_of(p, o, append_names))
		return false;
	snprintf(effect, size, sem == PLAN_SEM_FILEBENCH ?
		 "appends were lseek + write, as in filebench" :
		 "appends were one atomic write at the end of the file; filebench "
		 "does lseek + write, two calls that race between threads");
	return true;
}

static bool event_rate(const struct plan *p, const struct run_outcome *o,
		       enum plan_semantics sem, char *effect, size_t size)
{
	(void)sem;
	if (!ops_of(p, o, event_names))
		return false;
	snprintf(effect, size, "the event generator delivered its rate exactly; "
		 "filebench's overshoots it and wakes one waiter per batch, so "
		 "rate-limited numbers differ");
	return true;
}

static const struct rule {
	const char *name;
	const char *section;
	bool emulated;
	applies_fn applies;
	bool estimates;           /* its note carries filebench's ops/s */
} rules[] = {
	{ "finish-limits", "10.1", true, finish_limits, true },
	{ "rate-limits", "10.2", true, rate_limits, false },
	{ "implicit-opens", "10.3", true, implicit_opens, false },
	{ "direct-io-buffers", "10.4", true, direct_buffers, false },
	{ "buffer-placement", "10.5", true, buffer_places, false },
	{ "thread-memory", "10.6", true, thread_memory, false },
	{ "aiowrite-latency", "10.7", true, aiowrite_latency, false },
	{ "appends", "10.8", true, appends, false },
	{ "whole-seconds", "10.9", false, whole_seconds, true },
	{ "event-rate", "10.10", false, event_rate, false },
};

const char *const comparability_not_emulated[] = {
	"rates of runs that end by themselves divided by whole seconds",
	"32-bit op counters",
	"zero or garbage minimum and maximum latencies",
	"psrun snapshots that pause every worker for a second",
	"a finish limit in timeout mode ending the run without results",
	"limit flowops timed from a stale start",
	"the event generator's overshoot and single wake-up",
	NULL
};

void comparability_init(struct comparability *c, enum plan_semantics sem)
{
	memset(c, 0, sizeof(*c));
	c->semantics = sem;
}

static bool noted(const struct comparability *c, const char *rule)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->notes[i].rule, rule) == 0)
			return true;
	return false;
}

void comparability_add_run(struct comparability *c, const struct plan *p,
			   const struct run_outcome *o)
{
	if (!o->stats)
		return;
	for (size_t k = 0; k < sizeof(rules) / sizeof(rules[0]); k++) {
		struct comparability_note *n = &c->notes[c->n];

		if (c->n == COMPARABILITY_MAX || noted(c, rules[k].name))
			continue;
		if (!rules[k].applies(p, o, c->semantics, n->effect, sizeof(n->effect)))
			continue;
		n->rule = rules[k].name;
		n->section = rules[k].section;
		n->emulated = rules[k].emulated;
		n->estimate = NAN;
		if (rules[k].estimates) {
			struct fbestimate e;

			fbestimate_run(p, o, &e);
			if (!e.no_results)
				n->estimate = e.ops_per_s;
		}
		c->n++;
	}
}

static bool emulated_any(const struct comparability *c)
{
	for (int i = 0; i < c->n; i++)
		if (c->notes[i].emulated)
			return true;
	return false;
}

void comparability_print(FILE *out, const struct comparability *c)
{
	bool compat = c->semantics == PLAN_SEM_FILEBENCH;

	if (c->n == 0 && !compat)
		return;
	if (compat)
		fprintf(out, "Comparability: filebench's rules (--compat filebench), "
			"docs/differences.md section 10:\n");
	else
		fprintf(out, "Comparability: these numbers follow flowbench's rules; "
			"where filebench's differed in this run (docs/differences.md "
			"section 10):\n");
	for (int i = 0; i < c->n; i++) {
		const struct comparability_note *n = &c->notes[i];
		const char *tag = !n->emulated && compat ? " [not emulated]" : "";

		fprintf(out, "  %s (%s)%s: %s\n", n->rule, n->section, tag, n->effect);
	}
	if (compat) {
		fprintf(out, "  not emulated (filebench defects that only corrupt its "
			"measurement):");
		for (int i = 0; comparability_not_emulated[i]; i++)
			fprintf(out, "%s %s", i ? ";" : "", comparability_not_emulated[i]);
		fputc('\n', out);
	} else if (emulated_any(c)) {
		fprintf(out, "  use --compat filebench to compare with filebench's results\n");
	}
}
