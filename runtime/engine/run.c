/*
 * run.c - the master's side of a run, from script actions to the report.
 *
 * Sequence: actions (echo, sleep, system, ...) -> files -> cache ->
 * shared region -> fork one worker per process instance -> start barrier
 * -> warm-up, if any -> timed phase (event generator, sampler: psrun
 * snapshots, --interval series, status line) -> stop -> reap every worker
 * -> report.  Any failure after the fork voids the results: the
 * first error is printed and the status is 1.
 *
 * The timed phase ends at the deadline, when a thread asks for the end
 * of the run (firstdone, a finish* limit: results kept; the end it sets
 * is every thread's deadline, thread_end_run()), when every
 * worker has exited (alldone), or on an error or interrupt (no results).
 * Rates divide by the time until the run actually ended (a process with
 * run phases: by its own window, phase_spans()).  When it ends,
 * the master wakes every thread sleeping in a flowop (block, semblock,
 * eventlimit, ...) so that none can hold the run open.
 *
 * A warm-up (--warmup) releases the threads warmup seconds before the
 * measured phase starts; each thread keeps a baseline of its statistics
 * at its first op that starts after that (thread_end_warmup), and every
 * reading subtracts it (shared_sum_stats).  Ops in flight when the
 * warm-up ends are warm-up ops: the measured window counts exactly the
 * ops that started and ended inside it.
 *
 * The sampler (sampler.h) reads the statistics blocks while the threads
 * write them, word by word with relaxed atomic loads (stats.h): the
 * workers are never paused or slowed, and a reading is not an atomic cut.
 *
 * The master polls its workers (waitpid(WNOHANG)) while it waits, both at
 * the barrier and during the timed phase, so a worker that dies is
 * noticed at once and the run fails with a clear message instead of
 * hanging.  SIGINT/SIGTERM set the abort flag; workers finish their
 * current op and exit; the results so far are printed, then
 * "flowbench: interrupted".  Every wait of the master wakes on the
 * signal, and once it came the workers have INTERRUPT_GRACE_NS to exit
 * before they are killed: whatever they do (stopped, in an
 * uninterruptible wait), the master acts on it within a second.  Without
 * a signal, a worker that has not exited STUCK_NOTICE_NS after the end is
 * named with its /proc state, and killed after STOP_TIMEOUT_NS.
 *
 * Time values are checked once more before anything runs (check_times):
 * a deadline in nanoseconds must not wrap (plan.h, PLAN_MAX_SECONDS).
 */
#include "runtime/engine/run.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plan/flowop.h"
#include "runtime/engine/actions.h"
#include "runtime/fileset/cache.h"
#include "runtime/base/clock.h"
#include "runtime/engine/eventgen.h"
#include "runtime/fileset/fileset.h"
#include "runtime/base/interrupt.h"
#include "runtime/base/log.h"
#include "runtime/engine/preflight.h"
#include "runtime/engine/proc.h"
#include "runtime/measure/text.h"
#include "runtime/measure/textaio.h"
#include "runtime/measure/usage.h"
#include "runtime/engine/sampler.h"
#include "runtime/engine/shared.h"
#include "runtime/engine/thread.h"

#define NS_PER_S 1000000000ull
#define MS_NS (1000 * 1000ull)
#define STARTUP_TIMEOUT_NS (30 * NS_PER_S)
#define STOP_TIMEOUT_NS (60 * NS_PER_S)      /* then stragglers are killed */
#define STUCK_NOTICE_NS (5 * NS_PER_S)       /* then they are named */
#define INTERRUPT_GRACE_NS (250 * MS_NS)     /* after SIGINT/SIGTERM: killed */
/*
 * After SIGKILL: a worker is waited for this long, then abandoned.  A
 * killed process with I/O in flight (an io_uring's dsync writes, a
 * loaded disk) can take seconds to exit, and until it has, it holds the
 * filesets' locks: abandoned at 0.4 s, it made the next run refuse its
 * tree ("another flowbench run is using it") on a machine at load 36.
 * A second Ctrl-C still exits at once (interrupt.h).
 */
#define KILL_WAIT_NS (10 * NS_PER_S)
#define KILL_NOTICE_NS (1 * NS_PER_S)        /* then the wait is said */
#define NAMED_MAX 10                         /* stuck workers named one by one */
#define POLL_NS (100 * MS_NS)
#define DEFAULT_RUNTIME_S 60

struct worker {
	pid_t pid;                /* 0 once reaped (or never started) */
	int proc;
	uint64_t inst;
	struct cpu_sample cpu_start, cpu_end;   /* at the release, when reaped */
	bool cpu_started, cpu_ended;
};

struct master {
	const struct plan *plan;
	struct shared sh;
	struct fileset_state *fs;
	struct worker *w;
	uint64_t nw;              /* workers started */
	uint64_t live;            /* not yet reaped */
	char why[512];            /* first worker failure seen by waitpid */
	struct clock_scale clk;   /* op clock, calibrated from start-up to release */
	struct eventgen gen;
	struct run_outcome *out;  /* may be NULL */
	const double *pct;        /* percentiles to print (NULL: defaults) */
	int npct;
	double warmup_s, interval_s;
	struct sampler smp;
	bool warming;             /* the warm-up has not yet been seen to end */
	const struct run_coord *coord;   /* the other clients, or NULL (coord.h) */
	bool peer_halt;           /* another client ended the timed phase */
	bool peer_failed;         /* another client failed before the release */
	int reporter;             /* this client printed the report */
	bool combined;            /* combine() ran: the reporter speaks for all */
	uint64_t release_ns;
	/* what the window cost (usage.h): the master's CPU, the devices */
	struct cpu_sample self_start, self_end;
	struct disk_set disks;
	struct usage_report usage;
};

/* Many threads, each with many slots: ask for the hard limit. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/*
 * Remember why a worker ended badly (first reason only) and abort.  `ru`
 * (wait4's) is its CPU use until it exited.
 */
static void worker_ended(struct master *m, struct worker *w, int status,
			 const struct rusage *ru)
{
	const char *name = m->plan->procs[w->proc].name;
	unsigned long long inst = (unsigned long long)w->inst + 1;

	cpuuse_from_rusage(ru, &w->cpu_end);
	w->cpu_ended = true;
	w->pid = 0;
	m->live--;
	if (WIFEXITED(status) && WEXITSTATUS(status) == PROC_EXIT_OK)
		return;
	shared_halt(m->sh.ctl, HALT_ABORT);
	if (m->why[0])
		return;
	if (WIFSIGNALED(status))
		snprintf(m->why, sizeof(m->why),
			 "worker process '%s' instance %llu killed by signal %d (%s)",
			 name, inst, WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WEXITSTATUS(status) != PROC_EXIT_REPORTED)
		snprintf(m->why, sizeof(m->why),
			 "worker process '%s' instance %llu exited with status %d",
			 name, inst, WEXITSTATUS(status));
}

/* Reap what has ended; with `block` wait for at least one.  Returns reaped. */
static int reap(struct master *m, bool block)
{
	int n = 0;

	while (m->live) {
		int status;
		struct rusage ru;
		pid_t pid = wait4(-1, &status, n == 0 && block ? 0 : WNOHANG, &ru);

		if (pid < 0 && errno == EINTR)
			continue;
		if (pid <= 0)
			break;
		for (uint64_t i = 0; i < m->nw; i++) {
			if (m->w[i].pid == pid) {
				worker_ended(m, &m->w[i], status, &ru);
				n++;
				break;
			}
		}
	}
	return n;
}

static void sleep_until(uint64_t ns)
{
	struct timespec ts = clock_ns_to_ts(ns);

	/* EINTR (a signal) just returns early: callers re-check. */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/* Fork one worker per process instance, newest definition first. */
static int start_workers(struct master *m)
{
	const struct plan *p = m->plan;
	struct run_ctx ctx = { .plan = p, .sh = &m->sh, .filesets = m->fs,
			       .master = getpid() };

	for (int pi = p->nprocs - 1; pi >= 0; pi--) {
		const struct plan_proc *pp = &p->procs[pi];

		log_info("Starting %llu %s instances", (unsigned long long)pp->instances,
			 pp->name);
		for (uint64_t i = 0; i < pp->instances; i++) {
			struct worker *w = &m->w[m->nw];
			pid_t pid;

			/* thousands of forks take a while: an interrupt stops them */
			if (shared_halted(m->sh.ctl) & HALT_ABORT)
				return -1;
			fflush(NULL);
			pid = fork();
			if (pid < 0) {
				shared_set_error(m->sh.ctl, "cannot start process %s: fork: %s",
						 pp->name, strerror(errno));
				return -1;
			}
			if (pid == 0)
				_exit(proc_worker(&ctx, pi, i));
			w->pid = pid;
			w->proc = pi;
			w->inst = i;
			m->nw++;
			m->live++;
		}
	}
	return 0;
}

/* Wait until every thread is at the barrier.  0, or -1 with the run aborted. */
static int wait_ready(struct master *m)
{
	struct shared_ctl *c = m->sh.ctl;
	uint64_t limit = clock_now_ns() + STARTUP_TIMEOUT_NS;

	for (;;) {
		uint64_t ready = atomic_load_explicit(&c->ready, memory_order_acquire);

		if (shared_halted(c) & HALT_ABORT)
			return -1;
		if (ready == m->sh.nslots)
			return 0;
		reap(m, false);
		if (shared_halted(c) & HALT_ABORT)
			return -1;
		if (m->live < m->nw) {
			if (!m->why[0])
				snprintf(m->why, sizeof(m->why),
					 "a worker process exited during start-up");
			shared_halt(c, HALT_ABORT);
			return -1;
		}
		if (clock_now_ns() > limit) {
			shared_set_error(c, "start-up took more than %llu s (%llu of %llu thread%s ready)",
					 STARTUP_TIMEOUT_NS / NS_PER_S,
					 (unsigned long long)ready,
					 (unsigned long long)m->sh.nslots,
					 log_plural(m->sh.nslots));
			return -1;
		}
		sleep_until(clock_now_ns() + 1000 * 1000);
	}
}

/* When the run ended, given how the timed phase was left at `now`. */
static uint64_t end_time(struct master *m, uint64_t now)
{
	struct shared_ctl *c = m->sh.ctl;
	uint64_t stop = shared_stop_ns(c);
	uint64_t last = atomic_load(&c->last_exit_ns);
	uint64_t end = now;

	if (stop)
		end = stop;                     /* a thread ended the run */
	else if (m->live == 0 && last)
		end = last;                     /* every thread ended (alldone) */
	if (end < c->start_ns)
		end = c->start_ns;
	return end < c->deadline_ns ? end : c->deadline_ns;
}

/*
 * Meet the other clients (coord.h): 0 when every client, this one
 * included (`ok`), got here; -1 otherwise.  Without a coordinator, `ok`.
 */
static int coord_agree(struct master *m, bool ok)
{
	if (!m->coord)
		return ok ? 0 : -1;
	if (m->coord->ops->agree(m->coord->ctx, ok) == 0 && ok)
		return 0;
	m->peer_failed = ok;      /* this one was fine: another one failed */
	if (ok)
		snprintf(m->why, sizeof(m->why), "another client failed before the run started");
	return -1;
}

/*
 * During the timed phase: what another client said.  Its failure aborts
 * this client's run too (its results are kept as partial); its early end
 * ends this one.  Returns true when the run was halted.
 */
static bool coord_heard(struct master *m)
{
	char why[512];
	enum coord_event ev;

	if (!m->coord)
		return false;
	ev = m->coord->ops->poll(m->coord->ctx, why, sizeof(why));
	if (ev == COORD_EVENT_NONE)
		return false;
	m->peer_halt = true;
	if (ev == COORD_EVENT_ABORT) {
		shared_set_error(m->sh.ctl, "%s", why);
		shared_halt(m->sh.ctl, HALT_ABORT);
	} else {
		thread_end_run(&m->sh, &m->clk);    /* the window ends now here too */
	}
	return true;
}

/* Tell the other clients this one's run ended early or failed. */
static void coord_tell_end(struct master *m)
{
	struct shared_ctl *c = m->sh.ctl;
	uint32_t h = shared_halted(c);

	if (!m->coord || m->peer_halt)
		return;
	if (h & HALT_ABORT) {
		const char *err = shared_error(c);

		m->coord->ops->tell(m->coord->ctx, COORD_EVENT_ABORT,
				    interrupt_signal() ? "interrupted" :
				    err ? err : m->why[0] ? m->why : "the run failed");
	} else if (shared_stop_ns(c)) {
		m->coord->ops->tell(m->coord->ctx, COORD_EVENT_STOP, NULL);
	}
}

/*
 * Sleep through the warm-up and the timed phase on the halt word, waking
 * at least every POLL_NS to notice dead workers, at the end of the
 * warm-up, and for the sampler's jobs.  Returns the time the run ended.
 */
static uint64_t timed_phase(struct master *m)
{
	struct shared_ctl *c = m->sh.ctl;

	for (;;) {
		uint64_t now = clock_now_ns();
		uint32_t h = shared_halted(c);
		uint64_t wake;

		if (h || m->live == 0)
			return end_time(m, now);
		if (now >= c->deadline_ns)
			return c->deadline_ns;
		if (reap(m, false))
			continue;
		if (coord_heard(m))
			continue;
		sampler_collect(&m->smp);
		if (m->warming && now >= c->start_ns) {
			m->warming = false;
			sampler_quiet(&m->smp);
			log_info("Warm-up done, measuring...");
		}
		if (now >= sampler_next(&m->smp)) {
			sampler_tick(&m->smp, now);
			continue;
		}
		wake = now + POLL_NS;
		if (c->deadline_ns < wake)
			wake = c->deadline_ns;
		if (m->warming && c->start_ns < wake)
			wake = c->start_ns;
		if (sampler_next(&m->smp) < wake)
			wake = sampler_next(&m->smp);
		shared_halt_wait(c, h, wake > now ? wake - now : 1);
	}
}

/* "worker process 'p' instance 2 (pid 123)", for messages. */
static void worker_name(const struct master *m, const struct worker *w,
			char *buf, size_t size)
{
	snprintf(buf, size, "worker process '%s' instance %llu (pid %d)",
		 m->plan->procs[w->proc].name, (unsigned long long)w->inst + 1,
		 (int)w->pid);
}

/*
 * Warn about each live worker, "<name> <what> (state: <state>); <next>",
 * the first NAMED_MAX of them by name.
 */
static void warn_live(const struct master *m, const char *what, const char *next)
{
	uint64_t named = 0;

	for (uint64_t i = 0; i < m->nw; i++) {
		char name[256], state[96];

		if (!m->w[i].pid || named++ >= NAMED_MAX)
			continue;
		worker_name(m, &m->w[i], name, sizeof(name));
		proc_state_text(m->w[i].pid, state, sizeof(state));
		log_warn("%s %s (state: %s); %s", name, what, state, next);
	}
	if (named > NAMED_MAX)
		log_warn("... and %llu more worker processes", (unsigned long long)(named - NAMED_MAX));
}

static void kill_live(const struct master *m)
{
	for (uint64_t i = 0; i < m->nw; i++) {
		if (m->w[i].pid)
			kill(m->w[i].pid, SIGKILL);
	}
}

/*
 * Workers that SIGKILL has not ended (a thread in an uninterruptible wait
 * dies only when the wait ends): named, then no longer waited for; init
 * reaps them once flowbench has exited.
 */
static void abandon_live(struct master *m)
{
	char what[64];

	snprintf(what, sizeof(what), "did not die %g s after SIGKILL",
		 (double)KILL_WAIT_NS / 1e9);
	warn_live(m, what, "flowbench exits without it");
	if (!m->why[0])
		snprintf(m->why, sizeof(m->why),
			 "worker processes could not be stopped, even by SIGKILL");
	for (uint64_t i = 0; i < m->nw; i++)
		m->w[i].pid = 0;
	m->live = 0;
	shared_halt(m->sh.ctl, HALT_ABORT);
}

/* At `now`: kill what is left, once it is time.  Returns true if it did. */
static bool kill_when_due(struct master *m, uint64_t now, uint64_t t0,
			  uint64_t kill_at, bool interrupted, const char *since)
{
	char what[128];

	if (now < kill_at)
		return false;
	if (interrupted) {
		snprintf(what, sizeof(what), "has not exited %g s after the interrupt",
			 (double)INTERRUPT_GRACE_NS / 1e9);
		warn_live(m, what, "killing it");
	} else {
		snprintf(what, sizeof(what), "has not exited %llu s after %s",
			 (unsigned long long)((now - t0) / NS_PER_S), since);
		warn_live(m, what, "killing it");
		if (!m->why[0])
			snprintf(m->why, sizeof(m->why),
				 "worker processes did not stop within %llu s; killed",
				 STOP_TIMEOUT_NS / NS_PER_S);
	}
	kill_live(m);
	shared_halt(m->sh.ctl, HALT_ABORT);
	return true;
}

/* The notice STUCK_NOTICE_NS after `since`: who holds the end up, and why. */
static void name_stuck(const struct master *m, const char *since)
{
	char what[128], next[64];

	snprintf(what, sizeof(what), "has not exited %llu s after %s",
		 STUCK_NOTICE_NS / NS_PER_S, since);
	snprintf(next, sizeof(next), "waiting up to %llu s, Ctrl-C kills it",
		 STOP_TIMEOUT_NS / NS_PER_S);
	warn_live(m, what, next);
}

/*
 * Wait for every worker to exit after `since` ("the end of the run").
 * One still there STUCK_NOTICE_NS later is named with its /proc state;
 * stragglers are killed after STOP_TIMEOUT_NS, or INTERRUPT_GRACE_NS
 * after SIGINT/SIGTERM (checked at least every 10 ms, and at once when
 * the signal cuts the sleep short); whatever SIGKILL has not ended
 * KILL_WAIT_NS later is abandoned.  The coordinator, if any, is kept
 * alive meanwhile (coord.h keepalive).
 */
static void reap_all(struct master *m, const char *since)
{
	uint64_t t0 = clock_now_ns();
	uint64_t kill_at = t0 + STOP_TIMEOUT_NS, killed_at = 0;
	bool named = false, interrupted = false, kill_noticed = false;

	while (m->live) {
		uint64_t now;

		if (reap(m, false))
			continue;
		now = clock_now_ns();
		if (!interrupted && interrupt_signal()) {
			interrupted = true;
			if (!killed_at && now + INTERRUPT_GRACE_NS < kill_at)
				kill_at = now + INTERRUPT_GRACE_NS;
		}
		if (!named && !killed_at && !interrupted && now >= t0 + STUCK_NOTICE_NS) {
			name_stuck(m, since);
			named = true;
		}
		if (!killed_at && kill_when_due(m, now, t0, kill_at, interrupted, since))
			killed_at = now;
		if (killed_at && !kill_noticed && now >= killed_at + KILL_NOTICE_NS) {
			char what[64], next[96];

			snprintf(what, sizeof(what), "has not died %g s after SIGKILL",
				 (double)KILL_NOTICE_NS / 1e9);
			snprintf(next, sizeof(next), "waiting up to %g s for it (Ctrl-C "
				 "again exits without it)", (double)KILL_WAIT_NS / 1e9);
			warn_live(m, what, next);
			kill_noticed = true;
		}
		if (killed_at && now >= killed_at + KILL_WAIT_NS) {
			reap(m, false);
			if (m->live)
				abandon_live(m);
			break;
		}
		if (m->coord)
			m->coord->ops->keepalive(m->coord->ctx);
		sleep_until(now + 10 * MS_NS);
	}
}

/*
 * What the window cost (usage.h), sampled where it costs the workers
 * nothing: just before the release, while every worker thread sleeps at
 * the barrier (its /proc counts stand still), and when each worker is
 * reaped (wait4).  The master's own and the devices' are read at the
 * release and when the timed phase ends.  Statistics only: whatever
 * cannot be read is left out, the run goes on.
 */
static void usage_at_release(struct master *m)
{
	const struct plan *p = m->plan;
	const char **dirs = calloc(p->nfilesets ? (size_t)p->nfilesets : 1, sizeof(*dirs));
	struct rusage ru;

	for (int i = 0; dirs && i < p->nfilesets; i++)
		dirs[i] = p->filesets[i].path;
	if (dirs)
		diskstats_init(&m->disks, dirs, p->nfilesets);
	free(dirs);
	for (uint64_t i = 0; i < m->nw; i++)
		m->w[i].cpu_started = cpuuse_read_pid(m->w[i].pid, &m->w[i].cpu_start) == 0;
	diskstats_sample(&m->disks, false, clock_now_ns());
	getrusage(RUSAGE_SELF, &ru);
	cpuuse_from_rusage(&ru, &m->self_start);
}

static void usage_at_end(struct master *m)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	cpuuse_from_rusage(&ru, &m->self_end);
	diskstats_sample(&m->disks, true, clock_now_ns());
}

/*
 * Whether the op clock kept faith over the run.  With the TSC, latencies
 * rest on its rate calibrated in 20 ms at the start: a TSC that changed
 * rate or jumped (the kernel marked it unstable, a VM moved host) shows
 * as a drift from CLOCK_MONOTONIC, or as the kernel no longer using it.
 */
static void check_clock(struct master *m)
{
	char now[32];
	double ppm;

	if (!m->clk.tsc) {
		if (m->out)
			m->out->clock_drift_ppm = NAN;
		return;
	}
	ppm = clock_scale_drift_ppm(&m->clk);
	if (m->out)
		m->out->clock_drift_ppm = ppm;
	if (fabs(ppm) > CLOCK_DRIFT_WARN_PPM)
		log_warn("the TSC and CLOCK_MONOTONIC drifted %.2f %% apart during the run: op latencies may be off by about as much (FLOWBENCH_CLOCK=monotonic times ops with the kernel's clock)",
			 ppm / 1e4);
	if (clock_kernel_source(now, sizeof(now)) && strcmp(now, "tsc") != 0)
		log_warn("the kernel stopped keeping time with the TSC during the run (its clocksource is now %s): op latencies taken with the TSC may be wrong (FLOWBENCH_CLOCK=monotonic times ops with the kernel's clock)",
			 now);
}

/*
 * The report's usage, once every worker is reaped: each instance's use
 * (none for one never sampled or never reaped) over release..end_ns.
 */
static void usage_build(struct master *m, uint64_t end_ns)
{
	struct usage_report *r = &m->usage;
	double window_s = end_ns > m->release_ns ? (double)(end_ns - m->release_ns) / 1e9 : 0;

	r->cpu = calloc(m->nw ? m->nw : 1, sizeof(*r->cpu));
	if (!r->cpu || usage_take_disks(r, &m->disks) < 0) {
		usage_free(r);
		return;
	}
	for (uint64_t i = 0; i < m->nw; i++) {
		const struct worker *w = &m->w[i];

		r->cpu[i].process = m->plan->procs[w->proc].name;
		r->cpu[i].instance = w->inst + 1;
		if (w->cpu_started && w->cpu_ended)
			cpuuse_delta(&w->cpu_start, &w->cpu_end, window_s, &r->cpu[i].u);
	}
	r->ncpu = (int)m->nw;
	cpuuse_delta(&m->self_start, &m->self_end, window_s, &r->master.u);
	r->window_s = window_s;
	r->measured = true;
}

/*
 * Run phases: each process's span on this client's clock, from its
 * first thread's start to its last thread's end, clipped to end_ns ({0,
 * 0}: it never started).  NULL without run phases (or memory: then
 * every rate is over the run).
 */
static struct coord_phase *phase_spans(const struct master *m, uint64_t end_ns)
{
	const struct plan *p = m->plan;
	struct coord_phase *sp;

	if (!p->has_phases || !(sp = calloc((size_t)p->nprocs + 1, sizeof(*sp))))
		return NULL;
	for (int pi = 0; pi < p->nprocs; pi++) {
		const struct shared_phase *ph = &m->sh.phases[pi];
		uint64_t s = atomic_load(&ph->start_ns), e = atomic_load(&ph->end_ns);

		if (s == 0 || s >= end_ns)
			continue;               /* never started */
		if (e == 0 || e > end_ns)
			e = end_ns;             /* still running when the run ended */
		sp[pi] = (struct coord_phase){ s, e > s ? e : s };
	}
	return sp;
}

/* Free what sum_astats() returned (NULL is fine). */
static void astats_sum_free(const struct plan *p, struct astats **a)
{
	for (int i = 0; a && i < p->nflowops; i++)
		free(a[i]);
	free(a);
}

/*
 * The extension blocks merged per report line (shared_sum_astats()):
 * [nflowops], NULL where a line has none; NULL when no flowop splits
 * its latency or out of memory (then the report has no async block).
 */
static struct astats **sum_astats(const struct shared *sh)
{
	const struct plan *p = sh->plan;
	struct astats **a = NULL, *scratch = NULL;
	bool any = false;

	for (int i = 0; i < p->nflowops; i++)
		any |= p->flowops[i].ops->split_latency;
	if (!any)
		return NULL;
	a = calloc((size_t)p->nflowops, sizeof(*a));
	scratch = malloc(2 * sizeof(*scratch));
	if (!a || !scratch)
		goto oom;
	for (int i = 0; i < p->nflowops; i++) {
		if (!p->flowops[i].ops->split_latency || p->flowops[i].line != i)
			continue;
		a[i] = malloc(sizeof(*a[i]));
		if (!a[i])
			goto oom;
	}
	shared_sum_astats(sh, a, &scratch[0], &scratch[1]);
	free(scratch);
	return a;
oom:
	log_warn("out of memory for the asynchronous flowops' latencies: not reported");
	free(scratch);
	astats_sum_free(p, a);
	return NULL;
}

static double runtime_seconds(const struct plan *p);

/*
 * Merge every thread's measured stats into one fo_stats per plan flowop
 * (flowops sharing a name share a line, plan_flowop.line), close the
 * interval series, then print.  `partial`: the run was aborted (error,
 * interrupt, dead worker) and these are the results until it stopped.
 */
static int report(struct master *m, uint64_t end_ns, bool partial)
{
	const struct plan *p = m->plan;
	struct fo_stats *sum = malloc(((size_t)p->nflowops + 3) * sizeof(*sum));
	double elapsed_s = (double)(end_ns - m->sh.ctl->start_ns) / 1e9;
	uint64_t warm_ops = shared_warmup_ops(&m->sh);
	struct coord_combined all = { 0 };
	struct text_proc_window *win = NULL;
	struct coord_phase *spans = NULL;
	struct astats **asum = NULL;
	int reporter = 1;

	if (!sum) {
		log_error("out of memory");
		return 1;
	}
	atomic_thread_fence(memory_order_acquire);
	spans = phase_spans(m, end_ns);
	if (!m->coord) {
		win = coord_phase_windows(p, spans, m->sh.ctl->release_ns, m->sh.ctl->start_ns);
		free(spans);
		spans = NULL;
	}
	shared_sum_stats(&m->sh, sum, &sum[p->nflowops + 1], &sum[p->nflowops + 2]);
	asum = sum_astats(&m->sh);
	sampler_end(&m->smp, sum, end_ns);
	if (m->warmup_s > 0)
		log_info("Warm-up: %.3g s, %llu op%s not recorded", m->warmup_s,
			 (unsigned long long)warm_ops, log_plural(warm_ops));
	if (m->coord) {
		struct coord_local mine = {
			.sum = sum, .n = p->nflowops + 3,
			.release_ns = m->release_ns, .start_ns = m->sh.ctl->start_ns,
			.end_ns = end_ns, .failed = partial,
			.runtime_s = runtime_seconds(p),
			.error = shared_error(m->sh.ctl) ? shared_error(m->sh.ctl) :
				 m->why[0] ? m->why : partial ? "the run failed" : NULL,
			.series = m->smp.series, .iv_stats = m->smp.iv_stats,
			.niv = m->smp.nrows, .usage = &m->usage, .phases = spans,
			.astats = asum,
		};

		reporter = m->coord->ops->combine(m->coord->ctx, p, &mine, &all);
		if (reporter < 0) {
			free(sum);
			astats_sum_free(p, asum);
			free(spans);
			return 1;
		}
		if (!all.astats_merged) {   /* this client's alone: not the run's */
			astats_sum_free(p, asum);
			asum = NULL;
		}
		win = all.windows;      /* the clients' merged windows, moved */
		all.windows = NULL;
		free(spans);
		spans = NULL;
		if (reporter) {
			elapsed_s = all.elapsed_s;
			if (all.failed && !partial) {
				partial = true;
				snprintf(m->why, sizeof(m->why), "%s", all.error);
			}
			if (partial)
				log_info("The run stopped after %.3f seconds: partial results",
					 elapsed_s);
		}
	}
	m->reporter = reporter;
	m->combined = m->coord != NULL;
	if (!reporter && all.failed && !partial) {
		partial = true;     /* another client failed: this run failed too */
		m->peer_halt = true;
	}
	if (m->out)
		m->out->reporter = reporter;
	if (reporter) {
		if (m->coord && m->smp.series)
			sampler_replace_series(&m->smp, all.iv_stats, all.niv, elapsed_s);
		text_report_windows(stdout, p, sum, elapsed_s, win, m->pct, m->npct);
		text_async(stdout, p, sum, asum, m->pct, m->npct);
		if (m->coord)
			coord_print_clients(stdout, p, &all);
		usage_print(stdout, &m->usage,
			    m->coord ? "this client's processes and host only" : NULL);
	}
	if (shared_first_failure(m->sh.ctl))
		log_info("First failed op: %s", shared_first_failure(m->sh.ctl));
	if (m->out) {
		m->out->stats = sum;
		m->out->astats = asum;
		m->out->nastats = p->nflowops;
		m->out->elapsed_s = elapsed_s;
		m->out->warmup_ops = warm_ops;
		m->out->finish_fired = atomic_load(&m->sh.ctl->finish_fired) != 0;
		m->out->ended_itself = !partial && end_ns < m->sh.ctl->deadline_ns;
		m->out->partial = partial;
		m->out->iv = m->smp.rows;
		m->out->niv = m->smp.nrows;
		m->smp.rows = NULL;     /* moved */
		m->out->has_clients = m->coord != NULL && reporter;
		m->out->clients = all;
		m->out->usage = m->usage;
		memset(&m->usage, 0, sizeof(m->usage));     /* moved */
		m->out->windows = win;
	} else {
		free(sum);
		astats_sum_free(p, asum);
		free(win);
		coord_combined_free(&all);
	}
	return partial ? 1 : 0;
}

static double runtime_seconds(const struct plan *p)
{
	if (p->runtime_s > 0)
		return p->runtime_s;
	return p->quit_mode == QUIT_TIMEOUT ? DEFAULT_RUNTIME_S : 0;
}

static void log_run_took(double s)
{
	if (s == (double)(uint64_t)s)
		log_info("Run took %llu seconds...", (unsigned long long)s);
	else
		log_info("Run took %.3f seconds...", s);
}

/* The end of the timed phase: halt, wake every sleeper, stop the generator. */
static void stop_run(struct master *m)
{
	shared_halt(m->sh.ctl, HALT_STOP);
	shared_wake_all(&m->sh);
	eventgen_stop(&m->gen);
}

/*
 * Why the run failed, for the log and the results file: the interrupt,
 * the first error recorded, or the worker failure seen by waitpid.
 */
static void report_failure(struct master *m)
{
	const char *err = shared_error(m->sh.ctl);
	int sig = interrupt_signal();

	if (m->out) {
		m->out->interrupted = sig != 0;
		snprintf(m->out->error, sizeof(m->out->error), "%s",
			 sig ? "interrupted" : err ? err :
			 m->why[0] ? m->why : "the run failed without results");
	}
	fflush(stdout);
	if (sig) {
		if (!m->combined || m->reporter)     /* once for a job of many clients */
			fprintf(stderr, "flowbench: interrupted (%s)\n", strsignal(sig));
		return;
	}
	if (m->peer_failed || (m->peer_halt && !m->reporter))
		return;         /* the coordinator or the reporter names the client that failed */
	if (err)
		log_error("%s", err);
	if (m->why[0])
		log_error("%s", m->why);
	if (!err && !m->why[0])
		log_error("the run failed without results");
}

/*
 * `ns` + `s` seconds, saturating: check_times() keeps both far below the
 * limit, this keeps a deadline from wrapping whatever comes.
 */
static uint64_t add_seconds(uint64_t ns, double s)
{
	double d = s > 0 ? s * 1e9 : 0;

	if (!(d < 1.8e19) || (uint64_t)d >= UINT64_MAX - 1 - ns)
		return UINT64_MAX - 1;      /* UINT64_MAX means "no limit" */
	return ns + (uint64_t)d;
}

/* interrupt.h's hook: a signal aborts the run (async-signal-safe). */
static void halt_on_signal(void *ctl)
{
	shared_halt(ctl, HALT_ABORT);
}

/* Everything after the files are ready.  Returns the exit status. */
static int run_workers(struct master *m)
{
	struct shared_ctl *c = m->sh.ctl;
	double runtime_s = runtime_seconds(m->plan);
	struct sampler_options so = {
		.psrun_period = m->plan->psrun_period, .interval_s = m->interval_s,
		.warmup_s = m->warmup_s, .runtime_s = runtime_s,
		.pct = m->pct, .npct = m->npct,
		.coord = m->coord,
	};
	uint64_t release, start, end, common = 0;
	bool aborted;
	int rc = 1;

	if (sampler_init(&m->smp, m->plan, &m->sh, &so) < 0) {
		coord_agree(m, false);  /* the others wait at the release */
		return 1;
	}

	interrupt_install();
	interrupt_attach(halt_on_signal, c);
	if (coord_agree(m, start_workers(m) == 0 && wait_ready(m) == 0) < 0) {
		shared_halt(c, HALT_ABORT);
		shared_release(c);      /* wake the waiters so they can exit */
		reap_all(m, "the start-up was abandoned");
		goto out;
	}
	clock_scale_finish(&m->clk);
	log_info("Clock: %s, read cost %.1f ns", clock_name(&m->clk), m->clk.read_ns);
	c->clk = m->clk;
	usage_at_release(m);
	if (m->coord) {
		uint64_t at;

		if (m->coord->ops->release_at(m->coord->ctx, &at) < 0) {
			shared_halt(c, HALT_ABORT);
			shared_release(c);
			reap_all(m, "the start-up was abandoned");
			goto out;
		}
		sleep_until(at);
		common = at;
	}
	release = clock_now_ns();
	m->release_ns = release;
	/*
	 * With other clients the warm-up and the deadline count from the
	 * common instant, not from this client's wake: a client that woke
	 * late (a busy host) measures from when it really started and still
	 * stops with the others, so the job's window is the run's length.
	 */
	if (!common || common > release)
		common = release;
	start = add_seconds(common, m->warmup_s);
	if (start < release)
		start = release;
	c->start_ns = start;
	c->release_ns = release;
	c->deadline_ns = runtime_s > 0 ?
			 add_seconds(add_seconds(common, m->warmup_s), runtime_s) : UINT64_MAX;
	m->warming = m->warmup_s > 0;
	sampler_begin(&m->smp, release, start);
	shared_release(c);
	if (m->warming)
		log_info("Warming up for %g seconds...", m->warmup_s);
	else
		log_info("Running...");
	if (eventgen_start_plan(&m->gen, c, m->plan) < 0) {
		shared_set_error(c, "the run needs its event generator");
		end = start;
	} else {
		end = timed_phase(m);
	}
	usage_at_end(m);
	check_clock(m);
	sampler_quiet(&m->smp);
	stop_run(m);
	coord_tell_end(m);
	if (!(shared_halted(c) & HALT_ABORT) && end <= start && m->warmup_s > 0)
		shared_set_error(c, "the run ended during the warm-up (%g s): nothing was measured",
				 m->warmup_s);
	if (!(shared_halted(c) & HALT_ABORT))
		log_run_took((double)(end - start) / 1e9);
	reap_all(m, "the end of the run");
	usage_build(m, end > start ? end : start);
	aborted = shared_halted(c) & HALT_ABORT;
	if (m->coord) {
		/* every client combines, whatever happened to it */
		rc = report(m, end > start ? end : start, aborted);
	} else if (!aborted) {
		rc = report(m, end, false);
	} else if (end > start) {
		/* the results so far: every thread's ops until it stopped */
		log_info("Run stopped after %.3f seconds: partial results", (double)(end - start) / 1e9);
		report(m, end, true);
	}
out:
	interrupt_detach();
	stop_run(m);
	sampler_free(&m->smp);
	usage_free(&m->usage);
	diskstats_free(&m->disks);
	if (rc != 0)
		report_failure(m);
	return rc;
}

void run_outcome_free(struct run_outcome *o)
{
	for (int i = 0; o->astats && i < o->nastats; i++)
		free(o->astats[i]);
	free(o->astats);
	free(o->stats);
	free(o->iv);
	free(o->windows);
	coord_combined_free(&o->clients);
	usage_free(&o->usage);
	memset(o, 0, sizeof(*o));
}

/* An interrupt came before the timed phase (interrupt.h). */
static bool stop_asked(struct run_outcome *out)
{
	if (!interrupt_signal())
		return false;
	fprintf(stderr, "flowbench: interrupted (%s)\n", strsignal(interrupt_signal()));
	if (out) {
		out->interrupted = true;
		snprintf(out->error, sizeof(out->error), "interrupted");
	}
	return true;
}

/* "file:line:col: " for the plan's `run`, or "" without one (--runtime). */
static const char *run_where(const struct plan *p, char *buf, size_t size)
{
	if (!p->run_loc.line)
		return "";
	snprintf(buf, size, "%s:%d:%d: ", p->filename, p->run_loc.line,
		 p->run_loc.col);
	return buf;
}

/*
 * The time values of a run, against plan.h's limits, before anything
 * runs: the compiler and the command line refuse them first with better
 * messages; this guards any other caller, and the --interval series
 * whose length depends on both (runtime / interval rows).
 */
static int check_times(const struct plan *p, double warmup_s, double interval_s)
{
	double runtime_s = runtime_seconds(p);
	char where[256];

	if (!(runtime_s >= 0 && runtime_s <= PLAN_MAX_SECONDS) ||
	    !(warmup_s >= 0 && warmup_s <= PLAN_MAX_SECONDS) ||
	    !(fabs(p->psrun_period) <= PLAN_MAX_SECONDS) ||
	    !(interval_s >= 0 && interval_s <= PLAN_MAX_SECONDS)) {
		log_error("%stime values of %g s (run), %g s (warm-up), %g s (psrun) and %g s (interval): each must be at most flowbench's limit of %g s",
			  run_where(p, where, sizeof(where)), runtime_s, warmup_s,
			  p->psrun_period, interval_s, PLAN_MAX_SECONDS);
		return -1;
	}
	if (interval_s > 0 && runtime_s / interval_s > PLAN_MAX_INTERVALS) {
		log_error("%sa run of %g s with --interval %g makes %.3g intervals, more than flowbench's limit of %d: raise --interval or shorten the run",
			  run_where(p, where, sizeof(where)), runtime_s, interval_s,
			  runtime_s / interval_s, PLAN_MAX_INTERVALS);
		return -1;
	}
	return 0;
}

/* Whose files this client uses (coord.h); a plain run's are its own. */
static enum coord_files files_role(const struct master *m)
{
	return m->coord ? m->coord->ops->files(m->coord->ctx) : COORD_FILES_OWN;
}

/*
 * Everything before the files exist: time limits, the script's actions,
 * what runs, preflight, the files.  Returns 0 when the run goes on, 1
 * when it failed (after a message), 2 when it ends here without a run
 * (`quit` among the actions, a script without `run`).
 */
static int before_files(struct master *m, const struct run_options *opt,
			uint64_t *nproc)
{
	const struct plan *p = m->plan;
	int rc;

	if (stop_asked(m->out))
		return 1;
	if (check_times(p, m->warmup_s, m->interval_s) < 0)
		return 1;
	clock_scale_begin(&m->clk);
	rc = actions_run(p);
	if (stop_asked(m->out))
		return 1;
	if (rc != 0)
		return rc < 0 ? 1 : 2;
	if (!p->has_run)
		return 2;
	for (int i = 0; i < p->nprocs; i++)
		*nproc += p->procs[i].instances;
	if (*nproc == 0) {
		log_error("nothing to run: no process instances are defined");
		return 1;
	}
	raise_nofile();
	if (preflight_check(p) < 0)
		return 1;
	if (files_role(m) == COORD_FILES_ATTACH)
		return 0;       /* another client prepares them: used after agreeing */
	if (fileset_prepare_all(p, opt && opt->force, &m->fs) < 0) {
		stop_asked(m->out);     /* preallocation stopped by an interrupt */
		return 1;
	}
	if (files_role(m) == COORD_FILES_PREPARE &&
	    fileset_share_all(m->fs, p->nfilesets) < 0)
		return 1;
	return 0;
}

/*
 * The cache step.  With other clients, one client per host drops the
 * host's cache once every client prepared its files; when it may not,
 * each client drops its own files' pages.  Warm: each client fills the
 * files it prepared; shared files only by the client that prepared them
 * (two fills of one file would evict each other's pages), the others
 * meeting it at the release.
 */
static int cache_step(struct master *m, const struct run_options *opt)
{
	const struct plan *p = m->plan;
	enum cache_mode mode = opt ? opt->cache : CACHE_COLD;
	struct cache_report *rep = m->out ? &m->out->cache : NULL;
	void *ctx = m->coord ? m->coord->ctx : NULL;
	bool dropped = false;

	if (m->coord && mode == CACHE_WARM && files_role(m) == COORD_FILES_ATTACH) {
		if (rep)
			rep->mode = mode;
		cache_decided(rep, "warm: filled by the client that prepared the shared files");
		return 0;
	}
	if (!m->coord || mode != CACHE_COLD)
		return cache_prepare(m->fs, p->nfilesets, mode, rep);
	if (rep)
		rep->mode = mode;
	if (m->coord->ops->host_leader(ctx))
		dropped = cache_drop_host(rep);
	if (m->coord->ops->host_share(ctx, dropped)) {
		if (rep && !rep->text[0])
			snprintf(rep->text, sizeof(rep->text),
				 "dropped (drop_caches, once for this host)");
		return 0;
	}
	return cache_drop_files(m->fs, p->nfilesets, rep);
}

int run_plan(const struct plan *p, const struct run_options *opt,
	     struct run_outcome *out)
{
	struct master m = { .plan = p, .out = out, .reporter = 1,
			    .coord = opt ? opt->coord : NULL,
			    .pct = opt ? opt->percentiles : NULL,
			    .npct = opt ? opt->npercentiles : 0,
			    .warmup_s = opt ? opt->warmup_s : 0,
			    .interval_s = opt ? opt->interval_s : 0 };
	uint64_t nproc = 0;
	int rc;

	if (out)
		memset(out, 0, sizeof(*out));
	rc = before_files(&m, opt, &nproc);
	if (rc == 2)
		return 0;
	/* every client has its files, or none runs */
	if (coord_agree(&m, rc == 0) < 0) {
		/* another client could not: what this one made from nothing goes */
		if (rc == 0)
			fileset_undo_created(m.fs, p->nfilesets);
		if (rc == 0 && out)
			snprintf(out->error, sizeof(out->error), "%s", m.why);
		rc = 1;
		goto out;
	}
	rc = 1;
	if (files_role(&m) == COORD_FILES_ATTACH && fileset_attach_all(p, &m.fs) < 0)
		goto refused;
	if (cache_step(&m, opt) < 0) {
		stop_asked(out);
		goto refused;
	}
	if (stop_asked(out))
		goto refused;
	if (shared_create(&m.sh, p, m.warmup_s > 0, sizeof(struct fb_thread)) < 0)
		goto refused;
	m.sh.ctl->keep_going = opt && opt->keep_going;
	m.sh.oplog = opt ? opt->oplog : NULL;
	if (m.sh.nslots == 0) {
		log_error("nothing to run: no thread instances are defined");
		goto refused;
	}
	m.w = calloc(nproc, sizeof(*m.w));
	if (!m.w) {
		log_error("out of memory");
		goto refused;
	}
	rc = run_workers(&m);
	if (out) {
		out->tsc = m.clk.tsc;
		out->clock_read_ns = m.clk.read_ns;
	}
	goto out;
refused:
	/* the other clients wait for this one at the release: it is not coming */
	if (m.coord)
		m.coord->ops->agree(m.coord->ctx, false);
out:
	free(m.w);
	shared_destroy(&m.sh);
	fileset_free_all(m.fs, p->nfilesets);
	return rc;
}
