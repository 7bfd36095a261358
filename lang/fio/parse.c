/*
 * parse.c - fio's job options for `flowbench import-fio`: the table of
 * those it maps, the values each takes (sizes, times, lists), and the
 * options that only change what fio records, which become comments.
 * Only the options of the table are accepted: reader.c, which reads the
 * job file's lines and fio's command line, reports every other one.
 */
#include "lang/fio/job.h"
#include "lang/fio/read.h"
#include "plan/oom.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum opt_kind {
	K_RW, K_ENGINE, K_SIZE, K_INT, K_BOOL, K_TIME, K_PATH,
	K_BUFFERED,     /* buffered=B: direct = !B */
	K_MIXWRITE,     /* rwmixwrite=P: rwmixread = 100 - P */
	K_SIZE_PCT,     /* size: a size, or N% of the files' size */
	K_RATE,         /* rate=B: bytes per second, one value for all directions */
	K_RATE_IOPS,    /* rate_iops=N: the same in I/Os per second */
	K_THINKTIME,    /* thinktime=T: plain numbers are microseconds */
	K_RANDDIST,     /* random_distribution=random or zoned:P/S:... */
	K_BSSPLIT,      /* bssplit=SIZE/PCT:SIZE/PCT:... */
	K_SYNC,         /* sync=0|1|none|sync (O_SYNC); dsync is O_DSYNC */
	K_SIZE0,        /* a size, 0 allowed (offset) */
	K_FILE_SERVICE, /* file_service_type: roundrobin only */
	K_NAME,         /* wait_for=JOB: a job name */
	K_STARTDELAY,   /* startdelay=T: a time; a range T1-T2 is an error */
	K_VERIFY,       /* verify=METHOD: 0 and none are off */
	K_BSRANGE,      /* bsrange=A-B: only A = B, which is bs=A */
	K_RATE_PROCESS, /* rate_process=linear|poisson (a bool: poisson) */
	K_LOGNAME,      /* write_lat_log[=NAME]: a log's prefix ("": the job's name) */
	K_LOG_REFUSED,  /* a log option flowbench's logs cannot follow: refused, why */
	K_OFFSET,       /* offset: a size, 0, or N% of the file's size */
	K_FORMAT,       /* filename_format: a name with fio's $keywords */
	K_BUFPATTERN,   /* buffer_pattern: fio's pattern, and its callback's effects */
	K_COMPRESS,     /* buffer_compress_percentage: 0..100, fio's TD_F_COMPRESS */
	K_DEDUPE,       /* dedupe_percentage: 0..100, TD_F_COMPRESS, refill_buffers */
	K_DEDUPE_MODE,  /* dedupe_mode: repeat only */
	K_PATTERN,      /* verify_pattern: fio's pattern */
};

struct opt_spec {
	const char *name;
	enum fio_opt id;
	enum opt_kind kind;
	size_t off;               /* the field in struct fio_opts */
	long long min, max;       /* K_INT */
};

#define F(field) offsetof(struct fio_opts, field)
static const struct opt_spec opt_table[] = {
	{ "rw", FIO_OPT_RW, K_RW, F(rw), 0, 0 },
	{ "readwrite", FIO_OPT_RW, K_RW, F(rw), 0, 0 },
	{ "rwmixread", FIO_OPT_RWMIXREAD, K_INT, F(rwmixread), 0, 100 },
	{ "rwmixwrite", FIO_OPT_RWMIXREAD, K_MIXWRITE, F(rwmixread), 0, 100 },
	{ "bs", FIO_OPT_BS, K_SIZE, F(bs), 0, 0 },
	{ "blocksize", FIO_OPT_BS, K_SIZE, F(bs), 0, 0 },
	{ "size", FIO_OPT_SIZE, K_SIZE_PCT, F(size), 0, 0 },
	{ "filesize", FIO_OPT_FILESIZE, K_SIZE, F(filesize), 0, 0 },
	{ "filename", FIO_OPT_FILENAME, K_PATH, F(filename), 0, 0 },
	{ "directory", FIO_OPT_DIRECTORY, K_PATH, F(directory), 0, 0 },
	{ "nrfiles", FIO_OPT_NRFILES, K_INT, F(nrfiles), 1, 1000000 },
	{ "numjobs", FIO_OPT_NUMJOBS, K_INT, F(numjobs), 1, 100000 },
	{ "iodepth", FIO_OPT_IODEPTH, K_INT, F(iodepth), 1, 65536 },
	{ "ioengine", FIO_OPT_IOENGINE, K_ENGINE, F(engine), 0, 0 },
	{ "direct", FIO_OPT_DIRECT, K_BOOL, F(direct), 0, 0 },
	{ "buffered", FIO_OPT_DIRECT, K_BUFFERED, F(direct), 0, 0 },
	{ "runtime", FIO_OPT_RUNTIME, K_TIME, F(runtime_us), 0, 0 },
	{ "timeout", FIO_OPT_RUNTIME, K_TIME, F(runtime_us), 0, 0 },
	{ "time_based", FIO_OPT_TIME_BASED, K_BOOL, F(time_based), 0, 0 },
	{ "ramp_time", FIO_OPT_RAMP_TIME, K_TIME, F(ramp_us), 0, 0 },
	{ "fsync", FIO_OPT_FSYNC, K_INT, F(fsync), 0, 1000000000 },
	{ "thread", FIO_OPT_THREAD, K_BOOL, F(thread), 0, 0 },
	{ "group_reporting", FIO_OPT_GROUP_REPORTING, K_BOOL, F(group_reporting), 0, 0 },
	{ "loops", FIO_OPT_LOOPS, K_INT, F(loops), 1, 1000000000 },
	{ "rate_iops", FIO_OPT_RATE_IOPS, K_RATE_IOPS, F(rate_iops), 0, 1000000000 },
	{ "rate", FIO_OPT_RATE, K_RATE, F(rate), 0, 0 },
	{ "thinktime", FIO_OPT_THINKTIME, K_THINKTIME, F(thinktime_us), 0, 0 },
	{ "random_distribution", FIO_OPT_RANDOM_DIST, K_RANDDIST, F(zones), 0, 0 },
	{ "bssplit", FIO_OPT_BSSPLIT, K_BSSPLIT, F(bss), 0, 0 },
	{ "fdatasync", FIO_OPT_FDATASYNC, K_INT, F(fdatasync), 0, 1000000000 },
	{ "sync", FIO_OPT_SYNC, K_SYNC, F(osync), 0, 0 },
	{ "offset", FIO_OPT_OFFSET, K_OFFSET, F(offset), 0, 0 },
	{ "offset_increment", FIO_OPT_OFFSET_INCREMENT, K_SIZE0, F(offset_increment), 0, 0 },
	{ "openfiles", FIO_OPT_OPENFILES, K_INT, F(openfiles), 1, 1000000 },
	{ "file_service_type", FIO_OPT_FILE_SERVICE, K_FILE_SERVICE, F(nrfiles), 0, 0 },
	{ "stonewall", FIO_OPT_STONEWALL, K_BOOL, F(stonewall), 0, 0 },
	{ "wait_for_previous", FIO_OPT_STONEWALL, K_BOOL, F(stonewall), 0, 0 },
	{ "wait_for", FIO_OPT_WAIT_FOR, K_NAME, F(wait_for), 0, 0 },
	{ "startdelay", FIO_OPT_STARTDELAY, K_STARTDELAY, F(startdelay_us), 0, 0 },
	{ "verify", FIO_OPT_VERIFY, K_VERIFY, F(verify), 0, 0 },
	{ "do_verify", FIO_OPT_DO_VERIFY, K_BOOL, F(do_verify), 0, 0 },
	{ "fill_device", FIO_OPT_FILL_DEVICE, K_BOOL, F(fill_device), 0, 0 },
	{ "fill_fs", FIO_OPT_FILL_DEVICE, K_BOOL, F(fill_device), 0, 0 },
	{ "blockalign", FIO_OPT_BLOCKALIGN, K_SIZE, F(blockalign), 0, 0 },
	{ "ba", FIO_OPT_BLOCKALIGN, K_SIZE, F(blockalign), 0, 0 },
	{ "number_ios", FIO_OPT_NUMBER_IOS, K_INT, F(number_ios), 1, INT64_MAX },
	{ "percentage_random", FIO_OPT_PCT_RANDOM, K_INT, F(pct_random), 0, 100 },
	{ "exitall", FIO_OPT_EXITALL, K_BOOL, F(exitall), 0, 0 },
	{ "bsrange", FIO_OPT_BS, K_BSRANGE, F(bs), 0, 0 },
	{ "blocksize_range", FIO_OPT_BS, K_BSRANGE, F(bs), 0, 0 },
	{ "norandommap", FIO_OPT_NORANDOMMAP, K_BOOL, F(norandommap), 0, 0 },
	{ "rate_process", FIO_OPT_RATE_POISSON, K_RATE_PROCESS, F(rate_poisson), 0, 0 },
	{ "rate_poisson", FIO_OPT_RATE_POISSON, K_BOOL, F(rate_poisson), 0, 0 },
	{ "fadvise_hint", FIO_OPT_FADVISE_HINT, K_BOOL, F(fadvise_hint), 0, 0 },
	{ "io_size", FIO_OPT_IO_SIZE, K_SIZE, F(io_size), 0, 0 },
	{ "io_limit", FIO_OPT_IO_SIZE, K_SIZE, F(io_size), 0, 0 },
	{ "filename_format", FIO_OPT_FILENAME_FORMAT, K_FORMAT, F(filename_format), 0, 0 },
	{ "end_fsync", FIO_OPT_END_FSYNC, K_BOOL, F(end_fsync), 0, 0 },
	{ "fsync_on_close", FIO_OPT_END_FSYNC, K_BOOL, F(end_fsync), 0, 0 },
	{ "iodepth_batch_submit", FIO_OPT_IODEPTH_BATCH, K_INT, F(iodepth_batch), 0, 65536 },
	{ "iodepth_batch", FIO_OPT_IODEPTH_BATCH, K_INT, F(iodepth_batch), 0, 65536 },
	{ "iodepth_batch_complete_min", FIO_OPT_IODEPTH_CMIN, K_INT, F(iodepth_cmin), 0, 65536 },
	{ "iodepth_batch_complete", FIO_OPT_IODEPTH_CMIN, K_INT, F(iodepth_cmin), 0, 65536 },
	{ "iodepth_batch_complete_max", FIO_OPT_IODEPTH_CMAX, K_INT, F(iodepth_cmax), 0, 65536 },
	{ "iodepth_low", FIO_OPT_IODEPTH_LOW, K_INT, F(iodepth_low), 0, 65536 },
	{ "buffer_pattern", FIO_OPT_BUF_PATTERN, K_BUFPATTERN, F(buf_pattern), 0, 0 },
	{ "buffer_compress_percentage", FIO_OPT_BUF_COMPRESS, K_COMPRESS,
	  F(buf_compress), 0, 100 },
	{ "buffer_compress_chunk", FIO_OPT_BUF_CHUNK, K_SIZE, F(buf_chunk), 0, 0 },
	{ "zero_buffers", FIO_OPT_ZERO_BUFFERS, K_BOOL, F(zero_buffers), 0, 0 },
	{ "refill_buffers", FIO_OPT_REFILL_BUFFERS, K_BOOL, F(refill_buffers), 0, 0 },
	{ "scramble_buffers", FIO_OPT_SCRAMBLE_BUFFERS, K_BOOL, F(scramble_buffers), 0, 0 },
	{ "dedupe_percentage", FIO_OPT_DEDUPE, K_DEDUPE, F(dedupe), 0, 100 },
	{ "dedupe_mode", FIO_OPT_DEDUPE_MODE, K_DEDUPE_MODE, F(dedupe), 0, 0 },
	{ "verify_pattern", FIO_OPT_VERIFY_PATTERN, K_PATTERN, F(verify_pattern), 0, 0 },
	/* per-op logs: a process's latlog=, ... (docs/import-fio.md) */
	{ "write_lat_log", FIO_OPT_LAT_LOG, K_LOGNAME, F(log_prefix[PLAN_OPLOG_LAT]), 0, 0 },
	{ "write_bw_log", FIO_OPT_BW_LOG, K_LOGNAME, F(log_prefix[PLAN_OPLOG_BW]), 0, 0 },
	{ "write_iops_log", FIO_OPT_IOPS_LOG, K_LOGNAME, F(log_prefix[PLAN_OPLOG_IOPS]), 0, 0 },
	{ "write_hist_log", FIO_OPT_HIST_LOG, K_LOGNAME, F(log_prefix[PLAN_OPLOG_HIST]), 0, 0 },
	{ "log_avg_msec", FIO_OPT_LOG_AVG_MSEC, K_INT, F(log_avg_msec), 0,
	  1000000000000LL },
	{ "log_hist_msec", FIO_OPT_LOG_HIST_MSEC, K_INT, F(log_hist_msec), 0,
	  1000000000000LL },
	{ "log_hist_coarseness", FIO_OPT_LOG_HIST_COARSENESS, K_INT,
	  F(log_hist_coarseness), 0, 6 },
	{ "log_offset", FIO_OPT_LOG_OFFSET, K_BOOL, F(log_offset), 0, 0 },
	{ "per_job_logs", FIO_OPT_PER_JOB_LOGS, K_BOOL, F(per_job_logs), 0, 0 },
	{ "log_prio", FIO_OPT_LOG_OFFSET, K_LOG_REFUSED, 0, 0, 0 },
	{ "log_max_value", FIO_OPT_LOG_OFFSET, K_LOG_REFUSED, 0, 0, 0 },
	{ "log_window_value", FIO_OPT_LOG_OFFSET, K_LOG_REFUSED, 0, 0, 0 },
	{ "log_compression", FIO_OPT_LOG_OFFSET, K_LOG_REFUSED, 0, 0, 0 },
	{ "log_store_compressed", FIO_OPT_LOG_OFFSET, K_LOG_REFUSED, 0, 0, 0 },
	{ "log_unix_epoch", FIO_OPT_LOG_OFFSET, K_LOG_REFUSED, 0, 0, 0 },
	{ "log_alternate_epoch", FIO_OPT_LOG_OFFSET, K_LOG_REFUSED, 0, 0, 0 },
	{ "log_alternate_epoch_clock_id", FIO_OPT_LOG_OFFSET, K_LOG_REFUSED, 0, 0, 0 },
	{ "log_issue_time", FIO_OPT_LOG_OFFSET, K_LOG_REFUSED, 0, 0, 0 },
};
#undef F

/*
 * Options that change what fio records or how it picks its numbers, not
 * the I/O the job does: accepted, and each becomes a comment saying why
 * it has no counterpart.  Anything that changes the I/O pattern is not
 * here: it is an error (or NOT IMPORTED with --lenient).
 */
static const struct { const char *name, *why; } comment_only[] = {
	{ "name", "the job's name (flowbench names it after its section)" },
	{ "description", "a description" },
	{ "randrepeat", "the random seed's reuse (flowbench has --seed)" },
	{ "allrandrepeat", "the random seed's reuse (flowbench has --seed)" },
	{ "randseed", "the random seed (flowbench has --seed)" },
	{ "random_generator", "fio's random number generator" },
	{ "invalidate", "the page cache (flowbench empties it before the run "
	  "unless --cache warm)" },
	{ "percentile_list", "the percentiles fio prints (flowbench's report "
	  "has its own, with --percentiles)" },
	{ "lat_percentiles", "fio's report" }, { "clat_percentiles", "fio's report" },
	{ "slat_percentiles", "fio's report" },
	{ "disable_lat", "fio's report" }, { "disable_clat", "fio's report" },
	{ "disable_slat", "fio's report" }, { "disable_bw_measurement", "fio's report" },
	{ "gtod_reduce", "fio's clock calls" }, { "new_group", "fio's report" },
	{ "unified_rw_reporting", "fio's report" },
	{ "log_entries", "the log entries fio allocates at first (flowbench's "
	  "logs are written as they go, in fixed buffers)" },
	{ "output", "fio's output (flowbench has -o)" },
	{ "output-format", "fio's output (flowbench writes JSON or YAML with -o FILE.json)" },
	{ "cpus_allowed", "CPU affinity (run flowbench under taskset)" },
	{ "cpus_allowed_policy", "CPU affinity (run flowbench under taskset)" },
	{ "io_submit_mode", "how fio's engine submits; offload keeps a rate's "
	  "submissions on schedule when completions lag: flowbench's event "
	  "generator keeps its schedule whatever the completions" },
	{ "fallocate", "how fio lays out files (flowbench preallocates them)" },
	{ "overwrite", "how fio lays out files (flowbench preallocates them)" },
	{ "unlink", "removing files after the job (flowbench keeps them: reuse)" },
	{ "create_on_open", "when files are created (flowbench creates them "
	  "before the run)" },
	{ "rwmixcycle", "deprecated: fio accepts it and ignores it" },
	/* not an alias of `thread`: fio 3.33 runs such a job as processes */
	{ "threads", "an option of fio's tiobench profile (profile=tiobench), not "
	  "`thread`: without that profile fio ignores it and forks processes" },
	{ "create_serialize", "the order in which fio lays out files "
	  "(flowbench creates them before the run)" },
	/* verify's options that only change what is checked or when a
	 * mismatch is reported: the read-back's I/O is the same */
	{ "verify_interval", "the data verify checks; flowbench checks no data" },
	{ "verify_offset", "the data verify checks; flowbench checks no data" },
	{ "verify_fatal", "what fio does on a mismatch; flowbench checks no data" },
	{ "verify_dump", "what fio does on a mismatch; flowbench checks no data" },
	{ "verify_backlog", "when fio checks; flowbench checks no data" },
	{ "verify_backlog_batch", "when fio checks; flowbench checks no data" },
	{ "verify_async", "fio's checking threads; flowbench checks no data" },
	{ "verify_write_sequence", "the data verify checks; flowbench checks no data" },
	{ "verify_header_seed", "the data verify checks; flowbench checks no data" },
	/* io_uring's: how it submits, not which I/O */
	{ "registerfiles", "io_uring's registered files: fewer CPU cycles per "
	  "I/O in fio, the same I/O (flowbench's io_uring does not register them)" },
	{ "fixedbufs", "io_uring's fixed buffers: fewer CPU cycles per I/O in "
	  "fio, the same I/O (flowbench's io_uring does not register them)" },
};
#define NCOMMENT (sizeof(comment_only) / sizeof(comment_only[0]))

static const char *const rw_names[] = {
	[FIO_RW_READ] = "read", [FIO_RW_WRITE] = "write",
	[FIO_RW_RANDREAD] = "randread", [FIO_RW_RANDWRITE] = "randwrite",
	[FIO_RW_RW] = "rw", [FIO_RW_RANDRW] = "randrw",
	NULL,
};
static const char *const engine_names[] = {
	[FIO_ENGINE_SYNC] = "sync", [FIO_ENGINE_PSYNC] = "psync",
	[FIO_ENGINE_LIBAIO] = "libaio", [FIO_ENGINE_IO_URING] = "io_uring",
	[FIO_ENGINE_POSIXAIO] = "posixaio", [FIO_ENGINE_VSYNC] = "vsync",
	[FIO_ENGINE_PVSYNC] = "pvsync", [FIO_ENGINE_PVSYNC2] = "pvsync2",
	NULL,
};

#define NOPTS (sizeof(opt_table) / sizeof(opt_table[0]))

static const struct opt_spec *find_opt(const char *name)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (strcmp(opt_table[i].name, name) == 0)
			return &opt_table[i];
	return NULL;
}

/* "rw, readwrite, rwmixread, ...": the supported names, for messages. */
static void supported_list(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NOPTS && n < size; i++)
		if (opt_table[i].kind != K_LOG_REFUSED)
			n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
					      opt_table[i].name);
}

/*
 * The leading decimal digits of `s` into *n, *end after them (set in
 * every case but the first).  Returns 0, FIO_PARSE_NOT_A_VALUE (no digit first:
 * signs and blanks are not numbers here) or FIO_PARSE_TOO_LARGE (more than 64
 * bits: *n is then meaningless).
 */
static int leading_digits(const char *s, uint64_t *n, const char **end)
{
	uint64_t v = 0;
	bool overflow = false;

	if (!isdigit((unsigned char)*s))
		return FIO_PARSE_NOT_A_VALUE;
	for (; isdigit((unsigned char)*s); s++) {
		overflow |= __builtin_mul_overflow(v, 10, &v);
		overflow |= __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v);
	}
	*n = v;
	*end = s;
	return overflow ? FIO_PARSE_TOO_LARGE : 0;
}

/* n x mult, or FIO_PARSE_TOO_LARGE when it overflows or passes `max`. */
static int mul_within(uint64_t n, uint64_t mult, uint64_t max, uint64_t *v)
{
	uint64_t r;

	if (__builtin_mul_overflow(n, mult, &r) || r > max)
		return FIO_PARSE_TOO_LARGE;
	*v = r;
	return 0;
}

/* The multiplier of a size suffix ("", "k", "kb", "KiB", ...), 0 if none. */
static uint64_t size_multiplier(const char *sfx)
{
	static const char prefixes[] = "kmgtp";
	const char *p;
	uint64_t mult = 1, base;

	if (!*sfx)
		return 1;
	p = strchr(prefixes, tolower((unsigned char)*sfx));
	if (!p || !*p)
		return 0;
	/* 4k, 4kb: powers of 1024; 4KiB: powers of 1000, as fio reads
	 * the IEC prefixes with its default kb_base */
	if (strcasecmp(sfx + 1, "") == 0 || strcasecmp(sfx + 1, "b") == 0)
		base = 1024;
	else if (strcasecmp(sfx + 1, "ib") == 0)
		base = 1000;
	else
		return 0;
	for (const char *q = prefixes; q <= p; q++)
		mult *= base;   /* at most 1024^5 = 2^50: no overflow */
	return mult;
}

int fio_parse_size(const char *s, uint64_t *v)
{
	const char *end;
	uint64_t n, mult;
	int st = leading_digits(s, &n, &end);

	if (st == FIO_PARSE_NOT_A_VALUE)
		return st;
	mult = size_multiplier(end);
	if (!mult)
		return FIO_PARSE_NOT_A_VALUE;
	/* a well-formed size too long for 64 bits is too large, not invalid */
	if (st == FIO_PARSE_TOO_LARGE)
		return FIO_PARSE_TOO_LARGE;
	return mul_within(n, mult, FIO_SIZE_MAX, v);
}

int fio_parse_time(const char *s, uint64_t *us)
{
	static const struct { const char *sfx; uint64_t us; } units[] = {
		{ "", 1000000 }, { "s", 1000000 }, { "m", 60000000 },
		{ "h", UINT64_C(3600000000) }, { "d", UINT64_C(86400000000) },
		{ "ms", 1000 }, { "us", 1 },
	};
	const char *end;
	uint64_t n;
	int st = leading_digits(s, &n, &end);

	if (st == FIO_PARSE_NOT_A_VALUE)
		return st;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].sfx) == 0)
			return st ? st : mul_within(n, units[i].us, FIO_TIME_MAX_US, us);
	}
	return FIO_PARSE_NOT_A_VALUE;
}

void fio_mix(long long rwmixread, long long *reads, long long *writes)
{
	long long a = rwmixread, b = 100 - rwmixread;

	while (b) {
		long long t = a % b;

		a = b;
		b = t;
	}
	/* a = gcd(rwmixread, 100 - rwmixread), never 0 (they sum to 100) */
	*reads = rwmixread / a;
	*writes = (100 - rwmixread) / a;
}

static int name_index(const char *const *names, const char *v)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(names[i], v) == 0)
			return i;
	return -1;
}

/* "'\r' at character 3" for the first control character of `v`, or NULL. */
static const char *control_char(const char *v, char *buf, size_t size)
{
	for (const char *p = v; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f) {
			snprintf(buf, size, "byte 0x%02x at character %d", c,
				 (int)(p - v) + 1);
			return buf;
		}
	}
	return NULL;
}

static int set_size(const struct opt_spec *o, const char *v, void *field,
		    struct diag *d, struct src_loc loc)
{
	uint64_t size;
	int st = fio_parse_size(v, &size);

	if (st == FIO_PARSE_TOO_LARGE) {
		diag_error(d, loc, "%s=%s is too large: sizes go up to 2^63-1 bytes "
			   "(the largest file)", o->name, v);
		return -1;
	}
	if (st < 0 || size == 0) {
		diag_error(d, loc, "%s needs a positive size like 4k, 1m or 20g, "
			   "not '%s'", o->name, v);
		return -1;
	}
	*(uint64_t *)field = size;
	return 0;
}

static int set_int(const struct opt_spec *o, const char *v, void *field,
		   struct diag *d, struct src_loc loc)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(v, &end, 10);
	if (end != v && !*end && (errno == ERANGE || n > o->max) && n > 0) {
		diag_error(d, loc, "%s=%s is too large: at most %lld", o->name, v,
			   o->max);
		return -1;
	}
	if (errno || end == v || *end || n < o->min || n > o->max) {
		diag_error(d, loc, "%s needs a whole number from %lld to %lld, "
			   "not '%s'", o->name, o->min, o->max, v);
		return -1;
	}
	*(long long *)field = n;
	return 0;
}

static int set_time(const struct opt_spec *o, const char *v, void *field,
		    struct diag *d, struct src_loc loc)
{
	uint64_t us;
	int st = fio_parse_time(v, &us);

	if (st == FIO_PARSE_TOO_LARGE) {
		diag_error(d, loc, "%s=%s is too large: times go up to 10^9 s",
			   o->name, v);
		return -1;
	}
	if (st < 0) {
		diag_error(d, loc, "%s needs a time like 60, 30s, 2m or 1h, not '%s'",
			   o->name, v);
		return -1;
	}
	*(uint64_t *)field = us;
	return 0;
}

/* A file or directory name: one name, no ${VAR}, no control character
 * (it is written into a WML string and shown in comments). */
static int set_path(const struct opt_spec *o, const char *v, void *field,
		    struct arena *a, struct diag *d, struct src_loc loc)
{
	char where[48];

	if (!*v || strchr(v, ':')) {
		diag_error(d, loc, *v ? "%s with several names ('%s': ':' "
			   "separates them in fio) is not supported" :
			   "%s needs a value%s", o->name, v);
		return -1;
	}
	if (strchr(v, '$')) {
		diag_error(d, loc, "%s: fio's $jobnum, $filenum, ... keywords are "
			   "not supported ('%s'; ${VAR} from the environment is)",
			   o->name, v);
		return -1;
	}
	if (control_char(v, where, sizeof(where))) {
		diag_error(d, loc, "%s: a control character in the name (%s)",
			   o->name, where);
		return -1;
	}
	*(const char **)field = arena_strdup(a, v);
	return 0;
}

/* A boolean: a bare key, 1/true or 0/false. */
static int set_bool(const struct opt_spec *o, const char *value, void *field,
		    struct diag *d, struct src_loc loc)
{
	const char *v = value ? value : "";

	if (!value || strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0) {
		*(bool *)field = true;
	} else if (strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0) {
		*(bool *)field = false;
	} else {
		diag_error(d, loc, "%s is 0 or 1, not '%s'", o->name, v);
		return -1;
	}
	return 0;
}

/*
 * rw=TYPE or rw=TYPE:N: the type into *rw, fio's offset modifier N (a
 * size, negative allowed: for sequential I/O a hole of N bytes after
 * each I/O, backwards when negative) into opts->seq_add.  On random
 * I/O fio's N means something else: an error.
 */
static int set_rw(const struct opt_spec *o, const char *v, int *rw,
		  struct fio_opts *opts, struct arena *a, struct diag *d,
		  struct src_loc loc)
{
	const char *colon = strchr(v, ':');
	char *type = arena_strndup(a, v, colon ? (size_t)(colon - v) : strlen(v));
	int k = strcmp(type, "readwrite") == 0 ? FIO_RW_RW : name_index(rw_names, type);
	uint64_t n = 0;

	if (k < 0) {
		diag_error(d, loc, "unsupported %s '%s' (supported: read, write, "
			   "randread, randwrite, rw, readwrite, randrw)", o->name, type);
		return -1;
	}
	if (colon && (k == FIO_RW_RANDREAD || k == FIO_RW_RANDWRITE ||
		      k == FIO_RW_RANDRW)) {
		diag_error(d, loc, "unsupported %s '%s': on random I/O fio's ':N' is "
			   "the number of I/Os before a new random offset (rw_sequencer), "
			   "which flowbench's random flowops do not do", o->name, v);
		return -1;
	}
	if (colon && fio_parse_size(colon[1] == '-' ? colon + 2 : colon + 1, &n) != 0) {
		diag_error(d, loc, "%s=%s: the offset modifier after ':' is a size, "
			   "optionally negative (rw=read:8k, rw=read:-8k), not '%s'",
			   o->name, v, colon + 1);
		return -1;
	}
	*rw = k;
	opts->seq_add = colon && colon[1] == '-' ? -(int64_t)n : (int64_t)n;
	return 0;
}

/* rate_process=linear (fio's default: steady) or poisson. */
static int set_rate_process(const struct opt_spec *o, const char *v, void *field,
			    struct diag *d, struct src_loc loc)
{
	if (strcmp(v, "linear") == 0 || strcmp(v, "poisson") == 0) {
		*(bool *)field = strcmp(v, "poisson") == 0;
		return 0;
	}
	diag_error(d, loc, "%s is linear or poisson, not '%s'", o->name, v);
	return -1;
}

/* size=S, or size=N% (1..100) of the job's files (fio's percentage of
 * the file's size; the emitter needs filesize= for it). */
static int set_size_or_pct(const struct opt_spec *o, const char *v,
			   struct fio_opts *opts, struct diag *d, struct src_loc loc)
{
	size_t n = strlen(v);
	char *end;
	long pct;

	if (!n || v[n - 1] != '%') {
		opts->size_pct = 0;
		return set_size(o, v, &opts->size, d, loc);
	}
	errno = 0;
	pct = strtol(v, &end, 10);
	if (!isdigit((unsigned char)v[0]) || errno || *end != '%' ||
	    pct < 1 || pct > 100) {
		diag_error(d, loc, "size=%s: a percentage is 1%% to 100%%", v);
		return -1;
	}
	opts->size_pct = (uint64_t)pct;
	opts->size = 0;
	return 0;
}

/* fio's rate and rate_iops take one value per direction (`r,w,trim`);
 * flowbench limits a job's total, so only the one-value form is read. */
static int one_rate(const struct opt_spec *o, const char *v, struct diag *d,
		    struct src_loc loc)
{
	if (!strchr(v, ','))
		return 0;
	diag_error(d, loc, "%s=%s: a rate per direction (',') is not supported: "
		   "give one value, for the job's reads or writes", o->name, v);
	return -1;
}

/* rate=B (bytes per second, 0: no limit) */
static int set_rate(const struct opt_spec *o, const char *v, void *field,
		    struct diag *d, struct src_loc loc)
{
	if (one_rate(o, v, d, loc) < 0)
		return -1;
	if (strcmp(v, "0") == 0) {
		*(uint64_t *)field = 0;
		return 0;
	}
	return set_size(o, v, field, d, loc);
}

/* thinktime=T: fio reads a plain number as microseconds here (not as
 * seconds as for runtime); with a unit, as any time. */
static int set_thinktime(const struct opt_spec *o, const char *v, void *field,
			 struct diag *d, struct src_loc loc)
{
	size_t n = strspn(v, "0123456789");
	uint64_t us;

	if (n == 0 || v[n])
		return set_time(o, v, field, d, loc);
	if (n > 15 || (us = strtoull(v, NULL, 10)) > FIO_TIME_MAX_US) {
		diag_error(d, loc, "%s=%s is too large: times go up to 10^9 s",
			   o->name, v);
		return -1;
	}
	*(uint64_t *)field = us;
	return 0;
}

/* One `A/S` of zoned:A/S:A/S:...: A % of the I/O in the next S % of the
 * file; an empty S (last zone only) is the rest of the file. */
static int parse_zone(const char *z, bool last, int space_left,
		      struct fio_zone *out)
{
	char *slash, *end;
	long a, sp;

	errno = 0;
	a = strtol(z, &slash, 10);
	if (slash == z || *slash != '/' || a < 0 || a > 100)
		return -1;
	if (last && !slash[1]) {
		out->access = (int)a;
		out->space = space_left;
		return 0;
	}
	sp = strtol(slash + 1, &end, 10);
	if (end == slash + 1 || *end || errno || sp < 0 || sp > 100)
		return -1;
	out->access = (int)a;
	out->space = (int)sp;
	return 0;
}

/*
 * random_distribution: `random` (fio's default, uniform) or
 * `zoned:A/S:A/S:...`, whose access and space percentages must each
 * total 100.  zipf, pareto, normal, zoned_abs and per-direction (',')
 * zones would pick offsets flowbench cannot pick: an error.
 */
static int set_randdist(const struct opt_spec *o, const char *v,
			struct fio_opts *opts, struct arena *a, struct diag *d,
			struct src_loc loc)
{
	struct fio_zone *zones;
	char *copy, *z, *save = NULL;
	int n = 1, access = 0, space = 0, i = 0;

	if (strcmp(v, "random") == 0) {
		opts->zones = NULL;
		opts->nzones = 0;
		return 0;
	}
	if (strncmp(v, "zoned:", 6) != 0 || strchr(v, ',')) {
		diag_error(d, loc, "%s=%s is not supported: flowbench picks random "
			   "offsets uniformly, or in zones (random, zoned:A/S:...)",
			   o->name, v);
		return -1;
	}
	for (const char *p = v + 6; *p; p++)
		n += *p == ':';
	if (n > 100) {
		diag_error(d, loc, "%s: at most 100 zones", o->name);
		return -1;
	}
	zones = arena_alloc(a, (size_t)n * sizeof(*zones));
	copy = arena_strdup(a, v + 6);
	for (z = strtok_r(copy, ":", &save); z; z = strtok_r(NULL, ":", &save), i++) {
		if (parse_zone(z, i == n - 1, 100 - space, &zones[i]) < 0) {
			diag_error(d, loc, "%s: zone '%s' is not ACCESS%%/SPACE%% "
				   "(two whole numbers 0..100)", o->name, z);
			return -1;
		}
		access += zones[i].access;
		space += zones[i].space;
	}
	if (i != n || access != 100 || space != 100) {
		diag_error(d, loc, "%s=%s: the zones' access and space percentages "
			   "must each total 100 (here %d and %d)", o->name, v,
			   access, space);
		return -1;
	}
	opts->zones = zones;
	opts->nzones = n;
	return 0;
}

/*
 * One direction's part of bssplit: SIZE/PCT:SIZE/PCT:..., a size without
 * a percentage sharing the rest evenly.  An empty part (fio: that
 * direction keeps bs) gives *n = 0.
 */
static int bssplit_part(const struct opt_spec *o, const char *v, const char *part,
			const struct fio_bs **out, int *nout, struct arena *a,
			struct diag *d, struct src_loc loc)
{
	struct fio_bs *bss;
	char *copy, *z, *save = NULL;
	int n = 1, i = 0, total = 0, open = 0;

	*out = NULL;
	*nout = 0;
	if (!*part)
		return 0;
	for (const char *p = part; *p; p++)
		n += *p == ':';
	if (n > 100) {
		diag_error(d, loc, "%s: at most 100 sizes", o->name);
		return -1;
	}
	bss = arena_alloc(a, (size_t)n * sizeof(*bss));
	copy = arena_strdup(a, part);
	for (z = strtok_r(copy, ":", &save); z; z = strtok_r(NULL, ":", &save), i++) {
		char *slash = strchr(z, '/'), *end;
		long pct = -1;

		if (slash) {
			*slash = '\0';
			errno = 0;
			pct = slash[1] ? strtol(slash + 1, &end, 10) : -1;
			if (slash[1] && (end == slash + 1 || *end || errno ||
					 pct < 0 || pct > 100)) {
				diag_error(d, loc, "%s: '%s' is not a percentage 0..100",
					   o->name, slash + 1);
				return -1;
			}
		}
		if (set_size(o, z, &bss[i].size, d, loc) < 0)
			return -1;
		bss[i].pct = (int)pct;
		if (pct < 0)
			open++;
		else
			total += (int)pct;
	}
	if (i != n || total > 100 || (!open && total != 100) ||
	    (open && (100 - total) % open)) {
		diag_error(d, loc, "%s=%s: the percentages must total 100 (here %d%s)",
			   o->name, v, total, open ? arena_printf(a, ", and %d size%s "
			   "without one to share the rest evenly", open, open == 1 ?
			   "" : "s") : "");
		return -1;
	}
	for (int k = 0; k < n; k++)
		if (bss[k].pct < 0)
			bss[k].pct = (100 - total) / open;
	*out = bss;
	*nout = n;
	return 0;
}

/*
 * bssplit: one split for reads and writes, or as fio splits it at ','
 * READS,WRITES[,TRIMS] (an empty part: that direction keeps bs; trims
 * are not read: flowbench has none).  fio_plan_job() takes the
 * job's direction's (fio_bssplit_direction()).
 */
static int set_bssplit(const struct opt_spec *o, const char *v,
		       struct fio_opts *opts, struct arena *a, struct diag *d,
		       struct src_loc loc)
{
	char *copy = arena_strdup(a, v), *w = strchr(copy, ','), *t = NULL;

	if (w) {
		*w++ = '\0';
		t = strchr(w, ',');
		if (t)
			*t++ = '\0';
	}
	if ((t && strchr(t, ',')) || bssplit_part(o, v, copy, &opts->bss, &opts->nbss,
						  a, d, loc) < 0)
		goto bad;
	opts->bss_dirs = w != NULL;
	if (!w) {
		opts->bss_w = opts->bss;
		opts->nbss_w = opts->nbss;
		if (!opts->nbss)
			diag_error(d, loc, "%s=: no size (SIZE/PCT:SIZE/PCT:...)", o->name);
		return opts->nbss ? 0 : -1;
	}
	return bssplit_part(o, v, w, &opts->bss_w, &opts->nbss_w, a, d, loc);
bad:
	if (t && strchr(t, ','))
		diag_error(d, loc, "%s=%s: at most three parts (reads, writes, trims)",
			   o->name, v);
	return -1;
}

/* sync: fio's synchronous writes.  0/none and 1/sync (O_SYNC, which
 * flowbench's dsync attribute gives); dsync (O_DSYNC) has no flowbench
 * counterpart and is an error. */
static int set_sync(const struct opt_spec *o, const char *value, void *field,
		    struct diag *d, struct src_loc loc)
{
	if (value && strcmp(value, "none") == 0) {
		*(bool *)field = false;
		return 0;
	}
	if (value && strcmp(value, "sync") == 0) {
		*(bool *)field = true;
		return 0;
	}
	if (value && strcmp(value, "dsync") == 0) {
		diag_error(d, loc, "sync=dsync (O_DSYNC) is not supported: flowbench "
			   "opens with O_SYNC (sync=1) or neither");
		return -1;
	}
	return set_bool(o, value, field, d, loc);
}

/* wait_for=JOB: a job's name (checked against the jobs by the emitter). */
static int set_name(const struct opt_spec *o, const char *v, void *field,
		    struct arena *a, struct diag *d, struct src_loc loc)
{
	char where[48];

	if (!*v || control_char(v, where, sizeof(where))) {
		diag_error(d, loc, *v ? "%s: a control character in the name (%s)" :
			   "%s needs a job's name", o->name, *v ? where : "");
		return -1;
	}
	*(const char **)field = arena_strdup(a, v);
	return 0;
}

/* startdelay=T; fio's range T1-T2 (a random delay in it) is not one
 * value, and an error. */
static int set_startdelay(const struct opt_spec *o, const char *v, void *field,
			  struct diag *d, struct src_loc loc)
{
	if (strchr(v, '-')) {
		diag_error(d, loc, "startdelay=%s: a range is not supported (fio "
			   "draws a random delay in it; flowbench's is one value)", v);
		return -1;
	}
	return set_time(o, v, field, d, loc);
}

/* verify=METHOD: which checksum does not matter to the I/O; 0 and none
 * turn it off. */
static int set_verify(const char *v, void *field, struct arena *a)
{
	*(const char **)field = strcmp(v, "0") == 0 || strcmp(v, "none") == 0 ?
		NULL : arena_strdup(a, v);
	return 0;
}

/*
 * bsrange=A-B (or A:B; reversed, fio swaps them).  With A = B every I/O
 * is A bytes: bs=A.  Otherwise fio draws each size in the range, a
 * multiple of A (write.c writes its distribution as a table): bs = A,
 * opts->bs_max = B.  One range for reads and writes.
 */
static int set_bsrange(const struct opt_spec *o, const char *v, void *field,
		       struct fio_opts *opts, struct arena *a, struct diag *d,
		       struct src_loc loc)
{
	const char *dash = strchr(v, '-');
	uint64_t lo, hi;

	if (!dash)
		dash = strchr(v, ':');
	if (strchr(v, ',')) {
		diag_error(d, loc, "%s=%s: one range for reads and writes only", o->name, v);
		return -1;
	}
	if (!dash) {
		diag_error(d, loc, "%s needs a range like 4k-64k, not '%s'", o->name, v);
		return -1;
	}
	if (set_size(o, arena_strndup(a, v, (size_t)(dash - v)), &lo, d, loc) < 0 ||
	    set_size(o, dash + 1, &hi, d, loc) < 0)
		return -1;
	if (lo > hi) {
		uint64_t t = lo;

		lo = hi;
		hi = t;
	}
	*(uint64_t *)field = lo;
	opts->bs_max = lo == hi ? 0 : hi;
	return 0;
}

/*
 * fio's pattern (buffer_pattern, verify_pattern: its lib/pattern.c) as
 * the hex digits "0x..." flowbench's `pattern` takes: a sequence of hex
 * numbers ("0xdeadbeef", an odd count's first digit a byte of its own),
 * decimal numbers (their bytes, lowest first, as many as the number
 * needs; 0 is one zero byte) and "strings"; at most 512 bytes.  fio's
 * 'file' and %o forms are errors.  NULL with the error said.
 */
static const char *fio_pattern_hex(const struct opt_spec *o, const char *v,
				   struct arena *a, struct diag *d, struct src_loc loc)
{
	unsigned char out[512];
	size_t n = 0;
	const char *p = v;
	char *hex;

	while (*p) {
		if (*p == '"') {
			const char *end = strchr(p + 1, '"');

			if (!end || (size_t)(end - p - 1) > sizeof(out) - n)
				goto bad;
			memcpy(out + n, p + 1, (size_t)(end - p - 1));
			n += (size_t)(end - p - 1);
			p = end + 1;
		} else if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
			   isxdigit((unsigned char)p[2])) {
			const char *q = p + 2;
			size_t k;

			while (isxdigit((unsigned char)*q) &&
			       !(q[0] == '0' && (q[1] == 'x' || q[1] == 'X')))
				q++;
			k = (size_t)(q - (p + 2));
			if ((k + 1) / 2 > sizeof(out) - n)
				goto bad;
			/* an odd count reads as if it had a leading 0 (fio's rule) */
			for (size_t i = 0; i < k; i++) {
				size_t nib = i + k % 2;         /* nibble index, padded */
				const char c = p[2 + i];
				unsigned x = isdigit((unsigned char)c) ? (unsigned)(c - '0') :
					     (unsigned)(tolower((unsigned char)c) - 'a' + 10);

				if (nib % 2 == 0 || i == 0)
					out[n + nib / 2] = 0;
				out[n + nib / 2] = (unsigned char)(out[n + nib / 2] |
								   (nib % 2 ? x : x << 4));
			}
			n += (k + 1) / 2;
			p = q;
		} else if (isdigit((unsigned char)*p)) {
			const char *end = p;
			unsigned long long x = 0;

			/* up to a following 0x, as fio reads "2580xab" as 258, 0xab */
			for (; isdigit((unsigned char)*end) &&
			     !(end[0] == '0' && (end[1] == 'x' || end[1] == 'X')); end++) {
				x = x * 10 + (unsigned)(*end - '0');
				if (x > INT_MAX)
					goto bad;
			}
			if (end == p)           /* "0x" with no hex digit */
				goto bad;
			if (x == 0 && n < sizeof(out))
				out[n++] = 0;
			for (; x; x >>= 8) {
				if (n == sizeof(out))
					goto bad;
				out[n++] = (unsigned char)(x & 0xff);
			}
			p = end;
		} else {
			goto bad;
		}
	}
	if (n == 0)
		goto bad;
	hex = arena_alloc(a, 2 * n + 3);
	strcpy(hex, "0x");
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 + 2 * i, 3, "%02x", out[i]);
	return hex;
bad:
	diag_error(d, loc, "%s=%s: a pattern import-fio reads is hex (0x...), decimal "
		   "numbers and \"strings\", 1 to 512 bytes in all ('file' and %%o "
		   "formats are not supported)", o->name, v);
	return NULL;
}

/* Does a job of this rw read (fio's td_read())? */
static bool rw_reads(int rw)
{
	return rw != FIO_RW_WRITE && rw != FIO_RW_RANDWRITE;
}

/*
 * A log option that flowbench's logs (runtime/measure/oplog.h) cannot
 * follow: an error saying why, or with --lenient a NOT IMPORTED comment
 * (which changes no work: only the logs' form).
 */
static void log_refused(const struct opt_spec *o, struct diag *d, struct src_loc loc)
{
	static const struct { const char *name, *why; } why[] = {
		{ "log_prio", "the priority column's value and class of each I/O; "
		  "flowbench writes fio's default column, 0 (no I/O of the real-time "
		  "class)" },
		{ "log_max_value", "an averaged log's maximum; flowbench's hold the "
		  "window's mean" },
		{ "log_window_value", "an averaged log's maximum; flowbench's hold the "
		  "window's mean" },
		{ "log_compression", "compressed logs; flowbench writes plain text as "
		  "it goes" },
		{ "log_store_compressed", "compressed logs; flowbench writes plain "
		  "text as it goes" },
		{ "log_unix_epoch", "another clock's times; flowbench's count from the "
		  "job's start" },
		{ "log_alternate_epoch", "another clock's times; flowbench's count "
		  "from the job's start" },
		{ "log_alternate_epoch_clock_id", "another clock's times; flowbench's "
		  "count from the job's start" },
		{ "log_issue_time", "an issue time column; flowbench's logs have none" },
	};

	for (size_t i = 0; i < sizeof(why) / sizeof(why[0]); i++)
		if (strcmp(why[i].name, o->name) == 0)
			diag_error(d, loc, "%s is not supported: %s (docs/import-fio.md)",
				   o->name, why[i].why);
}

/* offset=N%, or a size (0 allowed). */
static int set_offset(const struct opt_spec *o, const char *v, struct fio_opts *opts,
		      struct diag *d, struct src_loc loc)
{
	size_t n = strlen(v);
	char *end;
	long pct;

	opts->offset_pct = 0;
	if (n && v[n - 1] == '%') {
		errno = 0;
		pct = strtol(v, &end, 10);
		if (!isdigit((unsigned char)v[0]) || errno || *end != '%' || pct > 99) {
			diag_error(d, loc, "%s=%s: a percentage is 0%% to 99%%", o->name, v);
			return -1;
		}
		opts->offset_pct = (uint64_t)pct;
		opts->offset = 0;
		return 0;
	}
	if (strcmp(v, "0") == 0) {
		opts->offset = 0;
		return 0;
	}
	return set_size(o, v, &opts->offset, d, loc);
}

/* filename_format: fio's $jobname, $jobnum, $filenum, $clientuid are
 * kept for the planner; a control character is an error. */
static int set_filename_format(const struct opt_spec *o, const char *v, void *field,
		      struct arena *a, struct diag *d, struct src_loc loc)
{
	char where[48];

	if (!*v || strchr(v, ':') || control_char(v, where, sizeof(where))) {
		diag_error(d, loc, !*v ? "%s needs a value" : strchr(v, ':') ?
			   "%s with several names (':') is not supported" :
			   "%s: a control character in the name", o->name);
		return -1;
	}
	*(const char **)field = arena_strdup(a, v);
	return 0;
}

/* Store `value` (NULL for a bare key) into the option `o` of `opts`. */
static int set_option(const struct opt_spec *o, const char *value,
		      struct fio_opts *opts, struct arena *a, struct diag *d,
		      struct src_loc loc)
{
	char *field = (char *)opts + o->off;
	const char *v = value ? value : "";
	int k, st = 0;

	if (!value && o->kind != K_BOOL && o->kind != K_LOGNAME &&
	    o->kind != K_LOG_REFUSED) {
		diag_error(d, loc, "option '%s' needs a value (%s=...)", o->name, o->name);
		return -1;
	}
	switch (o->kind) {
	case K_RW:
		/* fio also spells rw as readwrite */
		st = set_rw(o, v, (int *)field, opts, a, d, loc);
		break;
	case K_ENGINE:
		k = name_index(engine_names, v);
		if (k < 0) {
			diag_error(d, loc, "unsupported ioengine '%s' (supported: sync, "
				   "psync, vsync, pvsync, pvsync2, libaio, io_uring, "
				   "posixaio)", v);
			return -1;
		}
		*(int *)field = k;
		break;
	case K_SIZE:
		st = set_size(o, v, field, d, loc);
		break;
	case K_INT:
		st = set_int(o, v, field, d, loc);
		break;
	case K_BOOL:
		st = set_bool(o, value, field, d, loc);
		break;
	case K_RATE_PROCESS:
		st = set_rate_process(o, v, field, d, loc);
		break;
	case K_TIME:
		st = set_time(o, v, field, d, loc);
		break;
	case K_BUFFERED:
		st = set_bool(o, value, field, d, loc);
		if (st == 0)
			*(bool *)field = !*(bool *)field;
		break;
	case K_MIXWRITE:
		st = set_int(o, v, field, d, loc);
		if (st == 0)
			*(long long *)field = 100 - *(long long *)field;
		break;
	case K_SIZE_PCT:
		st = set_size_or_pct(o, v, opts, d, loc);
		break;
	case K_PATH:
		st = set_path(o, v, field, a, d, loc);
		break;
	case K_RATE:
		st = set_rate(o, v, field, d, loc);
		break;
	case K_RATE_IOPS:
		st = one_rate(o, v, d, loc) < 0 ? -1 : set_int(o, v, field, d, loc);
		break;
	case K_THINKTIME:
		st = set_thinktime(o, v, field, d, loc);
		break;
	case K_RANDDIST:
		st = set_randdist(o, v, opts, a, d, loc);
		break;
	case K_BSSPLIT:
		st = set_bssplit(o, v, opts, a, d, loc);
		break;
	case K_SYNC:
		st = set_sync(o, value, field, d, loc);
		break;
	case K_FILE_SERVICE:
		/* fio's default, and what opennext does: the next file each I/O;
		 * random, sequential and the skewed pickers are not flowbench's */
		if (strcmp(v, "roundrobin") != 0) {
			diag_error(d, loc, "file_service_type=%s is not supported: "
				   "flowbench's opennext takes the files round robin "
				   "(file_service_type=roundrobin)", v);
			st = -1;
		}
		break;
	case K_NAME:
		st = set_name(o, v, field, a, d, loc);
		break;
	case K_STARTDELAY:
		st = set_startdelay(o, v, field, d, loc);
		break;
	case K_VERIFY:
		st = set_verify(v, field, a);
		break;
	case K_BSRANGE:
		st = set_bsrange(o, v, field, opts, a, d, loc);
		break;
	case K_BUFPATTERN:
	case K_PATTERN:
		*(const char **)field = fio_pattern_hex(o, v, a, d, loc);
		st = *(const char **)field ? 0 : -1;
		/* fio's buffer_pattern callback: refill if the job reads or
		 * compresses by now (reads would overwrite the pattern) */
		if (st == 0 && o->kind == K_BUFPATTERN) {
			opts->refill_buffers = opts->buf_compress || rw_reads(opts->rw);
			opts->scramble_buffers = false;
			opts->zero_buffers = false;
		}
		break;
	case K_COMPRESS:
	case K_DEDUPE:
		st = set_int(o, v, field, d, loc);
		if (st == 0)
			opts->compress_flag = true;
		if (st == 0 && o->kind == K_DEDUPE)
			opts->refill_buffers = true;
		break;
	case K_DEDUPE_MODE:
		if (strcmp(v, "repeat") != 0) {
			diag_error(d, loc, "dedupe_mode=%s is not supported: flowbench's "
				   "dedupe repeats the previous write's contents "
				   "(dedupe_mode=repeat, fio's default)", v);
			return -1;
		}
		break;
	case K_LOGNAME:
		*(const char **)field = arena_strdup(a, v);
		break;
	case K_LOG_REFUSED:
		log_refused(o, d, loc);
		return -1;
	case K_OFFSET:
		st = set_offset(o, v, opts, d, loc);
		break;
	case K_FORMAT:
		st = set_filename_format(o, v, field, a, d, loc);
		break;
	case K_SIZE0:
		if (strcmp(v, "0") == 0)
			*(uint64_t *)field = 0;
		else
			st = set_size(o, v, field, d, loc);
		break;
	}
	if (st < 0)
		return -1;
	if (o->id == FIO_OPT_BS && o->kind != K_BSRANGE)
		opts->bs_max = 0;       /* bs after a bsrange: one size */
	fio_give(opts, o->id);
	opts->at[o->id] = loc;
	opts->text[o->id] = arena_strdup(a, v);
	return 0;
}

/* fio's defaults, before [global] and the job's own lines. */
void fio_opts_init(struct fio_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->rw = FIO_RW_READ;
	o->engine = FIO_ENGINE_PSYNC;
	o->rwmixread = 50;
	o->nrfiles = o->numjobs = o->iodepth = o->loops = 1;
	o->bs = 4096;
	o->do_verify = true;
	o->pct_random = 100;
	o->fadvise_hint = true;
	o->iodepth_batch = o->iodepth_cmin = 1;
	o->buf_chunk = 512;
	o->scramble_buffers = true;
	o->per_job_logs = true;
}

int fio_opt_set(const char *key, const char *value, struct fio_opts *opts,
		struct arena *a, struct diag *d, struct src_loc loc)
{
	const struct opt_spec *o = find_opt(key);

	return o ? set_option(o, value, opts, a, d, loc) : FIO_OPT_UNKNOWN;
}

bool fio_opt_known(const char *key)
{
	return find_opt(key) != NULL;
}

const char *fio_opt_comment_why(const char *key)
{
	for (size_t i = 0; i < NCOMMENT; i++)
		if (strcmp(comment_only[i].name, key) == 0)
			return comment_only[i].why;
	return NULL;
}

const char *fio_opt_suggest(char *buf, size_t size, const char *key)
{
	const char *names[NOPTS + 1] = { NULL };

	for (size_t i = 0; i < NOPTS; i++)
		names[i] = opt_table[i].name;
	return diag_did_you_mean(buf, size, key, names);
}

void fio_opt_supported(char *buf, size_t size)
{
	supported_list(buf, size);
}
