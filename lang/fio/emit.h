/*
 * emit.h - what import-fio's writer shares between its files, private to
 * them: import.c (the entry points), plan.c (what each job becomes, and
 * every refusal), bufdata.c (what its writes write), write.c (the WML
 * text), and the helpers both plan.c and write.c use, layout.c
 * (filename_format, sizes -D gives), options.c (what a job's options
 * mean) and wml.c (names, numbers as WML reads them back, escaped
 * strings and comments).  Each calls only those after it in that list.
 * Planning is done for
 * every job before anything is printed, so a job file with an error
 * prints nothing.
 */
#ifndef FLOWBENCH_LANG_FIO_EMIT_H
#define FLOWBENCH_LANG_FIO_EMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "lang/fio/job.h"
#include "plan/arena.h"
#include "plan/diag.h"

/* What the emitter decided for one job. */
struct job_plan {
	const struct fio_section *s;
	struct fio_opts *lo;      /* s->opts' copy --lenient may drop options of */
	const char **dropped;     /* their NOT IMPORTED notes */
	int ndropped;
	const char *name;         /* WML name of the process, thread and prefix */
	char sfx[16];             /* variable suffix: "" or "_2" */
	int dir;                  /* index of its $dir variable */
	int file;                 /* index into files[] */
	uint64_t filesize;        /* all its files, rounded down to whole blocks */
	uint64_t iobytes;         /* bytes done before it stops (not time_based) */
	bool aio;                 /* an asynchronous engine: aioread/aiowrite */
	bool random;
	/* bufdata.c: the write flowops' data attributes (",data=...") and
	 * what they are, for a comment; NULL when the job does not write */
	const char *data, *data_note;
	/* random offsets aligned to this (blockalign=), 0: to the I/O size */
	uint64_t blockalign;
	bool randommap;           /* fio's random map as randommap (plan_blockalign) */
	long long reads, writes, fsyncs;    /* flowop iterations per pass */
	/*
	 * Each I/O drawn as fio draws it (plan_iterations): the read/write
	 * mix (rwmixread) and the random/sequential split (seqmix) become
	 * a choice, `define flowop <cname>,choose` (docs/wml.md §4.6), run
	 * reads + writes times per pass: once for a mix, whose passes are
	 * then one I/O each.  wsync: fsync=1 with a mix, each write member
	 * a composite <wsname> of the write and its fsync.
	 */
	bool choice;
	bool seqmix;              /* percentage_random 1..99 on a random job */
	bool wsync;
	const char *cname, *wsname;
	bool wrap;                /* sequential writes closed after each pass */
	/* time-based sequential writes that cannot wrap by passes (an
	 * asynchronous engine, a rate, a pause, fsync, sizes that vary):
	 * they wrap by themselves (`wrap`, at $filesize past the offset) */
	bool seqwrap;
	bool time_based_dropped;  /* time_based without runtime: fio ignores it */
	long long nios_ignored;   /* number_ios with time_based: fio ignores it */
	char fsfx[16];            /* suffix of the $filesize it uses: its own, or
				     that of the job whose file it shares */
	bool unsized;             /* no size known: no `set $filesize` */
	bool needs_size;          /* ... and -D filesize=... must give it */
	const char *vname;        /* verify's read-back process, or NULL */
	const char *fname;        /* end_fsync's process, or NULL */
	int group;                /* fio's group: stonewall starts a new one */
	int *after;               /* jobs it starts after (indices), -1 ends */
	/* random_distribution=zoned: one flowop per range [0, end of zone
	 * `zone`) (1-based), its working set the first `ws` bytes of each
	 * file, with its iterations */
	struct zone_op { uint64_t ws; long long iters; int zone; } *zops;
	int nzops;
	/* layout.c: what filename_format and -D filesize became */
	const char *fmt_note, *real_note;
	bool fmt_one_file;        /* nrfiles entries of one name: one file */
	/* offset_increment: fio's clone `clone` (0 ..) of `nclones`, a job of
	 * its own from job index `first_clone` on; the first clone's shared
	 * file is `file_extra` bytes longer, for the others' regions */
	int clone, nclones, first_clone;
	uint64_t file_extra;
};

struct out_file {
	const char *name;         /* WML name */
	const char *path;         /* full path (filename) or directory */
	int dir;
	bool fileset;             /* directory mode: per-clone files */
	int job;                  /* the job that defines it */
	const char *device;       /* the device it stands for, or NULL */
	bool blockdev;            /* that device is the target (define device);
				     false: a file for it (--lenient /dev/null) */
};

/* A key of one of the emitter's lookup trees, with its number. */
struct keyed {
	const char *key;
	int val;
};

struct emit {
	struct arena a;
	const struct fio_jobfile *jf;
	struct diag *d;
	FILE *out;
	void *names;              /* WML names given: the next "-N" to try */
	void *dir_index;          /* directory -> index into dirs[] */
	void *file_index;         /* full path of a `filename` -> files[] */
	const char **dirs;        /* distinct directories, $dir, $dir2, ... */
	int ndirs;
	bool dir_default;         /* /tmp used where fio would use the cwd */
	struct out_file *files;
	int nfiles;
	struct job_plan *jobs;
	int njobs;
	bool lenient;             /* --lenient: no size is -D filesize= too */
	bool phases;              /* jobs start after others, late, or stop
				     at their own runtime: per-process times */
};

/* keep.c, expand.c (read.h): why --lenient keeps an option an error, or
 * NULL; the value of -D NAME=VALUE, or NULL */
const char *fio_keep_why(const char *key);
const char *fio_define(const struct fio_jobfile *jf, const char *name);

/* options.c: what a job's options mean */
uint64_t fio_bs_extreme(const struct fio_opts *o, bool largest);
/* fio's depth options, resolved as fio does (options.c) */
struct fio_depth {
	long long batch, cmin, cmax, low;
};
void fio_depth(const struct fio_opts *o, struct fio_depth *d);
extern const char *const fio_engine_text[];
long long fio_fsync_every(const struct fio_opts *o);
const char *fio_fsync_name(const struct fio_opts *o);
long long fio_gcd(long long a, long long b);
uint64_t fio_gcd64(uint64_t a, uint64_t b);
bool fio_is_mixed(int rw);
bool fio_is_write(int rw);
struct src_loc fio_opt_loc(const struct fio_section *s, enum fio_opt id);
bool fio_sync_engine(int engine);

/* wml.c: names, numbers, strings and comments of the WML; lookup trees */
const char *fio_commented(struct emit *e, const char *s);
int fio_dir_index(struct emit *e, const char *dir);
void *fio_grow(void *p, int n, size_t size);
struct keyed *fio_insert(struct emit *e, void **root, const char *key, int val);
struct keyed *fio_lookup(void *const *root, const char *key);
void fio_no_free(void *p);
void fio_print_dir_var(const struct emit *e, int i);
void fio_print_quoted(FILE *out, const char *s);
const char *fio_signed_size(char *buf, size_t n, int64_t v);
const char *fio_unique_name(struct emit *e, const char *raw, const char *prefix);
const char *fio_wml_seconds(char *buf, size_t n, uint64_t us);
const char *fio_wml_size(char *buf, size_t n, uint64_t v);

/* layout.c: filename_format, and the sizes a job leaves to the device */
int fio_clones_to_split(const struct fio_section *s);
void fio_split_clone(struct emit *e, const struct fio_section *s, int k,
		     struct fio_section *out);
int fio_plan_filename_format(struct emit *e, struct job_plan *jp);
int fio_plan_real_size(struct emit *e, struct job_plan *jp);

/* bufdata.c: the data its writes write (jp->data, jp->data_note) */
int fio_plan_data(struct emit *e, struct job_plan *jp);

/* plan.c: each job's plan, the phases, the rate and the run time */
int fio_plan_exitall(struct emit *e);
int fio_plan_job(struct emit *e, struct job_plan *jp, int index);
int fio_plan_phases(struct emit *e);
int fio_plan_rate(struct emit *e, int *first);
int fio_plan_run_time(struct emit *e, uint64_t *runtime_us, bool *alldone);

/* write.c: the text */
void fio_emit_header(struct emit *e, const struct fio_jobfile *jf,
			const char *source_name);
void fio_emit_job(struct emit *e, const struct job_plan *jp, int index);
void fio_emit_rate(struct emit *e, int first);
void fio_emit_ramp_note(struct emit *e, uint64_t us);

#endif
