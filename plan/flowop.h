/*
 * flowop.h - the ops table every flowop family fills in.
 *
 * A flowop type (read, write, openfile, ...) is a struct flowop_ops: its
 * name, its statistics class, which attributes it accepts, and the
 * functions the runtime calls.  Each family file (io.c, file.c, ...)
 * exports one NULL-terminated array of them and registry.c maps names to
 * entries, like fio's I/O engines.  Neither the compiler nor the runtime
 * ever switches on a flowop type: they only call through this table.
 */
#ifndef FLOWBENCH_FLOWOP_H
#define FLOWBENCH_FLOWOP_H

#include <stdint.h>

#include "plan/plan.h"

struct diag;
struct fb_thread;
struct fo_stats;

/* Which totals a flowop's ops feed (reference 4.0 and 6.3). */
enum fo_class {
	FO_CLASS_IO = 1,
	FO_CLASS_AIO = 2,
	FO_CLASS_SYNC = 3,
	FO_CLASS_COMPOSITE = 4,
	FO_CLASS_OTHER = 5,
};

enum fo_rw {
	FO_RW_NONE = 0,
	FO_RW_READ = 1,   /* its ops count as reads in "rd/wr" */
	FO_RW_WRITE = 2,
};

enum fo_result {
	FO_OK,            /* op done, go on */
	FO_ERROR,         /* the run fails; the thread has set the error text */
	FO_NORSC,         /* no resource (no file to pick, limit reached) */
	FO_DONE,          /* stop this thread normally (time is up) */
	FO_FAILED,        /* --keep-going: the op failed, was counted; go on */
};

/* One flowop statement as instantiated in one thread instance. */
struct flowop_inst {
	const struct plan_flowop *pf;
	struct fo_stats *stats;   /* this thread's counters for this flowop */
	void *priv;               /* state owned by the flowop's ops */
};

struct flowop_ops {
	const char *name;
	enum fo_class cls;
	unsigned rw;              /* enum fo_rw */
	uint32_t attrs;           /* FA_BIT() mask of attributes it accepts */
	/*
	 * Descriptors one instance keeps open between executions besides
	 * the fd slots (deletefile's kept directory), for the preflight
	 * count of open files.
	 */
	unsigned held_fds;

	/*
	 * Compile-time checks of attribute values and combinations (e.g. a
	 * read needs a file and an iosize).  Reports through `d` and returns
	 * the number of errors.  May be NULL.
	 */
	int (*validate)(const struct plan *p, const struct plan_flowop *f,
			struct diag *d);
	/* Per thread instance, before the start barrier.  0 or FO_ERROR. */
	int (*init)(struct fb_thread *t, struct flowop_inst *fi);
	/* One execution: performs, times and records its op(s). */
	enum fo_result (*run)(struct fb_thread *t, struct flowop_inst *fi);
	/* Per thread instance, after the timed phase.  May be NULL. */
	void (*fini)(struct fb_thread *t, struct flowop_inst *fi);
};

/* The family tables, each NULL-terminated (flowops/<family>.c). */
extern const struct flowop_ops *const flowops_io[];
extern const struct flowop_ops *const flowops_file[];      /* open/create/close/delete/stat/fsync */
extern const struct flowop_ops *const flowops_wholefile[]; /* read/writewholefile, append* */
extern const struct flowop_ops *const flowops_dir[];       /* makedir, removedir, listdir */
extern const struct flowop_ops *const flowops_rate[];     /* eventlimit, iops/ops/bwlimit */
extern const struct flowop_ops *const flowops_finish[];   /* finishoncount, finishonbytes */
extern const struct flowop_ops *const flowops_misc[];     /* delay, hog, print, testrandvar */
extern const struct flowop_ops *const flowops_sync[];     /* block, wakeup, semblock, sempost */
extern const struct flowop_ops *const flowops_aio[];      /* aiowrite, aioread, aiowait */

/*
 * The ops of a composite invocation (flowops/composite.c); the compiler
 * points a composite's plan entry at it.  Not reachable by name.
 */
const struct flowop_ops *flowop_composite(void);

/* Lookup by WML name; NULL if flowbench does not implement it. */
const struct flowop_ops *flowop_lookup(const char *name);

/*
 * True for a flowop name of the WML language that flowbench does not
 * implement yet, so the compiler can say so instead of "unknown flowop".
 */
int flowop_is_known_unimplemented(const char *name);

/* Every implemented flowop name, NULL-terminated (for "did you mean"). */
const char *const *flowop_names(void);

#endif
