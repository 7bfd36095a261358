/*
 * compiled.h - one compilation of a WML text with its messages captured,
 * shared by the unit tests of the compiler and of what it checks
 * (test_compile, test_phases, test_preflight, test_fio_ext): the text is
 * parsed as "t.f" (it must parse), compiled with the options given, and
 * the plan, the error count and every message printed are kept.
 */
#ifndef FLOWBENCH_TESTS_UNIT_COMPILED_H
#define FLOWBENCH_TESTS_UNIT_COMPILED_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/ast.h"
#include "lang/compile.h"
#include "lang/parse.h"
#include "plan/diag.h"

struct result {
	struct ast_script script;
	struct plan plan;
	char *msgs;              /* everything the front end printed */
	size_t len;
	int errors;
};

/* Parse and compile `src` as t.f with `opts` into r (release() it). */
static inline void compile_with(struct result *r, const char *src,
				struct compile_options *opts)
{
	struct diag d;
	FILE *f;

	memset(r, 0, sizeof(*r));
	f = open_memstream(&r->msgs, &r->len);
	ck_assert_ptr_nonnull(f);
	diag_init(&d, "t.f", src, strlen(src), f);
	ck_assert_int_eq(ast_parse("t.f", src, strlen(src), &d, &r->script), 0);
	r->errors = compile_script(&r->script, opts, &d, &r->plan);
	fclose(f);
}

static inline void release(struct result *r)
{
	plan_free(&r->plan);
	ast_script_free(&r->script);
	free(r->msgs);
}

#endif
