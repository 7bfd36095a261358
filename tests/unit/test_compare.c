/*
 * test_compare.c - `flowbench compare` byte for byte on the fixtures
 * tests/data/base.json and new.json (three runs each; reads 10 % faster
 * and significant, writes 1 % faster and not, a flowop on each side
 * only), in the three formats; the loader's refusals; and a
 * flowbench-mpi file's ranks (tests/data/ranks.json) in compare and
 * report; the latency percentile tables; YAML files (tests/data/base.yaml)
 * and broken ones; the legend's warnings about what differs; the CPU
 * and disk rows from a run's usage, and the report's CPU and disks
 * (tests/data/usage.json).
 */
#include <check.h>
#include <ctype.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/compare.h"
#include "compare/html.h"
#include "compare/load.h"

#include "tests/unit/check_main.h"

static char *fixture(const char *name)
{
	const char *top = getenv("TOP_SRCDIR");
	char *path = NULL;

	ck_assert_int_ge(asprintf(&path, "%s/tests/data/%s", top ? top : ".", name), 0);
	return path;
}

/* Load the fixtures as base.json and new.json, compare, return the text. */
static char *compared(enum cmp_format fmt)
{
	struct rf_doc docs[2];
	char *paths[2] = { fixture("base.json"), fixture("new.json") };
	char *buf = NULL;
	size_t len;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(rf_load(paths[i], &docs[i], stderr), 0);
	docs[0].path = "base.json";     /* as if given relative */
	docs[1].path = "new.json";
	ck_assert_int_eq(compare_print(out, docs, 2, fmt), 0);
	fclose(out);
	for (int i = 0; i < 2; i++) {
		rf_free(&docs[i]);
		free(paths[i]);
	}
	return buf;
}

START_TEST(test_text)
{
	char *buf = compared(CMP_TEXT);

	ck_assert_str_eq(buf,
"baseline: base.json (workloads/randomrw.f, 3 runs)\n"
"compared: new.json (workloads/randomrw.f, 3 runs)\n"
"values: mean ± stdev over a file's runs; %diff against the baseline; significant: Welch's t-test, p < 0.05\n"
"\n"
"ops/s           base.json      new.json   %diff      significant\n"
"rand-read1    1000 ± 10.0   1100 ± 10.0  +10.0%  yes (p=0.00026)\n"
"rand-write1  500.0 ± 20.0  505.0 ± 20.0   +1.0%      no (p=0.77)\n"
"delete1          10.0 ± 0             -       -              n/a\n"
"stat1                   -      50.0 ± 0       -              n/a\n"
"IO Summary    1510 ± 30.0   1655 ± 30.0   +9.6%   yes (p=0.0041)\n"
"\n"
"MB/s             base.json       new.json   %diff      significant\n"
"rand-read1   7.81 ± 0.0781  8.59 ± 0.0781  +10.0%  yes (p=0.00026)\n"
"rand-write1   3.91 ± 0.156   3.95 ± 0.156   +1.0%      no (p=0.77)\n"
"delete1              0 ± 0              -       -              n/a\n"
"stat1                    -          0 ± 0       -              n/a\n"
"IO Summary    11.7 ± 0.234   12.5 ± 0.234   +7.0%    yes (p=0.013)\n"
"\n"
"ms/op              base.json             new.json  %diff      significant\n"
"rand-read1     0.001 ± 1e-05  0.000909 ± 8.27e-06  -9.1%  yes (p=0.00032)\n"
"rand-write1  0.004 ± 0.00016   0.00396 ± 0.000157  -1.0%      no (p=0.77)\n"
"delete1            0.005 ± 0                    -      -              n/a\n"
"stat1                      -            0.002 ± 0      -              n/a\n"
"IO Summary    0.662 ± 0.0132        0.604 ± 0.011  -8.8%   yes (p=0.0046)\n"
"\n"
"p50 latency        base.json         new.json  %diff      significant\n"
"rand-read1       900ns ± 9ns      818ns ± 7ns  -9.1%  yes (p=0.00032)\n"
"rand-write1  3.604µs ± 144ns  3.568µs ± 141ns  -1.0%      no (p=0.77)\n"
"delete1        4.500µs ± 0ns                -      -              n/a\n"
"stat1                      -    1.800µs ± 0ns      -              n/a\n"
"\n"
"p99 latency        base.json         new.json  %diff      significant\n"
"rand-read1    4.000µs ± 40ns   3.637µs ± 33ns  -9.1%  yes (p=0.00032)\n"
"rand-write1  16.02µs ± 641ns  15.86µs ± 629ns  -1.0%      no (p=0.77)\n"
"delete1        20.00µs ± 0ns                -      -              n/a\n"
"stat1                      -    8.000µs ± 0ns      -              n/a\n"
"\n"
"p99.9 latency          base.json           new.json  %diff      significant\n"
"rand-read1       10.00µs ± 100ns     9.091µs ± 83ns  -9.1%  yes (p=0.00032)\n"
"rand-write1    40.04µs ± 1.603µs  39.65µs ± 1.571µs  -1.0%      no (p=0.77)\n"
"delete1            50.00µs ± 0ns                  -      -              n/a\n"
"stat1                          -      20.00µs ± 0ns      -              n/a\n");
	free(buf);
}
END_TEST

START_TEST(test_markdown)
{
	char *buf = compared(CMP_MARKDOWN);
	const char *ops =
"| ops/s | base.json | new.json | %diff | significant |\n"
"| :--- | ---: | ---: | ---: | ---: |\n"
"| rand-read1 | 1000 ± 10.0 | 1100 ± 10.0 | +10.0% | yes (p=0.00026) |\n"
"| rand-write1 | 500.0 ± 20.0 | 505.0 ± 20.0 | +1.0% | no (p=0.77) |\n"
"| delete1 | 10.0 ± 0 | - | - | n/a |\n"
"| stat1 | - | 50.0 ± 0 | - | n/a |\n"
"| IO Summary | 1510 ± 30.0 | 1655 ± 30.0 | +9.6% | yes (p=0.0041) |\n"
"\n"
"| MB/s |";

	ck_assert_msg(strncmp(buf, "- baseline: base.json (workloads/randomrw.f, 3 runs)\n"
			      "- compared: new.json (workloads/randomrw.f, 3 runs)\n- values: ", 100) == 0,
		      "legend: %s", buf);
	ck_assert_msg(strstr(buf, ops), "ops/s table not found in:\n%s", buf);
	ck_assert_ptr_nonnull(strstr(buf,
"| IO Summary | 0.662 ± 0.0132 | 0.604 ± 0.011 | -8.8% | yes (p=0.0046) |\n"));
	free(buf);
}
END_TEST

START_TEST(test_csv)
{
	char *buf = compared(CMP_CSV);
	const char *want =
"metric,flowop,base.json mean,base.json stdev,base.json runs,new.json mean,new.json stdev,new.json runs,new.json %diff,new.json p,new.json significant\r\n"
"ops_per_s,rand-read1,1000,10,3,1100,10,3,10.0000,0.000255217,yes\r\n"
"ops_per_s,rand-write1,500,20,3,505,20,3,1.0000,0.774738,no\r\n"
"ops_per_s,delete1,10,0,3,-,-,0,-,-,n/a\r\n"
"ops_per_s,stat1,-,-,0,50,0,3,-,-,n/a\r\n"
"ops_per_s,IO Summary,1510,30,3,1655,30,3,9.6026,0.00407911,yes\r\n"
"mb_per_s,rand-read1,7.8125,0.078125,3,8.59375,0.078125,3,10.0000,0.000255217,yes\r\n"
"mb_per_s,rand-write1,3.90625,0.15625,3,3.9453125,0.15625,3,1.0000,0.774738,no\r\n"
"mb_per_s,delete1,0,0,3,-,-,0,-,-,n/a\r\n"
"mb_per_s,stat1,-,-,0,0,0,3,-,-,n/a\r\n"
"mb_per_s,IO Summary,11.71875,0.234375,3,12.5390625,0.234375,3,7.0000,0.0127805,yes\r\n";

	ck_assert_msg(strncmp(buf, want, strlen(want)) == 0, "%s", buf);
	ck_assert_ptr_nonnull(strstr(buf, "\r\nms_per_op,IO Summary,"));
	free(buf);
}
END_TEST

/* RFC 4180 quoting and Markdown escaping of names from the files. */
START_TEST(test_quoting)
{
	struct rf_doc docs[2];
	char *paths[2] = { fixture("base.json"), fixture("new.json") };
	const char *quoted = "metric,flowop,\"a,\"\"b\"\".json mean\",";
	char *buf = NULL;
	size_t len;
	FILE *out;

	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(rf_load(paths[i], &docs[i], stderr), 0);
	docs[0].path = "a,\"b\".json";
	docs[1].path = "c|d.json";
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(compare_print(out, docs, 2, CMP_CSV), 0);
	fclose(out);
	ck_assert_msg(strncmp(buf, quoted, strlen(quoted)) == 0, "%s", buf);
	free(buf);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(compare_print(out, docs, 2, CMP_MARKDOWN), 0);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "| ops/s | a,\"b\".json | c\\|d.json |"));
	free(buf);
	for (int i = 0; i < 2; i++) {
		rf_free(&docs[i]);
		free(paths[i]);
	}
}
END_TEST

static char *load_error(const char *name)
{
	struct rf_doc doc;
	char *path = fixture(name), *buf = NULL;
	size_t len;
	FILE *err = open_memstream(&buf, &len);

	ck_assert_int_eq(rf_load(path, &doc, err), -1);
	fclose(err);
	rf_free(&doc);
	free(path);
	return buf;
}

START_TEST(test_refusals)
{
	char *msg = load_error("future-format.json");

	ck_assert_msg(strstr(msg, "unknown results format 'flowbench-results/2'") &&
		      strstr(msg, "reads 'flowbench-results/1'"), "%s", msg);
	free(msg);
	msg = load_error("no-such-file.json");
	ck_assert_msg(strstr(msg, "no-such-file.json"), "%s", msg);
	free(msg);
	/* a text file that is neither JSON nor a YAML mapping */
	msg = load_error("../../docs/flowbench.1");
	ck_assert_msg(strstr(msg, "not a flowbench results file"), "%s", msg);
	free(msg);
}
END_TEST

/* rf_load() of `text` written to a temporary file: its error text, or NULL. */
static char *load_text(const char *text, const char *suffix)
{
	char path[64], *buf = NULL;
	size_t len;
	struct rf_doc doc;
	FILE *err, *f;
	int fd, rc;

	snprintf(path, sizeof(path), "/tmp/flowbench-test-compare-XXXXXX%s", suffix);
	fd = mkstemps(path, (int)strlen(suffix));
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	err = open_memstream(&buf, &len);
	rc = rf_load(path, &doc, err);
	fclose(err);
	rf_free(&doc);
	unlink(path);
	if (rc == 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Broken files, JSON or YAML by their content: each refused with the
 * place (file:line:col) and why, never a crash or an empty table.
 */
START_TEST(test_broken_files)
{
	char *msg = load_text("{ \"format\": \"flowbench-results/1\",\n  \"runs\": [ }\n", ".json");

	ck_assert_msg(msg && strstr(msg, ":2:") && strstr(msg, "not valid JSON"), "%s", msg);
	free(msg);
	msg = load_text("format: \"flowbench-results/1\"\nruns: [\n", ".yaml");
	ck_assert_msg(msg && strstr(msg, ".yaml:3:1: not valid YAML"), "%s", msg);
	free(msg);
	/* (a run is read as it comes: this one is whole, the alias after it not) */
	msg = load_text("format: \"flowbench-results/1\"\nruns: &r [{flowops: []}]\n"
			"again: *r\n", ".yaml");
	ck_assert_msg(msg && strstr(msg, ".yaml:3:8:") && strstr(msg, "alias"), "%s", msg);
	free(msg);
	msg = load_text("", ".yaml");
	ck_assert_msg(msg && strstr(msg, "an empty file"), "%s", msg);
	free(msg);
	msg = load_text("- format\n- runs\n", ".yml");
	ck_assert_msg(msg && strstr(msg, "not a flowbench results file"), "%s", msg);
	free(msg);
	/* a YAML file given a .json name is still read by its content */
	msg = load_text("format: \"flowbench-results/1\"\nruns:\n- index: 1\n  flowops: []\n", ".json");
	ck_assert_msg(msg == NULL, "%s", msg);
}
END_TEST

/*
 * Numbers that cannot be measurements are refused with their JSON path,
 * JSON and YAML alike; null and absent stay "-"; good values load.
 */
START_TEST(test_bad_numbers)
{
	static const struct {
		const char *run, *want;
	} bad[] = {
		{ "\"elapsed_s\": 5, \"flowops\": [{\"name\": \"a\", \"ops_per_s\": 1e308}]",
		  "runs[0].flowops[0].ops_per_s (in the run from line 2): 1e308 is not "
		  "a rate (a number per second from 0 to 2^63-1)" },
		{ "\"elapsed_s\": 5, \"flowops\": [{\"name\": \"a\", \"ops\": \"lots\"}]",
		  "runs[0].flowops[0].ops (in the run from line 2): \"lots\" is not a count "
		  "(a whole number from 0 to 2^63-1)" },
		{ "\"elapsed_s\": 5, \"flowops\": [{\"name\": \"a\", \"ops\": -5}]",
		  "runs[0].flowops[0].ops (in the run from line 2): -5 is not a count" },
		{ "\"elapsed_s\": 5, \"flowops\": [{\"name\": \"a\", \"ops\": 2.5}]",
		  "runs[0].flowops[0].ops (in the run from line 2): 2.5 is not a count" },
		{ "\"elapsed_s\": 0, \"flowops\": [{\"name\": \"a\", \"ops\": 5, "
		  "\"ops_per_s\": 10}]", "runs[0].elapsed_s (in the run from line 2): 0, "
		  "but the run has rates" },
		{ "\"elapsed_s\": -1, \"flowops\": []", "runs[0].elapsed_s (in the run "
		  "from line 2): -1 is not a time in seconds" },
		{ "\"elapsed_s\": 5, \"flowops\": [{\"name\": \"a\", \"mb_per_s\": 1e13}]",
		  "runs[0].flowops[0].mb_per_s (in the run from line 2): " },
		{ "\"elapsed_s\": 5, \"flowops\": [{\"name\": \"a\", \"latency_ns\": "
		  "{\"percentiles\": {\"50\": 900, \"99\": 800}}}]",
		  "runs[0].flowops[0].latency_ns.percentiles.99 (in the run from line 2): "
		  "800 ns is below the 50-th percentile's 900 ns" },
		{ "\"elapsed_s\": 5, \"flowops\": [{\"name\": \"a\", \"latency_ns\": "
		  "{\"min\": 900, \"max\": 800}}]",
		  "runs[0].flowops[0].latency_ns.max (in the run from line 2): 800 ns is "
		  "below min (900 ns)" },
		{ "\"elapsed_s\": 5, \"flowops\": [{\"name\": \"a\", \"intervals\": "
		  "[{\"t_s\": 1, \"ops_per_s\": true}]}]",
		  "runs[0].flowops[0].intervals[0].ops_per_s (in the run from line 2): "
		  "true is not a rate" },
		{ "\"elapsed_s\": 5, \"flowops\": [], \"summary\": {\"ops\": 1e19}",
		  "runs[0].summary.ops (in the run from line 2): 1e19 is not a count" },
		{ "\"elapsed_s\": 5, \"flowops\": [], \"ranks\": [{\"window_s\": \"x\"}]",
		  "runs[0].ranks[0].window_s (in the run from line 2): \"x\" is not a time" },
		{ "\"elapsed_s\": 5, \"flowops\": [], \"usage\": {\"cpu\": "
		  "[{\"usr_pct\": -3}]}", "runs[0].usage.cpu[0].usr_pct (in the run from "
		  "line 2): -3 is not a percentage" },
	};
	static const char *const good[] = {
		"\"elapsed_s\": 5, \"flowops\": [{\"name\": \"a\", \"ops\": 9223372036854775807, "
		"\"ops_per_s\": null, \"mb_per_s\": 0}]",
		"\"elapsed_s\": 0, \"flowops\": [{\"name\": \"a\", \"ops\": 0, \"ops_per_s\": 0}]",
		"\"flowops\": [{\"name\": \"a\", \"ops\": 5.0, \"latency_ns\": "
		"{\"percentiles\": {\"50\": 900, \"99\": 900, \"x\": \"y\"}}}]",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *text, *msg, *want;

		ck_assert_int_ge(asprintf(&text, "{\"format\": \"flowbench-results/1\", "
					  "\"runs\": [\n{%s}]}\n", bad[i].run), 0);
		msg = load_text(text, ".json");
		ck_assert_msg(msg && strstr(msg, bad[i].want), "%s\nwanted: %s", msg,
			      bad[i].want);
		free(msg);
		free(text);
		/* the same in YAML (a flow mapping is YAML too), its run on line 3 */
		ck_assert_int_ge(asprintf(&text, "format: \"flowbench-results/1\"\n"
					  "runs:\n- {%s}\n", bad[i].run), 0);
		want = strdup(bad[i].want);
		*strstr(want, "line 2") = '\0';
		msg = load_text(text, ".yaml");
		ck_assert_msg(msg && strstr(msg, want) && strstr(msg, "line 3)"),
			      "%s\nwanted: %s", msg, want);
		free(want);
		free(msg);
		free(text);
	}
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		char *text, *msg;

		ck_assert_int_ge(asprintf(&text, "{\"format\": \"flowbench-results/1\", "
					  "\"runs\": [\n{%s}]}\n", good[i]), 0);
		msg = load_text(text, ".json");
		ck_assert_msg(msg == NULL, "%s: %s", good[i], msg);
		free(text);
	}
}
END_TEST

/*
 * A file of many runs is read a run at a time: what loading 4000 runs
 * keeps allocated is a fraction of jansson's tree of the same file, and
 * every run is there.  (Under a sanitizer mallinfo2() says nothing: then
 * only the runs are checked.)
 */
START_TEST(test_many_runs_streamed)
{
	char path[] = "/tmp/flowbench-test-many-XXXXXX.json";
	int fd = mkstemps(path, 5);
	FILE *f = fdopen(fd, "w");
	struct rf_doc doc;
	json_error_t jerr;
	json_t *tree;
	size_t tree_bytes, kept;
	struct mallinfo2 m0, m1;

	ck_assert_ptr_nonnull(f);
	fputs("{\"format\": \"flowbench-results/1\", \"runs\": [\n", f);
	for (int i = 0; i < 4000; i++)
		fprintf(f, "%s{\"index\": %d, \"elapsed_s\": 5, \"flowops\": [{\"name\": "
			"\"a\", \"ops\": %d, \"ops_per_s\": %d, \"pad\": [%s1]}]}\n",
			i ? "," : "", i + 1, i, i / 5,
			"0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
			"0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,");
	fputs("]}\n", f);
	fclose(f);
	m0 = mallinfo2();
	tree = json_load_file(path, 0, &jerr);
	ck_assert_ptr_nonnull(tree);
	m1 = mallinfo2();
	tree_bytes = m1.uordblks - m0.uordblks;
	json_decref(tree);
	m0 = mallinfo2();
	ck_assert_int_eq(rf_load(path, &doc, stderr), 0);
	m1 = mallinfo2();
	kept = m1.uordblks - m0.uordblks;
	ck_assert_int_eq(doc.nruns, 4000);
	ck_assert(doc.runs[3999].flowops[0].ops == 3999);
	ck_assert(doc.runs[3999].flowops[0].ops_per_s == 799);
	ck_assert_str_eq(doc.runs[3999].flowops[0].name, "a");
	if (tree_bytes > 0)
		ck_assert_msg(kept * 4 < tree_bytes, "loaded: %zu bytes kept, the "
			      "tree: %zu", kept, tree_bytes);
	rf_free(&doc);
	unlink(path);
}
END_TEST

/*
 * A YAML results file (tests/data/base.yaml: base.json's tree in YAML
 * block style, some strings unquoted) compares exactly like the JSON one.
 */
START_TEST(test_yaml_file)
{
	char *paths[3] = { fixture("base.json"), fixture("base.yaml"), fixture("new.json") };
	struct rf_doc docs[3];
	char *text[2];

	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(rf_load(paths[i], &docs[i], stderr), 0);
	ck_assert_str_eq(docs[1].workload, "workloads/randomrw.f");
	ck_assert_int_eq(docs[1].nruns, 3);
	ck_assert_double_eq(docs[1].runs[0].flowops[0].min_ns, 250);
	ck_assert_ptr_null(docs[1].runs[0].flowops[0].histogram);   /* the fixture has none */
	for (int k = 0; k < 2; k++) {
		struct rf_doc pair[2] = { docs[k], docs[2] };
		size_t len;
		FILE *out = open_memstream(&text[k], &len);

		pair[0].path = "base";
		pair[1].path = "new";
		ck_assert_int_eq(compare_print(out, pair, 2, CMP_TEXT), 0);
		fclose(out);
	}
	ck_assert_str_eq(text[1], text[0]);
	ck_assert_ptr_nonnull(strstr(text[1], "p99 latency"));
	for (int i = 0; i < 3; i++) {
		rf_free(&docs[i]);
		free(paths[i]);
	}
	free(text[0]);
	free(text[1]);
}
END_TEST

/*
 * The legend warns when a side is partial (interrupted, a run stopped
 * early), when the workload file (sha256) or its variables differ, and
 * lists a different kernel and mount options; none of it for two files
 * of the same workload on the same machine.
 */
START_TEST(test_warnings)
{
	char *paths[2] = { fixture("base.json"), fixture("new.json") };
	struct rf_doc docs[2];
	char *buf = NULL;
	size_t len;
	FILE *out;

	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(rf_load(paths[i], &docs[i], stderr), 0);
	docs[0].path = "a.json";
	docs[1].path = "b.yaml";
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(compare_print(out, docs, 2, CMP_TEXT), 0);
	fclose(out);
	ck_assert_msg(!strstr(buf, "warning") && !strstr(buf, "differs"), "%s", buf);
	free(buf);

	docs[1].status = "interrupted";
	docs[1].partial = true;
	docs[1].runs[2].partial = true;
	docs[1].sha256 = "1111111111111111111111111111111111111111111111111111111111111111";
	json_object_set_new((json_t *)docs[1].variables, "nthreads", json_integer(4));
	json_object_set_new((json_t *)docs[1].variables, "iosize", json_string("8k"));
	docs[1].kernel = "Linux 6.2.0 x86_64";
	docs[1].clock_source = "monotonic";
	docs[1].clock_drift_ppm = -12345.6;
	docs[0].kernel_clock = "kvm-clock";      /* left the TSC it timed with */
	json_object_set_new(json_array_get(docs[1].filesystems, 0), "mount_options",
			    json_string("rw,noatime"));
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(compare_print(out, docs, 2, CMP_TEXT), 0);
	fclose(out);
	ck_assert_msg(strstr(buf,
"warning: a.json was timed with the TSC, but the kernel kept time with kvm-clock when it ended: it had found the TSC unreliable, so its latencies may be wrong\n"
"warning: b.yaml is partial (status 'interrupted'; run 3 stopped early): the session stopped before its end, so its numbers cover less work than asked\n"
"warning: b.yaml's TSC drifted -1.23 % from CLOCK_MONOTONIC during a run: its latencies may be off by about as much\n"
"warning: a.json and b.yaml ran different workload files (sha256 000000000000 vs 111111111111)\n"
"warning: a.json and b.yaml ran with different variables: nthreads 1 vs 4, iosize - vs 8k\n"
"differs: kernel Linux 6.1.0 x86_64 vs Linux 6.2.0 x86_64\n"
"differs: op clock tsc vs monotonic (each latency includes about one read of it: environment.clock.read_cost_ns)\n"
"differs: file system 1 (/tmp/x) mount_options: rw,relatime vs rw,noatime\n"
"values: "), "%s", buf);
	free(buf);
	for (int i = 0; i < 2; i++) {
		rf_free(&docs[i]);
		free(paths[i]);
	}
}
END_TEST

START_TEST(test_format_names)
{
	enum cmp_format f;

	ck_assert_int_eq(cmp_format_parse("md", &f), 0);
	ck_assert_int_eq(f, CMP_MARKDOWN);
	ck_assert_int_eq(cmp_format_parse("csv", &f), 0);
	ck_assert_int_eq(f, CMP_CSV);
	ck_assert_int_eq(cmp_format_parse("html", &f), -1);
}
END_TEST

/* A small string of `fn`'s output on the loaded ranks.json. */
static char *with_ranks(int (*fn)(FILE *out, const struct rf_doc *doc, int n),
			struct rf_doc *doc)
{
	char *buf = NULL;
	size_t len;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(fn(out, doc, 1), 0);
	fclose(out);
	return buf;
}

static int compare_text(FILE *out, const struct rf_doc *doc, int n)
{
	return compare_print(out, doc, n, CMP_TEXT);
}

static int compare_csv(FILE *out, const struct rf_doc *doc, int n)
{
	return compare_print(out, doc, n, CMP_CSV);
}

/*
 * A flowbench-mpi file (tests/data/ranks.json): 5 ranks (a list entry
 * that is not a rank skipped), rates 300, 100, 50 (failed), 200 and one
 * without a rate.  The spread leaves the missing rate out; compare names
 * the slowest rank under the file's line; the CSV table is unchanged;
 * the HTML page has one row per rank, the slowest highlighted and
 * everything from the file escaped.
 */
START_TEST(test_ranks)
{
	static const char slow_row[] =
		"><td class=\"n\">2</td><td>&lt;node&amp;b&gt;</td><td class=\"n\">50</td>"
		"<td class=\"n\">1.000</td><td class=\"n\">1</td>"
		"<td colspan=\"2\">not measured</td>"
		"<td class=\"err\">yes: write: &lt;No space&gt; &amp; left</td></tr>\n";
	char *path = fixture("ranks.json"), *text, *row;
	struct rf_doc doc;
	const struct rf_run *run;

	ck_assert_int_eq(rf_load(path, &doc, stderr), 0);
	doc.path = "ranks.json";
	run = &doc.runs[0];
	ck_assert_int_eq(run->nranks, 5);
	ck_assert_int_eq(run->ranks[4].rank, 4);
	ck_assert_int_eq(run->spread.n, 4);
	ck_assert_double_eq(run->spread.min, 50);
	ck_assert_double_eq(run->spread.median, 150);
	ck_assert_double_eq(run->spread.max, 300);
	ck_assert_int_eq(run->ranks[run->spread.slowest].rank, 2);

	text = with_ranks(compare_text, &doc);
	ck_assert_msg(strstr(text, "baseline: ranks.json (workloads/randomrw.f, 1 run)\n"
			     "  run 1: 5 clients; ops/s per rank: min 50.0 (slowest: rank 2 on <node&b>, failed), median 150.0, max 300.0\n"
			     "warning: ranks.json is partial (status 'failed'; run 1 stopped early)"), "%.500s", text);
	free(text);
	text = with_ranks(compare_csv, &doc);
	ck_assert_msg(!strstr(text, "clients") && strncmp(text, "metric,flowop,", 14) == 0,
		      "%.500s", text);
	free(text);

	text = with_ranks(html_report, &doc);
	ck_assert_msg(strstr(text, "<h2>ranks: 1: ranks.json, run 1</h2>\n<p>5 clients; ops/s per rank: min 50, median 150, max 300; the slowest, rank 2, is highlighted.</p>"),
		      "no ranks heading and line");
	row = strstr(text, "<tr class=\"slowest\"");
	ck_assert_ptr_nonnull(row);
	ck_assert_ptr_null(strstr(row + 1, "<tr class=\"slowest\""));
	ck_assert_msg(strncmp(strchr(row, '>'), slow_row, strlen(slow_row)) == 0, "%.300s", row);
	ck_assert_ptr_nonnull(strstr(text, "<tr><td class=\"n\">4</td><td>node-b</td><td class=\"n\">-</td>"
				      "<td class=\"n\">-</td><td class=\"n\">-</td>"
				      "<td colspan=\"2\">not measured</td><td>no</td></tr>"));
	ck_assert_ptr_null(strstr(text, "<node&b>"));
	ck_assert_ptr_nonnull(strstr(text, "<title>ops/s per rank"));
	free(text);
	rf_free(&doc);
	free(path);
}
END_TEST

/* A file without ranks: no ranks anywhere, and no spread. */
START_TEST(test_no_ranks)
{
	char *path = fixture("base.json"), *text;
	struct rf_doc doc;

	ck_assert_int_eq(rf_load(path, &doc, stderr), 0);
	for (int r = 0; r < doc.nruns; r++) {
		ck_assert_int_eq(doc.runs[r].nranks, 0);
		ck_assert_int_eq(doc.runs[r].spread.n, 0);
		ck_assert_int_eq(doc.runs[r].spread.slowest, -1);
	}
	text = with_ranks(compare_text, &doc);
	ck_assert_ptr_null(strstr(text, "clients"));
	free(text);
	text = with_ranks(html_report, &doc);
	ck_assert_ptr_null(strstr(text, "ranks:"));
	ck_assert_ptr_null(strstr(text, "slowest"));
	free(text);
	rf_free(&doc);
	free(path);
}
END_TEST

/*
 * A run's "usage" becomes compare's cost rows: the workers' usr+sys
 * percentages summed (70), their CPU seconds per IO Summary op
 * (1.4 s / 4000 = 350 µs), the busiest device found in /proc/diskstats
 * (60.25; a device not found is left out); the master is not a worker.
 * Files without usage (test_text's fixtures) get no such table.
 */
START_TEST(test_usage_rows)
{
	static const char text[] =
		"{\"format\": \"flowbench-results/1\", \"status\": \"ok\", \"runs\": [{\"index\": 1,"
		" \"elapsed_s\": 2.0, \"flowops\": [], \"summary\": {\"ops\": 4000,"
		" \"ops_per_s\": 2000, \"mb_per_s\": 1, \"ms_per_op\": 0.5}, \"usage\": {"
		" \"window_s\": 2.0, \"cpu\": ["
		"{\"process\": \"a\", \"instance\": 1, \"usr_pct\": 10, \"sys_pct\": 40, \"usr_s\": 0.2, \"sys_s\": 0.8},"
		"{\"process\": \"a\", \"instance\": 2, \"usr_pct\": 5, \"sys_pct\": 15, \"usr_s\": 0.1, \"sys_s\": 0.3}],"
		" \"master\": {\"usr_pct\": 1, \"sys_pct\": 1, \"usr_s\": 0.02, \"sys_s\": 0.02},"
		" \"disks\": [{\"name\": \"vda\", \"found\": true, \"util_pct\": 30.5},"
		"{\"name\": \"vdb\", \"found\": true, \"util_pct\": 60.25},"
		"{\"name\": \"vdc\", \"found\": false, \"util_pct\": 99}]}}]}";
	char path[] = "/tmp/flowbench-test-usage-XXXXXX", *buf = NULL, *plain;
	struct rf_doc docs[2];
	size_t len;
	FILE *f, *out;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	for (int i = 0; i < 2; i++)
		ck_assert_int_eq(rf_load(path, &docs[i], stderr), 0);
	unlink(path);
	out = open_memstream(&buf, &len);
	ck_assert_int_eq(compare_print(out, docs, 2, CMP_CSV), 0);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "\r\ncpu_pct,workers,70,-,1,70,-,1,0.0000,-,n/a\r\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\r\ncpu_us_per_op,workers,350,-,1,350,-,1,0.0000,-,n/a\r\n"));
	ck_assert_ptr_nonnull(strstr(buf, "\r\ndisk_util_pct,busiest device,60.25,-,1,60.25,"));
	free(buf);
	for (int i = 0; i < 2; i++)
		rf_free(&docs[i]);
	plain = compared(CMP_TEXT);
	ck_assert_ptr_null(strstr(plain, "CPU"));
	ck_assert_ptr_null(strstr(plain, "disk util"));
	free(plain);
}
END_TEST

/* The page of `flowbench report` for `n` loaded files (malloc'ed). */
static char *reported(struct rf_doc *docs, int n)
{
	char *buf = NULL;
	size_t len;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(html_report(out, docs, n), 0);
	fclose(out);
	return buf;
}

/* Does `word` appear in `text` as a word of its own ("-nan", ">inf<"; not "minf")? */
static bool nonfinite_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; (p = strcasestr(p, word)); p += n)
		if ((p == text || !isalpha((unsigned char)p[-1])) && !isalpha((unsigned char)p[n]))
			return true;
	return false;
}

/*
 * The report's "CPU and disks" (tests/data/usage.json): run 1's workers
 * summed (usr 10 + 5.25, sys 40 + 15.5, 1.415 CPU s over 4000 ops =
 * 353.75 µs/op, ctx 1200 + 34, majf 2 + 1, minf 30 + 4), its master;
 * a device with its disk, one /proc/diskstats lost, a directory on no
 * block device, all named as the file has them but escaped; run 2,
 * without usage, "not measured" in both tables, never 0.  The ranks
 * table: rank 0's workers' 62.75 %, its busiest device found (71.5;
 * vde, not found, is left out) and "8 of 11 devices shown"; rank 1,
 * without usage, not measured.  No NaN or inf anywhere.
 */
START_TEST(test_report_usage)
{
	static const char *const want[] = {
		"<h2>CPU and disks</h2>",
		"<tr><td class=\"n\">1</td><td class=\"n\">15.25</td><td class=\"n\">55.50</td>"
		"<td class=\"n\">354</td><td class=\"n\">1,234</td><td class=\"n\">3</td>"
		"<td class=\"n\">34</td><td class=\"n\">0.50</td><td class=\"n\">1.75</td></tr>\n",
		"<tr><td class=\"n\">2</td><td colspan=\"8\">not measured</td></tr>\n",
		"<tr><td class=\"n\">1</td><td>sda1 (on &lt;sda&amp;&gt;)</td><td class=\"n\">1,234</td>"
		"<td class=\"n\">56,789</td><td class=\"n\">87.35</td></tr>\n",
		"<tr><td class=\"n\">1</td><td>vdz</td><td colspan=\"3\">not in /proc/diskstats at "
		"both ends of the window: no disk statistics</td></tr>\n",
		"<tr><td class=\"n\">1</td><td>/dev/shm/&lt;x&amp;y&gt;</td><td colspan=\"3\">"
		"no block device (tmpfs): no disk statistics</td></tr>\n",
		"<tr><td class=\"n\">2</td><td colspan=\"4\">not measured</td></tr>\n",
		"<th>CPU µs/op (workers)</th>",
		"<td class=\"n\">62.75</td><td class=\"n\">71.50 (8 of 11 devices shown)</td><td>no</td></tr>",
		"<td>&lt;h&amp;1&gt;</td><td class=\"n\">500</td><td class=\"n\">2.000</td>"
		"<td class=\"n\">0</td><td colspan=\"2\">not measured</td>",
	};
	char *path = fixture("usage.json"), *base = fixture("base.json"), *text;
	struct rf_doc docs[2];
	const struct rf_run *run;

	ck_assert_int_eq(rf_load(path, &docs[0], stderr), 0);
	run = &docs[0].runs[0];
	ck_assert(run->usage.measured);
	ck_assert(!docs[0].runs[1].usage.measured);
	ck_assert_int_eq(run->usage.ndisks, 2);
	ck_assert_int_eq(run->usage.nnodev, 1);
	ck_assert_int_eq(run->ranks[0].ndisks, 8);
	ck_assert_int_eq(run->ranks[0].disks_total, 11);
	ck_assert(!run->ranks[1].usage_measured);
	text = reported(docs, 1);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		ck_assert_msg(strstr(text, want[i]), "no %s", want[i]);
	ck_assert_ptr_null(strstr(text, "<sda&>"));
	ck_assert_ptr_null(strstr(text, "<h&1>"));
	ck_assert_msg(!nonfinite_word(text, "nan") && !nonfinite_word(text, "inf"),
		      "NaN or inf printed");
	free(text);

	/* next to a file without usage: its costs "not measured", not 0 or "-" */
	ck_assert_int_eq(rf_load(base, &docs[1], stderr), 0);
	text = reported(docs, 2);
	ck_assert_ptr_nonnull(strstr(text, "CPU and disks: not measured"));
	ck_assert_ptr_nonnull(strstr(text, "<td>not measured</td><td class=\"n\">-</td><td>n/a</td>"
				      "<td>not measured</td><td class=\"n\">-</td><td>n/a</td></tr>"));
	free(text);
	rf_free(&docs[0]);

	/* a file without usage alone: no cost table, the section says so */
	text = reported(&docs[1], 1);
	ck_assert_ptr_nonnull(strstr(text, "CPU and disks: not measured"));
	ck_assert_ptr_null(strstr(text, "CPU µs/op"));
	free(text);
	rf_free(&docs[1]);
	free(path);
	free(base);
}
END_TEST

static Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_text);
	tcase_add_test(tc, test_markdown);
	tcase_add_test(tc, test_csv);
	tcase_add_test(tc, test_quoting);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_format_names);
	tcase_add_test(tc, test_ranks);
	tcase_add_test(tc, test_no_ranks);
	tcase_add_test(tc, test_broken_files);
	tcase_add_test(tc, test_bad_numbers);
	tcase_add_test(tc, test_many_runs_streamed);
	tcase_add_test(tc, test_yaml_file);
	tcase_add_test(tc, test_warnings);
	tcase_add_test(tc, test_usage_rows);
	tcase_add_test(tc, test_report_usage);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(compare_suite)
