/*
 * compiler.h - what the files of the compile stage share; internal to it.
 *
 * Nothing outside lang/compile.c and its helpers includes this header: the
 * rest of flowbench sees the compiler only through lang/compile.h.  The
 * stage's files, each calling only files listed above it (so no two call
 * each other, around any loop; the entry calls them all and none calls
 * it):
 *
 *   names.c      names to indexes, a hash table (names.h)
 *   compiler.c   an array grown by one, the bound on a time value
 *   values.c     what an evaluated value reads as (text, kind, number)
 *   vars.c       the global variables: find, add, assign, read-only
 *   rvspec.c     a random variable's attributes checked (rvspec.h)
 *   random.c     random variables, their attributes as values, into the plan
 *   eval.c       expressions, composite scopes, randvar(...)'s attributes
 *   builtins.c   read-only variables ($rank...): seeded before everything
 *   defines.c    -D variables: seeded before the walk, checked after it
 *   attrs.c      what each entity accepts, and values converted to it
 *   choose.c     a choice (`define flowop ..., choose`) and its weights checked
 *   entities.c   filesets, processes, threads, flowops, composites
 *   compile.c    the entry point and the script walk in source order
 *
 * One `struct compiler` carries the whole state of a compilation; there is
 * no global state.
 */
#ifndef FLOWBENCH_COMPILER_H
#define FLOWBENCH_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lang/ast.h"
#include "lang/names.h"
#include "plan/flowop.h"
#include "plan/plan.h"

struct compile_options;      /* lang/compile.h */
struct diag;
struct rvspec;               /* lang/rvspec.h */

/* ---- values and variables ------------------------------------------- */

enum val_kind { V_INT, V_DOUBLE, V_BOOL, V_STRING, V_RANDVAR };

/* An evaluated expression; the field that counts follows `kind`. */
struct value {
	enum val_kind kind;
	int64_t i;
	double d;
	bool b;
	const char *s;
	int rv;                   /* V_RANDVAR: index into plan.randvars */
};

/* A global variable (`set`, `define randvar`, -D, a builtin). */
struct var {
	const char *name;
	struct value v;
	struct src_loc loc;       /* where it was last set */
	bool from_cli;            /* -D: the script's `set` is skipped */
	const char *read_only;    /* a builtin: why it cannot be set; else NULL */
};

/*
 * The local variables of the composite invocation being expanded; `up`
 * is the invocation around it (composites nest).  Looked up before the
 * globals.
 */
struct local {
	const char *name;
	struct value v;
	bool has_value;
};

struct scope {
	const char *composite;
	bool choose;              /* a choice: its direct flowops need weight= */
	struct local *vars;
	int n;
	struct name_index names;  /* into vars */
	const struct scope *up;
};

/* ---- collected definitions ------------------------------------------ */

/*
 * Limits on what composite expansion can build, so that no script makes
 * the compiler (or the runtime, which runs composites recursively) recurse
 * without bound or expand exponentially (a composite invoking another
 * twice, nested: 2^depth flowops).  Both are errors at the invocation.
 */
#define COMPOSITE_MAX_DEPTH 64         /* composite invocations, nested */
#define COMPILE_MAX_FLOWOPS 100000     /* plan flowops, composites expanded */
/* attributes, locals and inner flowops all invocations evaluate (a large
 * definition invoked many times: a fraction of a second's work) */
#define COMPILE_MAX_EXPANSION 1000000

/* A composite flowop definition (`define flowop`), expanded per invocation. */
struct composite {
	const char *name;
	const struct ast_entity *e;
	bool expanding;           /* being expanded: catches recursion */
	long weight;              /* what one invocation evaluates */
	bool choose;              /* defined with `choose` (choose.c) */
};

/* A definition collected in source order, evaluated at `run`. */
struct pending {
	const struct ast_stmt *st;
	const char *name;         /* evaluated when defined, as filebench does */
};

struct compiler {
	const struct ast_script *script;
	struct compile_options *opts;
	struct diag *d;
	struct plan *p;

	struct var *vars;
	int nvars, capvars;
	struct name_index var_names;      /* into vars */

	struct pending *files;    /* define file, in order */
	int nfiles, capfiles;
	struct name_index file_names;     /* into files */
	struct name_index fileset_names;  /* into p->filesets */
	struct name_index flowop_names;   /* first p->flowops of each name */
	struct pending *procs;    /* define process, in order */
	int nprocs, capprocs;

	const struct ast_attr *eventgen;  /* the last `eventgen rate=` */
	/* that statement's `poisson` (a flowbench extension), or NULL */
	const struct ast_attr *eventgen_poisson;
	struct composite *composites;
	int ncomposites, capcomposites;
	struct name_index composite_names; /* into composites */
	const struct scope *scope;        /* innermost composite invocation */

	const char *setting;              /* the variable `set` is assigning */

	int caps_filesets, caps_procs, caps_threads, caps_flowops, caps_actions;
	int caps_randvars;
	bool too_many_flowops;            /* COMPILE_MAX_FLOWOPS reported */
	long expanded;                    /* composite weights so far */
	bool too_much_expansion;          /* COMPILE_MAX_EXPANSION reported */
	uint64_t thread_instances;        /* of the processes built so far */
};

/* ---- compiler.c ------------------------------------------------------- */

/* Grow `*arr` (of `*cap` elements of `size` bytes) to hold one more. */
void *compiler_grow(void *arr, int *cap, int n, size_t size);

/* Append one uninitialised element to `arr`; evaluates to its address. */
#define PUSH(arr, n, cap) \
	((arr) = compiler_grow((arr), &(cap), (n), sizeof(*(arr))), &(arr)[(n)++])

/* A time value within PLAN_MAX_SECONDS, else an error at `loc` and false. */
bool compiler_check_seconds(struct compiler *c, double s, struct src_loc loc,
			    const char *what);

/* ---- values.c --------------------------------------------------------- */

const char *value_text(struct compiler *c, const struct value *v);
const char *value_kind_name(enum val_kind k);
double value_as_double(const struct value *v);

/* ---- vars.c ----------------------------------------------------------- */

struct var *var_find(struct compiler *c, const char *name);
struct var *var_add(struct compiler *c, const char *name);
void var_assign(struct compiler *c, const char *name, struct src_loc loc,
		const struct value *val);
/* " (did you mean '$x'?)" for an unset `name` into buf, or ""; buf. */
const char *var_suggestion(struct compiler *c, const char *name, char *buf,
			   size_t size);
/*
 * Is global `v` (may be NULL) read-only?  Then an error at `loc`, its
 * text preceded by `origin` ("" or "-D rank: "), and true.
 */
bool var_refuse_read_only(struct compiler *c, const struct var *v,
			  struct src_loc loc, const char *origin);

/* ---- random.c --------------------------------------------------------- */

/*
 * The random variable `spec` describes (its attributes already values),
 * checked and appended to the plan: *out is then its value.  0, or -1
 * after the errors.
 */
int random_add(struct compiler *c, const struct rvspec *spec,
	       struct value *out);
/* A gamma-distributed random variable (filesizegamma): its index, or -1. */
int random_gamma(struct compiler *c, double mean, double gamma1000,
		 struct src_loc loc);

/* ---- eval.c ----------------------------------------------------------- */

int eval_expr(struct compiler *c, const struct ast_expr *e, struct value *out);
/*
 * randvar(...), cvar(...) or define randvar (`fn`): `args` but `skip`
 * evaluated in order, then the variable added (random_add()).
 */
int eval_random(struct compiler *c, const char *fn, const struct ast_attr *args,
		struct src_loc loc, const struct ast_attr *skip,
		struct value *out);
void scope_bind(struct compiler *c, struct scope *sc, const struct ast_attr *a,
		bool declare);

/* ---- builtins.c ------------------------------------------------------- */

void builtins_seed(struct compiler *c);

/* ---- defines.c -------------------------------------------------------- */

void defines_seed(struct compiler *c);
void defines_check_used(struct compiler *c);

/* ---- attrs.c ---------------------------------------------------------- */

/*
 * Attribute types (enum attr_type) and a flowop's attribute table
 * (struct attr_spec) are the flowop contract's (plan/flowop.h); the
 * tables of the other entities use the same types.
 */

/* The entity an attribute list belongs to: selects its table. */
enum attrs_owner { FOR_FILE, FOR_FILESET, FOR_DEVICE, FOR_PROCESS, FOR_THREAD };

/*
 * Attribute ids of entities other than flowops (a flowop's come from
 * its ops' table): the index of each value attrs_eval() fills.
 */
enum {
	E_NAME, E_PATH, E_SIZE, E_PREALLOC, E_PARALLOC, E_REUSE, E_TRUSTTREE,
	E_READONLY, E_WRITEONLY, E_CACHED, E_ENTRIES, E_DIRWIDTH, E_DIRGAMMA,
	E_DIRDEPTHRV, E_LEAFDIRS, E_INSTANCES, E_NICE, E_MEMSIZE, E_USEISM,
	E_IOPRIO, E_FILESIZEGAMMA, E_MEMTYPE,
	E_AFTER, E_STARTDELAY, E_RUNTIME,  /* run phases (entities.c) */
	/* per-op logs (oplogattrs.c) */
	E_LATLOG, E_BWLOG, E_IOPSLOG, E_HISTLOG, E_LOGAVGMSEC, E_LOGHISTMSEC,
	E_LOGHISTCOARSENESS, E_LOGOFFSET, E_LOGSHARED,
	E_OFFSET,                          /* define device (entities.c) */
	E_COUNT
};

/* Was the attribute at `values[id]` written (attrs_eval(), attrs_eval_flowop())? */
static inline bool attrs_given(const struct plan_value *values, int id)
{
	return values[id].kind != PV_UNSET;
}

/*
 * Evaluate the attribute list of a file, fileset, process or thread
 * against its table: values[id] (E_COUNT of them) receives each (the
 * last one wins when repeated, with a warning).  `what` names the entity
 * in messages ("thread").  Returns the number of errors.
 */
int attrs_eval(struct compiler *c, enum attrs_owner owner,
	       const struct ast_attr *attrs, const char *what,
	       struct plan_value *values);
/*
 * The same for a statement of flowop `ops`, against the attributes
 * every flowop takes and its ops' table: values has flowop_nattr(ops)
 * entries.  An attribute only other flowops take is reported ("flowop
 * read does not take attribute 'target'") once the others are fine.
 */
int attrs_eval_flowop(struct compiler *c, const struct flowop_ops *ops,
		      const struct ast_attr *attrs, const char *what,
		      struct plan_value *values);
int attrs_convert(struct compiler *c, const struct ast_attr *a,
		  enum attr_type t, const struct value *v,
		  struct plan_value *out);
const char *attrs_name(struct compiler *c, const struct ast_attr *attrs,
		       struct src_loc loc, const char *what);

/* ---- choose.c --------------------------------------------------------- */

/* A member's weight above this is an error (so no sum of them can wrap). */
#define CHOOSE_MAX_WEIGHT 1000000000000LL

/*
 * Is composite `def` (called `name`) a choice: `choose` (bare, or a
 * true boolean) among its attributes?  Errors for a value that is not a
 * boolean, --compat filebench, fewer than two flowops in its body.
 */
bool choose_define(struct compiler *c, const struct ast_entity *def,
		   const char *name);
/*
 * The weight (PV_UNSET when not written) of `flowop`, written at `loc`,
 * built where c->scope is: required directly inside a choice, an error
 * anywhere else, and bounded by CHOOSE_MAX_WEIGHT.
 */
void choose_member(struct compiler *c, const char *flowop,
		   const struct plan_value *weight, struct src_loc loc);
/*
 * After the invocation at plan entry `index` (at `loc`, of choice
 * `composite`) is expanded: not every weight of its members 0.
 */
void choose_check_total(struct compiler *c, int index, struct src_loc loc,
			const char *composite);

/* ---- entities.c ------------------------------------------------------- */

void composite_define(struct compiler *c, const struct ast_stmt *st);
void build_fileset(struct compiler *c, const struct pending *pd);
/*
 * A device some flowop may write through: one naming it, or a writing
 * flowop given only fd= in a thread that opens it (its slot may hold
 * the device).  Sets plan_fileset.dev_writes.
 */
void devices_mark_writes(struct compiler *c);
void build_process(struct compiler *c, const struct pending *pd);

/* ---- oplogattrs.c ----------------------------------------------------- */

/*
 * Process `pr`'s per-op log attributes (latlog=, ...) among its values
 * `v` into pr->log, checked with located errors.
 */
void build_oplog(struct compiler *c, const struct plan_value *v, struct plan_proc *pr);

#endif
