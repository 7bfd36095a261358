/*
 * svg.h - small inline SVG charts for `flowbench report`: line charts on
 * linear, logarithmic or "nines" (50, 90, 99, 99.9 ...) axes, and bars
 * with error bars.  Self-contained markup: no script, no external font.
 */
#ifndef FLOWBENCH_COMPARE_SVG_H
#define FLOWBENCH_COMPARE_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum svg_scale {
	SVG_LINEAR,
	SVG_LOG,               /* log10; values <= 0 are not drawn */
	SVG_NINES,             /* percentiles: -log10(1 - p/100) */
};

/* Writes a tick label for value v. */
typedef void svg_label_fn(char *buf, size_t len, double v);

struct svg_axis {
	enum svg_scale scale;
	double min, max;       /* data range; svg_begin widens it to ticks */
	const char *title;
	svg_label_fn *label;
};

struct svg_chart {
	FILE *out;
	struct svg_axis x, y;
	double width, height;  /* pixels */
};

/* Colour of series (or file) i: a fixed palette, repeated. */
const char *svg_color(int i);

/* The <svg> element, title, grid, ticks and axis titles. */
void svg_begin(struct svg_chart *c, const char *title);

/*
 * A series: a polyline through the points in order (one point: a dot).
 * Points with a non-finite or out-of-scale coordinate are skipped.  Each
 * point's <title> (shown on hover) is "NAME: x-title X, y-title Y".
 */
void svg_series(struct svg_chart *c, const char *name, const double *xs,
		const double *ys, int n, int color, bool dashed);

/* A legend entry per label, top right inside the plot. */
void svg_legend(struct svg_chart *c, const char *const *labels, int n);

void svg_end(struct svg_chart *c);

/*
 * A bar chart: one bar per label (mean) with an error bar (± err, none
 * when err is not finite), y from 0, colours by index; a bar's <title>
 * is its label and value.
 */
void svg_bars(FILE *out, const char *title, const char *ytitle,
	      svg_label_fn *ylabel, const char *const *labels,
	      const double *mean, const double *err, int n);

/*
 * The p50 to p99 latency of each flowop (category) and file: per
 * category a vertical bar per file from p50[i] to p99[i] (i = cat *
 * nfiles + file; NaN: not drawn) on a logarithmic axis, a dot at p50,
 * a tick at p99, each with its value as <title>.
 */
struct svg_ranges {
	const char *title;
	const char *const *cats;   /* ncats category names */
	int ncats;
	const char *const *files;  /* nfiles labels (hover text) */
	int nfiles;
	const double *p50, *p99;   /* nanoseconds */
};

void svg_range_chart(FILE *out, const struct svg_ranges *r);

/*
 * A number for people: thousands grouped with commas, whole from 100 up,
 * else three significant digits, never an exponent ("588,035", "12.3",
 * "0.00381"); "-" when not finite.
 */
void svg_human(char *buf, size_t len, double v);

/* "MEAN ± STDEV", both with the mean's decimals ("588,035 ± 57,821"). */
void svg_human_pm(char *buf, size_t len, double mean, double stdev);

/* Tick labels: plain numbers with k/M, times from nanoseconds, percentiles. */
void svg_label_number(char *buf, size_t len, double v);
void svg_label_ns(char *buf, size_t len, double v);
void svg_label_pct(char *buf, size_t len, double v);

/* Text for HTML and SVG: & < > " ' escaped. */
void html_escape(FILE *out, const char *s);

#endif
