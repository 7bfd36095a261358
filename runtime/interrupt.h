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
 */
#ifndef FLOWBENCH_INTERRUPT_H
#define FLOWBENCH_INTERRUPT_H

struct shared_ctl;

/* Catch SIGINT and SIGTERM from now on (idempotent). */
void interrupt_install(void);
/* Restore the previous dispositions. */
void interrupt_restore(void);

/* While a run's workers live: a signal also halts `c` (HALT_ABORT). */
void interrupt_attach(struct shared_ctl *c);
void interrupt_detach(void);

/* The first signal caught (SIGINT, SIGTERM), or 0. */
int interrupt_signal(void);

/* The exit status for it: 128 + signal. */
int interrupt_status(void);

#endif
