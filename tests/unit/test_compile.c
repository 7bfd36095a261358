/*
 * test_compile.c - the compiler: late binding, -D overrides, attribute
 * checking with suggestions, arithmetic, and the plan it lays out; the
 * limits on expression depth, composite nesting and flowops (compiler.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "lang/ast.h"
#include "lang/parse.h"
#include "lang/compile.h"
#include "lang/compiler.h"
#include "plan/diag.h"

#include "tests/unit/check_main.h"
#include "tests/unit/compiled.h"

static void compile_src(struct result *r, const char *src, const char *const *defs)
{
	FILE *f;
	struct diag d;
	struct compile_define cdefs[8];
	struct compile_options opts = { .registry = &flowops_registry,
					.defines = cdefs };

	memset(r, 0, sizeof(*r));
	f = open_memstream(&r->msgs, &r->len);
	ck_assert_ptr_nonnull(f);
	diag_init(&d, "t.f", src, strlen(src), f);
	ck_assert_int_eq(ast_parse("t.f", src, strlen(src), &d, &r->script), 0);
	for (; defs && defs[0]; defs += 2) {
		cdefs[opts.ndefines].name = defs[0];
		cdefs[opts.ndefines].value =
			ast_parse_value(defs[0], defs[1], &d, &r->script.arena);
		cdefs[opts.ndefines].used = false;
		opts.ndefines++;
	}
	r->errors = compile_script(&r->script, &opts, &d, &r->plan);
	fclose(f);
}

#define HAS(r, text) \
	ck_assert_msg(strstr((r)->msgs, (text)) != NULL, \
		      "expected message \"%s\", got:\n%s", (text), (r)->msgs)

static const char randomrw[] =
	"set $dir=/tmp\n"
	"set $filesize=5g\n"
	"set $nthreads=8\n"
	"set $iosize=8k\n"
	"define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse\n"
	"define process name=rand-rw,instances=1\n"
	"{\n"
	"  thread name=rand-r-thread,memsize=5m,instances=$nthreads\n"
	"  {\n"
	"    flowop read name=rand-read1,filename=largefile1,iosize=$iosize,random\n"
	"  }\n"
	"  thread name=rand-w-thread,memsize=5m,instances=$nthreads\n"
	"  {\n"
	"    flowop write name=rand-write1,filename=largefile1,iosize=$iosize,random\n"
	"  }\n"
	"}\n"
	"run 60\n";

START_TEST(test_randomrw_plan)
{
	struct result r;
	const struct plan *p;

	compile_src(&r, randomrw, NULL);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	p = &r.plan;
	ck_assert_int_eq(p->nfilesets, 1);
	ck_assert_str_eq(p->filesets[0].name, "largefile1");
	ck_assert_str_eq(p->filesets[0].path, "/tmp");
	ck_assert_uint_eq(p->filesets[0].size, 5ull << 30);
	ck_assert_int_eq(p->filesets[0].prealloc_pct, 100);
	ck_assert(p->filesets[0].reuse);
	ck_assert(p->filesets[0].is_file);
	ck_assert_int_eq(p->nprocs, 1);
	ck_assert_int_eq(p->procs[0].nthreads, 2);
	ck_assert_int_eq(p->nthreads, 2);
	ck_assert_uint_eq(p->threads[0].instances, 8);
	ck_assert_uint_eq(p->threads[1].memsize, 5u << 20);
	ck_assert_int_eq(p->nflowops, 2);
	ck_assert_str_eq(p->flowops[0].name, "rand-read1");
	ck_assert_ptr_eq(p->flowops[0].ops, flowop_registry_lookup(&flowops_registry, "read"));
	ck_assert_ptr_eq(p->flowops[1].ops, flowop_registry_lookup(&flowops_registry, "write"));
	ck_assert_int_eq(p->flowops[1].thread, 1);
	ck_assert_int_eq(p->flowops[0].fileset, 0);
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(&p->flowops[0], "iosize"), 0), 8192);
	ck_assert(plan_value_bool(plan_flowop_attr(&p->flowops[0], "random"), false));
	ck_assert(plan_flowop_attr(&p->flowops[0], "dsync")->kind == PV_UNSET);
	ck_assert(p->has_run);
	ck_assert(p->runtime_s == 60);
	release(&r);
}
END_TEST

START_TEST(test_late_binding)
{
	struct result r;

	compile_src(&r,
		    "set $n=1\n"
		    "define file name=f,path=/tmp,size=$sz\n"
		    "define process name=p,instances=$n\n"
		    "{ thread name=t { flowop read name=r,filename=f,iosize=4k } }\n"
		    "set $n=4\n"
		    "set $sz=1m\n"
		    "run\n", NULL);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	ck_assert_uint_eq(r.plan.procs[0].instances, 4);
	ck_assert_uint_eq(r.plan.filesets[0].size, 1 << 20);
	ck_assert(r.plan.runtime_s == 60);  /* `run` without a time */
	release(&r);
}
END_TEST

START_TEST(test_define_overrides_set)
{
	struct result r;
	const char *const defs[] = { "nthreads", "3", "filesize", "64m", NULL };

	compile_src(&r, randomrw, defs);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	ck_assert_uint_eq(r.plan.threads[0].instances, 3);
	ck_assert_uint_eq(r.plan.filesets[0].size, 64ull << 20);
	release(&r);
}
END_TEST

START_TEST(test_define_typo)
{
	struct result r;
	const char *const defs[] = { "filesze", "64m", NULL };

	compile_src(&r, randomrw, defs);
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f: -D filesze: the script has no variable '$filesze' (did you mean 'filesize'?)");
	release(&r);
}
END_TEST

START_TEST(test_unknown_attribute)
{
	struct result r;

	compile_src(&r,
		    "define file name=f,path=/tmp\n"
		    "define process name=p { thread name=t {\n"
		    "  flowop read name=r,filename=f,iosze=8k\n"
		    "} }\nrun 1\n", NULL);
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:3:33: unknown attribute 'iosze' for flowop read (did you mean 'iosize'?)");
	HAS(&r, "    flowop read name=r,filename=f,iosze=8k\n");
	release(&r);
}
END_TEST

/*
 * A process's per-op log attributes (lang/oplogattrs.c): into
 * plan_proc.log, a bare prefix the process's name; every setting
 * without its log, a bad window and a bad prefix a located error.
 */
START_TEST(test_oplog_attrs)
{
	static const char head[] = "define file name=f,path=/tmp,size=1m\n";
	struct result r;
	char src[512];
	const struct plan_oplog *l;

	compile_src(&r, "define file name=f,path=/tmp,size=1m\n"
		    "define process name=p,latlog,bwlog=\"d/b\",histlog=\"h\",loghistmsec=20,"
		    "loghistcoarseness=3,logavgmsec=5,logoffset,logshared { thread name=t {\n"
		    "  flowop read name=r,filename=f,iosize=8k\n} }\nrun 1\n", NULL);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	l = &r.plan.procs[0].log;
	ck_assert_str_eq(l->prefix[PLAN_OPLOG_LAT], "p");
	ck_assert_str_eq(l->prefix[PLAN_OPLOG_BW], "d/b");
	ck_assert_ptr_null(l->prefix[PLAN_OPLOG_IOPS]);
	ck_assert_str_eq(l->prefix[PLAN_OPLOG_HIST], "h");
	ck_assert_uint_eq(l->hist_msec, 20);
	ck_assert_int_eq(l->hist_coarseness, 3);
	ck_assert_uint_eq(l->avg_msec, 5);
	ck_assert(l->offset && l->shared);
	ck_assert_int_eq(l->loc.line, 2);
	release(&r);

	static const struct { const char *attrs, *msg; } bad[] = {
		{ "histlog=\"h\"", "t.f:2:31: process 'p': histlog= needs loghistmsec=" },
		{ "latlog=\"x\",loghistmsec=5", "t.f:2:46: process 'p': loghistmsec= is the histogram log's window, and it has no histlog=" },
		{ "latlog=\"x\",loghistcoarseness=1", "loghistcoarseness= is the histogram log's, and it has no histlog=" },
		{ "logavgmsec=10", "t.f:2:34: process 'p': logavgmsec= applies to its per-op logs, and it has none" },
		{ "logoffset", "logoffset= applies to its per-op logs" },
		{ "latlog=false,logshared", "logshared= applies to its per-op logs" },
		{ "histlog=\"h\",loghistmsec=5,logavgmsec=10", "logavgmsec= averages latlog=, bwlog= and iopslog=" },
		{ "latlog=\"x\",logavgmsec=-1", "logavgmsec=-1 is not a window in milliseconds (0 to 1000000000000)" },
		{ "histlog=\"h\",loghistmsec=0", "loghistmsec=0 is not a window in milliseconds (1 to" },
		{ "histlog=\"h\",loghistmsec=5,loghistcoarseness=7", "loghistcoarseness=7 is not 0 to 6" },
		{ "latlog=\"\"", "latlog=\"\" needs a prefix for its files' names" },
		{ "bwlog=\"dir/\"", "bwlog=\"dir/\" needs a prefix" },
		{ "iopslog=3", "iopslog= needs a prefix for its files' names (a string)" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(src, sizeof(src), "%sdefine process name=p,%s { thread name=t {\n"
			 "  flowop read name=r,filename=f,iosize=8k\n} }\nrun 1\n", head,
			 bad[i].attrs);
		compile_src(&r, src, NULL);
		ck_assert_msg(r.errors >= 1, "%s: no error", bad[i].attrs);
		HAS(&r, bad[i].msg);
		release(&r);
	}
}
END_TEST

START_TEST(test_flowop_names)
{
	struct result r;

	compile_src(&r,
		    "define file name=f,path=/tmp\n"
		    "define process name=p { thread name=t {\n"
		    "  flowop reed name=a,filename=f,iosize=8k\n"
		    "  flowop aiowait name=b\n"
		    "  flowop read name=c,filename=f,iosize=8k,target=x\n"
		    "  flowop read name=d,filename=g,iosize=8k\n"
		    "  flowop read name=a2,filename=f,iosize=8k\n"
		    "  flowop write name=a2,filename=f,iosize=8k\n"
		    "} }\nrun 1\n", NULL);
	HAS(&r, "t.f:3:10: unknown flowop 'reed' (did you mean 'read'?)");
	/* line 4: aiowait is implemented (flowops/aio.c): no error */
	HAS(&r, "t.f:5:43: flowop read does not take attribute 'target'");
	HAS(&r, "flowop d: no file or fileset named 'g'");
	HAS(&r, "warning: flowop name 'a2' is used again: its statistics join the first 'a2' in one line");
	HAS(&r, "note: first used here");
	ck_assert_int_eq(r.errors, 3);   /* the repeated name is a warning */
	release(&r);
}
END_TEST

START_TEST(test_value_types)
{
	struct result r;

	compile_src(&r,
		    "define file name=f,path=/tmp,size=big,prealloc=150\n"
		    "define process name=p,instances=-1 { thread name=t,instances=0 {\n"
		    "  flowop read name=r,filename=f,iosize=1.5,random=maybe\n"
		    "  flowop write name=w,filename=f,iosize=4k,iters=0\n"
		    "} }\nrun 1\n", NULL);
	HAS(&r, "t.f:4:50: flowop w: iters must be at least 1");
	HAS(&r, "attribute 'size' needs a number, not a string 'big'");
	HAS(&r, "attribute 'prealloc' is a percentage (0..100), not 150");
	HAS(&r, "attribute 'instances' must not be negative (-1)");
	HAS(&r, "thread 't': instances must be at least 1");
	HAS(&r, "attribute 'iosize' needs a whole number, not 1.5");
	HAS(&r, "attribute 'random' needs true or false, not 'maybe'");
	release(&r);
}
END_TEST

START_TEST(test_arithmetic)
{
	struct result r;

	compile_src(&r,
		    "set $a = 2 * (3 + 4)\n"
		    "set $b = $a / 4\n"
		    "set $c = $a - 20\n"
		    "set $half = 1.5k\n"
		    "define file name=f,path=/tmp,size=$a * 0 + $half\n"
		    "echo \"a=$a b=$b c=$c\"\n"
		    "set $z = $a / 0\n"
		    "set $w = $nope + 1\n"
		    "set $s = dir + 1\n", NULL);
	HAS(&r, "division by zero");
	HAS(&r, "variable '$nope' is not set (set it in the script, or on the command line with -D nope=VALUE)");
	HAS(&r, "'+' needs numbers, not a string");
	ck_assert_int_eq(r.errors, 3);
	ck_assert_int_eq(r.plan.nactions, 1);
	ck_assert_str_eq(r.plan.actions[0].text, "a=14 b=3.5 c=-6");
	release(&r);
}
END_TEST

START_TEST(test_unset_variable_suggestion)
{
	struct result r;

	compile_src(&r,
		    "set $filesize=1m\n"
		    "define file name=f,path=/tmp,size=$filesze\n"
		    "define process name=p { thread name=t { flowop read name=r,filename=f,iosize=4k } }\n"
		    "run 1\n", NULL);
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:2:35: variable '$filesze' is not set (did you mean '$filesize'?)");
	release(&r);
}
END_TEST

START_TEST(test_after_run)
{
	struct result r;

	compile_src(&r,
		    "define file name=f,path=/tmp\n"
		    "run 5\n"
		    "echo \"never\"\n", NULL);
	HAS(&r, "t.f:3:1: commands after 'run' are never executed");
	release(&r);
}
END_TEST

static void compile_opts(struct result *r, const char *src,
			 struct compile_options *opts)
{
	compile_with(r, src, opts);
}

static const char proc_src[] =
	"define file name=f,path=/tmp,size=1m,prealloc\n"
	"define process name=p { thread name=t { flowop read name=r,filename=f,iosize=4k } }\n";

START_TEST(test_statements)
{
	struct result r;
	char src[1024];
	struct compile_options opts = { .registry = &flowops_registry, .seed = 42 };

	snprintf(src, sizeof(src),
		 "set $rate=10\n"
		 "eventgen rate=$rate\n"
		 "enable lathist\n"
		 "sleep 2\n"
		 "version\n"
		 "list filesets\n"
		 "list flowop\n"
		 "debug 3\n"
		 "%s"
		 "set $rate=250\n"
		 "psrun -10 60\n", proc_src);
	compile_opts(&r, src, &opts);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	ck_assert(r.plan.has_run);
	ck_assert(r.plan.psrun_period == -10);
	ck_assert(r.plan.runtime_s == 60);
	ck_assert(r.plan.lathist);
	ck_assert_int_eq(r.plan.eventgen_rate.kind, PV_DOUBLE);
	ck_assert(r.plan.eventgen_rate.u.d == 250);   /* late-bound */
	ck_assert_uint_eq(r.plan.seed, 42);
	ck_assert_int_eq(r.plan.nactions, 4);
	ck_assert_int_eq(r.plan.actions[0].kind, PLAN_ACTION_SLEEP);
	ck_assert(r.plan.actions[0].num == 2);
	ck_assert_int_eq(r.plan.actions[1].kind, PLAN_ACTION_VERSION);
	ck_assert_int_eq(r.plan.actions[2].kind, PLAN_ACTION_LIST_FILESETS);
	ck_assert_int_eq(r.plan.actions[3].kind, PLAN_ACTION_LIST_FLOWOPS);
	HAS(&r, "t.f:8:1: warning: 'debug' has no effect");
	release(&r);

	/* psrun alone: period 10, 60 s; firstdone without a time: unbounded */
	snprintf(src, sizeof(src), "%spsrun\n", proc_src);
	compile_opts(&r, src, &opts);
	ck_assert(r.plan.psrun_period == 10 && r.plan.runtime_s == 60);
	release(&r);
	snprintf(src, sizeof(src), "set mode quit firstdone\n%srun\n", proc_src);
	compile_opts(&r, src, &opts);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	ck_assert(r.plan.runtime_s == 0);
	ck_assert(r.plan.psrun_period == 0);
	release(&r);
}
END_TEST

START_TEST(test_system_needs_consent)
{
	struct result r;
	struct compile_options opts = { .registry = &flowops_registry };

	compile_opts(&r, "set $d=/tmp\nsystem \"ls \" \"$d\"\n", &opts);
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:2:1: 'system' runs a shell command; flowbench runs it only with --allow-system");
	release(&r);
	opts.allow_system = true;
	compile_opts(&r, "set $d=/tmp\nsystem \"ls \" \"$d\"\n", &opts);
	ck_assert_int_eq(r.errors, 0);
	ck_assert_int_eq(r.plan.nactions, 1);
	ck_assert_int_eq(r.plan.actions[0].kind, PLAN_ACTION_SYSTEM);
	ck_assert_str_eq(r.plan.actions[0].text, "ls /tmp");
	ck_assert(r.plan.allow_system);
	release(&r);
}
END_TEST

START_TEST(test_unsupported_and_quit)
{
	struct result r;

	compile_src(&r,
		    "enable multi master=localhost,client=c1\n"
		    "domultisync value=1\n"
		    "enable lathst\n"
		    "list flowops\n"
		    "eventgen rte=5\n"
		    "enable lathist rate=3\n"
		    "psrun 0\n", NULL);
	HAS(&r, "t.f:6:16: 'enable lathist' takes no attributes");
	HAS(&r, "t.f:1:1: 'enable multi' (filebench's multi-client synchronisation) is not supported by flowbench");
	HAS(&r, "t.f:2:1: 'domultisync' (filebench's multi-client synchronisation) is not supported");
	HAS(&r, "t.f:3:1: unknown 'enable lathst' (did you mean 'lathist'?)");
	HAS(&r, "t.f:4:1: unknown 'list flowops' (did you mean 'flowop'?)");
	HAS(&r, "t.f:5:10: unknown attribute 'rte' for eventgen (did you mean 'rate'?)");
	HAS(&r, "t.f:7:7: psrun: the period must not be 0");
	release(&r);

	compile_src(&r, "echo \"a\"\nquit\nrun 3\n", NULL);
	HAS(&r, "t.f:3:1: commands after 'quit' are never executed");
	release(&r);
	compile_src(&r, "echo \"a\"\nquit\n", NULL);
	ck_assert_int_eq(r.errors, 0);
	ck_assert(!r.plan.has_run);
	ck_assert_int_eq(r.plan.actions[r.plan.nactions - 1].kind, PLAN_ACTION_QUIT);
	release(&r);
}
END_TEST

START_TEST(test_fileset)
{
	struct result r;
	const struct plan_fileset *fs;

	compile_src(&r,
		    "set $n=1000\n"
		    "define fileset name=big,path=/tmp,entries=$n,dirwidth=20,size=16k,"
		    "prealloc=80,leafdirs=5,reuse,trusttree,readonly,paralloc\n"
		    "define fileset name=small,path=/tmp,entries=10,dirwidth=3,dirgamma=0\n"
		    "define fileset name=bad,path=/tmp,entries=10\n"
		    "define fileset name=bad2,path=/tmp,entries=10,dirwidth=0,dirdepthrv=3\n"
		    "define fileset name=empty,path=/tmp\n", NULL);
	HAS(&r, "t.f:4:1: fileset 'bad' needs a directory width (dirwidth=...)");
	HAS(&r, "t.f:5:69: fileset 'bad2': dirdepthrv must name a random variable");
	HAS(&r, "t.f:5:56: fileset 'bad2': dirwidth must be at least 1");
	HAS(&r, "t.f:6:1: fileset 'empty' has no entries and no leafdirs: it would be empty");
	ck_assert_int_eq(r.errors, 4);
	fs = &r.plan.filesets[0];
	ck_assert(!fs->is_file);
	ck_assert_uint_eq(fs->entries, 1000);
	ck_assert(fs->dirwidth == 20);
	ck_assert_int_eq(fs->dirgamma, 1500);
	ck_assert_uint_eq(fs->size, 16384);
	ck_assert_int_eq(fs->size_rv, -1);
	ck_assert_int_eq(fs->prealloc_pct, 80);
	ck_assert_uint_eq(fs->leafdirs, 5);
	ck_assert(fs->reuse && fs->trusttree && fs->readonly && fs->paralloc);
	ck_assert(!fs->writeonly);
	ck_assert_int_eq(r.plan.filesets[1].dirgamma, 0);
	release(&r);
}
END_TEST

START_TEST(test_modes_and_file_rules)
{
	struct result r;

	compile_src(&r,
		    "set mode quit firstdone\n"
		    "set mode nousestats\n"
		    "define file name=f,path=/tmp,entries=3\n"
		    "define file name=g\n"
		    "define file name=f,path=/tmp\n"
		    "run 2\n", NULL);
	ck_assert_int_eq(r.plan.quit_mode, QUIT_FIRSTDONE);
	HAS(&r, "attribute 'entries' belongs to 'define fileset', not 'define file'");
	HAS(&r, "file 'g' needs a path (path=...)");
	HAS(&r, "file 'f' is defined twice");
	ck_assert_int_eq(r.errors, 3);  /* 'entries' is reported once */
	release(&r);
}
END_TEST

START_TEST(test_quit_mode_typo)
{
	struct result r;

	compile_src(&r, "set mode quit firstdne\n", NULL);
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "unknown quit mode 'firstdne' (did you mean 'firstdone'?)");
	release(&r);
}
END_TEST

START_TEST(test_runtime_option)
{
	struct result r;
	struct compile_options opts = { .registry = &flowops_registry,
					.runtime_given = true, .runtime_s = 2.5 };
	struct diag d;
	FILE *f;

	memset(&r, 0, sizeof(r));
	f = open_memstream(&r.msgs, &r.len);
	diag_init(&d, "t.f", randomrw, strlen(randomrw), f);
	ck_assert_int_eq(ast_parse("t.f", randomrw, strlen(randomrw), &d, &r.script), 0);
	ck_assert_int_eq(compile_script(&r.script, &opts, &d, &r.plan), 0);
	fclose(f);
	ck_assert(r.plan.runtime_s == 2.5);
	release(&r);
}
END_TEST

START_TEST(test_composite)
{
	struct result r;
	const struct plan *p;

	compile_src(&r,
		    "set $fs=f\n"
		    "define file name=f,path=/tmp,size=1m,prealloc\n"
		    "define flowop name=readtwice, $io=4k, $n {\n"
		    "  flowop read name=r,filename=$fs,iosize=$io,iters=$n\n"
		    "  flowop write name=w,filename=f,iosize=$io\n"
		    "}\n"
		    "define flowop name=outer, iters=3 {\n"
		    "  flowop readtwice name=in, $n=2\n"
		    "}\n"
		    "define process name=p { thread name=t {\n"
		    "  flowop readtwice name=a, iters=5, $io=8k, $n=7\n"
		    "  flowop outer name=b\n"
		    "  flowop read name=plain,filename=f,iosize=4k\n"
		    "} }\nrun 1\n", NULL);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	p = &r.plan;
	ck_assert_int_eq(p->nflowops, 8);
	ck_assert_int_eq(p->threads[0].nflowops, 8);
	ck_assert_str_eq(p->flowops[0].name, "a");
	ck_assert_ptr_eq(p->flowops[0].ops, flowops_registry.composite);
	ck_assert_int_eq(p->flowops[0].ndesc, 2);
	ck_assert_int_eq(plan_attr_int(&p->flowops[0], PA_ITERS, 1), 5);
	ck_assert_str_eq(p->flowops[1].name, "a.r");
	ck_assert_int_eq(p->flowops[1].depth, 1);
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(&p->flowops[1], "iosize"), 0), 8192);
	ck_assert_int_eq(plan_attr_int(&p->flowops[1], PA_ITERS, 0), 7);
	ck_assert_int_eq(p->flowops[1].fileset, 0);
	ck_assert_str_eq(p->flowops[2].name, "a.w");
	/* outer: definition iters as the default, nested invocation */
	ck_assert_str_eq(p->flowops[3].name, "b");
	ck_assert_int_eq(p->flowops[3].ndesc, 3);
	ck_assert_int_eq(plan_attr_int(&p->flowops[3], PA_ITERS, 1), 3);
	ck_assert_str_eq(p->flowops[4].name, "b.in");
	ck_assert_int_eq(p->flowops[4].ndesc, 2);
	ck_assert_str_eq(p->flowops[5].name, "b.in.r");
	ck_assert_int_eq(p->flowops[5].depth, 2);
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(&p->flowops[5], "iosize"), 0), 4096);
	ck_assert_int_eq(plan_attr_int(&p->flowops[5], PA_ITERS, 0), 2);
	ck_assert_str_eq(p->flowops[7].name, "plain");
	ck_assert_int_eq(p->flowops[7].ndesc, 0);
	release(&r);
}
END_TEST

START_TEST(test_composite_errors)
{
	struct result r;

	compile_src(&r,
		    "define file name=f,path=/tmp\n"
		    "define flowop name=c, $io {\n"
		    "  flowop read name=r,filename=f,iosize=$io\n"
		    "}\n"
		    "define flowop name=self {\n"
		    "  flowop self name=again\n"
		    "}\n"
		    "define flowop name=read { flowop write name=w,filename=f,iosize=1k }\n"
		    "define process name=p { thread name=t {\n"
		    "  flowop c name=x\n"
		    "  flowop c name=y, $ioo=4k, filename=f\n"
		    "  flowop self name=z\n"
		    "  flowop read name=q,filename=f,iosize=1k,$io=3\n"
		    "} }\nrun 1\n", NULL);
	HAS(&r, "t.f:3:40: local variable '$io' of composite 'c' has no value");
	HAS(&r, "t.f:11:20: composite 'c' has no local variable '$ioo' (did you mean '$io'?)");
	HAS(&r, "t.f:11:29: composite flowop 'c' takes name, iters, weight and its local variables, not 'filename'");
	HAS(&r, "t.f:6:10: composite 'self' invokes itself");
	HAS(&r, "t.f:8:8: a composite flowop cannot be named 'read': that is a built-in flowop");
	HAS(&r, "t.f:13:43: local variable '$io' is only allowed in a composite flowop");
	release(&r);
}
END_TEST

START_TEST(test_random_variables)
{
	struct result r;
	const struct plan *p;

	compile_src(&r,
		    "set $sz = cvar(type=cvar-gamma, parameters=mean:16384;gamma:1.5)\n"
		    "set $io = randvar(type=tabular, min=4k, round=4k, randtable={{50,4k,8k},{50,8k,16k}})\n"
		    "define randvar name=$iters, type=uniform, min=1, mean=5\n"
		    "define fileset name=fs,path=/tmp,entries=10,dirwidth=5,size=$sz\n"
		    "define process name=p { thread name=t {\n"
		    "  flowop read name=r,filename=fs,iosize=$io,iters=$iters\n"
		    "} }\n"
		    "echo \"io is a $io\"\n"
		    "run 1\n", NULL);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	p = &r.plan;
	ck_assert_int_eq(p->nrandvars, 3);
	ck_assert_int_eq(p->filesets[0].size_rv, 0);
	ck_assert_int_eq(plan_flowop_attr(&p->flowops[0], "iosize")->kind, PV_RANDOM);
	ck_assert_int_eq(plan_flowop_attr(&p->flowops[0], "iosize")->u.rv, 1);
	ck_assert_int_eq(p->flowops[0].attr[PA_ITERS].kind, PV_RANDOM);
	ck_assert_int_eq(p->flowops[0].attr[PA_ITERS].u.rv, 2);
	ck_assert_str_eq(p->actions[0].text, "io is a random variable");
	release(&r);

	compile_src(&r,
		    "set $a = randvar(type=gamma, mean=10, gamma=1500)\n"
		    "set $b = $a + 1\n"
		    "define file name=f,path=$a\n"
		    "define process name=p,instances=$a { thread name=t,memsize=$a {\n"
		    "  flowop read name=r,filename=f,iosize=$a,fd=$a,workingset=$a\n"
		    "} }\n", NULL);
	HAS(&r, "t.f:2:13: '+' needs numbers, not a random variable");
	HAS(&r, "t.f:3:25: attribute 'path' cannot be a random variable: it is read once, not per use");
	HAS(&r, "t.f:4:33: attribute 'instances' cannot be a random variable");
	HAS(&r, "t.f:4:60: attribute 'memsize' cannot be a random variable");
	HAS(&r, "t.f:5:46: attribute 'fd' cannot be a random variable");
	HAS(&r, "t.f:5:60: attribute 'workingset' cannot be a random variable");
	ck_assert_int_eq(r.errors, 6);   /* iosize=$a is fine */
	release(&r);
}
END_TEST

START_TEST(test_legacy_and_variables)
{
	struct result r;
	const struct plan *p;

	compile_src(&r,
		    "set $dir=/tmp\n"
		    "set $n=2\n"
		    "define fileset name=fs,path=$dir,entries=10,dirwidth=5,size=16k,filesizegamma=1500\n"
		    "define process name=p { thread name=t { flowop openfile name=o,filename=fs } }\n"
		    "usage \"Usage: set \\$dir=<dir>   defaults to $dir\"\n"
		    "usage \"       $never_set is fine here\"\n"
		    "run 1\n", NULL);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	p = &r.plan;
	ck_assert_int_ge(p->filesets[0].size_rv, 0);   /* gamma sizes, mean 16k */
	ck_assert_int_eq(p->nrandvars, 1);
	ck_assert_int_eq(p->nvars, 2);
	ck_assert_str_eq(p->var_names[0], "dir");
	ck_assert_int_eq(p->var_values[0].kind, PV_STRING);
	ck_assert_str_eq(p->var_values[0].u.s, "/tmp");
	ck_assert_str_eq(p->var_names[1], "n");
	ck_assert_int_eq(p->var_values[1].u.i, 2);
	release(&r);
}
END_TEST

/*
 * Time values past PLAN_MAX_SECONDS (10^9 s) and out-of-range event rates
 * are refused where they are written: a run of 2e10 s used to overflow
 * the deadline in nanoseconds and end at once with status 0.
 */
static const char time_script[] =
	"set $t=1\n"
	"set $rate=10\n"
	"eventgen rate=$rate\n"
	"sleep $t\n"
	"define process name=p {\n"
	"  thread name=t {\n"
	"    flowop delay name=nap,value=$t\n"
	"  }\n"
	"}\n"
	"run $t\n";

START_TEST(test_time_limits)
{
	static const char *const huge[] = { "t", "20000000000", NULL };
	static const char *const limit[] = { "t", "1000000000", NULL };
	static const char *const negative[] = { "t", "-1", NULL };
	static const char *const fast[] = { "rate", "2000000000", NULL };
	static const char *const slow[] = { "rate", "-5", NULL };
	struct result r;

	compile_src(&r, time_script, huge);
	ck_assert_int_eq(r.errors, 3);
	HAS(&r, "t.f:4:7: sleep: 20000000000 s is more than flowbench's limit of 1000000000 s");
	HAS(&r, "t.f:7:33: flowop nap: 20000000000 s is more than flowbench's limit of 1000000000 s");
	HAS(&r, "t.f:10:5: run: 20000000000 s is more than flowbench's limit of 1000000000 s");
	release(&r);

	compile_src(&r, time_script, limit);        /* the limit itself is fine */
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	ck_assert(r.plan.runtime_s == 1e9);
	release(&r);

	compile_src(&r, time_script, negative);
	HAS(&r, "t.f:7:33: flowop nap: delay value (seconds) must not be negative");
	HAS(&r, "t.f:10:5: run: seconds must not be negative");
	release(&r);

	compile_src(&r, time_script, fast);
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:3:15: eventgen rate=2000000000: the rate must be from 0 (no events) to flowbench's limit of 1000000000 events per second");
	release(&r);
	compile_src(&r, time_script, slow);
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "eventgen rate=-5: the rate must be from 0");
	release(&r);

	/* psrun: the period (either sign) and the duration */
	compile_src(&r,
		    "define process name=p { thread name=t { flowop delay name=d,value=1 } }\n"
		    "psrun -3000000000 5000000000\n", NULL);
	ck_assert_int_eq(r.errors, 2);
	HAS(&r, "t.f:2:7: psrun: -3000000000 s is less than flowbench's limit of -1000000000 s");
	HAS(&r, "t.f:2:19: psrun: 5000000000 s is more than flowbench's limit of 1000000000 s");
	release(&r);
}
END_TEST

/* ---- limits on nesting and expansion ----------------------------------- */

/* `s` + n copies of `unit` + `tail`, malloc'ed. */
static char *repeat(const char *s, const char *unit, int n, const char *tail)
{
	size_t len = strlen(s) + (size_t)n * strlen(unit) + strlen(tail);
	char *out = malloc(len + 1), *p;

	ck_assert_ptr_nonnull(out);
	p = stpcpy(out, s);
	for (int i = 0; i < n; i++)
		p = stpcpy(p, unit);
	stpcpy(p, tail);
	return out;
}

/* The value the plan exported for variable `name`. */
static const struct plan_value *exported(const struct plan *p, const char *name)
{
	for (int i = 0; i < p->nvars; i++)
		if (strcmp(p->var_names[i], name) == 0)
			return &p->var_values[i];
	ck_abort_msg("variable '%s' not exported", name);
	return NULL;
}

/*
 * Expressions at the parser's depth limit are evaluated (recursively),
 * and searched for a -D name, without trouble: the limit is what makes
 * that recursion safe.
 */
START_TEST(test_deepest_expressions_evaluate)
{
	/* 1+1+...+$y: 999 '+', depth 1000 */
	char *sum = repeat("set $x = 1", "+1", AST_MAX_DEPTH - 2, "+$y\n");
	/* 998 pairs of parentheses around -7: depth 1000 */
	char *par = repeat("set $p = ", "(", AST_MAX_DEPTH - 2, "-7");
	char *calls = repeat("set $r = ", "randvar(type=uniform, min=1, mean=",
			     AST_MAX_DEPTH - 2,
			     "randvar(type=uniform, min=1, mean=2)");
	char *src, *close = repeat("", ")", AST_MAX_DEPTH - 2, "");
	static const char *const defs[] = { "y", "1", NULL };
	struct result r;

	ck_assert_int_ne(asprintf(&src, "%s%s%s\n%s%s\nrun 1\n", sum, par,
				  close, calls, close), -1);
	compile_src(&r, src, defs);
	/* the innermost call is a random variable: its caller says so once */
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "randvar(): 'mean' cannot be a random variable");
	release(&r);

	/* without the calls: no error, and the values are right */
	free(src);
	ck_assert_int_ne(asprintf(&src, "%s%s%s\nrun 1\n", sum, par, close), -1);
	compile_src(&r, src, defs);
	HAS(&r, "nothing to run");
	ck_assert_int_eq(r.errors, 1);
	ck_assert_int_eq(exported(&r.plan, "x")->u.i, AST_MAX_DEPTH);
	ck_assert_int_eq(exported(&r.plan, "p")->u.i, -7);
	release(&r);
	free(src);
	free(sum);
	free(par);
	free(calls);
	free(close);
}
END_TEST

/* c1 runs a hog; cK invokes c(K-1) `fan` times; the thread invokes cN. */
static char *composite_chain(int n, int fan)
{
	char *src = strdup("define flowop name=c1 { flowop hog name=h, value=1 }\n");

	ck_assert_ptr_nonnull(src);
	for (int k = 2; k <= n; k++) {
		char *more;

		ck_assert_int_ne(asprintf(&more, "%sdefine flowop name=c%d {", src, k), -1);
		free(src);
		for (int i = 0; i < fan; i++) {
			ck_assert_int_ne(asprintf(&src, "%s flowop c%d name=i%d", more,
						  k - 1, i), -1);
			free(more);
			more = src;
		}
		ck_assert_int_ne(asprintf(&src, "%s }\n", more), -1);
		free(more);
	}
	{
		char *more;

		ck_assert_int_ne(asprintf(&more,
					  "%sdefine process name=p { thread name=t { flowop c%d name=top } }\nrun 1\n",
					  src, n), -1);
		free(src);
		src = more;
	}
	return src;
}

/* Composites nest COMPOSITE_MAX_DEPTH deep, not one more. */
START_TEST(test_composite_nesting_limit)
{
	char *src = composite_chain(COMPOSITE_MAX_DEPTH, 1);
	struct result r;

	compile_src(&r, src, NULL);
	ck_assert_msg(r.errors == 0, "%s", r.msgs);
	/* the invocations and the hog at the bottom */
	ck_assert_int_eq(r.plan.nflowops, COMPOSITE_MAX_DEPTH + 1);
	release(&r);
	free(src);

	/* one more: refused where c1 is invoked, 65 levels down */
	src = composite_chain(COMPOSITE_MAX_DEPTH + 1, 1);
	compile_src(&r, src, NULL);
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:2:32: composite flowops nested too deeply (more than 64 levels)");
	release(&r);
	free(src);

	/* 3000 deep once overflowed the stack */
	src = composite_chain(3000, 1);
	compile_src(&r, src, NULL);
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "composite flowops nested too deeply (more than 64 levels)");
	release(&r);
	free(src);
}
END_TEST

/*
 * Each composite invoking the previous one twice, 40 deep: 2^40 flowops.
 * The expansion stops at the plan's limit, reported once, instead of
 * running for ever.
 */
START_TEST(test_flowop_limit)
{
	char *src = composite_chain(40, 2);
	char *flat;
	struct result r;

	compile_src(&r, src, NULL);
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "more than flowbench's limit of 100000 flowops in one run (composite invocations included)");
	ck_assert_int_eq(r.plan.nflowops, COMPILE_MAX_FLOWOPS);
	release(&r);
	free(src);

	/* the same limit without composites: 100000 flowops, then one more */
	flat = repeat("define process name=p { thread name=t {\n",
		      "flowop hog name=h, value=1\n",
		      COMPILE_MAX_FLOWOPS, "} }\nrun 1\n");
	compile_src(&r, flat, NULL);
	/* every hog after the first joins its line, with a warning each */
	ck_assert_int_eq(r.errors, 0);
	ck_assert_int_eq(r.plan.nflowops, COMPILE_MAX_FLOWOPS);
	release(&r);
	free(flat);
	flat = repeat("define process name=p { thread name=t {\n",
		      "flowop hog name=h, value=1\n",
		      COMPILE_MAX_FLOWOPS + 1, "} }\nrun 1\n");
	compile_src(&r, flat, NULL);
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:100002:1: more than flowbench's limit of 100000 flowops in one run");
	release(&r);
	free(flat);
}
END_TEST

/* How many times `needle` occurs in `hay`. */
static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/*
 * 31 flowops of one name: 30 warnings, each with a note, of which the
 * first 20 are shown, then one line saying the rest are only counted.
 * (Every warning quoted its line, found by a scan from the start of the
 * text: 20,000 of them in a 1 MB script took minutes.)
 */
START_TEST(test_warnings_capped)
{
	char *src = repeat("define process name=p { thread name=t {\n",
			   "flowop hog name=h, value=1\n", 31, "} }\nrun 1\n");
	struct result r;

	compile_src(&r, src, NULL);
	ck_assert_int_eq(r.errors, 0);
	ck_assert_int_eq(count_of(r.msgs, ": warning: flowop name 'h' is used again"), 20);
	ck_assert_int_eq(count_of(r.msgs, ": note: first used here"), 20);
	HAS(&r, "t.f:22:17: warning: flowop name 'h' is used again");
	HAS(&r, "t.f: too many warnings; the rest are counted, not shown\n");
	ck_assert_ptr_null(strstr(r.msgs, "t.f:23:17: warning"));
	HAS(&r, "^\nt.f:2:1: note: first used here\nt.f: too many warnings; the rest are counted, not shown\n");
	release(&r);
	free(src);
}
END_TEST

/* A composite whose invocation weighs 1000, invoked `n` times. */
static char *heavy_invocations(int n)
{
	/* name=c, the hog, name=h and 997 values: 1000 */
	char *def = repeat("define flowop name=c { flowop hog name=h", ", value=1",
			   997, " }\ndefine process name=p { thread name=t {\n");
	char *src = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&src, &len);

	ck_assert_ptr_nonnull(f);
	fputs(def, f);
	for (int i = 0; i < n; i++)
		fprintf(f, "flowop c name=x%d\n", i);
	fputs("} }\nrun 1\n", f);
	fclose(f);
	free(def);
	return src;
}

/*
 * A large composite invoked many times is work in proportion to the
 * product: 1000 invocations of a 1000-attribute definition are the
 * limit, one more is refused at its invocation (line 1003).
 */
START_TEST(test_expansion_limit)
{
	char *src = heavy_invocations(COMPILE_MAX_EXPANSION / 1000);
	struct result r;

	compile_src(&r, src, NULL);
	ck_assert_msg(r.errors == 0, "%.300s", r.msgs);
	ck_assert_int_eq(r.plan.nflowops, 2 * COMPILE_MAX_EXPANSION / 1000);
	release(&r);
	free(src);
	src = heavy_invocations(COMPILE_MAX_EXPANSION / 1000 + 1);
	compile_src(&r, src, NULL);
	ck_assert_int_eq(r.errors, 1);
	HAS(&r, "t.f:1003:8: composite invocations evaluate more than flowbench's limit of 1000000 attributes, local variables and flowops");
	release(&r);
	free(src);
}
END_TEST

/*
 * A script of `n` of everything that is looked up by name: variables
 * (set, and used unset: an error whose suggestion searches them all),
 * files, composites, one composite's locals, flowop names, flowops
 * naming a missing file.
 */
static char *many_names(int n)
{
	char *src = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&src, &len);

	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < n; i++)
		fprintf(f, "set $v%d = %d\nset $u%d = $w%d\n"
			"define fileset name=f%d,path=/tmp,size=1k\n"
			"define flowop name=c%d { flowop hog name=h, value=1 }\n",
			i, i, i, i, i, i);
	fputs("define flowop name=big", f);
	for (int i = 0; i < n; i++)
		fprintf(f, ", $l%d=%d", i, i);
	fprintf(f, " { flowop hog name=h, value=$l%d }\n", n - 1);
	fputs("define process name=p { thread name=t {\nflowop big name=b\n", f);
	for (int i = 0; i < n / 8; i++)
		fprintf(f, "flowop read name=r%d, filename=f%d, iosize=1k\n"
			"flowop c%d name=i%d\n"
			"flowop read name=m%d, filename=g%d, iosize=1k\n",
			i, i, i, i, i, i);
	fputs("} }\nrun 1\n", f);
	fclose(f);
	return src;
}

/* CPU time (s) of compiling `src`, the fastest of three. */
static double compile_seconds(const char *src)
{
	double best = 1e9;

	for (int k = 0; k < 3; k++) {
		struct timespec a, b;
		struct result r;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
		compile_src(&r, src, NULL);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
		ck_assert_int_gt(r.errors, 0);  /* the unset $w, missing g */
		release(&r);
		if (b.tv_sec - a.tv_sec + (b.tv_nsec - a.tv_nsec) / 1e9 < best)
			best = b.tv_sec - a.tv_sec + (b.tv_nsec - a.tv_nsec) / 1e9;
	}
	return best;
}

/*
 * Ten times the names take about ten times as long, not a hundred: every
 * lookup by name is a hash, and suggestions are searched only for the
 * errors that are shown.  (40,000 of each once took minutes; 1 MB of
 * `set $vN = 1` alone took 46 s with sanitizers.)  Measured against the
 * small script on this machine, so no absolute time is assumed.
 */
START_TEST(test_linear_in_names)
{
	char *small = many_names(4000), *big = many_names(40000);
	double ts = compile_seconds(small), tb = compile_seconds(big);

	ck_assert_msg(tb < 40 * ts + 0.05,
		      "4000 names: %.3f s, 40000: %.3f s (%.0f times)", ts, tb,
		      tb / ts);
	free(small);
	free(big);
}
END_TEST

static Suite *compile_suite(void)
{
	Suite *s = suite_create("compile");
	TCase *tc = tcase_create("core");
	TCase *limits = tcase_create("limits");

	tcase_add_test(tc, test_randomrw_plan);
	tcase_add_test(tc, test_late_binding);
	tcase_add_test(tc, test_define_overrides_set);
	tcase_add_test(tc, test_define_typo);
	tcase_add_test(tc, test_unknown_attribute);
	tcase_add_test(tc, test_oplog_attrs);
	tcase_add_test(tc, test_flowop_names);
	tcase_add_test(tc, test_value_types);
	tcase_add_test(tc, test_arithmetic);
	tcase_add_test(tc, test_unset_variable_suggestion);
	tcase_add_test(tc, test_after_run);
	tcase_add_test(tc, test_statements);
	tcase_add_test(tc, test_system_needs_consent);
	tcase_add_test(tc, test_unsupported_and_quit);
	tcase_add_test(tc, test_fileset);
	tcase_add_test(tc, test_composite);
	tcase_add_test(tc, test_composite_errors);
	tcase_add_test(tc, test_random_variables);
	tcase_add_test(tc, test_legacy_and_variables);
	tcase_add_test(tc, test_modes_and_file_rules);
	tcase_add_test(tc, test_quit_mode_typo);
	tcase_add_test(tc, test_runtime_option);
	tcase_add_test(tc, test_time_limits);
	suite_add_tcase(s, tc);

	tcase_add_test(limits, test_deepest_expressions_evaluate);
	tcase_add_test(limits, test_composite_nesting_limit);
	tcase_add_test(limits, test_flowop_limit);
	tcase_add_test(limits, test_warnings_capped);
	tcase_add_test(limits, test_expansion_limit);
	tcase_add_test(limits, test_linear_in_names);
	tcase_set_timeout(limits, 120);     /* sanitizers, valgrind */
	suite_add_tcase(s, limits);
	return s;
}

CHECK_MAIN(compile_suite)
