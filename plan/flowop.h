/*
 * flowop.h - the ops table every flowop family fills in.
 *
 * A flowop type (read, write, openfile, ...) is a struct flowop_ops: its
 * name, its statistics class, the attributes it takes (declared by its
 * family next to its code, struct attr_spec), what one instance needs
 * per thread (the `need` hook, which preflight adds up) and the
 * functions the runtime calls.  Each family file (flowops/io.c, file.c,
 * ...) exports one NULL-terminated array of them, and a registry (struct
 * flowop_registry, below) is the value that maps names to entries, like
 * fio's I/O engines.  Neither the compiler nor the runtime ever switches
 * on a flowop type: they only call through this table.
 */
#ifndef FLOWBENCH_FLOWOP_H
#define FLOWBENCH_FLOWOP_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/plan.h"

struct diag;
struct fb_thread;
struct fo_stats;
struct op_stats;

/* Which totals a flowop's ops feed (reference 4.0 and 6.3). */
enum flowop_class {
	FLOWOP_CLASS_IO = 1,
	FLOWOP_CLASS_AIO = 2,
	FLOWOP_CLASS_SYNC = 3,
	FLOWOP_CLASS_COMPOSITE = 4,
	FLOWOP_CLASS_OTHER = 5,
};

enum flowop_rw {
	FLOWOP_RW_NONE = 0,
	FLOWOP_RW_READ = 1,   /* its ops count as reads in "rd/wr" */
	FLOWOP_RW_WRITE = 2,
};

enum flowop_result {
	FLOWOP_OK,        /* op done, go on */
	FLOWOP_ERROR,     /* the run fails; the thread has set the error text */
	FLOWOP_NORSC,     /* no resource (no file to pick, limit reached) */
	FLOWOP_DONE,      /* stop this thread normally (time is up) */
	FLOWOP_FAILED,    /* --keep-going: the op failed, was counted; go on */
};

/*
 * One flowop statement as instantiated in one thread instance.  What the
 * thread loop and a run read at every op comes first and the struct is
 * one cache line (the engine allocates the array line-aligned): the run
 * call is `fi->run`, not a chain of loads through the plan and the ops
 * table, and `iters` and `ndesc` are not read from the plan either.
 */
struct flowop_inst {
	/* pf->ops->run, copied by the engine (thread_prepare()) */
	enum flowop_result (*run)(struct fb_thread *t, struct flowop_inst *fi);
	void *priv;               /* state owned by the flowop's ops */
	struct fo_stats *stats;   /* this thread's counters for this flowop */
	int64_t iters;            /* resolved `iters`; -1: a random variable */
	int ndesc;                /* pf->ndesc: entries of a composite below it */
	const struct plan_flowop *pf;
	/*
	 * Where its implicit opens (read, write, aiowrite, the whole-file and
	 * append flowops opening a closed slot) are recorded, chosen once per
	 * instance by the engine (thread_prepare()): &stats->open, ops of
	 * their own (flowbench), or &stats->op, ops of the flowop itself
	 * (filebench's rule, --compat filebench).
	 */
	struct op_stats *open_stats;
} __attribute__((aligned(64)));

/*
 * What an attribute holds once the compiler converted it (lang/attrs.c,
 * attrs_convert()).  Only the types that allow it take a random variable.
 */
enum attr_type {
	T_STRING,   /* text; numbers are accepted as their decimal text */
	T_SIZE,     /* a non-negative whole number (bytes, counts) */
	T_SIZE_RV,  /* the same, or a random variable sampled at each use */
	T_INT,      /* a whole number, may be negative */
	T_BOOL,     /* true/false, bare, or a number (non-zero = true) */
	T_PCT,      /* a boolean (true = 100) or a percentage 0..100 */
	T_ANY,      /* kept as written, random variables too (`value`) */
	T_SECONDS,  /* as T_ANY; a constant number is a time, checked like `run N` */
};

/*
 * One attribute a flowop takes, as its family declares it next to its
 * code (fio's engines declare their options the same way).  `index` is
 * where the compiler stores the value in plan_flowop.attr: one of the
 * enum plan_attr every stage knows (plan/plan.h), or a number of the
 * family's own from PA_OWN up, which the family reads through its own
 * constants.  Two names may share an index (filename, filesetname).
 */
struct attr_spec {
	const char *name;
	enum attr_type type;
	int index;
	const char *help;         /* one line: what it does */
};

/* The attributes every flowop takes (name, iters), NULL-terminated (flowop.c). */
extern const struct attr_spec plan_flowop_common_attrs[];

/* Entries for the flowop tables that take an attribute the engine reads. */
#define ATTR_FILENAME                                                   \
	{ "filename", T_STRING, PA_FILENAME,                            \
	  "the file or fileset it works on" },                          \
	{ "filesetname", T_STRING, PA_FILENAME, "the same as filename" }
#define ATTR_FD                                                         \
	{ "fd", T_SIZE, PA_FD,                                          \
	  "the fd slot it works on, 1..127 (0: slot 0, the default)" }
#define ATTR_INDEXED                                                    \
	{ "indexed", T_SIZE_RV, PA_INDEXED,                             \
	  "the entry of the fileset to take, instead of the next one" }

/*
 * What one instance of a flowop needs in each thread instance that runs
 * it, as its ops' `need` hook states it for runtime/engine/preflight.c,
 * which adds these up (with the engine's own per-thread and per-flowop
 * state) and compares the sums with the machine's limits before anything
 * is created.  A figure may err high, never low.  The caller zeroes the
 * struct and sets `slot` to -1 before the call.
 */
struct flowop_need {
	uint64_t mem;             /* bytes it allocates: buffers, private state */
	uint64_t fds;             /* descriptors it keeps open between executions,
				     fd slots aside (deletefile's kept directory) */
	/* The thread's fd slots it may hold open (runtime/engine/slot.h). */
	int slot;                 /* that slot, -1 none */
	bool every_slot;          /* it rotates through all of them (opennext) */
	bool own_slot;            /* it may take a private slot of its own */
	/*
	 * State its family keeps once per thread instance, whatever the
	 * number of its flowops there (aio.c: the io_uring): counted once
	 * per thread for each distinct non-NULL `shared` key (the family's
	 * thread slot key, thread_family_slot()).
	 */
	const void *shared;
	uint64_t shared_mem;
	uint64_t shared_fds;
};

struct flowop_ops {
	const char *name;
	enum flowop_class cls;
	unsigned rw;              /* enum flowop_rw */
	/*
	 * The attributes it takes besides name and iters (every flowop takes
	 * those), NULL-terminated; NULL for none.  The compiler checks and
	 * converts a statement's attributes against them.
	 */
	const struct attr_spec *attrs;
	/*
	 * Values in plan_flowop.attr: at least PA_OWN and one more than
	 * every index of `attrs`; a family whose code reads an index its
	 * flowop does not declare (a shared init) sets it to its whole
	 * range, so that the read finds the attribute unset.  0 = the least.
	 */
	int nattr;
	/*
	 * It creates or removes entries of its fileset (createfile,
	 * deletefile, makedir, removedir): clients sharing one fileset
	 * (flowbench-mpi --shared-files) would race on its names.
	 */
	bool changes_names;
	/*
	 * It may work on a block device (`define device`): it reads, writes
	 * or syncs an open descriptor and neither names nor lists entries.
	 * The compiler refuses the others on a device.
	 */
	bool on_device;
	/*
	 * Its ops are submitted and reaped apart (aioread, aiowrite): the
	 * engine gives each instance an extension block beside its
	 * statistics (struct astats: submission and total latency, queue
	 * depths; thread_astats()), which only such flowops pay for.
	 */
	bool split_latency;

	/*
	 * Compile-time checks of attribute values and combinations (e.g. a
	 * read needs a file and an iosize).  Reports through `d` and returns
	 * the number of errors.  May be NULL.
	 */
	int (*validate)(const struct plan *p, const struct plan_flowop *f,
			struct diag *d);
	/*
	 * What one instance of `f` needs per thread instance (struct
	 * flowop_need), from the plan alone.  May be NULL: nothing.
	 */
	void (*need)(const struct plan *p, const struct plan_flowop *f,
		     struct flowop_need *n);
	/* Per thread instance, before the start barrier.  0 or FLOWOP_ERROR. */
	int (*init)(struct fb_thread *t, struct flowop_inst *fi);
	/* One execution: performs, times and records its op(s). */
	enum flowop_result (*run)(struct fb_thread *t, struct flowop_inst *fi);
	/* Per thread instance, after the timed phase.  May be NULL. */
	void (*fini)(struct fb_thread *t, struct flowop_inst *fi);
	/*
	 * The same flowop with filebench's rules, where they change how much
	 * work is done or what an op is (`--compat filebench`): same name,
	 * class and attributes, its own functions.  NULL: the rules agree.
	 * plan_use_semantics() is the one place that picks it.
	 */
	const struct flowop_ops *filebench;
};

/*
 * Follow `sem`'s rules: record it in the plan and, for filebench's, put
 * each flowop's filebench variant in its place.  The flowop-level rules
 * switch here, once, before the run; the engine's own (a thread's memory,
 * implicit opens) read p->semantics once per thread, at its start.
 */
void plan_use_semantics(struct plan *p, enum plan_semantics sem);

/* "flowbench" or "filebench". */
const char *plan_semantics_name(enum plan_semantics sem);

/*
 * The flowops one compilation may use, as a value: the families' tables
 * (each NULL-terminated, in a NULL-terminated list), whose entries are
 * reachable by their WML name, and the ops of a composite invocation,
 * which is not.  plan/ declares no family: flowops/registry.h fills one
 * in, and the command line hands it to the compiler (compile_options).
 */
struct flowop_registry {
	const struct flowop_ops *const *const *families;
	const struct flowop_ops *composite;
	/*
	 * The ops of an invocation of a composite defined with `choose`: each
	 * execution runs one of its direct children, drawn by their weights
	 * (PA_WEIGHT).  Not reachable by name either.
	 */
	const struct flowop_ops *choice;
};

/* The flowop of `r` called `name`; NULL if there is none. */
const struct flowop_ops *flowop_registry_lookup(const struct flowop_registry *r,
						const char *name);

/*
 * The i-th flowop of `r` (0, 1, ... in the families' order), NULL past
 * the last: a walk over all of them (messages, tests; not a hot path).
 */
const struct flowop_ops *flowop_registry_at(const struct flowop_registry *r,
					    int i);

/*
 * Every name of `r` in that order, NULL-terminated (for "did you mean");
 * malloc'ed, free() it.
 */
const char **flowop_registry_names(const struct flowop_registry *r);

/*
 * The spec of attribute `name` in `ops`'s table or the common one, or
 * NULL when `ops` does not take it (not for the hot path).
 */
const struct attr_spec *flowop_attr_spec(const struct flowop_ops *ops,
					 const char *name);

/* Values a plan entry of `ops` has (plan_flowop.nattr). */
int flowop_nattr(const struct flowop_ops *ops);

/*
 * Attribute `name` of flowop `f` looked up in its ops' table (tests,
 * tools: not for the hot path); an unset value when its flowop does not
 * take it.
 */
const struct plan_value *plan_flowop_attr(const struct plan_flowop *f,
					  const char *name);

#endif
