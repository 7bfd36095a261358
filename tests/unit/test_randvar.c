/*
 * test_randvar.c - random variables: every distribution's sample mean and
 * variance against theory (10^6 draws, 5 standard errors), supports,
 * cvar and randvar rounding and clamping, tabular rescaling, stream
 * seeding, and the exact text of every kind of build error.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/arena.h"
#include "plan/diag.h"
#include "lang/rvspec.h"
#include "runtime/base/randvar.h"
#include "runtime/base/rng.h"

#include "tests/unit/check_main.h"

enum { NDRAWS = 1000000 };

/* One attribute as a test writes it; a list ends with name NULL. */
struct a {
	const char *name;
	bool is_num;
	double num;
	const char *str;
};

#define NUM(n, v) { (n), true, (v), NULL }
#define STR(n, s) { (n), false, 0, (s) }
#define FLAG(n) { (n), false, 0, NULL }
#define END { NULL, false, 0, NULL }

/*
 * Locations follow a fixed layout so messages are predictable: the call
 * is at 1:1, argument i has its name at (i+2):3 and its value at (i+2):10,
 * the table starts at 20:4 and row j is at (21+j):6.
 */
struct built {
	struct arena arena;
	struct plan_randvar rv;
	char *msgs;
	size_t len;
	int errors;
};

static void build_rows(struct built *b, const char *fn, const struct a *in,
		       const double (*rows)[3], int nrows)
{
	struct rvspec_arg args[16];
	struct rvspec_row trows[16];
	struct rvspec spec = {
		.fn = fn, .var = "x", .loc = { 1, 1 }, .args = args,
		.rows = trows, .nrows = nrows, .table_loc = { 20, 4 },
	};
	struct diag d;
	FILE *f;

	memset(b, 0, sizeof(*b));
	arena_init(&b->arena);
	for (; in[spec.nargs].name; spec.nargs++) {
		const struct a *x = &in[spec.nargs];

		args[spec.nargs] = (struct rvspec_arg){
			.name = x->name, .is_num = x->is_num, .num = x->num,
			.str = x->str, .loc = { spec.nargs + 2, 3 },
			.val_loc = { spec.nargs + 2, 10 },
		};
	}
	for (int j = 0; j < nrows; j++)
		trows[j] = (struct rvspec_row){ rows[j][0], rows[j][1],
						 rows[j][2], { 21 + j, 6 } };
	f = open_memstream(&b->msgs, &b->len);
	ck_assert_ptr_nonnull(f);
	diag_init(&d, "t.f", NULL, 0, f);
	b->errors = rvspec_build(&spec, &b->rv, &b->arena, &d);
	fclose(f);
}

static void release(struct built *b)
{
	arena_free(&b->arena);
	free(b->msgs);
}

/* Build that must succeed silently. */
static void build_ok(struct built *b, const char *fn, const struct a *in,
		     const double (*rows)[3], int nrows)
{
	build_rows(b, fn, in, rows, nrows);
	ck_assert_msg(b->errors == 0 && b->len == 0,
		      "unexpected messages:\n%s", b->msgs);
}

/* Build that must report exactly `text` (all lines) and `errors` errors. */
static void expect_msgs(const char *fn, const struct a *in,
			const double (*rows)[3], int nrows, int errors,
			const char *text)
{
	struct built b;

	build_rows(&b, fn, in, rows, nrows);
	ck_assert_msg(strcmp(b.msgs, text) == 0,
		      "expected:\n%sgot:\n%s", text, b.msgs);
	ck_assert_int_eq(b.errors, errors);
	release(&b);
}

#define EXPECT_ERR(fn, text, ...) \
	expect_msgs((fn), (const struct a[]){ __VA_ARGS__, END }, NULL, 0, 1, \
		    (text))

/* ---- moments ------------------------------------------------------- */

struct moments {
	double mean, var, se_var, min, max;
};

/* Draw NDRAWS samples on a fixed stream; sample mean, variance, 4th moment. */
static void draw(const struct plan_randvar *rv, struct moments *m)
{
	double *x = malloc(NDRAWS * sizeof(double));
	double sum = 0, m2 = 0, m4 = 0;
	struct rng r;

	ck_assert_ptr_nonnull(x);
	randvar_stream_seed(&r, rv, 0, 12345, rng_identity(0, 0, 0, 0));
	m->min = INFINITY;
	m->max = -INFINITY;
	for (int i = 0; i < NDRAWS; i++) {
		x[i] = randvar_sample(rv, &r);
		sum += x[i];
		if (x[i] < m->min)
			m->min = x[i];
		if (x[i] > m->max)
			m->max = x[i];
	}
	m->mean = sum / NDRAWS;
	for (int i = 0; i < NDRAWS; i++) {
		double d2 = (x[i] - m->mean) * (x[i] - m->mean);

		m2 += d2;
		m4 += d2 * d2;
	}
	m2 /= NDRAWS;
	m4 /= NDRAWS;
	m->var = m2;
	/* standard error of the sample variance: sqrt((mu4 - sigma^4) / n) */
	m->se_var = sqrt(fmax(m4 - m2 * m2, 0) / NDRAWS);
	free(x);
}

/*
 * Sample mean within 5 standard errors of `mean` (the error from the
 * theoretical variance), sample variance within 5 of its own standard
 * errors of `var`, every sample inside [lo, hi], and randvar_mean() equal
 * to `mean`.
 */
static void check_moments(const struct plan_randvar *rv, double mean,
			  double var, double lo, double hi)
{
	struct moments m;
	double se_mean = sqrt(var / NDRAWS);

	draw(rv, &m);
	ck_assert_msg(fabs(m.mean - mean) <= 5 * se_mean + 1e-12 * fabs(mean),
		      "mean %.6g, expected %.6g (se %.3g)", m.mean, mean, se_mean);
	ck_assert_msg(fabs(m.var - var) <= 5 * m.se_var + 1e-12 * var,
		      "variance %.6g, expected %.6g (se %.3g)", m.var, var,
		      m.se_var);
	ck_assert_msg(m.min >= lo && m.max <= hi,
		      "samples in [%.6g, %.6g], expected within [%.6g, %.6g]",
		      m.min, m.max, lo, hi);
	ck_assert_msg(fabs(randvar_mean(rv) - mean) <= 1e-9 * fmax(1, fabs(mean)),
		      "randvar_mean %.10g, expected %.10g", randvar_mean(rv), mean);
}

/* ---- randvar(...) distributions -------------------------------------- */

START_TEST(test_randvar_uniform)
{
	struct built b;

	build_ok(&b, "randvar", (const struct a[]){
		STR("type", "uniform"), NUM("min", 10), NUM("mean", 30),
		STR("randsrc", "urandom"), NUM("seed", 7), STR("name", "u"), END },
		NULL, 0);
	ck_assert_int_eq(b.rv.dist, RV_UNIFORM);
	ck_assert_uint_eq(b.rv.seed, 7);
	check_moments(&b.rv, 30, 40.0 * 40 / 12, 10, 50);
	release(&b);
}
END_TEST

START_TEST(test_randvar_gamma_shape_above_1)
{
	struct built b;
	double g = 1.5, s = 1000 / g;

	build_ok(&b, "randvar", (const struct a[]){
		NUM("min", 100), NUM("mean", 1100), END }, NULL, 0);
	ck_assert_int_eq(b.rv.dist, RV_GAMMA);     /* the default type */
	check_moments(&b.rv, 1100, g * s * s, 100, INFINITY);
	release(&b);
}
END_TEST

START_TEST(test_randvar_gamma_shape_below_1)
{
	struct built b;
	double g = 0.3, s = 50 / g;

	build_ok(&b, "randvar", (const struct a[]){
		STR("type", "gamma"), NUM("gamma", 300), NUM("mean", 50),
		STR("randsrc", "rand48"), END }, NULL, 0);
	check_moments(&b.rv, 50, g * s * s, 0, INFINITY);
	release(&b);
}
END_TEST

/* Without mean, the mean is gamma/1000 (scale 1). */
START_TEST(test_randvar_gamma_default_mean)
{
	struct built b;

	build_ok(&b, "randvar", (const struct a[]){ NUM("gamma", 2000), END },
		 NULL, 0);
	check_moments(&b.rv, 2, 2, 0, INFINITY);
	release(&b);
}
END_TEST

/* Mean and variance of the table's own values (before rescaling). */
static void table_moments(const double (*rows)[3], int n, double *mean,
			  double *var, double *tmin)
{
	double m = 0, sq = 0;

	*tmin = INFINITY;
	for (int i = 0; i < n; i++) {
		double p = rows[i][0] / 100, lo = rows[i][1], hi = rows[i][2];

		m += p * (lo + hi) / 2;
		sq += p * (lo * lo + lo * hi + hi * hi) / 3;
		*tmin = fmin(*tmin, lo);
	}
	*mean = m;
	*var = sq - m * m;
}

START_TEST(test_randvar_tabular_rescaled)
{
	static const double rows[][3] = {
		{ 20, 0, 10 }, { 50, 10, 20 }, { 30, 100, 200 },
	};
	double tmean, tvar, tmin, scale;
	struct built b;

	table_moments(rows, 3, &tmean, &tvar, &tmin);
	ck_assert_double_eq_tol(tmean, 53.5, 1e-12);
	scale = (1000 - 5) / (tmean - tmin);
	/* a table alone makes the variable tabular */
	build_ok(&b, "randvar", (const struct a[]){
		NUM("min", 5), NUM("round", 0), NUM("mean", 1000), END }, rows, 3);
	ck_assert_int_eq(b.rv.dist, RV_TABULAR);
	check_moments(&b.rv, 1000, scale * scale * tvar, 5, 5 + 200 * scale);
	release(&b);
}
END_TEST

/*
 * min equal to the smallest lo (of a 0 % row here) and no mean: the
 * samples are the table's own values, each row with its share.
 */
START_TEST(test_randvar_tabular_identity)
{
	static const double rows[][3] = {
		{ 0, 1, 1 }, { 60, 10, 20 }, { 40, 30, 40 },
	};
	double tmean, tvar, tmin;
	struct built b;
	struct rng r;
	int first = 0;

	table_moments(rows, 3, &tmean, &tvar, &tmin);
	build_ok(&b, "randvar", (const struct a[]){
		STR("type", "tabular"), NUM("min", 1), END }, rows, 3);
	check_moments(&b.rv, 23, tvar, 10, 40);
	rng_seed(&r, 99);
	for (int i = 0; i < NDRAWS; i++) {
		double v = randvar_sample(&b.rv, &r);

		ck_assert_msg((v >= 10 && v <= 20) || (v >= 30 && v <= 40),
			      "%g is in no row", v);
		first += v <= 20;
	}
	/* share of the 60 % row within 5 standard errors */
	ck_assert_msg(fabs((double)first / NDRAWS - 0.6) <=
		      5 * sqrt(0.24 / NDRAWS), "first row %d times", first);
	release(&b);
}
END_TEST

/* Same values, given mean 0 counts as absent; every interval one point. */
START_TEST(test_randvar_tabular_constant)
{
	static const double rows[][3] = { { 70, 5, 5 }, { 30, 5, 5 } };
	struct built b;
	struct rng r;

	build_ok(&b, "randvar", (const struct a[]){
		NUM("min", 3), NUM("mean", 0), END }, rows, 2);
	rng_seed(&r, 1);
	for (int i = 0; i < 1000; i++)
		ck_assert_double_eq(randvar_sample(&b.rv, &r), 3);
	ck_assert_double_eq(randvar_mean(&b.rv), 3);
	release(&b);
}
END_TEST

/* randvar round: nearest multiple, halves up; the shift comes first. */
START_TEST(test_randvar_round)
{
	struct built b;
	struct rng r;
	double sum = 0;

	build_ok(&b, "randvar", (const struct a[]){
		STR("type", "uniform"), NUM("min", 15), NUM("mean", 15),
		NUM("round", 10), END }, NULL, 0);
	rng_seed(&r, 1);
	ck_assert_double_eq(randvar_sample(&b.rv, &r), 20);
	release(&b);

	build_ok(&b, "randvar", (const struct a[]){
		NUM("mean", 65536), NUM("round", 4096), END }, NULL, 0);
	for (int i = 0; i < 100000; i++) {
		double v = randvar_sample(&b.rv, &r);

		ck_assert_double_eq(fmod(v, 4096), 0);
		sum += v;
	}
	/* rounding to the nearest keeps the mean (gamma sd ~ 53500) */
	ck_assert_msg(fabs(sum / 100000 - 65536) < 5 * 53509 / sqrt(100000.0),
		      "rounded mean %g", sum / 100000);
	release(&b);
}
END_TEST

/* ---- cvar(...) distributions ----------------------------------------- */

static void cvar_moments(const char *type, const char *params, double mean,
			 double var, double lo, double hi)
{
	struct built b;

	build_ok(&b, "cvar", (const struct a[]){
		STR("type", type), STR("parameters", params), END }, NULL, 0);
	ck_assert(b.rv.is_cvar);
	check_moments(&b.rv, mean, var, lo, hi);
	release(&b);
}

START_TEST(test_cvar_uniform)
{
	cvar_moments("cvar-uniform", "lower:-5;upper:15", 5, 400.0 / 12, -5, 15);
}
END_TEST

/* Negative samples are kept: the default min is -infinity (bug 17). */
START_TEST(test_cvar_normal)
{
	cvar_moments("cvar-normal", " mean : -3 ; sigma:2;", -3, 4, -INFINITY,
		     INFINITY);
}
END_TEST

START_TEST(test_cvar_exponential)
{
	cvar_moments("cvar-exponential", "mean:7", 7, 49, 0, INFINITY);
}
END_TEST

/* shape is the sigma of the log, scale its mean. */
START_TEST(test_cvar_lognormal)
{
	double s = 0.5, mu = 1;

	cvar_moments("cvar-lognormal", "shape:0.5;scale:1", exp(mu + s * s / 2),
		     (exp(s * s) - 1) * exp(2 * mu + s * s), 0, INFINITY);
}
END_TEST

START_TEST(test_cvar_triangular)
{
	double a = 2, b = 10, c = 4;

	cvar_moments("cvar-triangular", "lower:2;upper:10;mode:4", (a + b + c) / 3,
		     (a * a + b * b + c * c - a * b - a * c - b * c) / 18, 2, 10);
}
END_TEST

START_TEST(test_cvar_weibull)
{
	double k = 2, l = 3, g1 = tgamma(1 + 1 / k), g2 = tgamma(1 + 2 / k);

	cvar_moments("cvar-weibull", "shape:2;scale:3", l * g1,
		     l * l * (g2 - g1 * g1), 0, INFINITY);
}
END_TEST

START_TEST(test_cvar_gamma)
{
	double s = 4096 / 1.5;

	/* the defaults: mean 4096, gamma 1.5 */
	cvar_moments("cvar-gamma", "", 4096, 1.5 * s * s, 0, INFINITY);
	s = 10 / 0.5;
	cvar_moments("cvar-gamma", "gamma:0.5;mean:10", 10, 0.5 * s * s, 0,
		     INFINITY);
}
END_TEST

/* `rate` is the mean: order k, variance rate^2 / k (both sampling paths). */
START_TEST(test_cvar_erlang)
{
	cvar_moments("cvar-erlang", "shape:3;rate:6", 6, 36.0 / 3, 0, INFINITY);
	cvar_moments("cvar-erlang", "shape:40;rate:10", 10, 100.0 / 40, 0,
		     INFINITY);
}
END_TEST

/* min/max clamp, and min may be negative. */
START_TEST(test_cvar_clamp)
{
	struct built b;
	struct rng r;
	int at_min = 0, inside_neg = 0;

	build_ok(&b, "cvar", (const struct a[]){
		STR("type", "cvar-normal"), STR("parameters", "mean:0;sigma:2"),
		NUM("min", -1), NUM("max", 1), END }, NULL, 0);
	rng_seed(&r, 5);
	for (int i = 0; i < NDRAWS; i++) {
		double v = randvar_sample(&b.rv, &r);

		ck_assert(v >= -1 && v <= 1);
		at_min += v == -1;
		inside_neg += v < 0 && v > -1;
	}
	/* P(N(0, 4) < -1) = Phi(-0.5) = 0.308538 */
	ck_assert_msg(fabs((double)at_min / NDRAWS - 0.308538) <=
		      5 * sqrt(0.308538 * 0.691462 / NDRAWS),
		      "%d samples clamped to min", at_min);
	ck_assert_int_gt(inside_neg, NDRAWS / 10);
	release(&b);

	/* randvar_mean is clamped too */
	build_ok(&b, "cvar", (const struct a[]){
		STR("type", "cvar-normal"), STR("parameters", "mean:100"),
		NUM("max", 50), END }, NULL, 0);
	ck_assert_double_eq(randvar_mean(&b.rv), 50);
	release(&b);
}
END_TEST

/* cvar round: truncate, nearest multiple with ties down, then clamp. */
static double cvar_const(double x, double round, double min, double max)
{
	char params[64];
	struct built b;
	struct rng r;
	double v;

	snprintf(params, sizeof(params), "lower:%.17g;upper:%.17g", x, x);
	build_ok(&b, "cvar", (const struct a[]){
		STR("type", "cvar-uniform"), STR("parameters", params),
		NUM("round", round), NUM("min", min), NUM("max", max), END },
		NULL, 0);
	rng_seed(&r, 3);
	v = randvar_sample(&b.rv, &r);
	release(&b);
	return v;
}

START_TEST(test_cvar_round)
{
	ck_assert_double_eq(cvar_const(15, 10, -1e9, 1e9), 10);
	ck_assert_double_eq(cvar_const(15.9, 10, -1e9, 1e9), 10);
	ck_assert_double_eq(cvar_const(16, 10, -1e9, 1e9), 20);
	ck_assert_double_eq(cvar_const(24.99, 10, -1e9, 1e9), 20);
	ck_assert_double_eq(cvar_const(-15, 10, -1e9, 1e9), -20);
	ck_assert_double_eq(cvar_const(-14.9, 10, -1e9, 1e9), -10);
	ck_assert_double_eq(cvar_const(7.5, 0, -1e9, 1e9), 7.5);
	/* clamping after rounding */
	ck_assert_double_eq(cvar_const(2, 30, 5, 50), 5);
	ck_assert_double_eq(cvar_const(58, 30, 5, 50), 50);
	ck_assert_double_eq(cvar_const(-7, 0, -8, -5), -7);
}
END_TEST

/* ---- streams ------------------------------------------------------- */

static int same_prefix(const struct plan_randvar *rv, struct rng *a,
		       struct rng *b, int n)
{
	int same = 0;

	for (int i = 0; i < n; i++)
		same += randvar_sample(rv, a) == randvar_sample(rv, b);
	return same;
}

START_TEST(test_stream_seed)
{
	struct plan_randvar other;
	struct built b;
	struct rng x, y;
	uint64_t id = rng_identity(1, 0, 2, 0);

	build_ok(&b, "randvar", (const struct a[]){
		STR("type", "uniform"), NUM("mean", 1e6), END }, NULL, 0);
	randvar_stream_seed(&x, &b.rv, 3, 42, id);
	randvar_stream_seed(&y, &b.rv, 3, 42, id);
	ck_assert_int_eq(same_prefix(&b.rv, &x, &y, 1000), 1000);

	randvar_stream_seed(&x, &b.rv, 3, 42, id);
	randvar_stream_seed(&y, &b.rv, 3, 42, rng_identity(1, 0, 2, 1));
	ck_assert_int_lt(same_prefix(&b.rv, &x, &y, 1000), 3);
	randvar_stream_seed(&x, &b.rv, 3, 42, id);
	randvar_stream_seed(&y, &b.rv, 4, 42, id);
	ck_assert_int_lt(same_prefix(&b.rv, &x, &y, 1000), 3);
	randvar_stream_seed(&x, &b.rv, 3, 42, id);
	randvar_stream_seed(&y, &b.rv, 3, 43, id);
	ck_assert_int_lt(same_prefix(&b.rv, &x, &y, 1000), 3);
	other = b.rv;
	other.seed = 1;
	randvar_stream_seed(&x, &b.rv, 3, 42, id);
	randvar_stream_seed(&y, &other, 3, 42, id);
	ck_assert_int_lt(same_prefix(&b.rv, &x, &y, 1000), 3);
	/* identities of different threads differ */
	ck_assert_uint_ne(rng_identity(0, 0, 1, 0), rng_identity(0, 0, 0, 1));
	release(&b);
}
END_TEST

/* ---- build errors -------------------------------------------------- */

START_TEST(test_err_attributes)
{
	EXPECT_ERR("randvar",
		   "t.f:3:3: unknown attribute 'mena' for randvar $x (did you mean 'mean'?)\n",
		   NUM("min", 1), NUM("mena", 5));
	EXPECT_ERR("randvar", "t.f:2:10: attribute 'min' needs a number, not 'abc'\n",
		   STR("min", "abc"));
	EXPECT_ERR("randvar", "t.f:2:3: attribute 'min' needs a value (min=N)\n",
		   FLAG("min"));
	EXPECT_ERR("randvar", "t.f:2:10: attribute 'type' needs a name, not the number 5\n",
		   NUM("type", 5));
	EXPECT_ERR("cvar",
		   "t.f:3:3: unknown attribute 'maxx' for cvar $x (did you mean 'max'?)\n",
		   STR("type", "cvar-gamma"), NUM("maxx", 5));
	EXPECT_ERR("cvar", "t.f:3:3: unknown attribute 'seed' for cvar $x\n",
		   STR("type", "cvar-gamma"), NUM("seed", 5));
	/* repeated: a warning, the last one counts */
	expect_msgs("randvar", (const struct a[]){
		NUM("mean", 1), NUM("mean", 2), END }, NULL, 0, 0,
		"t.f:3:3: warning: attribute 'mean' given twice for randvar $x; the last one counts\n");
}
END_TEST

START_TEST(test_err_randvar_values)
{
	EXPECT_ERR("randvar", "t.f:2:10: randvar $x: unknown type 'gama' (did you mean 'gamma'?)\n",
		   STR("type", "gama"));
	EXPECT_ERR("randvar", "t.f:2:10: randvar $x: unknown randsrc 'urandon' (did you mean 'urandom'?)\n",
		   STR("randsrc", "urandon"));
	EXPECT_ERR("randvar", "t.f:2:10: randvar $x: gamma must be positive (it is the shape x 1000), not 0\n",
		   NUM("gamma", 0));
	EXPECT_ERR("randvar", "t.f:4:10: randvar $x: mean 5 is below min 10\n",
		   STR("type", "uniform"), NUM("min", 10), NUM("mean", 5));
	EXPECT_ERR("randvar", "t.f:2:10: randvar $x: mean 1.5 (not given: gamma/1000) is below min 10\n",
		   NUM("min", 10));
	EXPECT_ERR("randvar", "t.f:2:10: randvar $x: type=tabular needs a randtable\n",
		   STR("type", "tabular"));
	EXPECT_ERR("randvar", "t.f:2:10: randvar $x: round must not be negative (-4)\n",
		   NUM("round", -4));
	EXPECT_ERR("randvar", "t.f:2:10: randvar $x: seed must be a whole number >= 0, not 1.5\n",
		   NUM("seed", 1.5));
	EXPECT_ERR("randvar", "t.f:2:10: randvar $x: seed must be a whole number >= 0, not -1\n",
		   NUM("seed", -1));
}
END_TEST

START_TEST(test_err_table)
{
	static const double short_rows[][3] = { { 40, 1, 2 }, { 50, 3, 4 } };
	static const double bad_rows[][3] = {
		{ 50, 1, 2 }, { -10, 3, 4 }, { 60, 9, 8 },
	};
	static const double ok_rows[][3] = { { 100, 1, 2 } };

	expect_msgs("randvar", (const struct a[]){ END }, short_rows, 2, 1,
		    "t.f:20:4: randvar $x: randtable percentages total 90%, not 100%\n");
	expect_msgs("randvar", (const struct a[]){ END }, bad_rows, 3, 2,
		    "t.f:22:6: randvar $x: randtable row 2: percentage -10 is not between 0 and 100\n"
		    "t.f:23:6: randvar $x: randtable row 3: low end 9 is above high end 8\n");
	expect_msgs("randvar", (const struct a[]){ NUM("min", 3), END }, ok_rows, 1, 1,
		    "t.f:2:10: randvar $x: mean 1.5 (the table's mean) is below min 3\n");
	expect_msgs("randvar", (const struct a[]){ STR("type", "uniform"), END },
		    ok_rows, 1, 0,
		    "t.f:2:10: warning: randvar $x: a randtable makes the variable tabular; type=uniform is ignored\n");
	expect_msgs("cvar", (const struct a[]){ STR("type", "cvar-uniform"), END },
		    ok_rows, 1, 1, "t.f:20:4: cvar $x: a cvar takes no randtable\n");
}
END_TEST

START_TEST(test_err_cvar)
{
	expect_msgs("cvar", (const struct a[]){ NUM("min", 0), END }, NULL, 0, 1,
		    "t.f:1:1: cvar $x needs a type (type=cvar-gamma, cvar-normal, ...)\n");
	EXPECT_ERR("cvar", "t.f:2:10: cvar $x: unknown cvar type 'cvar-normall' (did you mean 'cvar-normal'?)\n",
		   STR("type", "cvar-normall"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: unknown parameter 'sigm' for cvar-normal (did you mean 'sigma'?)\n",
		   STR("type", "cvar-normal"), STR("parameters", "mean:1;sigm:2"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: parameter 'mean' needs a number, not 'abc'\n",
		   STR("type", "cvar-normal"), STR("parameters", "mean:abc"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: parameter 'mean' needs a number, not ''\n",
		   STR("type", "cvar-normal"), STR("parameters", "mean:"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: parameter 'mean' is not key:value\n",
		   STR("type", "cvar-normal"), STR("parameters", "mean"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: parameter 'mean' given twice\n",
		   STR("type", "cvar-normal"), STR("parameters", "mean:1;mean:2"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: sigma must not be negative (-1)\n",
		   STR("type", "cvar-normal"), STR("parameters", "sigma:-1"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: lower 3 is above upper 1\n",
		   STR("type", "cvar-uniform"), STR("parameters", "lower:3"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: mode 5 is outside [lower, upper] = [0, 1]\n",
		   STR("type", "cvar-triangular"), STR("parameters", "mode:5"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: shape must be a whole number from 1 to 1000000, not 2.5\n",
		   STR("type", "cvar-erlang"), STR("parameters", "shape:2.5"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: rate (the mean) must be positive, not 0\n",
		   STR("type", "cvar-erlang"), STR("parameters", "rate:0"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: mean must be positive, not 0\n",
		   STR("type", "cvar-exponential"), STR("parameters", "mean:0"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: shape (sigma of the log) must not be negative (-2)\n",
		   STR("type", "cvar-lognormal"), STR("parameters", "shape:-2"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: scale must be positive, not 0\n",
		   STR("type", "cvar-weibull"), STR("parameters", "scale:0"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: gamma (the shape) must be positive, not -1\n",
		   STR("type", "cvar-gamma"), STR("parameters", "gamma:-1"));
	EXPECT_ERR("cvar", "t.f:3:10: cvar $x: min 5 is above max 2\n",
		   STR("type", "cvar-gamma"), NUM("min", 5), NUM("max", 2));
	EXPECT_ERR("cvar", "t.f:3:10: attribute 'parameters' needs a name, not the number 3\n",
		   STR("type", "cvar-gamma"), NUM("parameters", 3));
	/* several errors in one call are all reported and counted */
	expect_msgs("cvar", (const struct a[]){
		STR("type", "cvar-normal"), STR("parameters", "sigma:x;mu:1"),
		NUM("round", -1), END }, NULL, 0, 3,
		"t.f:4:10: cvar $x: round must not be negative (-1)\n"
		"t.f:3:10: cvar $x: parameter 'sigma' needs a number, not 'x'\n"
		"t.f:3:10: cvar $x: unknown parameter 'mu' for cvar-normal\n");
}
END_TEST

static Suite *randvar_suite(void)
{
	Suite *s = suite_create("randvar");
	TCase *dist = tcase_create("distributions");
	TCase *post = tcase_create("post-processing");
	TCase *err = tcase_create("errors");

	tcase_set_timeout(dist, 60);
	tcase_add_test(dist, test_randvar_uniform);
	tcase_add_test(dist, test_randvar_gamma_shape_above_1);
	tcase_add_test(dist, test_randvar_gamma_shape_below_1);
	tcase_add_test(dist, test_randvar_gamma_default_mean);
	tcase_add_test(dist, test_randvar_tabular_rescaled);
	tcase_add_test(dist, test_randvar_tabular_identity);
	tcase_add_test(dist, test_cvar_uniform);
	tcase_add_test(dist, test_cvar_normal);
	tcase_add_test(dist, test_cvar_exponential);
	tcase_add_test(dist, test_cvar_lognormal);
	tcase_add_test(dist, test_cvar_triangular);
	tcase_add_test(dist, test_cvar_weibull);
	tcase_add_test(dist, test_cvar_gamma);
	tcase_add_test(dist, test_cvar_erlang);
	suite_add_tcase(s, dist);

	tcase_set_timeout(post, 60);
	tcase_add_test(post, test_randvar_tabular_constant);
	tcase_add_test(post, test_randvar_round);
	tcase_add_test(post, test_cvar_clamp);
	tcase_add_test(post, test_cvar_round);
	tcase_add_test(post, test_stream_seed);
	suite_add_tcase(s, post);

	tcase_add_test(err, test_err_attributes);
	tcase_add_test(err, test_err_randvar_values);
	tcase_add_test(err, test_err_table);
	tcase_add_test(err, test_err_cvar);
	suite_add_tcase(s, err);
	return s;
}

CHECK_MAIN(randvar_suite)
