/*
 * compiler.c - what every file of the compile stage uses (compiler.h):
 * an array grown one element at a time, and the bound on a time value.
 */
#include <math.h>

#include "lang/compiler.h"
#include "plan/diag.h"
#include "plan/oom.h"

void *compiler_grow(void *arr, int *cap, int n, size_t size)
{
	if (n < *cap)
		return arr;
	*cap = *cap ? *cap * 2 : 8;
	return xreallocarray(arr, (size_t)*cap, size);
}

/*
 * `s` seconds (either sign) within PLAN_MAX_SECONDS, else an error at
 * `loc`: "run: 20000000000 s is more than flowbench's limit of ...".
 */
bool compiler_check_seconds(struct compiler *c, double s, struct src_loc loc,
			    const char *what)
{
	if (isnan(s) || isinf(s)) {
		diag_error(c->d, loc, "%s: %g is not a number of seconds", what, s);
		return false;
	}
	if (fabs(s) > PLAN_MAX_SECONDS) {
		diag_error(c->d, loc,
			   "%s: %.15g s is %s than flowbench's limit of %s%.0f s (31.7 years)",
			   what, s, s < 0 ? "less" : "more", s < 0 ? "-" : "",
			   PLAN_MAX_SECONDS);
		return false;
	}
	return true;
}
