/*
 * actions.h - the script-time actions of a plan (echo, sleep, system,
 * version, list, quit), run by the master before the files are prepared.
 */
#ifndef FLOWBENCH_ACTIONS_H
#define FLOWBENCH_ACTIONS_H

#include "plan/plan.h"

/*
 * Execute the plan's actions in order.  Returns 0 to go on to the run,
 * 1 after `quit` (stop with status 0), -1 when an action failed.
 */
int actions_run(const struct plan *p);

#endif
