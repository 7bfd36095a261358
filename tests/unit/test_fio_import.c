/*
 * test_fio_import.c - `flowbench import-fio`: fio values and suffixes,
 * [global] inheritance, the error text for unsupported options, the
 * rwmixread ratio, and WML output that the real compiler accepts with
 * the flowops, counts and attributes the job asked for.  Hostile input:
 * values too large (located errors, never a signal), numbers read back
 * exactly, nothing from the job file injected as a statement, and time
 * in proportion to the input.
 */
#include <check.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "lang/ast.h"
#include "lang/parse.h"
#include "lang/compile.h"
#include "plan/diag.h"
#include "lang/fio/import.h"

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
	ck_assert_int_eq(fio_parse_size("4kb", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(fio_parse_size("4KB", &v), 0);
	ck_assert_uint_eq(v, 4096);
	/* fio's default kb_base reads the IEC prefixes as powers of 1000 */
	ck_assert_int_eq(fio_parse_size("4KiB", &v), 0);
	ck_assert_uint_eq(v, 4000);
	ck_assert_int_eq(fio_parse_size("1mib", &v), 0);
	ck_assert_uint_eq(v, 1000000);
	ck_assert_int_eq(fio_parse_size("3PiB", &v), 0);
	ck_assert_uint_eq(v, 3000000000000000ull);
	ck_assert_int_eq(fio_parse_size("1m", &v), 0);
	ck_assert_uint_eq(v, 1048576);
	ck_assert_int_eq(fio_parse_size("20g", &v), 0);
	ck_assert_uint_eq(v, 20ull << 30);
	ck_assert_int_eq(fio_parse_size("2t", &v), 0);
	ck_assert_uint_eq(v, 2ull << 40);
	ck_assert_int_eq(fio_parse_size("1p", &v), 0);
	ck_assert_uint_eq(v, 1ull << 50);
	ck_assert_int_eq(fio_parse_size("4x", &v), FIO_PARSE_NOT_A_VALUE);
	ck_assert_int_eq(fio_parse_size("4kk", &v), FIO_PARSE_NOT_A_VALUE);
	ck_assert_int_eq(fio_parse_size("4ki", &v), FIO_PARSE_NOT_A_VALUE);
	ck_assert_int_eq(fio_parse_size("k", &v), FIO_PARSE_NOT_A_VALUE);
	ck_assert_int_eq(fio_parse_size("", &v), FIO_PARSE_NOT_A_VALUE);
	ck_assert_int_eq(fio_parse_size("-4k", &v), FIO_PARSE_NOT_A_VALUE);
	ck_assert_int_eq(fio_parse_size(" 4k", &v), FIO_PARSE_NOT_A_VALUE);
	ck_assert_int_eq(fio_parse_size("1.5m", &v), FIO_PARSE_NOT_A_VALUE);
	ck_assert_int_eq(fio_parse_size("99999999999999999999999x", &v),
			 FIO_PARSE_NOT_A_VALUE);
}
END_TEST

/* Sizes up to 2^63-1 bytes (the largest file, the largest WML integer);
 * beyond, whatever the spelling, FIO_PARSE_TOO_LARGE and *v untouched. */
START_TEST(test_size_limits)
{
	uint64_t v;

	ck_assert_int_eq(fio_parse_size("9223372036854775807", &v), 0);
	ck_assert_uint_eq(v, (uint64_t)INT64_MAX);
	ck_assert_int_eq(fio_parse_size("8191p", &v), 0);
	ck_assert_uint_eq(v, 8191ull << 50);
	ck_assert_int_eq(fio_parse_size("9223372TiB", &v), 0);
	ck_assert_uint_eq(v, 9223372000000000000ull);
	v = 7;
	ck_assert_int_eq(fio_parse_size("9223372036854775808", &v), FIO_PARSE_TOO_LARGE);
	ck_assert_int_eq(fio_parse_size("18446744073709551616", &v), FIO_PARSE_TOO_LARGE);
	ck_assert_int_eq(fio_parse_size("99999999999999999999999k", &v), FIO_PARSE_TOO_LARGE);
	ck_assert_int_eq(fio_parse_size("8192p", &v), FIO_PARSE_TOO_LARGE);
	ck_assert_int_eq(fio_parse_size("16384p", &v), FIO_PARSE_TOO_LARGE);
	ck_assert_int_eq(fio_parse_size("9223373TiB", &v), FIO_PARSE_TOO_LARGE);
	ck_assert_int_eq(fio_parse_size("9224PiB", &v), FIO_PARSE_TOO_LARGE);
	ck_assert_int_eq(fio_parse_size("99999999t", &v), FIO_PARSE_TOO_LARGE);
	ck_assert_uint_eq(v, 7);
}
END_TEST

START_TEST(test_times)
{
	uint64_t us;

	ck_assert_int_eq(fio_parse_time("60", &us), 0);
	ck_assert_uint_eq(us, 60000000);
	ck_assert_int_eq(fio_parse_time("30s", &us), 0);
	ck_assert_uint_eq(us, 30000000);
	ck_assert_int_eq(fio_parse_time("2m", &us), 0);
	ck_assert_uint_eq(us, 120000000);
	ck_assert_int_eq(fio_parse_time("1h", &us), 0);
	ck_assert_uint_eq(us, 3600000000ull);
	ck_assert_int_eq(fio_parse_time("1d", &us), 0);
	ck_assert_uint_eq(us, 86400000000ull);
	ck_assert_int_eq(fio_parse_time("500ms", &us), 0);
	ck_assert_uint_eq(us, 500000);
	ck_assert_int_eq(fio_parse_time("10us", &us), 0);
	ck_assert_uint_eq(us, 10);
	ck_assert_int_eq(fio_parse_time("0", &us), 0);
	ck_assert_uint_eq(us, 0);
	ck_assert_int_eq(fio_parse_time("10x", &us), FIO_PARSE_NOT_A_VALUE);
	ck_assert_int_eq(fio_parse_time("m", &us), FIO_PARSE_NOT_A_VALUE);
	ck_assert_int_eq(fio_parse_time("-1", &us), FIO_PARSE_NOT_A_VALUE);
	ck_assert_int_eq(fio_parse_time("1.5", &us), FIO_PARSE_NOT_A_VALUE);
	/* up to 10^9 s, also --warmup's maximum */
	ck_assert_int_eq(fio_parse_time("1000000000", &us), 0);
	ck_assert_uint_eq(us, 1000000000000000ull);
	ck_assert_int_eq(fio_parse_time("11574d", &us), 0);
	ck_assert_int_eq(fio_parse_time("1000000001", &us), FIO_PARSE_TOO_LARGE);
	ck_assert_int_eq(fio_parse_time("11575d", &us), FIO_PARSE_TOO_LARGE);
	ck_assert_int_eq(fio_parse_time("213503982335d", &us), FIO_PARSE_TOO_LARGE);
	ck_assert_int_eq(fio_parse_time("99999999999999999999999us", &us),
			 FIO_PARSE_TOO_LARGE);
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
	ck_assert_int_eq(job(&jf, "a")->opts.rw, FIO_RW_RANDREAD);
	ck_assert_uint_eq(job(&jf, "a")->opts.size, 1ull << 30);
	ck_assert_uint_eq(job(&jf, "b")->opts.bs, 16384);
	ck_assert(!job(&jf, "b")->opts.direct);
	ck_assert_int_eq(job(&jf, "b")->opts.numjobs, 4);
	/* a later [global] changes only the jobs after it */
	ck_assert_int_eq(job(&jf, "c")->opts.numjobs, 2);
	ck_assert_uint_eq(job(&jf, "c")->opts.bs, 8192);
	/* fio's defaults where nothing is said */
	ck_assert_int_eq(job(&jf, "a")->opts.engine, FIO_ENGINE_PSYNC);
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
				"zonemode=zbd\n"
				"[j]\n"
				"size=1m\n"
				"flow=2\n"
				"iodeph=4\n", &out, &err), 1);
	ck_assert_str_eq(out, "");
	HAS(err, "job.fio:3:1: unsupported option 'zonemode'");
	HAS(err, "job.fio:6:1: unsupported option 'flow'");
	HAS(err, "job.fio:7:1: unsupported option 'iodeph' (did you mean 'iodepth'?)");
	HAS(err, "job.fio: 3 unsupported options (import-fio supports: rw, readwrite, "
	    "rwmixread, rwmixwrite, bs, blocksize, size, filesize, filename, "
	    "directory, nrfiles, numjobs, iodepth, ioengine, direct, buffered, "
	    "runtime, timeout, time_based, ramp_time, fsync, thread, "
	    "group_reporting, loops, rate_iops, rate, thinktime, "
	    "random_distribution, bssplit, fdatasync, sync, offset, "
	    "offset_increment, openfiles, file_service_type, stonewall, "
	    "wait_for_previous, wait_for, startdelay, verify, do_verify, "
	    "fill_device, fill_fs, blockalign, ba, number_ios, percentage_random, "
	    "exitall, bsrange, blocksize_range, norandommap, rate_process, "
	    "rate_poisson, fadvise_hint, io_size, io_limit, filename_format, "
	    "end_fsync, fsync_on_close, iodepth_batch_submit, iodepth_batch, "
	    "iodepth_batch_complete_min, iodepth_batch_complete, "
	    "iodepth_batch_complete_max, iodepth_low, buffer_pattern, "
	    "buffer_compress_percentage, buffer_compress_chunk, zero_buffers, "
	    "refill_buffers, scramble_buffers, dedupe_percentage, dedupe_mode, "
	    "verify_pattern, write_lat_log, write_bw_log, "
	    "write_iops_log, write_hist_log, log_avg_msec, log_hist_msec, "
	    "log_hist_coarseness, log_offset, per_job_logs)");
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
	/* fio too runs time_based without a runtime as if without it */
	ck_assert_int_eq(import("[j]\nsize=1m\ntime_based\n", &out, &err), 0);
	HAS(err, "job.fio:3:1: warning: job 'j': time_based without runtime: fio says "
	    "\"time_based requires a runtime/timeout setting\"");
	HAS(out, "# time_based without runtime: fio ignores it");
	HAS(out, "flowop finishonbytes name=j-done");
	free(out);
	free(err);
	ck_assert_int_eq(import("[j]\nsize=1m\nfilename=/dev/null\n", &out, &err), 1);
	HAS(err, "job.fio:3:1: job 'j': filename=/dev/null stores nothing");
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
	struct compile_options opts = { .registry = &flowops_registry };
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
	HAS(out, "each I/O is a read with odds $rwmixread in 100, else a write, "
	    "drawn per I/O as fio does (the choice rr-4k-mix)");
	HAS(out, "set $rwmixread=70\n");
	HAS(out, "set mode quit alldone\n");
	HAS(out, "flowop finishonbytes name=rr-4k-done,value=$filesize - 1\n");
	ck_assert_int_eq(compile_wml(out, &script, &plan, &msgs), 0);
	ck_assert_int_eq(plan.nprocs, 1);
	ck_assert_int_eq(plan.procs[0].instances, 8);
	ck_assert_int_eq(plan.nthreads, 1);
	ck_assert_int_eq(plan.threads[0].instances, 1);
	ck_assert_int_eq(plan.nflowops, 4);
	ck_assert_int_eq(plan.quit_mode, QUIT_ALLDONE);
	ck_assert_int_eq(plan.nfilesets, 1);
	ck_assert(plan.filesets[0].is_file);
	ck_assert_str_eq(plan.filesets[0].path, "/data/fio");
	ck_assert_uint_eq(plan.filesets[0].size, 20ull << 30);
	ck_assert_str_eq(flowop(&plan, "rr-4k")->ops->name, "choice");
	rd = flowop(&plan, "rr-4k.read");
	wr = flowop(&plan, "rr-4k.write");
	ck_assert_str_eq(rd->ops->name, "read");
	ck_assert_str_eq(wr->ops->name, "write");
	ck_assert_int_eq(plan_attr_int(rd, PA_WEIGHT, 0), 70);
	ck_assert_int_eq(plan_attr_int(wr, PA_WEIGHT, 0), 30);
	ck_assert_int_eq(plan_attr_int(rd, PA_ITERS, 1), 1);
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(rd, "iosize"), 0), 4096);
	ck_assert(plan_value_bool(plan_flowop_attr(rd, "random"), false));
	ck_assert(plan_value_bool(plan_flowop_attr(wr, "directio"), false));
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(flowop(&plan, "rr-4k-done"), "value"), 0),
			 ((int64_t)20 << 30) - 1);
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
	/* libaio is libaio (issue 22): nothing to warn about */
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
	ck_assert_int_eq(plan_attr_int(wr, PA_ITERS, 1), 4);
	ck_assert(plan_flowop_attr(wr, "random")->kind == PV_UNSET);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "seqw-fsync"), PA_ITERS, 1), 1);
	/* libaio at depth 1: aioread on libaio, every op on the next fd slot */
	ck_assert_str_eq(flowop(&plan, "rr-read")->ops->name, "aioread");
	ck_assert_str_eq(plan_flowop_attr(flowop(&plan, "rr-read"), "ioengine")->u.s,
			 "libaio");
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(flowop(&plan, "rr-read"),
							 "iodepth"), 0), 1);
	ck_assert(plan_value_bool(plan_flowop_attr(flowop(&plan, "rr-read"), "opennext"), false));
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
	HAS(out, "random,randommap,noreadahead,iters=3\n    flowop write");
	HAS(out, "random,randommap,noreadahead,data=random,scramble,iters=3\n"
	    "    flowop fsync name=j-fsync,filename=j-files\n");
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
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "w-write"), PA_ITERS, 1), 16);
	plan_free(&plan);
	ast_script_free(&script);
	free(msgs);
	free(out);
	free(err);
}
END_TEST

/*
 * An asynchronous engine: aioread/aiowrite on it, iodepth= and fio's
 * depth options as fio resolves them (defaults: a batch of 1, rounds of
 * exactly 1 completion, iodepth_low = iodepth).
 */
START_TEST(test_aio_output)
{
	char *out, *err;

	ck_assert_int_eq(import("[global]\nioengine=libaio\niodepth=16\ndirect=1\n"
				"rw=read\nsize=16m\n[r]\nbs=1m\n", &out, &err), 0);
	HAS(out, "set $iodepth=16\n");
	HAS(out, "flowop aioread name=r-read,filename=r-files,iosize=$iosize,"
	    "directio,ioengine=libaio,iodepth=$iodepth,iodepth_batch_submit=1,"
	    "iodepth_batch_complete_min=1,iodepth_batch_complete_max=1,"
	    "iodepth_low=$iodepth\n");
	free(out);
	free(err);
	ck_assert_int_eq(import("[w]\nioengine=io_uring\niodepth=8\nrw=randwrite\n"
				"size=16m\n", &out, &err), 0);
	HAS(out, "flowop aiowrite name=w-write,filename=w-files,iosize=$iosize,"
	    "random,randommap,noreadahead,ioengine=io_uring,iodepth=$iodepth,"
	    "iodepth_batch_submit=1,iodepth_batch_complete_min=1,"
	    "iodepth_batch_complete_max=1,iodepth_low=$iodepth,data=random,scramble\n");
	free(out);
	free(err);
	/* fio's resolution: a batch of 0 is iodepth, complete_max below
	 * complete_min is complete_min, iodepth_low above iodepth is iodepth */
	ck_assert_int_eq(import("[b]\nioengine=libaio\niodepth=8\nsize=16m\n"
				"iodepth_batch=0\niodepth_batch_complete=4\n"
				"iodepth_batch_complete_max=2\niodepth_low=99\n",
				&out, &err), 0);
	HAS(out, ",ioengine=libaio,iodepth=$iodepth,iodepth_batch_submit=$iodepth,"
	    "iodepth_batch_complete_min=4,iodepth_batch_complete_max=4,"
	    "iodepth_low=$iodepth\n");
	free(out);
	free(err);
	/* fio's polling: both completion options 0 */
	ck_assert_int_eq(import("[p]\nioengine=io_uring\niodepth=4\nsize=16m\n"
				"iodepth_batch_submit=2\niodepth_batch_complete_min=0\n"
				"iodepth_low=1\n", &out, &err), 0);
	HAS(out, ",ioengine=io_uring,iodepth=$iodepth,iodepth_batch_submit=2,"
	    "iodepth_batch_complete_min=0,iodepth_batch_complete_max=0,"
	    "iodepth_low=1\n");
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

/*
 * Size arithmetic is checked: bs x nrfiles once wrapped to 0 and was
 * divided by (SIGFPE); now every too-large value is a located error.
 */
START_TEST(test_too_large)
{
	char *out, *err;

	ck_assert_int_eq(import("[j]\nbs=1024p\nnrfiles=16\nsize=1g\n", &out, &err), 1);
	ck_assert_str_eq(out, "");
	HAS(err, "job.fio:2:1: bs=1024p x nrfiles=16 is too large: more than "
	    "2^63-1 bytes\n");
	free(out);
	free(err);
	/* from [global]: the error is at the line that set bs */
	ck_assert_int_eq(import("[global]\n  bs=8191p\n[j]\nsize=1m\nnrfiles=2\n",
				&out, &err), 1);
	HAS(err, "job.fio:2:3: bs=8191p x nrfiles=2 is too large");
	free(out);
	free(err);
	/* a product that fits but exceeds size: the size line */
	ck_assert_int_eq(import("[j]\nsize=1m\nbs=1p\nnrfiles=1000\n", &out, &err), 1);
	HAS(err, "job.fio:2:1: job 'j': size=1048576 is smaller than bs x nrfiles "
	    "(1125899906842624000)");
	free(out);
	free(err);
	ck_assert_int_eq(import("[j]\nbs=16384p\nsize=99999999999999999999\n"
				"numjobs=99999999999999999999\nnrfiles=1000001\n"
				"iodepth=-1\nruntime=11575d\nramp_time=99999999999999999999us\n"
				"fsync=1000000001\n", &out, &err), 1);
	HAS(err, "job.fio:2:1: bs=16384p is too large: sizes go up to 2^63-1 bytes");
	HAS(err, "job.fio:3:1: size=99999999999999999999 is too large");
	HAS(err, "job.fio:4:1: numjobs=99999999999999999999 is too large: at most 100000");
	HAS(err, "job.fio:5:1: nrfiles=1000001 is too large: at most 1000000");
	HAS(err, "job.fio:6:1: iodepth needs a whole number from 1 to 65536, not '-1'");
	HAS(err, "job.fio:7:1: runtime=11575d is too large: times go up to 10^9 s");
	HAS(err, "job.fio:8:1: ramp_time=99999999999999999999us is too large");
	HAS(err, "job.fio:9:1: fsync=1000000001 is too large: at most 1000000000");
	HAS(err, "job.fio: 8 errors");
	free(out);
	free(err);
	/* flowbench's asynchronous flowops keep at most 32768 I/Os in flight */
	ck_assert_int_eq(import("[j]\nsize=1m\nioengine=io_uring\niodepth=32769\n",
				&out, &err), 1);
	HAS(err, "job.fio:4:1: iodepth=32769 is too large for ioengine=io_uring: "
	    "flowbench keeps at most 32768 I/Os in flight per flowop");
	free(out);
	free(err);
	ck_assert_int_eq(import("[j]\nsize=1m\nioengine=psync\niodepth=65536\n",
				&out, &err), 0);
	free(out);
	free(err);
}
END_TEST

/* Import `fio`, which must succeed, and compile the WML it gives. */
static void import_compile(const char *fio, char **out, struct ast_script *script,
			   struct plan *plan)
{
	char *err, *msgs;

	ck_assert_msg(import(fio, out, &err) == 0, "import-fio failed:\n%s", err);
	ck_assert_msg(compile_wml(*out, script, plan, &msgs) == 0,
		      "the import does not compile:\n%s\n%s", msgs, *out);
	free(err);
	free(msgs);
}

static const struct plan_fileset *fileset(const struct plan *p, const char *name)
{
	for (int i = 0; i < p->nfilesets; i++)
		if (strcmp(p->filesets[i].name, name) == 0)
			return &p->filesets[i];
	ck_abort_msg("no fileset %s", name);
	return NULL;
}

/*
 * Every number import-fio writes is one WML reads back as the job's own
 * value: no exponent ("1e+06" was written for runtime=1000000 and refused
 * by the scanner), no rounding ("%g" kept 6 digits), sizes up to 2^63-1.
 */
START_TEST(test_numbers_round_trip)
{
	static const struct {
		const char *fio;
		double runtime_s;
	} times[] = {
		{ "runtime=1000000\n", 1000000 },
		{ "runtime=1000000000\n", 1e9 },
		{ "runtime=11574d\n", 11574.0 * 86400 },
		{ "runtime=1234567ms\n", 1234.567 },
		{ "runtime=86399999999us\n", 86399.999999 },
		{ "runtime=1us\n", 0.000001 },
		{ "runtime=1500ms\n", 1.5 },
	};
	struct ast_script script;
	struct plan plan;
	char *out;

	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		char fio[128];

		snprintf(fio, sizeof(fio), "[j]\nsize=1m\ntime_based\n%s", times[i].fio);
		import_compile(fio, &out, &script, &plan);
		ck_assert_msg(plan.runtime_s == times[i].runtime_s, "%s: %.17g s, not %.17g",
			      times[i].fio, plan.runtime_s, times[i].runtime_s);
		ck_assert_ptr_null(strstr(out, "e+"));
		plan_free(&plan);
		ast_script_free(&script);
		free(out);
	}

	/* the largest sizes: one file of 8191 PiB read in 8191 PiB blocks */
	import_compile("[j]\nsize=8191p\nbs=8191p\n", &out, &script, &plan);
	ck_assert_uint_eq(fileset(&plan, "j-files")->size, 8191ull << 50);
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(flowop(&plan, "j-read"), "iosize"), 0),
			 (int64_t)(8191ull << 50));
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(flowop(&plan, "j-done"), "value"), 0),
			 (int64_t)(8191ull << 50) - 1);
	plan_free(&plan);
	ast_script_free(&script);
	free(out);

	/* 2^63-1 bytes over 1000 x 1000 files, rounded down to whole blocks */
	import_compile("[j]\nsize=9223372036854775807\nbs=1\nnrfiles=1000\n"
		       "numjobs=1000\nruntime=999999999\ntime_based\n",
		       &out, &script, &plan);
	ck_assert_uint_eq(fileset(&plan, "j-files")->size, 9223372036854775ull);
	ck_assert_uint_eq(fileset(&plan, "j-files")->entries, 1000000);
	ck_assert_uint_eq(plan.procs[0].instances, 1000);
	ck_assert(plan.runtime_s == 999999999);
	plan_free(&plan);
	ast_script_free(&script);
	free(out);

	/* decimal sizes, the longest fsync pass, the deepest queue */
	import_compile("[j]\nbs=4KiB\nsize=3MiB\nrw=randrw\nrwmixread=1\n"
		       "fsync=999999937\nioengine=libaio\niodepth=256\ndirect=1\n"
		       "ramp_time=250ms\n", &out, &script, &plan);
	ck_assert_uint_eq(fileset(&plan, "j-files")->size, 3000000);
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(flowop(&plan, "j-read"), "iosize"), 0), 4000);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j-read"), PA_ITERS, 0), 999999937);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j-write"), PA_ITERS, 0),
			 99LL * 999999937);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j-fsync"), PA_ITERS, 0), 99);
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(flowop(&plan, "j-read"), "iodepth"), 0), 256);
	HAS(out, "# bs=4KiB is 4000 bytes: fio reads KiB, MiB, ... as powers of 1000");
	HAS(out, "# fio ramp_time=0.25: run with --warmup 0.25\n");
	plan_free(&plan);
	ast_script_free(&script);
	free(out);
}
END_TEST

/* No line of `wml` starts with `stmt`: only comments hold it. */
static void not_live(const char *wml, const char *stmt)
{
	for (const char *l = wml; *l; ) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);

		ck_assert_msg(strncmp(l, stmt, strlen(stmt)) != 0,
			      "live WML line: %.*s", (int)n, l);
		l += n + (nl != NULL);
	}
}

/* The statements of EVIL are nowhere live. */
static void none_live(const char *wml)
{
	not_live(wml, "system");
	not_live(wml, "run 1");
	not_live(wml, "define fileset name=evil");
}

/* Compile with --allow-system: no `system`, no extra fileset, no `run 1`. */
static void only_the_job(const char *wml)
{
	struct compile_options opts = { .registry = &flowops_registry,
					.allow_system = true };
	struct ast_script script;
	struct plan plan;
	struct diag d;
	char *msgs;
	size_t n;
	FILE *f = open_memstream(&msgs, &n);

	ck_assert_ptr_nonnull(f);
	diag_init(&d, "out.f", wml, strlen(wml), f);
	ck_assert_int_eq(ast_parse("out.f", wml, strlen(wml), &d, &script), 0);
	ck_assert_int_eq(compile_script(&script, &opts, &d, &plan), 0);
	fclose(f);
	ck_assert_int_eq(plan.nactions, 0);
	ck_assert_int_eq(plan.nfilesets, 1);
	ck_assert_int_eq(plan.nprocs, 1);
	ck_assert_int_eq(plan.nflowops, 1);
	ck_assert(plan.runtime_s == 5);
	ck_assert_int_eq(plan.quit_mode, QUIT_TIMEOUT);
	plan_free(&plan);
	ast_script_free(&script);
	free(msgs);
}

#define EVIL "\nsystem \"touch /tmp/pwned\"\nrun 1\ndefine fileset name=evil,path=/tmp,size=1\n"

/*
 * Text copied into comments cannot end them: a newline (or CR) in the job
 * file's name, a job name or an option line is shown escaped, and the WML
 * compiles (with --allow-system) to exactly the job it was.
 */
START_TEST(test_no_injection)
{
	static const char job[] = "[a\rsystem \"touch /tmp/pwned\"]\n"
				  "size=1m\nruntime=5\ntime_based\n";
	struct fio_jobfile jf;
	struct diag d;
	char *out, *err, *msgs;
	size_t n1, n2;
	FILE *o = open_memstream(&out, &n1), *e = open_memstream(&err, &n2);

	/* the job file's name */
	ck_assert_int_eq(fio_import("x" EVIL "#.fio", job, strlen(job), o, e), 0);
	fclose(o);
	fclose(e);
	HAS(out, "# Generated by flowbench import-fio from x\\nsystem \"touch "
	    "/tmp/pwned\"\\nrun 1\\ndefine fileset name=evil,path=/tmp,size=1\\n#.fio.\n");
	HAS(out, "# [a\\rsystem \"touch /tmp/pwned\"]  (line 1)\n");
	none_live(out);
	only_the_job(out);
	free(out);
	free(err);

	/* a job name and an option line with a newline, as a job file
	 * cannot give them (its lines end there) but the writer must not
	 * trust: set after parsing */
	ck_assert_int_eq(parse(job, &jf, &msgs), 0);
	jf.sections[0].name = "a" EVIL "#\\";
	jf.sections[0].lines[0].text = "size=1m" EVIL "\x1b[2J\x7f";
	o = open_memstream(&out, &n1);
	e = open_memstream(&err, &n2);
	diag_init(&d, "job.fio", job, strlen(job), e);
	ck_assert_int_eq(fio_emit(&jf, "job.fio", &d, o), 0);
	fclose(o);
	fclose(e);
	HAS(out, "# ---- job 1 of 1: fio job 'a\\nsystem \"touch /tmp/pwned\"\\nrun 1"
	    "\\ndefine fileset name=evil,path=/tmp,size=1\\n#\\\\' ----\n");
	HAS(out, "#   size=1m\\nsystem \"touch /tmp/pwned\"\\nrun 1\\ndefine fileset "
	    "name=evil,path=/tmp,size=1\\n\\x1b[2J\\x7f\n");
	none_live(out);
	only_the_job(out);
	free(out);
	free(err);
	free(msgs);
	fio_jobfile_free(&jf);
}
END_TEST

/* Names the WML scanner would not read as names; paths it would show
 * with control characters. */
START_TEST(test_names_and_paths)
{
	struct ast_script script;
	struct plan plan;
	char *out, *err;

	import_compile("[true]\nsize=1m\n[false]\nsize=1m\nfilename=true\n",
		       &out, &script, &plan);
	HAS(out, "define process name=jtrue,");
	HAS(out, "define process name=jfalse,");
	HAS(out, "define file name=ftrue,");
	ck_assert_int_eq(plan.nprocs, 2);
	plan_free(&plan);
	ast_script_free(&script);
	free(out);
	ck_assert_int_eq(import("[j]\nsize=1m\ndirectory=/tmp/a\x1b]0;x\a\n",
				&out, &err), 1);
	HAS(err, "job.fio:3:1: directory: a control character in the name "
	    "(byte 0x1b at character 7)");
	free(out);
	free(err);
	ck_assert_int_eq(import("[j]\nsize=1m\nfilename=a\rb\n", &out, &err), 1);
	HAS(err, "job.fio:3:1: filename: a control character in the name "
	    "(byte 0x0d at character 2)");
	free(out);
	free(err);
	/* quotes, dollars and backslashes stay inside the string */
	import_compile("[j]\nsize=1m\ndirectory=/tmp/\"x\\\"\nfilename=run\n",
		       &out, &script, &plan);
	HAS(out, "set $dir=\"/tmp/\\\"x\\\\\\\"\"\n");
	ck_assert_str_eq(plan.filesets[0].path, "/tmp/\"x\\\"");
	ck_assert_int_eq(plan.nactions, 0);
	plan_free(&plan);
	ast_script_free(&script);
	free(out);
}
END_TEST

/*
 * Seconds of CPU the import of `text` takes: the least of three runs.
 * The memory freed by one run stays in the heap for the next (the
 * caller's mallopt()): else each large run maps and faults its pages
 * afresh while the small one reuses freed ones, and on a virtual
 * machine whose page faults are slow (seen: a paravirtualised kernel,
 * 28 % of an import in the fault path) that alone made 8x the input
 * cost 55x the time.
 */
static double import_seconds(const char *text)
{
	double best = 1e9;

	for (int i = 0; i < 3; i++) {
		struct timespec t0, t1;
		char *out, *err;

		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
		import(text, &out, &err);
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
		free(out);
		free(err);
		if (t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9 < best)
			best = t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	}
	return best;
}

/* `head`, then `piece` n times. */
static char *repeated(const char *head, const char *piece, int n)
{
	size_t lh = strlen(head), lp = strlen(piece);
	char *s = malloc(lh + (size_t)n * lp + 1), *p = s;

	ck_assert_ptr_nonnull(s);
	memcpy(p, head, lh);
	p += lh;
	for (int i = 0; i < n; i++, p += lp)
		memcpy(p, piece, lp);
	*p = '\0';
	return s;
}

/*
 * Eight times the input costs about eight times the time, not 64 (the
 * option lines were copied whole for each new line: quadratic time and
 * memory) or 512 (a name shared by n jobs was searched for n times in a
 * list of n).  Bounded against the small input's own measured time.
 */
START_TEST(test_linear_time)
{
	static const struct { const char *head, *piece; int n; } inputs[] = {
		{ "[j]\n", "size=1m\n", 4000 },
		{ "[global]\nsize=1m\n", "[a]\n", 500 },
		/* each job after the one before (after= its previous group) */
		{ "[global]\nsize=1m\n", "[a]\nstonewall\n", 500 },
	};

	mallopt(M_MMAP_THRESHOLD, 32 << 20);      /* glibc's largest */
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		char *small = repeated(inputs[i].head, inputs[i].piece, inputs[i].n);
		char *large = repeated(inputs[i].head, inputs[i].piece, 8 * inputs[i].n);
		double t1 = import_seconds(small), t8 = import_seconds(large);

		ck_assert_msg(t8 < 24 * t1 + 0.005, "'%s' x %d: %.4f s, x %d: %.4f s",
			      inputs[i].piece, inputs[i].n, t1, 8 * inputs[i].n, t8);
		free(small);
		free(large);
	}
}
END_TEST

/* `import` with --lenient. */
static int import_lenient(const char *text, char **out, char **err)
{
	size_t n1, n2;
	FILE *o = open_memstream(out, &n1);
	FILE *e = open_memstream(err, &n2);
	int status;

	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_nonnull(e);
	status = fio_import_lenient("job.fio", text, strlen(text), o, e, true);
	fclose(o);
	fclose(e);
	return status;
}

/*
 * Issue 14: a typical team job file was refused whole.  Its options with
 * no effect on the I/O pattern are comments; buffered, blocksize,
 * filesize with size=N%, ${VAR} and trailing comments take effect; and
 * libaio's mapping is said on stderr and in the output.
 */
START_TEST(test_team_job_file)
{
	const char *fio =
		"; the team's job file\n"
		"[global]\n"
		"name=team-test\n"
		"description=nightly random read\n"
		"randrepeat=0\n"
		"norandommap\n"
		"invalidate=1\n"
		"refill_buffers\n"
		"percentile_list=50:99:99.9\n"
		"group_reporting\n"
		"write_lat_log=lat\n"
		"[reader]\n"
		"ioengine=libaio\n"
		"iodepth=8   ; queue depth\n"
		"buffered=0\n"
		"rw=randread\n"
		"blocksize=${FB_TEST_FIO_BS}\n"
		"filesize=1m\n"
		"size=10%\n";
	struct ast_script script;
	struct plan plan;
	char *out, *err, *msgs;

	setenv("FB_TEST_FIO_BS", "16k", 1);
	ck_assert_msg(import(fio, &out, &err) == 0, "import failed:\n%s", err);
	HAS(out, "# name=team-test: no effect on the I/O pattern");
	HAS(out, "# norandommap: plain random (with replacement): flowbench's default");
	HAS(out, "# percentile_list=50:99:99.9: no effect on the I/O pattern");
	HAS(out, "blocksize=${FB_TEST_FIO_BS}: ${FB_TEST_FIO_BS} is 16k (the environment)");
	HAS(out, "set $iosize=16k\n");
	HAS(out, "set $filesize=1m\n");
	/* 10% of 1 MiB */
	HAS(out, "set $iobytes=104857\n");
	HAS(out, "value=$iobytes");
	HAS(out, ",directio");
	HAS(out, "set $iodepth=8\n");
	HAS(out, "flowop aioread");
	HAS(out, "# ioengine=libaio, iodepth=8: aioread/aiowrite on libaio");
	ck_assert_ptr_null(strstr(err, "ioengine=libaio runs"));
	ck_assert_msg(compile_wml(out, &script, &plan, &msgs) == 0,
		      "the import does not compile:\n%s\n%s", msgs, out);
	plan_free(&plan);
	ast_script_free(&script);
	free(msgs);
	free(out);
	free(err);
	unsetenv("FB_TEST_FIO_BS");
}
END_TEST

/*
 * What cannot be honoured stays an error, all of it in one pass; with
 * --lenient each becomes a NOT IMPORTED comment and a warning at its
 * line, and the rest imports.  What changes how much work a job does or
 * what it measures (flow, rw, io_size, an unset ${VAR}) stays an error.
 */
START_TEST(test_lenient)
{
	const char *fio =
		"[a]\n"
		"rw=read\n"
		"size=1m\n"
		"zonemode=zbd\n"
		"[b]\n"
		"ioscheduler=none\n"
		"rw=write\n"
		"filesize=1m\n"
		"bs=${FB_TEST_FIO_UNSET}\n";
	char *out, *err;

	unsetenv("FB_TEST_FIO_UNSET");
	ck_assert_int_eq(import(fio, &out, &err), 1);
	ck_assert_str_eq(out, "");
	HAS(err, "job.fio:4:1: unsupported option 'zonemode'");
	HAS(err, "job.fio:6:1: unsupported option 'ioscheduler'");
	HAS(err, "job.fio:9:1: bs: ${FB_TEST_FIO_UNSET} is not set: give it with "
	    "-D FB_TEST_FIO_UNSET=VALUE");
	free(out);
	free(err);
	/* an unset ${VAR} is not dropped: the option would be fio's default */
	ck_assert_int_eq(import_lenient(fio, &out, &err), 1);
	HAS(err, "job.fio:9:1: bs: ${FB_TEST_FIO_UNSET} is not set");
	free(out);
	free(err);

	setenv("FB_TEST_FIO_UNSET", "8k", 1);
	ck_assert_msg(import_lenient(fio, &out, &err) == 0, "lenient failed:\n%s", err);
	HAS(out, "# NOT IMPORTED: zonemode=zbd (line 4: an option import-fio does "
	    "not support)");
	HAS(out, "# NOT IMPORTED: ioscheduler=none (line 6:");
	HAS(err, "job.fio:4:1: warning: zonemode=zbd: not imported (--lenient): "
	    "an option import-fio does not support; the job runs without it");
	HAS(err, "job.fio:6:1: warning: ioscheduler=none: not imported");
	HAS(out, "set $iosize_2=8k\n");
	free(out);
	free(err);
	unsetenv("FB_TEST_FIO_UNSET");

	/* kept: the amount of work, the pace, the kind of I/O */
	ck_assert_int_eq(import_lenient("[a]\nsize=1m\nflow=2\n", &out, &err), 1);
	HAS(err, "job.fio:3:1: unsupported option 'flow': --lenient keeps it an "
	    "error: it sets the pace of the I/O");
	free(out);
	free(err);
	ck_assert_int_eq(import_lenient("[a]\nsize=1m\nrw=randread:8\n", &out, &err), 1);
	HAS(err, "job.fio:3:1: unsupported rw 'randread:8'");
	free(out);
	free(err);
	ck_assert_int_eq(import_lenient("[a]\nsize=1m\nio_size=2x\n", &out, &err), 1);
	HAS(err, "job.fio:3:1: io_size needs a positive size");
	free(out);
	free(err);
	ck_assert_int_eq(import_lenient("[a]\nsize=1m\nrate_min=1m\n", &out, &err), 1);
	HAS(err, "unsupported option 'rate_min': --lenient keeps it an error: it "
	    "sets the pace of the I/O");
	free(out);
	free(err);
}
END_TEST

/* Aliases: timeout is runtime, rwmixwrite the other side of rwmixread,
 * pvsync2 a synchronous engine, loops multiplies a size-limited job. */
START_TEST(test_aliases)
{
	char *out, *err;

	ck_assert_int_eq(import("[j]\nrw=randrw\nrwmixwrite=30\nsize=1m\n"
				"ioengine=pvsync2\nloops=3\ntimeout=20\n",
				&out, &err), 0);
	HAS(out, "set $rwmixread=70\n");
	HAS(out, "ioengine=pvsync2: one pread/pwrite per op");
	HAS(out, "set $iobytes=3m\n");
	HAS(out, "set $runtime=20\n");
	free(out);
	free(err);
	/* size=N% needs a file size to be a percentage of */
	ck_assert_int_eq(import("[j]\nsize=10%\n", &out, &err), 1);
	HAS(err, "job.fio:2:1: job 'j': size=10% of a size the job file does not "
	    "give (fio takes the file's or device's): give it with -D filesize=SIZE");
	free(out);
	free(err);
}
END_TEST

/* Import, compile with the real compiler, and keep the plan for checks. */
static void import_compiled(const char *job, char **out, struct ast_script *script,
			    struct plan *plan)
{
	char *err, *msgs;

	ck_assert_msg(import(job, out, &err) == 0, "import failed: %s", err);
	free(err);
	ck_assert_msg(compile_wml(*out, script, plan, &msgs) == 0,
		      "does not compile: %s\n%s", msgs, *out);
	free(msgs);
}

static void plan_done(struct plan *plan, struct ast_script *script, char *out)
{
	plan_free(plan);
	ast_script_free(script);
	free(out);
}

/* An import that fails, with `text` in its errors. */
static void import_fails(const char *job, const char *text)
{
	char *out, *err;

	ck_assert_int_eq(import(job, &out, &err), 1);
	HAS(err, text);
	free(out);
	free(err);
}

/* rate_iops and rate: an iopslimit/bwlimit flowop per pass and one event
 * generator at the sum of the clones' rates (bwlimit's events are MiB). */
START_TEST(test_rate)
{
	struct ast_script script;
	struct plan plan;
	char *out;

	import_compiled("[j]\nsize=1m\nrw=read\nrate_iops=1000\n", &out, &script, &plan);
	HAS(out, "    flowop iopslimit name=j-rate\n");
	HAS(out, "set $rate=1000\neventgen rate=$rate * ($nthreads)\n");
	HAS(out, "# rate_iops=1000: the iopslimit flowop after each pass");
	ck_assert_str_eq(flowop(&plan, "j-rate")->ops->name, "iopslimit");
	ck_assert_int_eq(plan_value_int(&plan.eventgen_rate, 0), 1000);
	plan_done(&plan, &script, out);

	import_compiled("[a]\nsize=1m\nrw=randwrite\nrate=2m\nnumjobs=2\n"
			"[b]\nsize=1m\nrw=read\n[c]\nsize=1m\nrate=2m\n",
			&out, &script, &plan);
	HAS(out, "    flowop bwlimit name=a-rate\n");
	HAS(out, "set $rate=2m\neventgen rate=$rate * ($nthreads_1 + $nthreads_3) / 1m\n");
	ck_assert_ptr_null(strstr(out, "b-rate"));
	ck_assert_str_eq(flowop(&plan, "c-rate")->ops->name, "bwlimit");
	/* 2 clones of a and 1 of c at 2 MiB/s each: 6 events (MiB) a second */
	ck_assert_int_eq(plan_value_int(&plan.eventgen_rate, 0), 6);
	plan_done(&plan, &script, out);

	/* a sequential time-based writer is not wrapped by passes (the pass
	 * would be a whole file of writes, limited in one burst): its writes
	 * wrap op by op */
	import_compiled("[w]\nsize=1m\nrw=write\ntime_based\nruntime=5\nrate_iops=50\n",
			&out, &script, &plan);
	ck_assert_ptr_null(strstr(out, "closefile"));
	HAS(out, "iosize=$iosize,workingset=$filesize,wrap,");
	HAS(out, "# sequential writes start again at offset 0 once the next would "
	    "pass $filesize bytes (wrap, with workingset)");
	ck_assert(plan_value_bool(plan_flowop_attr(flowop(&plan, "w-write"), "wrap"), false));
	plan_done(&plan, &script, out);

	import_fails("[j]\nsize=1m\nrw=randrw\nrate_iops=100\n",
		     "job.fio:4:1: job 'j': rate_iops with rw=randrw is not supported");
	import_fails("[j]\nsize=1m\nrate=1m,2m\n",
		     "job.fio:3:1: rate=1m,2m: a rate per direction (',') is not supported");
	import_fails("[j]\nsize=1m\nrate_iops=10\nrate=1m\n",
		     "rate and rate_iops together are not supported");
	import_fails("[a]\nsize=1m\nrate_iops=10\n[b]\nsize=1m\nrate_iops=20\n",
		     "job.fio:6:1: job 'b': a rate unlike job 'a''s");
	import_fails("[j]\nsize=1m\nrate_iops=x\n",
		     "rate_iops needs a whole number");
}
END_TEST

/* thinktime: a delay flowop after each I/O; plain numbers are
 * microseconds, as in fio. */
START_TEST(test_thinktime)
{
	struct ast_script script;
	struct plan plan;
	char *out;

	import_compiled("[j]\nsize=1m\nrw=randread\nthinktime=500\n", &out, &script, &plan);
	HAS(out, "set $thinktime=0.0005\n");
	HAS(out, "    flowop read name=j-read,filename=j-files,iosize=$iosize,random,randommap,noreadahead\n"
		 "    flowop delay name=j-think,value=$thinktime\n");
	ck_assert_str_eq(flowop(&plan, "j-think")->ops->name, "delay");
	plan_done(&plan, &script, out);

	import_compiled("[j]\nsize=1m\nrw=write\nthinktime=2ms\n", &out, &script, &plan);
	HAS(out, "set $thinktime=0.002\n");
	plan_done(&plan, &script, out);

	import_compiled("[j]\nsize=1m\nthinktime=0\n", &out, &script, &plan);
	HAS(out, "# thinktime=0: no pause\n");
	ck_assert_ptr_null(strstr(out, "flowop delay"));
	plan_done(&plan, &script, out);

	/* a mix drawn per I/O: the pause follows each I/O */
	import_compiled("[j]\nsize=1m\nrw=randrw\nthinktime=10\n", &out, &script, &plan);
	HAS(out, "    flowop j-mix name=j\n    flowop delay name=j-think");
	plan_done(&plan, &script, out);
	/* a mix in a fixed pass (fsync after every 4 writes): not per I/O */
	import_fails("[j]\nsize=1m\nrw=randrw\nfsync=4\nthinktime=10\n",
		     "job.fio:5:1: job 'j': thinktime with a read/write mix is not supported");
	import_fails("[j]\nsize=1m\nrw=write\nfsync=4\nthinktime=10\n",
		     "thinktime with fsync is not supported");
	import_fails("[j]\nsize=1m\nioengine=io_uring\niodepth=8\nthinktime=10\n",
		     "thinktime with iodepth > 1 is not supported");
	import_fails("[j]\nsize=1m\nthinktime=9999999999999999\n",
		     "thinktime=9999999999999999 is too large");
}
END_TEST

/* random_distribution=zoned: a mixture of uniform ranges [0, end of zone)
 * whose weights give each zone its share of the I/O. */
START_TEST(test_zoned)
{
	struct ast_script script;
	struct plan plan;
	const struct plan_flowop *z1, *z2, *z3;
	char *out;

	/* 50 % in the first 5 %, 30 % in the next 15 %, 20 % in the rest:
	 * densities 10, 2, 0.25 per %, so ranges of 5 %, 20 %, 100 % in the
	 * ratio 5x(10-2) : 20x(2-0.25) : 100x0.25 = 40 : 35 : 25 = 8 : 7 : 5 */
	import_compiled("[j]\nsize=100m\nrw=randread\n"
			"random_distribution=zoned:50/5:30/15:20/\n", &out, &script, &plan);
	z1 = flowop(&plan, "j-read-zone1");
	z2 = flowop(&plan, "j-read-zone2");
	z3 = flowop(&plan, "j-read-zone3");
	ck_assert_int_eq(plan_attr_int(z1, PA_ITERS, 1), 8);
	ck_assert_int_eq(plan_attr_int(z2, PA_ITERS, 1), 7);
	ck_assert_int_eq(plan_attr_int(z3, PA_ITERS, 1), 5);
	/* 5 % and 20 % of 100 MiB (whole 4k blocks already) */
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(z1, "workingset"), 0), 5242880);
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(z2, "workingset"), 0), 20971520);
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(z3, "workingset"), 0), 100 << 20);
	ck_assert(plan_value_bool(plan_flowop_attr(z1, "random"), false));
	HAS(out, "# random_distribution=zoned:50/5:30/15:20/: one read flowop per range");
	plan_done(&plan, &script, out);

	/* equal densities need one range; writes too */
	import_compiled("[j]\nsize=1m\nrw=randwrite\n"
			"random_distribution=zoned:50/50:50/50\n", &out, &script, &plan);
	ck_assert_int_eq(plan.nflowops, 2);
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(flowop(&plan, "j-write-zone2"),
							 "workingset"), 0), 1 << 20);
	plan_done(&plan, &script, out);

	/* uniform is fio's default; sequential jobs pick no random offset */
	import_compiled("[j]\nsize=1m\nrw=randread\nrandom_distribution=random\n",
			&out, &script, &plan);
	ck_assert_ptr_null(strstr(out, "zone"));
	plan_done(&plan, &script, out);
	import_compiled("[j]\nsize=1m\nrw=read\nrandom_distribution=zoned:60/10:40/90\n",
			&out, &script, &plan);
	HAS(out, "# random_distribution: no effect, the job's I/O is sequential");
	ck_assert_ptr_null(strstr(out, "-zone"));
	plan_done(&plan, &script, out);

	import_fails("[j]\nsize=1m\nrw=randread\nrandom_distribution=zoned:20/50:80/50\n",
		     "job.fio:4:1: job 'j': zone 2 is denser than zone 1");
	import_fails("[j]\nsize=1m\nrw=randread\nrandom_distribution=zoned:50/5:30/15\n",
		     "must each total 100 (here 80 and 20)");
	import_fails("[j]\nsize=1m\nrw=randread\nrandom_distribution=zipf:1.2\n",
		     "random_distribution=zipf:1.2 is not supported");
	import_fails("[j]\nsize=1m\nrw=randread\nrandom_distribution=zoned:50/x:50/\n",
		     "zone '50/x' is not ACCESS%/SPACE%");
	import_fails("[j]\nsize=1m\nrw=randread\nrandom_distribution=zoned:50/0:50/100\n",
		     "zone 1 has 50% of the I/O in 0% of the file");
	import_fails("[j]\nsize=1m\nrw=randrw\nrandom_distribution=zoned:50/5:50/\n",
		     "random_distribution=zoned with a read/write mix is not supported");
	import_fails("[j]\nsize=8k\nrw=randread\nrandom_distribution=zoned:50/1:50/\n",
		     "the first 1% of a 8192-byte file is smaller than one block");
}
END_TEST

/* bssplit: $iosize a tabular random variable of the sizes and shares,
 * scaled as the identity (min = the smallest size) and rounded to the
 * sizes' gcd; a size without a share takes an even part of the rest. */
START_TEST(test_bssplit)
{
	struct ast_script script;
	struct plan plan;
	char *out;

	import_compiled("[j]\nsize=16m\nrw=randread\nbssplit=4k/10:64k/50:32k/\n",
			&out, &script, &plan);
	HAS(out, "set $iosize=randvar(type=tabular,min=4k,round=4k,randtable="
	    "{{10, 4k, 4k}, {50, 64k, 64k}, {40, 32k, 32k}})\n");
	/* random offsets aligned to the smallest size, as fio's */
	HAS(out, "random offsets are multiples of 4096 bytes, as fio aligns them");
	HAS(out, "iosize=$iosize,random,randommap,blockalign=4k,");
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(flowop(&plan, "j-read"),
							 "blockalign"), 0), 4096);
	ck_assert_int_eq(plan_flowop_attr(flowop(&plan, "j-read"), "iosize")->kind,
			 PV_RANDOM);
	plan_done(&plan, &script, out);

	/* sizes of 0 % are left out; the file is rounded to the smallest */
	import_compiled("[j]\nsize=1000k\nrw=write\ntime_based\nruntime=1\n"
			"bssplit=512/0:1536/50:1k/50\n", &out, &script, &plan);
	HAS(out, "randvar(type=tabular,min=1k,round=512,randtable={{50, 1536, 1536}, "
	    "{50, 1k, 1k}})\n");
	HAS(out, "set $filesize=1000k\n");
	/* a random size cannot count a whole file's writes: no wrap */
	ck_assert_ptr_null(strstr(out, "closefile"));
	plan_done(&plan, &script, out);

	import_fails("[j]\nsize=1m\nbssplit=4k/50:8k/40\n",
		     "job.fio:3:1: bssplit=4k/50:8k/40: the percentages must total 100 (here 90)");
	import_fails("[j]\nsize=1m\nbssplit=4k/50:8k:16k:32k\n",
		     "the percentages must total 100 (here 50, and 3 sizes without one "
		     "to share the rest evenly)");
	/* per direction (fio's READS,WRITES): a job's own direction's split */
	import_compiled("[j]\nsize=1m\nrw=randwrite\nbssplit=4k/50:8k/50,16k/25:64k\n",
			&out, &script, &plan);
	HAS(out, "set $iosize=randvar(type=tabular,min=16k,round=16k,randtable="
	    "{{25, 16k, 16k}, {75, 64k, 64k}})\n");
	HAS(out, "drawn from the writes' table");
	HAS(out, "randommap,blockalign=16k,");
	plan_done(&plan, &script, out);
	import_compiled("[j]\nsize=1m\nrw=read\nbssplit=4k/50:8k/50,16k/100,512/100\n",
			&out, &script, &plan);
	HAS(out, "randtable={{50, 4k, 4k}, {50, 8k, 8k}})\n");
	HAS(out, "drawn from the reads' table");
	plan_done(&plan, &script, out);
	/* an empty part: that direction keeps bs */
	import_compiled("[j]\nsize=1m\nrw=write\nbs=8k\nbssplit=4k/50:8k/50,\n",
			&out, &script, &plan);
	HAS(out, "set $iosize=8k\n");
	plan_done(&plan, &script, out);
	/* the same split twice is one split for a mix */
	import_compiled("[j]\nsize=1m\nrw=randrw\nbssplit=4k/50:8k/50,4k/50:8k/50\n",
			&out, &script, &plan);
	HAS(out, "randtable={{50, 4k, 4k}, {50, 8k, 8k}})\n");
	plan_done(&plan, &script, out);
	import_fails("[j]\nsize=1m\nrw=randrw\nbssplit=4k/50:8k/50,16k/100\n",
		     "job.fio:4:1: job 'j': bssplit=4k/50:8k/50,16k/100: a split for reads "
		     "and another for writes on a job that does both is not supported: "
		     "its read and write flowops share one size ($iosize)");
	import_fails("[j]\nsize=1m\nbssplit=4k,8k,16k,32k\n",
		     "bssplit=4k,8k,16k,32k: at most three parts (reads, writes, trims)");
	import_fails("[j]\nsize=1m\nbssplit=\n", "bssplit=: no size");
	import_fails("[j]\nsize=1m\nbssplit=4k/x:8k/50\n", "'x' is not a percentage 0..100");
	import_fails("[j]\nsize=1m\nbssplit=4q/50:8k/50\n",
		     "bssplit needs a positive size like 4k, 1m or 20g, not '4q'");
	import_fails("[j]\nsize=2m\nrw=randread\nbssplit=4k/50:1m/50\n"
		     "random_distribution=zoned:50/1:50/\n",
		     "the first 1% of a 2097152-byte file is smaller than one block (bs=1048576)");
}
END_TEST

/* fdatasync=N: fsync flowops as fsync=N, with a comment on the stronger
 * call; sync=1: every I/O flowop opens with O_SYNC (dsync). */
START_TEST(test_sync_options)
{
	struct ast_script script;
	struct plan plan;
	char *out;

	import_compiled("[j]\nsize=1m\nrw=randrw\nrwmixread=70\nfdatasync=3\nsync=1\n",
			&out, &script, &plan);
	HAS(out, "# fdatasync=3: one fsync after each pass's writes\n");
	HAS(out, "flowbench's fsync flowop calls fsync(2)");
	HAS(out, "    flowop fsync name=j-fsync,filename=j-files\n");
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j-write"), PA_ITERS, 1), 3);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j-read"), PA_ITERS, 1), 7);
	ck_assert(plan_value_bool(plan_flowop_attr(flowop(&plan, "j-read"), "dsync"), false));
	ck_assert(plan_value_bool(plan_flowop_attr(flowop(&plan, "j-write"), "dsync"), false));
	plan_done(&plan, &script, out);

	import_compiled("[j]\nsize=1m\nrw=write\nsync=none\nfdatasync=0\n",
			&out, &script, &plan);
	ck_assert_ptr_null(strstr(out, ",dsync"));
	ck_assert_ptr_null(strstr(out, "flowop fsync"));
	plan_done(&plan, &script, out);

	import_fails("[j]\nsize=1m\nrw=write\nfsync=2\nfdatasync=2\n",
		     "job.fio:5:1: job 'j': fsync and fdatasync together are not supported");
	import_fails("[j]\nsize=1m\nsync=dsync\n",
		     "job.fio:3:1: sync=dsync (O_DSYNC) is not supported");
	import_fails("[j]\nsize=1m\nsync=2\n", "sync is 0 or 1, not '2'");
	import_fails("[j]\nsize=1m\nrw=write\nnrfiles=2\nfdatasync=1\n",
		     "fdatasync with nrfiles > 1 is not supported");
}
END_TEST

/* offset=O: the file is size + O bytes (fio's layout) and the job's I/O
 * is in its last `size` bytes: misalign=$offset starts sequential runs
 * there and shifts random blocks, workingset=$filesize + $offset ends
 * them at the file's end. */
START_TEST(test_offset)
{
	struct ast_script script;
	struct plan plan;
	const struct plan_flowop *rd;
	char *out;

	import_compiled("[j]\nsize=1m\nrw=randread\noffset=256k\noffset_increment=1m\n",
			&out, &script, &plan);
	HAS(out, "set $offset=256k\n");
	HAS(out, ",size=$filesize + $offset,");
	HAS(out, "workingset=$filesize + $offset,misalign=$offset,random");
	HAS(out, "# offset_increment=1m: no effect with one clone\n");
	ck_assert_uint_eq(plan.filesets[0].size, 1280u << 10);
	rd = flowop(&plan, "j-read");
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(rd, "misalign"), 0), 256 << 10);
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(rd, "workingset"), 0), 1280 << 10);
	/* the job still does `size` bytes */
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(flowop(&plan, "j-done"), "value"), 0),
			 (1 << 20) - 1);
	plan_done(&plan, &script, out);

	/* zones are shifted by the offset too; a wrapping writer restarts there */
	import_compiled("[j]\nsize=100m\nrw=randwrite\noffset=4k\n"
			"random_distribution=zoned:50/5:30/15:20/\n", &out, &script, &plan);
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(flowop(&plan, "j-write-zone1"),
							 "workingset"), 0), 5242880 + 4096);
	plan_done(&plan, &script, out);
	import_compiled("[j]\nfilename=f\nsize=1m\nrw=write\noffset=8k\ntime_based\nruntime=1\n",
			&out, &script, &plan);
	HAS(out, "misalign=$offset,data=random,scramble,iters=$filesize / $iosize\n");
	HAS(out, "sequential writes start again at offset $offset after each");
	plan_done(&plan, &script, out);
	/* an asynchronous writer wraps op by op; a reader at an offset too */
	import_compiled("[j]\nfilename=f\nsize=1m\nrw=write\noffset=8k\ntime_based\n"
			"runtime=1\nioengine=libaio\niodepth=4\n[r]\nfilename=g\nsize=1m\n"
			"offset=4k\ntime_based\nruntime=1\nioengine=io_uring\niodepth=2\n",
			&out, &script, &plan);
	HAS(out, "flowop aiowrite name=j-write,filename=f,iosize=$iosize_1,"
	    "workingset=$filesize_1 + $offset_1,misalign=$offset_1,wrap,");
	HAS(out, "flowop aioread name=r-read,filename=g,iosize=$iosize_2,"
	    "workingset=$filesize_2 + $offset_2,misalign=$offset_2,wrap,");
	plan_done(&plan, &script, out);

	import_fails("[j]\nsize=1m\nnumjobs=257\noffset_increment=1m\n",
		     "job.fio:4:1: job 'j': offset_increment with numjobs > 1 is not supported");
	import_fails("[j]\nsize=1m\nnrfiles=2\noffset=4k\n",
		     "offset with nrfiles > 1 is not supported");
	import_fails("[a]\nfilename=/data/f\nsize=1m\n[b]\nfilename=/data/f\nsize=1m\n"
		     "offset=1m\n", "job.fio:7:1: job 'b': offset on a file another job "
		     "uses too is not supported");
	import_fails("[j]\nsize=1m\noffset=10%\n", "job.fio:3:1: job 'j': offset=10% "
		     "of a size the job file does not give: give the file's or "
		     "device's size with -D filesize=SIZE");
	import_fails("[j]\nsize=1m\noffset=100%\n", "offset=100%: a percentage is "
		     "0% to 99%");
}
END_TEST

/* openfiles at least nrfiles, and file_service_type=roundrobin, are what
 * flowbench does anyway: comments; anything else an error. */
START_TEST(test_file_service)
{
	struct ast_script script;
	struct plan plan;
	char *out;

	import_compiled("[j]\nsize=1m\nnrfiles=2\nopenfiles=2\nfile_service_type=roundrobin\n",
			&out, &script, &plan);
	HAS(out, "# openfiles=2: no effect, flowbench keeps the job's 2 files open");
	HAS(out, "# file_service_type=roundrobin: as fio's default and flowbench's opennext\n");
	ck_assert(plan_value_bool(plan_flowop_attr(flowop(&plan, "j-read"), "opennext"), false));
	plan_done(&plan, &script, out);

	import_fails("[j]\nsize=1m\nnrfiles=4\nopenfiles=1\n",
		     "job.fio:4:1: job 'j': openfiles=1 below nrfiles=4 is not supported");
	import_fails("[j]\nsize=1m\nnrfiles=4\nfile_service_type=random\n",
		     "job.fio:4:1: file_service_type=random is not supported");
}
END_TEST

/* Options fio itself ignores are comments. */
START_TEST(test_fio_ignored)
{
	char *out, *err;

	/* tiobench's profile option: fio forks processes all the same */
	ck_assert_int_eq(import("[j]\nsize=1m\nthreads=1\n", &out, &err), 0);
	HAS(out, "# threads=1: no effect on the I/O pattern (an option of fio's "
	    "tiobench profile");
	HAS(out, "define process name=j,instances=$nthreads\n");
	free(out);
	free(err);
	ck_assert_int_eq(import("[j]\nsize=1m\nrwmixcycle=40\n", &out, &err), 0);
	HAS(out, "# rwmixcycle=40: no effect on the I/O pattern (deprecated: fio "
	    "accepts it and ignores it)");
	free(out);
	free(err);
}
END_TEST

/* The plan's process of that name. */
static const struct plan_proc *proc(const struct plan *p, const char *name)
{
	for (int i = 0; i < p->nprocs; i++)
		if (strcmp(p->procs[i].name, name) == 0)
			return &p->procs[i];
	ck_abort_msg("no process %s", name);
	return NULL;
}

/* The names of the processes `name` starts after, ':'-separated. */
static char *after_names(const struct plan *p, const char *name)
{
	const struct plan_proc *pr = proc(p, name);
	static char buf[256];

	buf[0] = '\0';
	for (int i = 0; i < pr->nafter; i++)
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
			 i ? ":" : "", p->procs[pr->after[i]].name);
	return buf;
}

/*
 * Run phases (issue 14): stonewall starts a group after every job before
 * it (after= the previous group's jobs), wait_for after the named job,
 * startdelay late, and each job keeps its own runtime: per-process
 * attributes, the run ending when every job has ended.
 */
START_TEST(test_phases)
{
	struct ast_script script;
	struct plan plan;
	char *out;

	import_compiled("[global]\nsize=1m\n"
			"[a]\nrw=write\n"
			"[b]\nrw=read\n"
			"[c]\nstonewall\nrw=randread\nruntime=5\ntime_based\n"
			"[d]\nrw=randwrite\nruntime=7\ntime_based\n"
			"[e]\nstonewall\nrw=read\nruntime=3\n"
			"[f]\nwait_for=a\nstartdelay=1500ms\nrw=read\n",
			&out, &script, &plan);
	/* a phase too, for its rates over its own window */
	HAS(out, "define process name=a,instances=$nthreads_1,startdelay=0\n");
	HAS(out, "# startdelay=0: no delay; as a phase its ops/s are over its own "
	    "run time, as fio reports each job\n");
	HAS(out, "define process name=c,instances=$nthreads_3,after=\"a:b\","
	    "runtime=$runtime_3\n");
	/* d is in c's group: it starts with c, after the jobs before c */
	HAS(out, "define process name=d,instances=$nthreads_4,after=\"a:b\","
	    "runtime=$runtime_4\n");
	/* the previous group only: c and d themselves waited for a and b */
	HAS(out, "define process name=e,instances=$nthreads_5,after=\"c:d\","
	    "runtime=$runtime_5\n");
	HAS(out, "define process name=f,instances=$nthreads_6,after=\"c:d:a\","
	    "startdelay=$startdelay_6\n");
	HAS(out, "set $runtime_3=5\n");
	HAS(out, "set $runtime_4=7\n");
	HAS(out, "set $startdelay_6=1.5\n");
	HAS(out, "# stonewall: starts when every job before it has ended");
	HAS(out, "# wait_for=a: starts when that job has ended (after=)\n");
	HAS(out, "# runtime=3: the job's own run time ($runtime_5; the process's "
	    "threads stop then), or earlier once it has done its bytes\n");
	HAS(out, "set mode quit alldone\n");
	HAS(out, "set $runtime=0\nrun $runtime\n");
	ck_assert_str_eq(after_names(&plan, "c"), "a:b");
	ck_assert_str_eq(after_names(&plan, "e"), "c:d");
	ck_assert_str_eq(after_names(&plan, "f"), "c:d:a");
	ck_assert(proc(&plan, "f")->startdelay_s == 1.5);
	ck_assert(proc(&plan, "d")->runtime_s == 7);
	ck_assert(proc(&plan, "e")->runtime_s == 3);
	ck_assert_int_eq(proc(&plan, "a")->nafter, 0);
	ck_assert(proc(&plan, "a")->phased);
	plan_done(&plan, &script, out);

	/* different runtimes alone: per-process runtime, once an error */
	import_compiled("[a]\nsize=1m\nruntime=5\n[b]\nsize=1m\nruntime=6\n",
			&out, &script, &plan);
	HAS(out, "define process name=b,instances=$nthreads_2,runtime=$runtime_2\n");
	ck_assert(proc(&plan, "a")->runtime_s == 5);
	ck_assert(proc(&plan, "b")->runtime_s == 6);
	plan_done(&plan, &script, out);

	/* stonewall on the first job, and new_group, change nothing */
	import_compiled("[a]\nsize=1m\nstonewall\nnew_group\nruntime=5\n",
			&out, &script, &plan);
	HAS(out, "set $runtime=5\nrun $runtime\n");
	ck_assert_int_eq(proc(&plan, "a")->nafter, 0);
	plan_done(&plan, &script, out);

	import_fails("[a]\nsize=1m\n[b]\nsize=1m\nwait_for=writers\n",
		     "job.fio:5:1: job 'b': wait_for=writers: no job of that name "
		     "before it");
	import_fails("[b]\nsize=1m\nwait_for=a\n[a]\nsize=1m\n",
		     "job.fio:3:1: job 'b': wait_for=a: no job of that name before it");
	import_fails("[a]\nsize=1m\nstartdelay=1-5\n",
		     "job.fio:3:1: startdelay=1-5: a range is not supported");
}
END_TEST

/* `import_compiled` for output that needs -D filesize...: the variable
 * appended (WML binds late), as -D gives it. */
static void compiled_with(const char *out, const char *set, struct ast_script *script,
			  struct plan *plan)
{
	char *src, *msgs;
	const char *run = strstr(out, "\nrun ");

	/* before the run statement, after which nothing is executed */
	ck_assert_ptr_nonnull(run);
	ck_assert_int_ge(asprintf(&src, "%.*s\n%s%s", (int)(run - out), out, set,
				  run + 1), 0);
	ck_assert_msg(compile_wml(src, script, plan, &msgs) == 0,
		      "does not compile: %s\n%s", msgs, src);
	free(msgs);
	free(src);
}

/*
 * A device is the target itself (define device), its job's region the
 * flowops' workingset (and misalign for an offset); without size the
 * region's size comes from -D filesize=... (the output sets no
 * $filesize, so the compiler refuses it until then).  /dev/null and
 * /dev/zero stay errors without --lenient, which makes them files.
 */
START_TEST(test_devices)
{
	struct ast_script script;
	struct plan plan;
	char *out, *err, *msgs;

	ck_assert_int_eq(import("[j]\nfilename=/dev/sdb\nsize=64m\n", &out, &err), 0);
	ck_assert_ptr_null(strstr(err, "is a device"));
	HAS(out, "define device name=sdb,path=\"/dev/sdb\"\n");
	HAS(out, "set $filesize=64m\n");
	HAS(out, "# filename=/dev/sdb: the block device itself (define device sdb); "
	    "a run writes it only with --write-device /dev/sdb, and never over a "
	    "file system, partition table or other data on it\n");
	compiled_with(out, "", &script, &plan);
	ck_assert(fileset(&plan, "sdb")->is_device);
	plan_done(&plan, &script, out);
	free(err);

	/* random I/O in the job's region: [offset, offset + size) of the device */
	ck_assert_int_eq(import("[j]\nfilename=/dev/sdb\nsize=64m\noffset=1g\n"
				"rw=randwrite\n", &out, &err), 0);
	HAS(out, "filename=sdb,iosize=$iosize,workingset=$filesize + $offset,"
	    "misalign=$offset,random");
	compiled_with(out, "", &script, &plan);
	ck_assert(fileset(&plan, "sdb")->dev_writes);
	plan_done(&plan, &script, out);
	free(err);
	/* time-based sequential I/O wraps at the region's end */
	ck_assert_int_eq(import("[j]\nfilename=/dev/sdb\nsize=64m\nrw=read\n"
				"time_based\nruntime=5\n", &out, &err), 0);
	HAS(out, "filename=sdb,iosize=$iosize,workingset=$filesize,wrap");
	free(out);
	free(err);

	ck_assert_int_eq(import("[j]\nfilename=/dev/nvme0n1\nrw=randread\n", &out, &err), 0);
	HAS(err, "job.fio:2:1: warning: job 'j': no size (fio would use the whole "
	    "device): the file's size is not in the job file: give it when "
	    "running, with -D filesize=SIZE");
	ck_assert_ptr_null(strstr(out, "set $filesize"));
	HAS(out, "# REQUIRED: the size of the file of job 'j' is not in the job "
	    "file: run with -D filesize=SIZE\n");
	HAS(out, "flowop finishonbytes name=j-done,value=$filesize - 1\n");
	ck_assert_int_ne(compile_wml(out, &script, &plan, &msgs), 0);
	HAS(msgs, "variable '$filesize' is not set");
	free(msgs);
	plan_free(&plan);
	ast_script_free(&script);
	compiled_with(out, "set $filesize=64m\n", &script, &plan);
	ck_assert(fileset(&plan, "nvme0n1")->is_device);
	plan_done(&plan, &script, out);
	free(err);

	/* two jobs on one device share its file, and its $filesize */
	ck_assert_int_eq(import("[global]\nfilename=/dev/fioa\n[fill]\nrw=write\n"
				"[steady]\nstonewall\nrw=randwrite\n", &out, &err), 0);
	HAS(out, "# REQUIRED: the size of the file of job 'fill' is not in the job "
	    "file: run with -D filesize_1=SIZE\n");
	HAS(out, "flowop finishonbytes name=steady-done,value=$filesize_1 - 1\n");
	HAS(out, "# no size: the job uses the file of job 'fill' and its $filesize_1");
	compiled_with(out, "set $filesize_1=1m\n", &script, &plan);
	plan_done(&plan, &script, out);
	free(err);

	/* fill_device on a file: the file system's size, from -D */
	ck_assert_int_eq(import("[j]\nfilename=data\nrw=write\nfill_device=1\n",
				&out, &err), 0);
	HAS(out, "# fill_device=1: fio fills the file system; here the file is "
	    "$filesize bytes, given with -D\n");
	ck_assert_ptr_null(strstr(out, "set $filesize"));
	compiled_with(out, "set $filesize=1m\n", &script, &plan);
	plan_done(&plan, &script, out);
	free(err);

	/* fio's file is the job's name when that is a device */
	ck_assert_int_eq(import("[/dev/sdc]\nrw=read\nsize=1m\n", &out, &err), 0);
	HAS(out, "# the job's name (fio's file) /dev/sdc: the block device itself");
	HAS(out, "define device name=sdc,path=\"/dev/sdc\"\n");
	compiled_with(out, "", &script, &plan);
	plan_done(&plan, &script, out);
	free(err);
	ck_assert_int_eq(import("[/dev/sdc]\nrw=read\nsize=1m\nnrfiles=2\n", &out, &err), 0);
	HAS(out, "define fileset name=j_dev_sdc-files");
	free(out);
	free(err);

	import_fails("[j]\nfilename=/dev/null\nrw=write\n",
		     "job.fio:2:1: job 'j': filename=/dev/null stores nothing");
	import_fails("[j]\nfilename=/dev/zero\nsize=1m\n",
		     "job.fio:2:1: job 'j': filename=/dev/zero stores nothing");
	ck_assert_int_eq(import_lenient("[j]\nfilename=/dev/null\nrw=write\n",
					&out, &err), 0);
	HAS(out, "define file name=null,path=$dir,size=$filesize,prealloc,reuse\n");
	HAS(out, "# filename=/dev/null stores nothing: the job runs on the file null "
	    "in $dir (--lenient)\n");
	free(out);
	free(err);
}
END_TEST

/*
 * verify on a job that writes: a read-back process after it, reading the
 * same bytes sequentially, with a warning that the data is not checked;
 * do_verify=0 none; on a read job a comment; with time_based an error.
 */
START_TEST(test_verify)
{
	struct ast_script script;
	struct plan plan;
	char *out, *err;

	ck_assert_int_eq(import("[w]\nrw=randwrite\nsize=1m\ndirect=1\n"
				"ioengine=libaio\niodepth=16\nverify=crc32c\n"
				"verify_fatal=1\nverify_backlog=16\n[r]\nwait_for=w\n"
				"size=1m\n", &out, &err), 0);
	HAS(err, "job.fio:7:1: warning: job 'w': verify=crc32c: the read-back runs "
	    "as process w-verify after the job, but flowbench does not check the data");
	HAS(out, "define process name=w-verify,instances=$nthreads_1,after=w\n");
	HAS(out, "    flowop aioread name=w-verify,filename=w-files,iosize=$iosize_1,"
	    "directio,ioengine=libaio,iodepth=$iodepth_1,iodepth_batch_submit=1,"
	    "iodepth_batch_complete_min=1,iodepth_batch_complete_max=1,"
	    "iodepth_low=$iodepth_1\n"
	    "    flowop finishonbytes name=w-verify-done,value=$filesize_1 - 1\n");
	HAS(out, "# verify_fatal=1: no effect on the I/O pattern");
	HAS(out, "# verify_backlog=16: no effect on the I/O pattern");
	/* waiting for a job waits for its read-back too */
	HAS(out, "define process name=r,instances=$nthreads_2,after=\"w:w-verify\"\n");
	free(err);
	compiled_with(out, "", &script, &plan);
	ck_assert_str_eq(after_names(&plan, "w-verify"), "w");
	ck_assert_str_eq(after_names(&plan, "r"), "w:w-verify");
	/* sequential: no random attribute on the read-back */
	ck_assert(!plan_value_bool(plan_flowop_attr(flowop(&plan, "w-verify"),
						    "random"), false));
	plan_done(&plan, &script, out);

	ck_assert_int_eq(import("[w]\nrw=write\nsize=1m\nverify=md5\ndo_verify=0\n",
				&out, &err), 0);
	ck_assert_ptr_null(strstr(out, "w-verify"));
	HAS(out, "# verify=md5 with do_verify=0: no read-back\n");
	free(out);
	free(err);
	ck_assert_int_eq(import("[r]\nrw=read\nsize=1m\nverify=meta\n", &out, &err), 0);
	ck_assert_ptr_null(strstr(out, "r-verify"));
	HAS(out, "# verify=meta: fio checks the data it reads; flowbench reads it "
	    "but does not check it\n");
	free(out);
	free(err);
	ck_assert_int_eq(import("[w]\nrw=write\nsize=1m\nverify=0\n", &out, &err), 0);
	ck_assert_ptr_null(strstr(out, "w-verify"));
	free(out);
	free(err);
	import_fails("[w]\nrw=write\nsize=1m\nverify=md5\ntime_based\nruntime=5\n",
		     "job.fio:4:1: job 'w': verify with time_based (the read-back "
		     "follows the writes, which here end only with the run) is not "
		     "supported");
	import_fails("[w]\nrw=randrw\nsize=1m\nverify=md5\n",
		     "job.fio:4:1: job 'w': verify with a read/write mix");
}
END_TEST

/* bsrange=A-A is bs=A; a real range an error.  blockalign=bs is what
 * flowbench does anyway: a comment; another alignment an error. */
START_TEST(test_bsrange_blockalign)
{
	struct ast_script script;
	struct plan plan;
	char *out;

	import_compiled("[j]\nsize=1m\nbsrange=8k-8k\nrw=randread\nblockalign=8k\n",
			&out, &script, &plan);
	HAS(out, "set $iosize=8k\n");
	HAS(out, "# blockalign=8k: flowbench aligns random offsets to the I/O size "
	    "anyway\n");
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(flowop(&plan, "j-read"),
							 "iosize"), 0), 8192);
	plan_done(&plan, &script, out);
	import_compiled("[j]\nsize=1m\nrw=read\nblockalign=512\n", &out, &script, &plan);
	HAS(out, "# blockalign=512: no effect, the job's I/O is sequential\n");
	plan_done(&plan, &script, out);

	/* fio's draw: 4k, 8k, 12k, 16k with odds 1/4 each; offsets aligned to 4k */
	import_compiled("[j]\nsize=1m\nbsrange=16k-4k\nrw=randread\n", &out, &script, &plan);
	HAS(out, "set $iosize=randvar(type=tabular,min=2k,round=4k,randtable="
	    "{{100, 2k, 18k}})\n");
	HAS(out, "# bsrange=16k-4k: each I/O's size drawn as fio draws it");
	HAS(out, "iosize=$iosize,random,randommap,blockalign=4k,");
	plan_done(&plan, &script, out);
	/* not a multiple: 4k and 8k with odds 4/10 each, 10k the rest */
	import_compiled("[j]\nsize=1m\nbsrange=4k:10k\nrw=read\n", &out, &script, &plan);
	HAS(out, "set $iosize=randvar(type=tabular,min=4k,round=2k,randtable="
	    "{{40, 4k, 4k}, {40, 8k, 8k}, {20, 10k, 10k}})\n");
	ck_assert_ptr_null(strstr(out, "blockalign="));
	plan_done(&plan, &script, out);
	/* bs after bsrange: one size again */
	import_compiled("[j]\nsize=1m\nbsrange=4k-16k\nbs=8k\n", &out, &script, &plan);
	HAS(out, "set $iosize=8k\n");
	plan_done(&plan, &script, out);
	/* another blockalign without fio's random map */
	import_compiled("[j]\nsize=1m\nrw=randread\nbs=8k\nblockalign=4k\nnorandommap\n",
			&out, &script, &plan);
	HAS(out, "iosize=$iosize,random,blockalign=4k,");
	HAS(out, "# blockalign=4k: random offsets are multiples of it (blockalign)\n");
	plan_done(&plan, &script, out);
	import_compiled("[j]\nsize=1m\nrw=randread\nbssplit=4k/50:8k/50\nblockalign=2k\n"
			"norandommap\n", &out, &script, &plan);
	HAS(out, "iosize=$iosize,random,blockalign=2k,");
	plan_done(&plan, &script, out);
	/* fio's map marks blocks of the smallest size: another blockalign refused */
	import_fails("[j]\nsize=1m\nrw=randread\nbssplit=4k/50:8k/50\nblockalign=2k\n",
		     "job.fio:5:1: job 'j': blockalign=2k with fio's random map is not "
		     "supported: fio draws blocks of blockalign but marks blocks of the "
		     "smallest size (4096) done");

	import_fails("[j]\nsize=1m\nbsrange=4k\n", "bsrange needs a range like 4k-64k");
	import_fails("[j]\nsize=1m\nbsrange=4k-8k,4k-16k\n",
		     "bsrange=4k-8k,4k-16k: one range for reads and writes only");
	import_fails("[j]\nsize=1m\nrw=randread\nbs=8k\nblockalign=4k\n",
		     "job.fio:5:1: job 'j': blockalign=4k with fio's random map is not "
		     "supported");
}
END_TEST

/*
 * libaio on buffered files is still libaio (issue 22): Linux's io_submit
 * does the buffered I/O before it returns, and that is what fio measures
 * too, so aioread on libaio, with a note and no warning.  io_uring and
 * posixaio are their own engines either way.
 */
START_TEST(test_buffered_aio)
{
	struct ast_script script;
	struct plan plan;
	char *out, *err;

	ck_assert_int_eq(import("[j]\nsize=1m\nrw=randread\nioengine=libaio\n"
				"iodepth=16\n", &out, &err), 0);
	HAS(out, "    flowop aioread name=j-read,");
	HAS(out, ",ioengine=libaio,iodepth=$iodepth,");
	HAS(out, "on buffered files the kernel does each I/O inside the submission");
	ck_assert_str_eq(err, "");
	free(out);
	free(err);
	import_compiled("[j]\nsize=1m\nrw=randread\nioengine=io_uring\niodepth=16\n",
			&out, &script, &plan);
	HAS(out, "    flowop aioread name=j-read,");
	plan_done(&plan, &script, out);
	import_compiled("[j]\nsize=1m\nrw=randread\nioengine=posixaio\niodepth=16\n"
			"direct=1\n", &out, &script, &plan);
	HAS(out, "    flowop aioread name=j-read,");
	plan_done(&plan, &script, out);
	/* a buffered random writer on libaio: aiowrite takes noreadahead too */
	import_compiled("[j]\nsize=1m\nrw=randwrite\nioengine=libaio\niodepth=16\n",
			&out, &script, &plan);
	HAS(out, "    flowop aiowrite name=j-write,");
	HAS(out, ",noreadahead,ioengine=libaio,");
	plan_done(&plan, &script, out);
	/* at iodepth 1 a mix is still drawn per I/O: a choice of aioread and aiowrite */
	import_compiled("[j]\nsize=1m\nrw=randrw\nioengine=libaio\n", &out, &script, &plan);
	HAS(out, "define flowop name=j-mix,choose");
	HAS(out, "  flowop aioread name=read,weight=$rwmixread,");
	HAS(out, "  flowop aiowrite name=write,weight=100 - $rwmixread,");
	plan_done(&plan, &script, out);
}
END_TEST

/*
 * --lenient imports what used to stop a job: no size (from -D), an
 * unset ${VAR}, and options the workload cannot honour (zones without a
 * size, offset_increment with more clones than are made jobs of their
 * own, another blockalign with fio's random map) become
 * NOT IMPORTED notes under their job.
 */
START_TEST(test_lenient_jobs)
{
	struct ast_script script;
	struct plan plan;
	char *out, *err;
	const char *fio = "[j]\nrw=randrw\nfilename=/tmp/x\nnumjobs=300\n"
		"offset_increment=1m\nrandom_distribution=zoned:50/5:50/95\n"
		"bs=8k\nblockalign=4k\n";

	ck_assert_int_eq(import(fio, &out, &err), 1);
	HAS(err, "job.fio:5:1: job 'j': offset_increment with numjobs > 1 is not "
	    "supported");
	free(out);
	free(err);
	ck_assert_msg(import_lenient(fio, &out, &err) == 0, "lenient failed:\n%s", err);
	HAS(err, "job.fio:1:1: warning: job 'j': no size (--lenient): the file's "
	    "size is not in the job file");
	/* what --lenient drops is said at its own line too */
	HAS(err, "job.fio:5:1: warning: job 'j': offset_increment=1m: not imported "
	    "(--lenient): flowbench has no per-clone offset; the job runs without it");
	HAS(err, "job.fio:8:1: warning: job 'j': blockalign=4k: not imported");
	HAS(out, "# NOT IMPORTED: offset_increment=1m (line 5: flowbench has no "
	    "per-clone offset)\n");
	HAS(out, "# NOT IMPORTED: random_distribution=zoned:50/5:50/95 (line 6: ");
	HAS(out, "# NOT IMPORTED: blockalign=4k (line 8: fio's random map "
	    "marks blocks of the smallest size)\n");
	compiled_with(out, "set $filesize=1m\n", &script, &plan);
	plan_done(&plan, &script, out);
	free(err);
}
END_TEST

/* number_ios=N: each clone stops after N reads and writes (finishoncount
 * counts the thread's I/O ops), the run when every job has ended; with
 * time_based fio ignores it, and so does the import.
 * percentage_random: 0 is sequential, 100 the default (between: test_mix). */
START_TEST(test_number_ios_pct_random)
{
	struct ast_script script;
	struct plan plan;
	char *out;

	import_compiled("[j]\nsize=1m\nrw=randread\nnumber_ios=100\n"
			"percentage_random=0\n", &out, &script, &plan);
	HAS(out, "set $nios=100\n");
	HAS(out, "    flowop finishoncount name=j-count,value=$nios\n");
	HAS(out, "set mode quit alldone\n");
	HAS(out, "# percentage_random=0: sequential offsets, as in fio\n");
	ck_assert_int_eq(plan_value_int(plan_flowop_attr(flowop(&plan, "j-count"),
							 "value"), 0), 100);
	ck_assert(!plan_value_bool(plan_flowop_attr(flowop(&plan, "j-read"),
						    "random"), false));
	plan_done(&plan, &script, out);
	/* with time_based fio runs for the runtime whatever number_ios says
	 * (fio 3.33, measured): no limit, and the sequential writes wrap in
	 * whole-file passes as without it */
	import_compiled("[j]\nsize=1m\nrw=write\nnumber_ios=10\ntime_based\nruntime=5\n",
			&out, &script, &plan);
	HAS(out, "# number_ios=10 with time_based: fio runs the job until its runtime "
	    "whatever number_ios says, as here\n");
	ck_assert_ptr_null(strstr(out, "finishoncount"));
	ck_assert_ptr_nonnull(strstr(out, "j-close"));
	plan_done(&plan, &script, out);
	import_fails("[j]\nsize=1m\nnumber_ios=0\n", "number_ios needs a whole number");
}
END_TEST

/* The write flowop of `job` (which must import and compile) has `attrs`. */
static void data_is(const char *job, const char *attrs)
{
	struct ast_script script;
	struct plan plan;
	char *out;

	import_compiled(job, &out, &script, &plan);
	ck_assert_msg(strstr(out, attrs) && (strstr(out, attrs)[strlen(attrs)] == '\n' ||
					     strstr(out, attrs)[strlen(attrs)] == ','),
		      "expected \"%s\" at the end of the write's attributes in:\n%s",
		      attrs, out);
	plan_done(&plan, &script, out);
}

/*
 * The data a job writes, as fio decides it: its callbacks in the order
 * the options come (buffer_pattern refills if the job reads or
 * compresses by then, and clears zero and scramble), its fixups (100 %
 * compressible is zeros; compressing refills unless refill_buffers was
 * given), verify's fill, refill's chunks (the smaller of the smallest
 * write and buffer_compress_chunk), scramble unless compressing; fio's
 * pattern forms; and the errors.
 */
START_TEST(test_buffer_data)
{
	char *out, *err;

	/* fio's default: random bytes once per buffer, scrambled per write */
	data_is("[j]\nsize=1m\nrw=write\n", ",data=random,scramble");
	data_is("[j]\nsize=1m\nrw=randwrite\nverify=md5\n", ",data=random,refill");
	data_is("[j]\nsize=1m\nrw=write\nverify=crc32c\nbuffer_compress_percentage=25\n",
		",data=zero,compress=25,compresschunk=0,refill");
	data_is("[j]\nsize=1m\nrw=write\nbuffer_compress_percentage=50\n",
		",data=zero,compress=50,compresschunk=512,refill");
	/* ZFS's perf tests */
	data_is("[j]\nsize=1m\nrw=randrw\nbs=8k\nbuffer_compress_percentage=66\n"
		"buffer_pattern=0xdeadbeef\nbuffer_compress_chunk=4096\n",
		",data=pattern,pattern=\"0xdeadbeef\",compress=66,compresschunk=4k,refill");
	data_is("[j]\nsize=1m\nrw=write\nbs=1k\nbuffer_compress_percentage=66\n"
		"buffer_compress_chunk=4096\n",
		",data=zero,compress=66,compresschunk=1k,refill");
	/* the pattern's refill depends on what the job does when it is read */
	data_is("[j]\nsize=1m\nrw=write\nbuffer_pattern=0xdeadbeef\n",
		",data=pattern,pattern=\"0xdeadbeef\"");
	data_is("[j]\nsize=1m\nbuffer_pattern=0xdeadbeef\nrw=write\n",
		",data=pattern,pattern=\"0xdeadbeef\",refill");
	data_is("[j]\nsize=1m\nrw=write\nbuffer_compress_percentage=100\n", ",data=zero");
	data_is("[j]\nsize=1m\nrw=write\nzero_buffers\n", ",data=zero");
	data_is("[j]\nsize=1m\nrw=write\nzero_buffers\nscramble_buffers=1\n",
		",data=zero,scramble");
	data_is("[j]\nsize=1m\nrw=write\nscramble_buffers=0\n", ",data=random");
	data_is("[j]\nsize=1m\nrw=write\nrefill_buffers\n", ",data=random,refill");
	data_is("[j]\nsize=1m\nrw=write\ndedupe_percentage=30\ndedupe_mode=repeat\n",
		",data=random,refill,dedupe=30");
	data_is("[j]\nsize=1m\nrw=write\ndedupe_percentage=30\nbuffer_compress_percentage=50\n",
		",data=zero,compress=50,compresschunk=512,refill,dedupe=30");
	/* fio's pattern forms: strings, decimal numbers (lowest byte first), hex */
	data_is("[j]\nsize=1m\nrw=write\nbuffer_pattern=\"ab\"2580xabc\n",
		",data=pattern,pattern=\"0x616202010abc\"");
	/* asynchronous writes too (a buffer per request in flight) */
	data_is("[j]\nsize=1m\nrw=write\nioengine=libaio\niodepth=8\nrefill_buffers\n",
		",data=random,refill");
	/* a job that only reads writes nothing */
	ck_assert_int_eq(import("[j]\nsize=1m\nrw=read\nbuffer_compress_percentage=50\n",
				&out, &err), 0);
	ck_assert_ptr_null(strstr(out, "data="));
	free(out);
	free(err);

	import_fails("[j]\nsize=1m\nrw=write\nbuffer_pattern='/etc/passwd'\n",
		     "job.fio:4:1: buffer_pattern='/etc/passwd': a pattern import-fio reads is "
		     "hex (0x...), decimal numbers and \"strings\"");
	import_fails("[j]\nsize=1m\nrw=write\ndedupe_mode=working_set\n",
		     "dedupe_mode=working_set is not supported");
	import_fails("[j]\nsize=1m\nrw=write\nbuffer_compress_percentage=101\n",
		     "buffer_compress_percentage");
	import_fails("[j]\nsize=1m\nrw=write\nverify=md5\nverify_pattern=0xff\n",
		     "job.fio:5:1: job 'j': verify_pattern on a job that writes and verifies");
	import_fails("[j]\nsize=1m\nrw=write\ndedupe_percentage=10\nrefill_buffers=0\n",
		     "job.fio:5:1: job 'j': dedupe_percentage with refill_buffers=0");
	/* --lenient never drops what sets the data */
	ck_assert_int_eq(import_lenient("[j]\nsize=1m\nrw=write\nbuffer_pattern=%o\n",
					&out, &err), 1);
	HAS(err, "buffer_pattern=%o");
	free(out);
	free(err);
}
END_TEST

/*
 * A read/write mix and a random/sequential split become a choice drawn
 * per I/O (weights from $rwmixread and $pctrandom, which -D changes);
 * what cannot be a choice stays a fixed pass with a warning, or is an
 * error.
 */
START_TEST(test_mix_choice)
{
	struct ast_script script;
	struct plan plan;
	const struct plan_flowop *f;
	char *out, *err;

	/* rw=rw, rwmixwrite=40: sequential members, 60/40 */
	import_compiled("[j]\nsize=1m\nrw=readwrite\nrwmixwrite=40\n", &out, &script, &plan);
	HAS(out, "define flowop name=j-mix,choose\n{\n"
	    "  flowop read name=read,weight=$rwmixread,filename=j-files,iosize=$iosize\n"
	    "  flowop write name=write,weight=100 - $rwmixread,filename=j-files,iosize=$iosize,"
	    "data=random,scramble\n"
	    "}\n");
	HAS(out, "    flowop j-mix name=j\n");
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j.read"), PA_WEIGHT, 0), 60);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j.write"), PA_WEIGHT, 0), 40);
	ck_assert(!plan_value_bool(plan_flowop_attr(flowop(&plan, "j.read"), "random"), false));
	plan_done(&plan, &script, out);

	/* -D rwmixread=90 changes the odds */
	ck_assert_int_eq(import("[j]\nsize=1m\nrw=randrw\n", &out, &err), 0);
	compiled_with(out, "set $rwmixread=90\n", &script, &plan);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j.read"), PA_WEIGHT, 0), 90);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j.write"), PA_WEIGHT, 0), 10);
	plan_done(&plan, &script, out);
	free(err);

	/* a choice on the file of an earlier job: said once, for it */
	import_compiled("[a]\nsize=1m\nrw=read\nfilename=/tmp/x.dat\n"
			"[b]\nrw=randrw\nfilename=/tmp/x.dat\n", &out, &script, &plan);
	HAS(out, "# the file x.dat is the one of job 'a' (same filename)\n"
	    "define flowop name=b-mix,choose\n");
	ck_assert_ptr_null(strstr(strstr(out, "is the one of job") + 1, "is the one of job"));
	plan_done(&plan, &script, out);

	/* rwmixread=100: reads only, no choice */
	import_compiled("[j]\nsize=1m\nrw=randrw\nrwmixread=100\n", &out, &script, &plan);
	ck_assert_ptr_null(strstr(out, "choose"));
	ck_assert_str_eq(flowop(&plan, "j-read")->ops->name, "read");
	plan_done(&plan, &script, out);

	/* fsync=1: each write member is the write and its fsync */
	import_compiled("[j]\nsize=1m\nrw=randrw\nrwmixread=70\nfsync=1\n", &out, &script, &plan);
	HAS(out, "define flowop name=j-wsync\n{\n  flowop write name=write,");
	HAS(out, "  flowop fsync name=fsync,filename=j-files\n}\n");
	HAS(out, "  flowop j-wsync name=write,weight=100 - $rwmixread\n");
	ck_assert_str_eq(flowop(&plan, "j.write")->ops->name, "composite");
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j.write"), PA_WEIGHT, 0), 30);
	ck_assert_str_eq(flowop(&plan, "j.write.fsync")->ops->name, "fsync");
	ck_assert_ptr_null(strstr(out, "flowop fsync name=j-fsync"));
	plan_done(&plan, &script, out);

	/* fsync=4: a fixed pass, said on stderr */
	ck_assert_int_eq(import("[j]\nsize=1m\nrw=randrw\nfsync=4\n", &out, &err), 0);
	HAS(err, "job.fio:3:1: warning: job 'j': rw=randrw with fsync=4: each pass "
	    "does 4 reads then 4 writes in that order, not fio's random choice per I/O");
	HAS(out, "each pass does 4 reads then 4 writes");
	ck_assert_ptr_null(strstr(out, "choose"));
	free(out);
	free(err);

	/* an asynchronous mix at an iodepth: a choice whose members share one
	 * queue (flowops/aio.c), no fixed pass and no warning of one */
	ck_assert_int_eq(import("[j]\nsize=1m\nrw=randrw\nioengine=io_uring\niodepth=8\n"
				"direct=1\n", &out, &err), 0);
	ck_assert_ptr_null(strstr(err, "in that order"));
	free(out);
	free(err);
	import_compiled("[j]\nsize=1m\nrw=randrw\nioengine=io_uring\niodepth=8\ndirect=1\n",
			&out, &script, &plan);
	HAS(out, "define flowop name=j-mix,choose");
	HAS(out, "  flowop aioread name=read,weight=$rwmixread,");
	HAS(out, "  flowop aiowrite name=write,weight=100 - $rwmixread,");
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j.read"), PA_WEIGHT, 0), 50);
	ck_assert_str_eq(flowop(&plan, "j.write")->ops->name, "aiowrite");
	plan_done(&plan, &script, out);

	/* percentage_random: random members leave the offset for the sequential */
	import_compiled("[j]\nsize=1m\nrw=randread\npercentage_random=30\n", &out, &script, &plan);
	HAS(out, "set $pctrandom=30\n");
	HAS(out, "  flowop read name=read,weight=$pctrandom,filename=j-files,"
	    "iosize=$iosize,random,randommap,seqfollows,noreadahead\n"
	    "  flowop read name=read-seq,weight=100 - $pctrandom,filename=j-files,"
	    "iosize=$iosize,noreadahead\n");
	HAS(out, "# percentage_random=30: each I/O's offset is random with odds $pctrandom in 100");
	f = flowop(&plan, "j.read");
	ck_assert(plan_value_bool(plan_flowop_attr(f, "seqfollows"), false));
	ck_assert_int_eq(plan_attr_int(f, PA_WEIGHT, 0), 30);
	f = flowop(&plan, "j.read-seq");
	ck_assert(!plan_value_bool(plan_flowop_attr(f, "random"), false));
	ck_assert_int_eq(plan_attr_int(f, PA_WEIGHT, 0), 70);
	plan_done(&plan, &script, out);

	/* ... with a mix: four members, the products of the odds */
	import_compiled("[j]\nsize=1m\nrw=randrw\nrwmixread=60\npercentage_random=25\n",
			&out, &script, &plan);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j.read"), PA_WEIGHT, 0), 1500);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j.read-seq"), PA_WEIGHT, 0), 4500);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j.write"), PA_WEIGHT, 0), 1000);
	ck_assert_int_eq(plan_attr_int(flowop(&plan, "j.write-seq"), PA_WEIGHT, 0), 3000);
	HAS(out, "reads and writes share that offset (fio keeps one per direction)");
	plan_done(&plan, &script, out);

	/* ... writes only with fsync=4: four draws a pass, then the fsync */
	import_compiled("[j]\nsize=1m\nrw=randwrite\npercentage_random=50\nfsync=4\n",
			&out, &script, &plan);
	HAS(out, "    flowop j-mix name=j,iters=4\n    flowop fsync name=j-fsync");
	plan_done(&plan, &script, out);

	import_fails("[j]\nsize=1m\nrw=randread\npercentage_random=30\nioengine=io_uring\n"
		     "iodepth=4\ndirect=1\n", "job.fio:4:1: job 'j': percentage_random=30 "
		     "is not supported here: at iodepth > 1 aioread/aiowrite each keep "
		     "a queue of their own");
	/* at iodepth 1 the choice of a random aioread with seqfollows and a
	 * sequential one draws fio's split */
	import_compiled("[j]\nsize=1m\nrw=randread\npercentage_random=30\n"
			"ioengine=libaio\n", &out, &script, &plan);
	HAS(out, "  flowop aioread name=read,weight=$pctrandom,filename=j-files,"
	    "iosize=$iosize,random,randommap,seqfollows,");
	ck_assert(plan_value_bool(plan_flowop_attr(flowop(&plan, "j.read"), "seqfollows"),
				  false));
	plan_done(&plan, &script, out);
	import_fails("[j]\nsize=1m\nrw=randread\npercentage_random=30\n"
		     "random_distribution=zoned:50/10:50/90\n",
		     "percentage_random=30 is not supported here: random_distribution=zoned");
	import_fails("[j]\nsize=1m\nrw=randrw\npercentage_random=30\nfsync=2\n",
		     "job.fio:4:1: job 'j': percentage_random with a read/write mix and "
		     "fsync=2 is not supported");
}
END_TEST

/* Write `text` to DIR/NAME; returns the path (free it). */
static char *write_file(const char *dir, const char *name, const char *text)
{
	char *path;
	FILE *f;

	ck_assert_int_ge(asprintf(&path, "%s/%s", dir, name), 0);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
	return path;
}

/* import-fio of the job file at `path` (its name locates includes). */
static int import_path(const char *path, char **out, char **err)
{
	size_t n1, n2, len;
	FILE *o = open_memstream(out, &n1), *e = open_memstream(err, &n2);
	FILE *f = fopen(path, "r");
	char text[4096];
	int st;

	ck_assert_ptr_nonnull(f);
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	st = fio_import(path, text, len, o, e);
	fclose(o);
	fclose(e);
	return st;
}

/*
 * fio's `include FILE`: its lines read in place, a relative name from the
 * including file's directory; its errors located in it; a missing file
 * or an include loop an error at the include line.
 */
START_TEST(test_include)
{
	char dir[] = "/tmp/fb-fio-include.XXXXXX";
	char *main_path, *inc, *bad, *loop, *miss, *out, *err;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	inc = write_file(dir, "common.fio", "bs=8k\nsize=2m\n");
	main_path = write_file(dir, "main.fio", "[global]\ninclude common.fio ; "
			       "defaults\n[j]\nrw=randread\n");
	ck_assert_msg(import_path(main_path, &out, &err) == 0, "%s", err);
	HAS(out, "set $iosize=8k\n");
	HAS(out, "set $filesize=2m\n");
	free(out);
	free(err);

	bad = write_file(dir, "bad.fio", "bs=8k\nzonemode=zbd\n[k]\n");
	free(main_path);
	main_path = write_file(dir, "main2.fio", "[j]\ninclude bad.fio\nsize=1m\n");
	ck_assert_int_eq(import_path(main_path, &out, &err), 1);
	ck_assert_msg(strstr(err, "/bad.fio:2:1: unsupported option 'zonemode'\n"
			     "    zonemode=zbd\n"), "%s", err);
	ck_assert_msg(strstr(err, "/bad.fio:3:1: a section header in an included "
			     "file: fio's include files hold options only"), "%s", err);
	free(out);
	free(err);

	free(main_path);
	main_path = write_file(dir, "main3.fio", "[j]\nsize=1m\ninclude nope.fio\n");
	ck_assert_int_eq(import_path(main_path, &out, &err), 1);
	ck_assert_msg(strstr(err, "main3.fio:3:1: include nope.fio: cannot read ") &&
		      strstr(err, "/nope.fio: No such file or directory"), "%s", err);
	free(out);
	free(err);

	loop = write_file(dir, "loop.fio", "[j]\nsize=1m\ninclude loop.fio\n");
	ck_assert_int_eq(import_path(loop, &out, &err), 1);
	HAS(err, "loop.fio:3:1: include loop.fio: more than 8 includes deep (does "
	    "it include itself?)");
	free(out);
	free(err);

	miss = write_file(dir, "empty.fio", "[j]\ninclude\t\nsize=1m\n");
	ck_assert_int_eq(import_path(miss, &out, &err), 1);
	HAS(err, "empty.fio:2:1: include needs a file name");
	free(out);
	free(err);
	for (const char *const *n = (const char *const[]){ "common.fio", "main.fio",
	     "bad.fio", "main2.fio", "main3.fio", "loop.fio", "empty.fio", NULL };
	     *n; n++) {
		char *p;

		ck_assert_int_ge(asprintf(&p, "%s/%s", dir, *n), 0);
		unlink(p);
		free(p);
	}
	rmdir(dir);
	free(inc);
	free(bad);
	free(loop);
	free(miss);
	free(main_path);
}
END_TEST

/*
 * include reads only regular files resolving into the top job file's
 * directory or below (`..` and symbolic links followed), and quotes no
 * line of a file that is not a job file: /etc/passwd by `..`, by an
 * absolute name or by a link in the directory, a FIFO, and a file of
 * the directory holding a passwd line are refused at the include line,
 * their content never shown; `..` that stays inside is read.
 */
START_TEST(test_include_confined)
{
	char dir[] = "/tmp/fb-fio-confined.XXXXXX";
	char *top, *p, *out, *err;
	const char *const refused[][2] = {
		{ "include ../secret.fio", "it resolves outside the job file's directory" },
		{ "include ../../../../../../../../etc/passwd", "it resolves outside" },
		{ "include link.fio", "it resolves outside" },
		{ "include /etc/passwd", "an absolute path" },
		{ "include pw.fio", "not a job file: its line 2 is not an option" },
		{ "include fifo", "not a regular file" },
		{ "include sub", "not a regular file" },
	};

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ck_assert_int_ge(asprintf(&top, "%s/top", dir), 0);
	ck_assert_int_eq(mkdir(top, 0700), 0);
	free(write_file(dir, "secret.fio", "bs=4k\nhidden_secret_word\n"));
	free(write_file(top, "pw.fio", "; a comment\nroot:x:0:0:hidden_pw_line\n"));
	free(write_file(top, "common.fio", "bs=8k\n"));
	ck_assert_int_ge(asprintf(&p, "%s/sub", top), 0);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	free(p);
	free(write_file(top, "sub/inc.fio", "include ../common.fio\nsize=2m\n"));
	ck_assert_int_ge(asprintf(&p, "%s/link.fio", top), 0);
	ck_assert_int_eq(symlink("../secret.fio", p), 0);
	free(p);
	ck_assert_int_ge(asprintf(&p, "%s/fifo", top), 0);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	free(p);

	/* `..` inside the directory, from an included file: read */
	p = write_file(top, "main.fio", "[j]\nrw=read\ninclude sub/inc.fio\n");
	ck_assert_msg(import_path(p, &out, &err) == 0, "%s", err);
	HAS(out, "set $iosize=8k\n");
	HAS(out, "set $filesize=2m\n");
	free(out);
	free(err);
	free(p);

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char *text, *want;

		ck_assert_int_ge(asprintf(&text, "[j]\nsize=1m\n%s\n", refused[i][0]), 0);
		p = write_file(top, "main.fio", text);
		ck_assert_int_eq(import_path(p, &out, &err), 1);
		ck_assert_int_ge(asprintf(&want, "main.fio:3:1: %s: %s",
					  refused[i][0], refused[i][1]), 0);
		HAS(err, want);
		ck_assert_msg(!strstr(err, "hidden") && !strstr(err, "root:"),
			      "content quoted:\n%s", err);
		free(want);
		free(text);
		free(out);
		free(err);
		free(p);
	}
	for (const char *const *n = (const char *const[]){ "top/main.fio",
	     "top/pw.fio", "top/common.fio", "top/sub/inc.fio", "top/link.fio",
	     "top/fifo", "secret.fio", NULL }; *n; n++) {
		ck_assert_int_ge(asprintf(&p, "%s/%s", dir, *n), 0);
		unlink(p);
		free(p);
	}
	ck_assert_int_ge(asprintf(&p, "%s/sub", top), 0);
	rmdir(p);
	free(p);
	rmdir(top);
	rmdir(dir);
	free(top);
}
END_TEST

/*
 * A relative filename whose `..` leave the job's directory imports with
 * a warning at its line, --lenient too (the run's guard would refuse
 * /etc/passwd only when run); `..` that stay inside, an absolute name
 * and directory=/ say nothing.
 */
START_TEST(test_filename_escape)
{
	static const char *const warned[][2] = {
		{ "directory=/etc\nfilename=../../../etc/passwd\n", "job.fio:5:1: "
		  "warning: job 'j': filename=../../../etc/passwd resolves outside "
		  "its directory /etc (its `..` leave it; it names /etc/passwd): "
		  "-D dir= does not move the file" },
		{ "filename=../etc/shadow\n", "job.fio:4:1: warning: job 'j': "
		  "filename=../etc/shadow resolves outside its directory /tmp (its "
		  "`..` leave it; it names /etc/shadow)" },
		{ "directory=/mnt/a\nfilename=b/../../a/f\n", "filename=b/../../a/f "
		  "resolves outside its directory /mnt/a" },
	};
	static const char *const quiet[] = {
		"directory=/mnt/a\nfilename=b/../f\n", "filename=/mnt/x/../f\n",
		"directory=/\nfilename=../f\n", "directory=/mnt/a\nfilename=f..g\n",
	};
	char *out, *err, *text;

	for (size_t i = 0; i < sizeof(warned) / sizeof(warned[0]); i++) {
		ck_assert_int_ge(asprintf(&text, "[j]\nrw=read\nsize=1m\n%s",
					  warned[i][0]), 0);
		ck_assert_msg(import(text, &out, &err) == 0, "%s", err);
		HAS(err, warned[i][1]);
		free(out);
		free(err);
		ck_assert_msg(import_lenient(text, &out, &err) == 0, "%s", err);
		HAS(err, warned[i][1]);
		free(out);
		free(err);
		free(text);
	}
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++) {
		ck_assert_int_ge(asprintf(&text, "[j]\nrw=read\nsize=1m\n%s", quiet[i]), 0);
		ck_assert_msg(import(text, &out, &err) == 0, "%s", err);
		ck_assert_msg(!strstr(err, "resolves outside"), "%s: %s", quiet[i], err);
		free(out);
		free(err);
		free(text);
	}
}
END_TEST

/* exitall: the first thread done ends the run (firstdone); with phases an
 * error, NOT IMPORTED with --lenient. */
START_TEST(test_exitall)
{
	struct ast_script script;
	struct plan plan;
	char *out, *err;

	import_compiled("[global]\nexitall\n[a]\nsize=1m\n[b]\nsize=4m\nrw=write\n",
			&out, &script, &plan);
	HAS(out, "set mode quit firstdone\n");
	ck_assert_ptr_null(strstr(out, "alldone"));
	HAS(out, "# no runtime: 0 runs until the first thread is done\n");
	ck_assert_int_eq(plan.quit_mode, QUIT_FIRSTDONE);
	plan_done(&plan, &script, out);
	import_fails("[a]\nsize=1m\nexitall\n[b]\nsize=1m\nstonewall\n",
		     "job.fio:3:1: job 'a': exitall with run phases");
	/* --lenient keeps it: when a job ends is how much work it does */
	ck_assert_int_eq(import_lenient("[a]\nsize=1m\nexitall\n[b]\nsize=1m\n"
					"stonewall\n", &out, &err), 1);
	HAS(err, "job.fio:3:1: job 'a': exitall with run phases");
	free(out);
	free(err);
}
END_TEST

/*
 * fadvise_hint (fio's default 1): fio advises POSIX_FADV_RANDOM on a
 * random job's files, so the kernel reads no more than asked: buffered
 * random I/O gets noreadahead, said in a comment; not with direct I/O
 * (no page cache), not with fadvise_hint=0, not for sequential I/O
 * (fio's FADV_SEQUENTIAL has no flowbench counterpart: a comment).
 */
START_TEST(test_fadvise_hint)
{
	char *out, *err;

	ck_assert_int_eq(import("[j]\nrw=randread\nsize=1m\n", &out, &err), 0);
	HAS(out, "iosize=$iosize,random,randommap,noreadahead\n");
	HAS(out, "# random I/O: fio advises the kernel POSIX_FADV_RANDOM");
	free(out);
	free(err);
	ck_assert_int_eq(import("[j]\nrw=randread\nsize=1m\nfadvise_hint=0\n", &out, &err), 0);
	HAS(out, "iosize=$iosize,random,randommap\n");
	ck_assert_ptr_null(strstr(out, "noreadahead"));
	free(out);
	free(err);
	ck_assert_int_eq(import("[j]\nrw=randread\nsize=1m\ndirect=1\n", &out, &err), 0);
	HAS(out, "iosize=$iosize,random,randommap,directio\n");
	ck_assert_ptr_null(strstr(out, "noreadahead"));
	free(out);
	free(err);
	ck_assert_int_eq(import("[j]\nrw=read\nsize=1m\n", &out, &err), 0);
	ck_assert_ptr_null(strstr(out, "noreadahead"));
	HAS(out, "# sequential I/O: fio advises the kernel POSIX_FADV_SEQUENTIAL");
	free(out);
	free(err);
}
END_TEST

/*
 * Per-op logs: fio's write_*_log options become the process's latlog=,
 * bwlog=, iopslog=, histlog= (a bare one takes the job's name, as fio's
 * files do), with the settings the compiler accepts for the logs the
 * job has; what fio's logs do that flowbench's cannot is refused with
 * the reason (--lenient: NOT IMPORTED, the job's work unchanged).
 */
START_TEST(test_logs)
{
	struct ast_script script;
	struct plan plan;
	const struct plan_proc *a, *b;
	char *out, *err;

	import_compiled("[global]\nsize=1m\nwrite_lat_log=foo\nwrite_bw_log\n"
			"write_iops_log=dir/io\nlog_avg_msec=100\nlog_offset=1\n"
			"write_hist_log=h\nlog_hist_msec=200\nlog_hist_coarseness=2\n"
			"[a]\nnumjobs=2\n[b]\nrw=write\nper_job_logs=0\nlog_avg_msec=0\n",
			&out, &script, &plan);
	HAS(out, "define process name=a,instances=$nthreads_1,latlog=\"foo\","
	    "bwlog=\"a\",iopslog=\"dir/io\",histlog=\"h\",logavgmsec=100,"
	    "loghistmsec=200,loghistcoarseness=2,logoffset\n");
	HAS(out, "define process name=b,instances=$nthreads_2,latlog=\"foo\","
	    "bwlog=\"b\",iopslog=\"dir/io\",histlog=\"h\",loghistmsec=200,"
	    "loghistcoarseness=2,logoffset,logshared\n");
	a = proc(&plan, "a");
	b = proc(&plan, "b");
	ck_assert_str_eq(a->log.prefix[PLAN_OPLOG_LAT], "foo");
	ck_assert_str_eq(a->log.prefix[PLAN_OPLOG_BW], "a");
	ck_assert_str_eq(b->log.prefix[PLAN_OPLOG_BW], "b");
	ck_assert_str_eq(a->log.prefix[PLAN_OPLOG_IOPS], "dir/io");
	ck_assert_str_eq(a->log.prefix[PLAN_OPLOG_HIST], "h");
	ck_assert_uint_eq(a->log.avg_msec, 100);
	ck_assert_uint_eq(b->log.avg_msec, 0);
	ck_assert_uint_eq(a->log.hist_msec, 200);
	ck_assert_int_eq(a->log.hist_coarseness, 2);
	ck_assert(a->log.offset && b->log.offset);
	ck_assert(!a->log.shared && b->log.shared);
	plan_done(&plan, &script, out);

	/* settings without their log: comments, nothing the compiler refuses */
	import_compiled("[j]\nsize=1m\nwrite_hist_log=h\nlog_avg_msec=10\n",
			&out, &script, &plan);
	HAS(out, "# write_hist_log without log_hist_msec: fio's histogram log stays "
	    "empty; none is written here\n");
	HAS(out, "# log_avg_msec without write_lat_log, write_bw_log or write_iops_log");
	HAS(out, "define process name=j,instances=$nthreads\n");
	ck_assert(!plan_oplog_any(&proc(&plan, "j")->log));
	plan_done(&plan, &script, out);
	import_compiled("[j]\nsize=1m\nlog_hist_msec=10\nlog_entries=4096\n",
			&out, &script, &plan);
	HAS(out, "# log_hist_msec without write_hist_log: no histogram log");
	HAS(out, "# log_entries=4096: no effect on the I/O pattern");
	plan_done(&plan, &script, out);

	import_fails("[j]\nsize=1m\nwrite_lat_log=x\nlog_prio=1\n",
		     "job.fio:4:1: log_prio is not supported: the priority column's");
	import_fails("[j]\nsize=1m\nlog_max_value=1\n", "the window's mean");
	import_fails("[j]\nsize=1m\nlog_compression=1m\n", "plain text");
	import_fails("[j]\nsize=1m\nlog_unix_epoch=1\n", "count from the job's start");
	import_fails("[j]\nsize=1m\nlog_hist_coarseness=7\n",
		     "log_hist_coarseness=7 is too large: at most 6");
	ck_assert_int_eq(import_lenient("[j]\nsize=1m\nwrite_lat_log=x\n"
					"log_store_compressed=1\n", &out, &err), 0);
	HAS(out, "NOT IMPORTED: log_store_compressed=1 (line 4: log_store_compressed "
	    "is not supported: compressed logs");
	HAS(out, "latlog=\"x\"");
	free(out);
	free(err);
}
END_TEST

static Suite *fio_suite(void)
{
	Suite *s = suite_create("fio_import");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_size_limits);
	tcase_add_test(tc, test_times);
	tcase_add_test(tc, test_mix);
	tcase_add_test(tc, test_global_inheritance);
	tcase_add_test(tc, test_unsupported_all_listed);
	tcase_add_test(tc, test_bad_values);
	tcase_add_test(tc, test_randrw_compiles);
	tcase_add_test(tc, test_jobs_compile);
	tcase_add_test(tc, test_fsync_mix);
	tcase_add_test(tc, test_write_wrap);
	tcase_add_test(tc, test_aio_output);
	tcase_add_test(tc, test_too_large);
	tcase_add_test(tc, test_numbers_round_trip);
	tcase_add_test(tc, test_no_injection);
	tcase_add_test(tc, test_names_and_paths);
	tcase_add_test(tc, test_linear_time);
	tcase_add_test(tc, test_team_job_file);
	tcase_add_test(tc, test_lenient);
	tcase_add_test(tc, test_aliases);
	tcase_add_test(tc, test_rate);
	tcase_add_test(tc, test_thinktime);
	tcase_add_test(tc, test_mix_choice);
	tcase_add_test(tc, test_fadvise_hint);
	tcase_add_test(tc, test_zoned);
	tcase_add_test(tc, test_fio_ignored);
	tcase_add_test(tc, test_bssplit);
	tcase_add_test(tc, test_sync_options);
	tcase_add_test(tc, test_offset);
	tcase_add_test(tc, test_file_service);
	tcase_add_test(tc, test_phases);
	tcase_add_test(tc, test_devices);
	tcase_add_test(tc, test_verify);
	tcase_add_test(tc, test_bsrange_blockalign);
	tcase_add_test(tc, test_buffer_data);
	tcase_add_test(tc, test_buffered_aio);
	tcase_add_test(tc, test_lenient_jobs);
	tcase_add_test(tc, test_number_ios_pct_random);
	tcase_add_test(tc, test_include);
	tcase_add_test(tc, test_include_confined);
	tcase_add_test(tc, test_filename_escape);
	tcase_add_test(tc, test_exitall);
	tcase_add_test(tc, test_logs);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(fio_suite)
