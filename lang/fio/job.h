/*
 * job.h - an fio job file as parse.c reads it: its jobs, each
 * with fio's defaults, then the [global] options before it, then its own
 * lines, and the value parsers (sizes, times) import-fio shares.  Both
 * halves of import-fio read it: import.h's entry points and the
 * writer's files (emit.h).
 */
#ifndef FLOWBENCH_LANG_FIO_JOB_H
#define FLOWBENCH_LANG_FIO_JOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "plan/arena.h"
#include "plan/diag.h"
#include "plan/plan.h"

enum fio_rw {
	FIO_RW_READ, FIO_RW_WRITE, FIO_RW_RANDREAD, FIO_RW_RANDWRITE,
	FIO_RW_RW, FIO_RW_RANDRW
};
enum fio_engine {
	FIO_ENGINE_SYNC, FIO_ENGINE_PSYNC, FIO_ENGINE_LIBAIO,
	FIO_ENGINE_IO_URING, FIO_ENGINE_POSIXAIO, FIO_ENGINE_VSYNC,
	FIO_ENGINE_PVSYNC, FIO_ENGINE_PVSYNC2
};

/* The options a job section can set; fio_give() marks them in `given`. */
enum fio_opt {
	FIO_OPT_RW, FIO_OPT_RWMIXREAD, FIO_OPT_BS, FIO_OPT_SIZE,
	FIO_OPT_FILENAME, FIO_OPT_DIRECTORY, FIO_OPT_NRFILES, FIO_OPT_NUMJOBS,
	FIO_OPT_IODEPTH, FIO_OPT_IOENGINE, FIO_OPT_DIRECT, FIO_OPT_RUNTIME,
	FIO_OPT_TIME_BASED, FIO_OPT_RAMP_TIME, FIO_OPT_FSYNC, FIO_OPT_THREAD,
	FIO_OPT_GROUP_REPORTING, FIO_OPT_FILESIZE, FIO_OPT_LOOPS,
	FIO_OPT_RATE_IOPS, FIO_OPT_RATE, FIO_OPT_THINKTIME,
	FIO_OPT_RANDOM_DIST, FIO_OPT_BSSPLIT, FIO_OPT_FDATASYNC, FIO_OPT_SYNC,
	FIO_OPT_OFFSET, FIO_OPT_OFFSET_INCREMENT, FIO_OPT_OPENFILES,
	FIO_OPT_FILE_SERVICE, FIO_OPT_STONEWALL, FIO_OPT_WAIT_FOR,
	FIO_OPT_STARTDELAY, FIO_OPT_VERIFY, FIO_OPT_DO_VERIFY,
	FIO_OPT_FILL_DEVICE, FIO_OPT_BLOCKALIGN, FIO_OPT_NUMBER_IOS,
	FIO_OPT_PCT_RANDOM, FIO_OPT_EXITALL, FIO_OPT_NORANDOMMAP,
	FIO_OPT_RATE_POISSON, FIO_OPT_FADVISE_HINT, FIO_OPT_IO_SIZE,
	FIO_OPT_FILENAME_FORMAT, FIO_OPT_END_FSYNC,
	FIO_OPT_IODEPTH_BATCH, FIO_OPT_IODEPTH_CMIN, FIO_OPT_IODEPTH_CMAX,
	FIO_OPT_IODEPTH_LOW,
	/* the data written (lang/fio/bufdata.c) */
	FIO_OPT_BUF_PATTERN, FIO_OPT_BUF_COMPRESS, FIO_OPT_BUF_CHUNK,
	FIO_OPT_ZERO_BUFFERS, FIO_OPT_REFILL_BUFFERS, FIO_OPT_SCRAMBLE_BUFFERS,
	FIO_OPT_DEDUPE, FIO_OPT_DEDUPE_MODE, FIO_OPT_VERIFY_PATTERN,
	FIO_OPT_LAT_LOG, FIO_OPT_BW_LOG, FIO_OPT_IOPS_LOG, FIO_OPT_HIST_LOG,
	FIO_OPT_LOG_AVG_MSEC, FIO_OPT_LOG_HIST_MSEC, FIO_OPT_LOG_HIST_COARSENESS,
	FIO_OPT_LOG_OFFSET, FIO_OPT_PER_JOB_LOGS,
	FIO_OPT_COUNT
};
/* fio_opts.given: one bit per option, in words of 64 (widen when it grows) */
#define FIO_GIVEN_WORDS 2
_Static_assert(FIO_OPT_COUNT <= 64 * FIO_GIVEN_WORDS, "fio_opts.given: one bit per option");

/* One zone of random_distribution=zoned: `access` % of the I/O falls in
 * the next `space` % of the file. */
struct fio_zone {
	int access, space;
};

/* One `SIZE/PCT` of bssplit: `pct` % of the I/Os are `size` bytes. */
struct fio_bs {
	uint64_t size;
	int pct;
};

/* One job's settings: fio's defaults, then [global], then its own lines. */
struct fio_opts {
	uint64_t given[FIO_GIVEN_WORDS];   /* fio_given(), fio_give() */
	int rw;                     /* enum fio_rw; default read */
	int engine;                 /* enum fio_engine; default psync */
	long long rwmixread;        /* 50 */
	long long nrfiles, numjobs, iodepth;     /* 1 */
	/* fio's depth options as written (fio's defaults: batch 1,
	 * complete_min 1, complete_max 0, low 0; fio_depth() resolves them) */
	long long iodepth_batch, iodepth_cmin, iodepth_cmax, iodepth_low;
	long long openfiles;        /* 0: not given (fio: nrfiles) */
	long long fsync;            /* 0: never */
	long long fdatasync;        /* 0: never; as fsync (see import-fio.md) */
	long long loops;            /* 1: size-limited jobs do size once */
	uint64_t bs;                /* 4096; at most FIO_SIZE_MAX */
	uint64_t size;              /* 0: not given; at most FIO_SIZE_MAX */
	uint64_t size_pct;          /* size=N%: N (1..100) of the files' size */
	uint64_t io_size;           /* io_size (io_limit): bytes the job does
				       in its size; 0: not given (size) */
	uint64_t offset_pct;        /* offset=N%: N (0..99) of the file's size */
	uint64_t filesize;          /* 0: not given; each file's size */
	uint64_t runtime_us, ramp_us;       /* 0: not given; <= FIO_TIME_MAX_US */
	long long rate_iops;        /* 0: no limit; I/Os per second per clone */
	uint64_t rate;              /* 0: no limit; bytes per second per clone */
	uint64_t thinktime_us;      /* 0: none; a pause after each I/O */
	uint64_t offset;            /* 0: the job's I/O starts at this byte */
	uint64_t offset_increment;  /* 0: added to offset for each clone */
	const struct fio_zone *zones;   /* random_distribution=zoned, or NULL */
	int nzones;
	const struct fio_bs *bss;   /* bssplit, or NULL: every I/O is bs */
	int nbss;
	/* bssplit=READS,WRITES (bss_dirs): bss the reads' split, bss_w the
	 * writes'; fio_plan_job() keeps the job's direction's in bss */
	const struct fio_bs *bss_w;
	int nbss_w;
	bool bss_dirs;
	/* bsrange=A-B with A < B: fio draws each size (write.c's table);
	 * bs is A then, bs_max B; 0: no range */
	uint64_t bs_max;
	/*
	 * The data written, as fio's option callbacks leave them, in the
	 * order the options come (bufdata.c resolves the rest as fio's
	 * fixups do): buffer_pattern (as hex "0x...", NULL: none) clears
	 * zero and scramble and sets refill if the job reads or compresses
	 * by then; buffer_compress_percentage and dedupe_percentage set
	 * compress_flag (fio's TD_F_COMPRESS); dedupe sets refill.
	 */
	const char *buf_pattern;
	long long buf_compress;     /* 0..100 */
	uint64_t buf_chunk;         /* buffer_compress_chunk: 512 */
	long long dedupe;           /* 0..100 */
	bool compress_flag;
	bool zero_buffers, refill_buffers, scramble_buffers;    /* 0, 0, 1 */
	const char *verify_pattern; /* as hex, NULL: none */
	bool direct, time_based, thread, group_reporting;
	bool osync;                 /* sync=1: files opened with O_SYNC */
	/* run phases: after every earlier job (stonewall), after the job
	 * named wait_for, startdelay after that */
	bool stonewall;
	const char *wait_for;       /* NULL: not given */
	uint64_t startdelay_us;
	const char *verify;         /* verify=...: NULL or "0"/"none": off */
	bool do_verify;             /* true: the read-back of verify runs */
	bool fill_device;           /* the file is as large as its file system */
	uint64_t blockalign;        /* 0: not given */
	long long number_ios;       /* 0: no limit; I/Os per clone */
	long long pct_random;       /* percentage_random: 100 (default) */
	bool exitall;               /* the first job to end ends them all */
	bool norandommap;           /* random blocks drawn with replacement */
	bool fadvise_hint;          /* fio's default 1: POSIX_FADV_RANDOM on
				       random jobs' files (no readahead) */
	bool rate_poisson;          /* rate_process=poisson: exponential gaps */
	bool end_fsync;             /* end_fsync, fsync_on_close: an fsync of the
				       job's files when its writes are done */
	int64_t seq_add;            /* rw=TYPE:N, the offset modifier; 0: none */
	const char *filename, *directory;   /* NULL: not given */
	const char *filename_format;        /* NULL: fio's JOB.N.M */
	/*
	 * Per-op logs, a process's latlog=... (write.c emit_log_attrs()):
	 * write_lat_log, write_bw_log, write_iops_log, write_hist_log by
	 * enum plan_oplog_kind (NULL: not given; "": the job's name).
	 */
	const char *log_prefix[PLAN_OPLOG_NKINDS];
	long long log_avg_msec, log_hist_msec, log_hist_coarseness;
	bool log_offset;
	bool per_job_logs;          /* fio's default 1: a file per clone */
	/* where each given option was set (its own line or [global]'s) and
	 * its value as written, for errors found after parsing */
	struct src_loc at[FIO_OPT_COUNT];
	const char *text[FIO_OPT_COUNT];
};

/* Was option `id` set (by the job, [global], or a fixup)? */
static inline bool fio_given(const struct fio_opts *o, enum fio_opt id)
{
	return o->given[id / 64] >> (id % 64) & 1;
}

/* Mark option `id` set. */
static inline void fio_give(struct fio_opts *o, enum fio_opt id)
{
	o->given[id / 64] |= (uint64_t)1 << (id % 64);
}

/*
 * The largest size import-fio accepts: the largest file size (off_t) and
 * the largest WML integer, 2^63 - 1 bytes.  Products of sizes are held to
 * it too, so nothing written into the WML can be out of its range.
 */
#define FIO_SIZE_MAX ((uint64_t)INT64_MAX)
/* The deepest queue of flowbench's aioread/aiowrite (AIO_DEPTH_MAX in
 * flowops/aio.h): a deeper asynchronous iodepth is an error. */
#define FIO_AIO_DEPTH_MAX 32768
/* The longest time: 10^9 s (about 31 years), also --warmup's maximum. */
#define FIO_TIME_MAX_US (UINT64_C(1000000000) * 1000000)

/*
 * One text import-fio read: the job file, a file it includes, fio's
 * command line.  The lines of all of them are numbered in one sequence,
 * a source's line N being line `base + N`; fio_origin() (a diag hook,
 * diag.h) turns such a number back into the source's name and line, so
 * that every message, wherever it is found, names the place it was
 * written.
 */
struct fio_source {
	const char *name;         /* as the user named it */
	const char *text;         /* its bytes (for quoting lines), or NULL */
	size_t len;
	int base, nlines;
	bool argv;                /* the command line: line N is argv[N - 1] */
};

/* -D NAME=VALUE: ${NAME} in the job file, and sizes it leaves to the
 * device (-D filesize=SIZE). */
struct fio_define {
	const char *name, *value;
};

/* How import-fio reads: --lenient, -D, fio's --section. */
struct fio_read_opts {
	bool lenient;
	const struct fio_define *defines;
	int ndefines;
	bool *define_used;        /* [ndefines] set when the import used it, or NULL */
	const char *const *sections;    /* --section: only these jobs run */
	int nsections;
	/*
	 * Told of every job file read, the included ones too, in the order
	 * read (name as given, its bytes), when the reading succeeded: a
	 * results file keeps them (docs/results-format.md).  NULL: nobody.
	 */
	void (*file_read)(void *ctx, const char *name, const char *text, size_t len);
	void *file_ctx;
};

/* An option line as written, for the comments of the output. */
struct fio_line {
	int line;
	const char *text;
};

struct fio_section {
	const char *name;           /* "global" or the job's name, as written */
	int line;
	const char *where;          /* its line for comments: "line 3", "argv[2]" */
	bool global;
	struct fio_opts opts;       /* jobs: the effective options */
	struct fio_line *lines;     /* its own option lines (arena) */
	int nlines, lines_cap;
	/* what became of the options that are only comments (no effect on
	 * the I/O pattern, or dropped by --lenient), one line each */
	struct fio_line *notes;
	int nnotes, notes_cap;
};

struct fio_jobfile {
	struct arena arena;
	bool lenient;               /* --lenient: unsupported -> NOT IMPORTED */
	struct fio_section *sections;   /* in file order, [global] included */
	int nsections, sections_cap;
	int njobs;
	struct fio_read_opts ro;    /* -D, --section */
	struct fio_source *sources; /* every text read, in order */
	int nsources, sources_cap;
	int next_base;              /* the next source's base */
	/* notes of the whole run (fio's command-line options): comments */
	struct fio_line *run_notes;
	int nrun_notes, run_notes_cap;
	/* reading: the options [global] and the command line set so far,
	 * the section lines go to (-1: none yet), the job files read, a
	 * section --section leaves out, the unknown options */
	bool readonly;              /* fio's --readonly: jobs that write are refused */
	struct fio_opts global;
	int cur;
	int nfiles;
	/* the job file being read (includes are read from its directory,
	 * top_dir resolved when the first is) */
	const char *top, *top_dir;
	bool skipping;
	int unsupported;
};

/*
 * Parse a whole job file.  Errors go through `d` (file:LINE:COL: ...),
 * every unsupported option reported, then one summary line listing what
 * is supported.  Returns the number of errors; release with
 * fio_jobfile_free() in any case.
 */
int fio_parse(const char *text, size_t len, struct diag *d, struct fio_jobfile *jf);
/* The same, --lenient when `lenient` (see fio_import_lenient). */
int fio_parse_ex(const char *text, size_t len, struct diag *d,
		 struct fio_jobfile *jf, bool lenient);
void fio_jobfile_free(struct fio_jobfile *jf);

/*
 * Reading in steps (reader.c), for a command line that mixes options
 * and job files as fio takes them: begin, then job files and the
 * command line's sections and options in fio's order, then finish,
 * which reports what is missing; each returns its errors' count.  `d`
 * is the diagnostics of the whole import: its origin hook is set to
 * fio_origin() over jf's sources.
 */
void fio_read_begin(struct fio_jobfile *jf, const struct fio_read_opts *ro,
		    struct diag *d);
/* A source's lines get numbers; returns its base. */
int fio_read_source(struct fio_jobfile *jf, const char *name, const char *text,
		    size_t len, bool argv);
int fio_read_file(struct fio_jobfile *jf, const char *name, const char *text,
		  size_t len, struct diag *d);
/* fio's --name=NAME: a section; `line` is the sequence's number. */
void fio_read_section(struct fio_jobfile *jf, const char *name, int line,
		      struct diag *d);
/* One KEY[=VALUE] (modified in place) of the current section. */
void fio_read_option(struct fio_jobfile *jf, char *text, int line, int col,
		     struct diag *d);
/*
 * fio's command line: the words argv[words[0]], argv[words[1]], ... are
 * fio's (options and job files); `argv` is the whole command line as
 * typed, which messages count in (argv[N]: ...).
 */
struct fio_cmdline {
	char *const *argv;
	int argc;
	const int *words;
	int nwords;
};
/* Its options, then its job files, as fio reads them (cmdline.c). */
int fio_read_cmdline(struct fio_jobfile *jf, const struct fio_cmdline *cl,
		     struct diag *d);
/* A comment for the whole run (a command-line option of fio's own). */
void fio_read_run_note(struct fio_jobfile *jf, int line, const char *text);
int fio_read_end(struct fio_jobfile *jf, struct diag *d);
/* The diag hook: line N of the sequence in its own source. */
bool fio_origin(const void *jf, int line, struct diag_origin *o);
/* "line 12", "common.fio line 3" or "argv[5]": where line N was written,
 * for comments (in arena `a`). */
const char *fio_where(const struct fio_jobfile *jf, struct arena *a, int line);

/*
 * fio values.  Each returns 0, FIO_PARSE_NOT_A_VALUE when the text is not
 * one, or FIO_PARSE_TOO_LARGE when it is one larger than its maximum
 * (FIO_SIZE_MAX, FIO_TIME_MAX_US); *v is set only on success.
 */
enum { FIO_PARSE_NOT_A_VALUE = -1, FIO_PARSE_TOO_LARGE = -2 };
/* 4k, 1m, 20g, 4kb: powers of 1024; 4KiB, 1MiB: powers of 1000 (fio's
 * default kb_base=1024 reads the IEC prefixes as decimal) */
int fio_parse_size(const char *s, uint64_t *v);
/* 60, 30s, 2m, 1h, 1d, 500ms, 10us, in microseconds */
int fio_parse_time(const char *s, uint64_t *us);

/* rwmixread (0..100) as two coprime counts: 70 -> 7 reads and 3 writes
 * per pass. */
void fio_mix(long long rwmixread, long long *reads, long long *writes);

#endif
