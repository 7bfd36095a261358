/*
 * test_compare_fio.c - fio's JSON output read as a results file
 * (runtime/results/fio.c, fio_run.c, fio_lat.c; compare/tools.c), on
 * files fio 3.33 wrote (tests/data/fio/, README.md there says how): each
 * row's numbers against the fio file's own, read here with jansson;
 * clones merged as group_reporting merges them; json+ bins as a
 * histogram whose percentiles are within half a nanosecond of fio's;
 * several documents (appended runs, --status-interval snapshots); the
 * refusals (fio's text output, a truncated file, no jobs, jobs that did
 * nothing); and an fio run beside a flowbench run of the imported job,
 * in compare (byte for byte) and in the report.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/compare.h"
#include "compare/html.h"
#include "compare/load.h"
#include "compare/tools.h"

#include "tests/unit/check_main.h"

static char *fixture(const char *name)
{
	const char *top = getenv("TOP_SRCDIR");
	char *path = NULL;

	ck_assert_int_ge(asprintf(&path, "%s/tests/data/fio/%s", top ? top : ".", name), 0);
	return path;
}

/* The fixture loaded through compare's loader (it must load). */
static void load(const char *name, struct rf_doc *doc)
{
	char *path = fixture(name);

	ck_assert_msg(rf_load(path, doc, stderr) == 0, "%s does not load", name);
	doc->path = name;
	free(path);
}

/* fio's own document number `k` of the fixture, parsed here. */
static json_t *fio_doc(const char *name, int k)
{
	char *path = fixture(name), *text = NULL, *p;
	size_t len = 0;
	FILE *f = fopen(path, "r");
	json_t *doc = NULL;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_gt(getdelim(&text, &len, '\0', f), 0);
	fclose(f);
	p = text;
	for (int i = 0; i <= k; i++) {
		json_error_t e;

		p = strstr(p, "\n{") && *p != '{' ? strstr(p, "\n{") + 1 : p;
		json_decref(doc);
		doc = json_loadb(p, strlen(p), JSON_DISABLE_EOF_CHECK, &e);
		ck_assert_ptr_nonnull(doc);
		p += e.position;
	}
	free(text);
	free(path);
	return doc;
}

/* A number of `o` by its path of keys, "read.clat_ns.mean" (it must be there). */
static double num(const json_t *o, const char *path)
{
	char key[64];
	const char *dot;

	while ((dot = strchr(path, '.'))) {
		snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
		o = json_object_get(o, key);
		path = dot + 1;
	}
	ck_assert_msg(json_is_number(json_object_get(o, path)), "no %s", path);
	return json_number_value(json_object_get(o, path));
}

/* fio's printed percentile q of a direction's clat ("50.000000"). */
static double fio_pct(const json_t *dir, double q)
{
	char key[32];

	const json_t *v;

	snprintf(key, sizeof(key), "%f", q);
	v = json_object_get(json_object_get(json_object_get(dir, "clat_ns"), "percentile"), key);
	ck_assert_msg(json_is_integer(v), "fio printed no p%s", key);
	return (double)json_integer_value(v);
}

static double pct(const struct rf_flowop *fo, double q)
{
	for (int i = 0; i < fo->npcts; i++)
		if (fabs(fo->pcts[i].pct - q) < 1e-9)
			return fo->pcts[i].ns;
	return NAN;
}

static bool close_to(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fabs(b) + 1e-12;
}

/*
 * One psync job without bins: the row randread-read holds fio's ops,
 * iops, bw, clat mean and printed percentiles; lat's mean; no slat (fio
 * has none for a synchronous engine); the tool, its version, and the
 * summary of the one job.
 */
START_TEST(test_one_job)
{
	struct rf_doc doc;
	json_t *fio = fio_doc("randread.json", 0);
	const json_t *rd = json_object_get(json_array_get(json_object_get(fio, "jobs"), 0), "read");
	const struct rf_flowop *fo;
	double ios = num(rd, "total_ios"), rt = num(rd, "runtime");

	load("randread.json", &doc);
	ck_assert_str_eq(doc.tool, "fio");
	ck_assert_str_eq(doc.tool_version, "fio-3.33");
	ck_assert_str_eq(doc.tool_format, "json");
	ck_assert_str_eq(doc.workload, "fio job randread");
	ck_assert_str_eq(doc.kernel, "not recorded");
	ck_assert_int_eq(doc.nruns, 1);
	ck_assert_int_eq(doc.runs[0].nflowops, 1);
	fo = rf_find(&doc.runs[0], "randread-read", 0);
	ck_assert_ptr_nonnull(fo);
	ck_assert(fo->ops == ios);
	ck_assert(close_to(fo->ops_per_s, num(rd, "iops")));
	ck_assert(close_to(fo->ops_per_s, ios * 1000 / rt));
	ck_assert(close_to(fo->mb_per_s, num(rd, "io_bytes") * 1000 / rt / 1048576));
	ck_assert(close_to(fo->ms_per_op, num(rd, "clat_ns.mean") / 1e6));
	ck_assert(close_to(fo->lat_ms_per_op, num(rd, "lat_ns.mean") / 1e6));
	ck_assert(isnan(fo->slat_ms_per_op));
	ck_assert(fo->min_ns == num(rd, "clat_ns.min") && fo->max_ns == num(rd, "clat_ns.max"));
	ck_assert(pct(fo, 50) == fio_pct(rd, 50));
	ck_assert(pct(fo, 1) == fio_pct(rd, 1));
	ck_assert(pct(fo, 99.99) == fio_pct(rd, 99.99));
	ck_assert(pct(fo, 99.9) > 0);
	ck_assert_ptr_null(fo->histogram);
	ck_assert(close_to(doc.runs[0].summary.ops_per_s, ios * 1000 / rt));
	ck_assert(close_to(doc.runs[0].summary.ms_per_op, fo->ms_per_op));
	ck_assert(close_to(doc.runs[0].elapsed_s, rt / 1000));
	ck_assert_ptr_null(doc.notes);
	json_decref(fio);
	rf_free(&doc);
}
END_TEST

/*
 * json+: the clat bins are the row's histogram (counts adding up to
 * fio's N, buckets ascending), and every percentile fio printed is
 * recomputed from them within half a nanosecond (fio names a bucket by
 * its middle rounded down; flowbench's rule takes the exact middle),
 * except at ranks 1 and N, which are fio's exact min and max.
 */
START_TEST(test_bins)
{
	struct rf_doc doc;
	json_t *fio = fio_doc("randread.jsonplus.json", 0);
	const json_t *clat = json_object_get(json_object_get(json_array_get(
		json_object_get(fio, "jobs"), 0), "read"), "clat_ns");
	const json_t *printed = json_object_get(clat, "percentile");
	const struct rf_flowop *fo;
	double n = 0, last = -1;
	const char *k;
	json_t *v;
	size_t i;

	load("randread.jsonplus.json", &doc);
	ck_assert_str_eq(doc.tool_format, "json+");
	fo = rf_find(&doc.runs[0], "randread-read", 0);
	ck_assert_ptr_nonnull(fo->histogram);
	json_array_foreach((json_t *)fo->histogram, i, v) {
		double lo = json_number_value(json_array_get(v, 0));
		double hi = json_number_value(json_array_get(v, 1));

		ck_assert(lo > last && hi >= lo);
		last = hi;
		n += json_number_value(json_array_get(v, 2));
	}
	ck_assert(n == num(clat, "N"));
	json_object_foreach((json_t *)printed, k, v) {
		double q = strtod(k, NULL), mine = pct(fo, q);

		ck_assert_msg(fabs(mine - json_number_value(v)) <= 0.5 ||
			      mine == fo->min_ns || mine == fo->max_ns,
			      "p%s: %.1f vs fio's %lld", k, mine, json_integer_value(v));
	}
	/* flowbench's own list too, p99.9 among them */
	ck_assert(pct(fo, 90) > 0 && pct(fo, 99.9) >= pct(fo, 99) && pct(fo, 99.99) > 0);
	json_decref(fio);
	rf_free(&doc);
}
END_TEST

/*
 * Four clones listed one by one: one row seqwrite-write, as
 * group_reporting would give: I/Os added, the rate over the longest
 * runtime, the clat mean weighted by samples; without bins no
 * percentiles and a note saying why; with json+ the bins added, so the
 * merged histogram counts every clone's writes.
 */
START_TEST(test_clones)
{
	struct rf_doc doc;
	json_t *fio = fio_doc("clones.json", 0);
	const json_t *jobs = json_object_get(fio, "jobs");
	const struct rf_flowop *fo;
	double ios = 0, rt = 0, lat = 0, n = 0;
	json_t *job;
	size_t i;

	ck_assert_int_eq(json_array_size(jobs), 4);
	json_array_foreach(jobs, i, job) {
		const json_t *w = json_object_get(job, "write");

		ios += num(w, "total_ios");
		rt = fmax(rt, num(w, "runtime"));
		lat += num(w, "clat_ns.mean") * num(w, "clat_ns.N");
		n += num(w, "clat_ns.N");
	}
	load("clones.json", &doc);
	ck_assert_int_eq(doc.runs[0].nflowops, 1);
	fo = rf_find(&doc.runs[0], "seqwrite-write", 0);
	ck_assert(fo->ops == ios);
	ck_assert(close_to(fo->ops_per_s, ios * 1000 / rt));
	ck_assert(close_to(fo->ms_per_op, lat / n / 1e6));
	ck_assert_int_eq(fo->npcts, 0);
	ck_assert_ptr_nonnull(doc.notes);
	ck_assert_str_eq(json_string_value(json_array_get(doc.notes, 0)),
			 "fio listed the 4 clones of job 'seqwrite' one by one (no "
			 "group_reporting) without json+ bins: their percentiles cannot be "
			 "merged, so its rows have none (run fio with group_reporting or "
			 "--output-format=json+)");
	ck_assert_int_eq(doc.runs[0].usage.measured, true);
	rf_free(&doc);
	json_decref(fio);

	load("clones.jsonplus.json", &doc);
	fo = rf_find(&doc.runs[0], "seqwrite-write", 0);
	ck_assert_ptr_nonnull(fo->histogram);
	n = 0;
	json_array_foreach((json_t *)fo->histogram, i, job)
		n += json_number_value(json_array_get(job, 2));
	ck_assert(n == fo->ops);
	ck_assert(pct(fo, 50) > 0 && pct(fo, 99.9) >= pct(fo, 50));
	ck_assert_ptr_null(doc.notes);
	rf_free(&doc);

	/* group_reporting: fio's one entry is the row */
	load("group.jsonplus.json", &doc);
	fio = fio_doc("group.jsonplus.json", 0);
	fo = rf_find(&doc.runs[0], "seqwrite-write", 0);
	ck_assert(fo->ops == num(json_object_get(json_array_get(json_object_get(fio, "jobs"), 0),
						 "write"), "total_ios"));
	ck_assert(fo->ops == 4 * 512);
	json_decref(fio);
	rf_free(&doc);
}
END_TEST

/*
 * randrw with fsync: rows mixed-read, mixed-write and mixed-fsync (fio's
 * "sync"); the summary counts the reads and writes over the job's
 * longest runtime, not the syncs.  libaio: fio's slat is there.
 */
START_TEST(test_directions)
{
	struct rf_doc doc;
	json_t *fio = fio_doc("randrw.json", 0);
	const json_t *job = json_array_get(json_object_get(fio, "jobs"), 0);
	double r = num(job, "read.total_ios"), w = num(job, "write.total_ios");
	double rt = fmax(num(job, "read.runtime"), num(job, "write.runtime"));
	const struct rf_flowop *fo;

	load("randrw.json", &doc);
	ck_assert_int_eq(doc.runs[0].nflowops, 3);
	ck_assert_str_eq(doc.runs[0].flowops[0].name, "mixed-read");
	ck_assert_str_eq(doc.runs[0].flowops[1].name, "mixed-write");
	ck_assert_str_eq(doc.runs[0].flowops[2].name, "mixed-fsync");
	ck_assert(doc.runs[0].flowops[2].ops == num(job, "sync.total_ios"));
	ck_assert(close_to(doc.runs[0].flowops[2].ms_per_op, num(job, "sync.lat_ns.mean") / 1e6));
	ck_assert(close_to(doc.runs[0].summary.ops_per_s, (r + w) * 1000 / rt));
	json_decref(fio);
	rf_free(&doc);

	load("libaio.jsonplus.json", &doc);
	fio = fio_doc("libaio.jsonplus.json", 0);
	job = json_array_get(json_object_get(fio, "jobs"), 0);
	fo = rf_find(&doc.runs[0], "aio-read", 0);
	ck_assert(close_to(fo->slat_ms_per_op, num(job, "read.slat_ns.mean") / 1e6));
	ck_assert(close_to(fo->ms_per_op, num(job, "read.clat_ns.mean") / 1e6));
	ck_assert(close_to(fo->lat_ms_per_op, num(job, "read.lat_ns.mean") / 1e6));
	json_decref(fio);
	rf_free(&doc);
}
END_TEST

/*
 * Several documents: three runs appended to one file (fio's note line
 * before each) are three runs; --status-interval's snapshots are one
 * run, fio's last document, with a note.
 */
START_TEST(test_documents)
{
	struct rf_doc doc;

	load("repeat.json", &doc);
	ck_assert_int_eq(doc.nruns, 3);
	for (int r = 0; r < 3; r++) {
		json_t *fio = fio_doc("repeat.json", r);
		const json_t *rd = json_object_get(json_array_get(json_object_get(fio, "jobs"), 0),
						   "read");

		ck_assert_int_eq(doc.runs[r].index, r + 1);
		ck_assert(close_to(doc.runs[r].flowops[0].ops_per_s, num(rd, "iops")));
		json_decref(fio);
	}
	rf_free(&doc);

	load("status.json", &doc);
	ck_assert_int_eq(doc.nruns, 1);
	{
		json_t *fio = fio_doc("status.json", 3);
		const json_t *rd = json_object_get(json_array_get(json_object_get(fio, "jobs"), 0),
						   "read");

		ck_assert(doc.runs[0].flowops[0].ops == num(rd, "total_ios"));
		json_decref(fio);
	}
	ck_assert_str_eq(json_string_value(json_array_get(doc.notes, 0)),
			 "3 of fio's --status-interval snapshots left out: a run is its last document");
	rf_free(&doc);
}
END_TEST

/* rf_load() of `path`: its error text (it must fail). */
static char *load_error(const char *path)
{
	char *buf = NULL;
	size_t len;
	struct rf_doc doc;
	FILE *err = open_memstream(&buf, &len);

	ck_assert_int_eq(rf_load(path, &doc, err), -1);
	fclose(err);
	rf_free(&doc);
	return buf;
}

/* `text` in a temporary file; its path (static). */
static const char *temp_file(const char *text, size_t len)
{
	static char path[64];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "/tmp/flowbench-test-fio-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	fclose(f);
	return path;
}

/* The error of loading `text` as a file, with its temporary path shown as "F". */
static char *text_error(const char *text, size_t len)
{
	const char *path = temp_file(text, len);
	char *msg = load_error(path), *at, *out = NULL;

	unlink(path);
	at = strstr(msg, path);
	ck_assert_ptr_nonnull(at);
	ck_assert_int_ge(asprintf(&out, "%.*sF%s", (int)(at - msg), msg, at + strlen(path)), 0);
	free(msg);
	return out;
}

/*
 * What is refused, and the message: fio's normal output, a file cut
 * inside fio's document (placed), a document with no jobs, one whose
 * only job failed before any I/O, and a second document not fio's.
 */
START_TEST(test_refusals)
{
	static const char two[] = "{ \"fio version\": \"fio-3.33\", \"jobs\": [ { \"jobname\": "
		"\"a\", \"read\": { \"total_ios\": 1 } } ] }\n\n{ \"format\": 1 }\n";
	char *path = fixture("text.txt"), *msg = load_error(path), *all;
	json_t *fio = fio_doc("randread.json", 0);

	ck_assert_msg(strstr(msg, "text.txt: not a results file: this is fio's normal (text) "
			      "output; compare and report read fio's JSON: run fio with "
			      "--output-format=json (or json+) and give that file\n"), "%s", msg);
	free(msg);
	free(path);

	path = fixture("error.json");
	msg = load_error(path);
	ck_assert_msg(strstr(msg, "error.json: not a results file: fio's document at line 3: "
			      "no job did any I/O: fio job 'missing' ended with error 2 (No such "
			      "file or directory)\n"), "%s", msg);
	free(msg);
	free(path);

	all = json_dumps(fio, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	msg = text_error(all, strlen(all) / 2);
	ck_assert_msg(strstr(msg, ": not valid fio JSON: ") &&
		      strstr(msg, " (the file ends inside fio's document: cut short?)\n") &&
		      strstr(msg, "error: F:"), "%s", msg);
	free(msg);
	free(all);

	json_object_set_new(fio, "jobs", json_array());
	all = json_dumps(fio, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	msg = text_error(all, strlen(all));
	ck_assert_str_eq(msg, "flowbench: error: F: not a results file: fio's document at "
			 "line 1 lists no jobs (fio ran none)\n");
	free(msg);
	free(all);

	msg = text_error(two, sizeof(two) - 1);
	ck_assert_str_eq(msg, "flowbench: error: F:3:1: not valid fio JSON: a JSON document "
			 "that is not fio's output (no \"fio version\")\n");
	free(msg);
	json_decref(fio);
}
END_TEST

/* Compare two loaded files in `fmt`; the text. */
static char *compared(struct rf_doc *docs, int n, enum cmp_format fmt)
{
	char *buf = NULL;
	size_t len;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_int_eq(compare_print(out, docs, n, fmt), 0);
	fclose(out);
	return buf;
}

/*
 * An fio run (json+) beside a flowbench run of the imported job
 * (tests/data/fio/README.md): rows matched by import-fio's names, the
 * note on how fio's percentiles were taken, the warning that the tools'
 * rules differ and what compares, byte for byte.
 */
START_TEST(test_side_by_side)
{
	struct rf_doc docs[2];
	char *text;

	load("randread.jsonplus.json", &docs[0]);
	load("fb-randread.json", &docs[1]);
	docs[0].path = "fio.json";
	docs[1].path = "flowbench.json";
	text = compared(docs, 2, CMP_TEXT);
	ck_assert_str_eq(text,
"baseline: fio.json (fio job randread, 1 run)\n"
"compared: flowbench.json (/tmp/fio-fixtures/randread.f, 1 run)\n"
"note: fio.json is fio-3.33's JSON output with latency bins (json+): its percentiles are taken from the bins by flowbench's rule\n"
"warning: fio.json was measured by fio-3.33 and flowbench.json by flowbench: the two tools' rules differ\n"
"what compares between fio and flowbench:\n"
"  rows: fio's job J is the rows J-read, J-write, J-trim and J-fsync (its syncs), the names import-fio gives the job's flowops (J.read and J.write for a mixed job, the members of its choice); a job's clones (numjobs) are one row, as a flowop's threads are one line\n"
"  ops, ops/s, MB/s: the same I/O when import-fio mapped the job without a warning; fio's rates are over each job's own runtime, flowbench's over the run's\n"
"  latency (ms/op, percentiles): fio's clat (submission to completion) against flowbench's op latency, the same span for a synchronous engine (sync, psync: one system call each) and for an asynchronous one (libaio, io_uring, posixaio: flowbench's aioread/aiowrite report fio's clat, with slat and lat beside it)\n"
"  engine: fio's ioengine against the flowop import-fio chose for it (its comments and warnings say where they differ)\n"
"  not recorded by fio: host, kernel, file systems, mount options, variables: not compared, check them yourself\n"
"values: mean ± stdev over a file's runs; %diff against the baseline; significant: Welch's t-test, p < 0.05\n"
"\n"
"ops/s           fio.json  flowbench.json   %diff  significant\n"
"randread-read  16516 ± -       20916 ± -  +26.6%          n/a\n"
"randread-done          -       20916 ± -       -          n/a\n"
"IO Summary     16516 ± -       20937 ± -  +26.8%          n/a\n"
"\n"
"MB/s           fio.json  flowbench.json   %diff  significant\n"
"randread-read  64.5 ± -        81.7 ± -  +26.6%          n/a\n"
"randread-done         -           0 ± -       -          n/a\n"
"IO Summary     64.5 ± -        81.7 ± -  +26.6%          n/a\n"
"\n"
"ms/op           fio.json  flowbench.json   %diff  significant\n"
"randread-read  0.058 ± -      0.0473 ± -  -18.4%          n/a\n"
"randread-done          -    2.15e-05 ± -       -          n/a\n"
"IO Summary     0.058 ± -      0.0475 ± -  -18.1%          n/a\n"
"\n"
"lat ms/op        fio.json  flowbench.json  %diff  significant\n"
"randread-read  0.0581 ± -               -      -          n/a\n"
"randread-done           -               -      -          n/a\n"
"\n"
"p50 latency       fio.json  flowbench.json   %diff  significant\n"
"randread-read  44.80µs ± -     35.97µs ± -  -19.7%          n/a\n"
"randread-done            -        10ns ± -       -          n/a\n"
"\n"
"p99 latency       fio.json  flowbench.json   %diff  significant\n"
"randread-read  109.1µs ± -     66.82µs ± -  -38.7%          n/a\n"
"randread-done            -       290ns ± -       -          n/a\n"
"\n"
"p99.9 latency     fio.json  flowbench.json   %diff  significant\n"
"randread-read  4.047ms ± -     3.564ms ± -  -11.9%          n/a\n"
"randread-done            -       350ns ± -       -          n/a\n"
"\n"
"clat p50          fio.json  flowbench.json  %diff  significant\n"
"randread-read  44.80µs ± -               -      -          n/a\n"
"\n"
"clat p99          fio.json  flowbench.json  %diff  significant\n"
"randread-read  109.1µs ± -               -      -          n/a\n"
"\n"
"CPU % (usr+sys, 100 = one CPU)  fio.json  flowbench.json   %diff  significant\n"
"workers                         45.9 ± -        34.1 ± -  -25.7%          n/a\n"
"\n"
"CPU µs/op  fio.json  flowbench.json   %diff  significant\n"
"workers    27.3 ± -        16.3 ± -  -40.5%          n/a\n"
"\n"
"disk util %     fio.json  flowbench.json  %diff  significant\n"
"busiest device     0 ± -        31.8 ± -      -          n/a\n");
	free(text);

	/* Markdown: the same lines as list items, escaped */
	text = compared(docs, 2, CMP_MARKDOWN);
	ck_assert_msg(strstr(text, "- warning: fio.json was measured by fio-3.33 and flowbench.json "
			     "by flowbench: the two tools' rules differ\n"), "%s", text);
	ck_assert_msg(strstr(text, "| randread-read | 16516 ± - | 20916 ± - | +26.6% | n/a |\n"),
		      "%s", text);
	free(text);

	/* fio beside fio: no warning about tools, the notes only */
	rf_free(&docs[1]);
	load("randread.json", &docs[1]);
	text = compared(docs, 2, CMP_TEXT);
	ck_assert_ptr_null(strstr(text, "warning:"));
	ck_assert_ptr_null(strstr(text, "differs:"));
	ck_assert_ptr_nonnull(strstr(text, "note: randread.json is fio-3.33's JSON output without "
					   "latency bins: its percentiles are fio's own"));
	free(text);
	rf_free(&docs[0]);
	rf_free(&docs[1]);
}
END_TEST

/* The report: fio's source in the header, the tools' list, the shared rows. */
/* `text` with every "from" (quoted) replaced by "to": a new string. */
static char *renamed(const char *text, const char *from, const char *to)
{
	char *out = NULL, quoted[64];
	size_t olen = 0;
	FILE *o = open_memstream(&out, &olen);

	snprintf(quoted, sizeof(quoted), "\"%s\"", from);
	for (const char *p = text; *p; ) {
		const char *hit = strstr(p, quoted);

		if (!hit) {
			fputs(p, o);
			break;
		}
		fwrite(p, 1, (size_t)(hit - p), o);
		fprintf(o, "\"%s\"", to);
		p = hit + strlen(quoted);
	}
	fclose(o);
	return out;
}

/*
 * fb-randread.json with its read flowop named `read` and its finish
 * flowop `done`, written to a temporary file and loaded.
 */
static void load_renamed(const char *read, const char *done, struct rf_doc *doc)
{
	char *path = fixture("fb-randread.json"), *text = NULL, *r, *d;
	char tmp[] = "/tmp/flowbench-align.XXXXXX";
	size_t len = 0;
	FILE *f = fopen(path, "r");
	int fd;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_gt(getdelim(&text, &len, '\0', f), 0);
	fclose(f);
	r = renamed(text, "randread-read", read);
	d = renamed(r, "randread-done", done);
	fd = mkstemp(tmp);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, d, strlen(d)), (ssize_t)strlen(d));
	close(fd);
	ck_assert_int_eq(rf_load(tmp, doc, stderr), 0);
	doc->path = "flowbench.json";
	unlink(tmp);
	free(d);
	free(r);
	free(text);
	free(path);
}

/*
 * A mixed job's rows: import-fio makes the job a choice whose members are
 * JOB.read and JOB.write, so fio's JOB-read is shown as JOB.read when the
 * flowbench file has that and no JOB-read, with one note; a flowbench
 * file that has JOB-read keeps fio's name.
 */
START_TEST(test_align_mixed)
{
	struct rf_doc docs[2];
	char *text;

	load("randread.jsonplus.json", &docs[0]);
	load_renamed("randread.read", "randread-done", &docs[1]);
	docs[0].path = "fio.json";
	ck_assert_int_eq(rf_tools_align(docs, 2), 0);
	ck_assert_ptr_nonnull(rf_find(&docs[0].runs[0], "randread.read", 0));
	ck_assert_ptr_null(rf_find(&docs[0].runs[0], "randread-read", 0));
	text = compared(docs, 2, CMP_TEXT);
	ck_assert_msg(strstr(text, "note: fio.json: the rows JOB-read and JOB-write of a mixed job "
			     "(rw=randrw, rw) are shown as JOB.read and JOB.write, the members of "
			     "the choice import-fio makes of it\n"), "%s", text);
	ck_assert_msg(strstr(text, "\nrandread.read  16516 ± -       20916 ± -  +26.6%"), "%s", text);
	/* aligned twice: nothing more, the note once */
	ck_assert_int_eq(rf_tools_align(docs, 2), 0);
	free(text);
	text = compared(docs, 2, CMP_TEXT);
	ck_assert_ptr_null(strstr(strstr(text, "mixed job (rw=") + 1, "mixed job (rw="));
	free(text);
	rf_free(&docs[0]);
	rf_free(&docs[1]);

	/* the flowbench file has fio's own name: nothing renamed */
	load("randread.jsonplus.json", &docs[0]);
	load("fb-randread.json", &docs[1]);
	ck_assert_int_eq(rf_tools_align(docs, 2), 0);
	ck_assert_ptr_nonnull(rf_find(&docs[0].runs[0], "randread-read", 0));
	ck_assert_ptr_null(docs[0].notes && json_array_size(docs[0].notes) ?
			   strstr(json_string_value(json_array_get(docs[0].notes, 0)), "mixed") : NULL);
	rf_free(&docs[0]);
	rf_free(&docs[1]);

	/* a percentage_random job: fio's one row is flowbench's two members */
	load("randread.jsonplus.json", &docs[0]);
	load_renamed("randread.read", "randread.read-seq", &docs[1]);
	docs[0].path = "fio.json";
	ck_assert_int_eq(rf_tools_align(docs, 2), 0);
	ck_assert_ptr_nonnull(rf_find(&docs[0].runs[0], "randread-read", 0));
	text = compared(docs, 2, CMP_TEXT);
	ck_assert_msg(strstr(text, "note: fio.json: fio's row randread-read is flowbench's "
			     "randread.read and randread.read-seq together"), "%s", text);
	free(text);
	rf_free(&docs[0]);
	rf_free(&docs[1]);
}
END_TEST

START_TEST(test_report)
{
	struct rf_doc docs[2];
	char *buf = NULL;
	size_t len;
	FILE *out = open_memstream(&buf, &len);

	load("randread.jsonplus.json", &docs[0]);
	load("fb-randread.json", &docs[1]);
	ck_assert_int_eq(html_report(out, docs, 2), 0);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(buf, "<title>flowbench report: fio job randread</title>"));
	ck_assert_ptr_nonnull(strstr(buf, "<th>source.version</th><td>fio-3.33</td><td>-</td>"));
	ck_assert_ptr_nonnull(strstr(buf, "<th>environment.kernel</th><td>not recorded</td>"));
	ck_assert_ptr_nonnull(strstr(buf, "<ul class=\"tools\">\n<li>note: randread.jsonplus.json "
					  "is fio-3.33&#39;s JSON output with latency bins"));
	ck_assert_ptr_nonnull(strstr(buf, "<li>warning: randread.jsonplus.json was measured by "
					  "fio-3.33 and fb-randread.json by flowbench"));
	ck_assert_ptr_nonnull(strstr(buf, "randread-read"));
	free(buf);
	rf_free(&docs[0]);
	rf_free(&docs[1]);
}
END_TEST

static Suite *compare_fio_suite(void)
{
	Suite *s = suite_create("compare_fio");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_one_job);
	tcase_add_test(tc, test_bins);
	tcase_add_test(tc, test_clones);
	tcase_add_test(tc, test_directions);
	tcase_add_test(tc, test_documents);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_side_by_side);
	tcase_add_test(tc, test_align_mixed);
	tcase_add_test(tc, test_report);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(compare_fio_suite)
