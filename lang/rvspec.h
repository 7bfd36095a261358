/*
 * rvspec.h - building a random variable from the attributes of
 * randvar(...), cvar(...) or `define randvar`: validated with located
 * errors, everything sampling needs precomputed into the plan's record
 * (plan/randvar.h).  The compiler's half; sampling is the runtime's.
 */
#ifndef FLOWBENCH_LANG_RVSPEC_H
#define FLOWBENCH_LANG_RVSPEC_H

#include <stdbool.h>

#include "plan/arena.h"
#include "plan/randvar.h"
#include "plan/srcloc.h"

struct diag;

/* One attribute of randvar(...)/cvar(...) as the compiler evaluated it. */
struct rvspec_arg {
	const char *name;         /* "type", "min", "parameters", ... */
	bool is_num;              /* else a string (or a bare flag: str NULL) */
	double num;
	const char *str;
	struct src_loc loc;       /* of the name */
	struct src_loc val_loc;   /* of the value */
};

struct rvspec_row {
	double pct, lo, hi;       /* randtable row {pct, lo, hi} */
	struct src_loc loc;
};

struct rvspec {
	const char *fn;           /* "randvar" or "cvar" (define randvar: "randvar") */
	const char *var;          /* the variable it is bound to, for messages */
	struct src_loc loc;
	int nargs;
	const struct rvspec_arg *args;
	int nrows;                /* randtable rows, if given */
	const struct rvspec_row *rows;
	struct src_loc table_loc;
};

/* Validate `spec` into `out`; returns the number of errors reported. */
int rvspec_build(const struct rvspec *spec, struct plan_randvar *out,
		 struct arena *a, struct diag *d);

#endif
