/*
 * frontend.c - read, parse, apply -D, compile: the front end's one entry
 * (see frontend.h).  Each stage reports through the same diag, so a
 * caller only learns how many errors there were; the count line at the
 * end is written here, once for every caller.
 */
#include "lang/frontend.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lang/parse.h"
#include "lang/srcfile.h"
#include "plan/diag.h"
#include "plan/oom.h"

char *frontend_read(const char *path, size_t *len, FILE *err)
{
	char *text = srcfile_read(path, len);

	if (!text)
		fprintf(err, "flowbench: error: cannot read '%s': %s\n", path,
			strerror(errno));
	return text;
}

/* The source: the caller's bytes, or the file read now.  -1 after a message. */
static int load_text(const struct frontend_input *in,
		     struct frontend_result *out)
{
	if (in->text) {
		out->text = in->text;
		out->len = in->len;
		return 0;
	}
	out->read_text = frontend_read(in->path, &out->len, in->err);
	out->text = out->read_text;
	return out->text ? 0 : -1;
}

/*
 * Each -D value parsed as WML writes a value, its errors named
 * "-D NAME:1:COL" (the value is its own one-line source).  A value in
 * error counts one error of the workload, so that nothing is compiled.
 * Names are copied into the tree's arena: the plan's variable names
 * point at them.
 */
static struct compile_define *parse_defines(const struct frontend_input *in,
					    struct ast_script *script,
					    struct diag *d)
{
	struct compile_define *defs = xcalloc((size_t)in->ndefines + 1,
					      sizeof(*defs));

	for (int i = 0; i < in->ndefines; i++) {
		struct diag dd;
		char origin[300];

		snprintf(origin, sizeof(origin), "-D %s", in->defines[i].name);
		diag_init(&dd, origin, NULL, 0, in->err);
		defs[i].name = arena_strdup(&script->arena, in->defines[i].name);
		defs[i].value = ast_parse_value(origin, in->defines[i].value,
						&dd, &script->arena);
		if (!defs[i].value || dd.errors)
			d->errors++;
	}
	return defs;
}

/*
 * The builtins of plain flowbench, unless the caller chose its own
 * (flowbench-mpi): $rank 0, $nranks 1, $hostname this host's name, read
 * into `host` (an unreadable name is said, and $hostname is empty).
 */
static void default_builtins(const struct frontend_input *in,
			     struct compile_options *opts,
			     struct compile_builtin out[COMPILE_NBUILTINS],
			     char *host, size_t size)
{
	if (opts->builtins)
		return;
	if (gethostname(host, size) < 0) {
		fprintf(in->err, "flowbench: warning: cannot read this host's name (%s): $hostname is empty\n",
			strerror(errno));
		host[0] = '\0';
	}
	host[size - 1] = '\0';
	compile_builtins_default(out, host);
	opts->builtins = out;
	opts->nbuiltins = COMPILE_NBUILTINS;
}

/*
 * Does `text` start as an fio job file does: its first line that is not
 * blank or a comment a `[section]`?  WML has no such line, so a file that
 * fails to parse and starts so gets a hint (never a guess: it stays WML).
 */
static bool looks_like_fio(const char *text, size_t len)
{
	size_t i = 0;

	while (i < len) {
		while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r'))
			i++;
		if (i < len && (text[i] == '#' || text[i] == ';' || text[i] == '\n')) {
			while (i < len && text[i] != '\n')
				i++;
			i++;
			continue;
		}
		return i < len && text[i] == '[';
	}
	return false;
}

/* "FILE: N errors", after the errors themselves. */
static void report_count(const struct diag *d)
{
	fprintf(d->out, "%s: %d error%s", d->filename, d->errors,
		d->errors == 1 ? "" : "s");
	if (d->errors > d->max_errors)
		fprintf(d->out, " (the first %d shown)", d->max_errors);
	fputc('\n', d->out);
}

int frontend_compile(const struct frontend_input *in,
		     struct frontend_result *out)
{
	struct compile_options opts = in->compile;
	struct compile_builtin builtins[COMPILE_NBUILTINS];
	char host[256];
	struct diag d;

	memset(out, 0, sizeof(*out));
	if (load_text(in, out) < 0) {
		out->errors = 1;
		return 1;
	}
	diag_init(&d, in->path, out->text, out->len, in->err);
	ast_parse(in->path, out->text, out->len, &d, &out->script);
	out->parsed = true;

	opts.defines = parse_defines(in, &out->script, &d);
	opts.ndefines = in->ndefines;
	default_builtins(in, &opts, builtins, host, sizeof(host));
	if (d.errors == 0)
		compile_script(&out->script, &opts, &d, &out->plan);
	free(opts.defines);

	out->errors = d.errors;
	out->warnings = d.warnings;
	if (d.errors && looks_like_fio(out->text, out->len))
		fprintf(in->err, "%s: note: this looks like an fio job file, read as "
			"WML: name it .fio, .job or .ini to run it (flowbench run "
			"job.fio), or see its WML with flowbench import-fio %s\n",
			in->path, in->path);
	if (d.errors)
		report_count(&d);
	return d.errors;
}

void frontend_free(struct frontend_result *out)
{
	plan_free(&out->plan);
	if (out->parsed)
		ast_script_free(&out->script);
	free(out->read_text);
	memset(out, 0, sizeof(*out));
}
