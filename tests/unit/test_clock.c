/*
 * test_clock.c - the op clock: ticks converted to nanoseconds agree with
 * CLOCK_MONOTONIC over a sleep, with the TSC and with the forced
 * monotonic fallback, deadlines convert both ways, the cost of one read
 * is measured, and the end-of-run check sees a TSC whose rate is wrong.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/base/clock.h"

#include "tests/unit/check_main.h"

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = clock_ns_to_ts(clock_now_ns() + ns);

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
}

/*
 * Ticks over a 50 ms sleep, in ns, against CLOCK_MONOTONIC's own count.
 * Each tick read is bracketed by two CLOCK_MONOTONIC reads, so the span
 * the ticks cover lies between the inner and the outer span of those
 * (however long the thread was preempted between the reads), within the
 * calibration's error (0.1 %).
 */
static void check_interval(const struct clock_scale *cs)
{
	uint64_t n0 = clock_now_ns();
	uint64_t t0 = clock_ticks(cs);
	uint64_t n0b = clock_now_ns();
	uint64_t n1a, t1, n1, ns, inner, outer;

	sleep_ns(50 * 1000 * 1000);
	n1a = clock_now_ns();
	t1 = clock_ticks(cs);
	n1 = clock_now_ns();
	ns = clock_ticks_to_ns(cs, t0, t1);
	inner = n1a - n0b;
	outer = n1 - n0;
	ck_assert_msg(ns <= outer + outer / 1000 && ns + inner / 1000 >= inner,
		      "ticks say %llu ns, CLOCK_MONOTONIC %llu to %llu ns",
		      (unsigned long long)ns, (unsigned long long)inner,
		      (unsigned long long)outer);
}

START_TEST(test_default_clock_matches_monotonic)
{
	struct clock_scale cs;

	unsetenv("FLOWBENCH_CLOCK");
	clock_scale_begin(&cs);
	clock_scale_finish(&cs);
	check_interval(&cs);
	/* one read costs something, and far less than 100 us */
	ck_assert_msg(cs.read_ns > 0 && cs.read_ns < 100000, "read cost %.1f ns",
		      cs.read_ns);
}
END_TEST

START_TEST(test_forced_monotonic)
{
	struct clock_scale cs;

	setenv("FLOWBENCH_CLOCK", "monotonic", 1);
	clock_scale_begin(&cs);
	clock_scale_finish(&cs);
	ck_assert(!cs.tsc);
	ck_assert_uint_eq(cs.mult, 1ull << 32);
	ck_assert_uint_eq(clock_ticks_to_ns(&cs, 1000, 123456789), 123455789);
	ck_assert_uint_eq(clock_ns_to_ticks(&cs, 777), 777);
	check_interval(&cs);
	unsetenv("FLOWBENCH_CLOCK");
}
END_TEST

START_TEST(test_deadline_conversion)
{
	struct clock_scale cs;
	uint64_t now_ns, deadline_ticks, ticks;

	unsetenv("FLOWBENCH_CLOCK");
	clock_scale_begin(&cs);
	clock_scale_finish(&cs);
	ck_assert_uint_eq(clock_ns_to_ticks(&cs, UINT64_MAX), UINT64_MAX);
	now_ns = clock_now_ns();
	deadline_ticks = clock_ns_to_ticks(&cs, now_ns + 30 * 1000 * 1000);
	ticks = clock_ticks(&cs);
	/* not reached yet, unless a stall really took the thread past it */
	ck_assert(ticks < deadline_ticks || clock_now_ns() >= now_ns + 30 * 1000 * 1000);
	sleep_ns(40 * 1000 * 1000);
	ck_assert(clock_ticks(&cs) > deadline_ticks);
	/* a time before calibration converts too */
	ck_assert(clock_ns_to_ticks(&cs, now_ns - 1000000) <
		  clock_ns_to_ticks(&cs, now_ns));
}
END_TEST

START_TEST(test_backwards_interval_is_zero)
{
	struct clock_scale cs = { .tsc = false, .mult = 1ull << 32 };

	ck_assert_uint_eq(clock_ticks_to_ns(&cs, 500, 400), 0);
	cs.mult = 3ull << 31;   /* 1.5 ns per tick */
	ck_assert_uint_eq(clock_ticks_to_ns(&cs, 0, 1000), 1500);
	ck_assert_uint_eq(clock_ticks_to_ns(&cs, 0, 1ull << 62),
			  (1ull << 62) + (1ull << 61));
}
END_TEST

#if CLOCK_HAVE_TSC
/* A (TSC, CLOCK_MONOTONIC) pair with the tightest bracket of five. */
static void tsc_pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 5; i++) {
		uint64_t a = clock_now_ns(), t = __rdtsc(), b = clock_now_ns();

		if (b - a < best) {
			best = b - a;
			*tsc = t;
			*ns = a + (b - a) / 2;
		}
	}
}

/*
 * A TSC scale calibrated here over 50 ms, whatever clocksource the
 * kernel uses (the instruction works on every x86-64).
 */
static void tsc_scale(struct clock_scale *cs)
{
	uint64_t t1 = 0, n1 = 0;

	*cs = (struct clock_scale){ .tsc = true };
	tsc_pair(&cs->tick0, &cs->ns0);
	sleep_ns(50 * 1000 * 1000);
	tsc_pair(&t1, &n1);
	ck_assert(t1 > cs->tick0 && n1 > cs->ns0);
	cs->mult = (uint64_t)((((unsigned __int128)(n1 - cs->ns0)) << 32) /
			      (t1 - cs->tick0));
	cs->tick0 = t1;
	cs->ns0 = n1;
}
#endif

START_TEST(test_drift)
{
	struct clock_scale cs;

	/* nanosecond ticks are CLOCK_MONOTONIC's own: no drift */
	setenv("FLOWBENCH_CLOCK", "monotonic", 1);
	clock_scale_begin(&cs);
	clock_scale_finish(&cs);
	sleep_ns(10 * 1000 * 1000);
	ck_assert(clock_scale_drift_ppm(&cs) == 0);
	unsetenv("FLOWBENCH_CLOCK");
#if CLOCK_HAVE_TSC
	double ppm;

	/* a true rate: well under the warning's threshold after 50 ms */
	tsc_scale(&cs);
	sleep_ns(50 * 1000 * 1000);
	ppm = clock_scale_drift_ppm(&cs);
	ck_assert_msg(ppm > -CLOCK_DRIFT_WARN_PPM && ppm < CLOCK_DRIFT_WARN_PPM,
		      "a calibrated TSC drifted %.1f ppm", ppm);
	/* a rate 1 % too fast: +10,000 ppm, whatever the time since */
	tsc_scale(&cs);
	cs.mult += cs.mult / 100;
	sleep_ns(50 * 1000 * 1000);
	ppm = clock_scale_drift_ppm(&cs);
	ck_assert_msg(ppm > 9000 && ppm < 11000, "a TSC 1 %% fast drifted %.1f ppm", ppm);
	/* ... 1 % too slow */
	cs.mult -= 2 * (cs.mult / 101);
	ppm = clock_scale_drift_ppm(&cs);
	ck_assert_msg(ppm < -9000 && ppm > -11000, "a TSC 1 %% slow drifted %.1f ppm", ppm);
	/* a TSC now behind its calibration went back: the largest drift */
	cs.tick0 = __rdtsc() + (1ull << 40);
	ck_assert(clock_scale_drift_ppm(&cs) <= -1e6);
#endif
}
END_TEST

START_TEST(test_kernel_source)
{
	char buf[32], tiny[1];
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	ck_assert(!clock_kernel_source(tiny, sizeof(tiny)));
	if (!f) {
		ck_assert(!clock_kernel_source(buf, sizeof(buf)));
		return;
	}
	fclose(f);
	ck_assert(clock_kernel_source(buf, sizeof(buf)));
	/* one name, no newline: "tsc", "kvm-clock", "hpet", "acpi_pm"... */
	ck_assert(buf[0] != '\0' && !strchr(buf, '\n') && !strchr(buf, ' '));
}
END_TEST

static Suite *clock_suite(void)
{
	Suite *s = suite_create("clock");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_default_clock_matches_monotonic);
	tcase_add_test(tc, test_forced_monotonic);
	tcase_add_test(tc, test_deadline_conversion);
	tcase_add_test(tc, test_backwards_interval_is_zero);
	tcase_add_test(tc, test_drift);
	tcase_add_test(tc, test_kernel_source);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(clock_suite)
