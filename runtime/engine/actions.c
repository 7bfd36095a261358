/*
 * actions.c - what a script does before its run, in script order: echo,
 * sleep, system (only with --allow-system), version, list, quit.  The
 * master executes them; nothing here touches the workload's files.
 */
#include "runtime/engine/actions.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "plan/flowop.h"
#include "runtime/base/clock.h"
#include "runtime/base/log.h"

static void list_filesets(const struct plan *p)
{
	log_info("File or Fileset name %20s %12s %10s", "file size", "dir width",
		 "entries");
	for (int i = 0; i < p->nfilesets; i++) {
		const struct plan_fileset *f = &p->filesets[i];
		char name[600];

		snprintf(name, sizeof(name), "%s/%s", f->path, f->name);
		if (f->is_file)
			log_info("%-40s %12llu %10s %s", name,
				 (unsigned long long)f->size, "", "(Single File)");
		else
			log_info("%-40s %12llu %10.0f %llu", name,
				 (unsigned long long)f->size, f->dirwidth,
				 (unsigned long long)f->entries);
	}
}

static void list_flowops(const struct plan *p)
{
	for (int i = 0; i < p->nflowops; i++) {
		const struct plan_flowop *f = &p->flowops[i];
		const struct plan_thread *t = &p->threads[f->thread];

		log_info("flowop-list %s (%s, thread %s, process %s)", f->name,
			 f->ops ? f->ops->name : "?", t->name, p->procs[t->proc].name);
	}
}

/* `sleep N` before the run: in one piece, a signal ends it early. */
static void action_sleep(double secs)
{
	uint64_t until = clock_now_ns() + (uint64_t)(secs > 0 ? secs * 1e9 : 0);

	log_info("Sleeping...");
	while (clock_now_ns() < until) {
		struct timespec ts = clock_ns_to_ts(until);

		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			break;
	}
	log_info("Slept for %g seconds...", secs);
}

/*
 * The script's actions, in order.  Returns 0 to go on, 1 for `quit`
 * (stop, status 0), -1 when an action failed.
 */
int actions_run(const struct plan *p)
{
	for (int i = 0; i < p->nactions; i++) {
		const struct plan_action *a = &p->actions[i];

		switch (a->kind) {
		case PLAN_ACTION_ECHO:
			log_info("%s", a->text);
			break;
		case PLAN_ACTION_SLEEP:
			action_sleep(a->num);
			break;
		case PLAN_ACTION_SYSTEM:
			if (!p->allow_system)
				break;          /* the compiler refused it already */
			fflush(NULL);
			if (system(a->text) == -1) {
				log_error("system \"%s\": %s", a->text, strerror(errno));
				return -1;
			}
			break;
		case PLAN_ACTION_VERSION:
			log_info("flowbench version %s", PACKAGE_VERSION);
			break;
		case PLAN_ACTION_LIST_FILESETS:
			list_filesets(p);
			break;
		case PLAN_ACTION_LIST_FLOWOPS:
			list_flowops(p);
			break;
		case PLAN_ACTION_QUIT:
			return 1;
		}
	}
	return 0;
}
