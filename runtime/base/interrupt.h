/*
 * interrupt.h - SIGINT and SIGTERM for the whole of `flowbench run`.
 *
 * The first signal asks for a clean stop: it is remembered, and if a run
 * is in its timed phase (interrupt_attach) the run's halt word is set so
 * every thread stops after its current op; flowbench then prints and
 * writes the results so far and exits 128 + the signal (130, 143).  A
 * second signal exits at once with the same status: the workers die with
 * the master (PR_SET_PDEATHSIG) and the shared region is anonymous
 * memory, so nothing is left behind but files of a half-prepared fileset
 * (which carry flowbench's marker).
 *
 * While an output file is being written (interrupt_on_exit), the second
 * signal's immediate exit first runs the writer's cleanup, which removes
 * its temporary files; once the exit status is final (interrupt_settle),
 * any signal exits at once with that status, never contradicting what the
 * results file says.
 */
#ifndef FLOWBENCH_INTERRUPT_H
#define FLOWBENCH_INTERRUPT_H

#include <signal.h>


/* Catch SIGINT and SIGTERM from now on (idempotent). */
void interrupt_install(void);
/* Restore the previous dispositions. */
void interrupt_restore(void);

/*
 * While a run's workers live: a signal also calls halt(arg), which must
 * be async-signal-safe (the engine sets its halt word and wakes).
 */
void interrupt_attach(void (*halt)(void *arg), void *arg);
void interrupt_detach(void);

/* The first signal caught (SIGINT, SIGTERM), or 0. */
int interrupt_signal(void);

/* The exit status for it: 128 + signal. */
int interrupt_status(void);

/*
 * While set: the second signal calls cleanup(arg) - it must be
 * async-signal-safe (unlink, write) - before exiting 128 + the first
 * signal, and a first signal writes `notice` (may be NULL) to stderr.
 * interrupt_on_exit(NULL, NULL, NULL) clears it; set and clear it with
 * the signals held (interrupt_hold) when `arg` changes meanwhile.
 */
void interrupt_on_exit(void (*cleanup)(void *arg), void *arg,
		       const char *notice);

/*
 * The exit status is final: from now on a signal exits at once with
 * `status` (the handlers stay installed until the process exits).
 */
void interrupt_settle(int status);

/* Hold SIGINT and SIGTERM off this thread (the old mask into *old). */
void interrupt_hold(sigset_t *old);
void interrupt_release(const sigset_t *old);

#endif
