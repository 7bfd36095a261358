/*
 * helper.c - waiting for a helper process under the interrupt rule (see
 * helper.h).
 */
#include "runtime/base/helper.h"

#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/base/clock.h"
#include "runtime/base/interrupt.h"
#include "runtime/base/log.h"

#define HELPER_TICK_NS (1000ull * 1000 * 1000)   /* with a pidfd: wake at least every 1 s */
#define HELPER_POLL_NS (10ull * 1000 * 1000)     /* without one: every 10 ms */

/* A descriptor that turns readable when `pid` exits, or -1 (before Linux 5.3). */
static int exit_fd(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

/* Where a wait stands once an interrupt came: when, and whether killed. */
struct helper_clock {
	uint64_t signalled_ns;     /* the interrupt seen (0: none yet) */
	uint64_t killed_ns;        /* SIGKILL sent (0: not yet) */
	bool noticed;              /* the wait after SIGKILL said */
};

#define HELPER_KILL_NOTICE_NS (1000ull * 1000 * 1000)   /* then the wait is said */

/*
 * After an interrupt: kill the helper once its grace is over; true when
 * it outlived SIGKILL too (abandoned).  *wait_ns: how long to sleep at most.
 */
static bool helper_enforce(pid_t pid, const char *what, unsigned flags,
			   struct helper_clock *hc, uint64_t *wait_ns)
{
	uint64_t now = clock_now_ns();
	pid_t target = flags & HELPER_GROUP ? -pid : pid;

	if (!hc->killed_ns && now - hc->signalled_ns >= HELPER_GRACE_NS) {
		log_warn("%s (pid %d) has not exited %.2f s after the interrupt; killing it",
			 what, (int)pid, (double)HELPER_GRACE_NS / 1e9);
		kill(target, SIGCONT);
		kill(target, SIGKILL);
		hc->killed_ns = now ? now : 1;
	}
	if (hc->killed_ns && !hc->noticed && now - hc->killed_ns >= HELPER_KILL_NOTICE_NS) {
		log_warn("%s (pid %d) has not died %.2f s after SIGKILL; waiting up to "
			 "%.2f s for it (Ctrl-C again exits without it)", what, (int)pid,
			 (double)HELPER_KILL_NOTICE_NS / 1e9, (double)HELPER_KILL_WAIT_NS / 1e9);
		hc->noticed = true;
	}
	if (hc->killed_ns && now - hc->killed_ns >= HELPER_KILL_WAIT_NS) {
		log_warn("%s (pid %d) has not exited %.2f s after SIGKILL (an "
			 "uninterruptible wait?); leaving it", what, (int)pid,
			 (double)HELPER_KILL_WAIT_NS / 1e9);
		return true;
	}
	if (hc->killed_ns)
		*wait_ns = hc->killed_ns + (hc->noticed ? HELPER_KILL_WAIT_NS :
					    HELPER_KILL_NOTICE_NS) - now;
	else
		*wait_ns = hc->signalled_ns + HELPER_GRACE_NS - now;
	return false;
}

int helper_wait(pid_t pid, const char *what, unsigned flags, const sigset_t *mask,
		void (*on_interrupt)(void *arg), void *arg, int *status)
{
	int fd = exit_fd(pid);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	struct helper_clock hc = { 0, 0, false };
	pid_t w;
	int err;

	while ((w = waitpid(pid, status, WNOHANG)) == 0 || (w < 0 && errno == EINTR)) {
		uint64_t wait_ns = fd >= 0 ? HELPER_TICK_NS : HELPER_POLL_NS;
		struct timespec ts;

		if (interrupt_signal() && !hc.signalled_ns) {
			hc.signalled_ns = clock_now_ns();
			if (on_interrupt)
				on_interrupt(arg);
		}
		if (hc.signalled_ns) {
			uint64_t left = wait_ns;

			if (helper_enforce(pid, what, flags, &hc, &left)) {
				w = -1;
				errno = ETIMEDOUT;
				break;
			}
			if (left < wait_ns)
				wait_ns = left ? left : 1;
		}
		ts = clock_ns_to_ts(wait_ns);
		ppoll(fd >= 0 ? &pfd : NULL, fd >= 0 ? 1 : 0, &ts, mask);
	}
	err = errno;
	if (fd >= 0)
		close(fd);
	errno = err;
	return w == pid ? 0 : -1;
}
