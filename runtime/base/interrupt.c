/*
 * interrupt.c - SIGINT/SIGTERM handling (see interrupt.h).
 *
 * Process globals (documented exception to "no global state"): a signal
 * handler takes no argument, so what it needs - the signal seen and the
 * control words to halt - must be reachable from it.  Everything the
 * handler does is async-signal-safe: lock-free atomic stores, the run's halt
 * hook (an atomic fetch-or and a futex wake: the engine's shared_halt),
 * write(2), the writer's cleanup (unlinkat(2)) and _exit(2).
 */
#include "runtime/base/interrupt.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

/*
 * The first signal, or 0: a lock-free atomic, since threads other than
 * the one the handler interrupts read it (preallocation's workers poll
 * it), which a volatile sig_atomic_t does not make safe.
 */
static _Atomic int caught;
static void (*volatile halt_fn)(void *);          /* the running run's, or NULL */
static void *volatile halt_arg;
static void (*volatile exit_cleanup)(void *);     /* interrupt_on_exit */
static void *volatile exit_arg;
static const char *volatile exit_notice;
static volatile sig_atomic_t settled = -1;       /* interrupt_settle, or -1 */
static struct sigaction old_int, old_term;
static bool installed;

static void async_say(const char *msg)
{
	if (write(STDERR_FILENO, msg, strlen(msg)) < 0) {
		/* nothing more can be done */
	}
}

static void on_signal(int sig)
{
	void (*halt)(void *) = halt_fn;
	void (*cleanup)(void *) = exit_cleanup;

	if (settled >= 0)
		_exit(settled);
	if (atomic_load(&caught)) {
		async_say("\nflowbench: second interrupt: exiting now\n");
		if (cleanup)
			cleanup(exit_arg);
		_exit(128 + atomic_load(&caught));
	}
	atomic_store(&caught, sig);
	if (cleanup && exit_notice)
		async_say(exit_notice);
	if (halt)
		halt(halt_arg);
}

void interrupt_install(void)
{
	struct sigaction sa;

	if (installed)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	installed = true;
}

void interrupt_restore(void)
{
	if (!installed)
		return;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	installed = false;
	halt_fn = NULL;
}

void interrupt_attach(void (*halt)(void *arg), void *arg)
{
	halt_fn = NULL;
	halt_arg = arg;
	halt_fn = halt;
	if (atomic_load(&caught))   /* caught before the run could be told */
		halt(arg);
}

void interrupt_detach(void)
{
	halt_fn = NULL;
}

int interrupt_signal(void)
{
	return atomic_load(&caught);
}

int interrupt_status(void)
{
	int sig = atomic_load(&caught);

	return sig ? 128 + sig : 0;
}

void interrupt_on_exit(void (*cleanup)(void *arg), void *arg,
		       const char *notice)
{
	exit_cleanup = NULL;        /* never a new cleanup with the old arg */
	exit_arg = arg;
	exit_notice = notice;
	exit_cleanup = cleanup;
}

void interrupt_settle(int status)
{
	settled = status;
}

/* The signals this module handles, as a set. */
static void handled_set(sigset_t *s)
{
	sigemptyset(s);
	sigaddset(s, SIGINT);
	sigaddset(s, SIGTERM);
}

void interrupt_hold(sigset_t *old)
{
	sigset_t s;

	handled_set(&s);
	pthread_sigmask(SIG_BLOCK, &s, old);
}

void interrupt_release(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}
