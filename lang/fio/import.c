/*
 * import.c - writing the WML workload for a parsed fio job file
 * (`flowbench import-fio`): the entry points, which parse the job file
 * (parse.c), plan every job (plan.c), then write the WML (write.c).
 *
 * Each fio job becomes a process definition (numjobs process instances,
 * or with `thread` numjobs thread instances) whose one thread loops over
 * read/write flowops on the job's file: a `define file` for `filename`
 * (shared by the jobs that name the same path), or a fileset of
 * numjobs x nrfiles files in `directory`, as fio's per-clone files.  The
 * sizes and counts become variables ($filesize, $iosize, $nthreads,
 * $iodepth, $dir, $runtime) so that -D can scale the workload.  Whatever
 * does not behave exactly as in fio is said in a comment next to it; the
 * mapping table is docs/import-fio.md.
 *
 * The job file is hostile input: products of its values are checked,
 * numbers are written as WML reads them back, and what is copied from it
 * into comments has its control characters escaped, so that no name or
 * line can end a comment and start a statement.
 */
#include "lang/fio/import.h"
#include "lang/fio/emit.h"
#include "plan/oom.h"

#include <search.h>
#include <stdlib.h>

static int emit_all(struct emit *e, const struct fio_jobfile *jf,
		    const char *source_name)
{
	uint64_t runtime_us;
	bool alldone;
	char b[32];
	int j = 0, rated, exitall;
	struct fio_section *sec;

	/* offset_increment's clones are jobs of their own (layout.c) */
	e->njobs = 0;
	for (int i = 0; i < jf->nsections; i++)
		e->njobs += jf->sections[i].global ? 0 : fio_clones_to_split(&jf->sections[i]);
	e->jobs = xcalloc((size_t)e->njobs, sizeof(*e->jobs));
	/* the jobs' own copies, which --lenient may drop options of */
	sec = arena_alloc(&e->a, (size_t)e->njobs * sizeof(*sec));
	for (int i = 0; i < jf->nsections; i++) {
		int n = jf->sections[i].global ? 0 : fio_clones_to_split(&jf->sections[i]);

		for (int k = 0; k < n; k++) {
			if (n > 1)
				fio_split_clone(e, &jf->sections[i], k, &sec[j]);
			else
				sec[j] = jf->sections[i];
			e->jobs[j].s = &sec[j];
			e->jobs[j].lo = &sec[j].opts;
			e->jobs[j].clone = k;
			e->jobs[j].nclones = n;
			e->jobs[j].first_clone = j - k;
			fio_plan_job(e, &e->jobs[j], j);
			j++;
		}
	}
	if (e->d->errors || fio_plan_phases(e) < 0 ||
	    fio_plan_run_time(e, &runtime_us, &alldone) < 0 || fio_plan_rate(e, &rated) < 0 ||
	    (exitall = fio_plan_exitall(e)) < 0)
		return -1;
	fio_emit_header(e, jf, source_name);
	if (exitall)
		fprintf(e->out, "# exitall: the run ends when the first thread is "
			"done (finishonbytes, finishoncount), as fio ends every job "
			"when one ends; time-based jobs end together at the run "
			"time\nset mode quit firstdone\n");
	else if (alldone)
		fprintf(e->out, "# jobs without time_based (or with number_ios, or "
			"their own runtime) end by themselves: the run ends when every "
			"thread is done\nset mode quit alldone\n");
	for (int i = 0; i < e->njobs; i++)
		fio_emit_job(e, &e->jobs[i], i);
	fputc('\n', e->out);
	if (rated >= 0)
		fio_emit_rate(e, rated);
	for (int i = 0; i < e->njobs; i++) {
		if (e->jobs[i].s->opts.ramp_us) {
			fio_emit_ramp_note(e, e->jobs[i].s->opts.ramp_us);
			break;
		}
	}
	if (e->phases) {
		fprintf(e->out, "# run phases: each job starts after the jobs it waits "
			"for and stops at its own runtime or after its bytes; 0: the run "
			"ends when every job has ended (set mode quit alldone)\n"
			"set $runtime=0\n");
	} else if (runtime_us) {
		fio_wml_seconds(b, sizeof(b), runtime_us);
		fprintf(e->out, "# fio runtime=%s s%s\nset $runtime=%s\n", b,
			alldone ? ": the longest the run lasts" : "", b);
	} else {
		fprintf(e->out, "# no runtime: 0 runs until %s\nset $runtime=0\n",
			exitall ? "the first thread is done" :
			"every job has done its bytes");
	}
	fprintf(e->out, "run $runtime\n");
	return 0;
}

int fio_emit(const struct fio_jobfile *jf, const char *source_name,
	     struct diag *d, FILE *out)
{
	struct emit e = { .d = d, .out = out, .lenient = jf->lenient, .jf = jf };
	int errs = d->errors;

	arena_init(&e.a);
	emit_all(&e, jf, source_name);
	free(e.jobs);
	free(e.files);
	free(e.dirs);
	tdestroy(e.names, fio_no_free);
	tdestroy(e.dir_index, fio_no_free);
	tdestroy(e.file_index, fio_no_free);
	arena_free(&e.a);
	return d->errors - errs;
}

int fio_import(const char *source_name, const char *text, size_t len,
	       FILE *out, FILE *err)
{
	return fio_import_lenient(source_name, text, len, out, err, false);
}

/* Emit jf into memory, then to `out` only if all of it is right. */
static int emit_checked(struct fio_jobfile *jf, const char *name, struct diag *d,
			FILE *out, FILE *err)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *mem;
	int status = 1;

	mem = open_memstream(&buf, &n);
	if (!mem)
		oom_exit();
	if (d->errors == 0 && fio_emit(jf, name, d, mem) == 0)
		status = 0;
	fclose(mem);
	if (status == 0)
		fwrite(buf, 1, n, out);
	else
		fprintf(err, "%s: %d error%s\n", d->filename, d->errors,
			d->errors == 1 ? "" : "s");
	free(buf);
	return status;
}

int fio_import_lenient(const char *source_name, const char *text, size_t len,
		       FILE *out, FILE *err, bool lenient)
{
	struct fio_jobfile jf;
	struct diag d;
	int status;

	diag_init(&d, source_name, text, len, err);
	fio_parse_ex(text, len, &d, &jf, lenient);
	status = emit_checked(&jf, source_name, &d, out, err);
	fio_jobfile_free(&jf);
	return status;
}

/*
 * The name the output and the messages give the import: the job file's
 * when the command line is that file alone, else the command line.
 */
static const char *import_name(const struct fio_cmdline *cl, struct arena *a)
{
	const char *name = "fio";

	if (cl->nwords == 1 && cl->argv[cl->words[0]][0] != '-')
		return cl->argv[cl->words[0]];
	for (int i = 0; i < cl->nwords; i++)
		name = arena_printf(a, "%s %s", name, cl->argv[cl->words[i]]);
	return name;
}

int fio_import_cmdline(const struct fio_cmdline *cl, const struct fio_read_opts *ro,
		       FILE *out, FILE *err)
{
	struct fio_jobfile jf;
	struct arena a;
	struct diag d;
	const char *name;
	int status;

	arena_init(&a);
	name = import_name(cl, &a);
	diag_init(&d, cl->nwords == 1 && name == cl->argv[cl->words[0]] ? name :
		  "the fio command line", NULL, 0, err);
	fio_read_begin(&jf, ro, &d);
	fio_read_cmdline(&jf, cl, &d);
	fio_read_end(&jf, &d);
	status = emit_checked(&jf, name, &d, out, err);
	for (int i = 0; status == 0 && ro && ro->file_read && i < jf.nsources; i++)
		if (!jf.sources[i].argv && jf.sources[i].text)
			ro->file_read(ro->file_ctx, jf.sources[i].name,
				      jf.sources[i].text, jf.sources[i].len);
	fio_jobfile_free(&jf);
	arena_free(&a);
	return status;
}
