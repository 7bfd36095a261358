/*
 * oom.h - the one out-of-memory policy, stated once.
 *
 * An allocation that fails is never ignored, and never abort()s (no core
 * dump, no status 134 for a user to puzzle over).
 *
 * Before a run exists - the command line, the catalogue, the front end
 * (lang/), import-fio, compare and report - nothing is half done that
 * would need undoing, so a failed allocation ends the process at once:
 * "flowbench: error: out of memory", exit status 1.  Those callers allocate
 * through the x* functions below and never check.
 *
 * Once a run prepares files or has workers (runtime/), a failed
 * allocation is checked where it happens and becomes the run's error
 * (log_error() in the master, thread_fail() in a worker): the run ends
 * the usual way, with its results so far and its results files.  And
 * before anything exists, preflight has compared the run's memory with
 * what the machine has (runtime/engine/preflight.c).
 */
#ifndef FLOWBENCH_OOM_H
#define FLOWBENCH_OOM_H

#include <stddef.h>

/* "flowbench: error: out of memory" on stderr, exit status 1. */
__attribute__((noreturn)) void oom_exit(void);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
