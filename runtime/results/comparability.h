/*
 * comparability.h - where this run's numbers and filebench's for the same
 * workload would differ, and why.
 *
 * flowbench's rules are the default and filebench's are emulated under
 * `--compat filebench` (plan.semantics); either way a user comparing
 * with a published filebench number must know which rules actually
 * mattered in this run: a finish limit fired, implicit opens happened,
 * direct I/O ran, the run ended by itself in a fraction of a second...
 * Each rule is one row of a table (comparability.c; docs/differences.md
 * section 10 lists the same rules), with a test of whether it applied,
 * given the plan and the run's outcome, and one line saying its effect.
 * The notes are printed after the report and written to the results file;
 * nothing is said when no rule applied.
 */
#ifndef FLOWBENCH_COMPARABILITY_H
#define FLOWBENCH_COMPARABILITY_H

#include <stdbool.h>
#include <stdio.h>

#include "plan/plan.h"
#include "runtime/engine/run.h"

#define COMPARABILITY_MAX 16

/* One rule that applied in a session's runs. */
struct comparability_note {
	const char *rule;         /* its name, e.g. "finish-limits" */
	const char *section;      /* where docs/differences.md explains it */
	bool emulated;            /* --compat filebench follows filebench here */
	char effect[320];         /* what it did in this run, one line */
	double estimate;          /* filebench's IO Summary ops/s for this run
				     (fbestimate.h), NaN when the rule gives none */
};

struct comparability {
	enum plan_semantics semantics;
	struct comparability_note notes[COMPARABILITY_MAX];
	int n;
};

/* Start a session's notes for a plan following `sem`'s rules. */
void comparability_init(struct comparability *c, enum plan_semantics sem);

/* Add the rules that applied in run `o` (each rule once per session). */
void comparability_add_run(struct comparability *c, const struct plan *p,
			   const struct run_outcome *o);

/*
 * The note after the report: the rules that applied, each with its
 * effect and section; under flowbench's rules the advice to use
 * `--compat filebench`; under filebench's, the defects of filebench's
 * that are not emulated.  Nothing when no rule applied.
 */
void comparability_print(FILE *out, const struct comparability *c);

/* filebench's defects that --compat filebench does not emulate, NULL-terminated. */
extern const char *const comparability_not_emulated[];

#endif
