/*
 * test_fbestimate.c - filebench's figures for a run, estimated from the
 * plan and the run's own counts (runtime/results/fbestimate.h), and the
 * comparability notes they make fire: on synthetic counts shaped like
 * the runs of filebench's own workloads that issue 23 measured
 * (filemicro_delete, removedirs, makedirs), so each rule is checked
 * exactly, whatever the machine.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flowops/registry.h"
#include "runtime/measure/stats.h"
#include "runtime/results/comparability.h"
#include "runtime/results/fbestimate.h"

#include "tests/unit/check_main.h"
#include "tests/unit/compiled.h"

static void compile_sem(struct result *r, const char *src, enum plan_semantics sem)
{
	struct compile_options opts = { .registry = &flowops_registry, .semantics = sem };

	compile_with(r, src, &opts);
	ck_assert_msg(r->errors == 0, "%s", r->msgs);
}

/* The index of flowop `name` in the plan. */
static int fo(const struct plan *p, const char *name)
{
	for (int i = 0; i < p->nflowops; i++)
		if (strcmp(p->flowops[i].name, name) == 0)
			return i;
	ck_abort_msg("no flowop %s", name);
	return -1;
}

/* An outcome with zero counts for every flowop of `p`. */
static void outcome(struct run_outcome *o, const struct plan *p, double elapsed,
		    bool ended_itself, bool finish_fired)
{
	memset(o, 0, sizeof(*o));
	o->stats = calloc((size_t)p->nflowops, sizeof(*o->stats));
	ck_assert_ptr_nonnull(o->stats);
	o->elapsed_s = elapsed;
	o->ended_itself = ended_itself;
	o->finish_fired = finish_fired;
}

static const struct comparability_note *note(const struct comparability *c,
					     const char *rule)
{
	for (int i = 0; i < c->n; i++)
		if (strcmp(c->notes[i].rule, rule) == 0)
			return &c->notes[i];
	return NULL;
}

#define APPEND_F(mode, value) \
	"set mode quit " mode "\n" \
	"define file name=f,path=/nonexistent,size=0,prealloc\n" \
	"define process name=p {\n" \
	"  thread name=t {\n" \
	"    flowop appendfile name=app,filename=f,iosize=4k\n" \
	"    flowop finishoncount name=fin,value=" value "\n" \
	"  }\n}\n" \
	"define process name=other {\n" \
	"  thread name=u {\n" \
	"    flowop appendfile name=app2,filename=f,iosize=4k\n" \
	"  }\n}\nrun 10\n"

#define DELETE_F \
	"set mode quit firstdone\n" \
	"define fileset name=bigfileset,path=/nonexistent,size=16k,entries=5000," \
	"dirwidth=100,prealloc=100\n" \
	"define process name=filedelete,instances=1 {\n" \
	"  thread name=t,memsize=10m,instances=16 {\n" \
	"    flowop deletefile name=deletefile1,filesetname=bigfileset\n" \
	"    flowop opslimit name=limit\n" \
	"    flowop finishoncount name=finish,value=1000\n" \
	"  }\n}\nrun 5\n"

/*
 * filemicro_delete by flowbench's rules: the 16 threads ran out of files
 * (5000 deletes) before any thread's own limit of 1000; filebench's limit
 * counts the process's deletes and finishoncount calls, 2 per iteration,
 * and stops at about 500 deletes (it printed 502-508), in 1 s.
 */
START_TEST(test_delete_limit_never_fired)
{
	struct result r;
	struct run_outcome o;
	struct fbestimate e;
	struct comparability c;
	const struct comparability_note *n;

	compile_sem(&r, DELETE_F, PLAN_SEM_FLOWBENCH);
	outcome(&o, &r.plan, 0.163, true, false);
	o.stats[fo(&r.plan, "deletefile1")].op.count = 5000;
	o.stats[fo(&r.plan, "finish")].op.count = 5000;
	fbestimate_run(&r.plan, &o, &e);
	ck_assert_double_eq_tol(e.fraction, 0.1, 1e-9);
	ck_assert_uint_eq(e.ops, 500);
	ck_assert_uint_eq(e.our_ops, 5000);
	ck_assert(e.ends_itself && !e.no_results);
	ck_assert_double_eq(e.elapsed_s, 1);
	ck_assert_double_eq_tol(e.ops_per_s, 500, 1e-9);

	comparability_init(&c, PLAN_SEM_FLOWBENCH);
	comparability_add_run(&c, &r.plan, &o);
	n = note(&c, "finish-limits");
	ck_assert_msg(n != NULL, "no finish-limits note where filebench's limit would have fired");
	ck_assert_msg(strstr(n->effect, "about 500 of these 5000 I/O ops"), "%s", n->effect);
	ck_assert_double_eq_tol(n->estimate, 500, 1e-9);
	n = note(&c, "whole-seconds");
	ck_assert_msg(n != NULL, "no whole-seconds note");
	ck_assert_msg(strstr(n->effect, "about 500.0 ops/s for 500 ops"), "%s", n->effect);
	free(o.stats);
	release(&r);
}
END_TEST

/* Under --compat filebench the run followed filebench's limit already. */
START_TEST(test_delete_compat)
{
	struct result r;
	struct run_outcome o;
	struct fbestimate e;

	compile_sem(&r, DELETE_F, PLAN_SEM_FILEBENCH);
	outcome(&o, &r.plan, 0.02, true, true);
	o.stats[fo(&r.plan, "deletefile1")].op.count = 503;
	o.stats[fo(&r.plan, "finish")].op.count = 503;
	fbestimate_run(&r.plan, &o, &e);
	ck_assert_double_eq(e.fraction, 1);
	ck_assert_uint_eq(e.ops, 503);
	ck_assert_double_eq(e.elapsed_s, 1);
	free(o.stats);
	release(&r);

	/* a limit that fired in timeout mode: filebench would print nothing */
	compile_sem(&r, APPEND_F("timeout", "1000"), PLAN_SEM_FILEBENCH);
	outcome(&o, &r.plan, 0.05, true, true);
	o.stats[fo(&r.plan, "app")].op.count = 500;
	o.stats[fo(&r.plan, "fin")].op.count = 500;
	fbestimate_run(&r.plan, &o, &e);
	ck_assert(e.no_results && !e.ends_itself);
	free(o.stats);
	release(&r);
}
END_TEST

#define DIRS_F(flowop, prealloc) \
	"set mode quit firstdone\n" \
	"define fileset name=bigfileset,path=/nonexistent,size=0,leafdirs=10000," \
	"dirwidth=100" prealloc "\n" \
	"define process name=p,instances=1 {\n" \
	"  thread name=t,memsize=1m,instances=16 {\n" \
	"    flowop " flowop " name=op,filesetname=bigfileset\n" \
	"  }\n}\nrun 5\n"

/*
 * removedirs: 10,000 rmdirs in 1.3 s; filebench's loop sleeps 2 whole
 * seconds before it sees the end: 5,000 ops/s (it printed 4,998), not
 * the 10,000 that rounding down gave.
 */
START_TEST(test_whole_seconds_round_up)
{
	struct result r;
	struct run_outcome o;
	struct comparability c;
	const struct comparability_note *n;

	compile_sem(&r, DIRS_F("removedir", ",prealloc"), PLAN_SEM_FLOWBENCH);
	outcome(&o, &r.plan, 1.3, true, false);
	o.stats[fo(&r.plan, "op")].op.count = 10000;
	comparability_init(&c, PLAN_SEM_FLOWBENCH);
	comparability_add_run(&c, &r.plan, &o);
	ck_assert_ptr_null(note(&c, "finish-limits"));
	n = note(&c, "whole-seconds");
	ck_assert_ptr_nonnull(n);
	ck_assert_double_eq_tol(n->estimate, 5000, 1e-9);
	ck_assert_msg(strstr(n->effect, "divides by 2 s and would show about 5000 ops/s"),
		      "%s", n->effect);
	free(o.stats);
	release(&r);
}
END_TEST

/* The rounding: up, at least 1 s, at most the run time. */
START_TEST(test_whole_seconds_values)
{
	ck_assert_double_eq(fbestimate_whole_seconds(0.03, 5), 1);
	ck_assert_double_eq(fbestimate_whole_seconds(1.0, 5), 1);
	ck_assert_double_eq(fbestimate_whole_seconds(1.01, 5), 2);
	ck_assert_double_eq(fbestimate_whole_seconds(4.5, 0), 5);
	ck_assert_double_eq(fbestimate_whole_seconds(7.2, 5), 5);
}
END_TEST

/* A run that ends (nearly) on a whole second: no note, nothing changes. */
START_TEST(test_whole_second_end_silent)
{
	struct result r;
	struct run_outcome o;
	struct comparability c;

	compile_sem(&r, DIRS_F("makedir", ""), PLAN_SEM_FLOWBENCH);
	outcome(&o, &r.plan, 1.995, true, false);
	o.stats[fo(&r.plan, "op")].op.count = 10000;
	comparability_init(&c, PLAN_SEM_FLOWBENCH);
	comparability_add_run(&c, &r.plan, &o);
	ck_assert_ptr_null(note(&c, "whole-seconds"));
	free(o.stats);
	/* ... nor when the run lasted its run time */
	outcome(&o, &r.plan, 5.0, false, false);
	o.stats[fo(&r.plan, "op")].op.count = 10000;
	comparability_init(&c, PLAN_SEM_FLOWBENCH);
	comparability_add_run(&c, &r.plan, &o);
	ck_assert_ptr_null(note(&c, "whole-seconds"));
	ck_assert_ptr_null(note(&c, "finish-limits"));
	free(o.stats);
	release(&r);
}
END_TEST

/*
 * A limit that did not fire in a timed run (10,000 appends, 1 implicit
 * open): filebench's counts 20,001 ops against 12,000 and stops at 60 %;
 * in timeout mode it would end the run without results; in alldone mode
 * only the limited process stops early.
 */
START_TEST(test_limit_in_timed_runs)
{
	struct result r;
	struct run_outcome o;
	struct fbestimate e;
	struct comparability c;
	const struct comparability_note *n;

	compile_sem(&r, APPEND_F("timeout", "12000"), PLAN_SEM_FLOWBENCH);
	outcome(&o, &r.plan, 10.0, false, false);
	o.stats[fo(&r.plan, "app")].op.count = 10000;
	o.stats[fo(&r.plan, "app")].open.count = 1;
	o.stats[fo(&r.plan, "fin")].op.count = 10000;
	o.stats[fo(&r.plan, "app2")].op.count = 10000;
	fbestimate_run(&r.plan, &o, &e);
	ck_assert_double_eq_tol(e.fraction, 12000.0 / 20001, 1e-9);
	ck_assert(e.no_results && !e.ends_itself);
	comparability_init(&c, PLAN_SEM_FLOWBENCH);
	comparability_add_run(&c, &r.plan, &o);
	n = note(&c, "finish-limits");
	ck_assert_ptr_nonnull(n);
	ck_assert_msg(strstr(n->effect, "without results"), "%s", n->effect);
	ck_assert(isnan(n->estimate));
	free(o.stats);
	release(&r);

	compile_sem(&r, APPEND_F("alldone", "12000"), PLAN_SEM_FLOWBENCH);
	outcome(&o, &r.plan, 10.0, false, false);
	o.stats[fo(&r.plan, "app")].op.count = 10000;
	o.stats[fo(&r.plan, "app")].open.count = 1;
	o.stats[fo(&r.plan, "fin")].op.count = 10000;
	o.stats[fo(&r.plan, "app2")].op.count = 10000;
	fbestimate_run(&r.plan, &o, &e);
	ck_assert(!e.ends_itself && !e.no_results);
	/* the limited process does 60 % of its 10,001 ops, the other all */
	ck_assert_uint_eq(e.ops, (uint64_t)llround(10001.0 * 12000 / 20001) + 10000);
	ck_assert_double_eq(e.elapsed_s, 10);
	free(o.stats);

	/* a limit above everything counted: filebench's rule changes nothing */
	outcome(&o, &r.plan, 10.0, false, false);
	o.stats[fo(&r.plan, "app")].op.count = 100;
	o.stats[fo(&r.plan, "fin")].op.count = 100;
	o.stats[fo(&r.plan, "app2")].op.count = 100;
	comparability_init(&c, PLAN_SEM_FLOWBENCH);
	comparability_add_run(&c, &r.plan, &o);
	ck_assert_ptr_null(note(&c, "finish-limits"));
	free(o.stats);
	release(&r);
}
END_TEST

static Suite *fbestimate_suite(void)
{
	Suite *s = suite_create("fbestimate");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, test_delete_limit_never_fired);
	tcase_add_test(tc, test_delete_compat);
	tcase_add_test(tc, test_whole_seconds_round_up);
	tcase_add_test(tc, test_whole_seconds_values);
	tcase_add_test(tc, test_whole_second_end_silent);
	tcase_add_test(tc, test_limit_in_timed_runs);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fbestimate_suite)
