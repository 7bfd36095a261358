/*
 * cmdline.c - fio's command line for import-fio: `--name=a --rw=randread
 * --bs=4k ... [job.fio ...]`, read as fio 3.33 reads it.
 *
 * Job options before the first --name are global (fio's defaults for
 * every job after them), each --name starts a job whose options follow
 * it, --name=global (any name starting with "global") goes back to the
 * globals; the words that are not options are job files, read after all
 * the options (fio's getopt takes the options first, wherever the files
 * are among them), the first one with the command line's globals as its
 * defaults, a later one from fio's own; after "--" every word is a job
 * file.  An option is `--NAME=VALUE`, `--NAME VALUE` (the next word,
 * whatever it looks like) or, for fio's flag options, a bare `--NAME`;
 * one dash does as two.  fio also takes an unambiguous abbreviation of an
 * option's name: import-fio asks for the whole name instead.  fio's own
 * command-line options are supported (--section, --readonly), comments
 * (--output, --output-format, ...: what fio prints) or refused with the
 * reason (--client, --parse-only, ...).  Messages name the word as
 * argv[N] of the whole command line.
 */
#include "lang/fio/read.h"
#include "plan/oom.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* fio's job options that are flags: a bare --NAME takes no value. */
static const char *const flags[] = {
	"bs_unaligned", "blocksize_unaligned", "exitall", "exitall_on_error",
	"group_reporting", "new_group", "norandommap", "refill_buffers",
	"stonewall", "thread", "time_based", "verify_only", "wait_for_previous",
	"zero_buffers", "hipri", "fixedbufs", "registerfiles", "sqthread_poll",
	"userspace_reap", NULL,
};

enum cmd_action {
	CMD_NOTE,       /* no effect on the I/O: a comment */
	CMD_REFUSE,     /* fio does something else than run the jobs */
	CMD_SECTION,    /* --section=NAME */
	CMD_READONLY,   /* --readonly: jobs that write are refused */
};

/* fio's options of the command line only (not job options). */
static const struct cmd_opt {
	const char *name;
	bool arg;               /* takes a value (required or optional) */
	enum cmd_action action;
	const char *why;
} cmd_opts[] = {
	{ "output", true, CMD_NOTE, "fio's report file; flowbench prints its "
	  "report and writes results files with run -o FILE.json" },
	{ "output-format", true, CMD_NOTE, "fio's report format; flowbench "
	  "writes JSON or YAML results with run -o FILE.json" },
	{ "minimal", false, CMD_NOTE, "fio's terse report" },
	{ "terse-version", true, CMD_NOTE, "fio's terse report" },
	{ "append-terse", false, CMD_NOTE, "fio's terse report" },
	{ "eta", true, CMD_NOTE, "fio's progress line" },
	{ "eta-newline", true, CMD_NOTE, "fio's progress line" },
	{ "eta-interval", true, CMD_NOTE, "fio's progress line" },
	{ "status-interval", true, CMD_NOTE, "fio's periodic report (flowbench "
	  "has --interval)" },
	{ "bandwidth-log", false, CMD_NOTE, "fio's log files" },
	{ "debug", true, CMD_NOTE, "fio's debug output" },
	{ "warnings-fatal", false, CMD_NOTE, "fio's parser" },
	{ "max-jobs", true, CMD_NOTE, "fio's limit on jobs" },
	{ "alloc-size", true, CMD_NOTE, "fio's shared memory pool" },
	{ "aux-path", true, CMD_NOTE, "where fio writes its own files" },
	{ "idle-prof", true, CMD_NOTE, "fio's CPU idleness report (flowbench "
	  "reports the CPU it used)" },
	{ "section", true, CMD_SECTION, NULL },
	{ "readonly", false, CMD_READONLY, NULL },
	{ "latency-log", true, CMD_REFUSE, "fio 3.33 refuses it (deprecated: "
	  "use write_lat_log)" },
	{ "parse-only", false, CMD_REFUSE, "fio only parses the jobs: it runs "
	  "nothing" },
	{ "showcmd", false, CMD_REFUSE, "fio only prints the jobs as a command "
	  "line: it runs nothing" },
	{ "cmdhelp", false, CMD_REFUSE, "fio prints help: it runs nothing" },
	{ "enghelp", false, CMD_REFUSE, "fio prints help: it runs nothing" },
	{ "crctest", false, CMD_REFUSE, "fio tests its checksums: it runs no job" },
	{ "memcpytest", false, CMD_REFUSE, "fio tests memcpy: it runs no job" },
	{ "cpuclock-test", false, CMD_REFUSE, "fio tests its clock: it runs no job" },
	{ "inflate-log", true, CMD_REFUSE, "fio inflates a log: it runs no job" },
	{ "profile", true, CMD_REFUSE, "fio's built-in profiles (tiobench, act) "
	  "are not read" },
	{ "server", false, CMD_REFUSE, "fio's client/server mode" },
	{ "daemonize", true, CMD_REFUSE, "fio's client/server mode" },
	{ "client", true, CMD_REFUSE, "fio's client/server mode" },
	{ "remote-config", true, CMD_REFUSE, "fio's client/server mode" },
	{ "trigger-file", true, CMD_REFUSE, "fio's triggers (a command run "
	  "during the jobs)" },
	{ "trigger-timeout", true, CMD_REFUSE, "fio's triggers" },
	{ "trigger", true, CMD_REFUSE, "fio's triggers" },
	{ "trigger-remote", true, CMD_REFUSE, "fio's triggers" },
};

static const struct cmd_opt *find_cmd_opt(const char *name)
{
	for (size_t i = 0; i < sizeof(cmd_opts) / sizeof(cmd_opts[0]); i++)
		if (strcmp(cmd_opts[i].name, name) == 0)
			return &cmd_opts[i];
	return NULL;
}

static bool is_flag(const char *name)
{
	for (int i = 0; flags[i]; i++)
		if (strcmp(flags[i], name) == 0)
			return true;
	return false;
}

/*
 * A name that is no option's but the start of some: fio would take it as
 * an abbreviation, or refuse it as ambiguous when it starts several
 * (getopt_long_only); import-fio asks for the whole name.  Returns the
 * longer options import-fio knows, ", "-separated in `a`, with their
 * count in *n, or NULL.
 */
static const char *abbreviates(struct arena *a, const char *name, int *n)
{
	static const char *const longer[] = {
		"buffered", "buffer_pattern", "buffer_compress_percentage",
		"buffer_compress_chunk",
		"iodepth", "iodepth_batch", "iodepth_low", "numjobs", "runtime",
		"time_based", "filename", "filesize", "directory", "direct",
		"ioengine", "rwmixread", "rwmixwrite", "readwrite", "blocksize",
		"group_reporting", "randrepeat", "norandommap", "output-format",
		"output", "section", "size", "thread", "ramp_time", "name", NULL,
	};
	size_t len = strlen(name);
	const char *list = NULL;

	*n = 0;
	for (int i = 0; longer[i]; i++)
		if (strlen(longer[i]) > len && strncmp(longer[i], name, len) == 0) {
			list = list ? arena_printf(a, "%s, --%s", list, longer[i]) :
			       arena_printf(a, "--%s", longer[i]);
			++*n;
		}
	return list;
}

/* What reading the words needs as it goes. */
struct words {
	struct fio_jobfile *jf;
	struct diag *d;
	const struct fio_cmdline *cl;
	int base;                 /* the argv source's base */
	const char **sections;    /* --section values so far */
	int nsections;
	int *files;               /* argv indices of the job files */
	int nfiles;
};

static int line_of(const struct words *w, int argi)
{
	return w->base + argi + 1;
}

/* A job option (KEY, VALUE or NULL) of the command line, to the reader. */
static void job_option(struct words *w, int argi, const char *key, const char *value)
{
	struct fio_jobfile *jf = w->jf;
	char *text;

	if (strcmp(key, "name") == 0) {
		if (!value || !*value) {
			diag_error(w->d, (struct src_loc){ line_of(w, argi), 1 },
				   "--name needs a job's name (--name=NAME)");
			return;
		}
		/* fio's --section is read as it comes: a job named before it
		 * is not left out (fio 3.33); a job left out is not made, and
		 * its options go to the globals, as fio's do */
		jf->ro.sections = w->sections;
		jf->ro.nsections = w->nsections;
		fio_read_section(jf, value, line_of(w, argi), w->d);
		if (jf->skipping) {
			jf->skipping = false;
			fio_read_section(jf, "global", line_of(w, argi), w->d);
			fio_read_run_note(jf, line_of(w, argi), arena_printf(&jf->arena,
					  "--name=%s: not among --section: fio runs no such "
					  "job, and reads the options after it as global ones",
					  value));
		}
		return;
	}
	if (jf->cur < 0)
		fio_read_section(jf, "global", line_of(w, argi), w->d);
	text = value ? arena_printf(&jf->arena, "%s=%s", key, value) :
		arena_strdup(&jf->arena, key);
	fio_read_option(jf, text, line_of(w, argi), 1, w->d);
}

/* One of fio's command-line options. */
static void cmd_option(struct words *w, int argi, const struct cmd_opt *o,
		       const char *value)
{
	struct fio_jobfile *jf = w->jf;
	struct src_loc loc = { line_of(w, argi), 1 };
	const char *shown = value ? arena_printf(&jf->arena, "--%s=%s", o->name, value) :
		arena_printf(&jf->arena, "--%s", o->name);

	switch (o->action) {
	case CMD_NOTE:
		fio_read_run_note(jf, loc.line, arena_printf(&jf->arena, "%s: no effect "
				  "on the I/O (%s): a comment only", shown, o->why));
		break;
	case CMD_REFUSE:
		diag_error(w->d, loc, "%s is not supported: %s", shown, o->why);
		break;
	case CMD_SECTION:
		if (!value || !*value) {
			diag_error(w->d, loc, "--section needs a job's name");
			break;
		}
		if (!(w->nsections & (w->nsections - 1))) {
			const char **grown = arena_alloc(&jf->arena, (size_t)(w->nsections ?
						 2 * w->nsections : 1) * sizeof(*grown));

			if (w->nsections)
				memcpy(grown, w->sections, (size_t)w->nsections *
				       sizeof(*grown));
			w->sections = grown;
		}
		w->sections[w->nsections++] = value;
		fio_read_run_note(jf, loc.line, arena_printf(&jf->arena, "%s: only the "
				  "jobs named by --section (and the global options) are "
				  "read, as fio runs only those", shown));
		break;
	case CMD_READONLY:
		jf->readonly = true;
		fio_read_run_note(jf, loc.line, "--readonly: fio refuses to run a job "
				  "that writes; the jobs here only read");
		break;
	}
}

/*
 * The word argv[*i], an option: its name and value (the rest after '=',
 * else for an option that takes one the next word, which *i then
 * passes).
 */
static void option_word(struct words *w, int *k)
{
	const struct fio_cmdline *cl = w->cl;
	int argi = cl->words[*k];
	const char *word = cl->argv[argi];
	const char *name = word + (word[1] == '-' ? 2 : 1);
	const char *eq = strchr(name, '=');
	char *key = eq ? arena_strndup(&w->jf->arena, name, (size_t)(eq - name)) :
		arena_strdup(&w->jf->arena, name);
	const char *value = eq ? eq + 1 : NULL;
	const struct cmd_opt *co = find_cmd_opt(key);
	struct src_loc loc = { line_of(w, argi), 1 };
	bool known = co || fio_opt_comment_why(key) || fio_keep_why(key) ||
		fio_opt_known(key) || is_flag(key) || strcmp(key, "name") == 0;
	bool takes = co ? co->arg : !is_flag(key) && known;
	const char *longer;
	int nlonger;

	if (!*key) {
		diag_error(w->d, loc, "'%s' is not an option", word);
		return;
	}
	if (!known && (longer = abbreviates(&w->jf->arena, key, &nlonger))) {
		if (nlonger > 1)
			diag_error(w->d, loc, "--%s is ambiguous: it starts %s, and fio "
				   "refuses it too (\"option '--%s' is ambiguous\"): write "
				   "the option in full", key, longer, key);
		else
			diag_error(w->d, loc, "--%s is not an option's whole name (fio "
				   "takes an unambiguous abbreviation, such as of %s, or "
				   "refuses an ambiguous one): write the option in full",
				   key, longer);
		return;
	}
	if (!value && takes && *k + 1 < cl->nwords) {
		++*k;
		value = cl->argv[cl->words[*k]];
	} else if (!value && takes && !(co && co->action == CMD_SECTION)) {
		diag_error(w->d, loc, "--%s needs a value (--%s=VALUE), as in fio",
			   key, key);
		return;
	}
	if (co)
		cmd_option(w, argi, co, value);
	else
		job_option(w, argi, key, value);
}

int fio_read_cmdline(struct fio_jobfile *jf, const struct fio_cmdline *cl,
		     struct diag *d)
{
	struct words w = { .jf = jf, .d = d, .cl = cl };
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	bool files_only = false;
	int errors0 = d->errors;

	if (!mem)
		oom_exit();
	/* the source quoted in messages: argv[N] is line N + 1 (a line break
	 * in a word, a job file's name, is quoted as a blank) */
	for (int i = 0; i < cl->argc; i++) {
		if (i)
			fputc('\n', mem);
		for (const char *c = cl->argv[i]; *c; c++)
			fputc(*c == '\n' || *c == '\r' ? ' ' : *c, mem);
	}
	fclose(mem);
	w.base = fio_read_source(jf, "argv", arena_strndup(&jf->arena, text, len),
				 len, true);
	free(text);
	for (int k = 0; k < cl->nwords; k++) {
		int argi = cl->words[k];
		const char *a = cl->argv[argi];

		if (!files_only && strcmp(a, "--") == 0) {
			files_only = true;
		} else if (!files_only && a[0] == '-' && a[1]) {
			option_word(&w, &k);
		} else {
			w.files = xreallocarray(w.files, (size_t)w.nfiles + 1,
						sizeof(*w.files));
			w.files[w.nfiles++] = argi;
		}
	}
	jf->ro.sections = w.sections;
	jf->ro.nsections = w.nsections;
	for (int i = 0; i < w.nfiles; i++) {
		const char *path = cl->argv[w.files[i]];
		size_t n = 0;
		char *t;

		if (strcmp(path, "-") == 0) {
			diag_error(d, (struct src_loc){ line_of(&w, w.files[i]), 1 },
				   "a job file on standard input ('-') is not read: "
				   "name the file");
			continue;
		}
		if (!(t = fio_read_whole(&jf->arena, path, &n))) {
			diag_error(d, (struct src_loc){ line_of(&w, w.files[i]), 1 },
				   "cannot read the job file '%s': %s", path,
				   errno == EFBIG ? "larger than 16 MiB" : strerror(errno));
			continue;
		}
		fio_read_file(jf, path, t, n, d);
	}
	free(w.files);
	return d->errors - errors0;
}
