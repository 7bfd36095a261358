/*
 * plan.c - releasing a plan.  The compiler allocates the arrays with
 * realloc (they grow while it walks the script) and every string and
 * attribute value in the plan's arena.
 */
#include "plan/plan.h"

#include <stdlib.h>
#include <string.h>

void plan_free(struct plan *p)
{
	free(p->filesets);
	free(p->procs);
	free(p->threads);
	free(p->flowops);
	free(p->actions);
	free(p->randvars);
	arena_free(&p->arena);
	memset(p, 0, sizeof(*p));
}
