/*
 * attr.h - reading a flowop attribute that is evaluated at every op.
 *
 * `iosize`, `indexed` and the like may name a random variable, which WML
 * samples at every evaluation.  The file and directory flowops read such
 * attributes (`a`: an enum plan_attr, or an index of their family)
 * through fo_attr_int() only, so that sampling (from the
 * thread's own stream for that variable) lives in this one place.  A
 * sample is truncated toward zero.
 */
#ifndef FLOWBENCH_FLOWOPS_ATTR_H
#define FLOWBENCH_FLOWOPS_ATTR_H

#include <stdint.h>

#include "plan/plan.h"
#include "runtime/engine/thread.h"

static inline int64_t fo_attr_int(struct fb_thread *t, const struct plan_flowop *pf,
				  int a, int64_t dflt)
{
	if (pf->attr[a].kind == PV_RANDOM)
		return (int64_t)thread_attr_double(t, pf, a, (double)dflt);
	return plan_attr_int(pf, a, dflt);
}

#endif
