/*
 * cpuuse.c - a process's CPU time, switches and faults, and their use
 * over a window (cpuuse.h).
 *
 * Why /proc as well as getrusage: getrusage() reports only on the caller
 * and wait4() only on a child that has exited, but the master needs its
 * workers' counts at the release, while they sit at the start barrier.
 * Sleeping there, they count nothing, so reading /proc just before the
 * release is exact to the window; their counts at the end come from
 * wait4() when they are reaped.
 */
#include "runtime/measure/cpuuse.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define US_PER_S 1000000ull

void cpuuse_from_rusage(const struct rusage *ru, struct cpu_sample *s)
{
	s->user_us = (uint64_t)ru->ru_utime.tv_sec * US_PER_S + (uint64_t)ru->ru_utime.tv_usec;
	s->sys_us = (uint64_t)ru->ru_stime.tv_sec * US_PER_S + (uint64_t)ru->ru_stime.tv_usec;
	s->ctx = (uint64_t)ru->ru_nvcsw + (uint64_t)ru->ru_nivcsw;
	s->majflt = (uint64_t)ru->ru_majflt;
	s->minflt = (uint64_t)ru->ru_minflt;
}

/* Clock ticks to microseconds, without overflow for any real count. */
static uint64_t ticks_to_us(uint64_t ticks, long hz)
{
	return ticks / (uint64_t)hz * US_PER_S + ticks % (uint64_t)hz * US_PER_S / (uint64_t)hz;
}

int cpuuse_parse_stat(const char *text, long hz, struct cpu_sample *s)
{
	/* after "pid (comm) ": state ppid pgrp session tty_nr tpgid flags
	   minflt cminflt majflt cmajflt utime stime (proc(5) fields 3-15) */
	unsigned long long minflt, majflt, utime, stime;
	const char *p = strrchr(text, ')');
	char state;

	if (!p || hz <= 0)
		return -1;
	if (sscanf(p + 1, " %c %*d %*d %*d %*d %*d %*u %llu %*u %llu %*u %llu %llu",
		   &state, &minflt, &majflt, &utime, &stime) != 5)
		return -1;
	s->minflt = minflt;
	s->majflt = majflt;
	s->user_us = ticks_to_us(utime, hz);
	s->sys_us = ticks_to_us(stime, hz);
	return 0;
}

/* The number after "<name>:" at the start of a line of `text`, or -1. */
static int status_field(const char *text, const char *name, uint64_t *v)
{
	size_t len = strlen(name);

	for (const char *line = text; line && *line; line = strchr(line, '\n')) {
		unsigned long long n;

		if (*line == '\n')
			line++;
		if (strncmp(line, name, len) == 0 && line[len] == ':' &&
		    sscanf(line + len + 1, " %llu", &n) == 1) {
			*v = n;
			return 0;
		}
	}
	return -1;
}

int cpuuse_parse_status_ctx(const char *text, uint64_t *ctx)
{
	uint64_t vol, invol;

	if (status_field(text, "voluntary_ctxt_switches", &vol) < 0 ||
	    status_field(text, "nonvoluntary_ctxt_switches", &invol) < 0)
		return -1;
	*ctx = vol + invol;
	return 0;
}

/* A small /proc file into buf (NUL-terminated).  0 or -1. */
static int read_small(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n ? 0 : -1;
}

/* The switches of every thread of `pid`, summed.  0 or -1. */
static int threads_ctx(int pid, uint64_t *ctx)
{
	char path[96], buf[4096];
	struct dirent *de;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return -1;
	*ctx = 0;
	while ((de = readdir(dir)) != NULL) {
		uint64_t one;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.20s/status", pid,
			 de->d_name);
		if (read_small(path, buf, sizeof(buf)) == 0 &&
		    cpuuse_parse_status_ctx(buf, &one) == 0)
			*ctx += one;
	}
	closedir(dir);
	return 0;
}

int cpuuse_read_pid(int pid, struct cpu_sample *s)
{
	char path[64], buf[1024];

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_small(path, buf, sizeof(buf)) < 0 ||
	    cpuuse_parse_stat(buf, sysconf(_SC_CLK_TCK), s) < 0)
		return -1;
	return threads_ctx(pid, &s->ctx);
}

static uint64_t grown(uint64_t before, uint64_t after)
{
	return after > before ? after - before : 0;
}

void cpuuse_delta(const struct cpu_sample *before, const struct cpu_sample *after,
		  double window_s, struct cpu_usage *u)
{
	u->user_s = (double)grown(before->user_us, after->user_us) / US_PER_S;
	u->sys_s = (double)grown(before->sys_us, after->sys_us) / US_PER_S;
	u->user_pct = window_s > 0 ? 100.0 * u->user_s / window_s : 0;
	u->sys_pct = window_s > 0 ? 100.0 * u->sys_s / window_s : 0;
	u->ctx = grown(before->ctx, after->ctx);
	u->majflt = grown(before->majflt, after->majflt);
	u->minflt = grown(before->minflt, after->minflt);
}

void cpuuse_add(struct cpu_usage *sum, const struct cpu_usage *u)
{
	sum->user_s += u->user_s;
	sum->sys_s += u->sys_s;
	sum->user_pct += u->user_pct;
	sum->sys_pct += u->sys_pct;
	sum->ctx += u->ctx;
	sum->majflt += u->majflt;
	sum->minflt += u->minflt;
}

void cpuuse_fields(FILE *out, const struct cpu_usage *u)
{
	fprintf(out, "usr=%.2f%%, sys=%.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64 ", minf=%" PRIu64,
		u->user_pct, u->sys_pct, u->ctx, u->majflt, u->minflt);
}
