/*
 * test_runctl.c - run control pieces that can be checked without a run:
 * the latency histogram bucket, recording into it and its report line,
 * snapshot loads and interval differences (psrun), and the event
 * generator's arithmetic and accounting (production, taking, waking,
 * stopping).
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/base/clock.h"
#include "runtime/engine/eventgen.h"
#include "runtime/measure/text.h"
#include "runtime/engine/shared.h"
#include "runtime/measure/stats.h"

#include "tests/unit/check_main.h"

START_TEST(test_bucket_edges)
{
	/* bucket i: 2^(i-1) <= ns < 2^i; bucket 0: 0 ns */
	ck_assert_uint_eq(hist_pow2_bucket(0), 0);
	ck_assert_uint_eq(hist_pow2_bucket(1), 1);
	ck_assert_uint_eq(hist_pow2_bucket(2), 2);
	ck_assert_uint_eq(hist_pow2_bucket(3), 2);
	ck_assert_uint_eq(hist_pow2_bucket(4), 3);
	ck_assert_uint_eq(hist_pow2_bucket(1023), 10);
	ck_assert_uint_eq(hist_pow2_bucket(1024), 11);
	ck_assert_uint_eq(hist_pow2_bucket(1ull << 62), 63);
	ck_assert_uint_eq(hist_pow2_bucket((1ull << 62) - 1), 62);
	/* beyond the last bucket: clamped, never out of the array */
	ck_assert_uint_eq(hist_pow2_bucket(1ull << 63), 63);
	ck_assert_uint_eq(hist_pow2_bucket(UINT64_MAX), 63);
}
END_TEST

START_TEST(test_bucket_every_power)
{
	for (unsigned i = 1; i < 63; i++) {
		uint64_t lo = 1ull << (i - 1), hi = (1ull << i) - 1;

		ck_assert_uint_eq(hist_pow2_bucket(lo), i);
		ck_assert_uint_eq(hist_pow2_bucket(hi), i);
	}
}
END_TEST

START_TEST(test_record_fills_histogram)
{
	struct fo_stats s;
	uint64_t total = 0, b[STATS_HIST_BUCKETS];

	fo_stats_init(&s);
	fo_stats_record(&s, 1500, 10);    /* bucket 11 */
	fo_stats_record(&s, 1500, 10);
	fo_stats_record(&s, 100000, 0);   /* bucket 17 */
	ck_assert_uint_eq(s.op.count, 3);
	fo_stats_lathist(&s, b);
	ck_assert_uint_eq(b[11], 2);
	ck_assert_uint_eq(b[17], 1);
	for (int i = 0; i < STATS_HIST_BUCKETS; i++)
		total += b[i];
	ck_assert_uint_eq(total, s.op.count);
	ck_assert_uint_eq(hist_count(&s.lat), 3);
}
END_TEST

START_TEST(test_hist_line_format)
{
	struct fo_stats s;
	char *buf = NULL, want[1024];
	size_t len, n;
	FILE *out = open_memstream(&buf, &len);

	fo_stats_init(&s);
	fo_stats_record(&s, 11000, 0);    /* bucket 14 */
	fo_stats_record(&s, 223000, 0);   /* bucket 18 */
	text_flowop_hist_line(out, "r1", &s, 1.0);
	fclose(out);
	n = (size_t)snprintf(want, sizeof(want), "%-20s 2ops        2ops/s   0.0mb/s"
			     "    0.117ms/op [0.011ms - 0.223ms]\t[ ", "r1");
	for (int i = 0; i < 64; i++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, "%d ",
				      i == 14 || i == 18 ? 1 : 0);
	snprintf(want + n, sizeof(want) - n, "]\n");
	ck_assert_str_eq(buf, want);
	free(buf);
}
END_TEST

START_TEST(test_load_copies_every_word)
{
	struct fo_stats a, b;

	fo_stats_init(&a);
	fo_stats_record(&a, 700, 4096);
	a.discarded = 3;
	stats_record(&a.open, 50, 0);
	memset(&b, 0x5a, sizeof(b));
	fo_stats_load(&b, &a);
	ck_assert_int_eq(memcmp(&a, &b, sizeof(a)), 0);
}
END_TEST

START_TEST(test_interval_difference)
{
	struct fo_stats prev, cur, d;

	fo_stats_init(&prev);
	fo_stats_record(&prev, 100, 1000);
	fo_stats_record(&prev, 300, 1000);
	cur = prev;                        /* the counters keep growing ... */
	fo_stats_record(&cur, 50, 500);
	fo_stats_record(&cur, 2000, 500);
	fo_stats_record(&cur, 2000, 500);
	cur.discarded = 1;
	fo_stats_diff(&d, &cur, &prev);    /* ... the interval is the growth */
	ck_assert_uint_eq(d.op.count, 3);
	ck_assert_uint_eq(d.op.bytes, 1500);
	ck_assert_uint_eq(d.op.lat_sum_ns, 4050);
	ck_assert_uint_eq(d.discarded, 1);
	ck_assert_uint_eq(d.lat.b[hist_index(2000)], 2);
	ck_assert_uint_eq(d.lat.b[hist_index(300)], 0);
	ck_assert_uint_eq(hist_count(&d.lat), 3);
	/* extremes are those of the run so far */
	ck_assert_uint_eq(d.op.lat_min_ns, 50);
	ck_assert_uint_eq(d.op.lat_max_ns, 2000);
}
END_TEST

START_TEST(test_interval_without_ops)
{
	struct fo_stats prev, d;

	fo_stats_init(&prev);
	fo_stats_record(&prev, 100, 1000);
	fo_stats_diff(&d, &prev, &prev);
	ck_assert_uint_eq(d.op.count, 0);
	ck_assert_uint_eq(d.op.lat_sum_ns, 0);
	ck_assert_uint_eq(d.op.lat_min_ns, UINT64_MAX);   /* prints 0.000 */
	ck_assert_uint_eq(d.op.lat_max_ns, 0);
}
END_TEST

START_TEST(test_eventgen_arithmetic)
{
	ck_assert_int_eq(eventgen_due(200, 1000000000ull), 200);
	ck_assert_int_eq(eventgen_due(200, 500000000ull), 100);
	ck_assert_int_eq(eventgen_due(200, 4999999ull), 0);
	ck_assert_int_eq(eventgen_due(0.5, 4000000000ull), 2);
	ck_assert_uint_eq(eventgen_period_ns(200), 50000000ull);   /* 10 periods */
	ck_assert_uint_eq(eventgen_period_ns(1e6), 1000000ull);    /* >= 1 ms */
	ck_assert_uint_eq(eventgen_period_ns(1), 100000000ull);    /* <= 100 ms */
	ck_assert_int_eq(eventgen_cap(200), 1000);
	ck_assert_int_eq(eventgen_cap(0.01), 1);
}
END_TEST

static struct shared_ctl *new_ctl(void)
{
	struct shared_ctl *c = aligned_alloc(64, (sizeof(*c) + 63) / 64 * 64);

	ck_assert_ptr_nonnull(c);
	memset(c, 0, sizeof(*c));
	c->deadline_ns = UINT64_MAX;
	return c;
}

START_TEST(test_take_accounting)
{
	struct shared_ctl *c = new_ctl();

	atomic_store(&c->events, 5);
	ck_assert(eventgen_take(c, 3));
	ck_assert_int_eq(atomic_load(&c->events), 2);
	/* not enough and the run stops: takes what there is, reports false */
	shared_halt(c, HALT_STOP);
	ck_assert(!eventgen_take(c, 4));
	ck_assert_int_eq(atomic_load(&c->events), 0);
	free(c);
}
END_TEST

struct taker {
	struct shared_ctl *c;
	int64_t n;
	bool ok;
};

static void *take_thread(void *arg)
{
	struct taker *tk = arg;

	tk->ok = eventgen_take(tk->c, tk->n);
	return NULL;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

/* Until a consumer sleeps on the event queue (it counts itself in first). */
static void wait_for_sleeper(struct shared_ctl *c)
{
	while (atomic_load(&c->evq.waiters) == 0)
		sleep_ms(1);
}

/*
 * A consumer asleep for `n` events, then the end of the run: ns from the
 * halt until it returned (false, having taken nothing).
 */
static uint64_t halt_latency_ns(int64_t n)
{
	struct shared_ctl *c = new_ctl();
	struct taker tk = { c, n, true };
	pthread_t th;
	uint64_t t0, dt;

	pthread_create(&th, NULL, take_thread, &tk);
	wait_for_sleeper(c);
	t0 = clock_now_ns();
	shared_halt(c, HALT_STOP);
	shared_waitq_wake(&c->evq, 1);
	pthread_join(th, NULL);
	dt = clock_now_ns() - t0;
	ck_assert(!tk.ok);
	free(c);
	return dt;
}

/*
 * A sleeping consumer is woken by each batch, and by the end of the run.
 * Unwoken, it would notice the halt only at its 1 s recheck; the fastest
 * of three tries is bounded, so one try a busy machine stalls cannot fail
 * the test while a halt that does not wake fails all three.
 */
START_TEST(test_take_wakes)
{
	struct shared_ctl *c = new_ctl();
	struct taker tk = { c, 10, false };
	pthread_t th;
	uint64_t best = UINT64_MAX;

	pthread_create(&th, NULL, take_thread, &tk);
	for (int i = 0; i < 10; i++) {
		wait_for_sleeper(c);
		atomic_fetch_add(&c->events, 1);
		shared_waitq_wake(&c->evq, 1);
	}
	pthread_join(th, NULL);
	ck_assert(tk.ok);
	ck_assert_int_eq(atomic_load(&c->events), 0);
	free(c);

	for (int i = 0; i < 3 && best >= 500000000ull; i++) {
		uint64_t dt = halt_latency_ns(10);

		best = dt < best ? dt : best;
	}
	ck_assert_msg(best < 500000000ull, "a halt woke the consumer after %.3f s "
		      "at best (the 1 s recheck, not the wake)", (double)best / 1e9);
}
END_TEST

#define GEN_RATE 1000.0

/*
 * The generator thread produces from the elapsed time: at any moment
 * never more than rate x elapsed events, and the events due at a moment
 * are all there soon after.  "Soon" is measured, not assumed: within
 * half the elapsed time again, which a generator running at half the
 * rate or less (or not at all) cannot meet, however busy the machine.
 * It ends by itself once the run halts.
 */
START_TEST(test_generator_rate)
{
	struct shared_ctl *c = new_ctl();
	struct eventgen g;
	int64_t got, due;
	uint64_t t1, t2, until;

	c->start_ns = clock_now_ns();
	ck_assert_int_eq(eventgen_start(&g, c, GEN_RATE), 0);
	sleep_ms(300);
	t1 = clock_now_ns();
	got = atomic_load(&c->events);
	t2 = clock_now_ns();
	ck_assert_msg(got <= eventgen_due(GEN_RATE, t2 - c->start_ns),
		      "%lld events after %.3f s at %g/s: ahead of time", (long long)got,
		      (double)(t2 - c->start_ns) / 1e9, GEN_RATE);
	due = eventgen_due(GEN_RATE, t1 - c->start_ns);
	until = t1 + (t1 - c->start_ns) / 2;
	while ((got = atomic_load(&c->events)) < due && clock_now_ns() < until)
		sleep_ms(1);
	t2 = clock_now_ns();
	ck_assert_msg(got >= due, "%lld events due at %.3f s, only %lld there at %.3f s",
		      (long long)due, (double)(t1 - c->start_ns) / 1e9, (long long)got,
		      (double)(t2 - c->start_ns) / 1e9);
	ck_assert_int_le(got, eventgen_due(GEN_RATE, t2 - c->start_ns));
	/* a generator deaf to the halt hangs here (Check's timeout fails it) */
	shared_halt(c, HALT_STOP);
	eventgen_stop(&g);
	ck_assert(!g.running);
	free(c);
}
END_TEST

START_TEST(test_generator_disabled)
{
	struct shared_ctl *c = new_ctl();
	struct eventgen g;

	c->start_ns = clock_now_ns();
	ck_assert_int_eq(eventgen_start(&g, c, 0), 0);
	ck_assert(!g.running);          /* rate 0: no thread at all, nothing spins */
	eventgen_stop(&g);
	free(c);
}
END_TEST

static Suite *runctl_suite(void)
{
	Suite *s = suite_create("runctl");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_bucket_edges);
	tcase_add_test(tc, test_bucket_every_power);
	tcase_add_test(tc, test_record_fills_histogram);
	tcase_add_test(tc, test_hist_line_format);
	tcase_add_test(tc, test_load_copies_every_word);
	tcase_add_test(tc, test_interval_difference);
	tcase_add_test(tc, test_interval_without_ops);
	tcase_add_test(tc, test_eventgen_arithmetic);
	tcase_add_test(tc, test_take_accounting);
	tcase_add_test(tc, test_take_wakes);
	tcase_add_test(tc, test_generator_rate);
	tcase_add_test(tc, test_generator_disabled);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(runctl_suite)
