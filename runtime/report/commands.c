/*
 * commands.c - the two subcommands that read results files: everything
 * between the parsed command line and compare.c / html.c (loading every
 * file first, so that one bad file fails before any output).
 */
#include "runtime/report/commands.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/interrupt.h"
#include "runtime/report/compare.h"
#include "runtime/report/html.h"
#include "runtime/report/load.h"
#include "runtime/report/outfile.h"

/* The loaded documents, as one argument for write_page(). */
struct rf_docs {
	struct rf_doc *docs;
	int n;
};

static struct rf_doc *load_all(char *const *files, int nfiles, FILE *err)
{
	struct rf_doc *docs = calloc((size_t)nfiles, sizeof(*docs));

	if (!docs) {
		fprintf(err, "flowbench: out of memory\n");
		return NULL;
	}
	for (int i = 0; i < nfiles; i++) {
		if (rf_load(files[i], &docs[i], err) < 0) {
			for (int k = 0; k < i; k++)
				rf_free(&docs[k]);
			free(docs);
			return NULL;
		}
	}
	return docs;
}

static void free_all(struct rf_doc *docs, int ndocs)
{
	for (int i = 0; i < ndocs; i++)
		rf_free(&docs[i]);
	free(docs);
}

int cmd_compare(char *const *files, int nfiles, const char *format,
		FILE *out, FILE *err)
{
	enum cmp_format fmt;
	struct rf_doc *docs;
	int status = 0;

	if (cmp_format_parse(format, &fmt) < 0) {
		fprintf(err, "flowbench: compare --format is text, markdown or csv, not '%s'\n",
			format);
		return 2;
	}
	docs = load_all(files, nfiles, err);
	if (!docs)
		return 1;
	if (compare_print(out, docs, nfiles, fmt) < 0) {
		fprintf(err, "flowbench: compare: cannot write the table: %s\n",
			strerror(errno ? errno : EIO));
		status = 1;
	}
	free_all(docs, nfiles);
	return status;
}

/* html_report() in outfile_prepare()'s shape. */
static int write_page(FILE *f, const void *arg)
{
	const struct rf_docs *d = arg;

	return html_report(f, d->docs, d->n);
}

/* interrupt_on_exit()'s cleanup: async-signal-safe. */
static void discard_page(void *arg)
{
	outfile_discard_async(arg);
}

/* -o naming one of the inputs would replace a results file by the page. */
static bool output_is_input(const char *output, char *const *files, int nfiles,
			    FILE *err)
{
	struct stat out, in;

	if (stat(output, &out) < 0)
		return false;
	for (int i = 0; i < nfiles; i++) {
		if (stat(files[i], &in) == 0 && in.st_dev == out.st_dev &&
		    in.st_ino == out.st_ino) {
			fprintf(err, "flowbench: report: refusing to write the page over its input %s\n",
				files[i]);
			return true;
		}
	}
	return false;
}

/*
 * The page goes where -o says, only over a regular file or nothing
 * (outfile.h), and never over one of its inputs, checked before the
 * inputs are read.  An interrupt while it
 * is written abandons it: the temporary file is removed, the old page
 * kept, the status 128 + signal.
 */
int cmd_report(char *const *files, int nfiles, const char *output, FILE *err)
{
	struct rf_docs d = { NULL, nfiles };
	struct outfile o = { .dirfd = -1 };
	sigset_t old;
	int status = 1, prepared;

	if (outfile_check("the report", output) < 0 ||
	    output_is_input(output, files, nfiles, err))
		return 1;
	d.docs = load_all(files, nfiles, err);
	if (!d.docs)
		return 1;
	interrupt_install();
	interrupt_on_exit(discard_page, &o, NULL);
	/* a page to publish, not a secret: 0644 */
	prepared = outfile_prepare(&o, "the report", output, 0644, ".flowbench-report.",
				   write_page, &d);
	interrupt_hold(&old);
	if (interrupt_signal())
		status = interrupt_status();
	else if (prepared == 0 && outfile_commit(&o) == 0)
		status = 0;
	interrupt_on_exit(NULL, NULL, NULL);
	interrupt_settle(status);
	interrupt_release(&old);
	if (status > 1)
		fprintf(err, "flowbench: report: interrupted: %s not written\n", output);
	outfile_close(&o);      /* removes the temporary file if not renamed */
	free_all(d.docs, nfiles);
	return status;
}
