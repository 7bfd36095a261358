/*
 * log.h - the timestamped log lines of a run.
 *
 * Like filebench, every informational line is "<seconds since start>: text"
 * on stdout, the seconds taken from the monotonic clock relative to
 * log_init().  Errors and warnings go to stderr, prefixed "flowbench:" so
 * they are never mistaken for results.
 */
#ifndef FLOWBENCH_LOG_H
#define FLOWBENCH_LOG_H

#include <stdio.h>

/* Record the program's start time; call once, first thing in main(). */
void log_init(void);

/*
 * Name this process in every warning and error ("flowbench: rank 2
 * (node7): error: ..."): flowbench-mpi's clients.  NULL or "": nothing.
 */
void log_set_origin(const char *who);

/* Seconds since log_init(). */
double log_elapsed(void);

/* Write the "%.3f: " prefix of a log line to `out`. */
void log_stamp(FILE *out);

/*
 * "s" unless `n` is 1: the plural of a count's noun in a message ("1
 * file", "2 files": printf("%llu file%s", n, log_plural(n))).
 */
static inline const char *log_plural(unsigned long long n)
{
	return n == 1 ? "" : "s";
}

void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * log_error()'s line on `out`: for errors kept to print later in order
 * (compare's files, loaded in parallel) or read by a caller (the tests
 * pass a memory stream).  Not remembered by log_first_error(): these
 * commands write no results file.
 */
void log_error_to(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The text of the first log_error() since log_first_error_reset() (without
 * the "flowbench: error: " prefix), or "" when none: the results file's
 * `error` is the first error line the user saw.  Safe with several
 * threads logging; the first one to log wins.
 */
const char *log_first_error(void);
void log_first_error_reset(void);

#endif
