/*
 * composite.c - executing a composite flowop invocation (reference 4.32).
 *
 * A composite's plan entry is followed by its inner flowops (`ndesc`
 * entries, nested composites included).  One run() is one pass over its
 * direct children, each `iters` times through thread_run_entry(), which
 * stops at once when the run is stopping; a nested composite's children
 * are that composite's job.  NORSC, ERROR and DONE from a child end the
 * pass and are passed up unchanged.  The composite records no op of its
 * own: its breakdown line shows 0 ops, as in filebench, while each inner
 * flowop (`invocation.inner`) has its own line.
 */
#include "flowops/registry.h"
#include "plan/flowop.h"
#include "runtime/engine/thread.h"

static enum flowop_result composite_run(struct fb_thread *t,
					struct flowop_inst *fi)
{
	int k = thread_entry_index(t, fi);
	int last = k + fi->pf->ndesc;

	for (int j = k + 1; j <= last; j += 1 + t->fo[j].pf->ndesc) {
		enum flowop_result r = thread_run_entry(t, j);

		if (r != FLOWOP_OK)
			return r;
	}
	return FLOWOP_OK;
}

const struct flowop_ops flowops_composite = {
	.name = "composite",
	.cls = FLOWOP_CLASS_COMPOSITE,
	.rw = FLOWOP_RW_NONE,
	.run = composite_run,
};
