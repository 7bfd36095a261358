/*
 * fio_import.c - writing the WML workload for a parsed fio job file
 * (`flowbench import-fio`): the entry points, and the helpers the
 * planner (fio_plan.c) and the writer (fio_write.c) share (fio_emit.h).
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

#include <ctype.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

/* Room for element n of an array of n: the capacity doubles each time n
 * reaches a power of two, so n additions cost linear time. */
void *fio_grow(void *p, int n, size_t size)
{
	void *np;

	if (n & (n - 1))
		return p;
	np = xreallocarray(p, n ? 2 * (size_t)n : 1, size);
	return np;
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const struct keyed *)a)->key, ((const struct keyed *)b)->key);
}

/*
 * The entry of `key` in the tree `*root` (glibc's balanced tsearch: a
 * lookup costs log n whatever the keys, so a job file of many jobs is
 * translated in n log n), NULL if absent.
 */
struct keyed *fio_lookup(void *const *root, const char *key)
{
	struct keyed probe = { key, 0 };
	struct keyed **found = tfind(&probe, root, entry_cmp);

	return found ? *found : NULL;
}

/* Add `key` (copied) with `val`; it must not be there yet. */
struct keyed *fio_insert(struct emit *e, void **root, const char *key, int val)
{
	struct keyed *n = arena_new(&e->a, struct keyed);

	n->key = arena_strdup(&e->a, key);
	n->val = val;
	if (!tsearch(n, root, entry_cmp))
		oom_exit();
	return n;
}

void fio_no_free(void *p)
{
	(void)p;
}

/*
 * A WML word made of `raw`: other characters become '_', and a name
 * starting with something else than a letter or '_' gets `prefix`, as
 * does one the scanner would read as a boolean (true, false).  A name
 * given already gets "-2", "-3", ...: the next one to try is kept with
 * each name, so n jobs of the same name cost n lookups, not n^2.
 */
const char *fio_unique_name(struct emit *e, const char *raw, const char *prefix)
{
	char base[80], cand[96];
	struct keyed *first;
	size_t n = 0;

	if ((!isalpha((unsigned char)raw[0]) && raw[0] != '_') ||
	    strcmp(raw, "true") == 0 || strcmp(raw, "false") == 0)
		n = (size_t)snprintf(base, sizeof(base), "%s", prefix);
	for (const char *p = raw; *p && n < sizeof(base) - 1; p++)
		base[n++] = isalnum((unsigned char)*p) || strchr("_.-", *p) ? *p : '_';
	base[n] = '\0';
	first = fio_lookup(&e->names, base);
	if (!first)
		return fio_insert(e, &e->names, base, 2)->key;
	for (;;) {
		snprintf(cand, sizeof(cand), "%s-%d", base, first->val++);
		if (!fio_lookup(&e->names, cand))
			return fio_insert(e, &e->names, cand, 2)->key;
	}
}

/* The index of directory `dir`'s variable, adding it if new. */
int fio_dir_index(struct emit *e, const char *dir)
{
	struct keyed *d = fio_lookup(&e->dir_index, dir);

	if (d)
		return d->val;
	e->dirs = fio_grow(e->dirs, e->ndirs, sizeof(*e->dirs));
	e->dirs[e->ndirs] = fio_insert(e, &e->dir_index, dir, e->ndirs)->key;
	return e->ndirs++;
}

/* "$dir" for the first directory, then "$dir2", "$dir3", ... */
void fio_print_dir_var(const struct emit *e, int i)
{
	if (i == 0)
		fprintf(e->out, "$dir");
	else
		fprintf(e->out, "$dir%d", i + 1);
}

/* A size as WML writes it: 20g, 4k, 1536. */
const char *fio_wml_size(char *buf, size_t n, uint64_t v)
{
	static const char sfx[] = "tgmk";

	for (int i = 0; i < 4; i++) {
		int shift = 10 * (4 - i);

		if (v && v % ((uint64_t)1 << shift) == 0) {
			snprintf(buf, n, "%llu%c", (unsigned long long)(v >> shift), sfx[i]);
			return buf;
		}
	}
	snprintf(buf, n, "%llu", (unsigned long long)v);
	return buf;
}

/* A signed size for WML (stride): fio_wml_size() of |v|, with a '-' if negative. */
const char *fio_signed_size(char *buf, size_t n, int64_t v)
{
	if (n < 2)
		return "";
	buf[0] = '-';
	fio_wml_size(buf + (v < 0), n - 1, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
	return buf;
}

/*
 * A WML quoted string: \, " and $ escaped, newline and tab as \n and \t.
 * Only an unescaped '"' ends a WML string, so nothing inside can become
 * a statement (and the parser refuses other control characters in paths).
 */
void fio_print_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '\n' || *s == '\t') {
			fprintf(out, "\\%c", *s == '\n' ? 'n' : 't');
			continue;
		}
		if (*s == '\\' || *s == '"' || *s == '$')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/*
 * Text from the job file (a job name, an option line) or its file name,
 * made fit for a WML comment.  A comment ends at a newline, so a newline
 * copied as is would start a live statement (`system ...`): every control
 * character is shown as \n, \r, \t or \xNN instead, and '\' as "\\" so
 * that the escapes cannot be confused with the text.  Bytes from 0x80 on
 * (UTF-8 names) are kept.
 */
const char *fio_commented(struct emit *e, const char *s)
{
	size_t n = strlen(s);
	char *buf = arena_alloc(&e->a, 4 * n + 1), *p = buf;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\\')
			p += sprintf(p, "\\\\");
		else if (c == '\n' || c == '\r' || c == '\t')
			p += sprintf(p, "\\%c", c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
		else if (c < 0x20 || c == 0x7f)
			p += sprintf(p, "\\x%02x", c);
		else
			*p++ = (char)c;
	}
	*p = '\0';
	return buf;
}

/*
 * Microseconds as WML seconds: "30", "0.5", "1234.000001".  Digits and
 * at most one '.', never an exponent (the WML scanner reads no "1e+06"),
 * and exact: the scanner reads back the same number of microseconds.
 */
const char *fio_wml_seconds(char *buf, size_t n, uint64_t us)
{
	unsigned long long whole = us / 1000000, frac = us % 1000000;
	int digits = 6;

	if (!frac) {
		snprintf(buf, n, "%llu", whole);
		return buf;
	}
	for (; frac % 10 == 0; frac /= 10)
		digits--;
	snprintf(buf, n, "%llu.%0*llu", whole, digits, frac);
	return buf;
}

const char *const fio_engine_text[] = {
	[FIO_SYNC] = "sync", [FIO_PSYNC] = "psync", [FIO_LIBAIO] = "libaio",
	[FIO_IO_URING] = "io_uring", [FIO_POSIXAIO] = "posixaio",
	[FIO_VSYNC] = "vsync", [FIO_PVSYNC] = "pvsync", [FIO_PVSYNC2] = "pvsync2",
};

/* The engines that do one I/O per system call, iodepth or not. */
bool fio_sync_engine(int engine)
{
	return engine != FIO_LIBAIO && engine != FIO_IO_URING &&
	       engine != FIO_POSIXAIO;
}

/*
 * libaio (and posixaio) on a buffered file: Linux's native AIO is
 * asynchronous only with O_DIRECT (io_submit does buffered I/O before it
 * returns), so fio's job does one I/O at a time whatever its iodepth.
 * io_uring runs buffered I/O asynchronously and keeps its depth.
 */
bool fio_buffered_aio(const struct fio_opts *o)
{
	return (o->engine == FIO_LIBAIO || o->engine == FIO_POSIXAIO) && !o->direct;
}

long long fio_gcd(long long a, long long b)
{
	while (b) {
		long long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

bool fio_is_write(int rw)
{
	return rw == FIO_WRITE || rw == FIO_RANDWRITE;
}

bool fio_is_mixed(int rw)
{
	return rw == FIO_RW || rw == FIO_RANDRW;
}

/* The smallest and the largest I/O size of a job: bs, or bssplit's
 * sizes that have a share of the I/Os. */
uint64_t fio_bs_extreme(const struct fio_opts *o, bool largest)
{
	uint64_t r = o->nbss ? 0 : o->bs;

	for (int i = 0; i < o->nbss; i++)
		if (o->bss[i].pct && (!r || (largest ? o->bss[i].size > r :
					     o->bss[i].size < r)))
			r = o->bss[i].size;
	return r;
}

uint64_t fio_gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/* Writes per fsync: fsync=N or fdatasync=N (both is an error), 0: none. */
long long fio_fsync_every(const struct fio_opts *o)
{
	return o->fsync ? o->fsync : o->fdatasync;
}

const char *fio_fsync_name(const struct fio_opts *o)
{
	return o->fsync || !o->fdatasync ? "fsync" : "fdatasync";
}

/* Where option `id` of job `s` was set: its line, or the section's. */
struct src_loc fio_opt_loc(const struct fio_section *s, enum fio_opt id)
{
	if (s->opts.given & FIO_BIT(id))
		return s->opts.at[id];
	return (struct src_loc){ s->line, 1 };
}

static int emit_all(struct emit *e, const struct fio_jobfile *jf,
		    const char *source_name)
{
	uint64_t runtime_us;
	bool alldone;
	char b[32];
	int j = 0, rated, exitall;
	struct fio_section *sec;

	e->njobs = jf->njobs;
	e->jobs = xcalloc((size_t)jf->njobs, sizeof(*e->jobs));
	/* the jobs' own copies, which --lenient may drop options of */
	sec = arena_alloc(&e->a, (size_t)jf->njobs * sizeof(*sec));
	for (int i = 0; i < jf->nsections; i++) {
		if (jf->sections[i].global)
			continue;
		e->jobs[j].s = &sec[j];
		sec[j] = jf->sections[i];
		e->jobs[j].lo = &sec[j].opts;
		fio_plan_job(e, &e->jobs[j], j);
		j++;
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
	struct emit e = { .d = d, .out = out, .lenient = jf->lenient };
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

int fio_import_lenient(const char *source_name, const char *text, size_t len,
		       FILE *out, FILE *err, bool lenient)
{
	struct fio_jobfile jf;
	struct diag d;
	char *buf = NULL;
	size_t n = 0;
	FILE *mem;
	int status = 1;

	diag_init(&d, source_name, text, len, err);
	/* into memory first: nothing is printed unless all of it is right */
	mem = open_memstream(&buf, &n);
	if (!mem)
		oom_exit();
	if (fio_parse_ex(text, len, &d, &jf, lenient) == 0 &&
	    fio_emit(&jf, source_name, &d, mem) == 0)
		status = 0;
	fclose(mem);
	if (status == 0)
		fwrite(buf, 1, n, out);
	else
		fprintf(err, "%s: %d error%s\n", source_name, d.errors,
			d.errors == 1 ? "" : "s");
	free(buf);
	fio_jobfile_free(&jf);
	return status;
}
