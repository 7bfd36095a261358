/*
 * interrupt.c - SIGINT/SIGTERM handling (see interrupt.h).
 *
 * Process globals (documented exception to "no global state"): a signal
 * handler takes no argument, so what it needs - the signal seen and the
 * control words to halt - must be reachable from it.  Everything the
 * handler does is async-signal-safe: sig_atomic_t stores, an atomic
 * fetch-or and a futex wake (shared_halt), write(2) and _exit(2).
 */
#include "runtime/interrupt.h"

#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "runtime/shared.h"

static volatile sig_atomic_t caught;              /* first signal, or 0 */
static struct shared_ctl *volatile halt_ctl;      /* the running run's, or NULL */
static struct sigaction old_int, old_term;
static bool installed;

static void on_signal(int sig)
{
	struct shared_ctl *c = halt_ctl;

	if (caught) {
		static const char msg[] = "\nflowbench: second interrupt: exiting now\n";

		if (write(STDERR_FILENO, msg, sizeof(msg) - 1) < 0) {
			/* nothing more can be done */
		}
		_exit(128 + caught);
	}
	caught = sig;
	if (c)
		shared_halt(c, HALT_ABORT);
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
	halt_ctl = NULL;
}

void interrupt_attach(struct shared_ctl *c)
{
	halt_ctl = c;
	if (caught)                 /* caught before the run could be told */
		shared_halt(c, HALT_ABORT);
}

void interrupt_detach(void)
{
	halt_ctl = NULL;
}

int interrupt_signal(void)
{
	return caught;
}

int interrupt_status(void)
{
	return caught ? 128 + caught : 0;
}
