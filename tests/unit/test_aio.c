/*
 * test_aio.c - aiowrite, aioread and aiowait (flowops/aio.c) on a
 * hand-built thread, where a pipe makes a request stay in flight for as
 * long as the test wants: the op is recorded at completion, aiowait
 * really waits and gives up when the run halts, back-pressure at the
 * ring's depth, the deadline rule, the drain at thread end (and its
 * cancellation when the run aborts), the message when io_uring is not
 * available; and iodepth: N requests really in flight at once, each
 * execution topping the queue up in one submission, every completion one
 * op, short reads and the wrap at the end of the file, O_DIRECT buffers;
 * and aiowrite under --compat filebench: its op is the submission, even
 * for a write that never completes during the run.  On each engine
 * (io_uring, libaio, posixaio): fio's depth rules (a batch, rounds of at
 * most N completions, iodepth_low, polling) and its latency split (lat =
 * slat + clat for every request); two engines in one thread; the message
 * when libaio's io_setup fails.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "flowops/aio.h"
#include "flowops/registry.h"
#include "plan/flowop.h"
#include "runtime/base/clock.h"
#include "runtime/engine/shared.h"
#include "runtime/measure/astats.h"
#include "runtime/measure/stats.h"
#include "runtime/engine/thread.h"

#include "tests/unit/check_main.h"

#define IOSIZE 65536

enum { AW, WT };

/*
 * One thread with `flowop aiowrite name=aw,iosize=64k` and `flowop
 * aiowait name=wt` (or, rig_setup(), another first flowop).
 */
struct rig {
	struct fb_thread t;
	struct plan plan;             /* empty: flowbench's rules, unless `compat` */
	struct plan_thread pt;        /* the plan's one thread: pf[0], pf[1] */
	struct shared_slot slot;      /* the thread's slot: only aw's extension block */
	struct astats *as;
	struct plan_flowop pf[2];
	struct plan_value *attr[2];   /* pf[k].attr, as the compiler lays them out */
	struct flowop_inst fi[2];
	struct fo_stats st[2];
	int pipe[2];              /* the write goes to pipe[1] */
	size_t filled;            /* bytes put in the pipe to make it full */
};

/*
 * The state of the thread's families that is there (aio.c's struct
 * aio_thread, the only family of these flowops), or NULL when every slot
 * is empty.
 */
static void *family_state(const struct fb_thread *t)
{
	for (int i = 0; i < t->nfamilies; i++)
		if (t->families[i].state)
			return t->families[i].state;
	return NULL;
}

/* Set attribute `name` of flowop `pf` (where its table puts it) to `v`. */
static void set_attr(struct plan_flowop *pf, const char *name, int64_t v)
{
	const struct attr_spec *s = flowop_attr_spec(pf->ops, name);

	ck_assert_ptr_nonnull(s);
	ck_assert_int_lt(s->index, pf->nattr);
	pf->attr[s->index].kind = PV_INT;
	pf->attr[s->index].u.i = v;
}

/* Attributes beyond iosize and iodepth: NULL, or -1 for one not given. */
struct rig_opts {
	const char *engine;
	int64_t batch, cmin, cmax, low;
};

/*
 * The rig with `type` (aiowrite, aioread) of `iosize` and `iodepth` (0:
 * none) first, and options `o` (NULL: none), following `sem`'s rules.
 */
static void rig_setup_full(struct rig *g, int fd, const char *type, int64_t iosize,
			   int64_t depth, enum plan_semantics sem,
			   const struct rig_opts *o)
{
	static const char *const names[2] = { "aw", "wt" };
	const char *const types[2] = { type, "aiowait" };
	struct shared_ctl *c = aligned_alloc(64, (sizeof(*c) + 63) / 64 * 64);

	ck_assert_ptr_nonnull(c);
	memset(c, 0, sizeof(*c));
	c->deadline_ns = UINT64_MAX;
	memset(g, 0, sizeof(*g));
	g->pipe[0] = g->pipe[1] = -1;
	g->t.ctl = c;
	g->plan.semantics = sem;
	g->t.plan = &g->plan;
	/* a plan of the thread's two flowops, and its slot, for aw's extension block */
	g->plan.flowops = g->pf;
	g->plan.nflowops = 2;
	g->plan.threads = &g->pt;
	g->plan.nthreads = 1;
	g->pt.nflowops = 2;
	g->as = malloc(sizeof(*g->as));
	ck_assert_ptr_nonnull(g->as);
	astats_init(g->as);
	g->slot.astats = g->as;
	g->t.slot = &g->slot;
	g->t.pt = &g->pt;
	g->t.clk.tsc = false;            /* ticks are nanoseconds */
	g->t.clk.mult = 1ull << 32;
	g->t.deadline_ticks = UINT64_MAX;
	g->t.warm_end_ticks = UINT64_MAX;     /* no warm-up */
	g->t.nfo = 2;
	g->t.fo = g->fi;
	slot_init_all(g->t.slots);
	g->t.slots[0].fd = fd;           /* open already: no fileset behind it */
	for (int k = 0; k < 2; k++) {
		g->pf[k].ops = flowop_registry_lookup(&flowops_registry, types[k]);
		ck_assert_ptr_nonnull(g->pf[k].ops);
		g->pf[k].name = names[k];
		g->pf[k].fileset = -1;
		g->pf[k].nattr = flowop_nattr(g->pf[k].ops);
		g->attr[k] = calloc((size_t)g->pf[k].nattr, sizeof(*g->attr[k]));
		ck_assert_ptr_nonnull(g->attr[k]);
		g->pf[k].attr = g->attr[k];
		fo_stats_init(&g->st[k]);
		g->fi[k].pf = &g->pf[k];
		g->fi[k].stats = &g->st[k];
	}
	set_attr(&g->pf[AW], "iosize", iosize);
	if (depth)
		set_attr(&g->pf[AW], "iodepth", depth);
	if (o && o->engine) {
		const struct attr_spec *e = flowop_attr_spec(g->pf[AW].ops, "ioengine");

		g->pf[AW].attr[e->index].kind = PV_STRING;
		g->pf[AW].attr[e->index].u.s = o->engine;
	}
	if (o && o->batch >= 0)
		set_attr(&g->pf[AW], "iodepth_batch_submit", o->batch);
	if (o && o->cmin >= 0)
		set_attr(&g->pf[AW], "iodepth_batch_complete_min", o->cmin);
	if (o && o->cmax >= 0)
		set_attr(&g->pf[AW], "iodepth_batch_complete_max", o->cmax);
	if (o && o->low >= 0)
		set_attr(&g->pf[AW], "iodepth_low", o->low);
	for (int k = 0; k < 2; k++)
		ck_assert_int_eq(g->pf[k].ops->init(&g->t, &g->fi[k]), 0);
	ck_assert_ptr_nonnull(family_state(&g->t));
	/* its io_priv (read's and write's too) starts a cache line: an op's fields are in one */
	ck_assert_uint_eq((uintptr_t)g->fi[AW].priv % 64, 0);
}

static void rig_setup_sem(struct rig *g, int fd, const char *type, int64_t iosize,
			  int64_t depth, enum plan_semantics sem)
{
	rig_setup_full(g, fd, type, iosize, depth, sem, NULL);
}

static void rig_setup(struct rig *g, int fd, const char *type, int64_t iosize,
		      int64_t depth)
{
	rig_setup_sem(g, fd, type, iosize, depth, PLAN_SEM_FLOWBENCH);
}

static void rig_init(struct rig *g, int fd)
{
	rig_setup(g, fd, "aiowrite", IOSIZE, 0);
}

/* A rig writing to a pipe that is already full: writes stay in flight. */
static void rig_init_pipe(struct rig *g)
{
	int p[2];
	char buf[4096];
	ssize_t n;

	ck_assert_int_eq(pipe(p), 0);
	memset(buf, 'x', sizeof(buf));
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	rig_init(g, p[1]);
	g->pipe[0] = p[0];
	g->pipe[1] = p[1];
	while ((n = write(p[1], buf, sizeof(buf))) > 0)
		g->filled += (size_t)n;
	ck_assert_int_eq(errno, EAGAIN);
	fcntl(p[1], F_SETFL, 0);
}

/* Thread end: fini in reverse order, as thread_main() does. */
static void rig_fini(struct rig *g)
{
	for (int k = 1; k >= 0; k--)
		g->pf[k].ops->fini(&g->t, &g->fi[k]);
	ck_assert_ptr_null(family_state(&g->t));
	thread_families_free(&g->t);
	for (int k = 0; k < 2; k++)
		free(g->attr[k]);
	if (g->t.slots[0].fd != g->pipe[0] && g->t.slots[0].fd != g->pipe[1])
		close(g->t.slots[0].fd);
	if (g->pipe[0] >= 0)
		close(g->pipe[0]);
	if (g->pipe[1] >= 0)
		close(g->pipe[1]);
	free(g->t.ctl);
	free(g->as);
}

static enum flowop_result run(struct rig *g, int k)
{
	return g->pf[k].ops->run(&g->t, &g->fi[k]);
}

/* Read `n` bytes from the pipe (the test's reader). */
static void drain_pipe(int fd, size_t n)
{
	char buf[65536];

	while (n > 0) {
		ssize_t r = read(fd, buf, n < sizeof(buf) ? n : sizeof(buf));

		ck_assert_int_gt(r, 0);
		n -= (size_t)r;
	}
}

/* Write `n` bytes (at most 64 KiB: fits an empty pipe) in one write(). */
static void fill_pipe(int fd, size_t n)
{
	char buf[65536];

	ck_assert_uint_le(n, sizeof(buf));
	memset(buf, 'r', n);
	ck_assert_int_eq(write(fd, buf, n), (ssize_t)n);
}

static unsigned ring_submitted(const struct rig *g);

/*
 * A second thread that acts on the rig after a delay: the test bounds
 * what it measures by the moments recorded here, not by the delay.
 */
struct later {
	struct rig *g;
	unsigned submitted;       /* first wait until the kernel took that many */
	unsigned delay_ms;        /* then sleep that long, then: */
	size_t read_bytes;        /* read that many from the pipe, ... */
	size_t write_bytes;       /* ... or write that many into it, ... */
	uint32_t halt;            /* ... or halt the run with these bits */
	uint64_t seen_ns;         /* when `submitted` were seen taken */
	uint64_t acted_ns;        /* just before it acted */
};

static void *later_main(void *arg)
{
	struct later *l = arg;
	struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)l->delay_ms * 1000000 };
	struct timespec ms = { .tv_sec = 0, .tv_nsec = 1000000 };

	/* (a submission that never comes: Check's timeout ends the test) */
	while (ring_submitted(l->g) < l->submitted)
		nanosleep(&ms, NULL);
	l->seen_ns = clock_now_ns();
	nanosleep(&ts, NULL);
	l->acted_ns = clock_now_ns();
	if (l->read_bytes)
		drain_pipe(l->g->pipe[0], l->read_bytes);
	if (l->write_bytes)
		fill_pipe(l->g->pipe[1], l->write_bytes);
	if (l->halt)
		shared_halt(l->g->t.ctl, l->halt);
	return NULL;
}

/*
 * The reader empties the pipe 200 ms after the write was submitted.
 * Bounds by the moments measured: aiowait returns only after the reader
 * began (whenever a busy machine let it run); the write's latency spans
 * at least from its submission (before run() returned) to that moment;
 * aiowait's op is its wait, at least half of the time from its call to
 * the reader's moment (a latency of 0, or of the reap alone, fails).
 */
START_TEST(test_recorded_at_completion_and_wait_waits)
{
	struct rig g;
	struct later l = { .g = &g, .delay_ms = 200 };
	pthread_t th;
	uint64_t submitted, t0, t1;

	rig_init_pipe(&g);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	submitted = clock_now_ns();
	/* submitted, not done: nothing recorded yet */
	ck_assert_uint_eq(g.st[AW].op.count, 0);
	l.read_bytes = g.filled + IOSIZE;
	pthread_create(&th, NULL, later_main, &l);
	t0 = clock_now_ns();
	ck_assert_int_eq(run(&g, WT), FLOWOP_OK);
	t1 = clock_now_ns();
	pthread_join(th, NULL);
	/* aiowait returned only once the reader let the write complete */
	ck_assert_uint_ge(t1, l.acted_ns);
	ck_assert_uint_eq(g.st[AW].op.count, 1);
	ck_assert_uint_eq(g.st[AW].op.bytes, IOSIZE);
	ck_assert_uint_ge(g.st[AW].op.lat_sum_ns, l.acted_ns - submitted);
	ck_assert_uint_eq(g.st[WT].op.count, 1);
	ck_assert_uint_eq(g.st[WT].op.bytes, 0);
	ck_assert_uint_le(g.st[WT].op.lat_sum_ns, t1 - t0);
	ck_assert_uint_ge(g.st[WT].op.lat_sum_ns, (l.acted_ns - t0) / 2);
	rig_fini(&g);
	ck_assert_uint_eq(g.st[AW].discarded, 0);
}
END_TEST

START_TEST(test_wait_with_nothing_in_flight)
{
	struct rig g;

	rig_init(&g, open("/dev/null", O_WRONLY));
	ck_assert_int_eq(run(&g, WT), FLOWOP_OK);
	ck_assert_uint_eq(g.st[WT].op.count, 1);
	ck_assert_uint_eq(g.st[WT].op.lat_sum_ns, 0);
	rig_fini(&g);
}
END_TEST

START_TEST(test_wait_target_is_half)
{
	struct rig g;
	int n = 10;

	/* /dev/null completes at once: one wait reaps all it sees */
	rig_init(&g, open("/dev/null", O_WRONLY));
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	ck_assert_uint_eq(g.st[AW].op.count, 0);
	ck_assert_int_eq(run(&g, WT), FLOWOP_OK);
	ck_assert_uint_ge(g.st[AW].op.count, (uint64_t)n / 2);
	ck_assert_uint_eq(g.st[AW].op.bytes, g.st[AW].op.count * IOSIZE);
	rig_fini(&g);
	ck_assert_uint_eq(g.st[AW].op.count + g.st[AW].discarded, (uint64_t)n);
}
END_TEST

START_TEST(test_back_pressure_and_drain)
{
	struct rig g;
	int n = 300;

	rig_init(&g, open("/dev/null", O_WRONLY));
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	/* the 257th submission had to reap: at most 256 in flight */
	ck_assert_uint_ge(g.st[AW].op.count, (uint64_t)n - 256);
	ck_assert_uint_lt(g.st[AW].op.count, (uint64_t)n);
	rig_fini(&g);
	/* the rest were drained at thread end: done, not counted */
	ck_assert_uint_eq(g.st[AW].op.count + g.st[AW].discarded, (uint64_t)n);
}
END_TEST

START_TEST(test_deadline)
{
	struct rig g;

	rig_init(&g, open("/dev/null", O_WRONLY));
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	g.t.deadline_ticks = thread_ticks(&g.t);   /* time is up from now */
	ck_assert_int_eq(run(&g, WT), FLOWOP_DONE);
	ck_assert_uint_eq(g.st[AW].op.count, 0);
	ck_assert_uint_eq(g.st[AW].discarded, 1);
	rig_fini(&g);
}
END_TEST

/*
 * Before a thread sleeps (a rate limit, a delay) it reaps what
 * it has in flight: thread_quiesce() returns only once both writes stuck
 * in a full pipe completed (the reader empties it 100 ms after they were
 * submitted), records both, from their submission to at least the
 * reader's moment; with nothing in flight it returns at once.  Under
 * --compat filebench the ring installs no such hook.
 */
START_TEST(test_quiesce_reaps_everything_in_flight)
{
	struct rig g;
	struct later l = { .g = &g, .submitted = 2, .delay_ms = 100 };
	pthread_t th;
	uint64_t t1;

	rig_init_pipe(&g);
	ck_assert_ptr_nonnull(g.t.quiesce);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	ck_assert_uint_eq(g.st[AW].op.count, 0);
	l.read_bytes = g.filled + 2 * IOSIZE;
	pthread_create(&th, NULL, later_main, &l);
	ck_assert_int_eq(thread_quiesce(&g.t, &g.fi[WT]), FLOWOP_OK);
	t1 = clock_now_ns();
	pthread_join(th, NULL);
	ck_assert_uint_ge(t1, l.acted_ns);
	ck_assert_uint_eq(g.st[AW].op.count, 2);
	ck_assert_uint_ge(g.st[AW].op.lat_max_ns, l.acted_ns - l.seen_ns);
	/* aiowait's stats untouched: the sleeping flowop records its own wait */
	ck_assert_uint_eq(g.st[WT].op.count, 0);
	ck_assert_int_eq(thread_quiesce(&g.t, &g.fi[WT]), FLOWOP_OK);
	ck_assert_uint_eq(g.st[AW].op.count, 2);
	rig_fini(&g);
	ck_assert_ptr_null(g.t.quiesce);

	/* --compat filebench: no hook, so sleeps reap nothing */
	rig_setup_sem(&g, open("/dev/null", O_WRONLY), "aiowrite", IOSIZE, 0,
		      PLAN_SEM_FILEBENCH);
	ck_assert_ptr_null(g.t.quiesce);
	ck_assert_int_eq(thread_quiesce(&g.t, &g.fi[WT]), FLOWOP_OK);
	rig_fini(&g);
}
END_TEST

/*
 * aiowait gives up when the run halts: not before the halt (measured),
 * and within 20 of its 50 ms slices after it (a wait deaf to the halt
 * never returns: the stuck write is only drained below).
 */
/*
 * --compat filebench: aiowrite's filebench variant in place of its
 * default, as plan_use_semantics() puts it (same init and fini).
 */
static void rig_compat(struct rig *g)
{
	const struct flowop_ops *fb = g->pf[AW].ops->filebench;

	ck_assert_ptr_nonnull(fb);
	ck_assert_str_eq(fb->name, "aiowrite");
	ck_assert_ptr_eq(fb->init, g->pf[AW].ops->init);
	ck_assert_ptr_eq(fb->fini, g->pf[AW].ops->fini);
	g->pf[AW].ops = fb;
}

/*
 * Under --compat filebench the op is the submission: recorded before
 * run() returns, with the write still stuck in a full pipe, its latency
 * within run()'s own time; reaping it later (aiowait) records nothing
 * more, and the drain at thread end tallies nothing as not counted.
 */
START_TEST(test_compat_recorded_at_submission)
{
	struct rig g;
	uint64_t t0, t1;

	rig_init_pipe(&g);
	rig_compat(&g);
	t0 = clock_now_ns();
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	t1 = clock_now_ns();
	ck_assert_uint_eq(g.st[AW].op.count, 1);
	ck_assert_uint_eq(g.st[AW].op.bytes, IOSIZE);
	ck_assert_uint_le(g.st[AW].op.lat_sum_ns, t1 - t0);
	ck_assert_uint_eq(hist_count(&g.st[AW].lat), 1);   /* in its histogram */
	/* taken by the kernel, not completed: the pipe is full */
	ck_assert_uint_eq(ring_submitted(&g), 1);
	ck_assert_uint_eq(io_uring_cq_ready(aio_engine_context(family_state(&g.t), 0)), 0);
	drain_pipe(g.pipe[0], g.filled + IOSIZE);
	ck_assert_int_eq(run(&g, WT), FLOWOP_OK);
	ck_assert_uint_eq(g.st[AW].op.count, 1);
	ck_assert_uint_eq(g.st[WT].op.count, 1);
	rig_fini(&g);
	ck_assert_uint_eq(g.st[AW].op.count, 1);
	ck_assert_uint_eq(g.st[AW].discarded, 0);
}
END_TEST

/*
 * Under --compat filebench every submission is an op, those still in
 * flight when the thread ends included; back-pressure still bounds the
 * writes in flight (and reaps them without recording).
 */
START_TEST(test_compat_in_flight_at_end_counted)
{
	struct rig g;
	int n = 300;

	rig_init(&g, open("/dev/null", O_WRONLY));
	rig_compat(&g);
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	ck_assert_uint_eq(g.st[AW].op.count, (uint64_t)n);
	ck_assert_uint_eq(g.st[AW].op.bytes, (uint64_t)n * IOSIZE);
	ck_assert_uint_eq(ring_submitted(&g), (unsigned)n);
	rig_fini(&g);
	ck_assert_uint_eq(g.st[AW].op.count, (uint64_t)n);
	ck_assert_uint_eq(g.st[AW].discarded, 0);
}
END_TEST

/* A submission that ends after the deadline is not counted and stops the thread. */
START_TEST(test_compat_deadline)
{
	struct rig g;

	rig_init(&g, open("/dev/null", O_WRONLY));
	rig_compat(&g);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	g.t.deadline_ticks = thread_ticks(&g.t);   /* time is up from now */
	ck_assert_int_eq(run(&g, AW), FLOWOP_DONE);
	ck_assert_uint_eq(g.st[AW].op.count, 1);
	ck_assert_uint_eq(g.st[AW].discarded, 1);
	rig_fini(&g);
	ck_assert_uint_eq(g.st[AW].op.count, 1);
	ck_assert_uint_eq(g.st[AW].discarded, 1);
}
END_TEST

START_TEST(test_halt_ends_wait_and_fini_drains)
{
	struct rig g;
	struct later l = { .g = &g, .delay_ms = 100, .halt = HALT_STOP };
	pthread_t th;
	uint64_t t1;

	rig_init_pipe(&g);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	pthread_create(&th, NULL, later_main, &l);
	ck_assert_int_eq(run(&g, WT), FLOWOP_DONE);
	t1 = clock_now_ns();
	pthread_join(th, NULL);
	ck_assert_uint_ge(t1, l.acted_ns);
	ck_assert_uint_lt(t1 - l.acted_ns, 1000000000ull);
	ck_assert_uint_eq(g.st[WT].op.count, 0);
	/* a normal end waits for the write: let it complete */
	drain_pipe(g.pipe[0], g.filled);
	rig_fini(&g);
	ck_assert_uint_eq(g.st[AW].op.count, 0);
	ck_assert_uint_eq(g.st[AW].discarded, 1);
}
END_TEST

/* Three writes stuck in a full pipe, the run aborted: ns the drain took. */
static uint64_t aborted_drain_ns(void)
{
	struct rig g;
	uint64_t t0, dt;

	rig_init_pipe(&g);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	shared_halt(g.t.ctl, HALT_ABORT);
	t0 = clock_now_ns();
	rig_fini(&g);             /* nobody reads the pipe: must not hang */
	dt = clock_now_ns() - t0;
	ck_assert_uint_eq(g.st[AW].op.count, 0);
	return dt;
}

/*
 * Cancelled, not the give-up after 20 slices (1 s): the fastest of three
 * tries is bounded, so a busy machine stalling one try cannot fail the
 * test, while a drain that does not cancel takes 1 s every time.
 */
START_TEST(test_abort_cancels_stuck_writes)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 3 && best >= 500000000ull; i++) {
		uint64_t dt = aborted_drain_ns();

		best = dt < best ? dt : best;
	}
	ck_assert_msg(best < 500000000ull, "the aborted drain took %.3f s at best",
		      (double)best / 1e9);
}
END_TEST

/* ---- iodepth ---------------------------------------------------------- */

#define RD_IOSIZE 4096

/*
 * Requests the kernel has taken from the thread's ring so far (its SQ
 * head; aio_uring.c's context begins with the struct io_uring).
 */
static unsigned ring_submitted(const struct rig *g)
{
	const struct io_uring *ring = aio_engine_context(family_state(&g->t), 0);

	return __atomic_load_n(ring->sq.khead, __ATOMIC_ACQUIRE);
}

/* A rig whose first flowop reads the empty pipe: reads stay in flight. */
static void rig_read_pipe(struct rig *g, int64_t depth)
{
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	rig_setup(g, p[0], "aioread", RD_IOSIZE, depth);
	g->pipe[0] = p[0];
	g->pipe[1] = p[1];
}

/* Until `n` completions wait in the ring's CQ (at most 10 s). */
static void wait_completions(struct rig *g, unsigned n)
{
	struct io_uring *ring = aio_engine_context(family_state(&g->t), 0);
	struct timespec ms = { .tv_sec = 0, .tv_nsec = 1000000 };
	uint64_t until = clock_now_ns() + 10000000000ull;

	while (io_uring_cq_ready(ring) < n && clock_now_ns() < until)
		nanosleep(&ms, NULL);
}

START_TEST(test_depth_really_in_flight)
{
	struct rig g;
	struct later l = { .g = &g, .submitted = 8, .delay_ms = 150,
			   .write_bytes = 8 * RD_IOSIZE };
	pthread_t th;
	uint64_t n;

	rig_read_pipe(&g, 8);
	pthread_create(&th, NULL, later_main, &l);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	pthread_join(th, NULL);
	ck_assert_uint_ge(g.st[AW].op.count, 1);
	/* the reads the writer woke complete; aiowait reaps them, submits none */
	wait_completions(&g, 8 - (unsigned)g.st[AW].op.count);
	ck_assert_int_eq(run(&g, WT), FLOWOP_OK);
	/*
	 * One execution submitted 8 reads before any data existed (the
	 * writer waited to see the kernel take all 8, then 150 ms more): all
	 * 8 were in flight in the kernel at once, each for at least the time
	 * the writer measured between seeing them and writing.
	 */
	ck_assert_uint_eq(ring_submitted(&g), 8);
	ck_assert_uint_eq(g.st[AW].op.count, 8);
	ck_assert_uint_eq(g.st[AW].op.bytes, 8 * RD_IOSIZE);
	ck_assert_uint_ge(g.st[AW].op.lat_min_ns, l.acted_ns - l.seen_ns);
	/* the next one tops the queue up to 8 again, and reaps what completes */
	l.write_bytes = 3 * RD_IOSIZE;
	l.submitted = 16;
	l.delay_ms = 50;
	pthread_create(&th, NULL, later_main, &l);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	pthread_join(th, NULL);
	ck_assert_uint_eq(ring_submitted(&g), 16);
	n = g.st[AW].op.count;
	ck_assert_uint_ge(n, 9);
	ck_assert_uint_le(n, 11);
	ck_assert_uint_eq(g.st[AW].op.bytes, n * RD_IOSIZE);
	/* the end of the pipe completes the 5 left; fini drains all */
	close(g.pipe[1]);
	g.pipe[1] = -1;
	rig_fini(&g);
	ck_assert_uint_eq(g.st[AW].op.count, n);
	ck_assert_uint_eq(n + g.st[AW].discarded, 16);
}
END_TEST

START_TEST(test_depth_tops_up_each_execution)
{
	struct rig g;

	/* /dev/zero completes every read inside the submission */
	rig_setup(&g, open("/dev/zero", O_RDONLY), "aioread", RD_IOSIZE, 4);
	for (unsigned i = 1; i <= 5; i++) {
		ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
		ck_assert_uint_eq(ring_submitted(&g), 4 * i);
		ck_assert_uint_eq(g.st[AW].op.count, 4 * i);
	}
	ck_assert_uint_eq(g.st[AW].op.bytes, 20 * RD_IOSIZE);
	rig_fini(&g);
	ck_assert_uint_eq(g.st[AW].discarded, 0);

	/* aiowrite with iodepth reaps its own writes the same way */
	rig_setup(&g, open("/dev/null", O_WRONLY), "aiowrite", IOSIZE, 3);
	for (unsigned i = 1; i <= 4; i++)
		ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	ck_assert_uint_eq(ring_submitted(&g), 12);
	ck_assert_uint_eq(g.st[AW].op.count, 12);
	ck_assert_uint_eq(g.st[AW].op.bytes, 12 * IOSIZE);
	rig_fini(&g);
}
END_TEST

START_TEST(test_depth_deadline)
{
	struct rig g;
	struct later l = { .g = &g, .delay_ms = 50, .write_bytes = 4 * RD_IOSIZE };
	pthread_t th;

	rig_read_pipe(&g, 4);
	g.t.deadline_ticks = thread_ticks(&g.t);   /* time is up from now */
	pthread_create(&th, NULL, later_main, &l);
	ck_assert_int_eq(run(&g, AW), FLOWOP_DONE);
	pthread_join(th, NULL);
	ck_assert_uint_eq(g.st[AW].op.count, 0);
	ck_assert_uint_ge(g.st[AW].discarded, 1);
	close(g.pipe[1]);
	g.pipe[1] = -1;
	rig_fini(&g);
	/* done after the deadline, or drained: never counted */
	ck_assert_uint_eq(g.st[AW].op.count, 0);
	ck_assert_uint_eq(g.st[AW].discarded, 4);
}
END_TEST

/* A temporary file of `size` bytes of data, opened with `flags`; -1 if refused. */
static int temp_file(uint64_t size, int flags)
{
	char path[] = "/tmp/flowbench-test-aio-XXXXXX";
	char buf[4096];
	int fd = mkstemp(path), dfd;

	ck_assert_int_ge(fd, 0);
	memset(buf, 'd', sizeof(buf));
	for (uint64_t done = 0; done < size; ) {
		size_t n = size - done < sizeof(buf) ? (size_t)(size - done) : sizeof(buf);

		ck_assert_int_eq(write(fd, buf, n), (ssize_t)n);
		done += n;
	}
	dfd = open(path, O_RDONLY | flags);
	unlink(path);
	close(fd);
	return dfd;
}

START_TEST(test_depth_sequential_wraps_at_eof)
{
	struct rig g;

	/* 10000 bytes read 4 KiB at a time, 3 in flight: 4096 + 4096 + 1808 */
	rig_setup(&g, temp_file(10000, 0), "aioread", RD_IOSIZE, 3);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	ck_assert_uint_eq(g.st[AW].op.count, 3);
	ck_assert_uint_eq(g.st[AW].op.bytes, 10000);
	/* the offset reached the end: the next reads start again at 0 */
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	ck_assert_uint_eq(g.st[AW].op.count, 6);
	ck_assert_uint_eq(g.st[AW].op.bytes, 20000);
	rig_fini(&g);
}
END_TEST

START_TEST(test_depth_direct_io)
{
	struct rig g;
	int fd = temp_file(1 << 20, O_DIRECT);
	uint64_t n, sub;

	if (fd < 0) {
		fprintf(stderr, "test_depth_direct_io: O_DIRECT refused in /tmp "
			"(%s): skipped\n", strerror(errno));
		return;
	}
	/* each read in flight needs its own aligned buffer, or EINVAL */
	rig_setup(&g, fd, "aioread", RD_IOSIZE, 8);
	for (int i = 0; i < 20; i++)
		ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	n = g.st[AW].op.count;
	sub = ring_submitted(&g);
	ck_assert_uint_ge(n, 20);
	ck_assert_uint_eq(g.st[AW].op.bytes, n * RD_IOSIZE);
	rig_fini(&g);
	/* every read submitted was counted, or drained at the end */
	ck_assert_uint_eq(n + g.st[AW].discarded, sub);
	ck_assert_uint_le(g.st[AW].discarded, 8);
}
END_TEST

/* ---- engines and fio's depth rules ------------------------------------ */

static const char *const engines[] = { "io_uring", "libaio", "posixaio" };

/* fio's rules hold per request: lat = slat + clat (each rounded down to a ns). */
static void split_adds_up(const struct rig *g)
{
	const struct astats *a = g->as;
	uint64_t n = g->st[AW].op.count;

	ck_assert_uint_eq(a->slat.count, n);
	ck_assert_uint_eq(a->lat.count, n);
	ck_assert_uint_ge(a->lat.lat_sum_ns, a->slat.lat_sum_ns + g->st[AW].op.lat_sum_ns);
	ck_assert_uint_le(a->lat.lat_sum_ns, a->slat.lat_sum_ns + g->st[AW].op.lat_sum_ns + n);
}

/*
 * fio's defaults as import-fio writes them (a batch of 1, rounds of
 * exactly 1 completion, iodepth_low = iodepth), on each engine: every
 * request is its own submission call at depth 1..4, and each execution
 * reaps exactly one completion: ops = executions.
 */
START_TEST(test_engine_fio_defaults)
{
	const struct rig_opts o = { .engine = engines[_i], .batch = 1, .cmin = 1,
				    .cmax = 1, .low = -1 };
	struct rig g;

	rig_setup_full(&g, temp_file(1 << 20, 0), "aioread", RD_IOSIZE, 4,
		       PLAN_SEM_FLOWBENCH, &o);
	ck_assert_ptr_nonnull(aio_engine_context(family_state(&g.t), _i));
	for (unsigned i = 1; i <= 6; i++) {
		ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
		ck_assert_uint_eq(g.st[AW].op.count, i);
	}
	/* 4, then 1 a time: 9 submissions of 1 request; the first 4 at depths 1..4 */
	ck_assert_uint_eq(g.as->submit[1], 9);
	ck_assert_uint_eq(g.as->depth[0] + g.as->depth[1] + g.as->depth[2], 9);
	ck_assert_uint_eq(g.as->depth[0], 1);
	ck_assert_uint_eq(g.as->depth[1], 2);
	ck_assert_uint_eq(g.as->complete[1], 6);       /* rounds of 1 */
	ck_assert_uint_eq(g.st[AW].op.bytes, 6 * RD_IOSIZE);
	split_adds_up(&g);
	rig_fini(&g);
	ck_assert_uint_eq(g.st[AW].discarded, 3);       /* drained at the end */
}
END_TEST

/* iodepth_low: once full, rounds of 1 until at most 1 is in flight. */
START_TEST(test_engine_iodepth_low)
{
	const struct rig_opts o = { .engine = engines[_i], .batch = 1, .cmin = 1,
				    .cmax = 1, .low = 1 };
	struct rig g;

	rig_setup_full(&g, temp_file(1 << 20, 0), "aioread", RD_IOSIZE, 4,
		       PLAN_SEM_FLOWBENCH, &o);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	ck_assert_uint_eq(g.st[AW].op.count, 3);
	ck_assert_uint_eq(g.as->complete[1], 3);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	ck_assert_uint_eq(g.st[AW].op.count, 6);
	split_adds_up(&g);
	rig_fini(&g);
}
END_TEST

/*
 * iodepth_batch_submit=2 at iodepth 4: two calls of 2 requests, at
 * depths 2 and 4 (fio's depth at its commit); aiowrite this time.
 */
START_TEST(test_engine_batch)
{
	const struct rig_opts o = { .engine = engines[_i], .batch = 2, .cmin = 1,
				    .cmax = 1, .low = -1 };
	struct rig g;

	rig_setup_full(&g, open("/dev/null", O_WRONLY), "aiowrite", RD_IOSIZE, 4,
		       PLAN_SEM_FLOWBENCH, &o);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	if (!strcmp(engines[_i], "posixaio")) {
		/* aio_write() is its submission: one call per request */
		ck_assert_uint_eq(g.as->submit[1], 4);
	} else {
		ck_assert_uint_eq(g.as->submit[1], 2);
		ck_assert_uint_eq(g.as->depth[1], 2);      /* 2..3 */
		ck_assert_uint_eq(g.as->depth[2], 2);      /* 4..7 */
	}
	ck_assert_uint_eq(g.st[AW].op.count, 1);
	ck_assert_uint_eq(g.st[AW].op.bytes, RD_IOSIZE);
	rig_fini(&g);
}
END_TEST

/*
 * fio's polling (both completion options 0): a round after every
 * submission, so no more than one request is ever in flight.
 */
START_TEST(test_engine_polling)
{
	const struct rig_opts o = { .engine = engines[_i], .batch = 1, .cmin = 0,
				    .cmax = 0, .low = -1 };
	struct rig g;

	rig_setup_full(&g, temp_file(1 << 20, 0), "aioread", RD_IOSIZE, 4,
		       PLAN_SEM_FLOWBENCH, &o);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	ck_assert_uint_eq(g.st[AW].op.count, 8);
	ck_assert_uint_eq(g.as->depth[0], 8);           /* all at depth 1 */
	split_adds_up(&g);
	rig_fini(&g);
	ck_assert_uint_eq(g.st[AW].discarded, 0);
}
END_TEST

/*
 * flowbench's defaults on each engine (a batch of iodepth, every
 * completion there is), O_DIRECT where /tmp takes it: all submitted are
 * counted or drained, reads hold their own buffers.
 */
START_TEST(test_engine_defaults_direct)
{
	const struct rig_opts o = { .engine = engines[_i], .batch = -1, .cmin = -1,
				    .cmax = -1, .low = -1 };
	struct rig g;
	int fd = temp_file(1 << 20, O_DIRECT);
	uint64_t sub = 0;

	if (fd < 0)
		fd = temp_file(1 << 20, 0);
	rig_setup_full(&g, fd, "aioread", RD_IOSIZE, 8, PLAN_SEM_FLOWBENCH, &o);
	for (int i = 0; i < 20; i++)
		ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
	ck_assert_uint_ge(g.st[AW].op.count, 20);
	for (int i = 0; i < ASTATS_MAP_NR; i++)
		sub += g.as->depth[i];
	split_adds_up(&g);
	rig_fini(&g);
	ck_assert_uint_eq(g.st[AW].op.count + g.st[AW].discarded, sub);
	ck_assert_uint_le(g.st[AW].discarded, 8);
	ck_assert_uint_eq(g.st[AW].op.bytes, g.st[AW].op.count * RD_IOSIZE);
}
END_TEST

/* Two engines in one thread: a context each; aiowait reaps both. */
START_TEST(test_two_engines_one_thread)
{
	struct rig g;
	struct flowop_inst fi2;
	struct plan_flowop pf2;
	struct fo_stats st2;
	struct plan_value *attr2;
	const struct attr_spec *e;
	int fd = temp_file(1 << 20, 0);
	void *state;

	rig_setup(&g, fd, "aioread", RD_IOSIZE, 0);
	/* a second aioread on libaio, the same file */
	memset(&fi2, 0, sizeof(fi2));
	pf2 = g.pf[AW];
	attr2 = calloc((size_t)pf2.nattr, sizeof(*attr2));
	ck_assert_ptr_nonnull(attr2);
	memcpy(attr2, g.pf[AW].attr, (size_t)pf2.nattr * sizeof(*attr2));
	e = flowop_attr_spec(pf2.ops, "ioengine");
	attr2[e->index].kind = PV_STRING;
	attr2[e->index].u.s = "libaio";
	pf2.attr = attr2;
	pf2.name = "aw2";
	fo_stats_init(&st2);
	fi2.pf = &pf2;
	fi2.stats = &st2;
	g.t.slot = NULL;        /* pf2 is no entry of the rig's plan: no extension block */
	ck_assert_int_eq(pf2.ops->init(&g.t, &fi2), 0);
	g.t.slot = &g.slot;
	state = family_state(&g.t);
	ck_assert_ptr_nonnull(aio_engine_context(state, 0));
	ck_assert_ptr_nonnull(aio_engine_context(state, 1));
	ck_assert_ptr_null(aio_engine_context(state, 2));
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(run(&g, AW), FLOWOP_OK);
		ck_assert_int_eq(pf2.ops->run(&g.t, &fi2), FLOWOP_OK);
	}
	/* aiowait reaps at least half of each engine's requests */
	ck_assert_int_eq(run(&g, WT), FLOWOP_OK);
	ck_assert_uint_ge(g.st[AW].op.count, 1);
	ck_assert_uint_ge(st2.op.count, 1);
	pf2.ops->fini(&g.t, &fi2);
	ck_assert_uint_eq(st2.op.count + st2.discarded, 3);
	rig_fini(&g);
	ck_assert_uint_eq(g.st[AW].op.count + g.st[AW].discarded, 3);
	free(attr2);
}
END_TEST

/*
 * In a child: system call `nr` fails with `err` (a seccomp filter), and
 * an aiowrite on `engine` is initialised: its message.
 */
static void unavailable_message(long nr, const char *engine, int err, char *msg,
				size_t len)
{
	int p[2];
	pid_t pid;
	ssize_t n;
	int status;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { .len = 4, .filter = f };
		struct rig g;
		const char *e;

		close(p[0]);
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
			_exit(3);
		memset(&g, 0, sizeof(g));
		g.t.ctl = aligned_alloc(64, (sizeof(*g.t.ctl) + 63) / 64 * 64);
		memset(g.t.ctl, 0, sizeof(*g.t.ctl));
		g.t.plan = &g.plan;
		g.pf[AW].ops = flowop_registry_lookup(&flowops_registry, "aiowrite");
		g.pf[AW].name = "reap";
		g.pf[AW].nattr = flowop_nattr(g.pf[AW].ops);
		g.pf[AW].attr = calloc((size_t)g.pf[AW].nattr, sizeof(*g.pf[AW].attr));
		g.pf[AW].attr[flowop_attr_spec(g.pf[AW].ops, "ioengine")->index] =
			(struct plan_value){ .kind = PV_STRING, .u.s = engine };
		g.fi[AW].pf = &g.pf[AW];
		g.fi[AW].stats = &g.st[AW];
		if (g.pf[AW].ops->init(&g.t, &g.fi[AW]) == 0 || family_state(&g.t))
			_exit(4);
		e = shared_error(g.t.ctl);
		if (write(p[1], e, strlen(e)) < 0)
			_exit(5);
		_exit(0);
	}
	close(p[1]);
	n = read(p[0], msg, len - 1);
	close(p[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "child status %d", status);
	ck_assert_int_gt(n, 0);
	msg[n] = '\0';
}

START_TEST(test_unavailable_says_why)
{
	char msg[1024];

	unavailable_message(__NR_io_uring_setup, "io_uring", EPERM, msg, sizeof(msg));
	ck_assert_msg(strstr(msg, "flowop reap:") && strstr(msg, "io_uring") &&
		      strstr(msg, strerror(EPERM)) &&
		      strstr(msg, "kernel.io_uring_disabled"), "%s", msg);
	unavailable_message(__NR_io_uring_setup, "io_uring", ENOSYS, msg, sizeof(msg));
	ck_assert_msg(strstr(msg, "flowop reap:") && strstr(msg, strerror(ENOSYS)) &&
		      strstr(msg, "no io_uring"), "%s", msg);
	/* libaio: io_setup's EAGAIN is the system's AIO events used up */
	unavailable_message(__NR_io_setup, "libaio", EAGAIN, msg, sizeof(msg));
	ck_assert_msg(strstr(msg, "flowop reap: asynchronous I/O needs Linux native "
			     "AIO (libaio), which is not available (io_setup: ") &&
		      strstr(msg, strerror(EAGAIN)) && strstr(msg, "fs.aio-max-nr") &&
		      strstr(msg, "fs.aio-nr"), "%s", msg);
	unavailable_message(__NR_io_setup, "libaio", ENOSYS, msg, sizeof(msg));
	ck_assert_msg(strstr(msg, "no native AIO (CONFIG_AIO)"), "%s", msg);
}
END_TEST

static Suite *aio_suite(void)
{
	Suite *s = suite_create("aio");
	TCase *tc = tcase_create("aio");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_recorded_at_completion_and_wait_waits);
	tcase_add_test(tc, test_wait_with_nothing_in_flight);
	tcase_add_test(tc, test_wait_target_is_half);
	tcase_add_test(tc, test_back_pressure_and_drain);
	tcase_add_test(tc, test_deadline);
	tcase_add_test(tc, test_quiesce_reaps_everything_in_flight);
	tcase_add_test(tc, test_compat_recorded_at_submission);
	tcase_add_test(tc, test_compat_in_flight_at_end_counted);
	tcase_add_test(tc, test_compat_deadline);
	tcase_add_test(tc, test_halt_ends_wait_and_fini_drains);
	tcase_add_test(tc, test_abort_cancels_stuck_writes);
	tcase_add_test(tc, test_unavailable_says_why);
	tcase_add_test(tc, test_depth_really_in_flight);
	tcase_add_test(tc, test_depth_tops_up_each_execution);
	tcase_add_test(tc, test_depth_deadline);
	tcase_add_test(tc, test_depth_sequential_wraps_at_eof);
	tcase_add_test(tc, test_depth_direct_io);
	tcase_add_loop_test(tc, test_engine_fio_defaults, 0, 3);
	tcase_add_loop_test(tc, test_engine_iodepth_low, 0, 3);
	tcase_add_loop_test(tc, test_engine_batch, 0, 3);
	tcase_add_loop_test(tc, test_engine_polling, 0, 3);
	tcase_add_loop_test(tc, test_engine_defaults_direct, 0, 3);
	tcase_add_test(tc, test_two_engines_one_thread);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(aio_suite)
