/*
 * commands.c - the two subcommands that read results files: everything
 * between the parsed command line and compare.c / html.c (loading every
 * file first, so that one bad file fails before any output).
 */
#include "compare/commands.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/base/interrupt.h"
#include "runtime/base/log.h"
#include "compare/compare.h"
#include "compare/gate.h"
#include "compare/html.h"
#include "compare/load.h"
#include "compare/tools.h"
#include "runtime/results/outfile.h"

/* The loaded documents, as one argument for write_page(). */
struct rf_docs {
	struct rf_doc *docs;
	int n;
};

/*
 * One job over the files of a command, a thread per CPU: parsing a
 * results file of 50,000 flowops takes jansson half a second and freeing
 * it a tenth, and the files are independent (jansson keeps no shared
 * state between documents).  Threads take the next file from a counter.
 */
struct per_file {
	void (*fn)(struct per_file *job, int i);
	char *const *files;
	struct rf_doc *docs;
	char **msgs;               /* each file's error text, or NULL */
	int nfiles;
	_Atomic int next;
	_Atomic int failed;
};

static void *per_file_worker(void *arg)
{
	struct per_file *job = arg;
	int i;

	while ((i = atomic_fetch_add(&job->next, 1)) < job->nfiles)
		job->fn(job, i);
	return NULL;
}

static void for_each_file(struct per_file *job)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int n = job->nfiles < ncpu ? job->nfiles : ncpu < 1 ? 1 : (int)ncpu;
	pthread_t tids[64];
	int started = 0;

	atomic_store(&job->next, 0);
	if (n > 64)
		n = 64;
	while (started < n - 1 &&
	       pthread_create(&tids[started], NULL, per_file_worker, job) == 0)
		started++;
	per_file_worker(job);
	for (int t = 0; t < started; t++)
		pthread_join(tids[t], NULL);
}

/* Load file i; its error text, if any, is kept for printing in order. */
static void load_one(struct per_file *job, int i)
{
	size_t len;
	FILE *msg = open_memstream(&job->msgs[i], &len);

	if (rf_load(job->files[i], &job->docs[i], msg ? msg : stderr) < 0)
		atomic_store(&job->failed, 1);
	if (msg)
		fclose(msg);
}

static void free_one(struct per_file *job, int i)
{
	rf_free(&job->docs[i]);
}

static void free_all(struct rf_doc *docs, int ndocs)
{
	struct per_file job = { .fn = free_one, .docs = docs, .nfiles = ndocs };

	for_each_file(&job);
	free(docs);
}

/* Every file loaded; errors printed in the order of the files.  NULL if any failed. */
static struct rf_doc *load_all(char *const *files, int nfiles, FILE *err)
{
	struct per_file job = { .fn = load_one, .files = files, .nfiles = nfiles };

	job.docs = calloc((size_t)nfiles, sizeof(*job.docs));
	job.msgs = calloc((size_t)nfiles, sizeof(*job.msgs));
	if (!job.docs || !job.msgs) {
		log_error_to(err, "out of memory");
		free(job.docs);
		free(job.msgs);
		return NULL;
	}
	json_object_seed(0);        /* jansson's hash seed, before any thread */
	for_each_file(&job);
	for (int i = 0; i < nfiles; i++) {
		if (job.msgs[i])
			fputs(job.msgs[i], err);
		free(job.msgs[i]);
	}
	free(job.msgs);
	if (atomic_load(&job.failed)) {
		free_all(job.docs, nfiles);
		return NULL;
	}
	if (rf_tools_align(job.docs, nfiles) < 0) {
		log_error_to(err, "out of memory");
		free_all(job.docs, nfiles);
		return NULL;
	}
	return job.docs;
}

static bool output_is_input(const char *output, char *const *files, int nfiles,
			    FILE *err);

/* gate_write_junit() in outfile_prepare()'s shape. */
struct junit_arg {
	const struct gate_result *res;
	const struct rf_doc *docs;
	int ndocs;
};

static int write_junit(FILE *f, const void *arg)
{
	const struct junit_arg *j = arg;

	return gate_write_junit(f, j->res, j->docs, j->ndocs);
}

/* The JUnit file, written whole or not at all (outfile.h).  0 or -1 (said). */
static int junit_file(const char *path, const struct gate_result *res,
		      const struct rf_doc *docs, int ndocs)
{
	struct junit_arg j = { res, docs, ndocs };
	struct outfile o = { .dirfd = -1 };
	int rc = -1;

	if (outfile_prepare(&o, "the JUnit report", path, 0644, ".flowbench-junit.",
			    write_junit, &j) == 0 && outfile_commit(&o) == 0)
		rc = 0;
	outfile_close(&o);
	return rc;
}

int compare_command(const struct compare_request *rq, FILE *out, FILE *err)
{
	struct gate_rules rules = { 0 };
	struct gate_result res = { 0 };
	enum cmp_format fmt;
	struct rf_doc *docs;
	int status = 0;

	if (cmp_format_parse(rq->format, &fmt) < 0) {
		log_error_to(err, "compare --format is text, markdown or csv, not '%s'",
			rq->format);
		return 2;
	}
	if (gate_rules_parse(&rules, rq->thresholds, rq->nthresholds, err) < 0 ||
	    (rq->junit && (outfile_check("the JUnit report", rq->junit) < 0 ||
			   output_is_input(rq->junit, rq->files, rq->nfiles, err)))) {
		gate_rules_free(&rules);
		return 2;
	}
	docs = load_all(rq->files, rq->nfiles, err);
	if (!docs) {
		gate_rules_free(&rules);
		return 2;
	}
	if (gate_judge(&rules, docs, rq->nfiles, &res) < 0) {
		log_error_to(err, "out of memory");
		status = 2;
	}
	if (status == 0 && fmt == CMP_MARKDOWN)
		gate_print_markdown(out, &rules, &res, docs);
	if (status == 0 && compare_print(out, docs, rq->nfiles, fmt) < 0) {
		log_error_to(err, "compare: cannot write the table: %s",
			strerror(errno ? errno : EIO));
		status = 2;
	}
	if (status == 0 && fmt == CMP_TEXT)
		gate_print_text(out, &rules, &res, docs);
	if (status == 0 && (fflush(out) != 0 || ferror(out))) {
		log_error_to(err, "compare: cannot write the verdict: %s",
			strerror(errno ? errno : EIO));
		status = 2;
	}
	if (status == 0 && rq->junit && junit_file(rq->junit, &res, docs, rq->nfiles) < 0)
		status = 2;
	if (status == 0 && res.regressions)
		status = 1;
	gate_result_free(&res);
	gate_rules_free(&rules);
	free_all(docs, rq->nfiles);
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
			log_error_to(err, "report: refusing to write the page over its input %s",
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
int report_command(char *const *files, int nfiles, const char *output, FILE *err)
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
		log_error_to(err, "report: interrupted: %s not written", output);
	outfile_close(&o);      /* removes the temporary file if not renamed */
	free_all(d.docs, nfiles);
	return status;
}
