/*
 * status.h - the live status line of a run on a terminal.
 *
 * One line on stderr, rewritten in place about once a second: the phase
 * (warming up, running), elapsed and remaining time, and the current
 * total ops/s.  Only when stderr is a terminal (and TERM is not "dumb"):
 * logs and redirected output never see it.  Whoever prints anything else
 * to the terminal during the timed phase clears it first.
 */
#ifndef FLOWBENCH_STATUS_H
#define FLOWBENCH_STATUS_H

#include <stdbool.h>
#include <stdint.h>

#define STATUS_PERIOD_NS 1000000000ull

struct status_line {
	bool on;
	bool shown;             /* something is on the line now */
	uint64_t last_ns;       /* time of the previous rate sample */
	uint64_t last_ops;
};

/* Decide whether to show it at all (a terminal on stderr). */
void status_init(struct status_line *s);

/*
 * Show the phase, `elapsed_s` of `total_s` (total_s <= 0: no limit), and
 * the ops/s since the previous call from the running total `ops` at `now`.
 */
void status_show(struct status_line *s, const char *phase, double elapsed_s,
		 double total_s, uint64_t ops, uint64_t now);

/* Erase the line (before other output, and at the end of the phase). */
void status_clear(struct status_line *s);

#endif
