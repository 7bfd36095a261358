/*
 * cpuuse.h - the CPU a process used over the timed window.
 *
 * A user comparing flowbench with fio wants fio's "cpu" line: user and
 * system time as a share of the window, context switches and page
 * faults.  A sample is what the kernel has counted for a process so far
 * (all its threads); the use over the window is the difference of two.
 * Samples come from getrusage()/wait4() (exact, microseconds) or from
 * /proc/<pid>/stat and /proc/<pid>/task/<tid>/status (for a process that
 * is still running, read by its parent): the parsers take plain text so
 * the tests can feed them fixed lines.
 */
#ifndef FLOWBENCH_CPUUSE_H
#define FLOWBENCH_CPUUSE_H

#include <stdint.h>
#include <stdio.h>

struct rusage;

/* What the kernel counted for one process (every thread) until now. */
struct cpu_sample {
	uint64_t user_us, sys_us;   /* CPU time in user and kernel mode */
	uint64_t ctx;               /* context switches, voluntary + involuntary */
	uint64_t majflt, minflt;    /* page faults with and without I/O */
};

/*
 * The use over a window: the times as a percentage of the window's
 * length, 100 % being one CPU busy all the time (a process of four busy
 * threads shows 400 %), fio's convention.
 */
struct cpu_usage {
	double user_s, sys_s;
	double user_pct, sys_pct;
	uint64_t ctx, majflt, minflt;
};

void cpuuse_from_rusage(const struct rusage *ru, struct cpu_sample *s);

/*
 * The times and faults of a /proc/<pid>/stat text (proc(5): the fields
 * after the command name in parentheses, which may itself hold spaces
 * and parentheses); `hz` is sysconf(_SC_CLK_TCK).  ctx is left alone.
 * 0, or -1 when the text is not such a line.
 */
int cpuuse_parse_stat(const char *text, long hz, struct cpu_sample *s);

/*
 * voluntary_ctxt_switches + nonvoluntary_ctxt_switches of a
 * /proc/<pid>/status text (one thread's).  0, or -1 when either is missing.
 */
int cpuuse_parse_status_ctx(const char *text, uint64_t *ctx);

/*
 * A running (or stopped) child's sample from /proc: stat for the
 * process's times and faults, every thread's status for the switches.
 * Clock-tick resolution (usually 10 ms) for the times.  0 or -1.
 */
int cpuuse_read_pid(int pid, struct cpu_sample *s);

/* after - before over a window of `window_s` seconds (counters that went back count 0). */
void cpuuse_delta(const struct cpu_sample *before, const struct cpu_sample *after,
		  double window_s, struct cpu_usage *u);

/* sum += u (the instances of one process definition). */
void cpuuse_add(struct cpu_usage *sum, const struct cpu_usage *u);

/*
 * "usr=61.20%, sys=38.10%, ctx=25, majf=0, minf=310" (no newline): the
 * fields of fio's line, its order and names.
 */
void cpuuse_fields(FILE *out, const struct cpu_usage *u);

#endif
