/*
 * fio_lat.c - one latency of fio's JSON (clat_ns, slat_ns or lat_ns of
 * a direction) as a results file's latency object, merged over several
 * entries (a job's clones, which fio lists one by one without
 * group_reporting) by fio's own group_reporting rule: samples added,
 * means weighted by them, the smallest min and largest max.  json+'s
 * bins become a histogram from which any percentile is computed by the
 * rule of docs/results-format.md, so fio's and flowbench's p99.9 are
 * taken the same way.
 */
#include "runtime/results/fio.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "plan/oom.h"

/* flowbench's own list (runtime/results/results.c), added to fio's. */
static const double fio_lat_default_pct[] = { 50, 90, 95, 99, 99.9, 99.99 };
#define NDEFAULT (sizeof(fio_lat_default_pct) / sizeof(fio_lat_default_pct[0]))

double results_fio_num(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

json_t *results_fio_real(double v)
{
	return results_fio_new(isfinite(v) ? json_real(v) : json_null());
}

json_t *results_fio_new(json_t *v)
{
	if (!v)
		oom_exit();
	return v;
}

void results_fio_set(json_t *obj, const char *key, json_t *v)
{
	if (json_object_set_new(obj, key, results_fio_new(v)) < 0)
		oom_exit();
}

void results_fio_append(json_t *list, json_t *v)
{
	if (json_array_append_new(list, results_fio_new(v)) < 0)
		oom_exit();
}

/* One json+ bin: fio's value for the bucket (its middle) and its count. */
struct bin {
	uint64_t value, count;
};

static int bin_cmp(const void *a, const void *b)
{
	const struct bin *x = a, *y = b;

	return (x->value > y->value) - (x->value < y->value);
}

static int by_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A bin's key: fio's latency in ns, decimal digits only. */
static bool bin_value(const char *key, uint64_t *v)
{
	char *end;

	if (!*key || strspn(key, "0123456789") != strlen(key))
		return false;
	*v = strtoull(key, &end, 10);
	return *end == '\0';
}

/*
 * The bins of every entry's latency `key`, added by value and sorted;
 * NULL (and *n 0) when some entry with samples has none: then no
 * histogram covers all of them.
 */
static struct bin *merged_bins(const json_t *const *dirs, int ndirs,
			       const char *key, size_t *n)
{
	struct bin *b = NULL;
	size_t cap = 0, used = 0;

	*n = 0;
	for (int d = 0; d < ndirs; d++) {
		const json_t *lat = json_object_get(dirs[d], key);
		const json_t *bins = json_object_get(lat, "bins");
		const char *k;
		json_t *v;

		if (!(results_fio_num(lat, "N") > 0))
			continue;
		if (!json_is_object(bins))
			goto none;
		if (used + json_object_size(bins) > cap) {
			cap = (used + json_object_size(bins)) * 2;
			b = xreallocarray(b, cap, sizeof(*b));
		}
		json_object_foreach((json_t *)bins, k, v) {
			if (!bin_value(k, &b[used].value) || !json_is_integer(v) ||
			    json_integer_value(v) < 0)
				goto none;
			b[used++].count = (uint64_t)json_integer_value(v);
		}
	}
	if (used == 0)
		goto none;
	qsort(b, used, sizeof(*b), bin_cmp);
	for (size_t i = 1; i < used; i++) {
		if (b[i].value == b[*n].value)
			b[*n].count += b[i].count;
		else
			b[++*n] = b[i];
	}
	(*n)++;
	return b;
none:
	free(b);
	*n = 0;
	return NULL;
}

/*
 * The bucket a json+ bin's value stands for (fio's stat.h: values
 * below 128 ns have a bucket each; above, 64 buckets per power of two,
 * and fio names each by its middle).
 */
static void bin_bounds(uint64_t v, uint64_t *lo, uint64_t *hi)
{
	int msb = 63 - __builtin_clzll(v | 1);
	int shift = msb - 6;

	if (v < 128) {
		*lo = *hi = v;
		return;
	}
	*lo = (v >> shift) << shift;
	*hi = *lo + ((uint64_t)1 << shift) - 1;
}

/*
 * ceil(q/100 * n) in [1, n], q taken to 9 decimals (hist.c's rule, so
 * that 99.9 is 99.9 and not the double above it).
 */
static uint64_t rank_of(double q, uint64_t n)
{
	const unsigned __int128 scale = 100000000000ull;
	unsigned __int128 r;

	if (q >= 100)
		return n;
	r = ((unsigned __int128)llround(q * 1e9) * n + scale - 1) / scale;
	return r < 1 ? 1 : r > n ? n : (uint64_t)r;
}

/*
 * Percentile q of the bins by docs/results-format.md's rule: rank 1 is
 * min, rank n is max, otherwise the middle of the bucket holding the
 * rank, clamped to [min, max].
 */
static double bins_percentile(const struct bin *b, size_t nb, double q,
			      double min, double max)
{
	uint64_t n = 0, seen = 0, rank, lo, hi;
	double v = max;

	for (size_t i = 0; i < nb; i++)
		n += b[i].count;
	rank = rank_of(q, n);
	if (rank == n)
		return max;
	if (rank == 1)
		return min;
	for (size_t i = 0; i < nb; i++) {
		seen += b[i].count;
		if (seen < rank)
			continue;
		bin_bounds(b[i].value, &lo, &hi);
		v = ((double)lo + (double)hi) / 2;
		break;
	}
	return v < min ? min : v > max ? max : v;
}

/* A percentile's key as flowbench writes it: "50", "99.9". */
static void pct_key(char *buf, size_t len, double q)
{
	snprintf(buf, len, "%g", q);
}

/* The percentiles fio printed (keys "99.900000") and flowbench's, sorted, once each. */
static int pct_list(const json_t *fio_pcts, double *out, int room)
{
	const char *k;
	json_t *v;
	int n = 0, u = 0;

	for (size_t i = 0; i < NDEFAULT && n < room; i++)
		out[n++] = fio_lat_default_pct[i];
	json_object_foreach((json_t *)fio_pcts, k, v) {
		char *end;
		double q = strtod(k, &end);

		if (end != k && !*end && q > 0 && q < 100 && n < room)
			out[n++] = q;
	}
	qsort(out, (size_t)n, sizeof(*out), by_double);
	for (int i = 0; i < n; i++)
		if (u == 0 || fabs(out[i] - out[u - 1]) > 1e-9)
			out[u++] = out[i];
	return u;
}

/* "percentiles" and "histogram" [[lower, upper, count], ...] from merged bins. */
static void add_from_bins(json_t *lat, const struct bin *b, size_t nb,
			  const json_t *fio_pcts)
{
	json_t *hist = results_fio_new(json_array()), *pcts = results_fio_new(json_object());
	double qs[64], min = results_fio_num(lat, "min"), max = results_fio_num(lat, "max");
	int nq = pct_list(fio_pcts, qs, 64);
	char key[32];

	results_fio_set(lat, "percentiles", pcts);
	results_fio_set(lat, "histogram", hist);
	for (int i = 0; i < nq; i++) {
		pct_key(key, sizeof(key), qs[i]);
		results_fio_set(pcts, key, results_fio_real(bins_percentile(b, nb, qs[i], min, max)));
	}
	for (size_t i = 0; i < nb; i++) {
		uint64_t lo, hi;

		bin_bounds(b[i].value, &lo, &hi);
		results_fio_append(hist, json_pack("[III]", (json_int_t)lo, (json_int_t)hi,
						   (json_int_t)b[i].count));
	}
}

/* fio's own percentiles of one entry ("99.900000": ns), keyed as flowbench's. */
static void add_fio_percentiles(json_t *lat, const json_t *fio_pcts)
{
	json_t *pcts = results_fio_new(json_object());
	const char *k;
	json_t *v;
	char key[32];

	results_fio_set(lat, "percentiles", pcts);
	json_object_foreach((json_t *)fio_pcts, k, v) {
		char *end;
		double q = strtod(k, &end);

		if (end == k || *end || !(q > 0 && q < 100) || !json_is_number(v))
			continue;
		pct_key(key, sizeof(key), q);
		results_fio_set(pcts, key, results_fio_real(json_number_value(v)));
	}
}

/* Samples, mean, stdev and extremes of the entries merged (fio's sum_stat). */
struct moments {
	double n, mean, m2, min, max;
	int with;                  /* entries with samples */
	const json_t *one;         /* the last of them */
};

static void add_moments(struct moments *m, const json_t *lat)
{
	double n = results_fio_num(lat, "N"), mean = results_fio_num(lat, "mean");
	double sd = results_fio_num(lat, "stddev"), delta, total;

	if (!(n > 0) || !isfinite(mean))
		return;
	if (!isfinite(sd))
		sd = 0;
	total = m->n + n;
	delta = mean - m->mean;
	m->m2 += sd * sd * (n - 1) + delta * delta * m->n * n / total;
	m->mean += delta * n / total;
	m->n = total;
	if (m->with == 0 || results_fio_num(lat, "min") < m->min)
		m->min = results_fio_num(lat, "min");
	if (m->with == 0 || results_fio_num(lat, "max") > m->max)
		m->max = results_fio_num(lat, "max");
	m->with++;
	m->one = lat;
}

json_t *results_fio_latency(const json_t *const *dirs, int n, const char *key,
			    bool *bins, bool *unmerged)
{
	struct moments m = { 0 };
	const json_t *fio_pcts;
	struct bin *b;
	size_t nb;
	json_t *lat;

	for (int d = 0; d < n; d++)
		add_moments(&m, json_object_get(dirs[d], key));
	if (m.with == 0)
		return NULL;
	lat = results_fio_new(json_object());
	results_fio_set(lat, "mean", results_fio_real(m.mean));
	results_fio_set(lat, "stdev", results_fio_real(m.n > 1 ? sqrt(m.m2 / (m.n - 1)) : 0.0));
	results_fio_set(lat, "min", results_fio_real(m.min));
	results_fio_set(lat, "max", results_fio_real(m.max));
	results_fio_set(lat, "samples", results_fio_real(m.n));
	fio_pcts = json_object_get(m.one, "percentile");
	b = merged_bins(dirs, n, key, &nb);
	if (b) {
		add_from_bins(lat, b, nb, fio_pcts);
		*bins = true;
	} else if (m.with == 1 && json_is_object(fio_pcts)) {
		add_fio_percentiles(lat, fio_pcts);
	} else {
		*unmerged |= json_is_object(fio_pcts);
	}
	free(b);
	return lat;
}
