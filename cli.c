/*
 * cli.c - parsing flowbench's command line.  Hand-written rather than
 * getopt_long because options follow a subcommand and `-D name=value`
 * repeats; every mistake is a usage error with a one-line reason.
 */
#include "cli.h"

#include "plan/plan.h"
#include "runtime/results/doc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void cli_usage(FILE *out)
{
	fputs(
"usage: flowbench run FILE [options]     run a WML workload\n"
"       flowbench -f FILE [options]      the same (filebench's habit)\n"
"       flowbench check FILE [-D ...]    parse and validate, touch nothing\n"
"       flowbench list                   the catalogue of workloads; FILE may\n"
"                                        be a name from it (run fileserver)\n"
"       flowbench compare A.json B.json... [--format text|markdown|csv]\n"
"                                        results files side by side: mean ±\n"
"                                        stdev, %diff against A, Welch's t-test\n"
"       flowbench report A.json... -o FILE.html\n"
"                                        one self-contained HTML page of charts\n"
"       flowbench import-fio JOB.fio     print a commented WML workload doing\n"
"                                        what the fio job file does\n"
"       flowbench --help | --version\n"
"\n"
"options:\n"
"  -D, --define NAME=VALUE  set $NAME before the script runs; the script's\n"
"                           own 'set $NAME=...' is then skipped. VALUE is\n"
"                           written as in WML: 64m, 8k, true, /tmp/dir\n"
"  --runtime SECONDS        duration of the timed phase (overrides 'run N')\n"
"  --cache cold|warm        cold (default): empty the page cache before the\n"
"                           timed phase: as root with drop_caches (the whole\n"
"                           machine's cache), else fdatasync+fadvise(DONTNEED)\n"
"                           on the workload's files; warm: leave it as\n"
"                           preallocation left it\n"
"  --seed N                 seed every random choice (offsets, random\n"
"                           variables); without it a seed is chosen and\n"
"                           printed, so any run can be repeated\n"
"  --allow-system           let the script's 'system \"...\"' commands run\n"
"  --keep-going             count failed I/O (ENOSPC, EIO, EROFS, ...) per\n"
"                           flowop and go on, instead of ending the run at\n"
"                           the first one\n"
"  --force                  adopt an existing fileset directory that flowbench\n"
"                           did not create (no .flowbench marker) and use\n"
"                           it even if it holds other files: only entries\n"
"                           with flowbench's 8-digit names are ever removed;\n"
"                           /, home and system directories stay refused\n"
"  --repeat N               run the whole workload N times (files prepared\n"
"                           and cache applied each time), then print mean,\n"
"                           stdev, range and 95% confidence interval\n"
"  --output FILE            also write the results to FILE: .json or .yaml/\n"
"                           .yml by its name (may be given more than once);\n"
"                           written also when the run fails or is interrupted\n"
"  --percentiles LIST       latency percentiles to print per flowop, e.g.\n"
"                           50,99,99.9 (each between 0 and 100; default\n"
"                           50,90,95,99,99.9,99.99)\n"
"  --warmup SECONDS         run the workload this long first without\n"
"                           recording anything (ramp); --runtime follows\n"
"  --interval SECONDS       record ops/s, MB/s and latency percentiles of\n"
"                           every flowop every SECONDS (at least 0.01) into\n"
"                           the results files, and log a line per interval\n"
"\n"
"environment:\n"
"  FLOWBENCH_WORKLOADS      the workload catalogue (list, bare names);\n"
"                           default: the installed one\n"
"\n"
"exit status: 0 success, 1 script error or failed run, 2 usage error,\n"
"             130/143 interrupted by SIGINT/SIGTERM (results so far kept)\n",
	      out);
}

/* The value of option `opt`: "--opt=value", or the next argument. */
static const char *option_value(int argc, char **argv, int *i,
				const char *opt, FILE *err)
{
	size_t n = strlen(opt);

	if (strncmp(argv[*i], opt, n) == 0 && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (*i + 1 >= argc) {
		fprintf(err, "flowbench: %s needs a value\n", opt);
		return NULL;
	}
	return argv[++*i];
}

static int add_define(struct cli_args *args, const char *text, FILE *err)
{
	const char *eq = strchr(text, '=');
	struct cli_define *defs;
	char *name;

	if (!eq || eq == text) {
		fprintf(err, "flowbench: -D needs NAME=VALUE, not '%s'\n", text);
		return -1;
	}
	name = strndup(text[0] == '$' ? text + 1 : text,
		       (size_t)(eq - text) - (text[0] == '$'));
	defs = realloc(args->defines,
		       (size_t)(args->ndefines + 1) * sizeof(*defs));
	if (!name || !defs) {
		free(name);
		fprintf(err, "flowbench: out of memory\n");
		return -1;
	}
	args->defines = defs;
	defs[args->ndefines].name = name;
	defs[args->ndefines].value = eq + 1;
	args->ndefines++;
	return 0;
}

static int parse_runtime(const char *text, struct cli_args *args, FILE *err)
{
	char *end;
	double s;

	errno = 0;
	s = strtod(text, &end);
	if (errno || end == text || *end || !isfinite(s) || s <= 0) {
		fprintf(err, "flowbench: --runtime needs a positive number of seconds, not '%s'\n",
			text);
		return -1;
	}
	if (s > PLAN_MAX_SECONDS) {
		fprintf(err, "flowbench: --runtime %s: more than flowbench's limit of %.0f s (31.7 years)\n",
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
		fprintf(err, "flowbench: %s needs a number of seconds from %g to flowbench's limit of %.0f, not '%s'\n",
			opt, min, PLAN_MAX_SECONDS, text);
		return -1;
	}
	*out = s;
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
	fprintf(err, "flowbench: --runtime %g with --interval %g makes %.3g intervals, more than flowbench's limit of %d: raise --interval or shorten the run\n",
		args->runtime_s, args->interval_s, n, PLAN_MAX_INTERVALS);
	return -1;
}

/* "50,99,99.9": up to CLI_MAX_PERCENTILES numbers, each in (0, 100). */

static int parse_percentiles(const char *text, struct cli_args *args, FILE *err)
{
	const char *s = text;
	int n = 0;

	for (;;) {
		char *end;
		double q;

		errno = 0;
		q = strtod(s, &end);
		if (errno || end == s || (*end != ',' && *end != '\0') ||
		    !(q > 0 && q < 100)) {
			fprintf(err, "flowbench: --percentiles needs numbers above 0 and below 100, separated by commas (like 50,99,99.9), not '%s'\n",
				text);
			return -1;
		}
		if (n == CLI_MAX_PERCENTILES) {
			fprintf(err, "flowbench: --percentiles takes at most %d values\n",
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

static int add_output(struct cli_args *args, const char *path, FILE *err)
{
	const char **outs;

	if (results_format_of(path) < 0) {
		fprintf(err, "flowbench: --output %s: the file name must end in .json, .yaml or .yml\n",
			path);
		return -1;
	}
	outs = realloc(args->outputs, (size_t)(args->noutputs + 1) * sizeof(*outs));
	if (!outs) {
		fprintf(err, "flowbench: out of memory\n");
		return -1;
	}
	args->outputs = outs;
	outs[args->noutputs++] = path;
	return 0;
}

static int parse_repeat(const char *text, struct cli_args *args, FILE *err)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(text, &end, 10);
	if (errno || end == text || *end || n < 1 || n > 100000) {
		fprintf(err, "flowbench: --repeat needs a whole number of runs from 1, not '%s'\n",
			text);
		return -1;
	}
	args->repeat = (int)n;
	return 0;
}

static bool is_option(const char *arg, const char *opt)
{
	size_t n = strlen(opt);

	return strncmp(arg, opt, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/*
 * `compare FILE FILE... [--format F]` and `report FILE... -o OUT`: results
 * files and the options of those two commands, in any order.
 */
static int parse_results_command(int argc, char **argv, struct cli_args *args,
				 FILE *err)
{
	const char *name = argv[1];
	bool compare = args->cmd == CLI_COMPARE;

	args->format = "text";
	args->inputs = calloc((size_t)argc, sizeof(*args->inputs));
	if (!args->inputs) {
		fprintf(err, "flowbench: out of memory\n");
		return -1;
	}
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			args->cmd = CLI_HELP;
			return 0;
		} else if (compare && is_option(a, "--format")) {
			if (!(args->format = option_value(argc, argv, &i, "--format", err)))
				return -1;
		} else if (!compare && (strcmp(a, "-o") == 0 || is_option(a, "--output"))) {
			if (!(args->report_out = option_value(argc, argv, &i,
							      a[1] == 'o' ? "-o" : "--output", err)))
				return -1;
		} else if (a[0] == '-' && a[1]) {
			fprintf(err, "flowbench: %s: unknown option '%s' (try 'flowbench --help')\n",
				name, a);
			return -1;
		} else {
			args->inputs[args->ninputs++] = argv[i];
		}
	}
	if (args->ninputs < (compare ? 2 : 1)) {
		fprintf(err, compare ?
			"flowbench: compare needs two results files or more (flowbench compare base.json new.json)\n" :
			"flowbench: report needs a results file (flowbench report results.json -o report.html)\n");
		return -1;
	}
	if (!compare && !args->report_out) {
		fprintf(err, "flowbench: report needs -o FILE.html (where to write the page)\n");
		return -1;
	}
	return 0;
}

int cli_parse(int argc, char **argv, struct cli_args *args, FILE *err)
{
	int i = 1;
	const char *v;

	memset(args, 0, sizeof(*args));
	args->repeat = 1;
	args->argv = argv;
	args->argc = argc;
	if (argc < 2) {
		cli_usage(err);
		return -1;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "help") == 0) {
		args->cmd = CLI_HELP;
		return 0;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0 ||
	    strcmp(argv[1], "version") == 0) {
		args->cmd = CLI_VERSION;
		return 0;
	}
	if (strcmp(argv[1], "run") == 0) {
		args->cmd = CLI_RUN;
		i = 2;
	} else if (strcmp(argv[1], "check") == 0) {
		args->cmd = CLI_CHECK;
		i = 2;
	} else if (strcmp(argv[1], "list") == 0) {
		args->cmd = CLI_LIST;
		if (argc > 2) {
			fprintf(err, "flowbench: list takes no argument (set FLOWBENCH_WORKLOADS to list another directory)\n");
			return -1;
		}
		return 0;
	} else if (strcmp(argv[1], "compare") == 0 || strcmp(argv[1], "report") == 0) {
		args->cmd = argv[1][0] == 'c' ? CLI_COMPARE : CLI_REPORT;
		return parse_results_command(argc, argv, args, err);
	} else if (strcmp(argv[1], "import-fio") == 0) {
		args->cmd = CLI_IMPORT_FIO;
		if (argc != 3 || argv[2][0] == '-') {
			fprintf(err, "flowbench: import-fio takes one fio job file (flowbench import-fio job.fio > job.f)\n");
			return -1;
		}
		args->file = argv[2];
		return 0;
	} else if (argv[1][0] == '-') {
		args->cmd = CLI_RUN;        /* flowbench -f FILE ... */
	} else {
		fprintf(err, "flowbench: unknown command '%s' (try 'flowbench --help')\n",
			argv[1]);
		return -1;
	}

	for (; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-f") == 0) {
			if (++i >= argc) {
				fprintf(err, "flowbench: -f needs a file\n");
				return -1;
			}
			if (args->file) {
				fprintf(err, "flowbench: only one workload file, please\n");
				return -1;
			}
			args->file = argv[i];
		} else if (strncmp(a, "-D", 2) == 0 || is_option(a, "--define")) {
			if (strncmp(a, "-D", 2) == 0 && a[2])
				v = a + 2;
			else if (!(v = option_value(argc, argv, &i, a[1] == 'D' ? "-D" : "--define", err)))
				return -1;
			if (add_define(args, v, err) < 0)
				return -1;
		} else if (is_option(a, "--runtime")) {
			if (!(v = option_value(argc, argv, &i, "--runtime", err)) ||
			    parse_runtime(v, args, err) < 0)
				return -1;
		} else if (is_option(a, "--cache")) {
			if (!(v = option_value(argc, argv, &i, "--cache", err)))
				return -1;
			if (strcmp(v, "warm") == 0) {
				args->cache_warm = true;
			} else if (strcmp(v, "cold") == 0) {
				args->cache_warm = false;
			} else {
				fprintf(err, "flowbench: --cache is cold or warm, not '%s'\n", v);
				return -1;
			}
		} else if (is_option(a, "--seed")) {
			char *end;

			if (!(v = option_value(argc, argv, &i, "--seed", err)))
				return -1;
			errno = 0;
			args->seed = strtoull(v, &end, 10);
			/* strtoull would take " -1" (spaces, a sign) as 2^64 - 1 */
			if (errno || end == v || *end || !(v[0] >= '0' && v[0] <= '9')) {
				fprintf(err, "flowbench: --seed needs a non-negative integer, not '%s'\n", v);
				return -1;
			}
			args->seed_given = true;
		} else if (strcmp(a, "--allow-system") == 0) {
			args->allow_system = true;
		} else if (strcmp(a, "--keep-going") == 0) {
			args->keep_going = true;
		} else if (strcmp(a, "--force") == 0) {
			args->force = true;
		} else if (is_option(a, "--repeat")) {
			if (!(v = option_value(argc, argv, &i, "--repeat", err)) ||
			    parse_repeat(v, args, err) < 0)
				return -1;
		} else if (is_option(a, "--output")) {
			if (!(v = option_value(argc, argv, &i, "--output", err)) ||
			    add_output(args, v, err) < 0)
				return -1;
		} else if (is_option(a, "--warmup")) {
			if (!(v = option_value(argc, argv, &i, "--warmup", err)) ||
			    parse_seconds("--warmup", v, 0.001, &args->warmup_s, err) < 0)
				return -1;
		} else if (is_option(a, "--interval")) {
			if (!(v = option_value(argc, argv, &i, "--interval", err)) ||
			    parse_seconds("--interval", v, 0.01, &args->interval_s, err) < 0)
				return -1;
		} else if (is_option(a, "--percentiles")) {
			if (!(v = option_value(argc, argv, &i, "--percentiles", err)) ||
			    parse_percentiles(v, args, err) < 0)
				return -1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			args->cmd = CLI_HELP;
			return 0;
		} else if (strcmp(a, "--version") == 0 || strcmp(a, "-V") == 0) {
			args->cmd = CLI_VERSION;
			return 0;
		} else if (a[0] == '-' && a[1]) {
			fprintf(err, "flowbench: unknown option '%s' (try 'flowbench --help')\n", a);
			return -1;
		} else if (!args->file) {
			args->file = a;
		} else {
			fprintf(err, "flowbench: unexpected argument '%s' (one workload file per run)\n", a);
			return -1;
		}
	}
	if (!args->file) {
		fprintf(err, "flowbench: no workload file given (e.g. flowbench run workloads/randomrw.f)\n");
		return -1;
	}
	return check_interval_count(args, err);
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
}
