/*
 * fio.c - fio's JSON output as a results file, the "fio JSON" row of
 * format.c's table: compare and report read an fio run as they read a
 * flowbench run.  A file fio wrote with --output-format=json or json+
 * holds one JSON document per fio run (appended runs: several; with
 * --status-interval, snapshots of one run), and on standard output
 * fio's notes and errors come before it as text lines.  The documents
 * are mapped (fio_run.c) into the tree of a flowbench results file
 * (docs/results-format.md), with a "source" saying it is fio's and
 * what it could not keep.  fio's normal (text) output is claimed too,
 * to be refused with what to do instead.
 */
#include "runtime/results/format.h"
#include "runtime/results/fio.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan/oom.h"

/* How far into a file looks_like searches for fio's first document... */
#define FIO_LOOK_BYTES 65536
/* ... and in how many lines at its start for fio's text lines. */
#define FIO_TEXT_LINES 4

/* The line at p (n bytes to the buffer's end): where it ends. */
static const char *line_end(const char *p, size_t n)
{
	const char *nl = memchr(p, '\n', n);

	return nl ? nl : p + n;
}

static bool starts(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(end - p) >= n && memcmp(p, s, n) == 0;
}

/*
 * A line only fio's text output has: a job's header "JOB: (g=0): rw=...",
 * its version line "fio-3.33", or a terse line "3;fio-3.33;...".
 */
static bool fio_text_line(const char *p, const char *end)
{
	if ((starts(p, end, "fio-") && end - p > 4 && p[4] >= '0' && p[4] <= '9') ||
	    (end - p > 6 && p[0] >= '2' && p[0] <= '5' && starts(p + 1, end, ";fio-")))
		return true;
	for (const char *q = p; q + 5 < end; q++)
		if (memcmp(q, ": (g=", 5) == 0)
			return memmem(q, (size_t)(end - q), "): rw=", 6) != NULL;
	return false;
}

/* After '{' and blanks, fio's first key. */
static bool fio_document_at(const char *p, const char *end)
{
	for (p++; p < end && strchr(" \t\r\n", *p); p++)
		;
	return starts(p, end, "\"fio version\"");
}

/*
 * fio's JSON (its first document, after any text lines), or fio's text
 * output: the first line starting with '{' must open fio's document
 * (a flowbench JSON file opens with "format"), or one of the first
 * FIO_TEXT_LINES be one of fio's text lines (fio prints them first).
 */
bool results_looks_like_fio(const char *buf, size_t len)
{
	const char *p = buf, *end = buf + (len < FIO_LOOK_BYTES ? len : FIO_LOOK_BYTES);

	for (int line = 0; p < end; line++) {
		const char *e = line_end(p, (size_t)(end - p));

		if (*p == '{')
			return fio_document_at(p, buf + len);
		if (line < FIO_TEXT_LINES && fio_text_line(p, e))
			return true;
		p = e + 1;
	}
	return false;
}

/* The documents of a file and where each starts. */
struct fio_docs {
	json_t *docs;          /* array */
	int *lines;            /* [n]: each document's first line */
	bool text;             /* fio's text lines outside the documents */
};

static int count_lines(const char *p, size_t n)
{
	int k = 0;

	for (const char *q = p; (q = memchr(q, '\n', (size_t)(p + n - q))); q++)
		k++;
	return k;
}

/* A placed failure: "not valid fio JSON: ..." at line, column. */
static void fail_at(struct results_read_fail *fail, int line, int column, const char *text,
		    const char *more)
{
	fail->placed = true;
	fail->line = line;
	fail->column = column;
	snprintf(fail->text, sizeof(fail->text), "%s%s", text, more);
}

/*
 * Every document of the buffer, skipping the text lines between them.
 * -1 with *fail set when one does not parse or is not fio's.
 */
static int split_documents(const char *buf, size_t len, struct fio_docs *d,
			   struct results_read_fail *fail)
{
	size_t off = 0;
	int line = 1;

	d->docs = results_fio_new(json_array());
	while (off < len) {
		const char *p = buf + off, *e = line_end(p, len - off);
		json_error_t jerr;
		json_t *doc;

		if (*p != '{') {
			d->text |= fio_text_line(p, e);
			off = (size_t)(e - buf) + 1;
			line++;
			continue;
		}
		doc = json_loadb(p, len - off, JSON_DISABLE_EOF_CHECK, &jerr);
		if (!doc) {
			fail_at(fail, line + jerr.line - 1, jerr.column, jerr.text,
				(size_t)jerr.position >= len - off ?
				" (the file ends inside fio's document: cut short?)" : "");
			return -1;
		}
		if (!json_is_object(doc) ||
		    !json_is_string(json_object_get(doc, "fio version"))) {
			json_decref(doc);
			fail_at(fail, line, 1, "a JSON document that is not fio's output "
				"(no \"fio version\")", "");
			return -1;
		}
		d->lines = xreallocarray(d->lines, json_array_size(d->docs) + 1, sizeof(int));
		d->lines[json_array_size(d->docs)] = line;
		results_fio_append(d->docs, doc);
		line += count_lines(p, (size_t)jerr.position);
		off += (size_t)jerr.position;
		/* the rest of the line the document ends on */
		e = line_end(buf + off, len - off);
		off = (size_t)(e - buf) + 1;
		line++;
	}
	return 0;
}

/* The longest a document's jobs ran, in ms (their "job_runtime"). */
static double ran_ms(const json_t *doc)
{
	double ms = 0;
	size_t i;
	json_t *job;

	json_array_foreach(json_object_get(doc, "jobs"), i, job)
		if (results_fio_num(job, "job_runtime") > ms)
			ms = results_fio_num(job, "job_runtime");
	return ms;
}

/*
 * Whether document i is a --status-interval snapshot of the run that
 * document i + 1 belongs to: i + 1's jobs had been running before i was
 * written (an appended run begins after the one before it ended).  Then
 * only a run's last document, fio's final one, is a run.
 */
static bool snapshot(const json_t *docs, size_t i)
{
	const json_t *a = json_array_get(docs, i), *b = json_array_get(docs, i + 1);
	double ta = results_fio_num(a, "timestamp_ms"), tb = results_fio_num(b, "timestamp_ms");

	return b && isfinite(ta) && isfinite(tb) && tb - ran_ms(b) < ta;
}

/* "fio job a", "fio jobs a, b, c and 4 more": the workload's name. */
static json_t *jobs_label(const json_t *doc)
{
	char names[200] = "", buf[300];
	size_t used = 0, shown = 0, distinct = 0, i;
	const char *last = NULL;
	json_t *job;

	json_array_foreach(json_object_get(doc, "jobs"), i, job) {
		const char *name = json_string_value(json_object_get(job, "jobname"));

		if (last && strcmp(last, name) == 0)
			continue;       /* a clone */
		last = name;
		distinct++;
		if (shown < 3 && used + strlen(name) + 3 < sizeof(names)) {
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%s",
						 shown ? ", " : "", name);
			shown++;
		}
	}
	if (distinct > shown)
		snprintf(buf, sizeof(buf), "fio jobs %s and %zu more", names, distinct - shown);
	else
		snprintf(buf, sizeof(buf), "fio job%s %s", distinct > 1 ? "s" : "", names);
	return json_string(buf);
}

/* What fio's JSON records of the machine: its time; the rest is not recorded. */
static json_t *environment_of(const json_t *doc)
{
	const char *time = json_string_value(json_object_get(doc, "time"));

	return json_pack("{s:s,s:s,s:s,s:s}", "fio_time", time ? time : "",
			 "hostname", "not recorded", "kernel", "not recorded",
			 "filesystems", "not recorded");
}

/* The results tree of the documents (all parsed, all fio's). */
static json_t *results_tree(const struct fio_docs *d, struct results_read_fail *fail)
{
	struct results_fio_notes notes = { .notes = results_fio_new(json_array()) };
	size_t ndocs = json_array_size(d->docs), dropped = 0;
	const json_t *last = json_array_get(d->docs, ndocs - 1);
	json_t *runs = results_fio_new(json_array()), *root;
	char note[200];

	for (size_t i = 0; i < ndocs; i++) {
		json_t *run;

		if (snapshot(d->docs, i)) {
			dropped++;
			continue;
		}
		run = results_fio_run(json_array_get(d->docs, i), (int)json_array_size(runs) + 1,
				      d->lines[i], &notes, fail->text, sizeof(fail->text));
		if (!run) {
			json_decref(runs);
			json_decref(notes.notes);
			return NULL;
		}
		results_fio_append(runs, run);
	}
	if (dropped) {
		snprintf(note, sizeof(note), "%zu of fio's --status-interval snapshots left out: "
			 "a run is its last document", dropped);
		results_fio_append(notes.notes, json_string(note));
	}
	root = results_fio_new(json_pack("{s:s,s:{s:s,s:s,s:s,s:i,s:o},s:s,s:o,s:{s:o},s:o,s:o}",
		"format", "flowbench-results/1",
		"source", "tool", "fio",
		"version", json_string_value(json_object_get(last, "fio version")),
		"output_format", notes.bins ? "json+" : "json",
		"documents", (int)ndocs, "notes", notes.notes,
		"status", notes.error[0] ? "failed" : "ok",
		"error", results_fio_new(notes.error[0] ? json_string(notes.error) : json_null()),
		"workload", "file", results_fio_new(jobs_label(last)),
		"environment", results_fio_new(environment_of(last)),
		"runs", runs));
	return root;
}

/*
 * The mapped tree's runs handed to each->run and taken out of it: fio's
 * documents are small (one per fio run), so the tree is made whole
 * first.  0, or -1 when the hook stopped.
 */
static int runs_of_tree(json_t *root, const struct results_runs *each,
			struct results_read_fail *fail)
{
	json_t *runs = json_object_get(root, "runs");
	size_t i;
	json_t *v;

	json_array_foreach(runs, i, v)
		if (each->run(each->ctx, v, i, 0) < 0) {
			fail->stopped = true;
			return -1;
		}
	json_array_clear(runs);
	return 0;
}

json_t *results_read_fio(const char *buf, size_t len, struct results_read_fail *fail,
			 const struct results_runs *each)
{
	struct fio_docs d = { 0 };
	json_t *root = NULL;

	if (split_documents(buf, len, &d, fail) < 0)
		goto out;
	if (json_array_size(d.docs) == 0) {
		snprintf(fail->text, sizeof(fail->text), "%s", d.text ?
			 "this is fio's normal (text) output; compare and report read fio's JSON: "
			 "run fio with --output-format=json (or json+) and give that file" :
			 "no fio JSON document in it");
		goto out;
	}
	root = results_tree(&d, fail);
	if (root && each && runs_of_tree(root, each, fail) < 0) {
		json_decref(root);
		root = NULL;
	}
out:
	json_decref(d.docs);
	free(d.lines);
	return root;
}
