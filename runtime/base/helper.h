/*
 * helper.h - waiting for a helper process flowbench forked (the
 * preallocation child, a script's `system` command) so that it never
 * holds an interrupt up.
 *
 * A helper that is stopped (SIGSTOP), stuck, or simply slow must not keep
 * flowbench from acting on SIGINT/SIGTERM: the same rule as for the
 * workers (runtime/engine/run.c, docs/robustness.md) applies.  Once a
 * signal came the helper gets HELPER_GRACE_NS to exit; then it is named
 * and sent SIGCONT and SIGKILL (which also ends a stopped one); one that
 * SIGKILL cannot end within HELPER_KILL_WAIT_NS (an uninterruptible
 * wait) is named again and left to init.  The caller then stops as for
 * any interrupt (exit 130/143).
 */
#ifndef FLOWBENCH_HELPER_H
#define FLOWBENCH_HELPER_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#define HELPER_GRACE_NS (250ull * 1000 * 1000)      /* the workers' grace */
#define HELPER_KILL_WAIT_NS (10ull * 1000 * 1000 * 1000)  /* after SIGKILL: abandoned (run.c's KILL_WAIT_NS: why) */

/* helper_wait()'s `flags`. */
enum {
	HELPER_GROUP = 1,   /* `pid` leads a process group of its own: kill the group */
};

/*
 * Wait for helper `pid` (`what` names it in messages: "the
 * preallocation process"; HELPER_* `flags`).  Entered with SIGINT and SIGTERM held
 * (interrupt_hold(); `mask`: the signal mask to wait with), so a signal
 * can only come inside ppoll(), which it cuts short: never lost between
 * a check and the wait.  At the first interrupt seen, `on_interrupt(arg)`
 * (may be NULL) is called once, to pass it on; after the grace the
 * helper is killed.  0 with its wait *status; -1 with errno (waitpid's,
 * or ETIMEDOUT: the helper outlived SIGKILL and was left).
 */
int helper_wait(pid_t pid, const char *what, unsigned flags, const sigset_t *mask,
		void (*on_interrupt)(void *arg), void *arg, int *status);

#endif
