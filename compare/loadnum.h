/*
 * loadnum.h - the numbers of a results file read for compare and report
 * only when they can be measurements: a count is a whole number from 0
 * to 2^63-1, a rate, a time or a latency finite, non-negative and within
 * what a count allows; anything else is an error naming the value's
 * JSON path (docs/compare.md).  Absent and null read as NaN ("-").
 */
#ifndef FLOWBENCH_COMPARE_LOADNUM_H
#define FLOWBENCH_COMPARE_LOADNUM_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* What a number is, for its check and its message. */
enum rf_kind {
	RF_COUNT,      /* ops, errors, ios: 0 .. 2^63-1, whole */
	RF_RATE,       /* per second: 0 .. 2^63-1 */
	RF_MBPS,       /* MiB per second: 0 .. (2^63-1) / 2^20 */
	RF_SECONDS,    /* 0 .. (2^63-1) ns in seconds */
	RF_NS,         /* a latency: 0 .. 2^63-1 ns */
	RF_PERCENT,    /* a share of CPU or time: 0 .. 2^63-1 */
};

/* Where the numbers are read: the file, its run, the first error. */
struct rf_at {
	const char *file;
	int line;              /* where the run starts (from 1); 0: unknown */
	char run[32];          /* "runs[3]", or "" at the top */
	FILE *err;
	bool bad;              /* an error was said (only the first is) */
};

/*
 * obj's `key` as a number of kind k (NaN when absent or null); not one:
 * an error "FILE: runs[3].PREFIX.KEY: VALUE is not a count ..." once,
 * at->bad set, NaN returned.  prefix: "flowops[2].latency_ns", or "".
 */
double rf_num(struct rf_at *at, const char *prefix, const json_t *obj,
	      const char *key, enum rf_kind k);

/* An error about run at's `prefix.key` (printf-style why), said once. */
void rf_bad(struct rf_at *at, const char *prefix, const char *key,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
