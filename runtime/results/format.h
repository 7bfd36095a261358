/*
 * format.h - the formats of a results file, one table row each
 * (format.c): its name, the file-name endings that ask for it, its writer
 * and its reader.  Everything that names or picks a format goes through
 * the table: run's --output check and help, the writer atomic.c chooses,
 * the messages that list the endings, and the reader compare and report
 * use (read.c).  A new format is its own writer/reader file (json.c,
 * yaml.c) and one row.
 */
#ifndef FLOWBENCH_RESULTS_FORMAT_H
#define FLOWBENCH_RESULTS_FORMAT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "runtime/results/results.h"

/* Why a reader made no tree of a buffer. */
struct results_read_fail {
	bool placed;               /* line and column (from 1) say where */
	int line, column;
	bool stopped;              /* the runs hook stopped it and said why */
	char text[320];
};

/*
 * A reader's hook for the runs of a results file, one at a time as they
 * are read, so that the whole "runs" array is never in memory: run(ctx,
 * RUN, I, LINE) gets run I (from 0; LINE, from 1, where it starts when
 * the format knows, else 0), borrowed for the call, and returns 0 or -1
 * to stop the reading (it has said why).  consumed(ctx, N), when set,
 * is told that the reader is done with the buffer's first N bytes.
 */
struct results_runs {
	int (*run)(void *ctx, const json_t *run, size_t i, int line);
	void (*consumed)(void *ctx, size_t n);
	void *ctx;
};

struct results_format {
	const char *name;              /* "JSON", in messages */
	const char *const *endings;    /* ".yaml", ".yml": NULL-terminated */
	/* the whole document to `f`: 0 or -1; NULL for a format flowbench
	   only reads (fio's JSON: no ending asks for it) */
	int (*write)(FILE *f, const struct results *r);
	/*
	 * A file's first bytes say it is in this format.  NULL for the one
	 * format that reads whatever no other row claims.
	 */
	bool (*looks_like)(const char *buf, size_t len);
	/* The document in buf as a jansson tree, or NULL with *fail set:
	   a results file's tree (docs/results-format.md), whatever the
	   format (fio's JSON is mapped into it: fio.c).  With `each`, its
	   top-level "runs" go to each->run one by one and the tree's
	   "runs" is left empty; NULL: all in the tree */
	json_t *(*read)(const char *buf, size_t len, struct results_read_fail *fail,
			const struct results_runs *each);
};

/* The table's i-th row, or NULL past its end. */
const struct results_format *results_format_at(size_t i);

/*
 * The format a file name asks for by its ending (from the last dot of its
 * last component, which is not all of that component), or NULL.
 */
const struct results_format *results_format_of(const char *path);

/*
 * The format a file's content is in: the row whose looks_like claims it,
 * else the row without looks_like.
 */
const struct results_format *results_format_of_content(const char *buf, size_t len);

/* What results_format_list() lists, in a sentence's "a, b or c". */
enum results_list_kind {
	RESULTS_ENDINGS,              /* ".json, .yaml or .yml" */
	RESULTS_ENDINGS_BY_FORMAT,    /* ".json or .yaml/.yml" */
	RESULTS_CLAIMING_NAMES,       /* the names of the rows with looks_like: "JSON" */
};

/* That list into buf (cut to `size`, always terminated); returns buf. */
const char *results_format_list(char *buf, size_t size, enum results_list_kind what);

/*
 * A results file's document as a jansson tree, in the format its content
 * is in (not its name).  NULL with "flowbench: error: PATH..." printed
 * to `err`.  With `each`, its runs go to each->run as they are read (the
 * tree's "runs" left empty): memory for one run at a time, the file's
 * pages dropped as they are read.
 */
json_t *results_read_file(const char *path, FILE *err, const struct results_runs *each);

/* The rows' writers and readers (json.c, yaml.c, fio.c). */
int results_write_json(FILE *f, const struct results *r);
bool results_looks_like_json(const char *buf, size_t len);
json_t *results_read_json(const char *buf, size_t len, struct results_read_fail *fail,
			  const struct results_runs *each);
int results_write_yaml(FILE *f, const struct results *r);
json_t *results_read_yaml(const char *buf, size_t len, struct results_read_fail *fail,
			  const struct results_runs *each);
bool results_looks_like_fio(const char *buf, size_t len);
json_t *results_read_fio(const char *buf, size_t len, struct results_read_fail *fail,
			 const struct results_runs *each);

#endif
