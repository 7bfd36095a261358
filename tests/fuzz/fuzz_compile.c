/*
 * fuzz_compile.c - libFuzzer target for the WML front end.
 *
 * Feeds each input through what `flowbench check` does with a file: the
 * front end's one entry, frontend_compile() (scanner and parser, the -D
 * value parser, the compiler), and frees everything.  A crash, a
 * sanitizer report, a leak or a hang here is a bug a user could trigger
 * with a workload file.
 *
 * Nothing is executed: no run, no `system` (allow_system stays false),
 * no file is opened.  Diagnostics go to a stream that discards them.
 *
 * A first line "# -D NAME=VALUE" (a comment to the parser) is also given
 * to the front end as a command-line define, split by the command line's
 * own cli_split_define(), so the fuzzer reaches the -D value parser and
 * the override path too.  Every input also goes through `flowbench
 * import-fio` (fio job parser and WML writer), the other front end, and
 * the WML it writes is compiled through frontend_compile() like a file.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli/cli.h"
#include "flowops/registry.h"
#include "lang/fio/import.h"
#include "lang/frontend.h"

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
 * "# -D NAME=VALUE" on the first line: split as the command line splits
 * -D.  Returns 1 with def->name malloc'ed and def->value pointing into
 * the malloc'ed *line, 0 when the first line is not such a define.
 */
static int first_line_define(const char *src, size_t len, char **line,
			     struct frontend_define *def)
{
	static const char tag[] = "# -D ";
	const char *p, *nl;

	if (len < sizeof(tag) - 1 || memcmp(src, tag, sizeof(tag) - 1) != 0)
		return 0;
	p = src + sizeof(tag) - 1;
	nl = memchr(p, '\n', len - (size_t)(p - src));
	if (!nl)
		nl = src + len;
	*line = strndup(p, (size_t)(nl - p));
	if (!*line)
		abort();
	if (cli_split_define(*line, def) == 0)
		return 1;
	free(*line);
	*line = NULL;
	return 0;
}

/* `text` (NUL at text[len]) through the front end, as `check` would. */
static void compile_text(const char *name, const char *text, size_t len,
			 const struct frontend_define *defs, int ndefs,
			 FILE *out)
{
	struct frontend_input in = {
		.path = name, .text = text, .len = len,
		.defines = defs, .ndefines = ndefs,
		.compile = { .registry = &flowops_registry, .seed = 1,
			     .allow_system = false },
		.err = out,
	};
	struct frontend_result fe;

	frontend_compile(&in, &fe);
	frontend_free(&fe);
}

/* The fio job's WML, compiled when import-fio accepted the job. */
static void import_and_compile(const char *source, size_t size, FILE *out)
{
	char *wml = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&wml, &len);
	int status;

	if (!mem)
		abort();
	status = fio_import("fuzz.fio", source, size, mem, out);
	if (fclose(mem) != 0)
		abort();
	if (status == 0)
		compile_text("fuzz.fio.f", wml, len, NULL, 0, out);
	free(wml);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct frontend_define def = { 0 };
	char *source, *line = NULL;
	FILE *out = open_discard();
	int ndefs;

	/* as frontend_read() gives it: the text, NUL-terminated */
	source = malloc(size + 1);
	if (!source)
		abort();
	memcpy(source, data, size);
	source[size] = '\0';

	ndefs = first_line_define(source, size, &line, &def);
	compile_text("fuzz.f", source, size, &def, ndefs, out);
	import_and_compile(source, size, out);

	free((char *)def.name);
	free(line);
	free(source);
	fclose(out);
	return 0;
}
