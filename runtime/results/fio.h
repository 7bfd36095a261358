/*
 * fio.h - fio's JSON output (--output-format=json or json+) read as a
 * results file: what fio.c (the documents of a file, the tree compare
 * reads), fio_run.c (one fio document as one run) and fio_lat.c (a
 * latency of several fio entries merged, its percentiles) share.  The
 * mapping is docs/results-format.md's "fio's JSON output"; compare and
 * report see the same tree as for a flowbench file, with a "source".
 */
#ifndef FLOWBENCH_RESULTS_FIO_H
#define FLOWBENCH_RESULTS_FIO_H

#include <jansson.h>
#include <stdbool.h>

/* What a mapping says about the file as a whole (the "source" object). */
struct results_fio_notes {
	json_t *notes;         /* strings: what the reader could not keep */
	bool bins;             /* some latency came with json+ bins */
	char error[160];       /* the first job that ended with an error; "" */
};

/*
 * fio's document `doc` (its `line` in the file, from 1) as run number
 * `index` of a results tree: "flowops" (a row per job and direction),
 * "summary", "usage".  NULL with `why` set (a sentence) when the
 * document is not fio's shape.
 */
json_t *results_fio_run(const json_t *doc, int index, int line,
			struct results_fio_notes *notes, char *why, size_t whylen);

/*
 * The latency `key` ("clat_ns", "slat_ns", "lat_ns") of the `n` fio
 * direction objects `dirs` merged as fio's group_reporting merges them
 * (samples added, means weighted, extremes kept, json+ bins added), as
 * a results file's latency object: "mean", "stdev", "min", "max",
 * "samples", and "percentiles" with "histogram" from json+ bins (any
 * percentile, by flowbench's rule), or fio's own percentiles when one
 * entry has them.  NULL when no entry has a sample.  *bins is set when
 * the percentiles came from bins, *unmerged when entries had
 * percentiles that cannot be merged without bins.
 */
json_t *results_fio_latency(const json_t *const *dirs, int n, const char *key,
			    bool *bins, bool *unmerged);

/* A JSON number of `obj` (NaN when absent or not a number). */
double results_fio_num(const json_t *obj, const char *key);

/*
 * Building the tree: a new value (out of memory ends the process, as
 * for compare and report: plan/oom.h), set under a key or appended.
 */
json_t *results_fio_new(json_t *v);
json_t *results_fio_real(double v);        /* null when not finite */
void results_fio_set(json_t *obj, const char *key, json_t *v);
void results_fio_append(json_t *list, json_t *v);

#endif
