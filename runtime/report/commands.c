/*
 * commands.c - the two subcommands that read results files: everything
 * between the parsed command line and compare.c / html.c (loading every
 * file first, so that one bad file fails before any output).
 */
#include "runtime/report/commands.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/report/compare.h"
#include "runtime/report/html.h"
#include "runtime/report/load.h"

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

int cmd_report(char *const *files, int nfiles, const char *output, FILE *err)
{
	struct rf_doc *docs = load_all(files, nfiles, err);
	char *tmp = NULL;
	int status = 1, fd;
	FILE *out = NULL;
	bool bad;

	if (!docs)
		return 1;
	if (asprintf(&tmp, "%s.tmp.XXXXXX", output) < 0) {
		tmp = NULL;
		fprintf(err, "flowbench: out of memory\n");
		goto done;
	}
	fd = mkstemp(tmp);
	if (fd < 0 || !(out = fdopen(fd, "w"))) {
		fprintf(err, "flowbench: report: cannot create '%s': %s\n", tmp,
			strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		goto done;
	}
	fchmod(fd, 0644);       /* a page to publish, not a secret */
	errno = 0;
	bad = html_report(out, docs, nfiles) < 0;
	if (fclose(out) != 0)
		bad = true;
	if (bad) {
		fprintf(err, "flowbench: report: cannot write '%s': %s\n", output,
			strerror(errno ? errno : EIO));
		unlink(tmp);
		goto done;
	}
	if (rename(tmp, output) < 0) {
		fprintf(err, "flowbench: report: cannot rename '%s' to '%s': %s\n",
			tmp, output, strerror(errno));
		unlink(tmp);
		goto done;
	}
	status = 0;
done:
	free(tmp);
	free_all(docs, nfiles);
	return status;
}
