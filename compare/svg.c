/*
 * svg.c - the charts of `flowbench report`, written as inline SVG so the
 * report is one file that opens offline.  A chart maps data to a fixed
 * plot area; axes choose their ticks by scale: 1-2-5 steps when linear,
 * decades when logarithmic, 50/90/99/99.9... for percentiles.
 */
#include "compare/svg.h"

#include <math.h>
#include <string.h>

#define LEFT 70.0
#define RIGHT 20.0
#define TOP 34.0
#define BOTTOM 48.0
#define MAX_TICKS 64

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
	"#9467bd", "#8c564b", "#e377c2", "#17becf",
};

const char *svg_color(int i)
{
	int n = (int)(sizeof(palette) / sizeof(palette[0]));

	return palette[((i % n) + n) % n];
}

void html_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
	}
}

/* The scale's transform; NaN when the value cannot be shown on it. */
static double scaled(enum svg_scale s, double v)
{
	if (!isfinite(v))
		return NAN;
	if (s == SVG_LOG)
		return v > 0 ? log10(v) : NAN;
	if (s == SVG_NINES)
		return v >= 0 && v < 100 ? -log10(1 - v / 100) : NAN;
	return v;
}

/* Ticks of an axis (at most MAX_TICKS); widens min/max to the outer ones. */
static int ticks(struct svg_axis *a, double *t)
{
	int n = 0;

	if (!(a->max > a->min)) {       /* one value, or none: make a range */
		double v = isfinite(a->min) ? a->min : 0;

		a->min = a->scale == SVG_LINEAR ? v - (v ? fabs(v) / 2 : 1) : v / 10;
		a->max = a->scale == SVG_LINEAR ? v + (v ? fabs(v) / 2 : 1) : v * 10;
		if (a->scale == SVG_NINES) {
			a->min = 50;
			a->max = 99.99;
		}
		if (a->scale == SVG_LOG && !(a->min > 0)) {
			a->min = 1;
			a->max = 10;
		}
	}
	if (a->scale == SVG_LOG) {
		double lo = floor(log10(a->min)), hi = ceil(log10(a->max));

		if (hi <= lo)
			hi = lo + 1;
		a->min = pow(10, lo);
		a->max = pow(10, hi);
		for (double k = lo; k <= hi && n < MAX_TICKS; k++)
			t[n++] = pow(10, k);
	} else if (a->scale == SVG_NINES) {
		static const double nines[] = { 0, 50, 90, 99, 99.9, 99.99,
						99.999, 99.9999 };

		for (size_t i = 0; i < sizeof(nines) / sizeof(nines[0]); i++)
			if (nines[i] >= a->min - 1e-9 && nines[i] <= a->max + 1e-9)
				t[n++] = nines[i];
	} else {
		double raw = (a->max - a->min) / 5, mag = pow(10, floor(log10(raw)));
		double step = raw / mag < 1.5 ? mag : raw / mag < 3.5 ? 2 * mag :
			      raw / mag < 7.5 ? 5 * mag : 10 * mag;

		a->min = floor(a->min / step) * step;
		a->max = ceil(a->max / step) * step;
		for (double v = a->min; v <= a->max + step / 2 && n < MAX_TICKS; v += step)
			t[n++] = fabs(v) < step / 1e6 ? 0 : v;
	}
	return n;
}

static double px_x(const struct svg_chart *c, double v)
{
	double lo = scaled(c->x.scale, c->x.min), hi = scaled(c->x.scale, c->x.max);

	return LEFT + (scaled(c->x.scale, v) - lo) / (hi - lo) *
		      (c->width - LEFT - RIGHT);
}

static double px_y(const struct svg_chart *c, double v)
{
	double lo = scaled(c->y.scale, c->y.min), hi = scaled(c->y.scale, c->y.max);

	return c->height - BOTTOM - (scaled(c->y.scale, v) - lo) / (hi - lo) *
				    (c->height - TOP - BOTTOM);
}

static void open_svg(FILE *out, double w, double h, const char *title)
{
	fprintf(out, "<svg width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n",
		w, h, w, h);
	fputs("<title>", out);
	html_escape(out, title);
	fputs("</title>\n", out);
	fprintf(out, "<text class=\"ct\" x=\"%.1f\" y=\"20\">", LEFT);
	html_escape(out, title);
	fputs("</text>\n", out);
}

static void axis_titles(FILE *out, double w, double h, const char *xt,
			const char *yt)
{
	fprintf(out, "<text class=\"at\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
		LEFT + (w - LEFT - RIGHT) / 2, h - 8);
	html_escape(out, xt);
	fprintf(out, "</text>\n<text class=\"at\" transform=\"translate(14 %.1f) rotate(-90)\" text-anchor=\"middle\">",
		TOP + (h - TOP - BOTTOM) / 2);
	html_escape(out, yt);
	fputs("</text>\n", out);
}

void svg_begin(struct svg_chart *c, const char *title)
{
	double tx[MAX_TICKS], ty[MAX_TICKS];
	int nx = ticks(&c->x, tx), ny = ticks(&c->y, ty);
	char buf[64];

	open_svg(c->out, c->width, c->height, title);
	fprintf(c->out, "<rect class=\"pa\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		LEFT, TOP, c->width - LEFT - RIGHT, c->height - TOP - BOTTOM);
	for (int i = 0; i < nx; i++) {
		double x = px_x(c, tx[i]);

		c->x.label(buf, sizeof(buf), tx[i]);
		fprintf(c->out, "<line class=\"g\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tk\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			x, TOP, x, c->height - BOTTOM, x, c->height - BOTTOM + 16);
		html_escape(c->out, buf);
		fputs("</text>\n", c->out);
	}
	for (int i = 0; i < ny; i++) {
		double y = px_y(c, ty[i]);

		c->y.label(buf, sizeof(buf), ty[i]);
		fprintf(c->out, "<line class=\"g\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tk\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			LEFT, y, c->width - RIGHT, y, LEFT - 6, y + 4);
		html_escape(c->out, buf);
		fputs("</text>\n", c->out);
	}
	axis_titles(c->out, c->width, c->height, c->x.title, c->y.title);
}

/* "NAME: x-title X, y-title Y", the hover text of a point. */
static void point_title(const struct svg_chart *c, const char *name,
			double x, double y)
{
	char xs[64], ys[64];

	c->x.label(xs, sizeof(xs), x);
	if (c->y.label == svg_label_ns)
		svg_label_ns(ys, sizeof(ys), y);
	else
		svg_human(ys, sizeof(ys), y);
	fputs("<title>", c->out);
	html_escape(c->out, name);
	fputs(": ", c->out);
	html_escape(c->out, c->x.title);
	fprintf(c->out, " %s, ", xs);
	html_escape(c->out, c->y.title);
	fprintf(c->out, " %s</title>", ys);
}

void svg_series(struct svg_chart *c, const char *name, const double *xs,
		const double *ys, int n, int color, bool dashed)
{
	int shown = 0;

	fprintf(c->out, "<polyline class=\"s\" stroke=\"%s\"%s points=\"",
		svg_color(color), dashed ? " stroke-dasharray=\"5 3\"" : "");
	for (int i = 0; i < n; i++) {
		if (isnan(scaled(c->x.scale, xs[i])) || isnan(scaled(c->y.scale, ys[i])))
			continue;
		fprintf(c->out, "%s%.1f,%.1f", shown++ ? " " : "",
			px_x(c, xs[i]), px_y(c, ys[i]));
	}
	fputs("\"/>\n", c->out);
	for (int i = 0; i < n; i++) {
		if (isnan(scaled(c->x.scale, xs[i])) || isnan(scaled(c->y.scale, ys[i])))
			continue;
		fprintf(c->out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\">",
			px_x(c, xs[i]), px_y(c, ys[i]), svg_color(color));
		point_title(c, name, xs[i], ys[i]);
		fputs("</circle>\n", c->out);
	}
}

void svg_legend(struct svg_chart *c, const char *const *labels, int n)
{
	for (int i = 0; i < n; i++) {
		double y = TOP + 14 + 16 * i;

		fprintf(c->out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>"
			"<text class=\"lg\" x=\"%.1f\" y=\"%.1f\">",
			LEFT + 10, y - 9, svg_color(i), LEFT + 24, y);
		html_escape(c->out, labels[i]);
		fputs("</text>\n", c->out);
	}
}

void svg_end(struct svg_chart *c)
{
	fputs("</svg>\n", c->out);
}

/* At most max code points of s, the last one "…" when cut. */
static void short_label(char *buf, size_t len, const char *s, size_t max)
{
	size_t used = 0, chars = 0;

	if (max < 2)
		max = 2;
	for (; *s && used + 4 < len; s++) {
		if (((unsigned char)*s & 0xc0) != 0x80 && ++chars == max && s[1]) {
			used += (size_t)snprintf(buf + used, len - used, "…");
			break;
		}
		buf[used++] = *s;
	}
	buf[used] = '\0';
}

void svg_bars(FILE *out, const char *title, const char *ytitle,
	      svg_label_fn *ylabel, const char *const *labels,
	      const double *mean, const double *err, int n)
{
	struct svg_chart c = {
		.out = out, .width = 380, .height = 290,
		.x = { SVG_LINEAR, 0, 1, "", svg_label_number },
		.y = { SVG_LINEAR, 0, 0, ytitle, ylabel },
	};
	double ty[MAX_TICKS], slot;
	char buf[64];
	int ny;

	for (int i = 0; i < n; i++) {
		double top = mean[i] + (isfinite(err[i]) ? err[i] : 0);

		if (isfinite(top) && top > c.y.max)
			c.y.max = top;
	}
	if (!(c.y.max > 0))
		c.y.max = 1;
	c.y.max *= 1.05;        /* room above the highest bar */
	ny = ticks(&c.y, ty);
	open_svg(out, c.width, c.height, title);
	fprintf(out, "<rect class=\"pa\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		LEFT, TOP, c.width - LEFT - RIGHT, c.height - TOP - BOTTOM);
	for (int i = 0; i < ny; i++) {
		double y = px_y(&c, ty[i]);

		ylabel(buf, sizeof(buf), ty[i]);
		fprintf(out, "<line class=\"g\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tk\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			LEFT, y, c.width - RIGHT, y, LEFT - 6, y + 4);
		html_escape(out, buf);
		fputs("</text>\n", out);
	}
	slot = (c.width - LEFT - RIGHT) / (n > 0 ? n : 1);
	for (int i = 0; i < n; i++) {
		double x = LEFT + slot * i + slot * 0.2, w = slot * 0.6;
		double y = isfinite(mean[i]) ? px_y(&c, mean[i]) : px_y(&c, 0);

		fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
			x, y, w, px_y(&c, 0) - y, svg_color(i));
		html_escape(out, labels[i]);
		svg_human_pm(buf, sizeof(buf), mean[i], err[i]);
		fprintf(out, ": %s ", buf);
		html_escape(out, ytitle);
		fputs("</title></rect>\n", out);
		if (isfinite(err[i]) && isfinite(mean[i]) && err[i] > 0) {
			double cx = x + w / 2, lo = px_y(&c, fmax(mean[i] - err[i], 0));
			double hi = px_y(&c, mean[i] + err[i]);

			fprintf(out, "<path class=\"eb\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\"/>\n",
				cx, lo, hi, cx - 6, lo, cx + 6, cx - 6, hi, cx + 6);
		}
		fprintf(out, "<text class=\"tk\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			x + w / 2, c.height - BOTTOM + 16);
		short_label(buf, sizeof(buf), labels[i], (size_t)(slot / 7));
		html_escape(out, buf);
		fputs("</text>\n", out);
	}
	axis_titles(out, c.width, c.height, "", ytitle);
	fputs("</svg>\n", out);
}

void svg_label_number(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (a >= 1e9)
		snprintf(buf, len, "%gG", v / 1e9);
	else if (a >= 1e6)
		snprintf(buf, len, "%gM", v / 1e6);
	else if (a >= 1e4)
		snprintf(buf, len, "%gk", v / 1e3);
	else
		snprintf(buf, len, "%g", v);
}

void svg_label_ns(char *buf, size_t len, double v)
{
	if (v >= 1e9)
		snprintf(buf, len, "%gs", v / 1e9);
	else if (v >= 1e6)
		snprintf(buf, len, "%gms", v / 1e6);
	else if (v >= 1e3)
		snprintf(buf, len, "%gµs", v / 1e3);
	else
		snprintf(buf, len, "%gns", v);
}

void svg_label_pct(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%g", v);
}

/* Decimals for v: none from 100 up, else three significant digits. */
static int human_decimals(double v)
{
	double a = fabs(v);
	int d;

	if (!(a > 0) || a >= 99.95)
		return 0;
	d = 2 - (int)floor(log10(a));
	return d > 15 ? 15 : d;
}

/* v with `dec` decimals and its whole part grouped by threes with commas. */
static void grouped(char *buf, size_t len, double v, int dec)
{
	char raw[400];
	const char *p = raw;
	size_t used = 0, whole;

	if (len == 0)
		return;
	snprintf(raw, sizeof(raw), "%.*f", dec, fabs(v));
	whole = strcspn(raw, ".");
	if (v < 0 && strspn(raw, "0.") != strlen(raw) && used + 1 < len)
		buf[used++] = '-';
	for (size_t i = 0; *p && used + 1 < len; i++, p++) {
		if (i > 0 && i < whole && (whole - i) % 3 == 0) {
			if (used + 2 >= len)
				break;          /* cut before a lone comma */
			buf[used++] = ',';
		}
		buf[used++] = *p;
	}
	buf[used] = '\0';
}

void svg_human(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else
		grouped(buf, len, v, human_decimals(v));
}

void svg_human_pm(char *buf, size_t len, double mean, double stdev)
{
	int dec = human_decimals(mean);
	char m[448], sd[448];

	if (!isfinite(mean)) {
		snprintf(buf, len, "-");
		return;
	}
	grouped(m, sizeof(m), mean, dec);
	if (!isfinite(stdev)) {
		snprintf(buf, len, "%s", m);
		return;
	}
	grouped(sd, sizeof(sd), stdev, dec);
	snprintf(buf, len, "%s ± %s", m, sd);
}

/* One file's p50..p99 bar in a category's slot, with hover values. */
static void range_mark(const struct svg_chart *c, const struct svg_ranges *r,
		       int cat, int file, double x)
{
	double lo = r->p50[cat * r->nfiles + file], hi = r->p99[cat * r->nfiles + file];
	char a[64], b[64];

	if (isnan(scaled(SVG_LOG, lo)) || isnan(scaled(SVG_LOG, hi)))
		return;
	svg_label_ns(a, sizeof(a), lo);
	svg_label_ns(b, sizeof(b), hi);
	fputs("<g><title>", c->out);
	html_escape(c->out, r->cats[cat]);
	fputs(", ", c->out);
	html_escape(c->out, r->files[file]);
	fprintf(c->out, ": p50 %s, p99 %s</title>"
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"4\"/>"
		"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>"
		"<path d=\"M%.1f %.1fH%.1f\" stroke=\"%s\" stroke-width=\"3\"/></g>\n",
		a, b, x, px_y(c, lo), x, px_y(c, hi), svg_color(file),
		x, px_y(c, lo), svg_color(file),
		x - 7, px_y(c, hi), x + 7, svg_color(file));
}

void svg_range_chart(FILE *out, const struct svg_ranges *r)
{
	double width = 120 + 70.0 * r->ncats * (r->nfiles > 2 ? r->nfiles / 2.0 : 1);
	struct svg_chart c = {
		.out = out, .width = width < 380 ? 380 : width, .height = 320,
		.x = { SVG_LINEAR, 0, 1, "flowop", svg_label_number },
		.y = { SVG_LOG, 0, 0, "latency (dot: p50, tick: p99)", svg_label_ns },
	};
	double ty[MAX_TICKS], slot;
	bool first = true;
	char buf[64];
	int ny;

	for (int i = 0; i < r->ncats * r->nfiles; i++)
		for (int j = 0; j < 2; j++) {
			double v = j ? r->p99[i] : r->p50[i];

			if (!(v > 0) || !isfinite(v))
				continue;
			if (first || v < c.y.min)
				c.y.min = v;
			if (first || v > c.y.max)
				c.y.max = v;
			first = false;
		}
	ny = ticks(&c.y, ty);
	open_svg(out, c.width, c.height, r->title);
	fprintf(out, "<rect class=\"pa\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		LEFT, TOP, c.width - LEFT - RIGHT, c.height - TOP - BOTTOM);
	for (int i = 0; i < ny; i++) {
		double y = px_y(&c, ty[i]);

		svg_label_ns(buf, sizeof(buf), ty[i]);
		fprintf(out, "<line class=\"g\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<text class=\"tk\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">",
			LEFT, y, c.width - RIGHT, y, LEFT - 6, y + 4);
		html_escape(out, buf);
		fputs("</text>\n", out);
	}
	slot = (c.width - LEFT - RIGHT) / (r->ncats > 0 ? r->ncats : 1);
	for (int k = 0; k < r->ncats; k++) {
		double x0 = LEFT + slot * k, sub = slot / (r->nfiles + 1);

		for (int f = 0; f < r->nfiles; f++)
			range_mark(&c, r, k, f, x0 + sub * (f + 1));
		fprintf(out, "<text class=\"tk\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			x0 + slot / 2, c.height - BOTTOM + 16);
		short_label(buf, sizeof(buf), r->cats[k], (size_t)(slot / 7));
		html_escape(out, buf);
		fputs("</text>\n", out);
	}
	axis_titles(out, c.width, c.height, "", c.y.title);
	fputs("</svg>\n", out);
}
