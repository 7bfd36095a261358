/*
 * log.c - timestamped info lines on stdout, errors on stderr.
 *
 * Every line is flushed at once: the master forks workers, and a line
 * still sitting in a stdio buffer would be printed once per process.
 */
#include "runtime/base/log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "runtime/base/clock.h"

/* Process global (documented exception): the start of the program. */
static uint64_t log_start_ns;

/*
 * Process global (documented exception): the first error's text, for the
 * results file.  `first_state` goes EMPTY -> WRITING (one thread claimed
 * it) -> SET; a lock-free claim, so a forked worker never inherits a lock.
 */
enum { FIRST_EMPTY, FIRST_WRITING, FIRST_SET };

/*
 * Process global (documented exception): who this process is among the
 * clients of a flowbench-mpi run ("rank 2 (node7)"), named in every
 * warning and error; "" in a plain run.  Set once before anything runs.
 */
static char log_origin[128];
static atomic_int first_state;
static char first_text[2048];

void log_init(void)
{
	log_start_ns = clock_now_ns();
}

void log_set_origin(const char *who)
{
	snprintf(log_origin, sizeof(log_origin), "%s", who ? who : "");
}

double log_elapsed(void)
{
	return (double)(clock_now_ns() - log_start_ns) / 1e9;
}

void log_stamp(FILE *out)
{
	fprintf(out, "%.3f: ", log_elapsed());
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	log_stamp(stdout);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/* One prefixed line on `out` (stderr, or a stream printed there later). */
static void log_to(FILE *out, const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
/*
 * The whole line is formatted first and written at once: stderr is
 * unbuffered, and written piece by piece the lines of several processes
 * sharing it (the ranks of flowbench-mpi under mpirun, workers) were
 * interleaved mid-line.  A line longer than the buffer is written in
 * pieces, as before.
 */
static void log_to(FILE *out, const char *prefix, const char *fmt, va_list ap)
{
	char line[4096];
	va_list again;
	int n, m;

	fflush(stdout);
	if (log_origin[0])
		n = snprintf(line, sizeof(line), "flowbench: %s: %s", log_origin,
			     prefix + strlen("flowbench: "));
	else
		n = snprintf(line, sizeof(line), "%s", prefix);
	va_copy(again, ap);
	m = n >= 0 && (size_t)n < sizeof(line) ?
	    vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, again) : -1;
	va_end(again);
	if (m >= 0 && (size_t)n + (size_t)m + 1 < sizeof(line)) {
		line[n + m] = '\n';
		fwrite(line, 1, (size_t)n + (size_t)m + 1, out);
	} else {
		if (n >= 0 && (size_t)n < sizeof(line))
			line[n] = '\0';
		fputs(line, out);
		vfprintf(out, fmt, ap);
		fputc('\n', out);
	}
	fflush(out);
}

static void log_to_stderr(const char *prefix, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
static void log_to_stderr(const char *prefix, const char *fmt, va_list ap)
{
	log_to(stderr, prefix, fmt, ap);
}

void log_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_to_stderr("flowbench: warning: ", fmt, ap);
	va_end(ap);
}

/* Keep the text of the first error since the last reset. */
static void remember_first(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));
static void remember_first(const char *fmt, va_list ap)
{
	int empty = FIRST_EMPTY;

	if (!atomic_compare_exchange_strong(&first_state, &empty, FIRST_WRITING))
		return;
	vsnprintf(first_text, sizeof(first_text), fmt, ap);
	atomic_store(&first_state, FIRST_SET);
}

void log_error(const char *fmt, ...)
{
	va_list ap, copy;

	va_start(ap, fmt);
	va_copy(copy, ap);
	remember_first(fmt, copy);
	va_end(copy);
	log_to_stderr("flowbench: error: ", fmt, ap);
	va_end(ap);
}

void log_error_to(FILE *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_to(out, "flowbench: error: ", fmt, ap);
	va_end(ap);
}

const char *log_first_error(void)
{
	return atomic_load(&first_state) == FIRST_SET ? first_text : "";
}

void log_first_error_reset(void)
{
	atomic_store(&first_state, FIRST_EMPTY);
}
