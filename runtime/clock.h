/*
 * clock.h - the one clock flowbench measures with.
 *
 * CLOCK_MONOTONIC through clock_gettime() is served by the vDSO on Linux,
 * so reading it costs no system call: it is the only clock the per-op hot
 * path may use.  Nanoseconds in a uint64_t last for 584 years of uptime.
 */
#ifndef FLOWBENCH_CLOCK_H
#define FLOWBENCH_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline uint64_t clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline struct timespec clock_ns_to_ts(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000u),
		.tv_nsec = (long)(ns % 1000000000u),
	};
	return ts;
}

#endif
