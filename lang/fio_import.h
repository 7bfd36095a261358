/*
 * fio_import.h - flowbench's second front end: fio job files (INI) in,
 * an equivalent, commented WML workload out (`flowbench import-fio`).
 *
 * Two steps, one file each: fio_parse.c reads the job file into a list
 * of jobs (the [global] options copied into each job that follows, the
 * job's own lines overriding them) and rejects every option it does not
 * know, all of them in one pass; fio_import.c writes the WML.
 * docs/import-fio.md has the mapping table and its limits.
 */
#ifndef FLOWBENCH_FIO_IMPORT_H
#define FLOWBENCH_FIO_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lang/arena.h"
#include "lang/diag.h"

enum fio_rw { FIO_READ, FIO_WRITE, FIO_RANDREAD, FIO_RANDWRITE, FIO_RW, FIO_RANDRW };
enum fio_engine { FIO_SYNC, FIO_PSYNC, FIO_LIBAIO, FIO_IO_URING, FIO_POSIXAIO };

/* The options a job section can set; FIO_BIT(id) marks them in `given`. */
enum fio_opt {
	FO_RW, FO_RWMIXREAD, FO_BS, FO_SIZE, FO_FILENAME, FO_DIRECTORY,
	FO_NRFILES, FO_NUMJOBS, FO_IODEPTH, FO_IOENGINE, FO_DIRECT,
	FO_RUNTIME, FO_TIME_BASED, FO_RAMP_TIME, FO_FSYNC, FO_THREAD,
	FO_GROUP_REPORTING,
};
#define FIO_BIT(id) (1u << (id))

/* One job's settings: fio's defaults, then [global], then its own lines. */
struct fio_opts {
	unsigned given;
	int rw;                     /* enum fio_rw; default read */
	int engine;                 /* enum fio_engine; default psync */
	long long rwmixread;        /* 50 */
	long long nrfiles, numjobs, iodepth;     /* 1 */
	long long fsync;            /* 0: never */
	uint64_t bs;                /* 4096 */
	uint64_t size;              /* 0: not given */
	double runtime, ramp_time;  /* seconds; 0: not given */
	bool direct, time_based, thread, group_reporting;
	const char *filename, *directory;   /* NULL: not given */
};

/* An option line as written, for the comments of the output. */
struct fio_line {
	int line;
	const char *text;
};

struct fio_section {
	const char *name;           /* "global" or the job's name */
	int line;
	bool global;
	struct fio_opts opts;       /* jobs: the effective options */
	struct fio_line *lines;     /* its own option lines (arena) */
	int nlines;
};

struct fio_jobfile {
	struct arena arena;
	struct fio_section *sections;   /* in file order, [global] included */
	int nsections;
	int njobs;
};

/*
 * Parse a whole job file.  Errors go through `d` (file:LINE:COL: ...),
 * every unsupported option reported, then one summary line listing what
 * is supported.  Returns the number of errors; release with
 * fio_jobfile_free() in any case.
 */
int fio_parse(const char *text, size_t len, struct diag *d, struct fio_jobfile *jf);
void fio_jobfile_free(struct fio_jobfile *jf);

/*
 * Write the WML workload for a parsed job file to `out`.  Combinations
 * flowbench cannot express are errors through `d`; returns their count
 * (nothing useful is written then).
 */
int fio_emit(const struct fio_jobfile *jf, const char *source_name,
	     struct diag *d, FILE *out);

/* The whole command: parse and emit; 0 on success, 1 on any error. */
int fio_import(const char *source_name, const char *text, size_t len,
	       FILE *out, FILE *err);

/* fio values.  Each returns 0, or -1 when the text is not one. */
int fio_parse_size(const char *s, uint64_t *v);      /* 4k, 1m, 20g, 4KiB: powers of 1024 */
int fio_parse_seconds(const char *s, double *v);     /* 60, 30s, 2m, 1h, 1d, 500ms, 10us */

/* rwmixread as two coprime counts: 70 -> 7 reads and 3 writes per pass. */
void fio_mix(long long rwmixread, long long *reads, long long *writes);

#endif
