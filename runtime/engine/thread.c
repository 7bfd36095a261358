/*
 * thread.c - the life of one thread instance, and its timed loop.
 *
 * Timed phase semantics (the measurement contract):
 *  - The master releases all threads at once and sets start_ns and
 *    deadline_ns = start_ns + runtime before doing so.
 *  - An op is counted iff it completed at or before the deadline.  A
 *    flowop compares the end timestamp it already took for the op's
 *    latency with the deadline (no extra clock call); the op straddling
 *    the deadline is discarded and the thread stops (FLOWOP_DONE).
 *  - Rates are computed over exactly deadline - start, so no op outside
 *    that window is ever counted and none inside is lost.
 *  - Between ops the thread reads the shared halt word once (a relaxed
 *    load): STOP (master saw the deadline, or the run ended early) and
 *    ABORT (an error or an interrupt) both end the loop.
 *  - The loop walks the thread's top-level flowop entries; a composite
 *    entry runs its own children through thread_run_entry().
 *  - FLOWOP_FAILED (--keep-going: an op failed and was counted in its
 *    flowop's statistics, thread_op_failed()) goes on as if it
 *    succeeded, without counting an op; without --keep-going the first
 *    failure fails the run (FLOWOP_ERROR).
 *  - FLOWOP_NORSC ends the thread; what it means for the run depends on why
 *    (a finish* limit or a missing file) and the quit mode:
 *    thread_norsc().
 *  - Run phases (plan_proc.after, startdelay, runtime): a thread of such
 *    a process waits, asleep, after the release and before its first op
 *    (thread_wait_phase()); its process's runtime= is only an earlier
 *    deadline, so the loop and the ops are the same for every thread.
 *
 * Hot path: the loop and the flowops' run() touch only this thread's
 * memory and stats block; no allocation, lock or syscall besides the
 * I/O itself and the vDSO clock.
 */
#include "runtime/engine/thread.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/fileset/fileset.h"
#include "runtime/fileset/pick.h"
#include "runtime/base/log.h"
#include "runtime/base/randvar.h"
#include "runtime/measure/oplog.h"
#include "runtime/measure/stats.h"
#include "runtime/engine/threadmem.h"

/*
 * Where the implicit opens of a flowop with statistics `st` are
 * recorded: their own counters (`Implicit opens:`, never a read or a
 * write), or under filebench's rules the flowop's ops, so that they count
 * in its ops, its latency and histogram and in rd/wr (reference 4.0).
 * Chosen once per flowop instance: the open path has no branch for it.
 */
static struct op_stats *thread_open_stats(const struct plan *p, struct fo_stats *st)
{
	return p->semantics == PLAN_SEM_FILEBENCH ? &st->op : &st->open;
}

int thread_prepare(struct fb_thread *t, const struct plan *p,
		   const struct fileset_state *fs, struct shared *sh, int proc,
		   uint64_t slot)
{
	const struct shared_slot *ss = &sh->slots[slot];

	memset(t, 0, sizeof(*t));
	t->plan = p;
	t->pt = &p->threads[ss->thread];
	t->filesets = fs;
	t->sh = sh;
	t->ctl = sh->ctl;
	t->slot = ss;
	t->stats = ss->stats;
	t->sync = ss->sync;
	t->proc = proc;
	t->proc_inst = ss->proc_inst;
	t->thread = ss->thread;
	t->thread_inst = ss->thread_inst;
	t->deadline_ticks = UINT64_MAX;
	t->warm_end_ticks = UINT64_MAX;
	t->warm_real_ticks = UINT64_MAX;
	rng_seed_thread(&t->rng, p->seed, (uint64_t)proc, t->proc_inst,
			(uint64_t)t->thread, t->thread_inst);
	slot_init_all(t->slots);
	t->nfo = t->pt->nflowops;
	/* line-aligned (struct flowop_inst is one line): one line per entry */
	t->fo = aligned_alloc(64, ((size_t)t->nfo + 1) * sizeof(*t->fo));
	t->rv_rng = calloc((size_t)p->nrandvars + 1, sizeof(*t->rv_rng));
	if (!t->fo || !t->rv_rng)
		return -1;
	memset(t->fo, 0, ((size_t)t->nfo + 1) * sizeof(*t->fo));
	for (int i = 0; i < p->nrandvars; i++)
		randvar_stream_seed(&t->rv_rng[i], &p->randvars[i], i, p->seed,
				    rng_identity((uint64_t)proc, t->proc_inst,
						 (uint64_t)t->thread, t->thread_inst));
	for (int k = 0; k < t->nfo; k++) {
		const struct plan_flowop *pf = &p->flowops[t->pt->first_flowop + k];

		struct flowop_inst *fi = &t->fo[k];

		fi->pf = pf;
		fi->run = pf->ops->run;
		fi->ndesc = pf->ndesc;
		fi->stats = &t->stats[k];
		fi->open_stats = thread_open_stats(p, &t->stats[k]);
		fi->iters = pf->attr[PA_ITERS].kind == PV_RANDOM ? -1 :
			    plan_attr_int(pf, PA_ITERS, 1);
		if (fi->iters < -1)
			fi->iters = 0;
	}
	return thread_log_prepare(&t->log, sh->oplog, slot);
}

double thread_attr_double(struct fb_thread *t, const struct plan_flowop *pf,
			  int a, double dflt)
{
	const struct plan_value *v = &pf->attr[a];

	switch (v->kind) {
	case PV_INT:
		return (double)v->u.i;
	case PV_DOUBLE:
		return v->u.d;
	case PV_BOOL:
		return v->u.b;
	case PV_RANDOM:
		return randvar_sample(&t->plan->randvars[v->u.rv], &t->rv_rng[v->u.rv]);
	default:
		return dflt;
	}
}

/* A random `iters`: a new sample, truncated, negative as 0. */
int64_t thread_sample_iters(struct fb_thread *t, int k)
{
	double d = thread_attr_double(t, t->fo[k].pf, PA_ITERS, 1);

	return d >= 1 ? (d < 9e18 ? (int64_t)d : INT64_MAX) : 0;
}

int thread_watch_init(struct fb_thread *t, const struct flowop_inst *fi,
		      const char *target, unsigned flags, struct thread_watch *w)
{
	const struct plan_flowop *pf = fi->pf;

	memset(w, 0, sizeof(*w));
	w->bytes = (flags & WATCH_BYTES) != 0;
	w->src = calloc((size_t)t->nfo + 1, sizeof(*w->src));
	if (!w->src) {
		thread_fail(t, "flowop %s: out of memory", pf->name);
		return FLOWOP_ERROR;
	}
	for (int k = 0; k < t->nfo; k++) {
		const struct flowop_ops *ops = t->fo[k].pf->ops;

		if (target && *target) {
			if (strcmp(t->fo[k].pf->name, target) != 0)
				continue;
			if ((flags & WATCH_RW_ONLY) &&
			    !(ops->rw & (FLOWOP_RW_READ | FLOWOP_RW_WRITE))) {
				thread_fail(t, "flowop %s: target %s is not a read or write flowop",
					    pf->name, target);
				return FLOWOP_ERROR;
			}
			w->src[w->n++] = t->fo[k].stats;
			return 0;
		}
		if (ops->cls != FLOWOP_CLASS_IO && ops->cls != FLOWOP_CLASS_AIO)
			continue;
		if ((flags & WATCH_RW_ONLY) &&
		    !(ops->rw & (FLOWOP_RW_READ | FLOWOP_RW_WRITE)))
			continue;
		w->src[w->n++] = t->fo[k].stats;
	}
	if (target && *target) {
		thread_fail(t, "flowop %s: target %s is not a flowop of thread %s",
			    pf->name, target, t->pt->name);
		return FLOWOP_ERROR;
	}
	return 0;
}

void thread_watch_free(struct thread_watch *w)
{
	free(w->src);
	w->src = NULL;
	w->n = 0;
}

/* Does filebench's process-wide counter (WATCH_* `flags`) include `ops`? */
static bool tally_counts(const struct flowop_ops *ops, unsigned flags)
{
	if (ops->cls == FLOWOP_CLASS_COMPOSITE)
		return false;           /* records no op of its own */
	return !(flags & WATCH_RW_ONLY) ||
	       (ops->rw & (FLOWOP_RW_READ | FLOWOP_RW_WRITE));
}

/* The tally of one flowop of this thread: its `target`. */
static int tally_target(struct fb_thread *t, const struct flowop_inst *fi,
			const char *target, unsigned flags, struct thread_tally *w)
{
	for (int k = 0; k < t->nfo; k++) {
		if (strcmp(t->fo[k].pf->name, target) != 0)
			continue;
		if ((flags & WATCH_RW_ONLY) &&
		    !(t->fo[k].pf->ops->rw & (FLOWOP_RW_READ | FLOWOP_RW_WRITE))) {
			thread_fail(t, "flowop %s: target %s is not a read or write flowop",
				    fi->pf->name, target);
			return FLOWOP_ERROR;
		}
		w->index[0] = k;
		w->group[0] = (struct tally_group){ t->slot, 1, w->index, 1 };
		w->ngroup = 1;
		return 0;
	}
	thread_fail(t, "flowop %s: target %s is not a flowop of thread %s",
		    fi->pf->name, target, t->pt->name);
	return FLOWOP_ERROR;
}

/*
 * The tally of this process instance: for each of its thread
 * definitions, the slots of its instances (consecutive, shared.h) and
 * the indexes of its flowops that count.
 */
static void tally_process(struct fb_thread *t, unsigned flags, struct thread_tally *w)
{
	const struct plan *p = t->plan;
	const struct plan_proc *pp = &p->procs[t->proc];
	const struct shared_slot *slot =
		&t->sh->slots[shared_slot_of(t->sh, t->proc, t->proc_inst, 0)];
	int *next = w->index;

	for (int d = pp->first_thread; d < pp->first_thread + pp->nthreads; d++) {
		const struct plan_thread *pt = &p->threads[d];
		struct tally_group *g = &w->group[w->ngroup++];

		*g = (struct tally_group){ slot, pt->instances, next, 0 };
		for (int k = 0; k < pt->nflowops; k++)
			if (tally_counts(p->flowops[pt->first_flowop + k].ops, flags))
				next[g->nfo++] = k;
		next += g->nfo;
		slot += pt->instances;
	}
}

int thread_tally_init(struct fb_thread *t, const struct flowop_inst *fi,
		      const char *target, unsigned flags, struct thread_tally *w)
{
	const struct plan_proc *pp = &t->plan->procs[t->proc];
	int nindex = 0;

	memset(w, 0, sizeof(*w));
	w->bytes = (flags & WATCH_BYTES) != 0;
	for (int d = pp->first_thread; d < pp->first_thread + pp->nthreads; d++)
		nindex += t->plan->threads[d].nflowops;
	w->group = calloc((size_t)pp->nthreads + 1, sizeof(*w->group));
	w->index = calloc((size_t)nindex + 1, sizeof(*w->index));
	if (!w->group || !w->index) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return FLOWOP_ERROR;
	}
	if (target && *target)
		return tally_target(t, fi, target, flags, w);
	tally_process(t, flags, w);
	return 0;
}

void thread_tally_free(struct thread_tally *w)
{
	free(w->group);
	free(w->index);
	memset(w, 0, sizeof(*w));
}

/* One flowop's ops (or bytes) in one thread instance, implicit opens included. */
static uint64_t tally_one(const struct fo_stats *s, bool bytes)
{
	if (bytes)
		return STATS_GET(s->op.bytes) + STATS_GET(s->open.bytes);
	return STATS_GET(s->op.count) + STATS_GET(s->open.count);
}

uint64_t thread_tally_read(const struct thread_tally *w)
{
	uint64_t v = 0;

	for (int i = 0; i < w->ngroup; i++) {
		const struct tally_group *g = &w->group[i];

		for (uint64_t s = 0; s < g->nslots; s++)
			for (int k = 0; k < g->nfo; k++)
				v += tally_one(&g->slot[s].stats[g->fo[k]], w->bytes);
	}
	return v;
}

uint64_t thread_tally_mem(const struct plan *p, const struct plan_flowop *f)
{
	const struct plan_proc *pp = &p->procs[p->threads[f->thread].proc];
	uint64_t n = ((uint64_t)pp->nthreads + 1) * sizeof(struct tally_group);

	for (int d = pp->first_thread; d < pp->first_thread + pp->nthreads; d++)
		n += (uint64_t)p->threads[d].nflowops * sizeof(int);
	return n + sizeof(int);
}

void **thread_family_slot(struct fb_thread *t, const void *key)
{
	struct thread_family *grown;

	for (int i = 0; i < t->nfamilies; i++)
		if (t->families[i].key == key)
			return &t->families[i].state;
	grown = realloc(t->families, ((size_t)t->nfamilies + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	t->families = grown;
	t->families[t->nfamilies] = (struct thread_family){ .key = key };
	return &t->families[t->nfamilies++].state;
}

void thread_families_free(struct fb_thread *t)
{
	free(t->families);
	t->families = NULL;
	t->nfamilies = 0;
}

void thread_release_mem(struct fb_thread *t)
{
	thread_log_free(&t->log);
	thread_families_free(t);
	free(t->fo);
	free(t->rv_rng);
	thread_mem_free(&(struct thread_mem){ t->mem, t->memsize, t->mem_mapped });
	t->fo = NULL;
	t->rv_rng = NULL;
	t->mem = NULL;
	t->mem_mapped = 0;
}

void thread_fail(struct fb_thread *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	shared_set_verror(t->ctl, fmt, ap);
	va_end(ap);
	t->failed = true;
}

enum flowop_result thread_op_failed(struct fb_thread *t, const struct flowop_inst *fi,
				    enum fo_err_kind kind, const char *fmt, ...)
{
	va_list ap;

	/* a thread whose ops all fail must still leave its warm-up */
	if (__builtin_expect(t->warm_real_ticks != UINT64_MAX, 0) &&
	    t->warm_end_ticks != UINT64_MAX && thread_ticks(t) >= t->warm_real_ticks)
		thread_end_warmup(t);
	STATS_COUNT_ERROR(fi->stats, kind);
	t->op_failures++;
	if (t->ctl->keep_going) {
		/* the first one's text, for the report (a relaxed load after it) */
		if (!atomic_load_explicit(&t->ctl->fail_claimed, memory_order_relaxed)) {
			va_start(ap, fmt);
			shared_note_vfailure(t->ctl, fmt, ap);
			va_end(ap);
		}
		return FLOWOP_FAILED;
	}
	va_start(ap, fmt);
	shared_set_verror(t->ctl, fmt, ap);
	va_end(ap);
	t->failed = true;
	return FLOWOP_ERROR;
}

enum flowop_result thread_refuse(struct fb_thread *t, const struct flowop_inst *fi,
				 const char *what, const char *path, const char *why)
{
	thread_fail(t, "flowop %s: refusing to %s %s: %s; flowbench never writes, "
		    "truncates or removes what it did not create (the fileset's "
		    "tree was changed behind its back; it is left untouched)",
		    fi->pf->name, what, path, why);
	return FLOWOP_ERROR;
}

/* Linux best-effort I/O priority for the calling thread (ioprio <= 7). */
static void set_ioprio(struct fb_thread *t)
{
	const long who_process = 1, class_be = 2;

	if (t->pt->ioprio < 0 || t->pt->ioprio > 7)
		return;
	if (syscall(SYS_ioprio_set, who_process, 0L,
		    (class_be << 13) | t->pt->ioprio) < 0)
		log_warn("cannot set ioprio %d for thread %s: %s", t->pt->ioprio,
			 t->pt->name, strerror(errno));
}

/* Everything a thread does before the barrier.  0 or -1 (error set). */
static int thread_setup(struct fb_thread *t)
{
	char name[16];

	/* the worker's own thread keeps the process's name (ps, pgrep) */
	snprintf(name, sizeof(name), "%s", t->pt->name);
	if (syscall(SYS_gettid) != getpid())
		pthread_setname_np(pthread_self(), name);
	set_ioprio(t);
	if (t->pt->memsize) {
		struct thread_mem m;
		char err[512];
		uint64_t run_pages = t->pt->memtype != PLAN_MEM_HUGETLB ? 0 :
			thread_mem_run_pages(t->plan, thread_mem_hugepage_size());
		enum thread_mem_fill fill = thread_mem_fill_of(t->plan->semantics);

		/* mapped before the barrier; its pages faulted in now or at release */
		if (thread_mem_alloc(&m, t->pt->memsize, t->pt->memtype, fill,
				     t->pt->name, run_pages, err, sizeof(err)) != 0) {
			thread_fail(t, "%s", err);
			return -1;
		}
		t->mem = m.addr;
		t->memsize = m.size;
		t->mem_mapped = m.mapped;
		t->mem_zero_at_release = fill == THREAD_MEM_FILL_AT_RELEASE;
	}
	for (int k = 0; k < t->nfo; k++) {
		struct flowop_inst *fi = &t->fo[k];
		const struct flowop_ops *ops = fi->pf->ops;

		if (ops->init && ops->init(t, fi) != 0) {
			if (!t->failed)
				thread_fail(t, "flowop %s: initialisation failed",
					    fi->pf->name);
			return -1;
		}
		t->ninit = k + 1;
	}
	return 0;
}

/*
 * FLOWOP_NORSC ends this thread.  A finish* limit (thread_finish_reached())
 * ends the run normally with results in timeout and firstdone modes and
 * only this thread in alldone mode, or in timeout mode when the plan has
 * run phases (a later phase starts when it ends).  A missing file ends the run
 * normally in firstdone mode, this thread in alldone mode, and fails the
 * run in timeout mode (its results would cover a workload that stopped).
 */
/*
 * "Could not obtain a file", with what the fileset looked like at that
 * moment, so the user knows whether to add entries, shorten the run or
 * change the mode.
 */
static void thread_fail_norsc_fileset(struct fb_thread *t,
				      const struct flowop_inst *fi,
				      const struct fileset_state *fs)
{
	char dirs[160] = "";

	if (fs->pf->leafdirs)
		snprintf(dirs, sizeof(dirs), "; %llu leaf dirs: %llu exist, %llu busy",
			 (unsigned long long)fs->pf->leafdirs,
			 (unsigned long long)pick_count(&fs->leafdirs,
							PICK_WANT_EXISTING),
			 (unsigned long long)pick_busy_count(&fs->leafdirs));
	thread_fail(t, "flowop %s (%s) could not obtain a file of fileset '%s' "
		    "(%llu files: %llu exist, %llu do not, %llu busy%s): the run "
		    "stopped early; add entries ($nfiles), shorten the run, "
		    "or use 'set mode quit firstdone' or 'alldone'",
		    fi->pf->name, fi->pf->ops->name, fs->pf->name,
		    (unsigned long long)fs->pf->entries,
		    (unsigned long long)pick_count(&fs->files, PICK_WANT_EXISTING),
		    (unsigned long long)pick_count(&fs->files, PICK_WANT_ABSENT),
		    (unsigned long long)pick_busy_count(&fs->files), dirs);
}

static void thread_norsc(struct fb_thread *t, const struct flowop_inst *fi)
{
	enum quit_mode mode = t->plan->quit_mode;

	if (t->norsc_fi)
		fi = t->norsc_fi;
	if (mode == QUIT_ALLDONE)
		return;
	/* run phases: a finish limit ends its phase's thread, as in alldone */
	if (mode == QUIT_TIMEOUT && t->finish_reached && t->plan->has_phases)
		return;
	if (mode == QUIT_FIRSTDONE || t->finish_reached) {
		shared_request_stop(t->ctl, clock_now_ns());
		return;
	}
	if (fi->pf->fileset < 0) {
		thread_fail(t, "flowop %s (%s) ran out of resources: the run "
			    "stopped early (use 'set mode quit firstdone' "
			    "or 'alldone' to end the run there)", fi->pf->name,
			    fi->pf->ops->name);
		return;
	}
	thread_fail_norsc_fileset(t, fi, &t->filesets[fi->pf->fileset]);
}

/*
 * thread_run_entry()'s body, inlined into the thread loop so that a
 * top-level entry costs no call of its own around its run call: what
 * an op pays besides its flowop's work is the halt check and fi->run.
 */
static inline __attribute__((always_inline)) enum flowop_result
run_entry(struct fb_thread *t, int k)
{
	struct flowop_inst *fi = &t->fo[k];
	enum flowop_result (*run)(struct fb_thread *, struct flowop_inst *) = fi->run;
	int64_t n = thread_iters(t, k);

	for (int64_t i = 0;; i++) {
		enum flowop_result r;

		if (shared_halted(t->ctl))
			return FLOWOP_DONE;
		if (i >= n)
			return FLOWOP_OK;
		r = run(t, fi);
		if (__builtin_expect(r != FLOWOP_OK, 0)) {
			if (r == FLOWOP_FAILED)
				continue;       /* counted (--keep-going) */
			if (r == FLOWOP_NORSC && !t->norsc_fi)
				t->norsc_fi = fi;
			return r;
		}
	}
}

enum flowop_result thread_run_entry(struct fb_thread *t, int k)
{
	return run_entry(t, k);
}

void thread_end_warmup(struct fb_thread *t)
{
	const struct shared_slot *ss = t->slot;
	int n = t->pt->nflowops;

	t->warm_real_ticks = UINT64_MAX;
	t->warm_end_ticks = t->log.n ? 0 : UINT64_MAX;
	if (!ss || !ss->base)
		return;                 /* no warm-up in this region */
	memcpy(ss->base, t->stats, (size_t)n * sizeof(*t->stats));
	if (ss->abase)
		for (int k = 0; k < n; k++) {
			int j = shared_split_index(t->plan, t->pt->first_flowop + k);

			if (j >= 0)
				memcpy(&ss->abase[j], &ss->astats[j], sizeof(ss->astats[j]));
		}
	atomic_store_explicit(ss->base_taken, 1, memory_order_release);
	for (int k = 0; k < n; k++) {
		int j = ss->astats ? shared_split_index(t->plan, t->pt->first_flowop + k) : -1;

		STATS_SET(t->stats[k].op.lat_min_ns, UINT64_MAX);
		STATS_SET(t->stats[k].op.lat_max_ns, 0);
		STATS_SET(t->stats[k].open.lat_min_ns, UINT64_MAX);
		STATS_SET(t->stats[k].open.lat_max_ns, 0);
		if (j >= 0)
			astats_reset_extremes(&ss->astats[j]);
	}
}

struct astats *thread_astats(struct fb_thread *t, const struct flowop_inst *fi)
{
	const struct shared_slot *ss = t->slot;
	int j;

	if (!ss || !ss->astats || !t->pt)
		return NULL;
	/* fi's plan entry is one of its thread's: its index in the plan */
	j = shared_split_index(t->plan, (int)(fi->pf - t->plan->flowops));
	return j >= 0 ? &ss->astats[j] : NULL;
}

/* A log write failed: the run's error; the thread logs no more. */
static __attribute__((noinline)) void thread_log_failed(struct fb_thread *t)
{
	char msg[512];

	thread_log_error(&t->log, msg, sizeof(msg));
	thread_fail(t, "%s", msg);
	t->log.n = 0;
	t->warm_end_ticks = t->warm_real_ticks;
}

bool thread_record_slow(struct fb_thread *t, struct fo_stats *fs, struct op_stats *s,
			uint64_t ts, uint64_t t0, uint64_t t1, uint64_t bytes,
			uint64_t off)
{
	uint64_t ns;

	if (t0 >= t->warm_real_ticks)
		thread_end_warmup(t);
	if (t1 > t->deadline_ticks) {
		STATS_SET(fs->discarded, fs->discarded + 1);
		return false;
	}
	ns = clock_ticks_to_ns(&t->clk, t0, t1);
	if (s == &fs->op)
		fo_stats_record(fs, ns, bytes);
	else
		stats_record(s, ns, bytes);
	/* a flowop's own ops after the warm-up, not its implicit opens */
	if (t->log.n && s == &fs->op && t->warm_real_ticks == UINT64_MAX &&
	    thread_log_op(&t->log, &t->clk, t->fo[fs - t->stats].pf->ops->rw,
			  &(struct thread_log_times){ ts, t0, t1, ns }, bytes, off) < 0)
		thread_log_failed(t);
	return true;
}

/*
 * The logs count from `epoch_ns`; from now on every op takes
 * thread_record()'s slow path, which hands it to them.
 */
static void thread_logs_start(struct fb_thread *t, uint64_t epoch_ns)
{
	if (!t->log.n)
		return;
	thread_log_start(&t->log, &t->clk, epoch_ns);
	t->warm_end_ticks = 0;
}

/* The logs' last windows and buffers, at `end_ns` (clipped to the deadline). */
static void thread_logs_finish(struct fb_thread *t, uint64_t end_ns)
{
	if (!t->log.n)
		return;
	if (end_ns > t->ctl->deadline_ns)
		end_ns = t->ctl->deadline_ns;
	if (thread_log_finish(&t->log, &t->clk, end_ns) < 0)
		thread_log_failed(t);
}

/*
 * Entry k ended the loop with `r` (not FLOWOP_OK): say why where needed.
 * Not inlined: the loops stay small.
 */
static __attribute__((noinline)) void thread_loop_end(struct fb_thread *t, int k,
						      enum flowop_result r)
{
	switch (r) {
	case FLOWOP_DONE:
		return;
	case FLOWOP_NORSC:
		thread_norsc(t, &t->fo[k]);
		return;
	case FLOWOP_ERROR:
	default:
		if (!t->failed)
			thread_fail(t, "flowop %s failed", t->fo[k].pf->name);
		return;
	}
}

/*
 * A thread of one top-level entry that runs a fixed number of times
 * (most personalities: randomrw's threads, randomread, ...): running it
 * `iters` times, then again, until halted, is running it until halted,
 * so the loop is the halt check and the run call (FLOWOP_FAILED: counted by
 * --keep-going, go on).  True when the thread is of that shape.
 */
static bool thread_loop_single(struct fb_thread *t)
{
	struct flowop_inst *fi = &t->fo[0];
	enum flowop_result (*run)(struct fb_thread *, struct flowop_inst *) = fi->run;
	enum flowop_result r;

	if (1 + fi->ndesc != t->nfo || fi->iters < 1)
		return false;
	do {
		if (shared_halted(t->ctl))
			return true;
		r = run(t, fi);
	} while (__builtin_expect(r == FLOWOP_OK || r == FLOWOP_FAILED, 1));
	if (r == FLOWOP_NORSC && !t->norsc_fi)
		t->norsc_fi = fi;
	thread_loop_end(t, 0, r);
	return true;
}

/* The timed loop: top-level flowops in order, each `iters` times, until halted. */
static void thread_loop(struct fb_thread *t)
{
	if (t->nfo == 0 || thread_loop_single(t))
		return;
	for (;;) {
		for (int k = 0; k < t->nfo; k += 1 + t->fo[k].ndesc) {
			enum flowop_result r = run_entry(t, k);

			if (r != FLOWOP_OK) {
				thread_loop_end(t, k, r);
				return;
			}
		}
	}
}

/*
 * Run phases (plan_proc.after, startdelay, runtime): after the release,
 * wait for every thread of the after= processes to end, then for
 * startdelay from the latest of those ends (or from the release), and
 * record the process's start; with runtime=, the thread's deadline
 * becomes the process's own when that is earlier, so the per-op path
 * stays the same (thread_record()).  *phase_end_ns: the process's
 * deadline, or UINT64_MAX.  False when the run ended while waiting.
 */
static bool thread_wait_phase(struct fb_thread *t, uint64_t *phase_end_ns)
{
	const struct plan_proc *pp = &t->plan->procs[t->proc];
	uint64_t from = t->ctl->release_ns, start, end;

	*phase_end_ns = UINT64_MAX;
	for (int i = 0; i < pp->nafter; i++) {
		if (!shared_phase_wait_end(t->sh, pp->after[i], &end))
			return false;
		if (end > from)
			from = end;
	}
	if (pp->startdelay_s > 0 &&
	    !shared_sleep_until(t->ctl, from + (uint64_t)(pp->startdelay_s * 1e9)))
		return false;
	start = shared_phase_started(t->sh, t->proc, clock_now_ns());
	if (start > t->ctl->start_ns)
		thread_logs_start(t, start);    /* the logs count from the process's start */
	if (pp->runtime_s > 0) {
		*phase_end_ns = start + (uint64_t)(pp->runtime_s * 1e9);
		if (*phase_end_ns < t->ctl->deadline_ns)
			t->deadline_ticks = clock_ns_to_ticks(&t->clk, *phase_end_ns);
	}
	return true;
}

/* When the thread's loop ended: now, or its process's deadline if earlier. */
static uint64_t thread_end_ns(uint64_t phase_end_ns)
{
	uint64_t now = clock_now_ns();

	return now < phase_end_ns ? now : phase_end_ns;
}

void *thread_main(void *arg)
{
	struct fb_thread *t = arg;
	int rc = thread_setup(t);
	uint64_t phase_end_ns = UINT64_MAX;

	shared_arrive_and_wait(t->ctl);
	if (rc == 0 && !(shared_halted(t->ctl) & HALT_ABORT)) {
		t->clk = t->ctl->clk;
		t->deadline_ticks = clock_ns_to_ticks(&t->clk, t->ctl->deadline_ns);
		if (t->ctl->warmup)
			t->warm_end_ticks = t->warm_real_ticks =
				clock_ns_to_ticks(&t->clk, t->ctl->start_ns);
		thread_logs_start(t, t->ctl->start_ns);
		/* filebench's start (--compat): inside the window, before any op */
		if (t->mem_zero_at_release)
			thread_mem_zero(t->mem, t->memsize);
		if (!t->plan->procs[t->proc].phased ||
		    thread_wait_phase(t, &phase_end_ns)) {
			thread_loop(t);
			shared_thread_done(t->ctl, thread_end_ns(phase_end_ns));
		}
	}
	/* every thread ends once, started or not: no later phase waits for it */
	shared_phase_thread_end(t->sh, t->proc, thread_end_ns(phase_end_ns));
	for (int k = t->ninit - 1; k >= 0; k--) {
		const struct flowop_ops *ops = t->fo[k].pf->ops;

		if (ops->fini)
			ops->fini(t, &t->fo[k]);
	}
	/* after fini, which may record the last asynchronous ops */
	thread_logs_finish(t, thread_end_ns(phase_end_ns));
	slot_close_all(t->slots);
	return NULL;
}
