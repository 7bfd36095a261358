/*
 * test_fio_ext.c - the flowbench extensions that express fio's patterns
 * (randommap, eventgen poisson, stride): what the compiler accepts, and its
 * errors: each needs
 * its context and --compat filebench refuses every one; what import-fio
 * writes for them, compiled by the real compiler.
 */
#include <check.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "lang/ast.h"
#include "lang/compile.h"
#include "lang/parse.h"
#include "plan/diag.h"
#include "lang/fio/import.h"
#include "runtime/engine/eventgen.h"

#include "tests/unit/check_main.h"
#include "tests/unit/compiled.h"

static void compile_sem(struct result *r, const char *src, enum plan_semantics sem)
{
	struct compile_options opts = { .registry = &flowops_registry, .semantics = sem };

	compile_with(r, src, &opts);
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

/* r holds one error, at t.f line `line`, saying `text`; released. */
static void one_error_at(struct result *r, const char *what, int line, const char *text)
{
	char at[32];

	snprintf(at, sizeof(at), "t.f:%d:", line);
	ck_assert_msg(r->errors == 1 && strstr(r->msgs, text) && strstr(r->msgs, at),
		      "%s: expected one error at %s with \"%s\", got %d:\n%s",
		      what, at, text, r->errors, r->msgs);
	release(r);
}

/* One error, at line 7 (the flowop's), saying `text`. */
static void refuses(const char *flowop, enum plan_semantics sem, const char *text)
{
	struct result r;

	compile_flowop(&r, flowop, sem);
	one_error_at(&r, flowop, 7, text);
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
		PLAN_SEM_FLOWBENCH, "randommap with a random iosize needs blockalign");
	accepts("flowop read name=r,filename=f,iosize=$rsz,random,randommap,blockalign=512");
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
				      "random_distribution=zoned:50/10:50/90\n", "j-read-zone1",
				      "not with zones"));
	/* sizes that vary: the map of blocks of the smallest size, as fio's */
	ck_assert(imported_randommap("[j]\nrw=randread\nsize=1m\n"
				     "bssplit=4k/50:8k/50\n", "j-read",
				     "# fio's random map: randommap over blocks of 4096 bytes"));
	ck_assert(imported_randommap("[j]\nrw=randwrite\nsize=1m\n"
				     "bsrange=4k-32k\n", "j-write", "randommap,blockalign=4k"));
}
END_TEST

/* A workload with `eventgen` (a statement) under `sem`. */
static void compile_eventgen(struct result *r, const char *eventgen,
			     enum plan_semantics sem)
{
	char src[512];

	snprintf(src, sizeof(src), "define file name=f,path=/tmp,size=1m\n"
		 "define process name=p\n{\n  thread name=t\n  {\n"
		 "    flowop eventlimit name=el\n  }\n}\n%s\nrun 1\n", eventgen);
	compile_sem(r, src, sem);
}

/* eventgen `text` compiles, with these rate and arrivals. */
static void eventgen_is(const char *text, double rate, bool poisson)
{
	struct result r;

	compile_eventgen(&r, text, PLAN_SEM_FLOWBENCH);
	ck_assert_msg(r.errors == 0, "%s: %s", text, r.msgs);
	ck_assert_msg(eventgen_rate(&r.plan) == rate && r.plan.eventgen_poisson == poisson,
		      "%s: rate %g poisson %d", text, eventgen_rate(&r.plan),
		      r.plan.eventgen_poisson);
	release(&r);
}

/* eventgen `text` is one error at line 9 (the statement's) saying `msg`. */
static void eventgen_refused(const char *text, enum plan_semantics sem, const char *msg)
{
	struct result r;

	compile_eventgen(&r, text, sem);
	one_error_at(&r, text, 9, msg);
}

START_TEST(test_eventgen_poisson)
{
	eventgen_is("eventgen rate=100", 100, false);
	eventgen_is("eventgen rate=100, poisson", 100, true);
	eventgen_is("eventgen poisson, rate=50", 50, true);
	eventgen_is("eventgen rate=100, poisson=false", 100, false);
	eventgen_is("set $p=true\neventgen rate=100, poisson=$p", 100, true);
	/* a later statement without poisson: steady again */
	eventgen_is("eventgen rate=100, poisson\neventgen rate=20", 20, false);
	eventgen_refused("eventgen poisson", PLAN_SEM_FLOWBENCH,
			 "poisson needs a rate");
	eventgen_refused("eventgen rate=10, poisson=3", PLAN_SEM_FLOWBENCH,
			 "eventgen poisson needs true or false");
	eventgen_refused("eventgen rate=10, poisson", PLAN_SEM_FILEBENCH,
			 "--compat filebench refuses it");
	eventgen_refused("eventgen rate=10, poison", PLAN_SEM_FLOWBENCH,
			 "did you mean 'poisson'");
}
END_TEST

/* The gaps of eventgen poisson: exponential, mean 1/rate, CV 1. */
START_TEST(test_poisson_gaps)
{
	enum { N = 200000 };
	double s = 0, ss = 0, mean, cv, below = 0;
	struct rng r;

	rng_seed(&r, 9);
	for (int i = 0; i < N; i++) {
		double g = eventgen_poisson_gap_ns(&r, 250);   /* mean 4 ms */

		if (g < 0)      /* (no ck_assert per sample: each writes to Check's pipe) */
			ck_abort_msg("gap %g ns", g);
		s += g;
		ss += g * g;
		below += g < 4e6;
	}
	mean = s / N;
	cv = sqrt(ss / N - mean * mean) / mean;
	/* standard errors: mean 0.22 %, CV about 0.5 %, P(< mean) 0.1 % */
	ck_assert_msg(fabs(mean / 4e6 - 1) < 0.01, "mean gap %g ns", mean);
	ck_assert_msg(fabs(cv - 1) < 0.03, "cv %g", cv);
	ck_assert_msg(fabs(below / N - (1 - exp(-1))) < 0.005, "P(gap < mean) %g",
		      below / N);
}
END_TEST

/* import-fio of `job` fails with `text` in its errors. */
static void import_refused(const char *job, const char *text)
{
	size_t n1, n2;
	char *out, *err;
	FILE *o = open_memstream(&out, &n1), *e = open_memstream(&err, &n2);

	ck_assert(o && e);
	ck_assert_int_eq(fio_import("job.fio", job, strlen(job), o, e), 1);
	fclose(o);
	fclose(e);
	ck_assert_msg(strstr(err, text), "no \"%s\" in:\n%s", text, err);
	free(out);
	free(err);
}

/* import-fio of `job`, compiled: its generator's arrivals, and `note` in it. */
static bool imported_poisson(const char *job, const char *note)
{
	struct result r;
	char *out;
	bool poisson;

	import_ok(job, &out);
	compile_sem(&r, out, PLAN_SEM_FLOWBENCH);
	ck_assert_msg(r.errors == 0, "%s\n%s", r.msgs, out);
	if (note)
		ck_assert_msg(strstr(out, note), "no \"%s\" in:\n%s", note, out);
	poisson = r.plan.eventgen_poisson;
	free(out);
	release(&r);
	return poisson;
}

START_TEST(test_import_poisson)
{
	ck_assert(imported_poisson("[j]\nrw=randread\nsize=1m\nrate_iops=50\n"
				   "rate_process=poisson\n", ", poisson\n"));
	ck_assert(imported_poisson("[j]\nrw=read\nsize=1m\nrate_iops=50\n"
				   "rate_poisson=1\n", "# rate_poisson=1: the event "
				   "generator's arrivals are a Poisson process"));
	ck_assert(imported_poisson("[global]\nrate_process=poisson\n[a]\nrw=read\n"
				   "size=1m\nrate=1m\n[b]\nrw=write\nsize=1m\nrate=1m\n",
				   NULL));
	ck_assert(!imported_poisson("[j]\nrw=read\nsize=1m\nrate_iops=50\n"
				    "rate_process=linear\n", NULL));
	ck_assert(!imported_poisson("[j]\nrw=read\nsize=1m\nrate_process=poisson\n",
				    "no effect, the job has no rate"));
	import_refused("[j]\nrw=read\nsize=1m\nrate_iops=5\nrate_process=fast\n",
		       "job.fio:5:1: rate_process is linear or poisson, not 'fast'");
	import_refused("[a]\nrw=read\nsize=1m\nrate_iops=5\nrate_process=poisson\n"
		       "[b]\nrw=read\nsize=1m\nrate_iops=5\n",
		       "job 'b': rate_process unlike job 'a''s");
}
END_TEST

START_TEST(test_stride)
{
	const struct plan_value *v;
	struct result r;

	compile_flowop(&r, "flowop read name=r,filename=f,iosize=4k,stride=-8k",
		       PLAN_SEM_FLOWBENCH);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	v = plan_flowop_attr(&r.plan.flowops[0], "stride");
	ck_assert(v->kind == PV_INT && v->u.i == -8192);
	release(&r);
	accepts("flowop write name=w,filename=f,iosize=16k,stride=112k");
	accepts("flowop read name=r,filename=f,iosize=4k,stride=0,random");
	refuses("flowop read name=r,filename=f,iosize=4k,random,stride=8k",
		PLAN_SEM_FLOWBENCH, "stride is for sequential I/O");
	refuses("flowop read name=r,filename=f,iosize=4k,stride=-4k",
		PLAN_SEM_FLOWBENCH, "would repeat the same block forever");
	refuses("flowop read name=r,filename=f,iosize=4k,stride=8k",
		PLAN_SEM_FILEBENCH, "stride is a flowbench extension");
	/* the asynchronous flowops take it too */
	accepts("flowop aioread name=a,filename=f,iosize=4k,stride=8k,iodepth=4");
	accepts("flowop aiowrite name=a,filename=f,iosize=4k,stride=-8k,misalign=4k");
	refuses("flowop aioread name=a,filename=f,iosize=4k,random,stride=8k",
		PLAN_SEM_FLOWBENCH, "stride is for sequential I/O");
}
END_TEST

/* import-fio of `job` compiles; flowop `name`'s stride (0: none), `note` in it. */
static int64_t imported_stride(const char *job, const char *name, const char *note)
{
	const struct plan_value *v;
	struct result r;
	char *out;
	int64_t stride;

	v = imported_attr(job, name, "stride", &out, &r);
	stride = v->kind == PV_INT ? v->u.i : 0;
	if (note)
		ck_assert_msg(strstr(out, note), "no \"%s\" in:\n%s", note, out);
	free(out);
	release(&r);
	return stride;
}

START_TEST(test_import_stride)
{
	ck_assert_int_eq(imported_stride("[b]\nbs=4k\nrw=read:-8k\nsize=1m\n",
					 "b-read", ",stride=-8k"), -8192);
	ck_assert_int_eq(imported_stride("[w]\nbs=16k\nrw=write:112k\nsize=1m\n",
					 "w-write", "# rw=write:112k: sequential"),
			 112 * 1024);
	ck_assert_int_eq(imported_stride("[w]\nrw=write:112k\nsize=1m\ntime_based\n"
					 "runtime=1\n", "w-write", NULL), 112 * 1024);
	ck_assert_int_eq(imported_stride("[m]\nrw=rw:4k\nsize=1m\n", "m.write",
					 NULL), 4096);
	ck_assert_int_eq(imported_stride("[r]\nrw=read:0\nsize=1m\n", "r-read",
					 NULL), 0);
	import_refused("[r]\nrw=randread:8\nsize=1m\n",
		       "job.fio:2:1: unsupported rw 'randread:8': on random I/O");
	ck_assert_int_eq(imported_stride("[r]\nrw=read:-8k\nsize=1m\nioengine=io_uring\n"
					 "iodepth=4\n", "r-read", ",stride=-8k"), -8192);
	import_refused("[r]\nrw=read:fast\nsize=1m\n",
		       "job.fio:2:1: rw=read:fast: the offset modifier");
	import_refused("[r]\nrw=reed:8k\nsize=1m\n", "unsupported rw 'reed'");
}
END_TEST

static Suite *fio_ext_suite(void)
{
	Suite *s = suite_create("fio_ext");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_randommap);
	tcase_add_test(tc, test_import_randommap);
	tcase_add_test(tc, test_eventgen_poisson);
	tcase_add_test(tc, test_poisson_gaps);
	tcase_add_test(tc, test_import_poisson);
	tcase_add_test(tc, test_stride);
	tcase_add_test(tc, test_import_stride);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fio_ext_suite)
