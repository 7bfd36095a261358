/*
 * status.c - the live status line (see status.h).
 *
 * The rate is the difference of two running totals over the time between
 * them, so it is the current rate, not the average since the start.
 * "\r" returns to the start of the line and "\033[K" erases what a longer
 * previous line left; both are harmless on any terminal flowbench runs on.
 */
#include "runtime/engine/status.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void status_init(struct status_line *s)
{
	const char *term = getenv("TERM");

	memset(s, 0, sizeof(*s));
	s->on = isatty(STDERR_FILENO) && !(term && strcmp(term, "dumb") == 0);
}

void status_show(struct status_line *s, const char *phase, double elapsed_s,
		 double total_s, uint64_t ops, uint64_t now)
{
	double rate = 0;

	if (!s->on)
		return;
	if (s->last_ns && now > s->last_ns && ops >= s->last_ops)
		rate = (double)(ops - s->last_ops) * 1e9 / (double)(now - s->last_ns);
	s->last_ns = now;
	s->last_ops = ops;
	if (total_s > 0)
		fprintf(stderr, "\r%s: %.0f/%.0f s, %.0f s left, %.0f ops/s\033[K",
			phase, elapsed_s, total_s,
			total_s > elapsed_s ? total_s - elapsed_s : 0, rate);
	else
		fprintf(stderr, "\r%s: %.0f s, %.0f ops/s\033[K", phase, elapsed_s, rate);
	fflush(stderr);
	s->shown = true;
}

void status_clear(struct status_line *s)
{
	if (!s->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	s->shown = false;
}
