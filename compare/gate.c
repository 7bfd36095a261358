/*
 * gate.c - compare's verdict (gate.h): the thresholds, the judging, and
 * the three ways to show it (text after the tables, a Markdown summary
 * table for a CI's job summary, JUnit XML for a CI's test report).
 *
 * A comparison is a metric of one flowop (or of the IO Summary) in one
 * later file against the first file, over each file's runs.  It is a
 * regression when its mean moved the worse way by more than the
 * metric's limit and, where both files have two runs or more, Welch's
 * t-test calls the difference significant (p < 0.05): a move beyond the
 * limit that repeats cannot tell from noise passes, with a note.  With
 * one run on a side there is no spread to test, so the difference alone
 * decides, and the verdict says so.
 */
#include "compare/gate.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/welch.h"
#include "plan/diag.h"
#include "runtime/base/log.h"
#include "runtime/base/units.h"

static double sum_ops(const struct rf_summary *s) { return s->ops_per_s; }
static double sum_mb(const struct rf_summary *s) { return s->mb_per_s; }
static double sum_ms(const struct rf_summary *s) { return s->ms_per_op; }

/* Every metric a threshold may name, with its default limit. */
static const struct gate_rule defaults[] = {
	{ "ops_per_s", "ops/s", true, 0, sum_ops, -5 },
	{ "mb_per_s", "MB/s", true, 0, sum_mb, -5 },
	{ "ms_per_op", "ms/op", false, 0, sum_ms, NAN },
	{ "p50", "p50 latency", false, 50, NULL, NAN },
	{ "p90", "p90 latency", false, 90, NULL, NAN },
	{ "p95", "p95 latency", false, 95, NULL, NAN },
	{ "p99", "p99 latency", false, 99, NULL, 10 },
	{ "p99.9", "p99.9 latency", false, 99.9, NULL, NAN },
	{ "p99.99", "p99.99 latency", false, 99.99, NULL, NAN },
};

#define NDEFAULTS (sizeof(defaults) / sizeof(defaults[0]))

/* The rule named `name` (p99_ns and ops/s spellings too), or NULL. */
static struct gate_rule *rule_named(struct gate_rules *g, const char *name, size_t len)
{
	for (int i = 0; i < g->n; i++) {
		const struct gate_rule *r = &g->rules[i];
		size_t n = strlen(r->name);

		if ((len == n && strncmp(name, r->name, n) == 0) ||
		    (len == n + 3 && strncmp(name, r->name, n) == 0 &&
		     strncmp(name + n, "_ns", 3) == 0) ||
		    (len == strlen(r->label) && strncmp(name, r->label, len) == 0))
			return &g->rules[i];
	}
	return NULL;
}

/* One "METRIC=LIMIT" of a list; 0 or -1 after a message. */
static int set_limit(struct gate_rules *g, const char *item, size_t len, FILE *err)
{
	const char *eq = memchr(item, '=', len);
	const char *names[NDEFAULTS + 1];
	struct gate_rule *r;
	char name[64], value[64], *end;
	double v;

	if (!eq || eq == item || (size_t)(eq - item) >= sizeof(name) ||
	    len - (size_t)(eq - item) - 1 >= sizeof(value)) {
		log_error_to(err, "compare --threshold: '%.*s' is not METRIC=LIMIT (like "
			     "ops_per_s=-3%% or p99=+15%%)", (int)len, item);
		return -1;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(eq - item), item);
	snprintf(value, sizeof(value), "%.*s", (int)(len - (size_t)(eq - item) - 1), eq + 1);
	if (!(r = rule_named(g, name, strlen(name)))) {
		char hint[96];

		for (size_t i = 0; i < NDEFAULTS; i++)
			names[i] = defaults[i].name;
		names[NDEFAULTS] = NULL;
		log_error_to(err, "compare --threshold: unknown metric '%s'%s; the metrics "
			     "are ops_per_s, mb_per_s, ms_per_op, p50, p90, p95, p99, p99.9, "
			     "p99.99", name, diag_did_you_mean(hint, sizeof(hint), name, names));
		return -1;
	}
	if (strcmp(value, "off") == 0) {
		r->limit_pct = NAN;
		return 0;
	}
	errno = 0;
	v = strtod(value, &end);
	if (errno || end == value || strcmp(end, "%") != 0 || !isfinite(v) ||
	    (value[0] != '-' && value[0] != '+')) {
		log_error_to(err, "compare --threshold %s=%s: the limit is a signed "
			     "percentage (%s=%s5%%) or off", name, value, r->name,
			     r->higher_better ? "-" : "+");
		return -1;
	}
	if (r->higher_better ? v > 0 : v < 0) {
		log_error_to(err, "compare --threshold %s=%s: %s is %s, so its limit is %s "
			     "(how far it may %s: %s=%c%g%%)", name, value, r->name,
			     r->higher_better ? "a rate" : "a latency",
			     r->higher_better ? "a drop" : "a rise",
			     r->higher_better ? "fall" : "rise", r->name,
			     r->higher_better ? '-' : '+', fabs(v));
		return -1;
	}
	r->limit_pct = v;
	return 0;
}

int gate_rules_parse(struct gate_rules *g, const char *const *lists, int nlists,
		     FILE *err)
{
	g->rules = malloc(sizeof(defaults));
	g->n = (int)NDEFAULTS;
	if (!g->rules) {
		log_error_to(err, "out of memory");
		return -1;
	}
	memcpy(g->rules, defaults, sizeof(defaults));
	for (int i = 0; i < nlists; i++) {
		const char *s = lists[i];

		for (;;) {
			size_t n = strcspn(s, ",");

			if (set_limit(g, s, n, err) < 0)
				return -1;
			if (!s[n])
				break;
			s += n + 1;
		}
	}
	return 0;
}

void gate_rules_free(struct gate_rules *g)
{
	free(g->rules);
	g->rules = NULL;
	g->n = 0;
}

/* The rule's value in one flowop (its percentile, or a rate), NaN absent. */
static double flowop_value(const struct gate_rule *r, const struct rf_flowop *fo)
{
	if (r->pct > 0) {
		for (int i = 0; i < fo->npcts; i++)
			if (fabs(fo->pcts[i].pct - r->pct) < 1e-9)
				return fo->pcts[i].ns;
		return NAN;
	}
	if (r->of_summary == sum_ops)
		return fo->ops_per_s;
	if (r->of_summary == sum_mb)
		return fo->mb_per_s;
	return fo->ms_per_op;
}

/* The rule's values over a file's runs (key NULL: the IO Summary). */
static struct welch_sample sample(const struct gate_rule *r, const struct rf_doc *d,
				  const struct rf_key *key, double *v)
{
	int n = 0;

	for (int i = 0; i < d->nruns; i++) {
		const struct rf_flowop *fo;
		double x;

		if (key)
			x = (fo = rf_find(&d->runs[i], key->name, key->occurrence)) ?
			    flowop_value(r, fo) : NAN;
		else
			x = r->of_summary(&d->runs[i].summary);
		if (isfinite(x))
			v[n++] = x;
	}
	return welch_sample_of(v, n);
}

/* Judge one row; false when neither file has it (no case). */
static bool judge(struct gate_case *c, const struct welch_sample *b,
		  const struct welch_sample *s, const struct rf_doc *docs)
{
	const struct gate_rule *r = c->rule;
	bool worse;

	c->base = b->n ? b->mean : NAN;
	c->value = s->n ? s->mean : NAN;
	c->nbase = b->n;
	c->nvalue = s->n;
	c->diff_pct = NAN;
	if (b->n == 0 && s->n == 0)
		return false;
	if (b->n == 0 || s->n == 0) {
		c->verdict = GATE_SKIPPED;
		snprintf(c->note, sizeof(c->note), "not in %s", docs[b->n ? c->doc : 0].path);
		return true;
	}
	if (b->mean == 0 && s->mean == 0)
		return false;         /* a composite's 0 ops: nothing measured */
	c->diff_pct = welch_diff_pct(b, s);
	if (isnan(c->diff_pct)) {
		c->verdict = GATE_SKIPPED;
		snprintf(c->note, sizeof(c->note), "the baseline is 0: no percentage");
		return true;
	}
	worse = r->higher_better ? c->diff_pct < r->limit_pct : c->diff_pct > r->limit_pct;
	c->tested = b->n >= 2 && s->n >= 2;
	if (c->tested) {
		struct welch w = welch_test(b, s);

		c->p = w.p;
		if (worse && !(w.p < WELCH_SIGNIFICANCE))
			snprintf(c->note, sizeof(c->note), "beyond the limit, but not "
				 "significant");
		worse = worse && w.p < WELCH_SIGNIFICANCE;
	}
	c->verdict = worse ? GATE_REGRESSION : GATE_PASS;
	return true;
}

/* Room for one more case; NULL when out of memory. */
static struct gate_case *new_case(struct gate_result *res, int *cap)
{
	if (res->n == *cap) {
		int ncap = *cap ? 2 * *cap : 64;
		struct gate_case *c = realloc(res->cases, (size_t)ncap * sizeof(*c));

		if (!c)
			return NULL;
		res->cases = c;
		*cap = ncap;
	}
	memset(&res->cases[res->n], 0, sizeof(res->cases[0]));
	return &res->cases[res->n];
}

int gate_judge(const struct gate_rules *g, const struct rf_doc *docs, int ndocs,
	       struct gate_result *res)
{
	int nkeys = 0, maxruns = 1, cap = 0, rc = 0;
	struct rf_key *keys = rf_keys(docs, ndocs, &nkeys);
	double *v;

	memset(res, 0, sizeof(*res));
	for (int d = 0; d < ndocs; d++)
		if (docs[d].nruns > maxruns)
			maxruns = docs[d].nruns;
	v = calloc((size_t)maxruns, sizeof(*v));
	if (!keys || !v)
		rc = -1;
	for (int d = 1; rc == 0 && d < ndocs; d++) {
		for (int m = 0; rc == 0 && m < g->n; m++) {
			const struct gate_rule *r = &g->rules[m];

			if (isnan(r->limit_pct))
				continue;
			for (int k = 0; k <= nkeys; k++) {
				const struct rf_key *key = k < nkeys ? &keys[k] : NULL;
				struct welch_sample b, s;
				struct gate_case *c;

				if (!key && !r->of_summary)
					break;
				if (!(c = new_case(res, &cap))) {
					rc = -1;
					break;
				}
				c->doc = d;
				c->rule = r;
				if (key)
					snprintf(c->row, sizeof(c->row), key->occurrence ?
						 "%s (%d)" : "%s", key->name, key->occurrence + 1);
				else
					snprintf(c->row, sizeof(c->row), "IO Summary");
				b = sample(r, &docs[0], key, v);
				s = sample(r, &docs[d], key, v);
				if (!judge(c, &b, &s, docs))
					continue;
				res->regressions += c->verdict == GATE_REGRESSION;
				res->skipped += c->verdict == GATE_SKIPPED;
				res->n++;
			}
		}
	}
	free(keys);
	free(v);
	return rc;
}

void gate_result_free(struct gate_result *res)
{
	free(res->cases);
	memset(res, 0, sizeof(*res));
}

/* "ops_per_s -5%, mb_per_s -5%, p99 +10%": the limits in force. */
static void limits(FILE *out, const struct gate_rules *g)
{
	int n = 0;

	for (int i = 0; i < g->n; i++)
		if (!isnan(g->rules[i].limit_pct))
			fprintf(out, "%s%s %+g%%", n++ ? ", " : "", g->rules[i].name,
				g->rules[i].limit_pct);
	if (!n)
		fputs("none (every metric off)", out);
}

/* A mean for people: latencies in units, rates with four digits. */
static char *shown(char *buf, size_t size, const struct gate_rule *r, double v)
{
	if (!isfinite(v))
		snprintf(buf, size, "-");
	else if (r->pct > 0)
		units_latency(buf, size, v);
	else if (fabs(v) >= 1000)
		snprintf(buf, size, "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(buf, size, "%.1f", v);
	else
		snprintf(buf, size, "%.3g", v);
	return buf;
}

/* How a case was judged, in words. */
static void judged(char *buf, size_t size, const struct gate_case *c)
{
	if (c->verdict == GATE_SKIPPED)
		snprintf(buf, size, "not compared: %s", c->note);
	else if (c->tested)
		snprintf(buf, size, "Welch's t-test, p=%.2g", c->p);
	else
		snprintf(buf, size, "difference only (%d and %d run%s: no test)",
			 c->nbase, c->nvalue, c->nvalue == 1 ? "" : "s");
}

static const char *verdict_word(enum gate_verdict v)
{
	return v == GATE_REGRESSION ? "REGRESSION" : v == GATE_SKIPPED ? "skipped" : "pass";
}

void gate_print_text(FILE *out, const struct gate_rules *g,
		     const struct gate_result *res, const struct rf_doc *docs)
{
	char a[64], b[64], how[200];
	int tested = 0;

	for (int i = 0; i < res->n; i++)
		tested += res->cases[i].tested;
	fputs("\nGate (limits: ", out);
	limits(out, g);
	fprintf(out, "): %s: %d regression%s in %d comparison%s (%d by Welch's t-test, "
		"%d by the difference alone, %d skipped)\n",
		res->regressions ? "FAIL" : "pass", res->regressions,
		log_plural((unsigned)res->regressions), res->n, log_plural((unsigned)res->n),
		tested, res->n - tested - res->skipped, res->skipped);
	for (int i = 0; i < res->n; i++) {
		const struct gate_case *c = &res->cases[i];

		if (c->verdict != GATE_REGRESSION && !c->note[0])
			continue;
		if (c->verdict == GATE_SKIPPED) {
			fprintf(out, "  skipped %s: %s of %s: %s\n", docs[c->doc].path,
				c->rule->label, c->row, c->note);
			continue;
		}
		judged(how, sizeof(how), c);
		fprintf(out, "  %s %s: %s of %s: %s -> %s (%+.1f%%, limit %+g%%; %s)%s%s\n",
			verdict_word(c->verdict), docs[c->doc].path, c->rule->label, c->row,
			shown(a, sizeof(a), c->rule, c->base),
			shown(b, sizeof(b), c->rule, c->value), c->diff_pct,
			c->rule->limit_pct, how,
			c->verdict == GATE_PASS ? ": " : "",
			c->verdict == GATE_PASS ? c->note : "");
	}
}

/* Markdown text: its punctuation escaped (compare.c's rule). */
static void md_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_[]<>|#", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* A case's row of the Markdown regressions table. */
static void md_case(FILE *out, const struct gate_case *c, const struct rf_doc *docs)
{
	char a[64], b[64], how[200];

	judged(how, sizeof(how), c);
	fputs("| ", out);
	md_text(out, docs[c->doc].path);
	fputs(" | ", out);
	md_text(out, c->rule->label);
	fputs(" | ", out);
	md_text(out, c->row);
	fprintf(out, " | %s | %s | %+.1f%% | %+g%% | ", shown(a, sizeof(a), c->rule, c->base),
		shown(b, sizeof(b), c->rule, c->value), c->diff_pct, c->rule->limit_pct);
	md_text(out, how);
	fputs(" |\n", out);
}

/*
 * The verdict for a CI's job summary: a heading with it, the limits,
 * a row per later file and gated metric (how many rows compared, how
 * many regressed, the worst move), and the regressions one by one.  Its
 * size follows files and metrics, not flowops: 50,000 flowops that all
 * pass make three rows.
 */
void gate_print_markdown(FILE *out, const struct gate_rules *g,
			 const struct gate_result *res, const struct rf_doc *docs)
{
	int tested = 0, ndocs = 0;

	for (int i = 0; i < res->n; i++) {
		tested += res->cases[i].tested;
		if (res->cases[i].doc + 1 > ndocs)
			ndocs = res->cases[i].doc + 1;
	}
	fprintf(out, "### flowbench compare: %s (%d regression%s in %d comparison%s)\n\n",
		res->regressions ? "**FAIL**" : "pass", res->regressions,
		log_plural((unsigned)res->regressions), res->n, log_plural((unsigned)res->n));
	fputs("- limits: ", out);
	for (int i = 0, n = 0; i < g->n; i++)
		if (!isnan(g->rules[i].limit_pct)) {
			fputs(n++ ? ", " : "", out);
			md_text(out, g->rules[i].name);
			fprintf(out, " %+g%%", g->rules[i].limit_pct);
		}
	fprintf(out, "\n- judged: %d by Welch's t-test (both files repeated), %d by the "
		"difference alone (a file of one run), %d skipped\n\n", tested,
		res->n - tested - res->skipped, res->skipped);
	fputs("| file | metric | limit | compared | regressions | worst | worst %diff |\n"
	      "| :--- | :--- | ---: | ---: | ---: | :--- | ---: |\n", out);
	for (int d = 1; d < ndocs; d++) {
		for (int m = 0; m < g->n; m++) {
			const struct gate_rule *r = &g->rules[m];
			const struct gate_case *worst = NULL;
			int n = 0, bad = 0;

			for (int i = 0; i < res->n; i++) {
				const struct gate_case *c = &res->cases[i];
				double sign = r->higher_better ? -1 : 1;

				if (c->doc != d || c->rule != r || c->verdict == GATE_SKIPPED)
					continue;
				n++;
				bad += c->verdict == GATE_REGRESSION;
				if (!worst || sign * c->diff_pct > sign * worst->diff_pct)
					worst = c;
			}
			if (!n)
				continue;
			fputs("| ", out);
			md_text(out, docs[d].path);
			fputs(" | ", out);
			md_text(out, r->label);
			fprintf(out, " | %+g%% | %d | %s%d%s | ", r->limit_pct, n,
				bad ? "**" : "", bad, bad ? "**" : "");
			md_text(out, worst->row);
			fprintf(out, " | %+.1f%% |\n", worst->diff_pct);
		}
	}
	if (res->regressions) {
		fputs("\n| regression in | metric | flowop | baseline | value | %diff | limit "
		      "| judged by |\n| :--- | :--- | :--- | ---: | ---: | ---: | ---: | :--- |\n",
		      out);
		for (int i = 0; i < res->n; i++)
			if (res->cases[i].verdict == GATE_REGRESSION)
				md_case(out, &res->cases[i], docs);
	}
	fputc('\n', out);
}

/* XML text or attribute value: the five characters escaped, controls dropped. */
static void xml_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '&')
			fputs("&amp;", out);
		else if (ch == '<')
			fputs("&lt;", out);
		else if (ch == '>')
			fputs("&gt;", out);
		else if (ch == '"')
			fputs("&quot;", out);
		else if (ch == '\'')
			fputs("&apos;", out);
		else if (ch < 0x20 && ch != '\t' && ch != '\n')
			continue;       /* not allowed in XML 1.0 */
		else
			fputc(ch, out);
	}
}

int gate_write_junit(FILE *out, const struct gate_result *res,
		     const struct rf_doc *docs, int ndocs)
{
	char a[64], b[64], how[200];

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites name=\"flowbench compare\" tests=\"%d\" failures=\"%d\" "
		"skipped=\"%d\">\n", res->n, res->regressions, res->skipped);
	for (int d = 1; d < ndocs; d++) {
		int n = 0, fail = 0, skip = 0;

		for (int i = 0; i < res->n; i++) {
			n += res->cases[i].doc == d;
			fail += res->cases[i].doc == d && res->cases[i].verdict == GATE_REGRESSION;
			skip += res->cases[i].doc == d && res->cases[i].verdict == GATE_SKIPPED;
		}
		fputs("  <testsuite name=\"", out);
		xml_text(out, docs[d].path);
		fputs(" against ", out);
		xml_text(out, docs[0].path);
		fprintf(out, "\" tests=\"%d\" failures=\"%d\" skipped=\"%d\">\n", n, fail, skip);
		for (int i = 0; i < res->n; i++) {
			const struct gate_case *c = &res->cases[i];

			if (c->doc != d)
				continue;
			judged(how, sizeof(how), c);
			fputs("    <testcase classname=\"flowbench.", out);
			xml_text(out, c->rule->name);
			fputs("\" name=\"", out);
			xml_text(out, c->row);
			fputs("\"", out);
			if (c->verdict == GATE_PASS) {
				fputs("/>\n", out);
				continue;
			}
			fputs(">\n", out);
			if (c->verdict == GATE_SKIPPED) {
				fputs("      <skipped message=\"", out);
				xml_text(out, c->note);
				fputs("\"/>\n", out);
			} else {
				fprintf(out, "      <failure type=\"regression\" message=\"%s %+.1f%% "
					"(limit %+g%%)\">", c->rule->label, c->diff_pct,
					c->rule->limit_pct);
				fprintf(out, "%s: %s -> %s, %+.1f%% against the limit %+g%%; ",
					c->rule->label, shown(a, sizeof(a), c->rule, c->base),
					shown(b, sizeof(b), c->rule, c->value), c->diff_pct,
					c->rule->limit_pct);
				xml_text(out, how);
				fputs("</failure>\n", out);
			}
			fputs("    </testcase>\n", out);
		}
		fputs("  </testsuite>\n", out);
	}
	fputs("</testsuites>\n", out);
	return ferror(out) ? -1 : 0;
}
