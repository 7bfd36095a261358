/*
 * run.c - the master's side of a run, from script actions to the report.
 *
 * Sequence: actions (echo) -> files -> cache -> shared region -> fork one
 * worker per process instance -> start barrier -> timed phase -> stop ->
 * reap every worker -> report.  Any failure after the fork voids the
 * results: the first error is printed and the status is 1.
 *
 * The master polls its workers (waitpid(WNOHANG)) while it waits, both at
 * the barrier and during the timed phase, so a worker that dies is
 * noticed at once and the run fails with a clear message instead of
 * hanging.  SIGINT/SIGTERM set the abort flag; workers finish their
 * current op and exit; "flowbench: interrupted" is printed, no results.
 */
#include "runtime/run.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runtime/cache.h"
#include "runtime/clock.h"
#include "runtime/fileset.h"
#include "runtime/log.h"
#include "runtime/proc.h"
#include "runtime/report/text.h"
#include "runtime/shared.h"

#define NS_PER_S 1000000000ull
#define STARTUP_TIMEOUT_NS (30 * NS_PER_S)
#define STOP_TIMEOUT_NS (60 * NS_PER_S)
#define POLL_NS (100 * 1000 * 1000ull)
#define DEFAULT_RUNTIME_S 60

struct worker {
	pid_t pid;                /* 0 once reaped (or never started) */
	int proc;
	uint64_t inst;
};

struct master {
	const struct plan *plan;
	struct shared sh;
	struct fs_state *fs;
	struct worker *w;
	uint64_t nw;              /* workers started */
	uint64_t live;            /* not yet reaped */
	char why[512];            /* first worker failure seen by waitpid */
	struct clock_scale clk;   /* op clock, calibrated from start-up to release */
};

/*
 * Process globals (documented exception): the signal handler needs the
 * control words to set the abort flag, and a flag to tell the master.
 */
static struct shared_ctl *sig_ctl;
static volatile sig_atomic_t sig_caught;

static void on_signal(int sig)
{
	(void)sig;
	sig_caught = 1;
	if (sig_ctl)
		shared_halt(sig_ctl, HALT_ABORT);   /* lock-free atomic: signal safe */
}

static void install_signals(struct sigaction *old_int, struct sigaction *old_term)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, old_int);
	sigaction(SIGTERM, &sa, old_term);
}

static void run_actions(const struct plan *p)
{
	for (int i = 0; i < p->nactions; i++) {
		if (p->actions[i].kind == PA_ECHO)
			log_info("%s", p->actions[i].text);
	}
}

/* Many threads, each with many slots: ask for the hard limit. */
static void raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Remember why a worker ended badly (first reason only) and abort. */
static void worker_ended(struct master *m, struct worker *w, int status)
{
	const char *name = m->plan->procs[w->proc].name;
	unsigned long long inst = (unsigned long long)w->inst + 1;

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
		pid_t pid = waitpid(-1, &status, n == 0 && block ? 0 : WNOHANG);

		if (pid < 0 && errno == EINTR)
			continue;
		if (pid <= 0)
			break;
		for (uint64_t i = 0; i < m->nw; i++) {
			if (m->w[i].pid == pid) {
				worker_ended(m, &m->w[i], status);
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

static void sleep_poll(uint64_t until_ns)
{
	uint64_t now = clock_now_ns();

	sleep_until(until_ns < now + POLL_NS ? until_ns : now + POLL_NS);
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
			shared_set_error(c, "start-up took more than %llu s (%llu of %llu threads ready)",
					 STARTUP_TIMEOUT_NS / NS_PER_S,
					 (unsigned long long)ready,
					 (unsigned long long)m->sh.nslots);
			return -1;
		}
		sleep_until(clock_now_ns() + 1000 * 1000);
	}
}

/*
 * Sleep through the timed phase, waking every POLL_NS to notice dead
 * workers, errors, interrupts and normal early ends.  Returns the end time.
 */
static uint64_t timed_phase(struct master *m)
{
	struct shared_ctl *c = m->sh.ctl;

	for (;;) {
		uint64_t now = clock_now_ns();

		if (now >= c->deadline_ns)
			return c->deadline_ns;
		if (shared_halted(c) || m->live == 0)
			return now;
		if (reap(m, false))
			continue;
		if (c->deadline_ns == UINT64_MAX)
			sleep_until(now + POLL_NS);
		else
			sleep_poll(c->deadline_ns);
	}
}

/* Wait for every worker to exit; kill stragglers after STOP_TIMEOUT_NS. */
static void reap_all(struct master *m)
{
	uint64_t limit = clock_now_ns() + STOP_TIMEOUT_NS;

	while (m->live) {
		if (reap(m, false))
			continue;
		if (clock_now_ns() > limit) {
			for (uint64_t i = 0; i < m->nw; i++) {
				if (m->w[i].pid)
					kill(m->w[i].pid, SIGKILL);
			}
			if (!m->why[0])
				snprintf(m->why, sizeof(m->why),
					 "worker processes did not stop within %llu s; killed",
					 STOP_TIMEOUT_NS / NS_PER_S);
			shared_halt(m->sh.ctl, HALT_ABORT);
			limit = UINT64_MAX;
			continue;
		}
		sleep_until(clock_now_ns() + 10 * 1000 * 1000);
	}
}

/* Merge every thread's stats into one fo_stats per plan flowop, then print. */
static int report(struct master *m, double elapsed_s)
{
	const struct plan *p = m->plan;
	struct fo_stats *sum = calloc((size_t)p->nflowops + 1, sizeof(*sum));

	if (!sum) {
		log_error("out of memory");
		return 1;
	}
	atomic_thread_fence(memory_order_acquire);
	for (int i = 0; i < p->nflowops; i++)
		fo_stats_init(&sum[i]);
	for (uint64_t s = 0; s < m->sh.nslots; s++) {
		const struct shared_slot *ss = &m->sh.slots[s];
		const struct plan_thread *pt = &p->threads[ss->thread];

		for (int k = 0; k < pt->nflowops; k++)
			fo_stats_merge(&sum[pt->first_flowop + k], &ss->stats[k]);
	}
	text_report(stdout, p, sum, elapsed_s);
	free(sum);
	return 0;
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

/* Everything after the files are ready.  Returns the exit status. */
static int run_workers(struct master *m)
{
	struct shared_ctl *c = m->sh.ctl;
	struct sigaction old_int, old_term;
	double runtime_s = runtime_seconds(m->plan);
	uint64_t start, end;
	int rc = 1;

	sig_ctl = c;
	sig_caught = 0;
	install_signals(&old_int, &old_term);
	if (start_workers(m) < 0 || wait_ready(m) < 0) {
		shared_halt(c, HALT_ABORT);
		shared_release(c);      /* wake the waiters so they can exit */
		reap_all(m);
		goto out;
	}
	clock_scale_finish(&m->clk);
	c->clk = m->clk;
	start = clock_now_ns();
	c->start_ns = start;
	c->deadline_ns = runtime_s > 0 ? start + (uint64_t)(runtime_s * 1e9) : UINT64_MAX;
	shared_release(c);
	log_info("Running...");
	end = timed_phase(m);
	shared_halt(c, HALT_STOP);
	if (!(shared_halted(c) & HALT_ABORT))
		log_run_took((double)(end - start) / 1e9);
	reap_all(m);
	if (!(shared_halted(c) & HALT_ABORT))
		rc = report(m, (double)(end - start) / 1e9);
out:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sig_ctl = NULL;
	if (rc != 0) {
		const char *err = shared_error(c);

		if (sig_caught) {
			fflush(stdout);
			fputs("flowbench: interrupted\n", stderr);
		} else if (err) {
			log_error("%s", err);
		} else if (m->why[0]) {
			log_error("%s", m->why);
		} else {
			log_error("the run failed without results");
		}
		if (err && m->why[0] && !sig_caught)
			log_error("%s", m->why);
	}
	return rc;
}

int run_plan(const struct plan *p, const struct run_options *opt)
{
	struct master m = { .plan = p };
	uint64_t nproc = 0;
	int rc = 1;

	clock_scale_begin(&m.clk);
	run_actions(p);
	if (!p->has_run)
		return 0;
	for (int i = 0; i < p->nprocs; i++)
		nproc += p->procs[i].instances;
	if (nproc == 0) {
		log_error("nothing to run: no process instances are defined");
		return 1;
	}
	raise_nofile();
	if (fileset_prepare_all(p, &m.fs) < 0)
		return 1;
	if (cache_prepare(m.fs, p->nfilesets, opt && opt->cache == CACHE_WARM) < 0)
		goto out;
	if (shared_create(&m.sh, p) < 0)
		goto out;
	if (m.sh.nslots == 0) {
		log_error("nothing to run: no thread instances are defined");
		goto out;
	}
	m.w = calloc(nproc, sizeof(*m.w));
	if (!m.w) {
		log_error("out of memory");
		goto out;
	}
	rc = run_workers(&m);
out:
	free(m.w);
	shared_destroy(&m.sh);
	fileset_free_all(m.fs, p->nfilesets);
	return rc;
}
