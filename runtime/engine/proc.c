/*
 * proc.c - a worker process: set up, start its threads, join them.
 *
 * Runs in the child right after fork().  The child must not outlive the
 * master (PR_SET_PDEATHSIG) and leaves Ctrl-C to the master (SIGINT
 * ignored); it reports failures through the shared error buffer.
 * proc_state_text() is the master's side: what /proc says a worker that
 * will not exit is doing.
 */
#include "runtime/engine/proc.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "runtime/engine/shared.h"
#include "runtime/engine/thread.h"

/* Process-level setup: name, death signal, signals, niceness. */
static int proc_setup(const struct run_ctx *ctx, const struct plan_proc *pp,
		      pid_t master)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGINT, &sa, NULL);
	sa.sa_handler = SIG_DFL;
	sigaction(SIGTERM, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != master)     /* the master died before prctl */
		return -1;
	prctl(PR_SET_NAME, pp->name);
	if (pp->nice) {
		errno = 0;
		if (nice(pp->nice) == -1 && errno) {
			shared_set_error(ctx->sh->ctl, "process %s: nice(%d): %s",
					 pp->name, pp->nice, strerror(errno));
			return -1;
		}
	}
	return 0;
}

int proc_worker(const struct run_ctx *ctx, int proc, uint64_t inst)
{
	const struct plan_proc *pp = &ctx->plan->procs[proc];
	struct shared *sh = ctx->sh;
	uint64_t n = sh->proc_inst_slots[proc];
	struct fb_thread **th;
	uint64_t started = 0;
	int rc = PROC_EXIT_OK;

	if (proc_setup(ctx, pp, ctx->master) < 0)
		return PROC_EXIT_REPORTED;
	th = calloc(n ? n : 1, sizeof(*th));
	if (!th) {
		shared_set_error(sh->ctl, "process %s: out of memory", pp->name);
		return PROC_EXIT_REPORTED;
	}
	/*
	 * Instances 0 .. n-2 get pthreads; the last one runs on this
	 * process's own thread: one thread fewer, and a worker of a single
	 * thread instance stays single-threaded, so glibc skips the
	 * cancellation bookkeeping it wraps around every pread/pwrite in a
	 * multi-threaded process.  `started` counts the pthreads.  Every
	 * instance is prepared before the first pthread starts: a thread
	 * that ends the run early lowers every thread's deadline
	 * (thread_end_run()), so none may still be being prepared then
	 * (the start barrier orders that too, but through the master, a
	 * process ThreadSanitizer cannot follow; pthread_create() it can).
	 */
	for (uint64_t k = 0; k < n; k++) {
		/* in the shared region: an early end lowers its deadline word */
		uint64_t slot = shared_slot_of(sh, proc, inst, k);

		th[k] = sh->slots[slot].thread_mem;
		if (thread_prepare(th[k], ctx->plan, ctx->filesets, sh, proc, slot) < 0) {
			shared_set_error(sh->ctl, "process %s: out of memory", pp->name);
			rc = PROC_EXIT_REPORTED;
			break;
		}
	}
	for (uint64_t k = 0; rc == PROC_EXIT_OK && k + 1 < n; k++) {
		struct fb_thread *t = th[k];
		int err;

		err = pthread_create(&t->tid, NULL, thread_main, t);
		if (err) {
			shared_set_error(sh->ctl, "process %s: cannot create thread %s: %s",
					 pp->name, t->pt->name, strerror(err));
			rc = PROC_EXIT_REPORTED;
			break;
		}
		started = k + 1;
	}
	if (rc == PROC_EXIT_OK && n > 0) {
		thread_main(th[n - 1]);
		if (th[n - 1]->failed)
			rc = PROC_EXIT_REPORTED;
	}
	for (uint64_t k = 0; k < started; k++) {
		pthread_join(th[k]->tid, NULL);
		if (th[k]->failed)
			rc = PROC_EXIT_REPORTED;
	}
	for (uint64_t k = 0; k < n; k++) {
		if (th[k])
			thread_release_mem(th[k]);
	}
	free(th);
	return rc;
}


/* Thread states of /proc (proc(5)), the most telling for a stuck worker first. */
static const struct {
	char code;
	const char *text;
} thread_states[] = {
	{ 'D', "uninterruptible wait (D)" },
	{ 'T', "stopped (T)" },
	{ 't', "stopped by a tracer (t)" },
	{ 'R', "running (R)" },
	{ 'S', "sleeping (S)" },
	{ 'I', "idle (I)" },
	{ 'Z', "exited, not yet reaped (Z)" },
	{ 'X', "dead (X)" },
};
#define NSTATES (sizeof(thread_states) / sizeof(thread_states[0]))

/* The state letter of one thread's stat file, or 0. */
static char stat_state(const char *path)
{
	char buf[512];
	FILE *f = fopen(path, "re");
	size_t n;
	char *paren;

	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	/* "tid (comm) S ...": comm may hold spaces and parentheses */
	paren = strrchr(buf, ')');
	return paren && paren[1] == ' ' ? paren[2] : 0;
}

void proc_state_text(pid_t pid, char *buf, size_t size)
{
	unsigned count[NSTATES] = { 0 };
	unsigned threads = 0;
	char path[64];
	struct dirent *de;
	DIR *dir;

	snprintf(buf, size, "unknown");
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir)) != NULL) {
		char st;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.20s/stat", (int)pid,
			 de->d_name);
		st = stat_state(path);
		for (size_t i = 0; st && i < NSTATES; i++) {
			if (thread_states[i].code == st) {
				count[i]++;
				threads++;
				break;
			}
		}
	}
	closedir(dir);
	for (size_t i = 0; i < NSTATES; i++) {
		if (!count[i])
			continue;
		if (count[i] == threads)
			snprintf(buf, size, "%s", thread_states[i].text);
		else
			snprintf(buf, size, "%s in %u of %u threads",
				 thread_states[i].text, count[i], threads);
		return;
	}
}
