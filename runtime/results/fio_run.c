/*
 * fio_run.c - one document of fio's JSON output as one run of a results
 * tree.  Each fio job and direction is a row named as import-fio names
 * the job's flowop ("JOB-read", "JOB-write", "JOB-trim", "JOB-fsync"),
 * so that an fio run and a flowbench run of the imported job share rows;
 * a job's clones (numjobs), which fio lists one by one without
 * group_reporting, are merged into one row the way group_reporting
 * merges them, since flowbench reports a flowop over all its threads.
 * The run's summary is fio's "Run status group" rule over every job.
 */
#include "runtime/results/fio.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plan/oom.h"

/* The direction objects of a job entry that become rows. */
struct fio_dir {
	const char *key;       /* fio's: "read", "sync" */
	const char *suffix;    /* the row's: JOB-read, JOB-fsync */
	const char *rw;        /* the results file's "rw" */
	bool io;               /* counts bytes and a runtime (not "sync") */
};

static const struct fio_dir fio_dirs[] = {
	{ "read", "read", "read", true },
	{ "write", "write", "write", true },
	{ "trim", "trim", "trim", true },
	{ "mixed", "mixed", "readwrite", true },     /* unified_rw_reporting */
	{ "sync", "fsync", "none", false },          /* fsync, fdatasync */
};

#define NDIRS (sizeof(fio_dirs) / sizeof(fio_dirs[0]))

/* Add `text` to the notes unless it is there already. */
static void note_once(struct results_fio_notes *notes, const char *text)
{
	size_t i;
	json_t *v;

	json_array_foreach(notes->notes, i, v)
		if (strcmp(json_string_value(v), text) == 0)
			return;
	results_fio_append(notes->notes, json_string(text));
}

/* numjobs of a job entry, from its own options or the global ones; 1. */
static int clones_of(const json_t *job, const json_t *global)
{
	const char *s = json_string_value(json_object_get(json_object_get(job, "job options"),
							  "numjobs"));
	char *end;
	long n;

	if (!s)
		s = json_string_value(json_object_get(global, "numjobs"));
	if (!s)
		return 1;
	errno = 0;
	n = strtol(s, &end, 10);
	return errno || end == s || *end || n < 1 || n > 1000000 ? 1 : (int)n;
}

/*
 * The row name of a job: import-fio's (lang/fio/wml.c): characters other
 * than letters, digits, '_', '.' and '-' become '_', a name not starting
 * with a letter or '_' (or "true", "false") gets a 'j' in front, and a
 * name given already gets "-2", "-3", ...  `used` maps each name to the
 * next number to try.
 */
static const char *job_base(json_t *used, const char *raw, char *out, size_t len)
{
	char base[80];
	size_t n = 0;
	json_t *next;

	if ((!((*raw >= 'a' && *raw <= 'z') || (*raw >= 'A' && *raw <= 'Z')) &&
	     *raw != '_') || strcmp(raw, "true") == 0 || strcmp(raw, "false") == 0)
		base[n++] = 'j';
	for (const char *p = raw; *p && n < sizeof(base) - 1; p++)
		base[n++] = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			    (*p >= '0' && *p <= '9') || strchr("_.-", *p) ? *p : '_';
	base[n] = '\0';
	next = json_object_get(used, base);
	if (!next) {
		results_fio_set(used, base, json_integer(2));
		snprintf(out, len, "%s", base);
		return out;
	}
	for (;;) {
		json_int_t k = json_integer_value(next);

		json_integer_set(next, k + 1);
		snprintf(out, len, "%s-%lld", base, (long long)k);
		if (!json_object_get(used, out)) {
			results_fio_set(used, out, json_integer(2));
			return out;
		}
	}
}

/* What every row adds to the run's summary. */
struct fio_totals {
	double ops, bytes, rd, wr;
	double lat_sum, lat_n;     /* main latency mean × samples, samples */
};

/*
 * The row's own latency (ms/op, percentiles): fio's clat, what fio users
 * compare; fio's lat where fio has no clat ("sync"), or where the job
 * asked for total-latency percentiles (lat_percentiles, which fio gives
 * instead of clat's), with a note.
 */
static json_t *main_latency(json_t *row, const char *job, struct results_fio_notes *notes)
{
	json_t *clat = json_object_get(row, "clat_ns"), *lat = json_object_get(row, "lat_ns");
	char text[300];

	if (clat && lat && !json_object_get(clat, "percentiles") &&
	    json_object_get(lat, "percentiles")) {
		snprintf(text, sizeof(text), "job '%s' has fio's total-latency percentiles "
			 "(lat_percentiles) instead of clat's: its rows' latency is fio's lat "
			 "(submission included)", job);
		note_once(notes, text);
		return lat;
	}
	return clat ? clat : lat;
}

/*
 * The latencies of a row: fio's clat, slat and lat (each where some
 * entry has samples) under their own keys, and the row's own latency
 * (main_latency()) as its latency_ns and ms_per_op.
 */
static void row_latencies(json_t *row, const json_t *const *objs, int n, const char *job,
			  struct results_fio_notes *notes)
{
	static const char *const keys[] = { "clat_ns", "slat_ns", "lat_ns" };
	bool unmerged = false;
	json_t *main;
	char text[300];

	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		json_t *lat = results_fio_latency(objs, n, keys[k], &notes->bins, &unmerged);

		if (lat && json_object_set_new(row, keys[k], lat) < 0)
			oom_exit();
	}
	main = main_latency(row, job, notes);
	if (main && json_object_set(row, "latency_ns", main) < 0)
		oom_exit();
	results_fio_set(row, "ms_per_op", results_fio_real(main ? results_fio_num(main, "mean") / 1e6
							    : NAN));
	results_fio_set(json_object_get(row, "fio"), "latency",
			json_string(!main ? "none" : main == json_object_get(row, "clat_ns") ?
				    "clat" : "lat"));
	if (unmerged) {
		snprintf(text, sizeof(text), "fio listed the %d clones of job '%s' one by one "
			 "(no group_reporting) without json+ bins: their percentiles cannot be "
			 "merged, so its rows have none (run fio with group_reporting or "
			 "--output-format=json+)", n, job);
		note_once(notes, text);
	}
}

/*
 * The row of direction `d` of a job's `n` entries, or NULL when they did
 * no I/O in it.  Rates are fio's: the I/Os over the longest runtime of
 * the entries (what group_reporting prints).
 */
static json_t *job_row(const char *base, const struct fio_dir *d, const json_t *const *jobs,
		       int n, struct results_fio_notes *notes, struct fio_totals *t)
{
	const json_t **objs = xcalloc((size_t)n + 1, sizeof(*objs));
	double ops = 0, bytes = 0, runtime = 0;
	const char *job = json_string_value(json_object_get(jobs[0], "jobname"));
	char name[160];
	json_t *row, *main;

	for (int i = 0; i < n; i++) {
		const json_t *o = json_object_get(jobs[i], d->key);
		double rt = d->io ? results_fio_num(o, "runtime") :
			    results_fio_num(jobs[i], "job_runtime");

		objs[i] = o;
		ops += json_is_number(json_object_get(o, "total_ios")) ?
		       results_fio_num(o, "total_ios") : 0;
		bytes += d->io && results_fio_num(o, "io_bytes") > 0 ?
			 results_fio_num(o, "io_bytes") : 0;
		if (rt > runtime)
			runtime = rt;
	}
	if (!(ops > 0)) {
		free(objs);
		return NULL;
	}
	snprintf(name, sizeof(name), "%s-%s", base, d->suffix);
	row = results_fio_new(json_pack("{s:s,s:s,s:s,s:s}", "name", name,
					 "type", "fio", "class", "io", "rw", d->rw));
	results_fio_set(row, "ops", results_fio_real(ops));
	results_fio_set(row, "bytes", results_fio_real(bytes));
	results_fio_set(row, "ops_per_s", results_fio_real(runtime > 0 ? ops * 1000 / runtime : NAN));
	results_fio_set(row, "mb_per_s", results_fio_real(runtime > 0 ?
					  bytes * 1000 / runtime / 1048576.0 : NAN));
	results_fio_set(row, "fio", json_pack("{s:s,s:s,s:i,s:o}", "job", job,
					      "direction", d->key, "entries", n,
					      "runtime_ms", results_fio_real(runtime)));
	row_latencies(row, objs, n, job, notes);
	free(objs);
	results_fio_set(row, "intervals", json_array());
	main = json_object_get(row, "latency_ns");
	if (d->io) {
		t->ops += ops;
		t->bytes += bytes;
		t->rd += strcmp(d->key, "read") == 0 ? ops : 0;
		t->wr += strcmp(d->key, "write") == 0 ? ops : 0;
		if (main) {
			t->lat_sum += results_fio_num(main, "mean") * results_fio_num(main, "samples");
			t->lat_n += results_fio_num(main, "samples");
		}
	}
	return row;
}

/* Each entry's CPU as a results file's "usage.cpu" item (fio's % of its runtime). */
static json_t *entry_cpu(const json_t *job, int instance)
{
	double rt_s = results_fio_num(job, "job_runtime") / 1000;
	double usr = results_fio_num(job, "usr_cpu"), sys = results_fio_num(job, "sys_cpu");
	json_t *c = results_fio_new(json_pack("{s:s,s:i}", "process",
					      json_string_value(json_object_get(job, "jobname")),
					      "instance", instance));

	results_fio_set(c, "usr_pct", results_fio_real(usr));
	results_fio_set(c, "sys_pct", results_fio_real(sys));
	results_fio_set(c, "usr_s", results_fio_real(usr / 100 * rt_s));
	results_fio_set(c, "sys_s", results_fio_real(sys / 100 * rt_s));
	results_fio_set(c, "ctx", results_fio_real(results_fio_num(job, "ctx")));
	results_fio_set(c, "majf", results_fio_real(results_fio_num(job, "majf")));
	results_fio_set(c, "minf", results_fio_real(results_fio_num(job, "minf")));
	return c;
}

/* fio's "disk_util" as "usage.disks" (found: fio read them at both ends). */
static json_t *disks_of(const json_t *du)
{
	json_t *disks = results_fio_new(json_array());
	size_t i;
	json_t *v;

	json_array_foreach((json_t *)du, i, v) {
		json_t *d = results_fio_new(json_pack("{s:s,s:b}", "name",
			json_is_string(json_object_get(v, "name")) ?
			json_string_value(json_object_get(v, "name")) : "", "found", 1));

		results_fio_set(d, "read_ios", results_fio_real(results_fio_num(v, "read_ios")));
		results_fio_set(d, "write_ios", results_fio_real(results_fio_num(v, "write_ios")));
		results_fio_set(d, "util_pct", results_fio_real(results_fio_num(v, "util")));
		results_fio_append(disks, d);
	}
	return disks;
}

/* A reporting group's longest runtime so far, in ms. */
struct fio_group {
	json_int_t id;
	double runtime;
};

/*
 * The run's time: fio's groups (stonewall) run one after another, so
 * the sum of each group's longest job runtime (fio's JSON records no
 * start times; new_group without stonewall overlaps and is counted
 * twice: docs/results-format.md).
 */
static double elapsed_ms(const json_t *jobs)
{
	struct fio_group *g = xcalloc(json_array_size(jobs) + 1, sizeof(*g));
	size_t ng = 0, i;
	double sum = 0;
	json_t *job;

	json_array_foreach((json_t *)jobs, i, job) {
		json_int_t id = json_integer_value(json_object_get(job, "groupid"));
		double rt = 0;
		size_t k;

		for (size_t d = 0; d < NDIRS; d++)
			if (fio_dirs[d].io &&
			    results_fio_num(json_object_get(job, fio_dirs[d].key), "runtime") > rt)
				rt = results_fio_num(json_object_get(job, fio_dirs[d].key), "runtime");
		for (k = 0; k < ng && g[k].id != id; k++)
			;
		if (k == ng)
			g[ng++] = (struct fio_group){ id, 0 };
		if (rt > g[k].runtime)
			g[k].runtime = rt;
	}
	for (size_t k = 0; k < ng; k++)
		sum += g[k].runtime;
	free(g);
	return sum;
}

/* The IO Summary of the run from its rows' totals. */
static json_t *summary_of(const struct fio_totals *t, double elapsed_s)
{
	json_t *s = results_fio_new(json_object());

	results_fio_set(s, "ops", results_fio_real(t->ops));
	results_fio_set(s, "ops_per_s", results_fio_real(elapsed_s > 0 ? t->ops / elapsed_s : NAN));
	results_fio_set(s, "rd_per_s", results_fio_real(elapsed_s > 0 ? t->rd / elapsed_s : NAN));
	results_fio_set(s, "wr_per_s", results_fio_real(elapsed_s > 0 ? t->wr / elapsed_s : NAN));
	results_fio_set(s, "mb_per_s", results_fio_real(elapsed_s > 0 ?
					 t->bytes / 1048576.0 / elapsed_s : NAN));
	results_fio_set(s, "ms_per_op", results_fio_real(t->lat_n > 0 ?
					  t->lat_sum / t->lat_n / 1e6 : NAN));
	return s;
}

/*
 * When the run began, to the second: fio's timestamp (when it wrote the
 * document) less its jobs' "elapsed" (seconds since fio started).
 */
static json_t *started_of(const json_t *doc)
{
	double ts = results_fio_num(doc, "timestamp"), el = 0;
	const json_t *jobs = json_object_get(doc, "jobs");
	char buf[32] = "";
	struct tm tm;
	time_t when;
	size_t i;
	json_t *job;

	json_array_foreach((json_t *)jobs, i, job)
		if (results_fio_num(job, "elapsed") > el)
			el = results_fio_num(job, "elapsed");
	if (!isfinite(ts))
		return json_string("");
	when = (time_t)(ts - el);
	if (gmtime_r(&when, &tm))
		strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_string(buf);
}

/*
 * A direction's latency objects have fio's numbers (fio writes all five
 * for each, with or without samples); the first missing one, in `what`.
 */
static bool latencies_shaped(const json_t *dir, char *what, size_t len)
{
	static const char *const lats[] = { "slat_ns", "clat_ns", "lat_ns" };
	static const char *const nums[] = { "min", "max", "mean", "stddev", "N" };

	for (size_t l = 0; l < sizeof(lats) / sizeof(lats[0]); l++) {
		const json_t *lat = json_object_get(dir, lats[l]);

		for (size_t k = 0; lat && k < sizeof(nums) / sizeof(nums[0]); k++) {
			if (json_is_number(json_object_get(lat, nums[k])))
				continue;
			snprintf(what, len, "whose \"%s\" has no \"%s\"", lats[l], nums[k]);
			return false;
		}
	}
	return true;
}

/* Every job entry has a "jobname", each direction its numbers; why not, in `why`. */
static bool jobs_shaped(const json_t *jobs, int line, char *why, size_t whylen)
{
	size_t i;
	json_t *job;

	json_array_foreach((json_t *)jobs, i, job) {
		if (!json_is_object(job) || !json_is_string(json_object_get(job, "jobname"))) {
			snprintf(why, whylen, "fio's document at line %d: job %zu has no \"jobname\"",
				 line, i + 1);
			return false;
		}
		for (size_t d = 0; d < NDIRS; d++) {
			const json_t *o = json_object_get(job, fio_dirs[d].key);
			char what[64] = "without \"total_ios\"";

			if (!o || (json_is_number(json_object_get(o, "total_ios")) &&
				   latencies_shaped(o, what, sizeof(what))))
				continue;
			snprintf(why, whylen, "fio's document at line %d: job '%s' has a \"%s\" "
				 "%s", line, json_string_value(json_object_get(job, "jobname")),
				 fio_dirs[d].key, what);
			return false;
		}
	}
	return true;
}

/* A job that ended with an error makes the run partial; the first one is said. */
static bool job_failed(const json_t *job, struct results_fio_notes *notes)
{
	double err = results_fio_num(job, "error");

	if (!(err > 0))
		return false;
	if (!notes->error[0])
		snprintf(notes->error, sizeof(notes->error),
			 "fio job '%s' ended with error %d (%s)",
			 json_string_value(json_object_get(job, "jobname")), (int)err,
			 strerror((int)err));
	return true;
}

/* The rows, CPU items and failure of every job, its clones together. */
static void jobs_rows(const json_t *doc, json_t *flowops, json_t *cpu, bool *partial,
		      struct results_fio_notes *notes, struct fio_totals *t)
{
	const json_t *jobs = json_object_get(doc, "jobs");
	const json_t *global = json_object_get(doc, "global options");
	size_t njobs = json_array_size(jobs);
	json_t *used = results_fio_new(json_object());
	char base[120];

	for (size_t i = 0; i < njobs;) {
		const json_t *first = json_array_get(jobs, i);
		const char *name = json_string_value(json_object_get(first, "jobname"));
		json_int_t gid = json_integer_value(json_object_get(first, "groupid"));
		size_t want = (size_t)clones_of(first, global);
		const json_t **c = xcalloc((want < njobs - i ? want : njobs - i) + 1, sizeof(*c));
		int n = 0;

		while (i < njobs && (size_t)n < want) {
			const json_t *job = json_array_get(jobs, i);

			if (n > 0 && (strcmp(json_string_value(json_object_get(job, "jobname")),
					     name) != 0 ||
				      json_integer_value(json_object_get(job, "groupid")) != gid))
				break;
			c[n++] = job;
			results_fio_append(cpu, entry_cpu(job, n));
			*partial |= job_failed(job, notes);
			i++;
		}
		job_base(used, name, base, sizeof(base));
		for (size_t d = 0; d < NDIRS; d++) {
			json_t *row = job_row(base, &fio_dirs[d], c, n, notes, t);

			if (row)
				results_fio_append(flowops, row);
		}
		free(c);
	}
	json_decref(used);
}

json_t *results_fio_run(const json_t *doc, int index, int line,
			struct results_fio_notes *notes, char *why, size_t whylen)
{
	const json_t *jobs = json_object_get(doc, "jobs");
	struct fio_totals t = { 0 };
	bool partial = false;
	json_t *run, *flowops, *cpu, *usage;
	double elapsed_s;

	if (!jobs && json_object_get(doc, "client_stats")) {
		snprintf(why, whylen, "fio's document at line %d is a client's of fio's "
			 "client/server mode (\"client_stats\"), which is not read: run fio "
			 "on the machine itself", line);
		return NULL;
	}
	if (!json_is_array(jobs) || json_array_size(jobs) == 0) {
		snprintf(why, whylen, "fio's document at line %d lists no jobs (fio ran none)", line);
		return NULL;
	}
	if (!jobs_shaped(jobs, line, why, whylen))
		return NULL;
	flowops = results_fio_new(json_array());
	cpu = results_fio_new(json_array());
	jobs_rows(doc, flowops, cpu, &partial, notes, &t);
	if (json_array_size(flowops) == 0) {
		snprintf(why, whylen, "fio's document at line %d: no job did any I/O%s%s", line,
			 notes->error[0] ? ": " : "", notes->error);
		json_decref(flowops);
		json_decref(cpu);
		return NULL;
	}
	elapsed_s = elapsed_ms(jobs) / 1000;
	run = results_fio_new(json_pack("{s:i,s:o,s:o,s:b,s:o}", "index", index,
					"started", results_fio_new(started_of(doc)),
					"elapsed_s", results_fio_real(elapsed_s),
					"partial", partial, "flowops", flowops));
	results_fio_set(run, "summary", summary_of(&t, elapsed_s));
	usage = results_fio_new(json_pack("{s:o,s:o}", "window_s",
					  results_fio_real(elapsed_s), "cpu", cpu));
	if (json_is_array(json_object_get(doc, "disk_util")))
		results_fio_set(usage, "disks", disks_of(json_object_get(doc, "disk_util")));
	results_fio_set(run, "usage", usage);
	return run;
}
