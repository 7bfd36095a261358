/*
 * fuzz_compile.c - libFuzzer target for the WML front end.
 *
 * Feeds each input through what `flowbench check` does with a file:
 * ast_parse (scanner and parser), the -D value parser, then
 * compile_script, and frees everything.  A crash, a sanitizer report, a
 * leak or a hang here is a bug a user could trigger with a workload file.
 *
 * Nothing is executed: no run, no `system` (allow_system stays false),
 * no file is opened.  Diagnostics go to a stream that discards them.
 *
 * A first line "# -D NAME=VALUE" (a comment to the parser) is also given
 * to the compiler as a command-line define, so the fuzzer reaches the -D
 * value parser and the override path too.  Every input also goes through
 * `flowbench import-fio` (fio job parser and WML writer), the other front
 * end, its output discarded.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "lang/ast.h"
#include "lang/parse.h"
#include "lang/compile.h"
#include "plan/diag.h"
#include "lang/fio_import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The write side of the discarding stream: accept everything. */
static ssize_t discard_write(void *cookie, const char *buf, size_t n)
{
	(void)cookie;
	(void)buf;
	return (ssize_t)n;
}

static FILE *open_discard(void)
{
	cookie_io_functions_t io = { .write = discard_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		abort();
	return f;
}

/*
 * "# -D NAME=VALUE" on the first line: split it like cli.c's add_define
 * (a leading '$' on NAME is dropped).  Returns 1 with malloc'ed *name and
 * *value, 0 when the first line is not such a define.
 */
static int first_line_define(const char *src, size_t len, char **name,
			     char **value)
{
	static const char tag[] = "# -D ";
	const char *p, *nl, *eq;

	if (len < sizeof(tag) - 1 || memcmp(src, tag, sizeof(tag) - 1) != 0)
		return 0;
	p = src + sizeof(tag) - 1;
	nl = memchr(p, '\n', len - (size_t)(p - src));
	if (!nl)
		nl = src + len;
	eq = memchr(p, '=', (size_t)(nl - p));
	if (!eq || eq == p)
		return 0;
	if (*p == '$')
		p++;
	*name = strndup(p, (size_t)(eq - p));
	*value = strndup(eq + 1, (size_t)(nl - eq - 1));
	if (!*name || !*value)
		abort();
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct compile_options copts = { .seed = 1, .allow_system = false };
	struct compile_define def = { 0 };
	struct ast_script script;
	struct plan plan;
	struct diag d;
	char *source, *name = NULL, *value = NULL;
	FILE *out = open_discard();

	/* as srcfile_read() gives it: the text, NUL-terminated */
	source = malloc(size + 1);
	if (!source)
		abort();
	memcpy(source, data, size);
	source[size] = '\0';

	diag_init(&d, "fuzz.f", source, size, out);
	ast_parse("fuzz.f", source, size, &d, &script);

	if (first_line_define(source, size, &name, &value)) {
		struct diag dd;

		diag_init(&dd, "-D fuzz", NULL, 0, out);
		def.name = name;
		def.value = ast_parse_value("-D fuzz", value, &dd, &script.arena);
		if (!def.value || dd.errors)
			d.errors++;
		copts.defines = &def;
		copts.ndefines = 1;
	}

	if (d.errors == 0) {
		compile_script(&script, &copts, &d, &plan);
		plan_free(&plan);
	}

	ast_script_free(&script);
	fio_import("fuzz.fio", source, size, out, out);
	free(name);
	free(value);
	free(source);
	fclose(out);
	return 0;
}
