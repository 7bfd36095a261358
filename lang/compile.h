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

#include "lang/ast.h"
#include "plan/plan.h"

struct diag;

/* A `-D name=value` from the command line: replaces the script's `set`. */
struct compile_define {
	const char *name;         /* without '$' */
	struct ast_expr *value;   /* parsed with ast_parse_value() */
	bool used;                /* set by the compiler */
};

struct compile_options {
	struct compile_define *defines;
	int ndefines;
	bool runtime_given;       /* --runtime: overrides every `run N` */
	double runtime_s;
	uint64_t seed;            /* --seed, or one chosen by the caller */
	bool allow_system;        /* --allow-system */
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
