/*
 * test_choose.c - the compiler's side of a choice (`define flowop ...,
 * choose` with weight= on its flowops, lang/choose.c): the plan it lays
 * out (the choice's ops, the members' weights, composites inside and
 * around it), and every error, each at its file:line:col; read's and
 * write's seqfollows, which import-fio's random/sequential choices use;
 * asynchronous members at an iodepth, which share one queue.
 */
#include <check.h>
#include <string.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "lang/compile.h"

#include "tests/unit/check_main.h"
#include "tests/unit/compiled.h"

static void compile_sem(struct result *r, const char *src, enum plan_semantics sem)
{
	struct compile_options opts = { .registry = &flowops_registry,
					.semantics = sem };

	compile_with(r, src, &opts);
}

static void compile_src(struct result *r, const char *src)
{
	compile_sem(r, src, PLAN_SEM_FLOWBENCH);
}

#define HAS(r, text) \
	ck_assert_msg(strstr((r)->msgs, (text)) != NULL, \
		      "expected message \"%s\", got:\n%s", (text), (r)->msgs)

static const struct plan_flowop *find(const struct plan *p, const char *name)
{
	for (int i = 0; i < p->nflowops; i++)
		if (strcmp(p->flowops[i].name, name) == 0)
			return &p->flowops[i];
	ck_abort_msg("no flowop %s", name);
	return NULL;
}

/* 70 % read, 20 % write, 10 % a composite; weights from locals. */
static const char mix_src[] =
	"define file name=f,path=/tmp,size=1m,prealloc\n"
	"define flowop name=commit {\n"
	"  flowop write name=log,filename=f,iosize=512\n"
	"  flowop fsync name=sync,filename=f\n"
	"}\n"
	"define flowop name=oltp, choose, $rd=70 {\n"
	"  flowop read name=rd,filename=f,iosize=4k,random,weight=$rd\n"
	"  flowop write name=wr,filename=f,iosize=4k,random,weight=90-$rd\n"
	"  flowop commit name=cm,weight=10,iters=2\n"
	"}\n"
	"define flowop name=outer {\n"
	"  flowop oltp name=in, $rd=50, iters=3\n"
	"}\n"
	"define process name=p { thread name=t {\n"
	"  flowop oltp name=mix\n"
	"  flowop outer name=o\n"
	"  flowop finishoncount name=done,value=1000\n"
	"} }\nrun 1\n";

START_TEST(test_plan)
{
	struct result r;
	const struct plan *p;
	const struct plan_flowop *mix, *in;

	compile_src(&r, mix_src);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	p = &r.plan;
	mix = find(p, "mix");
	ck_assert_ptr_eq(mix->ops, flowops_registry.choice);
	ck_assert_int_eq(mix->ndesc, 5);       /* rd, wr, cm, cm.log, cm.sync */
	ck_assert_str_eq(mix[1].name, "mix.rd");
	ck_assert_int_eq(plan_attr_int(&mix[1], PA_WEIGHT, -1), 70);
	ck_assert_str_eq(mix[2].name, "mix.wr");
	ck_assert_int_eq(plan_attr_int(&mix[2], PA_WEIGHT, -1), 20);
	ck_assert_str_eq(mix[3].name, "mix.cm");
	ck_assert_ptr_eq(mix[3].ops, flowops_registry.composite);
	ck_assert_int_eq(plan_attr_int(&mix[3], PA_WEIGHT, -1), 10);
	ck_assert_int_eq(plan_attr_int(&mix[3], PA_ITERS, -1), 2);
	ck_assert_int_eq(mix[3].ndesc, 2);
	/* the inner composite's own flowops have no weight */
	ck_assert(mix[4].attr[PA_WEIGHT].kind == PV_UNSET);
	/* a choice inside a plain composite, with its own odds and iters */
	in = find(p, "o.in");
	ck_assert_ptr_eq(in->ops, flowops_registry.choice);
	ck_assert_ptr_eq(find(p, "o")->ops, flowops_registry.composite);
	ck_assert_int_eq(plan_attr_int(in, PA_ITERS, -1), 3);
	ck_assert_int_eq(plan_attr_int(find(p, "o.in.rd"), PA_WEIGHT, -1), 50);
	ck_assert_int_eq(plan_attr_int(find(p, "o.in.wr"), PA_WEIGHT, -1), 40);
	release(&r);
}
END_TEST

START_TEST(test_choose_values)
{
	struct result r;

	/* choose=<expression>: true is a choice, false a plain composite */
	compile_src(&r,
		    "set $on=true\n"
		    "define file name=f,path=/tmp,size=1m,prealloc\n"
		    "define flowop name=c, choose=$on {\n"
		    "  flowop read name=a,filename=f,iosize=4k,weight=1\n"
		    "  flowop read name=b,filename=f,iosize=4k,weight=0\n"
		    "}\n"
		    "define flowop name=d {\n"
		    "  flowop read name=a,filename=f,iosize=4k\n"
		    "  flowop read name=b,filename=f,iosize=4k\n"
		    "} choose=false\n"
		    "define process name=p { thread name=t {\n"
		    "  flowop c name=x\n"
		    "  flowop d name=y\n"
		    "} }\nrun 1\n");
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	ck_assert_ptr_eq(find(&r.plan, "x")->ops, flowops_registry.choice);
	ck_assert_ptr_eq(find(&r.plan, "y")->ops, flowops_registry.composite);
	release(&r);
}
END_TEST

START_TEST(test_errors)
{
	struct result r;

	compile_src(&r,
		    "define file name=f,path=/tmp,size=1m,prealloc\n"
		    "define flowop name=one, choose {\n"                         /* 2 */
		    "  flowop read name=a,filename=f,iosize=4k,weight=1\n"
		    "}\n"
		    "define flowop name=bad, choose {\n"                         /* 5 */
		    "  flowop read name=neg,filename=f,iosize=4k,weight=-1\n"
		    "  flowop read name=str,filename=f,iosize=4k,weight=\"x\"\n"
		    "  flowop read name=frac,filename=f,iosize=4k,weight=2.5\n"
		    "  flowop read name=none,filename=f,iosize=4k\n"
		    "  flowop read name=big,filename=f,iosize=4k,weight=1000000000001\n"
		    "  flowop read name=rv,filename=f,iosize=4k,weight=randvar(type=uniform,min=1,mean=2)\n"
		    "}\n"
		    "define flowop name=zero, choose {\n"                        /* 13 */
		    "  flowop read name=a,filename=f,iosize=4k,weight=0\n"
		    "  flowop read name=b,filename=f,iosize=4k,weight=0\n"
		    "}\n"
		    "define flowop name=plain {\n"                               /* 17 */
		    "  flowop read name=a,filename=f,iosize=4k,weight=3\n"
		    "}\n"
		    "define flowop name=word, choose=\"yes\" {\n"                 /* 20 */
		    "  flowop read name=a,filename=f,iosize=4k,weight=1\n"
		    "  flowop read name=b,filename=f,iosize=4k,weight=1\n"
		    "}\n"
		    "define process name=p { thread name=t {\n"                  /* 24 */
		    "  flowop one name=x1\n"
		    "  flowop bad name=x2\n"
		    "  flowop zero name=x3\n"
		    "  flowop plain name=x4\n"
		    "  flowop read name=top,filename=f,iosize=4k,weight=2\n"
		    "  flowop plain name=x5,weight=2\n"
		    "  flowop word name=x6\n"
		    "} }\nrun 1\n");
	HAS(&r, "t.f:2:25: composite flowop 'one' chooses among 1 flowop: a choice needs at least two");
	HAS(&r, "t.f:6:52: attribute 'weight' must not be negative (-1)");
	HAS(&r, "t.f:7:52: attribute 'weight' needs a number, not a string 'x'");
	HAS(&r, "t.f:8:53: attribute 'weight' needs a whole number, not 2.5");
	HAS(&r, "t.f:9:3: flowop x2.none: a member of choice 'bad' needs its odds, weight=N (0: never chosen)");
	HAS(&r, "t.f:10:52: flowop x2.big: weight=1000000000001 is more than flowbench's limit of 1000000000000");
	HAS(&r, "t.f:11:51: attribute 'weight' cannot be a random variable");
	HAS(&r, "t.f:27:3: flowop x3 (choice 'zero'): every weight is 0: at least one must be more than 0");
	HAS(&r, "t.f:18:50: flowop x4.a: weight= gives odds only to a flowop directly inside a composite defined with choose");
	HAS(&r, "t.f:29:52: flowop top: weight= gives odds only to a flowop directly inside");
	HAS(&r, "t.f:30:31: flowop x5: weight= gives odds only to a flowop directly inside");
	HAS(&r, "t.f:20:33: attribute 'choose' needs true or false, not 'yes'");
	/* the definition's error once per invocation, as for any composite */
	HAS(&r, "t.f:18:50: flowop x5.a: weight= gives odds only");
	ck_assert_int_eq(r.errors, 13);
	release(&r);
}
END_TEST

/* A flowop of a composite inside a choice is no member: no weight there. */
START_TEST(test_nested_member)
{
	struct result r;

	compile_src(&r,
		    "define file name=f,path=/tmp,size=1m,prealloc\n"
		    "define flowop name=inner {\n"
		    "  flowop read name=a,filename=f,iosize=4k,weight=1\n"
		    "}\n"
		    "define flowop name=c, choose {\n"
		    "  flowop inner name=i,weight=1\n"
		    "  flowop read name=b,filename=f,iosize=4k,weight=1\n"
		    "}\n"
		    "define process name=p { thread name=t { flowop c name=x } }\nrun 1\n");
	HAS(&r, "t.f:3:50: flowop x.i.a: weight= gives odds only to a flowop directly inside");
	ck_assert_int_eq(r.errors, 1);
	release(&r);
}
END_TEST

START_TEST(test_compat_refuses)
{
	struct result r;

	compile_sem(&r,
		    "define file name=f,path=/tmp,size=1m,prealloc\n"
		    "define flowop name=c, choose {\n"
		    "  flowop read name=a,filename=f,iosize=4k,weight=1\n"
		    "  flowop read name=b,filename=f,iosize=4k,weight=1\n"
		    "}\n"
		    "define process name=p { thread name=t { flowop c name=x } }\nrun 1\n",
		    PLAN_SEM_FILEBENCH);
	HAS(&r, "t.f:2:23: composite flowop 'c': choose is a flowbench extension (one flowop drawn by weight); filebench has no such construct, so --compat filebench refuses it");
	ck_assert_int_eq(r.errors, 1);    /* its weights are not refused again */
	release(&r);
}
END_TEST

/* seqfollows: only with random; --compat filebench refuses it. */
START_TEST(test_seqfollows)
{
	static const char src[] =
		"define file name=f,path=/tmp,size=1m,prealloc\n"
		"define process name=p { thread name=t {\n"
		"  flowop read name=a,filename=f,iosize=4k,random,seqfollows\n"
		"  flowop read name=b,filename=f,iosize=4k,seqfollows\n"
		"} }\nrun 1\n";
	struct result r;

	compile_src(&r, src);
	HAS(&r, "t.f:4:43: flowop b: seqfollows needs random");
	ck_assert_int_eq(r.errors, 1);
	ck_assert(plan_value_bool(plan_flowop_attr(find(&r.plan, "a"), "seqfollows"), false));
	release(&r);
	compile_sem(&r, src, PLAN_SEM_FILEBENCH);
	HAS(&r, "t.f:3:50: flowop a: seqfollows is a flowbench extension (fio's percentage_random); filebench's random offsets leave the sequential one alone, so --compat filebench refuses it");
	release(&r);
}
END_TEST

/*
 * Asynchronous members at an iodepth share one queue (flowops/aio.c):
 * every member an aioread or aiowrite of the same iodepth, engine and
 * depth options; each mismatch at the member's own attribute.
 */
START_TEST(test_async_members)
{
	struct result r;

	compile_src(&r,
		    "define file name=f,path=/tmp,size=1m,prealloc\n"
		    "define flowop name=c, choose {\n"
		    "  flowop aioread name=a,filename=f,iosize=4k,iodepth=16,weight=7\n"
		    "  flowop aiowrite name=b,filename=f,iosize=4k,iodepth=16,weight=3\n"
		    "}\n"
		    "define process name=p { thread name=t { flowop c name=x } }\nrun 1\n");
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	release(&r);
	compile_src(&r,
		    "define file name=f,path=/tmp,size=1m,prealloc\n"
		    "define flowop name=c, choose {\n"
		    "  flowop aioread name=a,filename=f,iosize=4k,iodepth=16,weight=7\n"
		    "  flowop aiowrite name=b,filename=f,iosize=4k,iodepth=8,ioengine=libaio,weight=3\n"
		    "  flowop read name=s,filename=f,iosize=4k,weight=1\n"
		    "}\n"
		    "define process name=p { thread name=t { flowop c name=x } }\nrun 1\n");
	HAS(&r, "t.f:5:3: flowop x.s: a member of choice x, whose asynchronous members "
	    "share one queue of iodepth 16 (as fio's rw=randrw does), must be an aioread "
	    "or aiowrite with that iodepth");
	HAS(&r, "flowop x.b: its iodepth differs from that of x.a: the asynchronous members "
	    "of choice x share one queue (as fio's rw=randrw does), so they take the same iodepth");
	HAS(&r, "flowop x.b: its ioengine differs from that of x.a");
	ck_assert_int_eq(r.errors, 3);
	release(&r);
}
END_TEST

static Suite *choose_suite(void)
{
	Suite *s = suite_create("choose");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_plan);
	tcase_add_test(tc, test_choose_values);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_nested_member);
	tcase_add_test(tc, test_compat_refuses);
	tcase_add_test(tc, test_seqfollows);
	tcase_add_test(tc, test_async_members);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(choose_suite)
