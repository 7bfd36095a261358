/*
 * proc.h - one worker process instance: its threads from start to exit.
 */
#ifndef FLOWBENCH_PROC_H
#define FLOWBENCH_PROC_H

#include <stdint.h>
#include <sys/types.h>

#include "plan/plan.h"

struct shared;
struct fileset_state;

/* What the master hands to every worker (inherited through fork). */
struct run_ctx {
	const struct plan *plan;
	struct shared *sh;
	const struct fileset_state *filesets;
	pid_t master;                 /* to detect a master that died early */
};

/* Worker exit codes the master understands. */
enum {
	PROC_EXIT_OK = 0,
	PROC_EXIT_REPORTED = 1,   /* failed; the reason is in the shared error */
	PROC_EXIT_SETUP = 2,      /* failed before it could report anything */
};

/*
 * Body of the child process for instance `inst` (0-based) of process
 * definition `proc`: starts its threads, which meet the master at the
 * start barrier, and waits for them.  Returns the exit code.
 */
int proc_worker(const struct run_ctx *ctx, int proc, uint64_t inst);

/*
 * For the master's messages about a worker that does not exit: what its
 * threads are doing, from /proc/PID/task/TID/stat, the most telling state
 * first ("uninterruptible wait (D) in 1 of 4 threads", "stopped (T)",
 * "running (R)", "sleeping (S)", "exited, not yet reaped (Z)"), or
 * "unknown" when /proc cannot say.  Written into buf (always terminated).
 */
void proc_state_text(pid_t pid, char *buf, size_t size);

#endif
