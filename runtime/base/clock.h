/*
 * clock.h - the clocks flowbench measures with.
 *
 * Wall-clock decisions (start, deadline, log stamps) use CLOCK_MONOTONIC
 * in nanoseconds, served by the vDSO without a system call.
 *
 * Op latencies are taken in "ticks" by clock_ticks(): on x86-64, where the
 * kernel itself keeps time with the TSC (its clocksource is "tsc", which
 * it only chooses when the TSC is invariant and synchronised across
 * CPUs), a tick is one TSC cycle, read with RDTSC in ~10 ns instead of
 * ~25 ns for clock_gettime.  Two reads per op make that the largest
 * measurement cost flowbench adds to a cached 8 KiB read.  Elsewhere, or
 * with FLOWBENCH_CLOCK=monotonic in the environment, a tick is a
 * CLOCK_MONOTONIC nanosecond.  struct clock_scale converts ticks to
 * nanoseconds; the master calibrates it against CLOCK_MONOTONIC between
 * start-up and the release of the threads (at least 20 ms apart, so the
 * rate is known to a few parts per million).
 */
#ifndef FLOWBENCH_CLOCK_H
#define FLOWBENCH_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define CLOCK_HAVE_TSC 1
#else
#define CLOCK_HAVE_TSC 0
#endif

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

struct clock_scale {
	bool tsc;            /* ticks are TSC cycles (else nanoseconds) */
	uint64_t mult;       /* ns = ticks * mult >> 32 */
	uint64_t tick0;      /* a tick reading taken at ... */
	uint64_t ns0;        /* ... this CLOCK_MONOTONIC time */
	double read_ns;      /* cost of one clock_ticks() read, measured at
				clock_scale_finish(): every op latency
				includes about one such read */
};

/* Hot path: the current time in ticks. */
static inline uint64_t clock_ticks(const struct clock_scale *cs)
{
#if CLOCK_HAVE_TSC
	if (cs->tsc)
		return __rdtsc();
#endif
	(void)cs;
	return clock_now_ns();
}

/* Hot path: a tick interval in nanoseconds (0 if the clock went back). */
static inline uint64_t clock_ticks_to_ns(const struct clock_scale *cs,
					 uint64_t t0, uint64_t t1)
{
	if (t1 <= t0)
		return 0;
	return (uint64_t)(((unsigned __int128)(t1 - t0) * cs->mult) >> 32);
}

/* Start calibrating: choose the tick source and take the first reading. */
void clock_scale_begin(struct clock_scale *cs);
/*
 * Finish calibrating (sleeps until 20 ms after begin if needed), then
 * measure the read cost: the median of CLOCK_READ_PAIRS intervals
 * between two back-to-back clock_ticks(), in ns (cs->read_ns).
 */
void clock_scale_finish(struct clock_scale *cs);
#define CLOCK_READ_PAIRS 1000
/*
 * After a run: how far the tick clock, extrapolated from the calibration,
 * is now from CLOCK_MONOTONIC, in parts per million of the time since
 * the calibration (positive: the ticks ran fast).  0 when a tick is a
 * CLOCK_MONOTONIC nanosecond.  NTP may slew CLOCK_MONOTONIC by up to
 * 500 ppm, so only more than CLOCK_DRIFT_WARN_PPM says the TSC changed
 * rate or jumped (an unstable TSC, a VM moved to another host).
 */
double clock_scale_drift_ppm(const struct clock_scale *cs);
#define CLOCK_DRIFT_WARN_PPM 1000.0
/*
 * The kernel's clocksource now ("tsc", "kvm-clock", "hpet"...), in buf;
 * false when it cannot be read.  The kernel leaves the TSC when its
 * watchdog finds it unstable: a run timed with it is then suspect.
 */
bool clock_kernel_source(char *buf, size_t size);
/* "tsc" or "monotonic": what a tick is. */
const char *clock_name(const struct clock_scale *cs);
/* The tick reading that corresponds to CLOCK_MONOTONIC time `ns`. */
uint64_t clock_ns_to_ticks(const struct clock_scale *cs, uint64_t ns);

#endif
