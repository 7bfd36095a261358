/*
 * gate.h - compare's verdict, for a CI to act on: is any later results
 * file worse than the first beyond its metric's threshold?  The way
 * diff and cmp answer: exit 0 when none is, 1 when one is (2 is the
 * caller's: usage, an unreadable file).  Each threshold says how far a
 * metric may move the worse way (a rate drop, a latency rise) in
 * percent of the first file's mean; where both files have repeats the
 * move must also be significant by Welch's t-test, where a side has one
 * run the difference alone decides, and the verdict says which.
 */
#ifndef FLOWBENCH_COMPARE_GATE_H
#define FLOWBENCH_COMPARE_GATE_H

#include <stdbool.h>
#include <stdio.h>

#include "compare/load.h"

/* One gated metric: its name on the command line and its limit. */
struct gate_rule {
	const char *name;         /* "ops_per_s", "p99" */
	const char *label;        /* "ops/s", "p99 latency" */
	bool higher_better;       /* a rate: a drop is worse */
	double pct;               /* a latency percentile, else 0 */
	double (*of_summary)(const struct rf_summary *s);   /* NULL: flowops only */
	double limit_pct;         /* -5: may drop 5 %; +10: may rise 10 %; NaN: off */
};

/* The rules with their defaults, then the --threshold lists applied. */
struct gate_rules {
	struct gate_rule *rules;  /* malloc'ed */
	int n;
};

/*
 * The default rules (ops_per_s and mb_per_s may drop 5 %, p99 rise 10 %,
 * the others off), changed by each "METRIC=LIMIT,..." of `lists` in
 * order: LIMIT is "-N%" for a rate, "+N%" for a latency, or "off".  0,
 * or -1 after a message on `err` (an unknown metric, with the closest
 * name; a limit the wrong way or not a number).
 */
int gate_rules_parse(struct gate_rules *g, const char *const *lists, int nlists,
		     FILE *err);
void gate_rules_free(struct gate_rules *g);

/* How one comparison came out. */
enum gate_verdict {
	GATE_PASS,
	GATE_REGRESSION,
	GATE_SKIPPED,             /* a side has no value (said in `note`) */
};

/* One metric of one flowop (or the IO Summary) of one later file. */
struct gate_case {
	int doc;                  /* the later file (index into docs, >= 1) */
	const struct gate_rule *rule;
	char row[300];            /* the flowop ("name", "name (2)") or "IO Summary" */
	double base, value;       /* the means over each file's runs */
	int nbase, nvalue;        /* their runs */
	double diff_pct;          /* NaN when not compared */
	bool tested;              /* Welch's t-test judged (both sides repeated) */
	double p;                 /* its p-value when tested */
	enum gate_verdict verdict;
	char note[160];           /* why skipped, or "beyond the limit, not significant" */
};

struct gate_result {
	struct gate_case *cases;  /* malloc'ed, in file, metric, row order */
	int n;
	int regressions, skipped;
};

/*
 * Judge every later file against docs[0] by g.  0, or -1 when out of
 * memory.  Release with gate_result_free().
 */
int gate_judge(const struct gate_rules *g, const struct rf_doc *docs, int ndocs,
	       struct gate_result *res);
void gate_result_free(struct gate_result *res);

/* The verdict after the text tables: the limits, then each regression. */
void gate_print_text(FILE *out, const struct gate_rules *g,
		     const struct gate_result *res, const struct rf_doc *docs);

/* The verdict as a Markdown heading and summary table (before the tables). */
void gate_print_markdown(FILE *out, const struct gate_rules *g,
			 const struct gate_result *res, const struct rf_doc *docs);

/* The verdict as JUnit XML: a testcase per case, a failure per regression. */
int gate_write_junit(FILE *out, const struct gate_result *res,
		     const struct rf_doc *docs, int ndocs);

#endif
