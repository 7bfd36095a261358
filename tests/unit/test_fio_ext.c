/*
 * test_fio_ext.c - the flowbench extensions that express fio's patterns
 * (randommap): what the compiler accepts, and its errors: each needs
 * its context and --compat filebench refuses every one; what import-fio
 * writes for them, compiled by the real compiler.
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/flowop.h"
#include "lang/ast.h"
#include "lang/compile.h"
#include "lang/parse.h"
#include "plan/diag.h"
#include "lang/fio_import.h"

#include "tests/unit/check_main.h"

/* One compilation under `sem`, with its messages captured. */
struct result {
	struct ast_script script;
	struct plan plan;
	char *msgs;
	size_t len;
	int errors;
};

static void compile_sem(struct result *r, const char *src, enum plan_semantics sem)
{
	struct compile_options opts = { .semantics = sem };
	struct diag d;
	FILE *f;

	memset(r, 0, sizeof(*r));
	f = open_memstream(&r->msgs, &r->len);
	ck_assert_ptr_nonnull(f);
	diag_init(&d, "t.f", src, strlen(src), f);
	ck_assert_int_eq(ast_parse("t.f", src, strlen(src), &d, &r->script), 0);
	r->errors = compile_script(&r->script, &opts, &d, &r->plan);
	fclose(f);
}

static void release(struct result *r)
{
	plan_free(&r->plan);
	ast_script_free(&r->script);
	free(r->msgs);
}

/* `flowop` (one flowop's line) in a one-thread workload on a 1 MiB file. */
static void compile_flowop(struct result *r, const char *flowop, enum plan_semantics sem)
{
	char src[1024];

	snprintf(src, sizeof(src),
		 "define file name=f,path=/tmp,size=1m\n"
		 "define randvar name=$rsz,type=uniform,min=512,mean=4096\n"
		 "define process name=p\n{\n  thread name=t\n  {\n"
		 "    %s\n  }\n}\nrun 1\n", flowop);
	compile_sem(r, src, sem);
}

/* Compiles without an error (its messages shown if not). */
static void accepts(const char *flowop)
{
	struct result r;

	compile_flowop(&r, flowop, PLAN_SEM_FLOWBENCH);
	ck_assert_msg(r.errors == 0, "%s: %s", flowop, r.msgs);
	release(&r);
}

/* One error, at line 7 (the flowop's), saying `text`. */
static void refuses(const char *flowop, enum plan_semantics sem, const char *text)
{
	struct result r;

	compile_flowop(&r, flowop, sem);
	ck_assert_msg(r.errors == 1 && strstr(r.msgs, text) && strstr(r.msgs, "t.f:7:"),
		      "%s: expected one error at t.f:7 with \"%s\", got %d:\n%s",
		      flowop, text, r.errors, r.msgs);
	release(&r);
}

START_TEST(test_randommap)
{
	const struct plan_value *v;
	struct result r;

	compile_flowop(&r, "flowop read name=r,filename=f,iosize=4k,random,randommap",
		       PLAN_SEM_FLOWBENCH);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	v = plan_flowop_attr(&r.plan.flowops[0], "randommap");
	ck_assert(v->kind == PV_BOOL && v->u.b);
	release(&r);
	accepts("flowop write name=w,filename=f,iosize=4k,random,randommap=true");
	accepts("flowop aioread name=a,filename=f,iosize=4k,random,randommap,iodepth=4");
	accepts("flowop aiowrite name=a,filename=f,iosize=4k,random,randommap");
	accepts("flowop read name=r,filename=f,iosize=4k,randommap=false");
	refuses("flowop read name=r,filename=f,iosize=4k,randommap", PLAN_SEM_FLOWBENCH,
		"randommap needs random");
	refuses("flowop read name=r,filename=f,iosize=$rsz,random,randommap",
		PLAN_SEM_FLOWBENCH, "randommap needs a constant iosize");
	refuses("flowop read name=r,filename=f,iosize=4k,random,randommap",
		PLAN_SEM_FILEBENCH, "--compat filebench refuses it");
	refuses("flowop aiowrite name=a,filename=f,iosize=4k,random,randommap",
		PLAN_SEM_FILEBENCH, "randommap is a flowbench extension");
	refuses("flowop read name=r,filename=f,iosize=4k,random,randommap,opennext",
		PLAN_SEM_FLOWBENCH, "randommap cannot be used with opennext");
	refuses("flowop createfile name=c,filename=f,randommap", PLAN_SEM_FLOWBENCH,
		"randommap");
}
END_TEST

/* import-fio of `job`, which must succeed, into *out (freed by the caller). */
static void import_ok(const char *job, char **out)
{
	size_t n1, n2;
	char *err;
	FILE *o = open_memstream(out, &n1), *e = open_memstream(&err, &n2);

	ck_assert(o && e);
	ck_assert_msg(fio_import("job.fio", job, strlen(job), o, e) == 0,
		      "import failed: %s", (fclose(e), err));
	fclose(o);
	fclose(e);
	free(err);
}

/* The flowop named `name` of the plan compiled from import-fio of `job`. */
static const struct plan_value *imported_attr(const char *job, const char *name,
					      const char *attr, char **out,
					      struct result *r)
{
	import_ok(job, out);
	compile_sem(r, *out, PLAN_SEM_FLOWBENCH);
	ck_assert_msg(r->errors == 0, "%s\n%s", r->msgs, *out);
	for (int i = 0; i < r->plan.nflowops; i++)
		if (strcmp(r->plan.flowops[i].name, name) == 0)
			return plan_flowop_attr(&r->plan.flowops[i], attr);
	ck_abort_msg("no flowop %s in:\n%s", name, *out);
	return NULL;
}

/* Does import-fio of `job` give flowop `name` randommap? */
static bool imported_randommap(const char *job, const char *name, const char *note)
{
	const struct plan_value *v;
	struct result r;
	char *out;
	bool on;

	v = imported_attr(job, name, "randommap", &out, &r);
	on = v->kind == PV_BOOL && v->u.b;
	if (note)
		ck_assert_msg(strstr(out, note), "no \"%s\" in:\n%s", note, out);
	free(out);
	release(&r);
	return on;
}

START_TEST(test_import_randommap)
{
	ck_assert(imported_randommap("[j]\nrw=randread\nsize=1m\n", "j-read", NULL));
	ck_assert(imported_randommap("[j]\nrw=randwrite\nsize=1m\nnorandommap=0\n",
				     "j-write", NULL));
	ck_assert(imported_randommap("[j]\nrw=randread\nsize=1m\nioengine=io_uring\n"
				     "iodepth=8\n", "j-read", NULL));
	ck_assert(!imported_randommap("[j]\nrw=randread\nsize=1m\nnorandommap\n",
				      "j-read", "# norandommap: plain random (with "
				      "replacement): flowbench's default"));
	ck_assert(!imported_randommap("[global]\nnorandommap=1\n[j]\nrw=randread\n"
				      "size=1m\n", "j-read", "plain random"));
	ck_assert(!imported_randommap("[j]\nrw=read\nsize=1m\n", "j-read", NULL));
	ck_assert(!imported_randommap("[j]\nrw=randread\nsize=1m\nnrfiles=2\n",
				      "j-read", "not with several files"));
	ck_assert(!imported_randommap("[j]\nrw=randread\nsize=1m\n"
				      "bssplit=4k/50:8k/50\n", "j-read",
				      "not with several block sizes"));
}
END_TEST

static Suite *fio_ext_suite(void)
{
	Suite *s = suite_create("fio_ext");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_randommap);
	tcase_add_test(tc, test_import_randommap);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fio_ext_suite)
