/*
 * cli.c - flowbench's command line, from two tables: the subcommands
 * (the word, what follows it, its line of help) and the options (one row
 * each: long and short name, argument, the subcommands that take it,
 * parser, help).  Parsing and `flowbench --help` are both generated from
 * them, and tests/e2e/options.sh holds the man page and the README to the
 * same rows.
 *
 * A small matcher of its own rather than getopt_long: getopt keeps global
 * state, takes abbreviations (--rep for --repeat) that a later option
 * would silently make ambiguous, and permutes argv, which the results
 * files record as the user typed it.  Every mistake is a usage error with
 * a one-line reason.
 */
#include "cli/cli.h"

#include "plan/diag.h"
#include "plan/plan.h"
#include "runtime/results/format.h"
#include "plan/oom.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An option's parser returns 0, CLI_STOP (nothing after it is read),
 * CLI_REST (every word after it is fio's: run --fio), or -1. */
#define CLI_STOP 1
#define CLI_REST 2

typedef int cli_option_fn(struct cli_args *args, const char *opt,
			  const char *value, FILE *err);

#define CMD(c) (1u << (c))
#define WORKLOAD_CMDS (CMD(CLI_RUN) | CMD(CLI_CHECK))
#define DEFINE_CMDS (WORKLOAD_CMDS | CMD(CLI_IMPORT_FIO))
#define EVERY_CMD (CMD(CLI_RUN) | CMD(CLI_CHECK) | CMD(CLI_LIST) | \
		   CMD(CLI_COMPARE) | CMD(CLI_REPORT) | CMD(CLI_IMPORT_FIO))

struct cli_option {
	const char *name;         /* "--runtime", or NULL */
	char short_name;          /* 'D' for -D, or 0 */
	const char *arg;          /* "SECONDS" in the help; NULL: a flag */
	unsigned commands;        /* CMD() of every subcommand that takes it */
	cli_option_fn *parse;
	const char *help;         /* one paragraph; cli_usage() wraps it */
	const char *missing;      /* "needs ..." without its value; NULL: "a value" */
	/* the help made from another table into buf (help is then NULL) */
	const char *(*help_of)(char *buf, size_t size);
};

/* ---- the option parsers -------------------------------------------- */

static int set_file(struct cli_args *args, const char *opt, const char *v,
		    FILE *err)
{
	(void)opt;
	if (args->file) {
		fprintf(err, "flowbench: error: only one workload file, please\n");
		return -1;
	}
	args->file = v;
	return 0;
}

int cli_split_define(const char *text, struct frontend_define *def)
{
	const char *eq = strchr(text, '=');
	size_t skip = text[0] == '$';

	if (!eq || eq == text)
		return -1;
	def->name = xstrndup(text + skip, (size_t)(eq - text) - skip);
	def->value = eq + 1;
	return 0;
}

static int add_define(struct cli_args *args, const char *opt, const char *text,
		      FILE *err)
{
	struct frontend_define def, *defs;

	(void)opt;
	if (cli_split_define(text, &def) < 0) {
		fprintf(err, "flowbench: error: -D needs NAME=VALUE, not '%s'\n", text);
		return -1;
	}
	defs = realloc(args->defines,
		       (size_t)(args->ndefines + 1) * sizeof(*defs));
	if (!defs) {
		free((char *)def.name);
		fprintf(err, "flowbench: error: out of memory\n");
		return -1;
	}
	args->defines = defs;
	defs[args->ndefines++] = def;
	return 0;
}

static int parse_runtime(struct cli_args *args, const char *opt,
			 const char *text, FILE *err)
{
	char *end;
	double s;

	(void)opt;
	errno = 0;
	s = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(s) || s <= 0) {
		fprintf(err, "flowbench: error: --runtime needs a positive number of seconds, not '%s'\n",
			text);
		return -1;
	}
	if (s > PLAN_MAX_SECONDS) {
		fprintf(err, "flowbench: error: --runtime %s: more than flowbench's limit of %.0f s (31.7 years)\n",
			text, PLAN_MAX_SECONDS);
		return -1;
	}
	args->runtime_given = true;
	args->runtime_s = s;
	return 0;
}

/* --warmup, --interval: seconds, at least `min` (and above 0). */
static int parse_seconds(const char *opt, const char *text, double min,
			 double *out, FILE *err)
{
	char *end;
	double s;

	errno = 0;
	s = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(s) || s <= 0 || s < min ||
	    s > PLAN_MAX_SECONDS) {
		fprintf(err, "flowbench: error: %s needs a number of seconds from %g to flowbench's limit of %.0f, not '%s'\n",
			opt, min, PLAN_MAX_SECONDS, text);
		return -1;
	}
	*out = s;
	return 0;
}

static int parse_warmup(struct cli_args *args, const char *opt,
			const char *text, FILE *err)
{
	return parse_seconds(opt, text, 0.001, &args->warmup_s, err);
}

static int parse_interval(struct cli_args *args, const char *opt,
			  const char *text, FILE *err)
{
	return parse_seconds(opt, text, 0.01, &args->interval_s, err);
}

static int parse_cache(struct cli_args *args, const char *opt,
		       const char *v, FILE *err)
{
	static const char *const names[] = { "cold", "warm", "keep", NULL };
	static const enum cache_mode modes[] = { CACHE_COLD, CACHE_WARM, CACHE_KEEP };
	const char *best;

	(void)opt;
	for (int i = 0; names[i]; i++)
		if (strcmp(v, names[i]) == 0) {
			args->cache = modes[i];
			return 0;
		}
	best = diag_suggest(v, names);
	fprintf(err, "flowbench: error: --cache is cold, warm or keep, not '%s'", v);
	if (best)
		fprintf(err, " (did you mean '%s'?)", best);
	fputc('\n', err);
	return -1;
}

static int parse_compat(struct cli_args *args, const char *opt,
			const char *v, FILE *err)
{
	(void)opt;
	if (strcmp(v, "filebench") == 0) {
		args->semantics = PLAN_SEM_FILEBENCH;
	} else if (strcmp(v, "flowbench") == 0 || strcmp(v, "none") == 0) {
		args->semantics = PLAN_SEM_FLOWBENCH;
	} else {
		fprintf(err, "flowbench: error: --compat is filebench (or flowbench, the default), "
			"not '%s'\n", v);
		return -1;
	}
	return 0;
}

static int parse_seed(struct cli_args *args, const char *opt, const char *v,
		      FILE *err)
{
	char *end;

	(void)opt;
	errno = 0;
	args->seed = strtoull(v, &end, 10);
	/* strtoull would take " -1" (spaces, a sign) as 2^64 - 1 */
	if (errno || end == v || *end || !(v[0] >= '0' && v[0] <= '9')) {
		fprintf(err, "flowbench: error: --seed needs a non-negative integer, not '%s'\n", v);
		return -1;
	}
	args->seed_given = true;
	return 0;
}

static int set_allow_system(struct cli_args *args, const char *opt,
			    const char *v, FILE *err)
{
	(void)opt;
	(void)v;
	(void)err;
	args->allow_system = true;
	return 0;
}

static int set_keep_going(struct cli_args *args, const char *opt,
			  const char *v, FILE *err)
{
	(void)opt;
	(void)v;
	(void)err;
	args->keep_going = true;
	return 0;
}

/* import-fio --lenient: what import-fio cannot honour becomes a
 * `# NOT IMPORTED:` comment instead of an error. */
static int set_fio_lenient(struct cli_args *args, const char *opt, const char *v,
			   FILE *err)
{
	(void)opt;
	(void)v;
	(void)err;
	args->fio_lenient = true;
	return 0;
}

/* run/check --fio: the words after it are an fio command line. */
static int set_fio_args(struct cli_args *args, const char *opt, const char *v,
			FILE *err)
{
	(void)opt;
	(void)v;
	(void)err;
	args->fio_args = true;
	return CLI_REST;
}

/* A word of fio's command line: its index in argv. */
static int add_fio_word(struct cli_args *args, int i, FILE *err)
{
	int *w = realloc(args->fio_words, (size_t)(args->nfio_words + 1) * sizeof(*w));

	if (!w) {
		fprintf(err, "flowbench: error: out of memory\n");
		return -1;
	}
	args->fio_words = w;
	w[args->nfio_words++] = i;
	return 0;
}

static int set_force(struct cli_args *args, const char *opt, const char *v,
		     FILE *err)
{
	(void)opt;
	(void)v;
	(void)err;
	args->force = true;
	return 0;
}

/* --write-device DEV, --destroy-data DEV: repeatable, kept as written. */
static int add_device(struct cli_args *args, const char *opt, const char *v,
		      FILE *err)
{
	bool destroy = strcmp(opt, "--destroy-data") == 0;
	const char ***list = destroy ? &args->destroy_devices : &args->write_devices;
	int *n = destroy ? &args->ndestroy_devices : &args->nwrite_devices;
	const char **l;

	if (v[0] != '/') {
		fprintf(err, "flowbench: error: %s %s: name the device by its absolute "
			"path (/dev/sdb)\n", opt, v);
		return -1;
	}
	l = realloc(*list, (size_t)(*n + 1) * sizeof(*l));
	if (!l) {
		fprintf(err, "flowbench: error: out of memory\n");
		return -1;
	}
	*list = l;
	l[(*n)++] = v;
	return 0;
}

static int set_shared_files(struct cli_args *args, const char *opt, const char *v,
			    FILE *err)
{
	(void)opt;
	(void)v;
	(void)err;
	args->shared_files = true;
	return 0;
}

static int parse_repeat(struct cli_args *args, const char *opt,
			const char *text, FILE *err)
{
	char *end;
	long n;

	(void)opt;
	errno = 0;
	n = strtol(text, &end, 10);
	if (errno || end == text || *end || n < 1 || n > 100000) {
		fprintf(err, "flowbench: error: --repeat needs a whole number of runs from 1, not '%s'\n",
			text);
		return -1;
	}
	args->repeat = (int)n;
	return 0;
}

/* --log-lat, --log-bw, --log-iops, --log-hist PREFIX: that kind's files. */
static int set_log_prefix(struct cli_args *args, const char *opt, const char *v,
			  FILE *err)
{
	static const struct {
		const char *opt;
		enum plan_oplog_kind kind;
	} kinds[] = {
		{ "--log-lat", PLAN_OPLOG_LAT }, { "--log-bw", PLAN_OPLOG_BW },
		{ "--log-iops", PLAN_OPLOG_IOPS }, { "--log-hist", PLAN_OPLOG_HIST },
	};

	if (!*v || v[strlen(v) - 1] == '/') {
		fprintf(err, "flowbench: error: %s needs a prefix for its files' names "
			"(%s lg writes lg_..., also in another directory: dir/lg), "
			"not '%s'\n", opt, opt, v);
		return -1;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (strcmp(kinds[i].opt, opt) == 0)
			args->oplog.prefix[kinds[i].kind] = v;
	return 0;
}

/* A whole number of milliseconds for a log's window: 1 to 10^12. */
static int parse_log_msec(struct cli_args *args, const char *opt, const char *v,
			  FILE *err)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || end == v || *end || !(v[0] >= '1' && v[0] <= '9') ||
	    n > (unsigned long long)PLAN_MAX_SECONDS * 1000) {
		fprintf(err, "flowbench: error: %s needs a whole number of milliseconds "
			"from 1, not '%s'\n", opt, v);
		return -1;
	}
	if (strcmp(opt, "--log-avg-msec") == 0)
		args->oplog.avg_msec = n;
	else
		args->oplog.hist_msec = n;
	return 0;
}

static int parse_log_coarseness(struct cli_args *args, const char *opt,
				const char *v, FILE *err)
{
	if (!(v[0] >= '0' && v[0] <= '6' && v[1] == '\0')) {
		fprintf(err, "flowbench: error: %s is 0 to 6 (each step halves the "
			"histogram's columns), not '%s'\n", opt, v);
		return -1;
	}
	args->oplog.hist_coarseness = v[0] - '0';
	args->log_coarseness_given = true;
	return 0;
}

static int set_log_offset(struct cli_args *args, const char *opt, const char *v,
			  FILE *err)
{
	(void)opt;
	(void)v;
	(void)err;
	args->oplog.offset = true;
	return 0;
}

static int set_log_shared(struct cli_args *args, const char *opt, const char *v,
			  FILE *err)
{
	(void)opt;
	(void)v;
	(void)err;
	args->oplog.shared = true;
	return 0;
}

/* run --again RESULTS: rerun what that results file records. */
static int set_again(struct cli_args *args, const char *opt, const char *v,
		     FILE *err)
{
	(void)opt;
	(void)err;
	args->again = v;
	return 0;
}

/* run --run N: with --again, the results file's run N only. */
static int parse_again_run(struct cli_args *args, const char *opt, const char *v,
			   FILE *err)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || end == v || *end || !(v[0] >= '1' && v[0] <= '9') || n > 100000) {
		fprintf(err, "flowbench: error: %s needs a run's number from 1 (runs[].index "
			"of the results file), not '%s'\n", opt, v);
		return -1;
	}
	args->again_run = (int)n;
	return 0;
}

/* compare --threshold LIST: kept as typed; compare/gate.c reads it. */
static int add_threshold(struct cli_args *args, const char *opt, const char *v,
			 FILE *err)
{
	const char **t = realloc(args->thresholds,
				 (size_t)(args->nthresholds + 1) * sizeof(*t));

	(void)opt;
	if (!t) {
		fprintf(err, "flowbench: error: out of memory\n");
		return -1;
	}
	args->thresholds = t;
	t[args->nthresholds++] = v;
	return 0;
}

static int set_junit(struct cli_args *args, const char *opt, const char *v,
		     FILE *err)
{
	(void)opt;
	(void)err;
	args->junit = v;
	return 0;
}

/* run's --output: the endings come from the results formats' table. */
static const char *output_help(char *buf, size_t size)
{
	char endings[128];

	snprintf(buf, size, "also write the results to FILE: %s by its name "
		 "(may be given more than once); written also when the run fails or "
		 "is interrupted",
		 results_format_list(endings, sizeof(endings), RESULTS_ENDINGS_BY_FORMAT));
	return buf;
}

static int add_output(struct cli_args *args, const char *opt,
		      const char *path, FILE *err)
{
	const char **outs;

	(void)opt;
	if (!results_format_of(path)) {
		char endings[128];

		fprintf(err, "flowbench: error: --output %s: the file name must end in %s\n",
			path, results_format_list(endings, sizeof(endings), RESULTS_ENDINGS));
		return -1;
	}
	outs = realloc(args->outputs, (size_t)(args->noutputs + 1) * sizeof(*outs));
	if (!outs) {
		fprintf(err, "flowbench: error: out of memory\n");
		return -1;
	}
	args->outputs = outs;
	outs[args->noutputs++] = path;
	return 0;
}

/* "50,99,99.9": up to CLI_MAX_PERCENTILES numbers, each in (0, 100). */
static int parse_percentiles(struct cli_args *args, const char *opt,
			     const char *text, FILE *err)
{
	const char *s = text;
	int n = 0;

	(void)opt;
	for (;;) {
		char *end;
		double q;

		errno = 0;
		q = strtod(s, &end);
		if (errno || end == s || (*end != ',' && *end != '\0') ||
		    !(q > 0 && q < 100)) {
			fprintf(err, "flowbench: error: --percentiles needs numbers above 0 and below 100, separated by commas (like 50,99,99.9), not '%s'\n",
				text);
			return -1;
		}
		if (n == CLI_MAX_PERCENTILES) {
			fprintf(err, "flowbench: error: --percentiles takes at most %d values\n",
				CLI_MAX_PERCENTILES);
			return -1;
		}
		args->percentiles[n++] = q;
		if (*end == '\0')
			break;
		s = end + 1;
	}
	args->npercentiles = n;
	return 0;
}

static int set_format(struct cli_args *args, const char *opt, const char *v,
		      FILE *err)
{
	(void)opt;
	(void)err;
	args->format = v;     /* checked by compare, which knows the formats */
	return 0;
}

static int set_report_out(struct cli_args *args, const char *opt,
			  const char *v, FILE *err)
{
	(void)opt;
	(void)err;
	args->report_out = v;
	return 0;
}

static int set_list_dir(struct cli_args *args, const char *opt, const char *v,
			FILE *err)
{
	(void)opt;
	(void)v;
	(void)err;
	args->list_dir = true;
	return 0;
}

static int want_help(struct cli_args *args, const char *opt, const char *v,
		     FILE *err)
{
	(void)opt;
	(void)v;
	(void)err;
	args->cmd = CLI_HELP;
	return CLI_STOP;
}

static int want_version(struct cli_args *args, const char *opt,
			const char *v, FILE *err)
{
	(void)opt;
	(void)v;
	(void)err;
	args->cmd = CLI_VERSION;
	return CLI_STOP;
}

/* ---- the option table: one row per option -------------------------- */

static const struct cli_option options[] = {
	{ NULL, 'f', "FILE", WORKLOAD_CMDS, set_file,
	  "the workload file: flowbench -f FILE is flowbench run FILE; "
	  "one workload file per run", "a file", NULL },
	{ "--define", 'D', "NAME=VALUE", DEFINE_CMDS, add_define,
	  "set $NAME before the script runs; the script's own "
	  "'set $NAME=...' is then skipped. VALUE is written as in WML: "
	  "64m, 8k, true, /tmp/dir. Repeat for several variables. For an fio "
	  "job (import-fio, run JOB.fio, --fio): the value of ${NAME} in the "
	  "job file, of fio's $mb_memory, $ncpus, $pagesize, and with "
	  "filesize (filesize_N for job N) the size of a device or file the "
	  "job leaves unsaid (size=95% of a device)", NULL, NULL },
	{ "--runtime", 0, "SECONDS", WORKLOAD_CMDS, parse_runtime,
	  "duration of the timed phase (overrides 'run N')", NULL, NULL },
	{ "--cache", 0, "cold|warm|keep", WORKLOAD_CMDS, parse_cache,
	  "cold (default): empty the page cache before the timed phase: as "
	  "root with drop_caches (the whole machine's cache), else "
	  "fdatasync+fadvise(DONTNEED) on the workload's files; warm: write "
	  "back and evict each file, then read it whole in sequential 64 KiB "
	  "reads, so every run starts from the same cached state (less than "
	  "all of it resident is warned about); keep: leave the cache as "
	  "preallocation and earlier runs left it", NULL, NULL },
	{ "--compat", 0, "filebench", WORKLOAD_CMDS, parse_compat,
	  "follow filebench's rules where they change how much work is done "
	  "or what an op is (finish and ops limits counted per process, "
	  "implicit opens counted as the flowop's ops, I/O buffers at random "
	  "places in thread memory, thread memory zeroed in the timed phase, "
	  "aiowrite timed at submission, appends as lseek+write), to compare "
	  "with filebench's published numbers; docs/differences.md", NULL, NULL },
	{ "--seed", 0, "N", WORKLOAD_CMDS, parse_seed,
	  "seed every random choice (offsets, random variables); without it "
	  "a seed is chosen and printed, so any run can be repeated", NULL, NULL },
	{ "--allow-system", 0, NULL, WORKLOAD_CMDS, set_allow_system,
	  "let the script's 'system \"...\"' commands run", NULL, NULL },
	{ "--keep-going", 0, NULL, WORKLOAD_CMDS, set_keep_going,
	  "count failed I/O (ENOSPC, EIO, EROFS, ...) per flowop and go on, "
	  "instead of ending the run at the first one", NULL, NULL },
	{ "--force", 0, NULL, WORKLOAD_CMDS, set_force,
	  "adopt an existing fileset directory that flowbench did not create "
	  "(no .flowbench marker) and use it even if it holds other files: "
	  "only what flowbench creates there (listed in its marker) is ever "
	  "removed or reused, what was there before stays, whatever its name, "
	  "and a numbered entry the tree needs that was there stops the run; "
	  "/, home and system directories stay refused", NULL, NULL },
	{ "--write-device", 0, "DEV", WORKLOAD_CMDS, add_device,
	  "let the workload write to block device DEV (a `define device` or an fio "
	  "job's filename=/dev/...; repeat for several); it is still refused, with "
	  "the reason, when DEV or anything on it is mounted, swap, a member of an "
	  "LVM, MD or dm device, held by another program, holds the running "
	  "system, or holds a file system, partition table, RAID or LVM signature "
	  "(see --destroy-data). Reading a device needs no option", NULL, NULL },
	{ "--destroy-data", 0, "DEV", WORKLOAD_CMDS, add_device,
	  "with --write-device DEV: DEV's file system, partition table or other "
	  "signature may be written over (its data is lost); every other refusal "
	  "stays", NULL, NULL },
	{ "--fio", 0, NULL, WORKLOAD_CMDS, set_fio_args,
	  "FIO-ARGS...: the rest of the line is an fio command line (--name=a --rw=randread "
	  "--bs=4k ..., job files among it), imported as by import-fio and run "
	  "(or checked); its warnings come first. A FILE ending in .fio, .job "
	  "or .ini is an fio job file, imported the same way", NULL, NULL },
	{ "--shared-files", 0, NULL, WORKLOAD_CMDS, set_shared_files,
	  "flowbench-mpi only: every rank uses the same files, prepared once by "
	  "rank 0 (N clients on one shared file); without it each rank works in "
	  "its own directory <path>/rank-NNNNN below each fileset's path", NULL, NULL },
	{ "--repeat", 0, "N", WORKLOAD_CMDS, parse_repeat,
	  "run the whole workload N times (files prepared and cache applied "
	  "each time), then print mean, stdev, range and 95% confidence "
	  "interval", NULL, NULL },
	{ "--output", 'o', "FILE", WORKLOAD_CMDS, add_output, NULL, NULL,
	  output_help },
	{ "--again", 0, "RESULTS", CMD(CLI_RUN), set_again,
	  "rerun what the results file RESULTS records: its workload's text "
	  "(not the file on disk), -D values, seed and options, and say what "
	  "differs in the environment; only -D (said), --output, --run, "
	  "--log-*, --allow-system and --force go with it", "a results file", NULL },
	{ "--run", 0, "N", CMD(CLI_RUN), parse_again_run,
	  "with --again: rerun the results file's run N only (once), not all "
	  "its --repeat runs", NULL, NULL },
	{ "--percentiles", 0, "LIST", WORKLOAD_CMDS, parse_percentiles,
	  "latency percentiles to print per flowop, e.g. 50,99,99.9 (each "
	  "between 0 and 100; default 50,90,95,99,99.9,99.99)", NULL, NULL },
	{ "--warmup", 0, "SECONDS", WORKLOAD_CMDS, parse_warmup,
	  "run the workload this long first without recording anything "
	  "(ramp); --runtime follows", NULL, NULL },
	{ "--interval", 0, "SECONDS", WORKLOAD_CMDS, parse_interval,
	  "record ops/s, MB/s and latency percentiles of every flowop every "
	  "SECONDS (at least 0.01) into the results files, and log a line "
	  "per interval", NULL, NULL },
	{ "--log-lat", 0, "PREFIX", WORKLOAD_CMDS, set_log_prefix,
	  "write fio's latency logs of every read and write: PREFIX_lat.N.log, "
	  "PREFIX_clat.N.log and PREFIX_slat.N.log (N: the thread instance, "
	  "from 1), a line per op (time ms, latency ns, direction, size); "
	  "docs/metrics.md", NULL, NULL },
	{ "--log-bw", 0, "PREFIX", WORKLOAD_CMDS, set_log_prefix,
	  "write fio's bandwidth log, PREFIX_bw.N.log", NULL, NULL },
	{ "--log-iops", 0, "PREFIX", WORKLOAD_CMDS, set_log_prefix,
	  "write fio's IOPS log, PREFIX_iops.N.log", NULL, NULL },
	{ "--log-hist", 0, "PREFIX", WORKLOAD_CMDS, set_log_prefix,
	  "write fio's completion latency histogram log, PREFIX_clat_hist.N.log "
	  "(needs --log-hist-msec)", NULL, NULL },
	{ "--log-avg-msec", 0, "MS", WORKLOAD_CMDS, parse_log_msec,
	  "the --log-* logs but the histogram: a line per direction per MS "
	  "milliseconds with the window's mean latency, KiB/s and ops/s, "
	  "instead of a line per op", NULL, NULL },
	{ "--log-hist-msec", 0, "MS", WORKLOAD_CMDS, parse_log_msec,
	  "the histogram log's window: a line per direction every MS "
	  "milliseconds", NULL, NULL },
	{ "--log-hist-coarseness", 0, "N", WORKLOAD_CMDS, parse_log_coarseness,
	  "the histogram log's columns: fio's 1856 bins summed 2^N at a time "
	  "(0 to 6; default 0)", NULL, NULL },
	{ "--log-offset", 0, NULL, WORKLOAD_CMDS, set_log_offset,
	  "add each op's file offset to the --log-* lines", NULL, NULL },
	{ "--log-shared", 0, NULL, WORKLOAD_CMDS, set_log_shared,
	  "one file of each --log-* kind for all thread instances "
	  "(PREFIX_lat.log ...; fio's per_job_logs=0)", NULL, NULL },
	{ "--format", 0, "text|markdown|csv", CMD(CLI_COMPARE), set_format,
	  "the tables as text (the default), GitHub markdown or CSV", NULL, NULL },
	{ "--threshold", 0, "METRIC=N%,...", CMD(CLI_COMPARE), add_threshold,
	  "how much worse a later file may be than the first before compare "
	  "exits 1: a rate may drop (-N%), a latency rise (+N%), 'off' gates "
	  "nothing; metrics ops_per_s, mb_per_s, ms_per_op, p50, p90, p95, p99, "
	  "p99.9, p99.99, summary (the IO Summary's ops_per_s); default "
	  "ops_per_s=-5%,mb_per_s=-5%,p99=+10%", NULL, NULL },
	{ "--junit", 0, "FILE", CMD(CLI_COMPARE), set_junit,
	  "also write the verdict as JUnit XML to FILE: a testcase per metric "
	  "and flowop compared, a failure element per regression", NULL, NULL },
	{ "--output", 'o', "FILE.html", CMD(CLI_REPORT), set_report_out,
	  "where to write the page (required)", NULL, NULL },
	{ "--lenient", 0, NULL, CMD(CLI_IMPORT_FIO), set_fio_lenient,
	  "import-fio: options it cannot honour become '# NOT IMPORTED:' "
	  "comments and warnings (the job runs without them) instead of "
	  "errors; options that change how much work a job does or what it "
	  "measures stay errors. Every other word of import-fio is fio's: "
	  "its job options (--name=a --rw=randread ...) and job files", NULL, NULL },

	{ "--dir", 0, NULL, CMD(CLI_LIST), set_list_dir,
	  "print the catalogue's directory instead of its workloads (where "
	  "FLOWBENCH_WORKLOADS, the build tree or the installation put it)", NULL, NULL },
	{ "--help", 'h', NULL, EVERY_CMD, want_help,
	  "print this help and exit", NULL, NULL },
	{ "--version", 'V', NULL, EVERY_CMD, want_version,
	  "print the version and exit", NULL, NULL },
};

#define NOPTIONS (sizeof(options) / sizeof(options[0]))
/* cli_args.given has a bit per row */
_Static_assert(NOPTIONS <= 64, "more options than bits in cli_args.given");

/* ---- operands and the end of each subcommand ----------------------- */

static int workload_operand(struct cli_args *args, const char *a, FILE *err)
{
	if (args->file) {
		fprintf(err, "flowbench: error: unexpected argument '%s' (one workload file per run)\n", a);
		return -1;
	}
	args->file = a;
	return 0;
}

/*
 * --interval with --runtime: the series would have runtime / interval
 * rows, kept in memory to the end (a script's `run N` is checked by
 * run_plan() instead, before anything runs).
 */
static int check_interval_count(const struct cli_args *args, FILE *err)
{
	double n;

	if (!args->runtime_given || args->interval_s <= 0)
		return 0;
	n = args->runtime_s / args->interval_s;
	if (n <= PLAN_MAX_INTERVALS)
		return 0;
	fprintf(err, "flowbench: error: --runtime %g with --interval %g makes %.3g intervals, more than flowbench's limit of %d: raise --interval or shorten the run\n",
		args->runtime_s, args->interval_s, n, PLAN_MAX_INTERVALS);
	return -1;
}

/* The --log-* options make sense together: a log for each setting. */
static int check_log_options(const struct cli_args *args, FILE *err)
{
	const struct plan_oplog *l = &args->oplog;
	const char *orphan = l->avg_msec ? "--log-avg-msec" : l->offset ? "--log-offset" :
			     l->shared ? "--log-shared" : NULL;

	if (!plan_oplog_any(l) && orphan) {
		fprintf(err, "flowbench: error: %s applies to the per-op logs, and none "
			"is asked for (--log-lat, --log-bw, --log-iops, --log-hist PREFIX)\n",
			orphan);
		return -1;
	}
	if (l->prefix[PLAN_OPLOG_HIST] && !l->hist_msec) {
		fprintf(err, "flowbench: error: --log-hist needs --log-hist-msec MS, its "
			"window (fio writes an empty file without it)\n");
		return -1;
	}
	if (!l->prefix[PLAN_OPLOG_HIST] && (l->hist_msec || args->log_coarseness_given)) {
		fprintf(err, "flowbench: error: %s is the histogram log's, and "
			"--log-hist PREFIX is not given\n", l->hist_msec ?
			"--log-hist-msec" : "--log-hist-coarseness");
		return -1;
	}
	if (l->avg_msec && !l->prefix[PLAN_OPLOG_LAT] && !l->prefix[PLAN_OPLOG_BW] &&
	    !l->prefix[PLAN_OPLOG_IOPS]) {
		fprintf(err, "flowbench: error: --log-avg-msec averages the --log-lat, "
			"--log-bw and --log-iops logs (the histogram has --log-hist-msec), "
			"and none is given\n");
		return -1;
	}
	return 0;
}

/*
 * run --again takes the recorded run's options: of the options that
 * change a run, only -D (an override, said) and the two the user must
 * give again (--allow-system, --force: a results file from elsewhere
 * does not get to run commands or adopt directories), plus where the
 * outputs go.
 */
static int check_again(const struct cli_args *args, FILE *err)
{
	static const char *const with_again[] = {
		"--define", "--output", "--again", "--run", "--allow-system", "--force",
		"--log-lat", "--log-bw", "--log-iops", "--log-hist", "--log-avg-msec",
		"--log-hist-msec", "--log-hist-coarseness", "--log-offset", "--log-shared",
	};

	if (!args->again) {
		if (args->again_run) {
			fprintf(err, "flowbench: error: --run N picks a run of --again's "
				"results file, and --again is not given\n");
			return -1;
		}
		return 0;
	}
	if (args->file || args->fio_args) {
		fprintf(err, "flowbench: error: --again reruns the workload its results "
			"file holds: no workload file%s with it\n",
			args->fio_args ? " or --fio" : "");
		return -1;
	}
	for (size_t i = 0; i < NOPTIONS; i++) {
		bool ok = false;

		if (!(args->given & (UINT64_C(1) << i)))
			continue;
		for (size_t k = 0; k < sizeof(with_again) / sizeof(with_again[0]); k++)
			ok |= options[i].name && strcmp(options[i].name, with_again[k]) == 0;
		if (ok || (options[i].commands & CMD(CLI_RUN)) == 0)
			continue;
		fprintf(err, "flowbench: error: %s with --again: a rerun takes the recorded "
			"run's options (seed, variables, --runtime, --repeat, --cache ...); "
			"only -D, --output, --run, --log-*, --allow-system and --force go "
			"with it\n", options[i].name ? options[i].name : "-f");
		return -1;
	}
	return 0;
}

static int workload_finish(struct cli_args *args, FILE *err)
{
	if (check_again(args, err) < 0)
		return -1;
	if (args->again)
		return check_log_options(args, err);
	if (args->fio_args && args->file) {
		fprintf(err, "flowbench: error: a workload file or --fio, not both (the "
			"job files of an fio command line go after --fio)\n");
		return -1;
	}
	if (args->fio_args && !args->nfio_words) {
		fprintf(err, "flowbench: error: --fio needs an fio command line after it "
			"(--fio --name=a --rw=randread --bs=4k --size=16m)\n");
		return -1;
	}
	if (check_log_options(args, err) < 0)
		return -1;
	if (args->fio_args)
		return check_interval_count(args, err);
	if (!args->file) {
		fprintf(err, "flowbench: error: no workload file given (e.g. flowbench run workloads/randomrw.f)\n");
		return -1;
	}
	return check_interval_count(args, err);
}

static int results_operand(struct cli_args *args, const char *a, FILE *err)
{
	char **in = realloc(args->inputs, (size_t)(args->ninputs + 1) * sizeof(*in));

	if (!in) {
		fprintf(err, "flowbench: error: out of memory\n");
		return -1;
	}
	args->inputs = in;
	in[args->ninputs++] = (char *)a;
	return 0;
}

static int compare_finish(struct cli_args *args, FILE *err)
{
	if (args->ninputs >= 2)
		return 0;
	fprintf(err, "flowbench: error: compare needs two results files or more (flowbench compare base.json new.json)\n");
	return -1;
}

static int report_finish(struct cli_args *args, FILE *err)
{
	if (args->ninputs < 1) {
		fprintf(err, "flowbench: error: report needs a results file (flowbench report results.json -o report.html)\n");
		return -1;
	}
	if (!args->report_out) {
		fprintf(err, "flowbench: error: report needs -o FILE.html (where to write the page)\n");
		return -1;
	}
	return 0;
}

/* import-fio: its words are fio's (parse_rest): at least one. */
static int job_finish(struct cli_args *args, FILE *err)
{
	(void)err;
	return args->nfio_words ? 0 : -1;
}

/* list: no operand at all. */
static int no_operand(struct cli_args *args, const char *a, FILE *err)
{
	(void)args;
	(void)a;
	(void)err;
	return -1;
}

/* ---- the subcommand table ------------------------------------------ */

struct cli_subcommand {
	const char *word;         /* "run"; NULL: argv[1] is an option (run's) */
	enum cli_command cmd;
	const char *synopsis;     /* after "flowbench " in the help; NULL: none */
	const char *help;
	/* an argument that is not an option, and the checks at the end;
	 * operand NULL: the rest of the line is not looked at */
	int (*operand)(struct cli_args *args, const char *a, FILE *err);
	int (*finish)(struct cli_args *args, FILE *err);
	bool named;               /* errors say "flowbench: error: WORD: ..." */
	const char *misuse;       /* a wrong argument or option: this message */
	/* its operands, and the options that are not flowbench's, are an
	 * fio command line's words (import-fio) */
	bool fio;
};

static const struct cli_subcommand subcommands[] = {
	{ "run", CLI_RUN, "run FILE [options]", "run a WML workload, or an fio "
	  "job (FILE.fio, or --fio FIO-ARGS... last)",
	  workload_operand, workload_finish, false, NULL, false },
	{ "run", CLI_RUN, "run --again RESULTS [--run N]", "rerun what a results "
	  "file records, from its own copy of the workload",
	  workload_operand, workload_finish, false, NULL, false },
	{ NULL, CLI_RUN, "-f FILE [options]", "the same (filebench's habit)",
	  workload_operand, workload_finish, false, NULL, false },
	{ "check", CLI_CHECK, "check FILE [options]",
	  "parse and validate, touch nothing",
	  workload_operand, workload_finish, false, NULL, false },
	{ "list", CLI_LIST, "list [--dir]",
	  "the catalogue of workloads; FILE may be a name from it (run fileserver)",
	  no_operand, NULL, false,
	  "list takes no argument but --dir (set FLOWBENCH_WORKLOADS to list another directory)", false },
	{ "compare", CLI_COMPARE, "compare A.json B.json... [options]",
	  "results files side by side: mean ± stdev, %diff against A, "
	  "Welch's t-test; exit 1 when a later file is worse than A beyond a "
	  "threshold, 2 for a usage error or an unreadable file",
	  results_operand, compare_finish, true, NULL, false },
	{ "report", CLI_REPORT, "report A.json... -o FILE.html",
	  "one self-contained HTML page of charts",
	  results_operand, report_finish, true, NULL, false },
	{ "import-fio", CLI_IMPORT_FIO, "import-fio [--lenient] [-D NAME=VALUE] "
	  "(JOB.fio | FIO-ARGS...)",
	  "print a commented WML workload doing what the fio job file or fio "
	  "command line does",
	  no_operand, job_finish, false,
	  "import-fio takes an fio job file or fio's command line (flowbench "
	  "import-fio job.fio > job.f, flowbench import-fio --name=a "
	  "--rw=randread --size=16m)", true },
	{ "help", CLI_HELP, "--help | --version", "this help, or the version",
	  NULL, NULL, false, NULL, false },
	{ "version", CLI_VERSION, NULL, NULL, NULL, NULL, false, NULL, false },
};

#define NSUBCOMMANDS (sizeof(subcommands) / sizeof(subcommands[0]))

/* ---- parsing -------------------------------------------------------- */

/* The option `a` names among those `sc` takes, and its inline value. */
static const struct cli_option *find_option(const struct cli_subcommand *sc,
					    const char *a, const char **inline_value)
{
	*inline_value = NULL;
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct cli_option *o = &options[i];

		if (!(o->commands & CMD(sc->cmd)))
			continue;
		if (a[1] == '-' && o->name) {
			size_t n = strlen(o->name);

			if (strncmp(a, o->name, n) != 0)
				continue;
			if (a[n] == '\0')
				return o;
			if (a[n] == '=' && o->arg) {
				*inline_value = a + n + 1;
				return o;
			}
		} else if (a[1] != '-' && o->short_name && a[1] == o->short_name) {
			if (a[2] == '\0')
				return o;
			if (o->arg) {       /* -DNAME=VALUE */
				*inline_value = a + 2;
				return o;
			}
		}
	}
	return NULL;
}

/*
 * A "--long" option `a` is not one of sc's: the one of sc's long names it
 * abbreviates, if only one; else the closest by edit distance (compared
 * without the "--", which every name shares), or NULL.
 */
static const char *suggest_option(const struct cli_subcommand *sc,
				  const char *a)
{
	const char *names[NOPTIONS + 1], *prefix_of = NULL, *best;
	size_t n = 0, len = strcspn(a, "="), nprefix = 0;
	char typed[128];

	snprintf(typed, sizeof(typed), "%.*s", (int)len, a + 2);
	for (size_t i = 0; i < NOPTIONS; i++) {
		const char *name = options[i].name;

		if (!(options[i].commands & CMD(sc->cmd)) || !name)
			continue;
		names[n++] = name + 2;
		if (len > 2 && strncmp(name, a, len) == 0) {
			prefix_of = name;
			nprefix++;
		}
	}
	names[n] = NULL;
	if (nprefix == 1 && strlen(prefix_of) == len)
		return NULL;          /* --force=1: the flag itself, given a value */
	if (nprefix == 1)
		return prefix_of;
	best = diag_suggest(typed, names);
	return best ? best - 2 : NULL;
}

/* An option sc does not take: the reason, with a suggestion if one is close. */
static void unknown_option(const struct cli_subcommand *sc, const char *a,
			   FILE *err)
{
	char hint[192] = "try 'flowbench --help'";
	const char *best = NULL;

	if (a[1] == '-')
		best = suggest_option(sc, a);
	if (best)
		snprintf(hint, sizeof(hint), "did you mean '%s'?", best);
	if (sc->misuse)
		fprintf(err, "flowbench: error: %s\n", sc->misuse);
	else if (sc->named)
		fprintf(err, "flowbench: error: %s: unknown option '%s' (%s)\n",
			sc->word, a, hint);
	else
		fprintf(err, "flowbench: error: unknown option '%s' (%s)\n", a, hint);
}

/*
 * One option at argv[*i]: its value inline or the next argument (taken
 * whatever it looks like, so `--runtime --cache` is a bad runtime).
 */
static int take_option(const struct cli_subcommand *sc, int argc, char **argv,
		       int *i, struct cli_args *args, FILE *err)
{
	const char *a = argv[*i], *value, *spelling;
	const struct cli_option *o = find_option(sc, a, &value);
	char typed[3] = { '-', a[1], '\0' };   /* -D as typed, for messages */

	if (!o) {
		unknown_option(sc, a, err);
		return -1;
	}
	args->given |= UINT64_C(1) << (o - options);
	spelling = a[1] == '-' ? o->name : typed;
	if (o->arg && !value) {
		if (*i + 1 >= argc) {
			fprintf(err, "flowbench: error: %s needs %s\n", spelling,
				o->missing ? o->missing : "a value");
			return -1;
		}
		value = argv[++*i];
	}
	return o->parse(args, spelling, value, err);
}

/* A refusal of a subcommand that has one usage message: print it. */
static int misused(const struct cli_subcommand *sc, int r, FILE *err)
{
	if (r < 0 && sc->misuse)
		fprintf(err, "flowbench: error: %s\n", sc->misuse);
	return r;
}

/*
 * The words after the subcommand, from argv[first]; after a "--" every
 * word is an operand (a workload file named "-x.f").
 */
static int parse_rest(const struct cli_subcommand *sc, int argc, char **argv,
		      int first, struct cli_args *args, FILE *err)
{
	bool options_done = false;

	for (int i = first; i < argc; i++) {
		const char *a = argv[i];
		int r;

		const char *value;

		if (!options_done && strcmp(a, "--") == 0) {
			options_done = true;
			/* fio's own "--": the job files follow */
			if (sc->fio && add_fio_word(args, i, err) < 0)
				return -1;
			continue;
		}
		if (!options_done && a[0] == '-' && a[1] &&
		    (!sc->fio || find_option(sc, a, &value)))
			r = take_option(sc, argc, argv, &i, args, err);
		else if (sc->fio)
			r = add_fio_word(args, i, err);
		else
			r = misused(sc, sc->operand(args, a, err), err);
		/* run --fio: every word after it is fio's */
		while (r == CLI_REST && ++i < argc)
			if (add_fio_word(args, i, err) < 0)
				return -1;
		if (r == CLI_REST)
			break;
		if (r != 0)
			return r < 0 ? -1 : 0;     /* an error, or CLI_STOP */
	}
	return misused(sc, sc->finish ? sc->finish(args, err) : 0, err);
}

/* argv[1]: a subcommand's word, or an option (then the words are run's). */
static const struct cli_subcommand *find_subcommand(const char *word)
{
	for (size_t i = 0; i < NSUBCOMMANDS; i++) {
		const struct cli_subcommand *sc = &subcommands[i];

		if (sc->word ? strcmp(word, sc->word) == 0 : word[0] == '-')
			return sc;
	}
	return NULL;
}

/* argv[1] names no subcommand: the closest word, if one is close. */
static void unknown_command(const char *word, FILE *err)
{
	const char *words[NSUBCOMMANDS + 1], *best;
	size_t n = 0;

	for (size_t i = 0; i < NSUBCOMMANDS; i++)
		if (subcommands[i].word)
			words[n++] = subcommands[i].word;
	words[n] = NULL;
	best = diag_suggest(word, words);
	if (best)
		fprintf(err, "flowbench: error: unknown command '%s' (did you mean '%s'?)\n",
			word, best);
	else
		fprintf(err, "flowbench: error: unknown command '%s' (try 'flowbench --help')\n",
			word);
}

int cli_parse(int argc, char **argv, struct cli_args *args, FILE *err)
{
	const struct cli_subcommand *sc;

	memset(args, 0, sizeof(*args));
	args->repeat = 1;
	args->format = "text";
	args->argv = argv;
	args->argc = argc;
	if (argc < 2) {
		cli_usage(err);
		return -1;
	}
	sc = find_subcommand(argv[1]);
	if (!sc) {
		unknown_command(argv[1], err);
		return -1;
	}
	args->cmd = sc->cmd;
	if (!sc->operand)
		return 0;
	return parse_rest(sc, argc, argv, sc->word ? 2 : 1, args, err);
}

void cli_args_free(struct cli_args *args)
{
	free(args->inputs);
	args->inputs = NULL;
	args->ninputs = 0;
	for (int i = 0; i < args->ndefines; i++)
		free((char *)args->defines[i].name);
	free(args->defines);
	args->defines = NULL;
	args->ndefines = 0;
	free(args->outputs);
	args->outputs = NULL;
	args->noutputs = 0;
	free(args->write_devices);
	args->write_devices = NULL;
	args->nwrite_devices = 0;
	free(args->destroy_devices);
	args->destroy_devices = NULL;
	args->ndestroy_devices = 0;
	free(args->fio_words);
	args->fio_words = NULL;
	args->nfio_words = 0;
	free(args->thresholds);
	args->thresholds = NULL;
	args->nthresholds = 0;
}

/* ---- --help, from the same tables --------------------------------- */

#define HELP_WIDTH 79

/*
 * `text` from column `col` on, wrapped at HELP_WIDTH; the line holds
 * `used` columns already (a term longer than that starts a new line).
 */
static void print_wrapped(FILE *out, int used, int col, const char *text)
{
	const char *p = text;

	if (used > col - 2) {
		fputc('\n', out);
		used = 0;
	}
	fprintf(out, "%*s", col - used, "");
	used = col;
	while (*p) {
		size_t n = strcspn(p, " ");

		if (used > col && used + 1 + (int)n > HELP_WIDTH) {
			fprintf(out, "\n%*s", col, "");
			used = col;
		} else if (used > col) {
			fputc(' ', out);
			used++;
		}
		fwrite(p, 1, n, out);
		used += (int)n;
		p += n;
		p += strspn(p, " ");
	}
	fputc('\n', out);
}

static void usage_commands(FILE *out)
{
	bool first = true;

	for (size_t i = 0; i < NSUBCOMMANDS; i++) {
		const struct cli_subcommand *sc = &subcommands[i];
		int used;

		if (!sc->synopsis)
			continue;
		used = fprintf(out, "%s flowbench %s", first ? "usage:" : "      ",
			       sc->synopsis);
		print_wrapped(out, used, 40, sc->help);
		first = false;
	}
}

/* "run and check", "compare", "every command". */
static void print_commands(FILE *out, unsigned mask)
{
	int n = 0, k = 0;

	if (mask == EVERY_CMD) {
		fputs("every command", out);
		return;
	}
	for (unsigned m = mask; m; m &= m - 1)
		n++;
	for (size_t i = 0; i < NSUBCOMMANDS; i++) {
		const struct cli_subcommand *sc = &subcommands[i];

		bool again = false;

		for (size_t j = 0; j < i; j++)
			again |= subcommands[j].cmd == sc->cmd;   /* run's second line */
		if (!sc->word || !(mask & CMD(sc->cmd)) || again)
			continue;
		k++;
		fprintf(out, "%s%s", k == 1 ? "" : k == n ? " and " : ", ",
			sc->word);
	}
}

static void print_option(FILE *out, const struct cli_option *o)
{
	char help[512];
	int used = fprintf(out, "  ");

	if (o->short_name)
		used += fprintf(out, "-%c%s", o->short_name, o->name ? ", " : "");
	if (o->name)
		used += fprintf(out, "%s", o->name);
	if (o->arg)
		used += fprintf(out, " %s", o->arg);
	print_wrapped(out, used, 27, o->help_of ? o->help_of(help, sizeof(help)) : o->help);
}

/* The options grouped by the subcommands that take them, in table order. */
static void usage_options(FILE *out)
{
	for (size_t i = 0; i < NOPTIONS; i++) {
		bool seen = false;

		for (size_t j = 0; j < i; j++)
			seen |= options[j].commands == options[i].commands;
		if (seen)
			continue;
		fputs("\noptions of ", out);
		print_commands(out, options[i].commands);
		fputs(":\n", out);
		for (size_t j = i; j < NOPTIONS; j++)
			if (options[j].commands == options[i].commands)
				print_option(out, &options[j]);
	}
}

void cli_usage(FILE *out)
{
	usage_commands(out);
	usage_options(out);
	fputs(
"\n"
"environment:\n"
"  FLOWBENCH_WORKLOADS      the workload catalogue (list, bare names);\n"
"                           default: the installed one\n"
"\n"
"exit status: 0 success, 1 script error or failed run, 2 usage error,\n"
"             130/143 interrupted by SIGINT/SIGTERM (results so far kept)\n",
	      out);
}
