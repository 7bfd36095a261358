/*
 * test_choice.c - a choice's draws (flowops/choice.c) in a thread built
 * by hand: over 10^5 draws the split matches the weights (within 1 % of
 * the odds and within the binomial's spread; a chi-square test for three
 * members), the sequence passes a Wald-Wolfowitz runs test where a
 * periodic one (7 reads then 3 writes, or strict alternation) fails it,
 * the same seed draws the same sequence and another seed another one, a
 * member of weight 0 is never drawn, twelve members (the binary search)
 * keep their odds, and the drawn member runs its `iters` times.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "runtime/base/rng.h"
#include "runtime/engine/thread.h"
#include "runtime/measure/stats.h"

#include "tests/unit/check_main.h"

#define NDRAWS 100000
#define MAXM 12

/* What the members' run functions write: one letter per execution. */
struct recorder {
	char *seq;
	size_t n, cap;
};

struct member {
	struct recorder *rec;
	char letter;
};

static enum flowop_result member_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct member *m = fi->priv;

	(void)t;
	ck_assert_uint_lt(m->rec->n, m->rec->cap);
	m->rec->seq[m->rec->n++] = m->letter;
	return FLOWOP_OK;
}

static const struct flowop_ops member_ops = {
	.name = "member", .cls = FLOWOP_CLASS_OTHER, .run = member_run,
};

/* A thread whose entry 0 is a choice among members a, b, ... */
struct rig {
	struct fb_thread t;
	struct shared_ctl *ctl;
	struct flowop_inst *fi;
	struct plan_flowop pf[MAXM + 1];
	struct plan_value attr[MAXM + 1][PA_OWN];
	struct fo_stats st[MAXM + 1];
	struct member mem[MAXM];
	struct recorder rec;
};

/* `n` members of weights `w`, each run `iters` times when drawn. */
static void rig_setup(struct rig *g, uint64_t seed, int n, const int64_t *w,
		      int64_t iters, size_t cap)
{
	memset(g, 0, sizeof(*g));
	g->ctl = aligned_alloc(64, (sizeof(*g->ctl) + 63) / 64 * 64);
	g->fi = aligned_alloc(64, (size_t)(n + 1) * sizeof(*g->fi));
	g->rec.seq = malloc(cap);
	ck_assert(g->ctl && g->fi && g->rec.seq);
	memset(g->ctl, 0, sizeof(*g->ctl));
	memset(g->fi, 0, (size_t)(n + 1) * sizeof(*g->fi));
	g->rec.cap = cap;
	g->t.ctl = g->ctl;
	g->t.fo = g->fi;
	g->t.nfo = n + 1;
	rng_seed_thread(&g->t.rng, seed, 0, 0, 0, 0);
	for (int k = 0; k <= n; k++) {
		g->pf[k].ops = k ? &member_ops : &flowops_choice;
		g->pf[k].name = k ? "member" : "choice";
		g->pf[k].attr = g->attr[k];
		g->pf[k].nattr = PA_OWN;
		g->pf[k].ndesc = k ? 0 : n;
		g->pf[k].fileset = -1;
		g->fi[k].pf = &g->pf[k];
		g->fi[k].run = g->pf[k].ops->run;
		g->fi[k].ndesc = g->pf[k].ndesc;
		g->fi[k].stats = &g->st[k];
		g->fi[k].iters = k ? iters : 1;
		if (!k)
			continue;
		g->attr[k][PA_WEIGHT] = (struct plan_value){ .kind = PV_INT, .u.i = w[k - 1] };
		g->mem[k - 1] = (struct member){ &g->rec, (char)('a' + k - 1) };
		g->fi[k].priv = &g->mem[k - 1];
	}
	ck_assert_int_eq(flowops_choice.init(&g->t, &g->fi[0]), 0);
}

/* `draws` executions of the choice. */
static void rig_draw(struct rig *g, int draws)
{
	for (int i = 0; i < draws; i++)
		ck_assert_int_eq(flowops_choice.run(&g->t, &g->fi[0]), FLOWOP_OK);
}

static void rig_free(struct rig *g)
{
	flowops_choice.fini(&g->t, &g->fi[0]);
	free(g->ctl);
	free(g->fi);
	free(g->rec.seq);
}

static size_t count(const char *seq, size_t n, char c)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += seq[i] == c;
	return k;
}

/*
 * Wald-Wolfowitz runs test of a two-letter sequence (`a` against the
 * rest): the standard score of its number of runs.  For n1 and n2 of
 * each, the runs of a random order have mean 2 n1 n2 / n + 1 and
 * variance (mean - 1)(mean - 2) / (n - 1).
 */
static double runs_z(const char *seq, size_t n, char a)
{
	double n1 = (double)count(seq, n, a), n2 = (double)n - n1, runs = 1;
	double mean = 2 * n1 * n2 / (double)n + 1;
	double var = (mean - 1) * (mean - 2) / ((double)n - 1);

	for (size_t i = 1; i < n; i++)
		runs += (seq[i] == a) != (seq[i - 1] == a);
	return (runs - mean) / sqrt(var);
}

/* |z| above this: the sequence is not random, at the 0.1 % level (two-sided). */
#define Z_CRIT 3.2905

START_TEST(test_split_70_30)
{
	static const int64_t w[2] = { 70, 30 };

	for (uint64_t seed = 1; seed <= 5; seed++) {
		struct rig g;
		double p;

		rig_setup(&g, seed, 2, w, 1, NDRAWS);
		rig_draw(&g, NDRAWS);
		ck_assert_uint_eq(g.rec.n, NDRAWS);
		p = (double)count(g.rec.seq, g.rec.n, 'a') / NDRAWS;
		/* the bound, and 4.4 standard deviations of the
		 * binomial (sqrt(0.7 x 0.3 / 10^5) = 0.00145): 1 in 10^5 */
		ck_assert_msg(fabs(p - 0.7) < 0.01, "seed %llu: %.4f reads",
			      (unsigned long long)seed, p);
		ck_assert_msg(fabs(p - 0.7) < 4.4 * sqrt(0.7 * 0.3 / NDRAWS),
			      "seed %llu: %.4f reads", (unsigned long long)seed, p);
		rig_free(&g);
	}
}
END_TEST

START_TEST(test_runs)
{
	static const int64_t w[2] = { 70, 30 };
	char *periodic = malloc(NDRAWS), *alternating = malloc(NDRAWS);

	ck_assert(periodic && alternating);
	for (uint64_t seed = 1; seed <= 5; seed++) {
		struct rig g;
		double z;

		rig_setup(&g, seed, 2, w, 1, NDRAWS);
		rig_draw(&g, NDRAWS);
		z = runs_z(g.rec.seq, g.rec.n, 'a');
		ck_assert_msg(fabs(z) < Z_CRIT, "seed %llu: runs z = %.2f",
			      (unsigned long long)seed, z);
		rig_free(&g);
	}
	/* what import-fio used to write: 7 reads then 3 writes, and 1:1 */
	for (size_t i = 0; i < NDRAWS; i++) {
		periodic[i] = i % 10 < 7 ? 'a' : 'b';
		alternating[i] = i % 2 ? 'b' : 'a';
	}
	ck_assert(fabs(runs_z(periodic, NDRAWS, 'a')) > Z_CRIT);
	ck_assert(fabs(runs_z(alternating, NDRAWS, 'a')) > Z_CRIT);
	free(periodic);
	free(alternating);
}
END_TEST

START_TEST(test_seed)
{
	static const int64_t w[2] = { 70, 30 };
	struct rig g1, g2, g3;

	rig_setup(&g1, 42, 2, w, 1, 10000);
	rig_setup(&g2, 42, 2, w, 1, 10000);
	rig_setup(&g3, 43, 2, w, 1, 10000);
	rig_draw(&g1, 10000);
	rig_draw(&g2, 10000);
	rig_draw(&g3, 10000);
	ck_assert(memcmp(g1.rec.seq, g2.rec.seq, 10000) == 0);
	ck_assert(memcmp(g1.rec.seq, g3.rec.seq, 10000) != 0);
	rig_free(&g1);
	rig_free(&g2);
	rig_free(&g3);
}
END_TEST

/* 70/20/10 with a member of weight 0: chi-square with 2 degrees of freedom. */
START_TEST(test_three_way)
{
	static const int64_t w[4] = { 70, 0, 20, 10 };
	static const double p[4] = { 0.7, 0, 0.2, 0.1 };
	struct rig g;
	double chi2 = 0;

	rig_setup(&g, 7, 4, w, 1, NDRAWS);
	rig_draw(&g, NDRAWS);
	ck_assert_uint_eq(count(g.rec.seq, g.rec.n, 'b'), 0);
	for (int k = 0; k < 4; k++) {
		double e = p[k] * NDRAWS, o = (double)count(g.rec.seq, g.rec.n, (char)('a' + k));

		if (e > 0)
			chi2 += (o - e) * (o - e) / e;
	}
	/* 13.82: the 0.1 % point of chi-square with 2 degrees of freedom */
	ck_assert_msg(chi2 < 13.82, "chi-square %.2f", chi2);
	rig_free(&g);
}
END_TEST

/* More members than the linear scan takes: the binary search, weights 1..12. */
START_TEST(test_many_members)
{
	int64_t w[MAXM];
	struct rig g;
	double chi2 = 0;

	for (int k = 0; k < MAXM; k++)
		w[k] = k + 1;
	rig_setup(&g, 9, MAXM, w, 1, NDRAWS);
	rig_draw(&g, NDRAWS);
	for (int k = 0; k < MAXM; k++) {
		double e = (double)(k + 1) / 78 * NDRAWS;       /* 1 + ... + 12 = 78 */
		double o = (double)count(g.rec.seq, g.rec.n, (char)('a' + k));

		chi2 += (o - e) * (o - e) / e;
	}
	/* 31.26: the 0.1 % point of chi-square with 11 degrees of freedom */
	ck_assert_msg(chi2 < 31.26, "chi-square %.2f", chi2);
	rig_free(&g);
}
END_TEST

static enum flowop_result norsc_run(struct fb_thread *t, struct flowop_inst *fi)
{
	(void)t;
	(void)fi;
	return FLOWOP_NORSC;
}

/* A member's FLOWOP_NORSC goes up, naming the member (run directly or not). */
START_TEST(test_member_norsc)
{
	static const int64_t w[2] = { 1, 0 };

	for (int64_t iters = 1; iters <= 2; iters++) {
		struct rig g;

		rig_setup(&g, 1, 2, w, iters, 16);
		g.fi[1].run = norsc_run;
		ck_assert_int_eq(flowops_choice.run(&g.t, &g.fi[0]), FLOWOP_NORSC);
		ck_assert_ptr_eq(g.t.norsc_fi, &g.fi[1]);
		rig_free(&g);
	}
}
END_TEST

/* The drawn member runs its iters times in a row. */
START_TEST(test_member_iters)
{
	static const int64_t w[2] = { 1, 1 };
	struct rig g;

	rig_setup(&g, 3, 2, w, 3, 3000);
	rig_draw(&g, 1000);
	ck_assert_uint_eq(g.rec.n, 3000);
	for (size_t i = 0; i < g.rec.n; i += 3)
		ck_assert(g.rec.seq[i] == g.rec.seq[i + 1] &&
			  g.rec.seq[i] == g.rec.seq[i + 2]);
	rig_free(&g);
}
END_TEST

static Suite *choice_suite(void)
{
	Suite *s = suite_create("choice");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_split_70_30);
	tcase_add_test(tc, test_runs);
	tcase_add_test(tc, test_seed);
	tcase_add_test(tc, test_three_way);
	tcase_add_test(tc, test_many_members);
	tcase_add_test(tc, test_member_iters);
	tcase_add_test(tc, test_member_norsc);
	tcase_set_timeout(tc, 60);        /* sanitizers, valgrind */
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(choice_suite)
