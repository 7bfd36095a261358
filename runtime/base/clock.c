/*
 * clock.c - choosing and calibrating the op clock; see clock.h.
 */
#include "runtime/base/clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALIBRATE_MIN_NS (20 * 1000 * 1000ull)

bool clock_kernel_source(char *buf, size_t size)
{
	FILE *f;
	bool ok;

	if (size < 2)
		return false;
	f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");
	if (!f)
		return false;
	ok = fgets(buf, (int)size, f) != NULL;
	fclose(f);
	if (!ok)
		return false;
	buf[strcspn(buf, "\n")] = '\0';
	return true;
}

/* True when the kernel keeps time with the TSC, so it is trustworthy. */
static bool kernel_uses_tsc(void)
{
	char buf[32];
	const char *force = getenv("FLOWBENCH_CLOCK");

	if (!CLOCK_HAVE_TSC || (force && strcmp(force, "monotonic") == 0))
		return false;
	return clock_kernel_source(buf, sizeof(buf)) && strcmp(buf, "tsc") == 0;
}

/* A (ticks, ns) pair read as close together as possible. */
static void read_pair(const struct clock_scale *cs, uint64_t *ticks, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 5; i++) {
		uint64_t a = clock_now_ns();
		uint64_t t = clock_ticks(cs);
		uint64_t b = clock_now_ns();

		if (b - a < best) {
			best = b - a;
			*ticks = t;
			*ns = a + (b - a) / 2;
		}
	}
}

void clock_scale_begin(struct clock_scale *cs)
{
	memset(cs, 0, sizeof(*cs));
	cs->tsc = kernel_uses_tsc();
	cs->mult = 1ull << 32;
	read_pair(cs, &cs->tick0, &cs->ns0);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The median interval between two back-to-back reads: what one read
 * adds to a measured latency.  The median ignores the pairs an
 * interrupt or a migration stretched.
 */
static double read_cost_ns(const struct clock_scale *cs)
{
	uint64_t d[CLOCK_READ_PAIRS];

	for (int i = 0; i < CLOCK_READ_PAIRS; i++) {
		uint64_t a = clock_ticks(cs);
		uint64_t b = clock_ticks(cs);

		d[i] = b > a ? b - a : 0;
	}
	qsort(d, CLOCK_READ_PAIRS, sizeof(d[0]), cmp_u64);
	return (double)d[CLOCK_READ_PAIRS / 2] * (double)cs->mult / 4294967296.0;
}

const char *clock_name(const struct clock_scale *cs)
{
	return cs->tsc ? "tsc" : "monotonic";
}

static void calibrate(struct clock_scale *cs)
{
	uint64_t ticks, ns;

	if (!cs->tsc) {
		cs->tick0 = cs->ns0 = clock_now_ns();
		return;
	}
	if (clock_now_ns() < cs->ns0 + CALIBRATE_MIN_NS) {
		struct timespec ts = clock_ns_to_ts(cs->ns0 + CALIBRATE_MIN_NS);

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			;
	}
	read_pair(cs, &ticks, &ns);
	if (ticks <= cs->tick0 || ns <= cs->ns0) {
		/* the TSC did not advance sensibly: measure in nanoseconds */
		cs->tsc = false;
		cs->mult = 1ull << 32;
		cs->tick0 = cs->ns0 = clock_now_ns();
		return;
	}
	cs->mult = (uint64_t)((((unsigned __int128)(ns - cs->ns0)) << 32) /
			      (ticks - cs->tick0));
	cs->tick0 = ticks;
	cs->ns0 = ns;
}

void clock_scale_finish(struct clock_scale *cs)
{
	calibrate(cs);
	cs->read_ns = read_cost_ns(cs);
}

double clock_scale_drift_ppm(const struct clock_scale *cs)
{
	uint64_t ticks, ns, by_ticks;

	if (!cs->tsc)
		return 0;
	read_pair(cs, &ticks, &ns);
	if (ns <= cs->ns0)
		return 0;
	if (ticks <= cs->tick0)         /* the TSC went back, or stopped */
		return -1e6;
	by_ticks = cs->ns0 + clock_ticks_to_ns(cs, cs->tick0, ticks);
	return ((double)by_ticks - (double)ns) / (double)(ns - cs->ns0) * 1e6;
}

uint64_t clock_ns_to_ticks(const struct clock_scale *cs, uint64_t ns)
{
	unsigned __int128 d;

	if (!cs->tsc)
		return ns;
	if (ns == UINT64_MAX)
		return UINT64_MAX;
	if (ns <= cs->ns0)
		return cs->tick0 - (uint64_t)((((unsigned __int128)(cs->ns0 - ns)) << 32) / cs->mult);
	d = (((unsigned __int128)(ns - cs->ns0)) << 32) / cs->mult;
	return d > UINT64_MAX - cs->tick0 ? UINT64_MAX : cs->tick0 + (uint64_t)d;
}
