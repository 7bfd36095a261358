/*
 * test_fio_import.c - `flowbench import-fio`: fio values and suffixes,
 * [global] inheritance, the error text for unsupported options, the
 * rwmixread ratio, and WML output that the real compiler accepts with
 * the flowops, counts and attributes the job asked for.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flowops/flowop.h"
#include "lang/ast.h"
#include "lang/compile.h"
#include "lang/diag.h"
#include "lang/fio_import.h"

#include "tests/unit/check_main.h"

START_TEST(test_sizes)
{
	uint64_t v;

	ck_assert_int_eq(fio_parse_size("512", &v), 0);
	ck_assert_uint_eq(v, 512);
	ck_assert_int_eq(fio_parse_size("4k", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(fio_parse_size("4K", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(fio_parse_size("4KiB", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(fio_parse_size("4kb", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(fio_parse_size("1m", &v), 0);
	ck_assert_uint_eq(v, 1048576);
	ck_assert_int_eq(fio_parse_size("20g", &v), 0);
	ck_assert_uint_eq(v, 20ull << 30);
	ck_assert_int_eq(fio_parse_size("2t", &v), 0);
	ck_assert_uint_eq(v, 2ull << 40);
	ck_assert_int_eq(fio_parse_size("1p", &v), 0);
	ck_assert_uint_eq(v, 1ull << 50);
	ck_assert_int_eq(fio_parse_size("4x", &v), -1);
	ck_assert_int_eq(fio_parse_size("4kk", &v), -1);
	ck_assert_int_eq(fio_parse_size("k", &v), -1);
	ck_assert_int_eq(fio_parse_size("", &v), -1);
	ck_assert_int_eq(fio_parse_size("-4k", &v), -1);
	ck_assert_int_eq(fio_parse_size("1.5m", &v), -1);
	ck_assert_int_eq(fio_parse_size("99999999t", &v), -1);
}
END_TEST

START_TEST(test_seconds)
{
	double s;

	ck_assert_int_eq(fio_parse_seconds("60", &s), 0);
	ck_assert(s == 60);
	ck_assert_int_eq(fio_parse_seconds("30s", &s), 0);
	ck_assert(s == 30);
	ck_assert_int_eq(fio_parse_seconds("2m", &s), 0);
	ck_assert(s == 120);
	ck_assert_int_eq(fio_parse_seconds("1h", &s), 0);
	ck_assert(s == 3600);
	ck_assert_int_eq(fio_parse_seconds("1d", &s), 0);
	ck_assert(s == 86400);
	ck_assert_int_eq(fio_parse_seconds("500ms", &s), 0);
	ck_assert(s == 0.5);
	ck_assert_int_eq(fio_parse_seconds("10x", &s), -1);
	ck_assert_int_eq(fio_parse_seconds("m", &s), -1);
	ck_assert_int_eq(fio_parse_seconds("-1", &s), -1);
}
END_TEST

START_TEST(test_mix)
{
	static const long long cases[][3] = {
		{ 70, 7, 3 }, { 50, 1, 1 }, { 75, 3, 1 }, { 33, 33, 67 },
		{ 100, 1, 0 }, { 0, 0, 1 }, { 90, 9, 1 }, { 20, 1, 4 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long long r, w;

		fio_mix(cases[i][0], &r, &w);
		ck_assert_int_eq(r, cases[i][1]);
		ck_assert_int_eq(w, cases[i][2]);
	}
}
END_TEST

/* Parse `text`; the messages land in *msgs. */
static int parse(const char *text, struct fio_jobfile *jf, char **msgs)
{
	size_t n;
	FILE *f = open_memstream(msgs, &n);
	struct diag d;
	int errors;

	ck_assert_ptr_nonnull(f);
	diag_init(&d, "job.fio", text, strlen(text), f);
	errors = fio_parse(text, strlen(text), &d, jf);
	fclose(f);
	return errors;
}

static const struct fio_section *job(const struct fio_jobfile *jf, const char *name)
{
	for (int i = 0; i < jf->nsections; i++)
		if (!jf->sections[i].global && strcmp(jf->sections[i].name, name) == 0)
			return &jf->sections[i];
	ck_abort_msg("no job %s", name);
	return NULL;
}

START_TEST(test_global_inheritance)
{
	struct fio_jobfile jf;
	char *msgs;

	ck_assert_int_eq(parse("; a comment\n"
			       "# another\n"
			       "[global]\n"
			       "  bs = 8k\n"
			       "numjobs=4\r\n"
			       "direct\n"
			       "rw=randread\n"
			       "\n"
			       "[a]\n"
			       "size=1g\n"
			       "[b]\n"
			       "bs=16k\n"
			       "direct=0\n"
			       "size=2g\n"
			       "[global]\n"
			       "numjobs=2\n"
			       "[c]\n"
			       "size=1m\n", &jf, &msgs), 0);
	ck_assert_str_eq(msgs, "");
	ck_assert_int_eq(jf.njobs, 3);
	ck_assert_uint_eq(job(&jf, "a")->opts.bs, 8192);
	ck_assert_int_eq(job(&jf, "a")->opts.numjobs, 4);
	ck_assert(job(&jf, "a")->opts.direct);
	ck_assert_int_eq(job(&jf, "a")->opts.rw, FIO_RANDREAD);
	ck_assert_uint_eq(job(&jf, "a")->opts.size, 1ull << 30);
	ck_assert_uint_eq(job(&jf, "b")->opts.bs, 16384);
	ck_assert(!job(&jf, "b")->opts.direct);
	ck_assert_int_eq(job(&jf, "b")->opts.numjobs, 4);
	/* a later [global] changes only the jobs after it */
	ck_assert_int_eq(job(&jf, "c")->opts.numjobs, 2);
	ck_assert_uint_eq(job(&jf, "c")->opts.bs, 8192);
	/* fio's defaults where nothing is said */
	ck_assert_int_eq(job(&jf, "a")->opts.engine, FIO_PSYNC);
	ck_assert_int_eq(job(&jf, "a")->opts.rwmixread, 50);
	ck_assert_int_eq(job(&jf, "a")->opts.iodepth, 1);
	/* each job keeps its own lines for the comments */
	ck_assert_int_eq(job(&jf, "b")->nlines, 3);
	ck_assert_str_eq(job(&jf, "b")->lines[1].text, "direct=0");
	ck_assert_int_eq(job(&jf, "b")->lines[1].line, 13);
	free(msgs);
	fio_jobfile_free(&jf);
}
END_TEST

/* Run the whole import; returns its status, output and messages. */
static int import(const char *text, char **out, char **err)
{
	size_t n1, n2;
	FILE *o = open_memstream(out, &n1);
	FILE *e = open_memstream(err, &n2);
	int status;

	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_nonnull(e);
	status = fio_import("job.fio", text, strlen(text), o, e);
	fclose(o);
	fclose(e);
	return status;
}

#define HAS(s, text) \
	ck_assert_msg(strstr((s), (text)) != NULL, \
		      "expected \"%s\" in:\n%s", (text), (s))

START_TEST(test_unsupported_all_listed)
{
	char *out, *err;

	ck_assert_int_eq(import("[global]\n"
				"rw=read\n"
				"stonewall\n"
				"[j]\n"
				"size=1m\n"
				"bsrange=4k-8k\n"
				"iodeph=4\n", &out, &err), 1);
	ck_assert_str_eq(out, "");
	HAS(err, "job.fio:3:1: unsupported option 'stonewall'");
	HAS(err, "job.fio:6:1: unsupported option 'bsrange'");
	HAS(err, "job.fio:7:1: unsupported option 'iodeph' (did you mean 'iodepth'?)");
	HAS(err, "job.fio: 3 unsupported options (import-fio supports: rw, readwrite, "
	    "rwmixread, bs, size, filename, directory, nrfiles, numjobs, iodepth, "
	    "ioengine, direct, runtime, time_based, ramp_time, fsync, thread, "
	    "group_reporting)");
	HAS(err, "job.fio: 3 errors");
	free(out);
	free(err);
}
END_TEST

START_TEST(test_bad_values)
{
	char *out, *err;

	ck_assert_int_eq(import("[j]\n"
				"rw=trim\n"
				"bs=4q\n"
				"numjobs=0\n"
				"ioengine=mmap\n"
				"runtime=1y\n"
				"direct=2\n"
				"size\n"
				"filename=a:b\n"
				"key before=section\n", &out, &err), 1);
	ck_assert_str_eq(out, "");
	HAS(err, "job.fio:2:1: unsupported rw 'trim' (supported: read, write, randread, "
	    "randwrite, rw, readwrite, randrw)");
	HAS(err, "job.fio:3:1: bs needs a positive size like 4k, 1m or 20g, not '4q'");
	HAS(err, "job.fio:4:1: numjobs needs a whole number from 1 to 100000, not '0'");
	HAS(err, "job.fio:5:1: unsupported ioengine 'mmap'");
	HAS(err, "job.fio:6:1: runtime needs a time like 60, 30s, 2m or 1h, not '1y'");
	HAS(err, "job.fio:7:1: direct is 0 or 1, not '2'");
	HAS(err, "job.fio:8:1: option 'size' needs a value");
	HAS(err, "job.fio:9:1: filename with several names");
	HAS(err, "job.fio:10:1: unsupported option 'key before'");
	free(out);
	free(err);

	ck_assert_int_eq(import("rw=read\n[j]\nsize=1m\n", &out, &err), 1);
	HAS(err, "job.fio:1:1: option outside a section");
	free(out);
	free(err);
	ck_assert_int_eq(import("[global]\nsize=1m\n", &out, &err), 1);
	HAS(err, "no job section");
	free(out);
	free(err);
	/* combinations flowbench cannot express */
	ck_assert_int_eq(import("[j]\nrw=read\n", &out, &err), 1);
	HAS(err, "job.fio:1:1: job 'j': no size");
	free(out);
	free(err);
	ck_assert_int_eq(import("[j]\nsize=1m\ntime_based\n", &out, &err), 1);
	HAS(err, "time_based needs runtime=");
	free(out);
	free(err);
	ck_assert_int_eq(import("[j]\nsize=1m\nfilename=/dev/sdb\n", &out, &err), 1);
	HAS(err, "devices are not supported");
	free(out);
	free(err);
	ck_assert_int_eq(import("[a]\nsize=1m\nruntime=5\n[b]\nsize=1m\nruntime=6\n",
				&out, &err), 1);
	HAS(err, "job.fio:4:1: job 'b': runtime 6 s differs from job 'a''s 5 s");
	free(out);
	free(err);
}
END_TEST

/* Compile WML text with the real compiler; returns its error count. */
static int compile_wml(const char *src, struct ast_script *script, struct plan *plan,
		       char **msgs)
{
	size_t n;
	FILE *f = open_memstream(msgs, &n);
	struct compile_options opts = { 0 };
	struct diag d;
	int errors;

	ck_assert_ptr_nonnull(f);
	diag_init(&d, "out.f", src, strlen(src), f);
	errors = ast_parse("out.f", src, strlen(src), &d, script);
	if (errors == 0)
		errors = compile_script(script, &opts, &d, plan);
	else
		memset(plan, 0, sizeof(*plan));
	fclose(f);
	return errors;
}

static const struct plan_flowop *flowop(const struct plan *p, const char *name)
{
	for (int i = 0; i < p->nflowops; i++)
		if (strcmp(p->flowops[i].name, name) == 0)
			return &p->flowops[i];
	ck_abort_msg("no flowop %s", name);
	return NULL;
}

/* Experiment 1 of the issue: psync, direct, randrw, 8 jobs, one file. */
START_TEST(test_randrw_compiles)
{
	struct ast_script script;
	struct plan plan;
	char *out, *out2, *err, *msgs;
	const struct plan_flowop *rd, *wr;

	ck_assert_int_eq(import("[global]\n"
				"ioengine=psync\n"
				"direct=1\n"
				"rw=randrw\n"
				"rwmixread=70\n"
				"iodepth=1\n"
				"numjobs=8\n"
				"filename=/data/fio/test.dat\n"
				"size=20g\n"
				"group_reporting\n"
				"[rr-4k]\n"
				"bs=4k\n", &out, &err), 0);
	ck_assert_str_eq(err, "");
	HAS(out, "# Generated by flowbench import-fio from job.fio.");
	HAS(out, "#   rwmixread=70\n");
	HAS(out, "set $dir=\"/data/fio\"\n");
	HAS(out, "set $filesize=20g\n");
	HAS(out, "set $iosize=4k\n");
	HAS(out, "set $nthreads=8\n");
	HAS(out, "not fio's random choice per op");
	HAS(out, "set mode quit alldone\n");
	HAS(out, "flowop finishonbytes name=rr-4k-done,value=$filesize\n");
	ck_assert_int_eq(compile_wml(out, &script, &plan, &msgs), 0);
	ck_assert_int_eq(plan.nprocs, 1);
	ck_assert_int_eq(plan.procs[0].instances, 8);
	ck_assert_int_eq(plan.nthreads, 1);
	ck_assert_int_eq(plan.threads[0].instances, 1);
	ck_assert_int_eq(plan.nflowops, 3);
	ck_assert_int_eq(plan.quit_mode, QUIT_ALLDONE);
	ck_assert_int_eq(plan.nfilesets, 1);
	ck_assert(plan.filesets[0].is_file);
	ck_assert_str_eq(plan.filesets[0].path, "/data/fio");
	ck_assert_uint_eq(plan.filesets[0].size, 20ull << 30);
	rd = flowop(&plan, "rr-4k-read");
	wr = flowop(&plan, "rr-4k-write");
	ck_assert_str_eq(rd->ops->name, "read");
	ck_assert_str_eq(wr->ops->name, "write");
	ck_assert_int_eq(plan_attr_int(rd, FA_ITERS, 1), 7);
	ck_assert_int_eq(plan_attr_int(wr, FA_ITERS, 1), 3);
	ck_assert_int_eq(plan_attr_int(rd, FA_IOSIZE, 0), 4096);
	ck_assert(plan_attr_bool(rd, FA_RANDOM, false));
	ck_assert(plan_attr_bool(wr, FA_DIRECTIO, false));
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "rr-4k-done"), FA_VALUE, 0),
			 (int64_t)20 << 30);
	plan_free(&plan);
	ast_script_free(&script);
	free(msgs);
	/* the same input, the same output */
	free(err);
	ck_assert_int_eq(import("[global]\n"
				"ioengine=psync\n"
				"direct=1\n"
				"rw=randrw\n"
				"rwmixread=70\n"
				"iodepth=1\n"
				"numjobs=8\n"
				"filename=/data/fio/test.dat\n"
				"size=20g\n"
				"group_reporting\n"
				"[rr-4k]\n"
				"bs=4k\n", &out2, &err), 0);
	ck_assert_str_eq(out, out2);
	free(out);
	free(out2);
	free(err);
}
END_TEST

/* Several jobs, time_based, threads, fsync, directory mode. */
START_TEST(test_jobs_compile)
{
	struct ast_script script;
	struct plan plan;
	char *out, *err, *msgs;
	const struct plan_flowop *wr;

	ck_assert_int_eq(import("[global]\n"
				"directory=/mnt/t\n"
				"size=64m\n"
				"runtime=30\n"
				"time_based\n"
				"ramp_time=5\n"
				"[seqw]\n"
				"rw=write\n"
				"bs=1m\n"
				"fsync=4\n"
				"numjobs=3\n"
				"thread\n"
				"[rr]\n"
				"rw=randread\n"
				"ioengine=libaio\n"
				"iodepth=1\n"
				"nrfiles=4\n", &out, &err), 0);
	ck_assert_str_eq(err, "");
	HAS(out, "set $filesize_1=64m\n");
	HAS(out, "set $nthreads_1=3\n");
	HAS(out, "set $iosize_2=4k\n");
	HAS(out, "# fio ramp_time=5: run with --warmup 5\n");
	HAS(out, "set $runtime=30\nrun $runtime\n");
	ck_assert_ptr_null(strstr(out, "set mode quit"));
	ck_assert_ptr_null(strstr(out, "finishonbytes"));
	ck_assert_int_eq(compile_wml(out, &script, &plan, &msgs), 0);
	ck_assert(plan.runtime_s == 30);
	ck_assert_int_eq(plan.quit_mode, QUIT_TIMEOUT);
	ck_assert_int_eq(plan.nprocs, 2);
	ck_assert_int_eq(plan.nfilesets, 2);
	for (int i = 0; i < plan.nfilesets; i++) {
		ck_assert_str_eq(plan.filesets[i].path, "/mnt/t");
		/* seqw: 3 clones, 1 file each; rr: 1 clone, 4 files of 16m */
		if (plan.filesets[i].entries == 3)
			ck_assert_uint_eq(plan.filesets[i].size, 64u << 20);
		else
			ck_assert_uint_eq(plan.filesets[i].size, 16u << 20);
	}
	for (int i = 0; i < plan.nthreads; i++) {
		/* `thread`: one process of 3 threads; else processes of one */
		if (plan.threads[i].instances == 3)
			ck_assert_int_eq(plan.procs[plan.threads[i].proc].instances, 1);
		else
			ck_assert_int_eq(plan.threads[i].instances, 1);
	}
	/* fsync=4: 4 writes then one fsync */
	wr = flowop(&plan, "seqw-write");
	ck_assert_int_eq(plan_attr_int(wr, FA_ITERS, 1), 4);
	ck_assert(!(wr->given & FA_BIT(FA_RANDOM)));
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "seqw-fsync"), FA_ITERS, 1), 1);
	/* libaio at depth 1: plain reads, every op on the next fd slot */
	ck_assert_str_eq(flowop(&plan, "rr-read")->ops->name, "read");
	ck_assert(plan_attr_bool(flowop(&plan, "rr-read"), FA_OPENNEXT, false));
	plan_free(&plan);
	ast_script_free(&script);
	free(msgs);
	free(out);
	free(err);
}
END_TEST

/* fsync=N with a mix: whole fsync intervals per pass. */
START_TEST(test_fsync_mix)
{
	char *out, *err;

	ck_assert_int_eq(import("[j]\nrw=randrw\nrwmixread=50\nfsync=3\nsize=1m\n",
				&out, &err), 0);
	/* 1:1 mix, fsync every 3 writes: 3 reads, 3 writes, 1 fsync */
	HAS(out, "random,iters=3\n    flowop write");
	HAS(out, "random,iters=3\n    flowop fsync name=j-fsync,filename=j-files\n");
	free(out);
	free(err);
}
END_TEST

/* Sequential time-based writes wrap at the file's size, as in fio. */
START_TEST(test_write_wrap)
{
	struct ast_script script;
	struct plan plan;
	char *out, *err, *msgs;

	ck_assert_int_eq(import("[w]\nrw=write\nbs=64k\nsize=1m\nruntime=2\n"
				"time_based\nfilename=data\n", &out, &err), 0);
	HAS(out, "set $dir=\"/tmp\"\n");
	HAS(out, "iters=$filesize / $iosize\n    flowop closefile name=w-close");
	ck_assert_int_eq(compile_wml(out, &script, &plan, &msgs), 0);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "w-write"), FA_ITERS, 1), 16);
	plan_free(&plan);
	ast_script_free(&script);
	free(msgs);
	free(out);
	free(err);
}
END_TEST

/* iodepth > 1 with an asynchronous engine: aioread/aiowrite, iodepth=. */
START_TEST(test_aio_output)
{
	char *out, *err;

	ck_assert_int_eq(import("[global]\nioengine=libaio\niodepth=16\ndirect=1\n"
				"rw=read\nsize=16m\n[r]\nbs=1m\n", &out, &err), 0);
	HAS(out, "set $iodepth=16\n");
	HAS(out, "flowop aioread name=r-read,filename=r-files,iosize=$iosize,"
	    "directio,iodepth=$iodepth\n");
	free(out);
	free(err);
	ck_assert_int_eq(import("[w]\nioengine=io_uring\niodepth=8\nrw=randwrite\n"
				"size=16m\n", &out, &err), 0);
	HAS(out, "flowop aiowrite name=w-write,filename=w-files,iosize=$iosize,"
	    "random,iodepth=$iodepth\n");
	free(out);
	free(err);
	/* psync ignores iodepth, as fio does */
	ck_assert_int_eq(import("[p]\nioengine=psync\niodepth=8\nsize=16m\n",
				&out, &err), 0);
	HAS(out, "flowop read name=p-read");
	HAS(out, "iodepth has no effect");
	ck_assert_ptr_null(strstr(out, "$iodepth"));
	free(out);
	free(err);
}
END_TEST

static Suite *fio_suite(void)
{
	Suite *s = suite_create("fio_import");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_seconds);
	tcase_add_test(tc, test_mix);
	tcase_add_test(tc, test_global_inheritance);
	tcase_add_test(tc, test_unsupported_all_listed);
	tcase_add_test(tc, test_bad_values);
	tcase_add_test(tc, test_randrw_compiles);
	tcase_add_test(tc, test_jobs_compile);
	tcase_add_test(tc, test_fsync_mix);
	tcase_add_test(tc, test_write_wrap);
	tcase_add_test(tc, test_aio_output);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fio_suite)
