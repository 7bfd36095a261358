/*
 * test_results.c - the results files: statistics over runs (mean, stdev,
 * Student's t interval) against hand-computed values, a run's numbers
 * from merged stats, the JSON and YAML documents read back (same tree),
 * a flowbench-mpi run's clients and ranks in both (none in a plain run's),
 * atomic writing (a failed write leaves the old file and no temporary),
 * file-name formats (the table: by name, by content, its lists) and SHA-256.
 */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flowops/registry.h"
#include "plan/flowop.h"
#include "runtime/engine/coord.h"
#include "runtime/results/doc.h"
#include "runtime/results/format.h"
#include "runtime/results/results.h"

#include "tests/unit/check_main.h"
#include "tests/unit/yamljson.h"

START_TEST(test_stat_three)
{
	const double v[] = { 10, 12, 14 };
	struct res_stat s;
	double half = 4.302653 * 2 / sqrt(3);   /* t(0.975, 2) * sd / sqrt(n) */

	results_stat(v, 3, &s);
	ck_assert_double_eq_tol(s.mean, 12, 1e-12);
	ck_assert_double_eq_tol(s.stdev, 2, 1e-12);   /* sqrt((4+0+4)/2) */
	ck_assert_double_eq(s.min, 10);
	ck_assert_double_eq(s.max, 14);
	ck_assert_double_eq_tol(s.ci_lo, 12 - half, 1e-9);
	ck_assert_double_eq_tol(s.ci_hi, 12 + half, 1e-9);
}
END_TEST

START_TEST(test_stat_five)
{
	/* mean 5, squared deviations 9+1+0+1+9 = 20, sd = sqrt(5) */
	const double v[] = { 8, 4, 5, 6, 2 };
	struct res_stat s;

	results_stat(v, 5, &s);
	ck_assert_double_eq_tol(s.mean, 5, 1e-12);
	ck_assert_double_eq_tol(s.stdev, sqrt(5.0), 1e-12);
	ck_assert_double_eq_tol(s.ci_hi - s.mean, 2.776445 * sqrt(5.0) / sqrt(5.0), 1e-9);
	ck_assert_double_eq(s.min, 2);
	ck_assert_double_eq(s.max, 8);
}
END_TEST

START_TEST(test_stat_one)
{
	const double v[] = { 7.5 };
	struct res_stat s;

	results_stat(v, 1, &s);
	ck_assert_double_eq(s.mean, 7.5);
	ck_assert_double_eq(s.stdev, 0);
	ck_assert_double_eq(s.ci_lo, 7.5);
	ck_assert_double_eq(s.ci_hi, 7.5);
}
END_TEST

/*
 * Two runs far apart: mean - t * sd / sqrt(n) is far below 0, but no
 * rate or latency is negative: the bound is 0 and says it was clipped.
 */
START_TEST(test_stat_ci_not_negative)
{
	const double v[] = { 643, 18058 };
	struct res_stat s;

	results_stat(v, 2, &s);
	ck_assert_double_eq(s.ci_lo, 0);
	ck_assert(s.ci_clamped);
	ck_assert_double_eq_tol(s.ci_hi, 9350.5 + 12.706205 * s.stdev / sqrt(2), 1e-6);
	results_stat((const double[]){ 10, 12, 14 }, 3, &s);
	ck_assert(!s.ci_clamped && s.ci_lo > 0);
}
END_TEST

START_TEST(test_t_quantile)
{
	ck_assert_double_eq_tol(results_t975(1), 12.706205, 1e-6);
	ck_assert_double_eq_tol(results_t975(2), 4.302653, 1e-6);
	ck_assert_double_eq_tol(results_t975(30), 2.042272, 1e-6);
	/* beyond the table: reference values of the t distribution */
	ck_assert_double_eq_tol(results_t975(31), 2.039513, 1e-5);
	ck_assert_double_eq_tol(results_t975(40), 2.021075, 1e-5);
	ck_assert_double_eq_tol(results_t975(100), 1.983972, 1e-5);
	ck_assert_double_eq_tol(results_t975(100000), 1.959988, 1e-5);
	ck_assert(isnan(results_t975(0)));
	/* decreasing towards the normal quantile */
	for (int d = 1; d < 200; d++)
		ck_assert(results_t975(d + 1) < results_t975(d));
}
END_TEST

START_TEST(test_sha256)
{
	char hex[65];

	results_sha256_hex("abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	results_sha256_hex("", 0, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}
END_TEST

START_TEST(test_format_of)
{
	ck_assert_str_eq(results_format_of("a.json")->name, "JSON");
	ck_assert_str_eq(results_format_of("/x/y.yaml")->name, "YAML");
	ck_assert_str_eq(results_format_of("r.yml")->name, "YAML");
	ck_assert_ptr_null(results_format_of("r.txt"));
	ck_assert_ptr_null(results_format_of("json"));
	ck_assert_ptr_null(results_format_of("dir.json/out"));
	ck_assert_ptr_null(results_format_of(".json"));
}
END_TEST

/* The table's lists, as the messages and the help print them. */
START_TEST(test_format_lists)
{
	char buf[128], small[8];

	ck_assert_str_eq(results_format_list(buf, sizeof(buf), RESULTS_ENDINGS),
			 ".json, .yaml or .yml");
	ck_assert_str_eq(results_format_list(buf, sizeof(buf), RESULTS_ENDINGS_BY_FORMAT),
			 ".json or .yaml/.yml");
	ck_assert_str_eq(results_format_list(buf, sizeof(buf), RESULTS_CLAIMING_NAMES),
			 "fio JSON or JSON");
	ck_assert_str_eq(results_format_list(small, sizeof(small), RESULTS_ENDINGS),
			 ".json, ");
	/* fio's row is read only: no ending, no writer, before JSON (it is JSON too) */
	ck_assert_str_eq(results_format_at(0)->name, "fio JSON");
	ck_assert_ptr_null(results_format_at(0)->endings[0]);
	ck_assert_ptr_null(results_format_at(0)->write);
	ck_assert_str_eq(results_format_at(1)->name, "JSON");
	ck_assert_str_eq(results_format_at(2)->name, "YAML");
	ck_assert_ptr_null(results_format_at(3));
}
END_TEST

/*
 * By content, not by name: '{' after blanks is JSON, anything else YAML;
 * fio's JSON (its first document opens with "fio version", after any
 * of fio's text lines) and fio's text output are fio's row.
 */
START_TEST(test_format_of_content)
{
	static const char fio_doc[] = "note: both iodepth >= 1 and synchronous I/O engine "
		"are selected\n{\n  \"fio version\" : \"fio-3.33\",\n";
	static const char fio_text[] = "a: (g=0): rw=read, bs=(R) 4096B-4096B, "
		"ioengine=psync, iodepth=1\nfio-3.33\n";
	static const char flowbench[] = "{\n  \"format\": \"flowbench-results/1\"\n}\n";

	ck_assert_str_eq(results_format_of_content(fio_doc, strlen(fio_doc))->name, "fio JSON");
	ck_assert_str_eq(results_format_of_content(fio_text, strlen(fio_text))->name, "fio JSON");
	ck_assert_str_eq(results_format_of_content("fio-3.33\n", 9)->name, "fio JSON");
	ck_assert_str_eq(results_format_of_content(flowbench, strlen(flowbench))->name, "JSON");
	ck_assert_str_eq(results_format_of_content("fio: x\n{}", 9)->name, "YAML");
	ck_assert_str_eq(results_format_of_content("format: fio-3\n", 14)->name, "YAML");
	ck_assert_str_eq(results_format_of_content(" \n\t{}", 5)->name, "JSON");
	ck_assert_str_eq(results_format_of_content("format: x\n", 10)->name, "YAML");
	ck_assert_str_eq(results_format_of_content("  ", 2)->name, "YAML");
	ck_assert_str_eq(results_format_of_content("", 0)->name, "YAML");
}
END_TEST

/* A plan of two flowops (read, write) and stats for them. */
struct fixture {
	struct plan p;
	struct plan_flowop fo[2];
	struct fo_stats st[2];
	const char *var_names[2];
	struct plan_value var_values[2];
};

static void fixture_init(struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->fo[0].name = "rand-read1";
	f->fo[0].ops = flowop_registry_lookup(&flowops_registry, "read");
	f->fo[1].name = "rand-write1";
	f->fo[1].ops = flowop_registry_lookup(&flowops_registry, "write");
	f->fo[1].line = 1;                  /* a report line of its own */
	ck_assert_ptr_nonnull(f->fo[0].ops);
	ck_assert_ptr_nonnull(f->fo[1].ops);
	f->p.flowops = f->fo;
	f->p.nflowops = 2;
	f->p.seed = 42;
}

/* `n` ops of `lat` ns each, 8 KiB, into s (histogram included). */
static void ops(struct fo_stats *s, int n, uint64_t lat)
{
	fo_stats_init(s);
	for (int i = 0; i < n; i++)
		fo_stats_record(s, lat + (uint64_t)i, 8192);
}

/* Three runs: reads 100/200/300 ops in 2 s, writes 50 each, none the third. */
static void three_runs(struct fixture *f, struct results *r)
{
	static const int reads[3] = { 100, 200, 300 };

	results_init(r);
	for (int k = 0; k < 3; k++) {
		ops(&f->st[0], reads[k], 1000);
		ops(&f->st[1], k < 2 ? 50 : 0, 4000);
		ck_assert_int_eq(results_add_run(r, &f->p, f->st, 2.0, 1700000000 + k), 0);
	}
	ck_assert_int_eq(results_aggregate(r), 0);
}

START_TEST(test_add_run_numbers)
{
	struct fixture f;
	struct results r;
	const struct res_flowop *o;

	fixture_init(&f);
	three_runs(&f, &r);
	ck_assert_int_eq(r.nruns, 3);
	o = &r.runs[1].flowops[0];
	ck_assert_str_eq(o->name, "rand-read1");
	ck_assert_str_eq(o->type, "read");
	ck_assert_str_eq(o->cls, "io");
	ck_assert_str_eq(o->rw, "read");
	ck_assert_uint_eq(o->ops, 200);
	ck_assert_uint_eq(o->bytes, 200 * 8192);
	ck_assert_double_eq_tol(o->ops_per_s, 100, 1e-9);
	ck_assert_double_eq_tol(o->mb_per_s, 200 * 8192 / 1048576.0 / 2, 1e-9);
	/* latencies 1000..1199 ns: mean 1099.5 ns */
	ck_assert_double_eq_tol(o->ms_per_op, 1099.5 / 1e6, 1e-12);
	ck_assert(o->has_latency);
	/* 1000..1199: sample stdev sqrt(200 * 201 / 12) = 57.88 */
	ck_assert_double_eq_tol(o->lat.stdev, sqrt(200.0 * 201 / 12), 0.01);
	ck_assert_double_eq(o->lat.min, 1000);
	ck_assert_double_eq(o->lat.max, 1199);
	ck_assert_str_eq(r.runs[1].started, "2023-11-14T22:13:21Z");
	ck_assert(!r.runs[2].flowops[1].has_latency);
	/* summary: reads 200 + writes 50 in run 2 */
	ck_assert_uint_eq(r.runs[1].summary.ops, 250);
	ck_assert_double_eq_tol(r.runs[1].summary.ops_per_s, 125, 1e-9);
	ck_assert_double_eq_tol(r.runs[1].summary.rd_per_s, 100, 1e-9);
	ck_assert_double_eq_tol(r.runs[1].summary.wr_per_s, 25, 1e-9);
	/* aggregate of read ops/s 50, 100, 150: mean 100, sd 50 */
	ck_assert(r.has_aggregate);
	ck_assert_double_eq_tol(r.agg[0].ops_per_s.mean, 100, 1e-9);
	ck_assert_double_eq_tol(r.agg[0].ops_per_s.stdev, 50, 1e-9);
	ck_assert_double_eq_tol(r.agg[0].ops_per_s.ci_hi, 100 + 4.302653 * 50 / sqrt(3), 1e-6);
	ck_assert_double_eq(r.agg[0].ops_per_s.min, 50);
	ck_assert_double_eq(r.agg[0].ops_per_s.max, 150);
	/* summary ops/s 75, 125, 150 */
	ck_assert_double_eq_tol(r.agg_summary.ops_per_s.mean, 350.0 / 3, 1e-9);
	results_free(&r);
}
END_TEST

START_TEST(test_aggregate_needs_two)
{
	struct fixture f;
	struct results r;

	fixture_init(&f);
	results_init(&r);
	ops(&f.st[0], 10, 100);
	ops(&f.st[1], 10, 100);
	ck_assert_int_eq(results_add_run(&r, &f.p, f.st, 1.0, 0), 0);
	ck_assert_int_eq(results_aggregate(&r), 0);
	ck_assert(!r.has_aggregate);
	results_free(&r);
}
END_TEST

/* A document written by `fn` into memory, parsed back by `parse`. */
static json_t *roundtrip_json(const struct results *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_error_t err;
	json_t *root;

	ck_assert_int_eq(results_write_json(f, r), 0);
	fclose(f);
	root = json_loadb(buf, len, 0, &err);
	if (!root)
		ck_abort_msg("JSON does not parse: %s (line %d)", err.text, err.line);
	free(buf);
	return root;
}

static json_t *roundtrip_yaml(const struct results *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *root;

	ck_assert_int_eq(results_write_yaml(f, r), 0);
	fclose(f);
	f = fmemopen(buf, len, "r");
	root = yaml_to_json(f);
	fclose(f);
	if (!root)
		ck_abort_msg("YAML does not parse:\n%s", buf);
	free(buf);
	return root;
}

static void describe(struct results *r, struct fixture *f)
{
	static char *const argv[] = { "flowbench", "run", "w.f", "-D", "n=\"true\"" };
	static const struct res_define defs[] = { { "n", "true" }, { "size", "64m" } };
	static struct res_var vars[3];
	/* a warm fill that left 3/4 of 4 MiB in two files resident */
	struct cache_report cache = { .mode = CACHE_WARM, .text = "warm: 2 files",
				      .filled = true, .files = 2, .bytes = 4194304,
				      .resident_known = true, .resident = 3145728,
				      .not_evicted = 4096 };

	vars[0] = (struct res_var){ "dir", { .kind = PV_STRING, .u.s = "/tmp/x" } };
	vars[1] = (struct res_var){ "filesize", { .kind = PV_INT, .u.i = 67108864 } };
	vars[2] = (struct res_var){ "on", { .kind = PV_BOOL, .u.b = true } };
	r->argv = argv;
	r->argc = 5;
	r->workload = "w.f";
	results_sha256_hex("x", 1, r->sha256);
	r->vars = vars;
	r->nvars = 3;
	r->defines = defs;
	r->ndefines = 2;
	r->seed = f->p.seed;
	results_capture_env(r, &f->p, &cache, true, 24.5, -12.5);
}

START_TEST(test_json_document)
{
	struct fixture f;
	struct results r;
	json_t *root, *runs, *fo, *agg, *cache;

	fixture_init(&f);
	three_runs(&f, &r);
	describe(&r, &f);
	root = roundtrip_json(&r);
	ck_assert_str_eq(json_string_value(json_object_get(root, "format")),
			 "flowbench-results/1");
	ck_assert_str_eq(json_string_value(json_object_get(root, "status")), "ok");
	ck_assert(json_is_null(json_object_get(root, "error")));
	ck_assert_int_eq(json_integer_value(json_object_get(root, "seed")), 42);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(root, "command"), 4)),
			 "n=\"true\"");
	ck_assert_int_eq(json_integer_value(json_object_get(
		json_object_get(json_object_get(root, "workload"), "variables"), "filesize")),
		67108864);
	ck_assert(json_is_true(json_object_get(
		json_object_get(json_object_get(root, "workload"), "variables"), "on")));
	ck_assert_str_eq(json_string_value(json_object_get(
		json_object_get(json_object_get(root, "workload"), "defines"), "size")), "64m");
	cache = json_object_get(json_object_get(root, "environment"), "cache");
	ck_assert_str_eq(json_string_value(json_object_get(cache, "state")), "warm");
	ck_assert_str_eq(json_string_value(json_object_get(cache, "method")), "warm: 2 files");
	ck_assert_str_eq(json_string_value(json_object_get(cache, "filled_by")),
			 "sequential 64 KiB reads after fdatasync and POSIX_FADV_DONTNEED");
	ck_assert_int_eq(json_integer_value(json_object_get(cache, "files")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(cache, "bytes")), 4194304);
	ck_assert_int_eq(json_integer_value(json_object_get(cache, "resident_bytes")), 3145728);
	ck_assert(json_real_value(json_object_get(cache, "resident_pct")) == 75.0);
	ck_assert_int_eq(json_integer_value(json_object_get(cache, "not_evicted_bytes")), 4096);
	/* the clock's read cost is the run's calibrated figure, not re-measured */
	ck_assert(json_real_value(json_object_get(json_object_get(
		json_object_get(root, "environment"), "clock"), "read_cost_ns")) == 24.5);
	ck_assert(json_real_value(json_object_get(json_object_get(
		json_object_get(root, "environment"), "clock"), "drift_ppm")) == -12.5);
	runs = json_object_get(root, "runs");
	ck_assert_int_eq(json_array_size(runs), 3);
	fo = json_array_get(json_object_get(json_array_get(runs, 2), "flowops"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(fo, "name")), "rand-read1");
	ck_assert_int_eq(json_integer_value(json_object_get(fo, "ops")), 300);
	ck_assert_double_eq_tol(json_real_value(json_object_get(fo, "ops_per_s")), 150, 1e-9);
	/* percentiles are fo_stats_percentile()'s, under "50", "99.9" ... */
	ops(&f.st[0], 300, 1000);
	ck_assert_double_eq_tol(json_real_value(json_object_get(json_object_get(
		json_object_get(fo, "latency_ns"), "percentiles"), "99.9")),
		fo_stats_percentile(&f.st[0], 99.9), 1e-6);
	/* a flowop without ops has no latency block */
	fo = json_array_get(json_object_get(json_array_get(runs, 2), "flowops"), 1);
	ck_assert_ptr_null(json_object_get(fo, "latency_ns"));
	agg = json_object_get(root, "aggregate");
	ck_assert_int_eq(json_integer_value(json_object_get(agg, "runs")), 3);
	/* 100 - 4.302653 * 50 / sqrt(3) is -24.2: clipped at 0; the upper bound stays */
	ck_assert_double_eq(json_number_value(json_array_get(json_object_get(json_object_get(
		json_array_get(json_object_get(agg, "flowops"), 0), "ops_per_s"), "ci95"), 0)), 0);
	ck_assert_double_eq_tol(json_real_value(json_array_get(json_object_get(json_object_get(
		json_array_get(json_object_get(agg, "flowops"), 0), "ops_per_s"), "ci95"), 1)),
		100 + 4.302653 * 50 / sqrt(3), 1e-6);
	json_decref(root);
	results_free(&r);
}
END_TEST

START_TEST(test_yaml_same_tree)
{
	struct fixture f;
	struct results r;
	json_t *j, *y;

	fixture_init(&f);
	three_runs(&f, &r);
	describe(&r, &f);
	results_set_error(&r, RES_INTERRUPTED, "null");  /* a tricky string */
	j = roundtrip_json(&r);
	y = roundtrip_yaml(&r);
	if (!json_equal(j, y)) {
		char *a = json_dumps(j, JSON_INDENT(1)), *b = json_dumps(y, JSON_INDENT(1));

		ck_abort_msg("JSON and YAML differ:\n%s\n---\n%s", a, b);
	}
	ck_assert_str_eq(json_string_value(json_object_get(y, "status")), "interrupted");
	ck_assert_str_eq(json_string_value(json_object_get(y, "error")), "null");
	json_decref(j);
	json_decref(y);
	results_free(&r);
}
END_TEST

/*
 * A run of 3 clients (flowbench-mpi): reads 10/20/30 and writes 5/10/15
 * per rank, merged 60 reads and 30 writes over a 2 s window; rank 2
 * failed.  `counts` holds the clients' per-flowop counts (coord.h);
 * `usage`, if not NULL, each client's usage summary.
 */
static void three_clients(struct fixture *f, struct results *r,
			  struct coord_combined *c, uint64_t counts[3][6],
			  struct run_client cl[3], const struct usage_summary *usage)
{
	results_init(r);
	ops(&f->st[0], 60, 1000);
	ops(&f->st[1], 30, 4000);
	ck_assert_int_eq(results_add_run(r, &f->p, f->st, 2.0, 1700000000), 0);
	memset(c, 0, sizeof(*c));
	memset(cl, 0, 3 * sizeof(*cl));
	for (int k = 0; k < 3; k++) {
		uint64_t *n = counts[k];

		n[0] = 10 * (uint64_t)(k + 1);          /* ops: read, write */
		n[1] = 5 * (uint64_t)(k + 1);
		n[2] = n[0] * 8192;                     /* bytes */
		n[3] = n[1] * 8192;
		n[4] = 0;                               /* errors */
		n[5] = k == 2;
		cl[k].rank = k;
		snprintf(cl[k].host, sizeof(cl[k].host), "node%d", k / 2);
		cl[k].start_s = 0.001 * k;
		cl[k].end_s = 2.0 - 0.5 * (k == 2);     /* rank 2 stopped early */
		cl[k].ops = n[0] + n[1];
		cl[k].bytes = n[2] + n[3];
		cl[k].errors = n[5];
		cl[k].fo_ops = &n[0];
		cl[k].fo_bytes = &n[2];
		cl[k].fo_errors = &n[4];
		if (usage)
			cl[k].usage = usage[k];
	}
	cl[2].failed = true;
	snprintf(cl[2].error, sizeof(cl[2].error), "write: No space left on device");
	c->clients = cl;
	c->nclients = 3;
	c->elapsed_s = 2.0;
	c->skew_s = 0.002;
	c->skew_error_s = 0.00001;
	c->merge_s = 0.003;
	ck_assert_int_eq(results_add_clients(r, &f->p, c), 0);
}

/* The run's ranks: every field, and per flowop the ranks add up to the merged run. */
static void check_ranks(const json_t *run)
{
	const json_t *clients = json_object_get(run, "clients");
	const json_t *ranks = json_object_get(run, "ranks");
	const json_t *merged = json_object_get(run, "flowops");

	ck_assert_ptr_nonnull(clients);
	ck_assert_int_eq(json_integer_value(json_object_get(clients, "n")), 3);
	ck_assert(json_number_value(json_object_get(clients, "start_skew_s")) == 0.002);
	ck_assert(json_number_value(json_object_get(clients, "clock_error_s")) == 0.00001);
	ck_assert(json_number_value(json_object_get(clients, "merge_s")) == 0.003);
	ck_assert(json_number_value(json_object_get(clients, "window_s")) == 2.0);
	ck_assert(json_is_array(ranks));
	ck_assert_int_eq(json_array_size(ranks), 3);
	for (size_t k = 0; k < 3; k++) {
		const json_t *rk = json_array_get(ranks, k);
		double window = json_number_value(json_object_get(rk, "window_s"));

		ck_assert_int_eq(json_integer_value(json_object_get(rk, "rank")), (int)k);
		ck_assert_str_eq(json_string_value(json_object_get(rk, "host")),
				 k < 2 ? "node0" : "node1");
		ck_assert_int_eq(json_integer_value(json_object_get(rk, "ops")), 15 * (k + 1));
		ck_assert_double_eq_tol(window, (k == 2 ? 1.5 : 2.0) - 0.001 * k, 1e-12);
		ck_assert_double_eq_tol(json_number_value(json_object_get(rk, "ops_per_s")),
					15.0 * (k + 1) / window, 1e-9);
		ck_assert_int_eq(json_integer_value(json_object_get(rk, "errors")), k == 2);
		ck_assert(json_is_boolean(json_object_get(rk, "failed")));
		ck_assert(json_is_true(json_object_get(rk, "failed")) == (k == 2));
		if (k == 2)
			ck_assert_str_eq(json_string_value(json_object_get(rk, "error")),
					 "write: No space left on device");
		else
			ck_assert_ptr_null(json_object_get(rk, "error"));
		ck_assert_int_eq(json_array_size(json_object_get(rk, "flowops")), 2);
	}
	for (size_t j = 0; j < 2; j++) {
		const json_t *fo = json_array_get(merged, j);
		json_int_t ops = 0, bytes = 0, errors = 0;

		for (size_t k = 0; k < 3; k++) {
			const json_t *rf = json_array_get(json_object_get(
				json_array_get(ranks, k), "flowops"), j);

			ck_assert_str_eq(json_string_value(json_object_get(rf, "name")),
					 json_string_value(json_object_get(fo, "name")));
			ops += json_integer_value(json_object_get(rf, "ops"));
			bytes += json_integer_value(json_object_get(rf, "bytes"));
			errors += json_integer_value(json_object_get(rf, "errors"));
		}
		ck_assert_int_eq(ops, json_integer_value(json_object_get(fo, "ops")));
		ck_assert_int_eq(bytes, json_integer_value(json_object_get(fo, "bytes")));
		ck_assert_int_eq(errors, j == 1);
	}
}

START_TEST(test_clients_documents)
{
	struct fixture f;
	struct results r;
	struct coord_combined c;
	struct run_client cl[3];
	uint64_t counts[3][6];
	json_t *j, *y;

	fixture_init(&f);
	three_clients(&f, &r, &c, counts, cl, NULL);
	describe(&r, &f);
	j = roundtrip_json(&r);
	y = roundtrip_yaml(&r);
	check_ranks(json_array_get(json_object_get(j, "runs"), 0));
	check_ranks(json_array_get(json_object_get(y, "runs"), 0));
	ck_assert(json_equal(j, y));
	json_decref(j);
	json_decref(y);
	results_free(&r);
}
END_TEST

/*
 * A rank's usage in both formats: rank 0 had 11 devices, of which the
 * wire's summary keeps 8: its "disks" lists those 8 (in order) and
 * "disks_total" says 11; rank 1 had 2 (total 2); rank 2 never measured
 * has no "usage" at all.
 */
START_TEST(test_rank_usage_counts_disks)
{
	struct fixture f;
	struct results r;
	struct coord_combined c;
	struct run_client cl[3];
	uint64_t counts[3][6];
	struct usage_disk disk[11];
	struct usage_report u = { .measured = true, .window_s = 2, .disk = disk, .ndisk = 11 };
	struct usage_summary sum[3] = { { 0 } };
	json_t *docs[2];

	memset(disk, 0, sizeof(disk));
	for (int i = 0; i < 11; i++) {
		snprintf(disk[i].name, sizeof(disk[i].name), "vd%c", 'a' + i);
		disk[i].found = true;
	}
	usage_summarize(&u, &sum[0]);
	u.ndisk = 2;
	usage_summarize(&u, &sum[1]);
	fixture_init(&f);
	three_clients(&f, &r, &c, counts, cl, sum);
	describe(&r, &f);
	docs[0] = roundtrip_json(&r);
	docs[1] = roundtrip_yaml(&r);
	for (int d = 0; d < 2; d++) {
		const json_t *ranks = json_object_get(json_array_get(
			json_object_get(docs[d], "runs"), 0), "ranks");
		const json_t *u0 = json_object_get(json_array_get(ranks, 0), "usage");
		const json_t *u1 = json_object_get(json_array_get(ranks, 1), "usage");
		const json_t *disks = json_object_get(u0, "disks");

		ck_assert_int_eq(json_array_size(disks), 8);
		for (size_t i = 0; i < 8; i++)
			ck_assert_str_eq(json_string_value(json_object_get(
				json_array_get(disks, i), "name")), disk[i].name);
		ck_assert_int_eq(json_integer_value(json_object_get(u0, "disks_total")), 11);
		ck_assert_int_eq(json_array_size(json_object_get(u1, "disks")), 2);
		ck_assert_int_eq(json_integer_value(json_object_get(u1, "disks_total")), 2);
		ck_assert_ptr_null(json_object_get(json_array_get(ranks, 2), "usage"));
	}
	ck_assert(json_equal(docs[0], docs[1]));
	json_decref(docs[0]);
	json_decref(docs[1]);
	results_free(&r);
}
END_TEST

/* A plain run (no coordinator): no "clients", no "ranks" in either format. */
START_TEST(test_plain_run_no_clients)
{
	struct fixture f;
	struct results r;
	json_t *docs[2];

	fixture_init(&f);
	three_runs(&f, &r);
	describe(&r, &f);
	docs[0] = roundtrip_json(&r);
	docs[1] = roundtrip_yaml(&r);
	for (int d = 0; d < 2; d++) {
		const json_t *runs = json_object_get(docs[d], "runs");

		ck_assert_int_eq(json_array_size(runs), 3);
		for (size_t i = 0; i < 3; i++) {
			ck_assert_ptr_null(json_object_get(json_array_get(runs, i), "clients"));
			ck_assert_ptr_null(json_object_get(json_array_get(runs, i), "ranks"));
		}
		json_decref(docs[d]);
	}
	results_free(&r);
}
END_TEST

static int write_hello(FILE *f, const void *arg)
{
	(void)arg;
	return fputs("new contents\n", f) < 0 ? -1 : 0;
}

/* Half a document, then a failure: like a writer running out of memory. */
static int write_half_then_fail(FILE *f, const void *arg)
{
	(void)arg;
	fputs("{ \"format\": ", f);
	fflush(f);
	return -1;
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.' || strncmp(e->d_name, ".flowbench", 10) == 0;
	closedir(d);
	return n;
}

START_TEST(test_atomic_write)
{
	char dir[] = "/tmp/flowbench-test-results.XXXXXX", path[128], buf[64] = "";
	FILE *f;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/out.json", dir);
	f = fopen(path, "w");
	fputs("old contents\n", f);
	fclose(f);

	ck_assert_int_eq(atomic_write_file(path, write_half_then_fail, NULL), -1);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "old contents\n");
	ck_assert_int_eq(count_entries(dir), 1);       /* no temporary left */

	ck_assert_int_eq(atomic_write_file(path, write_hello, NULL), 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "new contents\n");
	ck_assert_int_eq(count_entries(dir), 1);

	/* a directory that does not exist: an error, nothing created */
	snprintf(path, sizeof(path), "%s/missing/out.json", dir);
	ck_assert_int_eq(atomic_write_file(path, write_hello, NULL), -1);
	snprintf(path, sizeof(path), "%s/out.json", dir);
	unlink(path);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/*
 * The documented way to read a percentile from a file's "histogram"
 * (docs/results-format.md): the bucket holding the nearest rank
 * ceil(q/100 * n), reported as its midpoint clamped to [min, max];
 * ranks 1 and n are min and max.  Written from the document's rule, not
 * from hist.c, so that it checks the file is enough.
 */
static double file_percentile(const json_t *hist, double q, double min, double max)
{
	double n = 0, rank, seen = 0;
	size_t i;
	json_t *b;

	json_array_foreach((json_t *)hist, i, b)
		n += json_number_value(json_array_get(b, 2));
	rank = ceil(q / 100 * n - 1e-9);
	if (rank <= 1)
		return min;
	if (rank >= n)
		return max;
	json_array_foreach((json_t *)hist, i, b) {
		double lo = json_number_value(json_array_get(b, 0));
		double hi = json_number_value(json_array_get(b, 1));

		seen += json_number_value(json_array_get(b, 2));
		if (seen >= rank)
			return fmin(fmax((lo + hi) / 2, min), max);
	}
	return max;
}

/* `n` latencies spread over three decades, `scale` times larger. */
static void spread_ops(struct fo_stats *s, int n, uint64_t scale)
{
	fo_stats_init(s);
	for (int i = 0; i < n; i++)
		fo_stats_record(s, scale * (100 + (uint64_t)i * (uint64_t)i % 99991), 4096);
}

/* Two runs' "histogram" buckets summed by bounds into one list. */
static json_t *merge_hists(const json_t *a, const json_t *b)
{
	json_t *m = json_deep_copy(a), *x, *y;
	size_t i, j;

	json_array_foreach((json_t *)b, i, x) {
		bool found = false;

		json_array_foreach(m, j, y) {
			if (json_equal(json_array_get(x, 0), json_array_get(y, 0))) {
				json_array_set_new(y, 2, json_integer(
					json_integer_value(json_array_get(y, 2)) +
					json_integer_value(json_array_get(x, 2))));
				found = true;
			}
		}
		if (!found)
			json_array_append(m, x);
	}
	return m;
}

static int by_lower(const void *a, const void *b)
{
	json_int_t x = json_integer_value(json_array_get(*(json_t *const *)a, 0));
	json_int_t y = json_integer_value(json_array_get(*(json_t *const *)b, 0));

	return (x > y) - (x < y);
}

static json_t *sorted(json_t *list)
{
	size_t n = json_array_size(list);
	json_t **v = calloc(n + 1, sizeof(*v)), *out = json_array();

	for (size_t i = 0; i < n; i++)
		v[i] = json_array_get(list, i);
	qsort(v, n, sizeof(*v), by_lower);
	for (size_t i = 0; i < n; i++)
		json_array_append(out, v[i]);
	free(v);
	json_decref(list);
	return out;
}

/*
 * Each flowop's latency histogram is in the file: the p99 recomputed
 * from it by the documented rule is the file's own p99 (every listed
 * percentile, in fact), its counts add up to the ops, and two runs'
 * buckets merged give the percentiles of the two runs' merged stats.
 */
START_TEST(test_histogram_in_file)
{
	struct fixture f;
	struct results r;
	struct fo_stats merged;
	json_t *root, *runs, *l0, *l1, *m;
	const char *key;
	json_t *v;

	fixture_init(&f);
	results_init(&r);
	spread_ops(&f.st[0], 5000, 1);
	ops(&f.st[1], 10, 4000);
	ck_assert_int_eq(results_add_run(&r, &f.p, f.st, 1.0, 0), 0);
	fo_stats_init(&merged);
	fo_stats_merge(&merged, &f.st[0]);
	spread_ops(&f.st[0], 3000, 7);
	ck_assert_int_eq(results_add_run(&r, &f.p, f.st, 1.0, 0), 0);
	fo_stats_merge(&merged, &f.st[0]);
	root = roundtrip_json(&r);
	runs = json_object_get(root, "runs");
	l0 = json_object_get(json_array_get(json_object_get(json_array_get(runs, 0), "flowops"), 0),
			     "latency_ns");
	l1 = json_object_get(json_array_get(json_object_get(json_array_get(runs, 1), "flowops"), 0),
			     "latency_ns");
	ck_assert_msg(json_is_array(json_object_get(l0, "histogram")), "no histogram");
	json_object_foreach(json_object_get(l0, "percentiles"), key, v)
		ck_assert_double_eq(file_percentile(json_object_get(l0, "histogram"),
						    strtod(key, NULL),
						    json_number_value(json_object_get(l0, "min")),
						    json_number_value(json_object_get(l0, "max"))),
				    json_number_value(v));
	ck_assert_double_eq(file_percentile(json_object_get(l0, "histogram"), 99,
					    json_number_value(json_object_get(l0, "min")),
					    json_number_value(json_object_get(l0, "max"))),
			    json_number_value(json_object_get(json_object_get(l0, "percentiles"), "99")));
	m = sorted(merge_hists(json_object_get(l0, "histogram"), json_object_get(l1, "histogram")));
	for (int k = 0; k < r.npct; k++)
		ck_assert_double_eq(file_percentile(m, r.pct[k],
				fmin(json_number_value(json_object_get(l0, "min")),
				     json_number_value(json_object_get(l1, "min"))),
				fmax(json_number_value(json_object_get(l0, "max")),
				     json_number_value(json_object_get(l1, "max")))),
				fo_stats_percentile(&merged, r.pct[k]));
	json_decref(m);
	json_decref(root);
	results_free(&r);
}
END_TEST

/* A line of `text` holding nothing but a number (and a comma)? */
static bool has_number_line(const char *text)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t sp = strspn(l, " "), n = strspn(l + sp, "0123456789.e+-");

		if (n && (l[sp + n] == '\n' || (l[sp + n] == ',' && l[sp + n + 1] == '\n')))
			return true;
	}
	return false;
}

/*
 * The JSON file puts every list of numbers on one line (a histogram
 * bucket is "[lower, upper, count]", not five lines), and leaves strings
 * alone, brackets, commas, quotes and newlines in them included.
 */
START_TEST(test_json_number_lists_on_one_line)
{
	static const char *const tricky = "x [1,\n 2] \"[3, 4]\" \\[5]";
	struct fixture f;
	struct results r;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	json_t *root;

	fixture_init(&f);
	three_runs(&f, &r);
	results_set_error(&r, RES_FAILED, tricky);
	r.workload = "[7, 8]";
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(results_write_json(out, &r), 0);
	fclose(out);
	ck_assert_msg(!has_number_line(buf), "a number on a line of its own:\n%.2000s", buf);
	ck_assert_ptr_nonnull(strstr(buf, "\"histogram\": [\n"));
	ck_assert_ptr_nonnull(strstr(buf, "[1000, 1003, 4],\n"));   /* 1000..1003 ns */
	root = json_loads(buf, 0, NULL);
	ck_assert_ptr_nonnull(root);
	ck_assert_str_eq(json_string_value(json_object_get(root, "error")), tricky);
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(root, "workload"), "file")),
			 "[7, 8]");
	json_decref(root);
	free(buf);
	results_free(&r);
}
END_TEST

static Suite *results_suite(void)
{
	Suite *s = suite_create("results");
	TCase *tc = tcase_create("results");

	tcase_add_test(tc, test_stat_three);
	tcase_add_test(tc, test_stat_five);
	tcase_add_test(tc, test_stat_one);
	tcase_add_test(tc, test_t_quantile);
	tcase_add_test(tc, test_stat_ci_not_negative);
	tcase_add_test(tc, test_sha256);
	tcase_add_test(tc, test_format_of);
	tcase_add_test(tc, test_format_lists);
	tcase_add_test(tc, test_format_of_content);
	tcase_add_test(tc, test_add_run_numbers);
	tcase_add_test(tc, test_aggregate_needs_two);
	tcase_add_test(tc, test_json_document);
	tcase_add_test(tc, test_yaml_same_tree);
	tcase_add_test(tc, test_atomic_write);
	tcase_add_test(tc, test_clients_documents);
	tcase_add_test(tc, test_rank_usage_counts_disks);
	tcase_add_test(tc, test_plain_run_no_clients);
	tcase_add_test(tc, test_histogram_in_file);
	tcase_add_test(tc, test_json_number_lists_on_one_line);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(results_suite)
