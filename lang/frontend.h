/*
 * frontend.h - the one way from a WML workload to a plan.
 *
 * Read the file (or take bytes already in memory), parse it, parse each
 * -D value, compile: the plan, or errors located file:line:col on the
 * caller's stream followed by one "FILE: N errors" line.  `flowbench run`
 * and `check`, the fuzz target and the tests come through here, so they
 * all report the same things in the same words.  import-fio has its own
 * front end (lang/fio/import.h); the WML it writes is compiled here like
 * any other.
 */
#ifndef FLOWBENCH_FRONTEND_H
#define FLOWBENCH_FRONTEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lang/ast.h"
#include "lang/compile.h"
#include "plan/plan.h"

/* A -D NAME=VALUE of the command line, split but not parsed. */
struct frontend_define {
	const char *name;         /* without the '$' */
	const char *value;        /* as typed: 64m, true, "text", /tmp/dir */
};

struct frontend_input {
	const char *path;         /* the workload; every message names it */
	const char *text;         /* its bytes, if already in memory (then
				     `path` only names them); NULL: read `path` */
	size_t len;
	const struct frontend_define *defines;
	int ndefines;
	/*
	 * seed, --runtime, --allow-system; `defines` fills its defines.
	 * Its builtins NULL: $rank 0, $nranks 1, $hostname gethostname()'s
	 * (flowbench-mpi passes its own).
	 */
	struct compile_options compile;
	FILE *err;                /* every diagnostic */
};

/*
 * What came out.  The plan's strings point into the tree and the copies
 * kept here, so the plan lives until frontend_free(), and no longer
 * depends on the input's strings.
 */
struct frontend_result {
	struct plan plan;         /* complete when frontend_compile() returned 0 */
	const char *text;         /* the source compiled (results files keep
				     it); NULL when it could not be read */
	size_t len;
	int errors;
	int warnings;
	/* private: what the plan points into */
	struct ast_script script;
	bool parsed;
	char *read_text;          /* the file's bytes, when read here */
};

/*
 * Compile the workload `in` names into `out->plan`.  Returns the number of
 * errors, each already reported on in->err (an unreadable file is one);
 * 0: the plan is complete.  Release `out` with frontend_free() in either
 * case.
 */
int frontend_compile(const struct frontend_input *in,
		     struct frontend_result *out);
void frontend_free(struct frontend_result *out);

/*
 * The bytes of `path`, NUL-terminated (*len excludes the NUL), malloc'ed;
 * NULL after "flowbench: cannot read 'path': reason" on `err`.  For the
 * front ends that read a file: this one and import-fio.
 */
char *frontend_read(const char *path, size_t *len, FILE *err);

#endif
