/*
 * compile.h - turn a parsed script into an immutable plan.
 *
 * The compiler walks the AST in source order as filebench executes a
 * script, keeping the variable environment: `set` assigns, `echo` records a
 * message with the values of that moment, and definitions are collected.
 * At `run` every attribute is evaluated with the variables as they stand
 * then (WML's late binding), checked against what its entity accepts, and
 * written into the plan.  Nothing touches the disk; `flowbench check` stops
 * here.
 */
#ifndef FLOWBENCH_COMPILE_H
#define FLOWBENCH_COMPILE_H

#include <stdbool.h>
#include <stdint.h>

#include "lang/ast.h"
#include "plan/plan.h"

struct diag;
struct flowop_registry;

/* A `-D name=value` from the command line: replaces the script's `set`. */
struct compile_define {
	const char *name;         /* without '$' */
	struct ast_expr *value;   /* parsed with ast_parse_value() */
	bool used;                /* set by the compiler */
};

/*
 * A read-only variable the caller puts in place before -D and the
 * script's first statement ($rank, $nranks, $hostname): a workload run on
 * many clients shapes itself per client with them.  Neither `set`,
 * `define randvar` nor -D can change it; `why` ends each such error.
 * The compiler copies all of it: the caller's strings need not outlive
 * compile_script().
 */
struct compile_builtin {
	const char *name;         /* without '$' */
	bool is_int;              /* an integer `i`, else the string `s` */
	int64_t i;
	const char *s;
	const char *why;          /* "the rank of this client, set by flowbench-mpi" */
};

/* The builtins compile_builtins_default() fills, by index. */
enum {
	COMPILE_BUILTIN_RANK, COMPILE_BUILTIN_NRANKS, COMPILE_BUILTIN_HOSTNAME,
	COMPILE_NBUILTINS
};

/*
 * The builtins of one client running alone: $rank 0, $nranks 1 and
 * $hostname `hostname` (borrowed).  flowbench-mpi starts from these and
 * sets the rank and the number of clients.
 */
void compile_builtins_default(struct compile_builtin out[COMPILE_NBUILTINS],
			      const char *hostname);

struct compile_options {
	/*
	 * The flowops a script may name, and the composite's ops: required
	 * (the command line hands flowops/registry.h's flowops_registry).
	 */
	const struct flowop_registry *registry;
	struct compile_define *defines;
	int ndefines;
	const struct compile_builtin *builtins;  /* none when NULL */
	int nbuiltins;
	bool runtime_given;       /* --runtime: overrides every `run N` */
	double runtime_s;
	uint64_t seed;            /* --seed, or one chosen by the caller */
	bool allow_system;        /* --allow-system */
	enum plan_semantics semantics;   /* --compat */
};

/*
 * Compile `script` into `out`.  Errors and warnings are reported through
 * `d`; returns the number of errors (0 = `out` is a complete plan).
 * `out` must be released with plan_free() in either case.
 */
int compile_script(const struct ast_script *script,
		   struct compile_options *opts, struct diag *d,
		   struct plan *out);

#endif
