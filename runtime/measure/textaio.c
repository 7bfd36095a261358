/*
 * textaio.c - fio's per-job lines for the asynchronous flowops
 * (textaio.h).  The units and layouts are fio 3.33's (stat.c:
 * display_lat(), show_clat_percentiles(), show_lat(), the IO depths
 * lines), so that a reader who knows fio's output reads these alike.
 */
#include "runtime/measure/textaio.h"

#include <math.h>
#include <stdint.h>

#include "plan/flowop.h"
#include "runtime/base/log.h"

static void text_aio_line_start(FILE *out, bool stamp)
{
	if (stamp)
		log_stamp(out);
}

/*
 * "    slat (usec): min=1, max=80, avg= 3.10, stdev= 1.20": fio's
 * display_lat(), whose unit is usec when min > 2000 ns, max > 99999 ns
 * and stdev > 1000 ns, msec for the same at 1000 times those.
 */
static void text_aio_lat(FILE *out, bool stamp, const char *what,
			 const struct op_stats *o, double dev)
{
	unsigned long long min = o->lat_min_ns, max = o->lat_max_ns;
	double mean = (double)o->lat_sum_ns / (double)o->count;
	const char *unit = "nsec";

	if (min > 2000000 && max > 99999999ULL && dev > 1000000.0) {
		min /= 1000000;
		max /= 1000000;
		mean /= 1e6;
		dev /= 1e6;
		unit = "msec";
	} else if (min > 2000 && max > 99999 && dev > 1000.0) {
		min /= 1000;
		max /= 1000;
		mean /= 1e3;
		dev /= 1e3;
		unit = "usec";
	}
	text_aio_line_start(out, stamp);
	fprintf(out, "    %s (%s): min=%llu, max=%llu, avg=%5.02f, stdev=%5.02f\n",
		what, unit, min, max, mean, dev);
}

/*
 * "    clat percentiles (usec):" and rows of " 50.00th=[  545]," as fio's
 * show_clat_percentiles(): usec when the smallest value shown is above
 * 2000 ns and the largest above 99999 ns (msec at 1000 times those),
 * values rounded up in the larger unit.
 */
static void text_aio_percentiles(FILE *out, bool stamp, const struct fo_stats *s,
				 const double *pct, int npct)
{
	unsigned long long v[64], minv = UINT64_MAX, maxv = 0, div = 1;
	const char *unit = "nsec";
	int width, per_line, scale = 0;

	if (npct > 64)
		npct = 64;
	for (int k = 0; k < npct; k++) {
		v[k] = (unsigned long long)llround(fo_stats_percentile(s, pct[k]));
		minv = v[k] < minv ? v[k] : minv;
		maxv = v[k] > maxv ? v[k] : maxv;
	}
	if (minv > 2000000 && maxv > 99999999ULL) {
		scale = 2;
		div = 1000000;
		unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		scale = 1;
		div = 1000;
		unit = "usec";
	}
	width = (int)log10((double)(maxv / div ? maxv / div : 1)) + 1;
	width = width < 5 ? 5 : width;
	per_line = (80 - 7) / (2 + 10 + width);
	text_aio_line_start(out, stamp);
	fprintf(out, "    clat percentiles (%s):\n", unit);
	for (int k = 0; k < npct; k++) {
		unsigned long long x = v[k];

		for (int i = 0; i < scale; i++)
			x = (x + 999) / 1000;
		if (k % per_line == 0) {
			text_aio_line_start(out, stamp);
			fputs("     |", out);
		}
		fprintf(out, " %5.2fth=[%*llu]%c", pct[k], width, x,
			k == npct - 1 ? '\n' : ',');
		if (k != npct - 1 && k % per_line == per_line - 1)
			fputc('\n', out);
	}
}

/*
 * fio's show_lat(): "  lat (usec)   : 250=0.01%, 500=0.03%" for the
 * buckets of one unit with a share, five to a line.
 */
static void text_aio_buckets(FILE *out, bool stamp, const double *pct, unsigned from,
			     unsigned to)
{
	int on_line = 0;

	for (unsigned i = from; i < to; i++) {
		if (pct[i] <= 0.0)
			continue;
		if (on_line == 5) {
			fputc('\n', out);
			on_line = 0;
		}
		if (!on_line) {
			text_aio_line_start(out, stamp);
			fprintf(out, "  lat (%s)   : ", astats_latb_unit(i));
		} else {
			fputs(", ", out);
		}
		fprintf(out, "%s=%3.2f%%", astats_latb_label(i), pct[i]);
		on_line++;
	}
	if (on_line)
		fputc('\n', out);
}

/* "  IO depths    : 1=..%, ..." and the submit and complete lines. */
static void text_aio_maps(FILE *out, bool stamp, const struct astats *a)
{
	static const char *const depth[ASTATS_MAP_NR] = {
		"1", "2", "4", "8", "16", "32", ">=64" };
	static const char *const calls[ASTATS_MAP_NR] = {
		"0", "4", "8", "16", "32", "64", ">=64" };
	struct {
		const char *head;
		const char *const *labels;
		const uint64_t *map;
	} rows[3] = {
		{ "  IO depths    :", depth, a->depth },
		{ "     submit    :", calls, a->submit },
		{ "     complete  :", calls, a->complete },
	};
	double pct[ASTATS_MAP_NR];

	for (int r = 0; r < 3; r++) {
		astats_map_pct(rows[r].map, pct);
		text_aio_line_start(out, stamp);
		fputs(rows[r].head, out);
		for (int i = 0; i < ASTATS_MAP_NR; i++)
			fprintf(out, "%s %s=%3.1f%%", i ? "," : "", rows[r].labels[i], pct[i]);
		fputc('\n', out);
	}
}

void text_async_block(FILE *out, bool stamp, const char *name, const char *engine,
		      long long depth, const struct fo_stats *s, const struct astats *a,
		      const double *pct, int npct)
{
	double lb[ASTATS_LATB_NR];

	if (!pct || npct <= 0) {
		pct = stats_default_percentiles;
		npct = STATS_DEFAULT_NPERCENTILES;
	}
	text_aio_line_start(out, stamp);
	fprintf(out, "Async I/O of %s (ioengine=%s", name, engine);
	if (depth > 0)
		fprintf(out, ", iodepth=%lld", depth);
	fprintf(out, "): %llu request%s\n", (unsigned long long)s->op.count,
		log_plural(s->op.count));
	if (a->slat.count)
		text_aio_lat(out, stamp, "slat", &a->slat, astats_slat_stdev(a));
	text_aio_lat(out, stamp, "clat", &s->op, fo_stats_stdev(s));
	if (a->lat.count)
		text_aio_lat(out, stamp, " lat", &a->lat, astats_lat_stdev(a));
	text_aio_percentiles(out, stamp, s, pct, npct);
	astats_latb_pct(a, s->op.count, lb);
	text_aio_buckets(out, stamp, lb, ASTATS_LATB_NSEC, ASTATS_LATB_USEC);
	text_aio_buckets(out, stamp, lb, ASTATS_LATB_USEC, ASTATS_LATB_MSEC);
	text_aio_buckets(out, stamp, lb, ASTATS_LATB_MSEC, ASTATS_LATB_NR);
	text_aio_maps(out, stamp, a);
}

void text_async(FILE *out, const struct plan *p, const struct fo_stats *per_flowop,
		struct astats *const *astats, const double *pct, int npct)
{
	if (!astats)
		return;
	for (int i = p->nflowops - 1; i >= 0; i--) {
		const struct plan_flowop *f = &p->flowops[i];
		const struct plan_value *eng = plan_flowop_attr(f, "ioengine");
		const struct plan_value *depth = plan_flowop_attr(f, "iodepth");

		/* (aiowrite's --compat filebench ops are submissions: no split) */
		if (f->line != i || !astats[i] || !astats[i]->lat.count)
			continue;
		text_async_block(out, true, f->name,
				 eng->kind == PV_STRING ? eng->u.s : "io_uring",
				 plan_value_int(depth, 0), &per_flowop[i], astats[i],
				 pct, npct);
	}
	fflush(out);
}
