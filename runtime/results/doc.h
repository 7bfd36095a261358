/*
 * doc.h - the results file as a tree of maps, lists and scalars.
 *
 * results_emit() walks struct results once, in the order of
 * docs/results-format.md, and calls a sink for every node; json.c and
 * yaml.c are two sinks (format.h: the table of formats).  One walk for
 * every format is what keeps the JSON and the YAML files the same tree.
 */
#ifndef FLOWBENCH_REPORT_DOC_H
#define FLOWBENCH_REPORT_DOC_H

#include <stdint.h>
#include <stdio.h>

#include "runtime/results/results.h"

/* Every callback returns 0, or -1 to stop the walk (the sink's error). */
struct doc_sink {
	int (*map_begin)(void *ctx);
	int (*map_end)(void *ctx);
	int (*list_begin)(void *ctx);
	/* a short list of numbers (a histogram bucket): one line in YAML */
	int (*flow_list_begin)(void *ctx);
	int (*list_end)(void *ctx);
	int (*key)(void *ctx, const char *key);
	int (*string)(void *ctx, const char *s);   /* NULL: null */
	int (*integer)(void *ctx, uint64_t v);
	int (*real)(void *ctx, double v);           /* non-finite: null */
	int (*boolean)(void *ctx, int v);
	void *ctx;
};

/* Walk `r` into `sink`.  0, or -1 as soon as a callback fails. */
int results_emit(const struct results *r, const struct doc_sink *sink);

/*
 * Reals are written with this many significant digits in both formats,
 * so that both files hold the same decimal text for a number.
 */
#define DOC_REAL_DIGITS 15

/*
 * Write `path` atomically as a results file (mode 0666 less the umask),
 * only over a regular file or nothing: outfile.h's prepare, commit and
 * close.  0, or -1 with the message printed and `path` as it was.
 */
int atomic_write_file(const char *path, int (*fn)(FILE *f, const void *arg),
		      const void *arg);

#endif
