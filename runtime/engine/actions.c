/*
 * actions.c - what a script does before its run, in script order: echo,
 * sleep, system (only with --allow-system), version, list, quit.  The
 * master executes them; nothing here touches the workload's files.
 */
#include "runtime/engine/actions.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "plan/flowop.h"
#include "runtime/base/clock.h"
#include "runtime/base/helper.h"
#include "runtime/base/interrupt.h"
#include "runtime/base/log.h"

static void list_filesets(const struct plan *p)
{
	log_info("File or Fileset name %20s %12s %10s", "file size", "dir width",
		 "entries");
	for (int i = 0; i < p->nfilesets; i++) {
		const struct plan_fileset *f = &p->filesets[i];
		char name[600];

		snprintf(name, sizeof(name), "%s/%s", f->path, f->name);
		if (f->is_device)
			log_info("%-40s %12s %10s %s (Device %s)", f->name, "", "", "",
				 f->path);
		else if (f->is_file)
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

/* helper_wait()'s hook: pass the interrupt on to the command's group. */
static void pass_interrupt(void *arg)
{
	kill(-*(pid_t *)arg, interrupt_signal());
}

/*
 * A `system` action: `sh -c text`, as system(3) runs it, but in a
 * process group of its own, waited for under the interrupt rule
 * (runtime/base/helper.h): the interrupt is passed on to the group, which
 * is killed if it has not ended after the grace, so a command that is
 * stopped or goes on cannot hold SIGINT/SIGTERM up (system(3) itself
 * ignores SIGINT while it waits).  Its exit status is not looked at, as
 * before; -1 when it could not be run.
 */
static int action_system(const char *text)
{
	sigset_t mask;
	pid_t pid;
	int status, rc = 0;

	fflush(NULL);
	interrupt_hold(&mask);
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		interrupt_release(&mask);
		execl("/bin/sh", "sh", "-c", text, (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		setpgid(pid, pid);      /* either side may come first */
	if (pid < 0) {
		log_error("system \"%s\": fork: %s", text, strerror(errno));
		rc = -1;
	} else if (helper_wait(pid, "the system command", HELPER_GROUP, &mask,
			       pass_interrupt, &pid, &status) < 0 &&
		   !interrupt_signal()) {
		log_error("system \"%s\": %s", text, strerror(errno));
		rc = -1;
	}
	interrupt_release(&mask);
	return rc;
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
			if (action_system(a->text) < 0)
				return -1;
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
