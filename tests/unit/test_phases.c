/*
 * test_phases.c - run phases, flowbench's extension of `define process`
 * (after=, startdelay=, runtime=): each attribute laid out in the plan,
 * and every error the compiler gives for them, with its location.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/ast.h"
#include "lang/parse.h"
#include "lang/compile.h"
#include "plan/diag.h"
#include "flowops/registry.h"
#include "plan/flowop.h"

#include "tests/unit/check_main.h"
#include "tests/unit/compiled.h"

static void compile_sem(struct result *r, const char *src, enum plan_semantics sem)
{
	struct compile_options opts = { .registry = &flowops_registry, .semantics = sem };

	compile_with(r, src, &opts);
}

static void compile_src(struct result *r, const char *src)
{
	compile_sem(r, src, PLAN_SEM_FLOWBENCH);
}

#define HAS(r, text) \
	ck_assert_msg(strstr((r)->msgs, (text)) != NULL, \
		      "expected message \"%s\", got:\n%s", (text), (r)->msgs)

/* A process `name` with attributes `attrs` and one thread doing a nop. */
#define PROC(name, attrs) \
	"define process name=" name attrs "\n{\n" \
	"  thread name=t-" name "\n  {\n    flowop eventlimit name=op-" name "\n  }\n}\n"

/* The script of `procs` (PROC() ...) and `run 5`, compiled: *r. */
static void compile_procs(struct result *r, const char *procs)
{
	char *src;

	ck_assert_int_gt(asprintf(&src, "%srun 5\n", procs), 0);
	compile_src(r, src);
	free(src);
}

START_TEST(test_plan_without_phases)
{
	struct result r;

	compile_procs(&r, PROC("a", ""));
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	ck_assert(!r.plan.procs[0].phased);
	ck_assert_int_eq(r.plan.procs[0].nafter, 0);
	ck_assert(r.plan.procs[0].startdelay_s == 0);
	ck_assert(r.plan.procs[0].runtime_s == 0);
	release(&r);
}
END_TEST

START_TEST(test_plan_after)
{
	struct result r;
	const struct plan_proc *pr;

	compile_procs(&r, PROC("a", "") PROC("bb", "") PROC("c", ",after=a")
		      PROC("d", ",after=\"bb:a:c\""));
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	pr = &r.plan.procs[2];
	ck_assert(pr->phased);
	ck_assert_int_eq(pr->nafter, 1);
	ck_assert_int_eq(pr->after[0], 0);
	pr = &r.plan.procs[3];
	ck_assert_int_eq(pr->nafter, 3);
	ck_assert_int_eq(pr->after[0], 1);
	ck_assert_int_eq(pr->after[1], 0);
	ck_assert_int_eq(pr->after[2], 2);
	ck_assert(!r.plan.procs[0].phased);
	release(&r);
}
END_TEST

START_TEST(test_plan_after_repeated_name)
{
	struct result r;
	const struct plan_proc *pr;

	/* two processes named a: the phase waits for both, each once */
	compile_procs(&r, PROC("a", "") PROC("a", "") PROC("b", ",after=\"a:a\""));
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	pr = &r.plan.procs[2];
	ck_assert_int_eq(pr->nafter, 2);
	ck_assert_int_eq(pr->after[0], 0);
	ck_assert_int_eq(pr->after[1], 1);
	release(&r);
}
END_TEST

START_TEST(test_plan_times)
{
	struct result r;
	const struct plan_proc *pr;

	compile_procs(&r, "set $d=2\n" PROC("a", ",startdelay=1.5,runtime=10")
		      PROC("b", ",startdelay=$d") PROC("c", ",runtime=0.25")
		      PROC("e", ",startdelay=0"));
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	pr = &r.plan.procs[0];
	ck_assert(pr->phased);
	ck_assert(pr->startdelay_s == 1.5);
	ck_assert(pr->runtime_s == 10);
	ck_assert(r.plan.procs[1].startdelay_s == 2);
	ck_assert(r.plan.procs[1].runtime_s == 0);
	ck_assert(r.plan.procs[2].runtime_s == 0.25);
	ck_assert(r.plan.procs[2].startdelay_s == 0);
	/* written, even as 0: its rates are over its own window */
	ck_assert(r.plan.procs[3].phased);
	release(&r);
}
END_TEST

START_TEST(test_unknown_name)
{
	struct result r;

	/* line 8 is the second process's define (PROC() makes 7 lines) */
	compile_procs(&r, PROC("writers", "") PROC("b", ",after=writer"));
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:8:29: unknown process 'writer' in after= (did you mean 'writers'?)");
	release(&r);
}
END_TEST

START_TEST(test_later_and_self)
{
	struct result r;

	compile_procs(&r, PROC("a", ",after=b") PROC("b", ""));
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:1:29: process 'b' in after= is defined after process 'a' (line 8): after= names only processes defined before it");
	release(&r);

	compile_procs(&r, PROC("a", ",after=a"));
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:1:29: process 'a' cannot wait for itself (after=)");
	release(&r);
}
END_TEST

START_TEST(test_empty_names)
{
	struct result r;

	compile_procs(&r, PROC("a", "") PROC("b", "") PROC("c", ",after=\"a::b\""));
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:15:29: process 'c': empty process name in after=\"a::b\"");
	release(&r);

	compile_procs(&r, PROC("a", "") PROC("c", ",after=\"\""));
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "process 'c': empty process name in after=\"\"");
	release(&r);

	compile_procs(&r, PROC("a", "") PROC("c", ",after=\"a:\""));
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "process 'c': empty process name in after=\"a:\"");
	release(&r);

	/* a bare `after` is true, not a name */
	compile_procs(&r, PROC("a", "") PROC("c", ",after"));
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "attribute 'after' needs a string, not a boolean");
	release(&r);
}
END_TEST

START_TEST(test_bad_times)
{
	struct result r;

	compile_procs(&r, PROC("a", ",startdelay=-1"));
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:1:34: process 'a': startdelay=-1: the seconds must be 0 or more");
	release(&r);

	compile_procs(&r, PROC("a", ",runtime=0"));
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:1:31: process 'a': runtime=0: the seconds must be more than 0");
	release(&r);

	compile_procs(&r, PROC("a", ",runtime=soon"));
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:1:31: process 'a': runtime= needs a number of seconds");
	release(&r);

	compile_procs(&r, PROC("a", ",startdelay=20000000000"));
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:1:34: startdelay: 20000000000 s is more than flowbench's limit");
	release(&r);

	compile_procs(&r, "set $r = randvar(type=gamma, mean=10, gamma=1500)\n"
		      PROC("a", ",runtime=$r"));
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:2:31: process 'a': runtime= needs a number of seconds, not a random variable (it is read once)");
	release(&r);
}
END_TEST

START_TEST(test_compat_filebench_refuses)
{
	struct result r;

	compile_sem(&r, PROC("a", "") PROC("b", ",after=a,startdelay=1,runtime=2")
		    "run 5\n", PLAN_SEM_FILEBENCH);
	ck_assert_int_eq(r.errors, 3);
	HAS(&r, "t.f:8:29: process 'b': after= is a flowbench extension (run phases); filebench has no such construct, so --compat filebench refuses it");
	HAS(&r, "t.f:8:42: process 'b': startdelay= is a flowbench extension");
	HAS(&r, "t.f:8:52: process 'b': runtime= is a flowbench extension");
	release(&r);

	/* without them --compat filebench is fine */
	compile_sem(&r, PROC("a", "") "run 5\n", PLAN_SEM_FILEBENCH);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	release(&r);
}
END_TEST

/* A script of a process `a` with body `abody` and `b` after it. */
static void compile_after(struct result *r, const char *prefix, const char *aattrs,
			  const char *abody)
{
	char *src;

	ck_assert_int_gt(asprintf(&src, "%sdefine process name=a%s\n{\n"
				  "  thread name=ta\n  {\n%s  }\n}\n"
				  PROC("b", ",after=a") "run 5\n",
				  prefix, aattrs, abody), 0);
	compile_src(r, src);
	free(src);
}

START_TEST(test_warn_never_ends)
{
	struct result r;
	static const char warning[] =
		"t.f:8:29: warning: process 'b' waits for process 'a', which has no finish flowop (finishoncount, finishonbytes) and no runtime=: it runs until the run's end, so 'b' would never start";

	compile_after(&r, "", "", "    flowop eventlimit name=e\n");
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	HAS(&r, warning);
	release(&r);

	/* a finish flowop, a runtime= or another quit mode: no warning */
	compile_after(&r, "", "", "    flowop eventlimit name=e\n"
		      "    flowop finishoncount name=f,value=10\n");
	ck_assert_msg(r.errors == 0 && !strstr(r.msgs, "never start"), "%s", r.msgs);
	release(&r);
	compile_after(&r, "", ",runtime=3", "    flowop eventlimit name=e\n");
	ck_assert_msg(r.errors == 0 && !strstr(r.msgs, "never start"), "%s", r.msgs);
	release(&r);
	compile_after(&r, "set mode quit alldone\n", "", "    flowop eventlimit name=e\n");
	ck_assert_msg(r.errors == 0 && !strstr(r.msgs, "never start"), "%s", r.msgs);
	release(&r);
}
END_TEST

static Suite *phases_suite(void)
{
	Suite *s = suite_create("phases");
	TCase *tc = tcase_create("compile");

	tcase_add_test(tc, test_plan_without_phases);
	tcase_add_test(tc, test_plan_after);
	tcase_add_test(tc, test_plan_after_repeated_name);
	tcase_add_test(tc, test_plan_times);
	tcase_add_test(tc, test_unknown_name);
	tcase_add_test(tc, test_later_and_self);
	tcase_add_test(tc, test_empty_names);
	tcase_add_test(tc, test_bad_times);
	tcase_add_test(tc, test_compat_filebench_refuses);
	tcase_add_test(tc, test_warn_never_ends);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(phases_suite)
