/*
 * test_preflight.c - what a plan needs (memory, descriptors, threads,
 * disk) estimated from the plan alone, compared with given limits; and
 * the compile-time limits on instances, entries and short reads.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flowops/registry.h"
#include "lang/ast.h"
#include "lang/parse.h"
#include "lang/compile.h"
#include "plan/diag.h"
#include "runtime/engine/preflight.h"
#include "runtime/engine/shared.h"
#include "runtime/measure/stats.h"

#include "tests/unit/check_main.h"
#include "tests/unit/compiled.h"

static void compile_src(struct result *r, const char *src)
{
	struct compile_options opts = { .registry = &flowops_registry };

	compile_with(r, src, &opts);
}

#define HAS(text, in) \
	ck_assert_msg(strstr((in), (text)) != NULL, \
		      "expected \"%s\", got:\n%s", (text), (in))

/* A valid script with one process and one thread, the parts given. */
static void compile_one(struct result *r, const char *fileset,
			const char *proc, const char *thread, const char *flowops)
{
	char src[1024];

	snprintf(src, sizeof(src),
		 "define fileset name=fs,path=/tmp,size=64k,entries=10,dirwidth=10%s\n"
		 "define process name=p%s {\n"
		 "  thread name=t%s {\n%s  }\n}\nrun 1\n",
		 fileset, proc, thread, flowops);
	compile_src(r, src);
}

/* Run `fn(p, l)` with stderr captured into `out` (log_error's messages). */
static int capture(int (*fn)(const struct plan *, const struct preflight_limits *),
		   const struct plan *p, const struct preflight_limits *l,
		   char *out, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), rc;
	size_t n;

	ck_assert_ptr_nonnull(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = fn(p, l);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(out, 1, len - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
	return rc;
}

static const struct preflight_limits roomy = {
	.mem_avail = UINT64_MAX, .nofile = UINT64_MAX,
	.nproc = UINT64_MAX, .threads_max = UINT64_MAX,
};

START_TEST(test_bytes)
{
	char b[32];

	ck_assert_str_eq(preflight_bytes(512, b, sizeof(b)), "512 bytes");
	ck_assert_str_eq(preflight_bytes(1024, b, sizeof(b)), "1 KiB");
	ck_assert_str_eq(preflight_bytes(1536, b, sizeof(b)), "1.5 KiB");
	ck_assert_str_eq(preflight_bytes(16ull << 40, b, sizeof(b)), "16 TiB");
	ck_assert_str_eq(preflight_bytes(24217240ull * 1024, b, sizeof(b)), "23.1 GiB");
	ck_assert_uint_eq(plan_sat_add(UINT64_MAX - 1, 5), UINT64_MAX);
	ck_assert_uint_eq(plan_sat_mul(1ull << 40, 1ull << 40), UINT64_MAX);
	ck_assert_uint_eq(plan_sat_mul(0, UINT64_MAX), 0);
	ck_assert_uint_eq(plan_sat_mul(3, 7), 21);
}
END_TEST

START_TEST(test_instances)
{
	struct result r;

	compile_src(&r,
		    "define process name=a,instances=3 {\n"
		    "  thread name=x,instances=2 { flowop delay name=d1,value=1 }\n"
		    "  thread name=y,instances=5 { flowop delay name=d2,value=1 }\n"
		    "}\n"
		    "define process name=b { thread name=z { flowop delay name=d3,value=1 } }\n"
		    "run 1\n");
	ck_assert_int_eq(r.errors, 0);
	ck_assert_uint_eq(preflight_thread_instances(&r.plan), 3 * 7 + 1);
	ck_assert_uint_eq(preflight_process_instances(&r.plan), 4);
	release(&r);
}
END_TEST

START_TEST(test_memory)
{
	struct result r;
	uint64_t per_flowop = sizeof(struct fo_stats) + sizeof(struct shared_sync);
	uint64_t m0, m1;

	/* memsize holds the buffer: memsize + statistics + overhead */
	compile_one(&r, "", "", ",memsize=64k",
		    "    flowop read name=r,filesetname=fs,iosize=32k,random\n"
		    "    flowop delay name=d,value=1\n");
	ck_assert_int_eq(r.errors, 0);
	m0 = preflight_thread_mem(&r.plan, 0);
	ck_assert_uint_ge(m0, (64u << 10) + 2 * per_flowop);
	ck_assert_uint_lt(m0, (64u << 10) + 2 * per_flowop + (1u << 20));
	release(&r);

	/* no memsize: the read owns a 32 KiB buffer */
	compile_one(&r, "", "", "",
		    "    flowop read name=r,filesetname=fs,iosize=32k,random\n"
		    "    flowop delay name=d,value=1\n");
	ck_assert_int_eq(r.errors, 0);
	m1 = preflight_thread_mem(&r.plan, 0);
	ck_assert_uint_eq(m1, m0 - (32u << 10));
	release(&r);

	/* a memsize smaller than iosize: 16 KiB + a separate 32 KiB buffer */
	compile_one(&r, "", "", ",memsize=16k",
		    "    flowop write name=w,filesetname=fs,iosize=32k\n"
		    "    flowop delay name=d,value=1\n");
	ck_assert_int_eq(r.errors, 0);
	ck_assert_uint_eq(preflight_thread_mem(&r.plan, 0), m0 - (16u << 10));
	release(&r);

	/* memsize=1t x 4 processes x 4 threads: 16 TiB, refused on 23 GiB */
	compile_one(&r, "", ",instances=4", ",memsize=1t,instances=4",
		    "    flowop read name=r,filesetname=fs,iosize=4k\n");
	ck_assert_int_eq(r.errors, 0);
	ck_assert_uint_ge(preflight_mem(&r.plan), 16ull << 40);
	ck_assert_uint_lt(preflight_mem(&r.plan), (16ull << 40) + (16u << 20));
	{
		struct preflight_limits l = roomy;
		char out[2048];

		ck_assert_int_eq(capture(preflight_check_limits, &r.plan, &l, out,
					 sizeof(out)), 0);
		l.mem_avail = 24217240ull * 1024;
		ck_assert_int_eq(capture(preflight_check_limits, &r.plan, &l, out,
					 sizeof(out)), 1);
		HAS("t.f:3:3: thread 't' of process 'p': memsize=1 TiB x 16 thread "
		    "instances needs 16 TiB of memory", out);
		HAS("this machine has 23.1 GiB available", out);
		l.mem_avail = 0;        /* unknown: not checked */
		ck_assert_int_eq(capture(preflight_check_limits, &r.plan, &l, out,
					 sizeof(out)), 0);
	}
	release(&r);
}
END_TEST

/*
 * aioread iodepth=N keeps N requests in flight, each into a buffer of
 * its own (flowops/aio.c): N x iosize per thread that preflight must
 * see (it used to count the same with and without iodepth).
 */
START_TEST(test_memory_iodepth)
{
	static const char *const depths[] = { "", ",iodepth=1", ",iodepth=256" };
	uint64_t m[3];
	char flowops[160];
	struct result r;

	for (int i = 0; i < 3; i++) {
		snprintf(flowops, sizeof(flowops),
			 "    flowop aioread name=r,filesetname=fs,iosize=64k%s\n"
			 "    flowop aiowait name=w\n", depths[i]);
		compile_one(&r, "", "", "", flowops);
		ck_assert_int_eq(r.errors, 0);
		m[i] = preflight_thread_mem(&r.plan, 0);
		release(&r);
	}
	ck_assert_uint_ge(m[2], m[0] + 256 * (64u << 10));
	ck_assert_uint_ge(m[2], m[1] + 255 * (64u << 10));
	ck_assert_uint_lt(m[2], m[0] + 257 * (64u << 10));

	/* the whole run's memory, checked against the machine, sees them too */
	compile_one(&r, "", "", ",instances=64",
		    "    flowop aioread name=r,filesetname=fs,iosize=64k,iodepth=256\n");
	ck_assert_int_eq(r.errors, 0);
	ck_assert_uint_ge(preflight_mem(&r.plan), 64ull * 256 * (64u << 10));
	{
		struct preflight_limits l = roomy;
		char out[2048];

		l.mem_avail = 512ull << 20;     /* 1 GiB of buffers do not fit */
		ck_assert_int_eq(capture(preflight_check_limits, &r.plan, &l, out,
					 sizeof(out)), 1);
		HAS("t.f:3:3: thread 't' of process 'p': 16", out);
		HAS("each (I/O buffers, statistics) x 64 thread instances needs", out);
	}
	release(&r);
}
END_TEST

/* aio flowops share one io_uring per thread: one descriptor, counted once. */
START_TEST(test_fds_ring_once)
{
	struct result r;

	/* slot 0, the two flowops' own slots, the ring, one transient */
	compile_one(&r, "", "", "",
		    "    flowop aioread name=r,filesetname=fs,iosize=4k\n"
		    "    flowop aiowrite name=w,filesetname=fs,iosize=4k\n"
		    "    flowop aiowait name=a\n");
	ck_assert_int_eq(r.errors, 0);
	ck_assert_uint_eq(preflight_thread_fds(&r.plan, 0), 5);
	release(&r);
}
END_TEST

START_TEST(test_fileset_estimates)
{
	struct result r;

	compile_src(&r,
		    "define fileset name=a,path=/tmp,size=1m,entries=10,dirwidth=10,prealloc=50\n"
		    "define fileset name=b,path=/tmp,size=1m,entries=10,dirwidth=10\n"
		    "define file name=c,path=/tmp,size=3m,prealloc\n"
		    "define fileset name=big,path=/tmp,size=1k,entries=1000000,dirwidth=2,prealloc\n"
		    "define process name=p { thread name=t { flowop delay name=d,value=1 } }\n"
		    "run 1\n");
	ck_assert_int_eq(r.errors, 0);
	ck_assert_uint_eq(preflight_fileset_bytes(&r.plan.filesets[0]), 5u << 20);
	ck_assert_uint_eq(preflight_fileset_bytes(&r.plan.filesets[1]), 0);
	ck_assert_uint_eq(preflight_fileset_bytes(&r.plan.filesets[2]), 3u << 20);
	ck_assert_uint_eq(preflight_fileset_bytes(&r.plan.filesets[3]), 1000000u << 10);
	/* the tree and pick state grow with the entries */
	ck_assert_uint_lt(preflight_fileset_mem(&r.plan, 0), 4096);
	ck_assert_uint_gt(preflight_fileset_mem(&r.plan, 3), 1000000u * 4);
	ck_assert_uint_lt(preflight_fileset_mem(&r.plan, 3), 1000000u * 64);
	release(&r);
}
END_TEST

/*
 * check's footprint: exact from the population (prealloc'd share of the
 * files, their bytes, the directories with the root), estimated and
 * flagged for a tree too big to lay out just to count it.
 */
START_TEST(test_footprint)
{
	struct result r;
	struct fileset_foot fp;

	compile_src(&r,
		    "define fileset name=a,path=/tmp,size=1m,entries=10,dirwidth=10,prealloc=50\n"
		    "define file name=c,path=/tmp,size=3m,prealloc\n"
		    "define fileset name=huge,path=/tmp,size=1k,entries=100000000,dirwidth=10,prealloc\n"
		    "define process name=p { thread name=t { flowop delay name=d,value=1 } }\n"
		    "run 1\n");
	ck_assert_int_eq(r.errors, 0);
	ck_assert_int_eq(preflight_footprint(&r.plan, 0, &fp), 0);
	ck_assert_uint_eq(fp.files, 5);
	ck_assert_uint_eq(fp.bytes, 5u << 20);
	ck_assert_uint_eq(fp.dirs, 3);          /* as on disk: a, a/00000001, a/00000001/00000001 */
	ck_assert_int_eq(preflight_footprint(&r.plan, 1, &fp), 0);
	ck_assert_uint_eq(fp.files, 1);
	ck_assert_uint_eq(fp.bytes, 3u << 20);
	ck_assert_uint_eq(fp.dirs, 2);
	ck_assert_int_eq(preflight_footprint(&r.plan, 2, &fp), 1);
	ck_assert_uint_eq(fp.files, 100000000u);
	ck_assert_uint_eq(fp.bytes, 100000000ull << 10);
	ck_assert_uint_gt(fp.dirs, 100000000u / 10);
	release(&r);
}
END_TEST

START_TEST(test_fds)
{
	struct result r;
	struct preflight_limits l = roomy;
	char out[2048];

	/* slot 0 (+ an own slot it may take) + one transient */
	compile_one(&r, "", "", ",instances=200",
		    "    flowop read name=r,filesetname=fs,iosize=4k\n");
	ck_assert_uint_eq(preflight_thread_fds(&r.plan, 0), 3);
	/* + the fileset's root and marker, held open by every worker */
	ck_assert_uint_eq(preflight_proc_fds(&r.plan, 0), PREFLIGHT_BASE_FDS + 2 + 600);
	l.nofile = 256;
	ck_assert_int_eq(capture(preflight_check_limits, &r.plan, &l, out, sizeof(out)), 1);
	HAS("t.f:2:8: process 'p': its 200 thread instances may hold up to 618 open files", out);
	l.nofile = 618;
	ck_assert_int_eq(capture(preflight_check_limits, &r.plan, &l, out, sizeof(out)), 0);
	release(&r);

	/* fd=1 and fd=2 (the same slot twice counts once) */
	compile_one(&r, "", "", "",
		    "    flowop openfile name=o1,filesetname=fs,fd=1\n"
		    "    flowop openfile name=o2,filesetname=fs,fd=2\n"
		    "    flowop closefile name=c2,fd=2\n"
		    "    flowop closefile name=c1,fd=1\n");
	ck_assert_uint_eq(preflight_thread_fds(&r.plan, 0), 3);
	release(&r);

	/* opennext rotates through every fd slot */
	compile_one(&r, "", "", "",
		    "    flowop read name=r,filesetname=fs,iosize=4k,opennext\n");
	ck_assert_uint_ge(preflight_thread_fds(&r.plan, 0), 128);
	release(&r);
}
END_TEST

START_TEST(test_tasks)
{
	struct result r;
	struct preflight_limits l = roomy;
	char out[2048];

	compile_one(&r, "", ",instances=10", ",instances=10",
		    "    flowop delay name=d,value=1\n");
	ck_assert_int_eq(capture(preflight_check_limits, &r.plan, &l, out, sizeof(out)), 0);
	l.threads_max = 100;    /* 100 threads + the master */
	ck_assert_int_eq(capture(preflight_check_limits, &r.plan, &l, out, sizeof(out)), 1);
	HAS("the run needs 101 threads; the system allows 100", out);
	l.threads_max = 101;
	l.nproc = 50;
	ck_assert_int_eq(capture(preflight_check_limits, &r.plan, &l, out, sizeof(out)), 1);
	HAS("the run needs 101 processes and threads (10 worker processes); "
	    "this user may have 50 (ulimit -u)", out);
	release(&r);
}
END_TEST

/* ---- compile time ------------------------------------------------------ */

START_TEST(test_compile_instances)
{
	struct result r;
	char limit[64];

	snprintf(limit, sizeof(limit), "limit of %u thread instances", PLAN_MAX_THREAD_INSTANCES);
	compile_one(&r, "", "", ",instances=100000000",
		    "    flowop delay name=d,value=1\n");
	ck_assert_int_eq(r.errors, 1);
	HAS("t.f:3:27: instances=100000000 for thread 't': more than flowbench's", r.msgs);
	HAS(limit, r.msgs);
	release(&r);

	compile_one(&r, "", ",instances=1048576", ",instances=2",
		    "    flowop delay name=d,value=1\n");
	ck_assert_int_eq(r.errors, 1);
	HAS("t.f:2:33: instances=1048576 for process 'p' (2 thread instances each)", r.msgs);
	release(&r);

	/* exactly the limit is allowed */
	compile_one(&r, "", ",instances=524288", ",instances=2",
		    "    flowop delay name=d,value=1\n");
	ck_assert_int_eq(r.errors, 0);
	release(&r);
}
END_TEST

START_TEST(test_compile_entries)
{
	struct result r;

	compile_src(&r,
		    "define fileset name=e,path=/tmp,entries=0\n"
		    "define fileset name=l,path=/tmp,entries=0,leafdirs=3,dirwidth=2\n"
		    "define fileset name=h,path=/tmp,entries=5000000000,dirwidth=2\n"
		    "define process name=p { thread name=t { flowop delay name=d,value=1 } }\n"
		    "run 1\n");
	HAS("t.f:1:41: fileset 'e' has no entries and no leafdirs", r.msgs);
	HAS("t.f:3:41: fileset 'h': entries=5000000000 is more than flowbench's limit of 4294967294",
	    r.msgs);
	ck_assert_int_eq(r.errors, 2);  /* leaf directories alone are fine */
	release(&r);
}
END_TEST

START_TEST(test_compile_short_read)
{
	struct result r;

	compile_one(&r, "", "", "", "    flowop read name=r,filesetname=fs,iosize=1m\n");
	ck_assert_int_eq(r.errors, 1);
	HAS("t.f:4:46: flowop r: iosize 1048576 is larger than the 65536-byte files "
	    "of fileset 'fs', and no flowop writes to them", r.msgs);
	release(&r);

	/* the files may grow: a write to the fileset, or to any fd */
	compile_one(&r, "", "", "", "    flowop read name=r,filesetname=fs,iosize=1m\n"
		    "    flowop appendfile name=a,filesetname=fs,iosize=1m\n");
	ck_assert_int_eq(r.errors, 0);
	release(&r);
	compile_one(&r, "", "", "", "    flowop read name=r,filesetname=fs,iosize=1m,fd=1\n"
		    "    flowop write name=w,fd=1,iosize=1m\n");
	ck_assert_int_eq(r.errors, 0);
	release(&r);
	/* random file sizes are not known; iosize equal to the size reads whole */
	compile_one(&r, ",filesizegamma=1500", "", "",
		    "    flowop read name=r,filesetname=fs,iosize=1m\n");
	ck_assert_int_eq(r.errors, 0);
	release(&r);
	compile_one(&r, "", "", "", "    flowop read name=r,filesetname=fs,iosize=64k\n");
	ck_assert_int_eq(r.errors, 0);
	release(&r);
}
END_TEST

static Suite *preflight_suite(void)
{
	Suite *s = suite_create("preflight");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_bytes);
	tcase_add_test(tc, test_instances);
	tcase_add_test(tc, test_memory);
	tcase_add_test(tc, test_memory_iodepth);
	tcase_add_test(tc, test_fds_ring_once);
	tcase_add_test(tc, test_fileset_estimates);
	tcase_add_test(tc, test_footprint);
	tcase_add_test(tc, test_fds);
	tcase_add_test(tc, test_tasks);
	tcase_add_test(tc, test_compile_instances);
	tcase_add_test(tc, test_compile_entries);
	tcase_add_test(tc, test_compile_short_read);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(preflight_suite)
