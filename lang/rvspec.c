/*
 * rvspec.c - WML random variables, the compiler's half: validation and
 * what sampling needs, precomputed (runtime/base/randvar.c samples).
 *
 * rvspec_build() turns the attributes of randvar(...), cvar(...) or the
 * legacy `define randvar` into a struct plan_randvar: every attribute is
 * checked (unknown names, wrong kinds, impossible values) with an error at
 * the attribute itself, and everything sampling needs is precomputed, so
 * randvar_sample() is a few arithmetic operations on the caller's own
 * generator: no allocation, no lock, no system call.
 *
 * Differences from filebench, on purpose:
 *  - randsrc=rand48 and randsrc=urandom are both accepted and both draw
 *    from the thread's own xoshiro256** stream for this variable
 *    (randvar_stream_seed()); filebench shares one unlocked erand48 state
 *    between all threads, or uses a process-wide Mersenne Twister.
 *  - cvars are built in (no plug-in libraries), reproducible under --seed,
 *    and their default min is -infinity, so negative samples (normal...)
 *    are kept; filebench clamps them to the smallest positive double.
 *  - randtable percentages must total 100 (filebench warns and overflows).
 */
#include "lang/rvspec.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/diag.h"

/* ---- attributes ------------------------------------------------------ */

enum attr_id {
	A_TYPE, A_RANDSRC, A_SEED, A_MIN, A_MAX, A_MEAN, A_GAMMA, A_ROUND,
	A_NAME, A_RANDTABLE, A_PARAMETERS, A_COUNT
};

enum attr_kind { K_NUM, K_STR, K_ANY };

struct attr_def {
	const char *name;
	enum attr_id id;
	enum attr_kind kind;
};

static const struct attr_def randvar_attrs[] = {
	{ "type", A_TYPE, K_STR },
	{ "randsrc", A_RANDSRC, K_STR },
	{ "seed", A_SEED, K_NUM },
	{ "min", A_MIN, K_NUM },
	{ "mean", A_MEAN, K_NUM },
	{ "gamma", A_GAMMA, K_NUM },
	{ "round", A_ROUND, K_NUM },
	{ "name", A_NAME, K_ANY },            /* accepted and ignored */
	{ "randtable", A_RANDTABLE, K_ANY },  /* its rows come in spec->rows */
	{ NULL, A_COUNT, K_ANY },
};

static const struct attr_def cvar_attrs[] = {
	{ "type", A_TYPE, K_STR },
	{ "parameters", A_PARAMETERS, K_STR },
	{ "min", A_MIN, K_NUM },
	{ "max", A_MAX, K_NUM },
	{ "round", A_ROUND, K_NUM },
	{ NULL, A_COUNT, K_ANY },
};

/* What one rvspec_build() call is working on. */
struct build {
	const struct rvspec *spec;
	struct plan_randvar *out;
	struct arena *a;
	struct diag *d;
	const char *what;                        /* "randvar $x" */
	const struct rvspec_arg *arg[A_COUNT];   /* NULL when not given */
};

static double num_or(const struct build *b, enum attr_id id, double dflt)
{
	return b->arg[id] ? b->arg[id]->num : dflt;
}

static struct src_loc val_loc(const struct build *b, enum attr_id id)
{
	return b->arg[id] ? b->arg[id]->val_loc : b->spec->loc;
}

static void unknown_word(struct build *b, struct src_loc loc, const char *what,
			 const char *word, const char *const *names)
{
	char hint[160];

	diag_error(b->d, loc, "%s: unknown %s '%s'%s", b->what, what, word,
		   diag_did_you_mean(hint, sizeof(hint), word, names));
}

/*
 * File each argument under its attribute; report unknown names, values of
 * the wrong kind (a number given as a string...) and repetitions (the last
 * one counts, as for every other WML attribute).
 */
static void collect_args(struct build *b, const struct attr_def *defs)
{
	const char *names[A_COUNT + 1];
	int n = 0;

	for (const struct attr_def *def = defs; def->name; def++)
		names[n++] = def->name;
	names[n] = NULL;

	for (int i = 0; i < b->spec->nargs; i++) {
		const struct rvspec_arg *arg = &b->spec->args[i];
		const struct attr_def *def = defs;
		char hint[160];

		while (def->name && strcmp(def->name, arg->name) != 0)
			def++;
		if (!def->name) {
			diag_error(b->d, arg->loc, "unknown attribute '%s' for %s%s",
				   arg->name, b->what,
				   diag_did_you_mean(hint, sizeof(hint),
						     arg->name, names));
			continue;
		}
		if (def->kind == K_NUM && !arg->is_num) {
			if (arg->str)
				diag_error(b->d, arg->val_loc,
					   "attribute '%s' needs a number, not '%s'",
					   arg->name, arg->str);
			else
				diag_error(b->d, arg->loc,
					   "attribute '%s' needs a value (%s=N)",
					   arg->name, arg->name);
			continue;
		}
		if (def->kind == K_NUM && !isfinite(arg->num)) {
			diag_error(b->d, arg->val_loc,
				   "attribute '%s' needs a finite number",
				   arg->name);
			continue;
		}
		if (def->kind == K_STR && (arg->is_num || !arg->str)) {
			if (arg->is_num)
				diag_error(b->d, arg->val_loc,
					   "attribute '%s' needs a name, not the number %g",
					   arg->name, arg->num);
			else
				diag_error(b->d, arg->loc,
					   "attribute '%s' needs a value (%s=...)",
					   arg->name, arg->name);
			continue;
		}
		if (b->arg[def->id])
			diag_warning(b->d, arg->loc,
				     "attribute '%s' given twice for %s; the last one counts",
				     arg->name, b->what);
		b->arg[def->id] = arg;
	}
}

/* `round`: a non-negative step, 0 for none. */
static void build_round(struct build *b)
{
	double r = num_or(b, A_ROUND, 0);

	if (r < 0) {
		diag_error(b->d, val_loc(b, A_ROUND),
			   "%s: round must not be negative (%g)", b->what, r);
		r = 0;
	}
	b->out->round = r;
}

/* ---- randvar(...) ---------------------------------------------------- */

static const char *const randvar_types[] = { "uniform", "gamma", "tabular", NULL };
static const char *const randsrcs[] = { "rand48", "urandom", NULL };

/* The mean a uniform or gamma randvar is built with, checked against min. */
static double checked_mean(struct build *b, double mean, const char *from)
{
	double min = b->out->min;

	if (mean < min) {
		diag_error(b->d, val_loc(b, b->arg[A_MEAN] ? A_MEAN : A_MIN),
			   "%s: mean %g%s is below min %g", b->what, mean, from,
			   min);
		return min;
	}
	return mean;
}

/* Uniform on [min, 2 mean - min), so that the mean is `mean`. */
static void build_uniform(struct build *b)
{
	struct plan_randvar *rv = b->out;
	double mean = checked_mean(b, num_or(b, A_MEAN, 0), "");

	rv->dist = RV_UNIFORM;
	rv->p[0] = rv->min;
	rv->p[1] = 2 * (mean - rv->min);
	rv->mean = mean;
}

/* min + Gamma(g, (mean - min) / g), g = gamma / 1000; mean defaults to g. */
static void build_gamma(struct build *b)
{
	struct plan_randvar *rv = b->out;
	double g = num_or(b, A_GAMMA, 1500) / 1000, mean;

	if (g <= 0) {
		diag_error(b->d, val_loc(b, A_GAMMA),
			   "%s: gamma must be positive (it is the shape x 1000), not %g",
			   b->what, g * 1000);
		g = 1.5;
	}
	if (b->arg[A_MEAN])
		mean = checked_mean(b, b->arg[A_MEAN]->num, "");
	else
		mean = checked_mean(b, g, " (not given: gamma/1000)");
	rv->dist = RV_GAMMA;
	rv->p[0] = g;
	rv->p[1] = (mean - rv->min) / g;
	rv->p[2] = rv->min;
	rv->mean = mean;
}

/*
 * A table of {pct, lo, hi} rows: a row is picked with probability pct/100
 * and a point uniformly inside [lo, hi].  The value is then mapped
 * linearly so that the table's smallest lo (zero-percent rows included)
 * becomes `min` and its mean becomes `mean` (the table's own mean when
 * mean is absent or 0).  A table whose mean equals its minimum (all rows
 * the same single point) gives the constant `min`.
 */
static void build_tabular(struct build *b)
{
	const struct rvspec *spec = b->spec;
	struct plan_randvar *rv = b->out;
	double sum = 0, tmin = INFINITY, tmean = 0, target, acc = 0;
	int n = 0, bad = 0;

	for (int i = 0; i < spec->nrows; i++) {
		const struct rvspec_row *row = &spec->rows[i];

		if (!isfinite(row->pct) || row->pct < 0) {
			diag_error(b->d, row->loc,
				   "%s: randtable row %d: percentage %g is not between 0 and 100",
				   b->what, i + 1, row->pct);
			bad++;
			continue;
		}
		if (!isfinite(row->lo) || !isfinite(row->hi) || row->lo > row->hi) {
			diag_error(b->d, row->loc,
				   "%s: randtable row %d: low end %g is above high end %g",
				   b->what, i + 1, row->lo, row->hi);
			bad++;
			continue;
		}
		sum += row->pct;
		tmean += row->pct / 100 * (row->lo + row->hi) / 2;
		if (row->lo < tmin)
			tmin = row->lo;
		n += row->pct > 0;
	}
	if (bad)
		return;
	if (fabs(sum - 100) > 1e-9) {
		diag_error(b->d, spec->table_loc,
			   "%s: randtable percentages total %g%%, not 100%%",
			   b->what, sum);
		return;
	}

	target = b->arg[A_MEAN] && b->arg[A_MEAN]->num != 0 ?
		 b->arg[A_MEAN]->num : tmean;
	if (target < rv->min) {
		diag_error(b->d, val_loc(b, b->arg[A_MEAN] ? A_MEAN : A_MIN),
			   "%s: mean %g%s is below min %g", b->what, target,
			   b->arg[A_MEAN] ? "" : " (the table's mean)", rv->min);
		return;
	}

	rv->dist = RV_TABULAR;
	rv->ntable = n;
	rv->cum = arena_alloc(b->a, (size_t)n * sizeof(double));
	rv->lo = arena_alloc(b->a, (size_t)n * sizeof(double));
	rv->hi = arena_alloc(b->a, (size_t)n * sizeof(double));
	n = 0;
	for (int i = 0; i < spec->nrows; i++) {
		const struct rvspec_row *row = &spec->rows[i];

		if (row->pct <= 0)
			continue;
		acc += row->pct / 100;
		rv->cum[n] = acc;
		rv->lo[n] = row->lo;
		rv->hi[n] = row->hi;
		n++;
	}
	rv->p[0] = tmin;
	rv->shift = rv->min;
	if (tmean > tmin) {
		rv->scale = (target - rv->min) / (tmean - tmin);
		rv->mean = target;
	} else {
		rv->scale = 0;
		rv->mean = rv->min;
	}
}

static void build_randvar(struct build *b)
{
	struct plan_randvar *rv = b->out;
	const struct rvspec_arg *type, *src;
	bool table = b->spec->nrows > 0;

	collect_args(b, randvar_attrs);
	type = b->arg[A_TYPE];
	src = b->arg[A_RANDSRC];

	if (src && strcmp(src->str, "rand48") != 0 &&
	    strcmp(src->str, "urandom") != 0)
		unknown_word(b, src->val_loc, "randsrc", src->str, randsrcs);
	if (b->arg[A_SEED]) {
		double s = b->arg[A_SEED]->num;

		if (s < 0 || s != floor(s) || s >= 18446744073709551616.0)
			diag_error(b->d, b->arg[A_SEED]->val_loc,
				   "%s: seed must be a whole number >= 0, not %g",
				   b->what, s);
		else
			rv->seed = (uint64_t)s;
	}
	rv->min = num_or(b, A_MIN, 0);
	rv->max = INFINITY;
	build_round(b);

	if (type && strcmp(type->str, "uniform") != 0 &&
	    strcmp(type->str, "gamma") != 0 && strcmp(type->str, "tabular") != 0) {
		unknown_word(b, type->val_loc, "type", type->str, randvar_types);
		return;
	}
	if (table) {
		if (type && strcmp(type->str, "tabular") != 0)
			diag_warning(b->d, type->val_loc,
				     "%s: a randtable makes the variable tabular; type=%s is ignored",
				     b->what, type->str);
		build_tabular(b);
	} else if (type && strcmp(type->str, "tabular") == 0) {
		diag_error(b->d, type->val_loc,
			   "%s: type=tabular needs a randtable", b->what);
	} else if (type && strcmp(type->str, "uniform") == 0) {
		build_uniform(b);
	} else {
		build_gamma(b);
	}
}

/* ---- cvar(...) ------------------------------------------------------- */

/* A cvar type: its parameters= keys, their defaults, and its set-up. */
struct cvar_type {
	const char *name;
	const char *const keys[4];    /* NULL-terminated */
	double dflt[3];
	/* Check the parameters (already parsed into v) and fill rv. */
	void (*setup)(struct build *b, const double *v, struct src_loc loc);
};

static void setup_uniform(struct build *b, const double *v, struct src_loc loc)
{
	struct plan_randvar *rv = b->out;

	if (v[0] > v[1]) {
		diag_error(b->d, loc, "%s: lower %g is above upper %g",
			   b->what, v[0], v[1]);
		return;
	}
	rv->dist = RV_UNIFORM;
	rv->p[0] = v[0];
	rv->p[1] = v[1] - v[0];
	rv->mean = (v[0] + v[1]) / 2;
}

static void setup_normal(struct build *b, const double *v, struct src_loc loc)
{
	struct plan_randvar *rv = b->out;

	if (v[1] < 0) {
		diag_error(b->d, loc, "%s: sigma must not be negative (%g)",
			   b->what, v[1]);
		return;
	}
	rv->dist = RV_NORMAL;
	rv->p[0] = v[0];
	rv->p[1] = v[1];
	rv->mean = v[0];
}

static void setup_exponential(struct build *b, const double *v, struct src_loc loc)
{
	struct plan_randvar *rv = b->out;

	if (v[0] <= 0) {
		diag_error(b->d, loc, "%s: mean must be positive, not %g",
			   b->what, v[0]);
		return;
	}
	rv->dist = RV_EXPONENTIAL;
	rv->p[0] = v[0];
	rv->mean = v[0];
}

/* Erlang of order `shape`; filebench's plug-in uses `rate` as the mean. */
static void setup_erlang(struct build *b, const double *v, struct src_loc loc)
{
	struct plan_randvar *rv = b->out;

	if (v[0] < 1 || v[0] != floor(v[0]) || v[0] > 1e6) {
		diag_error(b->d, loc, "%s: shape must be a whole number from 1 to 1000000, not %g",
			   b->what, v[0]);
		return;
	}
	if (v[1] <= 0) {
		diag_error(b->d, loc, "%s: rate (the mean) must be positive, not %g",
			   b->what, v[1]);
		return;
	}
	rv->dist = RV_ERLANG;
	rv->p[0] = v[0];
	rv->p[1] = v[1] / v[0];    /* mean of one phase */
	rv->mean = v[1];
}

/* exp(N(scale, shape^2)): `scale` is mu and `shape` is sigma of the log. */
static void setup_lognormal(struct build *b, const double *v, struct src_loc loc)
{
	struct plan_randvar *rv = b->out;

	if (v[0] < 0) {
		diag_error(b->d, loc, "%s: shape (sigma of the log) must not be negative (%g)",
			   b->what, v[0]);
		return;
	}
	rv->dist = RV_LOGNORMAL;
	rv->p[0] = v[1];
	rv->p[1] = v[0];
	rv->mean = exp(v[1] + v[0] * v[0] / 2);
}

static void setup_triangular(struct build *b, const double *v, struct src_loc loc)
{
	struct plan_randvar *rv = b->out;

	if (v[0] > v[1]) {
		diag_error(b->d, loc, "%s: lower %g is above upper %g",
			   b->what, v[0], v[1]);
		return;
	}
	if (v[2] < v[0] || v[2] > v[1]) {
		diag_error(b->d, loc, "%s: mode %g is outside [lower, upper] = [%g, %g]",
			   b->what, v[2], v[0], v[1]);
		return;
	}
	rv->dist = RV_TRIANGULAR;
	rv->p[0] = v[0];
	rv->p[1] = v[1];
	rv->p[2] = v[2];
	rv->p[3] = v[1] > v[0] ? (v[2] - v[0]) / (v[1] - v[0]) : 0;
	rv->mean = (v[0] + v[1] + v[2]) / 3;
}

static void setup_weibull(struct build *b, const double *v, struct src_loc loc)
{
	struct plan_randvar *rv = b->out;

	if (v[0] <= 0) {
		diag_error(b->d, loc, "%s: shape must be positive, not %g",
			   b->what, v[0]);
		return;
	}
	if (v[1] <= 0) {
		diag_error(b->d, loc, "%s: scale must be positive, not %g",
			   b->what, v[1]);
		return;
	}
	rv->dist = RV_WEIBULL;
	rv->p[0] = v[0];
	rv->p[1] = v[1];
	rv->p[2] = 1 / v[0];
	rv->mean = v[1] * tgamma(1 + 1 / v[0]);
}

/* Gamma(shape = gamma, scale = mean / gamma). */
static void setup_gamma(struct build *b, const double *v, struct src_loc loc)
{
	struct plan_randvar *rv = b->out;

	if (v[0] <= 0) {
		diag_error(b->d, loc, "%s: mean must be positive, not %g",
			   b->what, v[0]);
		return;
	}
	if (v[1] <= 0) {
		diag_error(b->d, loc, "%s: gamma (the shape) must be positive, not %g",
			   b->what, v[1]);
		return;
	}
	rv->dist = RV_GAMMA;
	rv->p[0] = v[1];
	rv->p[1] = v[0] / v[1];
	rv->p[2] = 0;
	rv->mean = v[0];
}

static const struct cvar_type cvar_types[] = {
	{ "cvar-uniform", { "lower", "upper", NULL }, { 0, 1 }, setup_uniform },
	{ "cvar-normal", { "mean", "sigma", NULL }, { 0, 1 }, setup_normal },
	{ "cvar-exponential", { "mean", NULL }, { 1 }, setup_exponential },
	{ "cvar-lognormal", { "shape", "scale", NULL }, { 1, 1 }, setup_lognormal },
	{ "cvar-triangular", { "lower", "upper", "mode", NULL }, { 0, 1, 0.5 },
	  setup_triangular },
	{ "cvar-weibull", { "shape", "scale", NULL }, { 1, 1 }, setup_weibull },
	{ "cvar-gamma", { "mean", "gamma", NULL }, { 4096, 1.5 }, setup_gamma },
	{ "cvar-erlang", { "shape", "rate", NULL }, { 1, 1 }, setup_erlang },
	{ NULL, { NULL }, { 0 }, NULL },
};

static char *trim_blanks(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	return s;
}

/*
 * Parse parameters="key:value;key:value" over the type's defaults.
 * Returns the number of errors.
 */
static int parse_params(struct build *b, const struct cvar_type *t, double *v)
{
	const struct rvspec_arg *arg = b->arg[A_PARAMETERS];
	bool seen[3] = { false };
	char *text, *piece, *save = NULL;
	int errors = 0;

	for (int k = 0; t->keys[k]; k++)
		v[k] = t->dflt[k];
	if (!arg)
		return 0;
	text = arena_strdup(b->a, arg->str);
	for (piece = strtok_r(text, ";", &save); piece;
	     piece = strtok_r(NULL, ";", &save)) {
		char *colon = strchr(piece, ':'), *key, *val, *end;
		char hint[160];
		double x;
		int k;

		piece = trim_blanks(piece);
		if (!*piece)
			continue;
		if (!colon) {
			diag_error(b->d, arg->val_loc,
				   "%s: parameter '%s' is not key:value", b->what,
				   piece);
			errors++;
			continue;
		}
		*colon = '\0';
		key = trim_blanks(piece);
		val = trim_blanks(colon + 1);
		for (k = 0; t->keys[k] && strcmp(t->keys[k], key) != 0; k++)
			;
		if (!t->keys[k]) {
			diag_error(b->d, arg->val_loc,
				   "%s: unknown parameter '%s' for %s%s", b->what,
				   key, t->name,
				   diag_did_you_mean(hint, sizeof(hint), key,
						     t->keys));
			errors++;
			continue;
		}
		x = strtod(val, &end);
		if (!*val || *end || !isfinite(x)) {
			diag_error(b->d, arg->val_loc,
				   "%s: parameter '%s' needs a number, not '%s'",
				   b->what, key, val);
			errors++;
			continue;
		}
		if (seen[k]) {
			diag_error(b->d, arg->val_loc,
				   "%s: parameter '%s' given twice", b->what, key);
			errors++;
			continue;
		}
		seen[k] = true;
		v[k] = x;
	}
	return errors;
}

static void build_cvar(struct build *b)
{
	struct plan_randvar *rv = b->out;
	const struct rvspec_arg *type;
	const struct cvar_type *t;
	const char *names[sizeof(cvar_types) / sizeof(cvar_types[0])];
	double v[3];
	int n = 0;

	rv->is_cvar = true;
	collect_args(b, cvar_attrs);
	if (b->spec->nrows > 0)
		diag_error(b->d, b->spec->table_loc,
			   "%s: a cvar takes no randtable", b->what);
	rv->min = num_or(b, A_MIN, -INFINITY);
	rv->max = num_or(b, A_MAX, INFINITY);
	if (rv->min > rv->max)
		diag_error(b->d, val_loc(b, A_MIN), "%s: min %g is above max %g",
			   b->what, rv->min, rv->max);
	build_round(b);

	type = b->arg[A_TYPE];
	if (!type) {
		diag_error(b->d, b->spec->loc,
			   "%s needs a type (type=cvar-gamma, cvar-normal, ...)",
			   b->what);
		return;
	}
	for (t = cvar_types; t->name; t++) {
		names[n++] = t->name;
		if (strcmp(t->name, type->str) == 0)
			break;
	}
	if (!t->name) {
		names[n] = NULL;
		unknown_word(b, type->val_loc, "cvar type", type->str, names);
		return;
	}
	if (parse_params(b, t, v) == 0)
		t->setup(b, v, val_loc(b, A_PARAMETERS));
}

int rvspec_build(const struct rvspec *spec, struct plan_randvar *out,
		 struct arena *a, struct diag *d)
{
	struct build b = { .spec = spec, .out = out, .a = a, .d = d };
	int before = d->errors;
	bool cvar = spec->fn && strcmp(spec->fn, "cvar") == 0;

	memset(out, 0, sizeof(*out));
	out->var = spec->var;
	out->loc = spec->loc;
	out->dist = RV_UNIFORM;    /* p[] all 0: the constant 0 if in error */
	if (spec->var)
		b.what = arena_printf(a, "%s $%s", cvar ? "cvar" : "randvar",
				      spec->var);
	else
		b.what = cvar ? "cvar" : "randvar";
	if (cvar)
		build_cvar(&b);
	else
		build_randvar(&b);
	return d->errors - before;
}

