/*
 * fio_import.c - writing the WML workload for a parsed fio job file
 * (`flowbench import-fio`).
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
#include "lang/fio_import.h"
#include "plan/oom.h"

#include <ctype.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

/* What the emitter decided for one job. */
struct job_plan {
	const struct fio_section *s;
	struct fio_opts *lo;      /* s->opts' copy --lenient may drop options of */
	const char **dropped;     /* their NOT IMPORTED notes */
	int ndropped;
	const char *name;         /* WML name of the process, thread and prefix */
	char sfx[16];             /* variable suffix: "" or "_2" */
	int dir;                  /* index of its $dir variable */
	int file;                 /* index into files[] */
	uint64_t filesize;        /* all its files, rounded down to whole blocks */
	uint64_t iobytes;         /* bytes done before it stops (not time_based) */
	bool aio;                 /* iodepth > 1 with an asynchronous engine */
	bool random;
	long long reads, writes, fsyncs;    /* flowop iterations per pass */
	bool wrap;                /* sequential writes closed after each pass */
	char fsfx[16];            /* suffix of the $filesize it uses: its own, or
				     that of the job whose file it shares */
	bool unsized;             /* no size known: no `set $filesize` */
	bool needs_size;          /* ... and -D filesize=... must give it */
	const char *vname;        /* verify's read-back process, or NULL */
	int group;                /* fio's group: stonewall starts a new one */
	int *after;               /* jobs it starts after (indices), -1 ends */
	/* random_distribution=zoned: one flowop per range [0, end of zone
	 * `zone`) (1-based), its working set the first `ws` bytes of each
	 * file, with its iterations */
	struct zone_op { uint64_t ws; long long iters; int zone; } *zops;
	int nzops;
};

struct out_file {
	const char *name;         /* WML name */
	const char *path;         /* full path (filename) or directory */
	int dir;
	bool fileset;             /* directory mode: per-clone files */
	int job;                  /* the job that defines it */
	const char *device;       /* the device it stands for, or NULL */
};

/* A key of one of the emitter's lookup trees, with its number. */
struct keyed {
	const char *key;
	int val;
};

struct emit {
	struct arena a;
	struct diag *d;
	FILE *out;
	void *names;              /* WML names given: the next "-N" to try */
	void *dir_index;          /* directory -> index into dirs[] */
	void *file_index;         /* full path of a `filename` -> files[] */
	const char **dirs;        /* distinct directories, $dir, $dir2, ... */
	int ndirs;
	bool dir_default;         /* /tmp used where fio would use the cwd */
	struct out_file *files;
	int nfiles;
	struct job_plan *jobs;
	int njobs;
	int engine_logged;        /* the ioengine line last logged (engine_log) */
	bool lenient;             /* --lenient: no size is -D filesize= too */
	bool phases;              /* jobs start after others, late, or stop
				     at their own runtime: per-process times */
};

/* Room for element n of an array of n: the capacity doubles each time n
 * reaches a power of two, so n additions cost linear time. */
static void *grow(void *p, int n, size_t size)
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
static struct keyed *lookup(void *const *root, const char *key)
{
	struct keyed probe = { key, 0 };
	struct keyed **found = tfind(&probe, root, entry_cmp);

	return found ? *found : NULL;
}

/* Add `key` (copied) with `val`; it must not be there yet. */
static struct keyed *insert(struct emit *e, void **root, const char *key, int val)
{
	struct keyed *n = arena_new(&e->a, struct keyed);

	n->key = arena_strdup(&e->a, key);
	n->val = val;
	if (!tsearch(n, root, entry_cmp))
		oom_exit();
	return n;
}

static void no_free(void *p)
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
static const char *unique_name(struct emit *e, const char *raw, const char *prefix)
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
	first = lookup(&e->names, base);
	if (!first)
		return insert(e, &e->names, base, 2)->key;
	for (;;) {
		snprintf(cand, sizeof(cand), "%s-%d", base, first->val++);
		if (!lookup(&e->names, cand))
			return insert(e, &e->names, cand, 2)->key;
	}
}

/* The index of directory `dir`'s variable, adding it if new. */
static int dir_index(struct emit *e, const char *dir)
{
	struct keyed *d = lookup(&e->dir_index, dir);

	if (d)
		return d->val;
	e->dirs = grow(e->dirs, e->ndirs, sizeof(*e->dirs));
	e->dirs[e->ndirs] = insert(e, &e->dir_index, dir, e->ndirs)->key;
	return e->ndirs++;
}

/* "$dir" for the first directory, then "$dir2", "$dir3", ... */
static void print_dir_var(const struct emit *e, int i)
{
	if (i == 0)
		fprintf(e->out, "$dir");
	else
		fprintf(e->out, "$dir%d", i + 1);
}

/* A size as WML writes it: 20g, 4k, 1536. */
static const char *wml_size(char *buf, size_t n, uint64_t v)
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

/* A signed size for WML (stride): wml_size() of |v|, with a '-' if negative. */
static const char *signed_size(char *buf, size_t n, int64_t v)
{
	if (n < 2)
		return "";
	buf[0] = '-';
	wml_size(buf + (v < 0), n - 1, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
	return buf;
}

/*
 * A WML quoted string: \, " and $ escaped, newline and tab as \n and \t.
 * Only an unescaped '"' ends a WML string, so nothing inside can become
 * a statement (and the parser refuses other control characters in paths).
 */
static void print_quoted(FILE *out, const char *s)
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
static const char *commented(struct emit *e, const char *s)
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
static const char *wml_seconds(char *buf, size_t n, uint64_t us)
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

static const char *const engine_text[] = {
	[FIO_SYNC] = "sync", [FIO_PSYNC] = "psync", [FIO_LIBAIO] = "libaio",
	[FIO_IO_URING] = "io_uring", [FIO_POSIXAIO] = "posixaio",
	[FIO_VSYNC] = "vsync", [FIO_PVSYNC] = "pvsync", [FIO_PVSYNC2] = "pvsync2",
};

/* The engines that do one I/O per system call, iodepth or not. */
static bool sync_engine(int engine)
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
static bool buffered_aio(const struct fio_opts *o)
{
	return (o->engine == FIO_LIBAIO || o->engine == FIO_POSIXAIO) && !o->direct;
}

static long long gcd(long long a, long long b)
{
	while (b) {
		long long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static bool is_write(int rw)
{
	return rw == FIO_WRITE || rw == FIO_RANDWRITE;
}

static bool is_mixed(int rw)
{
	return rw == FIO_RW || rw == FIO_RANDRW;
}

/* The smallest and the largest I/O size of a job: bs, or bssplit's
 * sizes that have a share of the I/Os. */
static uint64_t bs_extreme(const struct fio_opts *o, bool largest)
{
	uint64_t r = o->nbss ? 0 : o->bs;

	for (int i = 0; i < o->nbss; i++)
		if (o->bss[i].pct && (!r || (largest ? o->bss[i].size > r :
					     o->bss[i].size < r)))
			r = o->bss[i].size;
	return r;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

/*
 * `$iosize`: bs, or for bssplit a tabular random variable whose rows are
 * the sizes with their shares.  min is the smallest size, so that the
 * table's own scaling (smallest low to min, its mean to its mean) is the
 * identity, and round (the sizes' gcd) keeps every sample an exact size.
 */
static void emit_iosize(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	uint64_t g = 0;
	char b[32];
	int n = 0;

	if (!o->nbss) {
		fprintf(e->out, "set $iosize%s=%s\n", jp->sfx, wml_size(b, sizeof(b), o->bs));
		return;
	}
	for (int i = 0; i < o->nbss; i++)
		if (o->bss[i].pct)
			g = gcd64(g, o->bss[i].size);
	fprintf(e->out, "set $iosize%s=randvar(type=tabular,min=%s,", jp->sfx,
		wml_size(b, sizeof(b), bs_extreme(o, false)));
	fprintf(e->out, "round=%s,randtable={", wml_size(b, sizeof(b), g));
	for (int i = 0; i < o->nbss; i++) {
		if (!o->bss[i].pct)
			continue;
		wml_size(b, sizeof(b), o->bss[i].size);
		fprintf(e->out, "%s{%d, %s, %s}", n++ ? ", " : "", o->bss[i].pct, b, b);
	}
	fprintf(e->out, "})\n");
}

/* Writes per fsync: fsync=N or fdatasync=N (both is an error), 0: none. */
static long long fsync_every(const struct fio_opts *o)
{
	return o->fsync ? o->fsync : o->fdatasync;
}

static const char *fsync_name(const struct fio_opts *o)
{
	return o->fsync || !o->fdatasync ? "fsync" : "fdatasync";
}

/* Where option `id` of job `s` was set: its line, or the section's. */
static struct src_loc opt_loc(const struct fio_section *s, enum fio_opt id)
{
	if (s->opts.given & FIO_BIT(id))
		return s->opts.at[id];
	return (struct src_loc){ s->line, 1 };
}

static int plan_device(struct emit *e, struct job_plan *jp, int index,
		       const char *dev);

/*
 * --lenient: an option of job `jp` that the workload cannot honour is
 * left out, with a NOT IMPORTED note under the job; false (the caller
 * reports the error) without --lenient.
 */
static bool drop_option(struct emit *e, struct job_plan *jp, enum fio_opt id,
			const char *name, const char *why)
{
	struct src_loc at = opt_loc(jp->s, id);

	if (!e->lenient)
		return false;
	if (!(jp->ndropped & (jp->ndropped - 1))) {
		const char **d = arena_alloc(&e->a, (size_t)(jp->ndropped ? 2 *
					     jp->ndropped : 1) * sizeof(*d));

		if (jp->ndropped)
			memcpy(d, jp->dropped, (size_t)jp->ndropped * sizeof(*d));
		jp->dropped = d;
	}
	jp->dropped[jp->ndropped++] = arena_printf(&e->a, "NOT IMPORTED: %s=%s "
						   "(line %d: %s)", name,
						   jp->s->opts.text[id], at.line, why);
	return true;
}

/* Where the job's data lives: a file shared by path, or its own fileset. */
static int plan_file(struct emit *e, struct job_plan *jp, int index)
{
	const struct fio_opts *o = &jp->s->opts;
	struct src_loc loc = { jp->s->line, 1 };
	const char *base = o->directory ? o->directory : "/tmp";
	struct out_file f = { .job = index };
	struct keyed *same;
	char *full, *slash;

	if (!o->directory && (!o->filename || o->filename[0] != '/'))
		e->dir_default = true;
	/* fio's default file is the job's name when that is a device (not a
	 * regular file) and the job has one file */
	if (!o->filename && o->nrfiles == 1 && strncmp(jp->s->name, "/dev/", 5) == 0)
		return plan_device(e, jp, index, jp->s->name);
	if (!o->filename) {
		f.fileset = true;
		f.path = base;
		f.dir = dir_index(e, base);
		f.name = unique_name(e, arena_printf(&e->a, "%s-files",
						     jp->s->name), "j");
		goto add;
	}
	if (o->nrfiles > 1) {
		diag_error(e->d, loc, "job '%s': nrfiles=%lld with filename: one "
			   "named file cannot be several (drop filename to get "
			   "per-job files in directory)", jp->s->name, o->nrfiles);
		return -1;
	}
	full = o->filename[0] == '/' ? arena_strdup(&e->a, o->filename) :
		arena_printf(&e->a, "%s/%s", base, o->filename);
	if (strncmp(full, "/dev/", 5) == 0)
		return plan_device(e, jp, index, full);
	slash = strrchr(full, '/');
	if (!slash[1]) {
		diag_error(e->d, loc, "job '%s': filename=%s names a directory",
			   jp->s->name, o->filename);
		return -1;
	}
	if ((same = lookup(&e->file_index, full))) {
		const struct fio_opts *owner =
			&e->jobs[e->files[same->val].job].s->opts;

		if (o->offset || owner->offset) {
			diag_error(e->d, opt_loc(jp->s, o->offset ? FO_OFFSET :
						 FO_FILENAME), "job '%s': offset on a "
				   "file another job uses too is not supported (flowbench "
				   "sizes the file for the job that defines it)", jp->s->name);
			return -1;
		}
		jp->file = same->val;
		jp->dir = e->files[same->val].dir;
		return 0;
	}
	f.path = insert(e, &e->file_index, full, e->nfiles)->key;
	f.name = unique_name(e, slash + 1, "f");
	f.dir = dir_index(e, slash == full ? "/" :
			  arena_strndup(&e->a, full, (size_t)(slash - full)));
add:
	e->files = grow(e->files, e->nfiles, sizeof(*e->files));
	e->files[e->nfiles] = f;
	jp->file = e->nfiles++;
	jp->dir = f.dir;
	return 0;
}

/*
 * filename=/dev/X: flowbench never writes to a device, so the job gets a
 * file of its own in its directory, named after the device, which the
 * user puts on that device's file system; a warning says so.  /dev/null
 * and /dev/zero store nothing: an error unless --lenient.  Jobs naming
 * the same device share the file.
 */
static int plan_device(struct emit *e, struct job_plan *jp, int index,
		       const char *dev)
{
	const struct fio_opts *o = &jp->s->opts;
	struct src_loc at = opt_loc(jp->s, FO_FILENAME);   /* or the section's */
	struct out_file f = { .job = index, .device = dev };
	struct keyed *same = lookup(&e->file_index, dev);
	const char *what = o->filename ? "filename=" : "the job's name (fio's file) ";

	if (!e->lenient && (strcmp(dev, "/dev/null") == 0 || strcmp(dev, "/dev/zero") == 0)) {
		diag_error(e->d, at, "job '%s': %s%s stores nothing: flowbench works "
			   "on files it creates (--lenient makes it a file like other "
			   "devices)", jp->s->name, what, dev);
		return -1;
	}
	diag_warning(e->d, at, "job '%s': %s%s is a device: flowbench writes only "
		     "files it creates, so the job runs on a file in the job's "
		     "directory (put it on that device's file system)",
		     jp->s->name, what, dev);
	if (same) {
		jp->file = same->val;
		jp->dir = e->files[same->val].dir;
		return 0;
	}
	f.path = insert(e, &e->file_index, dev, e->nfiles)->key;
	f.name = unique_name(e, strrchr(dev, '/')[1] ? strrchr(dev, '/') + 1 : "dev", "f");
	f.dir = dir_index(e, o->directory ? o->directory : "/tmp");
	if (!o->directory)
		e->dir_default = true;
	e->files = grow(e->files, e->nfiles, sizeof(*e->files));
	e->files[e->nfiles] = f;
	jp->file = e->nfiles++;
	jp->dir = f.dir;
	return 0;
}

/* a x b into *r, or an error at option `id`'s line when it passes 2^63-1 */
static int checked_mul(struct emit *e, const struct fio_section *s, enum fio_opt id,
		       uint64_t a, uint64_t b, uint64_t *r, const char *what)
{
	if (__builtin_mul_overflow(a, b, r) || *r > FIO_SIZE_MAX) {
		diag_error(e->d, opt_loc(s, id), "job '%s': %s is too large: more "
			   "than 2^63-1 bytes", s->name, what);
		return -1;
	}
	return 0;
}

/*
 * The size of the job's files and the bytes it does.  The files are
 * `filesize` each when given, else `size` shared among them; fio lays
 * them out in whole blocks, so the total is rounded down to bs x nrfiles.
 * The bytes are `size` (or size=N% of the files), times `loops`.  Every
 * product is checked: too large is an error at the option's line, never
 * a wrapped value or a division by zero.
 */
static int plan_filesize(struct emit *e, struct job_plan *jp)
{
	const struct fio_section *s = jp->s;
	const struct fio_opts *o = &s->opts;
	uint64_t block, total;

	if (__builtin_mul_overflow(bs_extreme(o, false), (uint64_t)o->nrfiles, &block) ||
	    block > FIO_SIZE_MAX) {
		diag_error(e->d, opt_loc(s, FO_BS), "bs=%s x nrfiles=%lld is too "
			   "large: more than 2^63-1 bytes", o->given & FIO_BIT(FO_BS) ?
			   o->text[FO_BS] : "4k", o->nrfiles);
		return -1;
	}
	total = o->size;
	if (o->filesize && checked_mul(e, s, FO_FILESIZE, o->filesize,
				       (uint64_t)o->nrfiles, &total,
				       "filesize x nrfiles") < 0)
		return -1;
	/* block >= 1: bs and nrfiles are at least 1 (the parser's ranges) */
	jp->filesize = total / block * block;
	if (jp->filesize == 0) {
		diag_error(e->d, opt_loc(s, o->filesize ? FO_FILESIZE : FO_SIZE),
			   "job '%s': %s=%llu is smaller than bs x nrfiles (%llu)",
			   s->name, o->filesize ? "filesize" : "size",
			   (unsigned long long)(o->filesize ? o->filesize : o->size),
			   (unsigned long long)block);
		return -1;
	}
	jp->iobytes = o->size_pct ? jp->filesize / 100 * o->size_pct +
			jp->filesize % 100 * o->size_pct / 100 :
		      o->filesize && o->size ? o->size : jp->filesize;
	if (jp->iobytes == 0) {
		diag_error(e->d, opt_loc(s, FO_SIZE), "job '%s': size=%s of %llu "
			   "bytes is 0 bytes", s->name, o->text[FO_SIZE],
			   (unsigned long long)jp->filesize);
		return -1;
	}
	return checked_mul(e, s, FO_LOOPS, jp->iobytes, (uint64_t)o->loops,
			   &jp->iobytes, "size x loops");
}

/*
 * The flowop iterations of one pass: the mix's reads and writes, made
 * whole fsync intervals.  Products checked (at most 100 x 10^9 within the
 * parser's ranges, but checked all the same).
 */
static int plan_iterations(struct emit *e, struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	long long k;

	if (is_mixed(o->rw)) {
		fio_mix(o->rwmixread, &jp->reads, &jp->writes);
	} else {
		jp->reads = !is_write(o->rw);
		jp->writes = is_write(o->rw);
	}
	long long every = fsync_every(o);

	if (!every || !jp->writes)
		return 0;
	/* a pass of whole fsync intervals: N / gcd(writes, N) times more;
	 * writes and fsync are >= 1 here, so neither gcd nor N is 0 */
	k = every / gcd(jp->writes, every);
	if (__builtin_mul_overflow(jp->reads, k, &jp->reads) ||
	    __builtin_mul_overflow(jp->writes, k, &jp->writes)) {
		diag_error(e->d, opt_loc(jp->s, o->fsync ? FO_FSYNC : FO_FDATASYNC),
			   "%s=%lld: a pass of whole fsync intervals is too large",
			   fsync_name(o), every);
		return -1;
	}
	jp->fsyncs = jp->writes / every;
	return 0;
}

/*
 * libaio and posixaio have no engine of their own in flowbench: say on
 * stderr (once per ioengine line) what runs instead, so that the change
 * is never silent; the output says it too (job_notes).
 */
static void engine_log(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	struct src_loc at = opt_loc(jp->s, FO_IOENGINE);

	if (o->engine != FIO_LIBAIO && o->engine != FIO_POSIXAIO)
		return;
	if (at.line == e->engine_logged)
		return;
	e->engine_logged = at.line;
	diag_warning(e->d, at, "ioengine=%s runs %s in flowbench", engine_text[o->engine],
		     jp->aio ? "on io_uring (aioread/aiowrite)" : o->iodepth > 1 ?
		     "as synchronous pread/pwrite (buffered I/O: Linux's AIO does "
		     "it one at a time, as in fio)" :
		     "as synchronous pread/pwrite (iodepth=1)");
}

/*
 * rate, rate_iops and thinktime act after each I/O in fio.  flowbench's
 * limit and delay flowops act once per pass, so they are exact only
 * where a pass is one I/O flowop: a read/write mix (fio also limits each
 * direction on its own), fsync's whole intervals, and (thinktime) queue
 * depth would change their meaning, and are errors.
 */
static int plan_pacing(struct emit *e, struct job_plan *jp)
{
	const struct fio_section *s = jp->s;
	const struct fio_opts *o = &s->opts;
	int errs = e->d->errors;

	if ((o->rate || o->rate_iops) && is_mixed(o->rw))
		diag_error(e->d, opt_loc(s, o->rate ? FO_RATE : FO_RATE_IOPS),
			   "job '%s': %s with rw=%s is not supported: fio limits reads "
			   "and writes each on its own, flowbench a job's total", s->name,
			   o->rate ? "rate" : "rate_iops", o->text[FO_RW]);
	else if (o->rate && o->rate_iops)
		diag_error(e->d, opt_loc(s, FO_RATE_IOPS), "job '%s': rate and "
			   "rate_iops together are not supported: flowbench's one "
			   "event generator counts either I/Os or MiB", s->name);
	if (!o->thinktime_us)
		return e->d->errors == errs ? 0 : -1;
	if (is_mixed(o->rw) || jp->fsyncs || jp->aio)
		diag_error(e->d, opt_loc(s, FO_THINKTIME), "job '%s': thinktime with "
			   "%s is not supported: flowbench would pause once per pass "
			   "of several I/Os, not after each one", s->name,
			   is_mixed(o->rw) ? "a read/write mix" : jp->fsyncs ?
			   "fsync" : "iodepth > 1");
	return e->d->errors == errs ? 0 : -1;
}

static long long lcm_checked(long long a, long long b)
{
	long long r;

	return __builtin_mul_overflow(a / gcd(a, b), b, &r) ? -1 : r;
}

/*
 * random_distribution=zoned as a mixture of uniform ranges, which is
 * what flowbench's random offsets can pick: a density that falls from
 * zone to zone is the sum of uniform picks over [0, end of zone i), each
 * weighted by how much zone i's density exceeds zone i+1's.  A flowop
 * per such range, iterations in proportion to the weights, gives fio's
 * distribution exactly (in a fixed interleaving).  A zone denser than
 * the one before it cannot be written this way: an error.
 */
static int plan_zones(struct emit *e, struct job_plan *jp)
{
	const struct fio_section *s = jp->s;
	const struct fio_opts *o = &s->opts;
	struct src_loc at = opt_loc(s, FO_RANDOM_DIST);
	uint64_t per_file = jp->filesize / (uint64_t)o->nrfiles;
	long long l = 1, g = 0, w[101], end = 0;
	int n = o->nzones;

	if (!n || !jp->random)
		return 0;
	if (jp->unsized) {
		diag_error(e->d, at, "job '%s': random_distribution=zoned needs the "
			   "file's size (size= or filesize=): the zones are written "
			   "in bytes", s->name);
		return -1;
	}
	if (is_mixed(o->rw) || jp->fsyncs || o->thinktime_us) {
		diag_error(e->d, at, "job '%s': random_distribution=zoned with %s is "
			   "not supported", s->name, is_mixed(o->rw) ?
			   "a read/write mix" : jp->fsyncs ? "fsync" : "thinktime");
		return -1;
	}
	for (int i = 0, prev = -1; i < n; i++) {
		const struct fio_zone *z = &o->zones[i], *p = prev < 0 ? NULL :
			&o->zones[prev];

		if (z->space == 0 && z->access > 0) {
			diag_error(e->d, at, "job '%s': zone %d has %d%% of the I/O "
				   "in 0%% of the file", s->name, i + 1, z->access);
			return -1;
		}
		if (!z->space)
			continue;
		if (p && (long long)z->access * p->space > (long long)p->access * z->space) {
			diag_error(e->d, at, "job '%s': zone %d is denser than zone %d: "
				   "flowbench can pick offsets in zones whose share of the "
				   "I/O per byte falls from the start of the file, not "
				   "rises", s->name, i + 1, prev + 1);
			return -1;
		}
		prev = i;
		/* l <= 10^12 keeps every weight below 100 x 100 x 10^12 */
		if ((l = lcm_checked(l, z->space)) < 0 || l > 1000000000000LL) {
			diag_error(e->d, at, "job '%s': the zones are too fine to "
				   "write as whole iterations", s->name);
			return -1;
		}
	}
	/* weight of range i: end_i x (density_i - density_i+1), times l */
	for (int i = 0; i < n; i++) {
		const struct fio_zone *z = &o->zones[i];
		long long d = z->space ? z->access * (l / z->space) : 0, dn = 0;

		for (int k = i + 1; k < n && !dn; k++)
			dn = o->zones[k].space ? o->zones[k].access *
				(l / o->zones[k].space) : 0;
		end += z->space;
		if (__builtin_mul_overflow(end, d - dn, &w[i]) || w[i] < 0) {
			diag_error(e->d, at, "job '%s': the zones are too fine to "
				   "write as whole iterations", s->name);
			return -1;
		}
		if (!z->space)
			w[i] = 0;
		g = w[i] ? gcd(g, w[i]) : g;
	}
	jp->zops = arena_alloc(&e->a, (size_t)n * sizeof(*jp->zops));
	end = 0;
	for (int i = 0; i < n; i++) {
		uint64_t ws;

		end += o->zones[i].space;
		if (!w[i])
			continue;
		ws = per_file / 100 * (uint64_t)end + per_file % 100 * (uint64_t)end / 100;
		ws -= ws % bs_extreme(o, false);
		if (ws < bs_extreme(o, true)) {
			diag_error(e->d, at, "job '%s': the first %lld%% of a %llu-byte "
				   "file is smaller than one block (bs=%llu)", s->name,
				   end, (unsigned long long)per_file,
				   (unsigned long long)bs_extreme(o, true));
			return -1;
		}
		if (w[i] / g > 1000000) {
			diag_error(e->d, at, "job '%s': the zones are too fine to "
				   "write as whole iterations", s->name);
			return -1;
		}
		jp->zops[jp->nzops++] = (struct zone_op){ ws, w[i] / g, i + 1 };
	}
	return 0;
}

/*
 * A job without size (a device, fill_device, or --lenient): fio would use
 * the whole device or file system, whose size the job file does not say.
 * No `set $filesize` is written: -D filesize=SIZE gives it at run time,
 * and `flowbench check` fails until it is given.  A job on a file an
 * earlier job defines uses that job's $filesize, as fio uses the file's
 * size.  Otherwise no size is an error.
 */
static int plan_size(struct emit *e, struct job_plan *jp, int index)
{
	const struct fio_section *s = jp->s;
	const struct fio_opts *o = &s->opts;
	const struct out_file *f = &e->files[jp->file];

	snprintf(jp->fsfx, sizeof(jp->fsfx), "%s", jp->sfx);
	if ((o->given & (FIO_BIT(FO_SIZE) | FIO_BIT(FO_FILESIZE))) && !o->fill_device)
		return plan_filesize(e, jp);
	jp->unsized = true;
	if (f->job != index) {
		const struct job_plan *owner = &e->jobs[f->job];

		snprintf(jp->fsfx, sizeof(jp->fsfx), "%s", owner->fsfx);
		jp->needs_size = owner->needs_size;
		return 0;
	}
	if (!f->device && !o->fill_device && !e->lenient) {
		diag_error(e->d, (struct src_loc){ s->line, 1 }, "job '%s': no size: "
			   "give size= or filesize= (flowbench creates the file, so it "
			   "must know how large)", s->name);
		return -1;
	}
	jp->needs_size = true;
	diag_warning(e->d, o->fill_device ? opt_loc(s, FO_FILL_DEVICE) : f->device ?
		     opt_loc(s, FO_FILENAME) : (struct src_loc){ s->line, 1 },
		     "job '%s': %s: the file's size is not in the job file: give it "
		     "when running, with -D filesize%s=SIZE", s->name, o->fill_device ?
		     "fill_device=1 (fio fills the file system)" : f->device ?
		     "no size (fio would use the whole device)" : "no size (--lenient)",
		     jp->fsfx);
	return 0;
}

/*
 * blockalign=N: flowbench aligns a random offset to the I/O's size, so
 * N = bs (one size) is what it does anyway, and sequential I/O is not
 * aligned by it in fio either; anything else is an error.
 */
static int plan_blockalign(struct emit *e, struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;

	if (!o->blockalign || !jp->random || (!o->nbss && o->blockalign == o->bs))
		return 0;
	if (drop_option(e, jp, FO_BLOCKALIGN, "blockalign", "flowbench aligns "
			"each random offset to the I/O's own size")) {
		jp->lo->blockalign = 0;
		return 0;
	}
	diag_error(e->d, opt_loc(jp->s, FO_BLOCKALIGN), "job '%s': blockalign=%s "
		   "is not supported: flowbench aligns each random offset to the "
		   "I/O's own size (%s)", jp->s->name, o->text[FO_BLOCKALIGN],
		   o->nbss ? "bssplit's sizes vary" : "bs here");
	return -1;
}

/*
 * verify=METHOD on a job that writes: after its writes fio reads back
 * what it wrote and checks it.  The read-back becomes a process of its
 * own, after the job, reading the same bytes sequentially; flowbench
 * does not check the data (a warning says so).  A read job's verify
 * checks what it reads: a comment.  A mix, or a time-based job (whose
 * writes have no end before the read-back), is an error.
 */
static int plan_verify(struct emit *e, struct job_plan *jp)
{
	const struct fio_section *s = jp->s;
	const struct fio_opts *o = &s->opts;
	struct src_loc at = opt_loc(s, FO_VERIFY);

	if (!o->verify || !o->do_verify || !jp->writes)
		return 0;
	if ((is_mixed(o->rw) || o->time_based) &&
	    drop_option(e, jp, FO_VERIFY, "verify", is_mixed(o->rw) ?
			"verify with a read/write mix" : "verify with time_based")) {
		jp->lo->verify = NULL;
		return 0;
	}
	if (is_mixed(o->rw) || o->time_based) {
		diag_error(e->d, at, "job '%s': verify with %s is not supported", s->name,
			   is_mixed(o->rw) ? "a read/write mix (fio checks reads "
			   "during the job)" : "time_based (the read-back follows "
			   "the writes, which here end only with the run)");
		return -1;
	}
	jp->vname = unique_name(e, arena_printf(&e->a, "%s-verify", s->name), "j");
	e->phases = true;
	diag_warning(e->d, at, "job '%s': verify=%s: the read-back runs as process "
		     "%s after the job, but flowbench does not check the data", s->name,
		     o->verify, jp->vname);
	return 0;
}

/*
 * With --lenient, a random_distribution=zoned that cannot be written
 * (see plan_zones) is dropped: the job's offsets are uniform.
 */
static int plan_zones_or_drop(struct emit *e, struct job_plan *jp)
{
	struct diag quiet = *e->d, *loud = e->d;
	char *why = NULL;
	size_t n = 0;
	int st;

	if (!e->lenient)
		return plan_zones(e, jp);
	quiet.out = open_memstream(&why, &n);
	if (!quiet.out)
		oom_exit();
	quiet.source = NULL;
	quiet.filename = "";
	e->d = &quiet;
	st = plan_zones(e, jp);
	e->d = loud;
	fclose(quiet.out);
	if (st < 0) {
		char *nl = strchr(why, '\n'), *msg = strstr(why, ": ");

		if (nl)
			*nl = '\0';
		drop_option(e, jp, FO_RANDOM_DIST, "random_distribution",
			    msg ? msg + 2 : why);
		jp->lo->nzones = 0;
		jp->nzops = 0;
	}
	free(why);
	return 0;
}

/*
 * rw=TYPE:N, fio's offset modifier: on sequential I/O a hole of N bytes
 * after each I/O (backwards when negative), which flowbench's `stride`
 * does for read and write (on random I/O the parser refused it), not
 * asynchronous flowops (aioread/aiowrite take no stride).
 */
static int plan_stride(struct emit *e, struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;

	if (!o->seq_add)
		return 0;
	if (jp->aio) {
		diag_error(e->d, opt_loc(jp->s, FO_RW), "job '%s': rw=%s with "
			   "ioengine=%s at iodepth > 1 is not supported: flowbench's "
			   "aioread/aiowrite take no stride", jp->s->name, o->text[FO_RW],
			   engine_text[o->engine]);
		return -1;
	}
	return 0;
}

/*
 * percentage_random=N: 100 is fio's default, 0 makes a random job
 * sequential (exactly).  In between, fio continues a sequential run
 * from wherever the last I/O was, random or not; flowbench's sequential
 * flowop keeps its own offset, so a mixture of two flowops would not
 * have fio's locality: an error (dropped with --lenient).
 */
static int plan_pct_random(struct emit *e, struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;

	if (o->pct_random == 100 || !jp->random)
		return 0;
	if (o->pct_random == 0) {
		jp->random = false;
		return 0;
	}
	if (drop_option(e, jp, FO_PCT_RANDOM, "percentage_random", "a mix of "
			"sequential and random offsets")) {
		jp->lo->pct_random = 100;
		return 0;
	}
	diag_error(e->d, opt_loc(jp->s, FO_PCT_RANDOM), "job '%s': percentage_random="
		   "%lld is not supported: fio continues each sequential run from "
		   "the previous I/O, random or not; flowbench's sequential flowop "
		   "keeps its own offset (0 and 100 are supported)", jp->s->name,
		   o->pct_random);
	return -1;
}

/* Decide everything about one job; errors for what cannot be expressed. */
static int plan_job(struct emit *e, struct job_plan *jp, int index)
{
	const struct fio_opts *o = &jp->s->opts;
	struct src_loc loc = { jp->s->line, 1 };
	int errs = e->d->errors;

	jp->name = unique_name(e, jp->s->name, "j");
	if (e->njobs > 1)
		snprintf(jp->sfx, sizeof(jp->sfx), "_%d", index + 1);
	if (o->size_pct && !o->filesize)
		diag_error(e->d, opt_loc(jp->s, FO_SIZE), "job '%s': size=%s%% needs "
			   "filesize= (the percentage is of the file's size, and "
			   "flowbench creates the file)", jp->s->name,
			   arena_printf(&e->a, "%llu", (unsigned long long)o->size_pct));
	if (o->time_based && !o->runtime_us)
		diag_error(e->d, loc, "job '%s': time_based needs runtime=", jp->s->name);
	if (fsync_every(o) && o->nrfiles > 1)
		diag_error(e->d, loc, "job '%s': %s with nrfiles > 1 is not "
			   "supported", jp->s->name, fsync_name(o));
	if (o->openfiles && o->openfiles < o->nrfiles)
		diag_error(e->d, opt_loc(jp->s, FO_OPENFILES), "job '%s': openfiles=%lld "
			   "below nrfiles=%lld is not supported: flowbench keeps every "
			   "file of the job open (fio would close and reopen them)",
			   jp->s->name, o->openfiles, o->nrfiles);
	if (o->offset && o->nrfiles > 1)
		diag_error(e->d, opt_loc(jp->s, FO_OFFSET), "job '%s': offset with "
			   "nrfiles > 1 is not supported", jp->s->name);
	if (o->offset_increment && o->numjobs > 1 &&
	    drop_option(e, jp, FO_OFFSET_INCREMENT, "offset_increment",
			"flowbench has no per-clone offset"))
		jp->lo->offset_increment = 0;
	else if (o->offset_increment && o->numjobs > 1)
		diag_error(e->d, opt_loc(jp->s, FO_OFFSET_INCREMENT), "job '%s': "
			   "offset_increment with numjobs > 1 is not supported: the "
			   "clones of a job run the same flowops, flowbench has no "
			   "per-clone offset", jp->s->name);
	if (o->fsync && o->fdatasync)
		diag_error(e->d, opt_loc(jp->s, FO_FDATASYNC), "job '%s': fsync and "
			   "fdatasync together are not supported", jp->s->name);
	if (e->d->errors != errs || plan_file(e, jp, index) < 0)
		return -1;
	if (plan_size(e, jp, index) < 0)
		return -1;
	jp->aio = o->iodepth > 1 && !sync_engine(o->engine) && !buffered_aio(o);
	if (jp->aio && o->offset && drop_option(e, jp, FO_OFFSET, "offset",
						"aioread/aiowrite have no misalign"))
		jp->lo->offset = 0;
	else if (jp->aio && o->offset) {
		diag_error(e->d, opt_loc(jp->s, FO_OFFSET), "job '%s': offset with "
			   "ioengine=%s at iodepth > 1 is not supported: flowbench's "
			   "aioread/aiowrite have no misalign", jp->s->name,
			   engine_text[o->engine]);
		return -1;
	}
	engine_log(e, jp);
	if (jp->aio && o->iodepth > FIO_AIO_DEPTH_MAX) {
		diag_error(e->d, opt_loc(jp->s, FO_IODEPTH), "iodepth=%lld is too "
			   "large for ioengine=%s: flowbench keeps at most %d I/Os in "
			   "flight per flowop", o->iodepth, engine_text[o->engine],
			   FIO_AIO_DEPTH_MAX);
		return -1;
	}
	jp->random = o->rw == FIO_RANDREAD || o->rw == FIO_RANDWRITE ||
		     o->rw == FIO_RANDRW;
	if (plan_pct_random(e, jp) < 0 || plan_stride(e, jp) < 0)
		return -1;
	if (plan_iterations(e, jp) < 0 || plan_pacing(e, jp) < 0 ||
	    plan_zones_or_drop(e, jp) < 0 || plan_blockalign(e, jp) < 0 ||
	    plan_verify(e, jp) < 0)
		return -1;
	/* a wrapping pass is a whole file of writes: a pause or a rate limit
	 * once per pass would come in bursts, so those jobs do not wrap */
	jp->wrap = o->time_based && o->rw == FIO_WRITE && o->nrfiles == 1 &&
		   !o->seq_add && !jp->fsyncs && !jp->aio && !o->thinktime_us &&
		   !o->rate && !o->rate_iops && !o->nbss && !o->number_ios;
	return 0;
}

/* A section's header and its own option lines, as comments. */
static void comment_section(struct emit *e, const struct fio_section *s)
{
	fprintf(e->out, "# [%s]  (line %d)\n", commented(e, s->name), s->line);
	for (int i = 0; i < s->nlines; i++)
		fprintf(e->out, "#   %s\n", commented(e, s->lines[i].text));
	for (int i = 0; i < s->nnotes; i++)
		fprintf(e->out, "# %s\n", commented(e, s->notes[i].text));
}

/* fio's ramp_time: WML has no construct for it; --warmup does it. */
static void ramp_note(struct emit *e, uint64_t us)
{
	char b[32];

	wml_seconds(b, sizeof(b), us);
	if (us < 1000)
		fprintf(e->out, "# fio ramp_time=%s: shorter than --warmup's "
			"minimum (0.001), no warm-up\n", b);
	else
		fprintf(e->out, "# fio ramp_time=%s: run with --warmup %s\n", b, b);
}

/* "4KiB" is 4000 bytes in fio (IEC prefixes are decimal by default). */
static void decimal_size_note(struct emit *e, const struct fio_opts *o,
			      enum fio_opt id, const char *name, uint64_t v)
{
	const char *t = o->text[id];

	if ((o->given & FIO_BIT(id)) && strpbrk(t, "iI"))
		fprintf(e->out, "# %s=%s is %llu bytes: fio reads KiB, MiB, ... as "
			"powers of 1000 (its default kb_base)\n", name,
			commented(e, t), (unsigned long long)v);
}

/*
 * fio's random map (its default): every block once per pass, which
 * flowbench's randommap does for one file and one block size.  Not with
 * norandommap, several block sizes (bssplit: $iosize is a random
 * variable), zones (their flowops' working sets overlap) or several
 * files (opennext: each op on another slot).
 */
static bool jp_randommap(const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;

	return jp->random && !o->norandommap && !o->nbss && !o->nzones &&
	       o->nrfiles <= 1;
}

/* What rate, thinktime and random_distribution became (plan_pacing,
 * plan_zones). */
static void pacing_notes(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	FILE *out = e->out;
	char b[32];

	if (o->rate || o->rate_iops)
		fprintf(out, "# %s=%s: the %s flowop after each pass waits for the "
			"event generator (eventgen, at the end)\n", o->rate ? "rate" :
			"rate_iops", commented(e, o->text[o->rate ? FO_RATE : FO_RATE_IOPS]),
			o->rate ? "bwlimit" : "iopslimit");
	if (o->rate_poisson)     /* rate_process=poisson, or rate_poisson=1 */
		fprintf(out, "# %s=%s: %s\n", strcmp(o->text[FO_RATE_POISSON],
			"poisson") == 0 ? "rate_process" : "rate_poisson",
			commented(e, o->text[FO_RATE_POISSON]), o->rate || o->rate_iops ? "the event generator's arrivals "
			"are a Poisson process of that mean rate (eventgen ..., poisson: "
			"exponential gaps)" : "no effect, the job has no rate");
	if (o->offset)
		fprintf(out, "# offset=%s: the file is $filesize%s + $offset%s bytes, as "
			"fio lays it out, and the job's I/O is in its last $filesize%s "
			"(misalign=$offset%s%s)\n", commented(e, o->text[FO_OFFSET]),
			jp->fsfx, jp->sfx, jp->fsfx, jp->sfx, jp->random ?
			arena_printf(&e->a, ", workingset=... + $offset%s", jp->sfx) : "");
	if (o->openfiles)
		fprintf(out, "# openfiles=%lld: no effect, flowbench keeps the job's "
			"%lld file%s open, as fio does with this many\n", o->openfiles,
			o->nrfiles, o->nrfiles == 1 ? "" : "s");
	if (o->given & FIO_BIT(FO_FILE_SERVICE))
		fprintf(out, "# file_service_type=roundrobin: as fio's default%s\n",
			o->nrfiles > 1 ? " and flowbench's opennext" : " (one file)");
	if (o->offset_increment)
		fprintf(out, "# offset_increment=%s: no effect with one clone\n",
			commented(e, o->text[FO_OFFSET_INCREMENT]));
	if (o->nbss)
		fprintf(out, "# bssplit=%s: each I/O's size is drawn from a table "
			"(a tabular randvar, $iosize%s)%s\n", commented(e, o->text[FO_BSSPLIT]),
			jp->sfx, jp->random ? "; a random offset is a multiple of the "
			"I/O's own size (fio aligns to the smallest)" : "");
	if (o->thinktime_us)
		fprintf(out, "# thinktime=%s: a delay of $thinktime%s (%s s) after "
			"each I/O\n", commented(e, o->text[FO_THINKTIME]), jp->sfx,
			wml_seconds(b, sizeof(b), o->thinktime_us));
	else if (o->given & FIO_BIT(FO_THINKTIME))
		fprintf(out, "# thinktime=0: no pause\n");
	if (o->nzones && !jp->random)
		fprintf(out, "# random_distribution: no effect, the job's I/O is "
			"sequential (as in fio)\n");
	if (!jp->nzops)
		return;
	fprintf(out, "# random_distribution=%s: one %s flowop per range [0, end of "
		"zone) of each file, their iterations weighted so that the offsets "
		"fall in the zones as in fio (in a fixed order per pass); the "
		"ranges are in bytes of a %llu-byte file: -D filesize=... does "
		"not move them\n", commented(e, o->text[FO_RANDOM_DIST]),
		jp->writes ? "write" : "read",
		(unsigned long long)(jp->filesize / (uint64_t)o->nrfiles));
}

/* What became of the file's size, verify, blockalign and the phases. */
static void phase_notes(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	const struct out_file *f = &e->files[jp->file];
	FILE *out = e->out;
	char b[32], b2[32];

	if (f->device && f->job == jp - e->jobs)
		fprintf(out, "# %s%s is a device: flowbench writes only files it "
			"creates, so the job runs on the file %s in ", o->filename ?
			"filename=" : "the job's name (fio's file) ",
			commented(e, f->device), f->name);
	if (f->device && f->job == jp - e->jobs) {
		print_dir_var(e, f->dir);
		fprintf(out, ": put that directory on the device's file system\n");
	}
	if (o->fill_device)
		fprintf(out, "# fill_device=1: fio fills the file system; here the file is "
			"$filesize%s bytes, given with -D\n", jp->fsfx);
	if (jp->needs_size && f->job == jp - e->jobs)
		fprintf(out, "# no size in the job file: give $filesize%s with -D "
			"filesize%s=SIZE (flowbench check fails without it)\n",
			jp->fsfx, jp->fsfx);
	else if (jp->unsized)
		fprintf(out, "# no size: the job uses the file of job '%s' and its "
			"$filesize%s, as fio uses the file's size\n",
			commented(e, e->jobs[f->job].s->name), jp->fsfx);
	if (o->blockalign)
		fprintf(out, "# blockalign=%s: %s\n", commented(e, o->text[FO_BLOCKALIGN]),
			jp->random ? "flowbench aligns random offsets to the I/O size anyway" :
			"no effect, the job's I/O is sequential");
	if (o->verify && jp->vname)
		fprintf(out, "# verify=%s: fio reads back and checks what the job wrote; "
			"process %s reads the same bytes after the job, but flowbench does "
			"not check the data (fio's I/O pattern, not its checksum's CPU "
			"cost)\n", commented(e, o->verify), jp->vname);
	else if (o->verify && !o->do_verify)
		fprintf(out, "# verify=%s with do_verify=0: no read-back\n",
			commented(e, o->verify));
	else if (o->verify)
		fprintf(out, "# verify=%s: fio checks the data it reads; flowbench reads "
			"it but does not check it\n", commented(e, o->verify));
	if (o->number_ios)
		fprintf(out, "# number_ios=%lld: each clone stops after $nios%s reads "
			"and writes (finishoncount, checked once per pass: it may do "
			"one pass more than fio)\n", o->number_ios, jp->sfx);
	if (o->seq_add)
		fprintf(out, "# rw=%s: sequential, each I/O %s bytes from the end of "
			"the one before (stride=%s%s), wrapping at the file's ends as "
			"fio does\n", commented(e, o->text[FO_RW]),
			signed_size(b, sizeof(b), o->seq_add),
			signed_size(b2, sizeof(b2), o->seq_add),
			o->seq_add < 0 ? ", backwards" : "");
	if (o->norandommap)
		fprintf(out, "# norandommap: plain random (with replacement): "
			"flowbench's default%s\n", jp->random ? "" :
			"; no effect, the job's I/O is sequential");
	else if (jp->random && !jp_randommap(jp))
		fprintf(out, "# fio's random map (every block once per pass): "
			"not with %s; offsets drawn with replacement\n",
			o->nbss ? "several block sizes (flowbench's randommap needs "
			"one iosize)" : o->nzones ? "zones (random_distribution=zoned)" :
			"several files (each op on another file's slot)");
	if (o->given & FIO_BIT(FO_PCT_RANDOM))
		fprintf(out, "# percentage_random=%lld: %s\n", o->pct_random,
			jp->random ? "random offsets (fio's default)" :
			"sequential offsets, as in fio");
	if (o->stonewall && jp->group)
		fprintf(out, "# stonewall: starts when every job before it has ended "
			"(after= the jobs of the previous group)\n");
	if (o->wait_for)
		fprintf(out, "# wait_for=%s: starts when that job has ended (after=)\n",
			commented(e, o->wait_for));
	if (o->startdelay_us)
		fprintf(out, "# startdelay=%s: starts $startdelay_%d s later\n",
			wml_seconds(b, sizeof(b), o->startdelay_us), (int)(jp - e->jobs) + 1);
	if (e->phases && !o->startdelay_us && !(jp->after && jp->after[0] >= 0) &&
	    !o->runtime_us)
		fprintf(out, "# startdelay=0: no delay; as a phase its ops/s are over its "
			"own run time, as fio reports each job\n");
	if (e->phases && o->runtime_us)
		fprintf(out, "# runtime=%s: the job's own run time ($runtime_%d; the "
			"process's threads stop then)%s\n",
			wml_seconds(b, sizeof(b), o->runtime_us), (int)(jp - e->jobs) + 1,
			o->time_based ? "" : ", or earlier once it has done its bytes");
}

/* The comments that say what of fio each flowop keeps and what not. */
static void job_notes(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	FILE *out = e->out;
	const char *eng = engine_text[o->engine];

	if (jp->aio)
		fprintf(out, "# ioengine=%s, iodepth=%lld: asynchronous flowops keep up to "
			"$iodepth%s I/Os in flight (flowbench submits them with io_uring%s)\n",
			eng, o->iodepth, jp->sfx,
			o->engine == FIO_POSIXAIO ? "; posixaio is treated like libaio" : "");
	else if (sync_engine(o->engine))
		fprintf(out, "# ioengine=%s: one pread/pwrite per op at an explicit offset%s%s\n",
			eng, o->iodepth > 1 ? " (iodepth has no effect with a synchronous "
			"engine, as in fio)" : "", o->engine >= FIO_VSYNC ?
			" (fio's vectored/pvsync2 calls of one buffer do the same I/O)" : "");
	else if (o->iodepth > 1)
		fprintf(out, "# ioengine=%s, iodepth=%lld on buffered files (direct=0): "
			"Linux's asynchronous I/O is asynchronous only with O_DIRECT (it "
			"does buffered I/O inside io_submit), so fio does one I/O at a "
			"time: done as a synchronous pread/pwrite\n", eng, o->iodepth);
	else
		fprintf(out, "# ioengine=%s at iodepth=1: one I/O at a time, done as a "
			"synchronous pread/pwrite\n", eng);
	if (is_mixed(o->rw) && jp->reads && jp->writes)
		fprintf(out, "# rwmixread=%lld: each pass does %lld read%s then %lld write%s, "
			"in that order: a fixed interleaving, not fio's random choice per op\n",
			o->rwmixread, jp->reads, jp->reads == 1 ? "" : "s",
			jp->writes, jp->writes == 1 ? "" : "s");
	if (o->rw == FIO_RW && jp->reads && jp->writes)
		fprintf(out, "# rw=rw: reads and writes share one sequential offset (fio "
			"keeps one per direction); writes at the end of the file extend it\n");
	if (fsync_every(o) && jp->fsyncs)
		fprintf(out, "# %s=%lld: %s\n", fsync_name(o), fsync_every(o),
			jp->fsyncs == 1 ? "one fsync after each pass's writes" :
			"the pass's fsyncs come together after its writes");
	else if (fsync_every(o))
		fprintf(out, "# %s=%lld: no effect, the job does not write\n",
			fsync_name(o), fsync_every(o));
	if (o->fdatasync && !o->fsync && jp->fsyncs)
		fprintf(out, "# fdatasync: flowbench's fsync flowop calls fsync(2), "
			"which also writes the metadata (times) fdatasync may leave: "
			"it can take longer\n");
	if (o->osync)
		fprintf(out, "# sync=1: files opened with O_SYNC (dsync)\n");
	if (o->direct)
		fprintf(out, "# direct=1: files opened with O_DIRECT (directio)\n");
	if (o->nrfiles > 1)
		fprintf(out, "# nrfiles=%lld: each op goes to the next fd slot (opennext), "
			"whose file is picked round robin among all the job's files: the "
			"clones share the files\n", o->nrfiles);
	if (!o->filename && o->numjobs > 1 && o->nrfiles == 1)
		fprintf(out, "# directory mode: $nthreads%s files, one per clone (each "
			"thread opens the next one, round robin)\n", jp->sfx);
	if (o->thread)
		fprintf(out, "# thread: the clones are threads of one process\n");
	if (jp->filesize != o->size && !o->filesize && !jp->unsized)
		fprintf(out, "# size=%llu rounded down to whole blocks, as fio lays it out\n",
			(unsigned long long)o->size);
	if (o->time_based)
		fprintf(out, "# time_based: the job loops until the run time is over\n");
	else
		fprintf(out, "# no time_based: as fio, each clone stops after $filesize%s "
			"bytes (finishonbytes; it checks once per pass, so it may do one "
			"pass more than fio)\n", jp->fsfx);
	if (jp->wrap)
		fprintf(out, "# sequential writes start again at offset %s after each "
			"$filesize%s bytes (closefile; the next write reopens the file)\n",
			o->offset ? arena_printf(&e->a, "$offset%s", jp->sfx) : "0", jp->fsfx);
	else if (o->time_based && is_write(o->rw) && !jp->random)
		fprintf(out, "# sequential writes do not wrap at $filesize%s here: the file "
			"grows for as long as the job runs\n", jp->fsfx);
	if (o->ramp_us)
		ramp_note(e, o->ramp_us);
	decimal_size_note(e, o, FO_BS, "bs", o->bs);
	decimal_size_note(e, o, FO_SIZE, "size", o->size);
	if (jp->iobytes != jp->filesize && !o->time_based)
		fprintf(out, "# size%s%s: the job does $iobytes%s bytes over its "
			"$filesize%s bytes of files, then stops\n",
			o->size_pct ? "=N% of filesize" : o->filesize ? " with filesize" : "",
			o->loops > 1 ? arena_printf(&e->a, ", loops=%lld", o->loops) : "",
			jp->sfx, jp->fsfx);
	if (o->loops > 1 && o->time_based)
		fprintf(out, "# loops=%lld: no effect, the job is time_based\n", o->loops);
	if (o->group_reporting)
		fprintf(out, "# group_reporting: flowbench reports each flowop over all "
			"its threads anyway\n");
	pacing_notes(e, jp);
	phase_notes(e, jp);
}

/* " + $offset" where the job's I/O starts past the start of its file. */
static const char *offset_plus(struct emit *e, const struct job_plan *jp)
{
	return jp->s->opts.offset ? arena_printf(&e->a, " + $offset%s", jp->sfx) : "";
}

/* One read or write flowop line. */
static void io_flowop(struct emit *e, const struct job_plan *jp, bool write,
		      long long iters, bool wrap, int zone)
{
	const struct fio_opts *o = &jp->s->opts;
	const char *type = jp->aio ? (write ? "aiowrite" : "aioread") :
			   (write ? "write" : "read");
	char b[32];

	fprintf(e->out, "    flowop %s name=%s-%s%s,filename=%s,iosize=$iosize%s",
		type, jp->name, write ? "write" : "read", zone < 0 ? "" :
		arena_printf(&e->a, "-zone%d", jp->zops[zone].zone), e->files[jp->file].name,
		jp->sfx);
	if (zone >= 0)
		fprintf(e->out, ",workingset=%s%s",
			wml_size(b, sizeof(b), jp->zops[zone].ws), offset_plus(e, jp));
	else if (o->offset && jp->random)
		fprintf(e->out, ",workingset=$filesize%s%s", jp->fsfx, offset_plus(e, jp));
	if (o->offset)
		fprintf(e->out, ",misalign=$offset%s", jp->sfx);
	if (jp->random)
		fputs(jp_randommap(jp) ? ",random,randommap" : ",random", e->out);
	if (o->seq_add)
		fprintf(e->out, ",stride=%s", signed_size(b, sizeof(b), o->seq_add));
	if (o->direct)
		fputs(",directio", e->out);
	if (o->osync)
		fputs(",dsync", e->out);
	if (o->nrfiles > 1)
		fputs(",opennext", e->out);
	if (jp->aio)
		fprintf(e->out, ",iodepth=$iodepth%s", jp->sfx);
	if (wrap)
		fprintf(e->out, ",iters=$filesize%s / $iosize%s", jp->fsfx, jp->sfx);
	else if (iters > 1)
		fprintf(e->out, ",iters=%lld", iters);
	fputc('\n', e->out);
}

static void emit_file(struct emit *e, const struct out_file *f,
		      const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;

	if (!f->fileset) {
		fprintf(e->out, "define file name=%s,path=", f->name);
		print_dir_var(e, f->dir);
		fprintf(e->out, ",size=$filesize%s%s,prealloc,reuse\n", jp->sfx,
			offset_plus(e, jp));
		return;
	}
	fprintf(e->out, "# fio's files %s.N.M become the fileset %s\n",
		commented(e, jp->s->name), f->name);
	fprintf(e->out, "define fileset name=%s,path=", f->name);
	print_dir_var(e, f->dir);
	if (o->nrfiles > 1)
		fprintf(e->out, ",entries=$nthreads%s * %lld,dirwidth=$nthreads%s * %lld,"
			"size=$filesize%s / %lld", jp->sfx, o->nrfiles, jp->sfx,
			o->nrfiles, jp->sfx, o->nrfiles);
	else
		fprintf(e->out, ",entries=$nthreads%s,dirwidth=$nthreads%s,size=$filesize%s%s",
			jp->sfx, jp->sfx, jp->sfx, offset_plus(e, jp));
	fprintf(e->out, ",dirgamma=0,prealloc,reuse\n");
}

/* The bytes after which a size-limited job stops. */
static const char *done_bytes(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;

	if (jp->unsized)
		return o->loops > 1 ? arena_printf(&e->a, "$filesize%s * %lld",
						   jp->fsfx, o->loops) :
			arena_printf(&e->a, "$filesize%s", jp->fsfx);
	return arena_printf(&e->a, "$%s%s", jp->iobytes != jp->filesize ?
			    "iobytes" : "filesize", jp->sfx);
}

/* after="A:B": the processes job `jp` starts after (plan_phases).  The
 * names are WML words (unique_name): nothing in them needs escaping. */
static void print_after(struct emit *e, const struct job_plan *jp)
{
	for (int k = 0; jp->after && jp->after[k] >= 0; k++) {
		const struct job_plan *w = &e->jobs[jp->after[k]];

		fprintf(e->out, "%s%s", k ? ":" : ",after=\"", w->name);
		if (w->vname)
			fprintf(e->out, ":%s", w->vname);
	}
	if (jp->after && jp->after[0] >= 0)
		fputc('"', e->out);
}

/* The run-phase attributes of the job's process: after, startdelay,
 * runtime (only when the workload has phases). */
static void phase_attrs(struct emit *e, const struct job_plan *jp, int index)
{
	const struct fio_opts *o = &jp->s->opts;

	print_after(e, jp);
	if (o->startdelay_us)
		fprintf(e->out, ",startdelay=$startdelay_%d", index + 1);
	else if (e->phases && !(jp->after && jp->after[0] >= 0) && !o->runtime_us)
		/* any phase attribute puts the job's rates over its own window */
		fputs(",startdelay=0", e->out);
	if (e->phases && o->runtime_us)
		fprintf(e->out, ",runtime=$runtime_%d", index + 1);
}

/*
 * verify's read-back: a process after the job, with its clones, reading
 * sequentially the bytes the job wrote from the same file(s) (each clone
 * its own file where the job has per-clone files), with the job's
 * engine, depth and O_DIRECT.
 */
static void emit_verify(struct emit *e, const struct job_plan *jp, int index)
{
	const struct fio_opts *o = &jp->s->opts;
	FILE *out = e->out;

	fprintf(out, "\n# fio's verify phase of job '%s': the same bytes read back "
		"after it (not checked)\n", commented(e, jp->s->name));
	fprintf(out, "define process name=%s,instances=%s%s,after=%s", jp->vname,
		o->thread ? "1" : "$nthreads", o->thread ? "" : jp->sfx, jp->name);
	if (e->phases && o->runtime_us)
		fprintf(out, ",runtime=$runtime_%d", index + 1);
	fprintf(out, "\n{\n  thread name=%s,instances=%s%s\n  {\n", jp->vname,
		o->thread ? "$nthreads" : "1", o->thread ? jp->sfx : "");
	fprintf(out, "    flowop %s name=%s,filename=%s,iosize=$iosize%s",
		jp->aio ? "aioread" : "read", jp->vname, e->files[jp->file].name, jp->sfx);
	if (o->offset)
		fprintf(out, ",misalign=$offset%s", jp->sfx);
	if (o->direct)
		fputs(",directio", out);
	if (o->nrfiles > 1)
		fputs(",opennext", out);
	if (jp->aio)
		fprintf(out, ",iodepth=$iodepth%s", jp->sfx);
	fprintf(out, "\n    flowop finishonbytes name=%s-done,value=%s\n  }\n}\n",
		jp->vname, done_bytes(e, jp));
}

static void emit_job(struct emit *e, const struct job_plan *jp, int index)
{
	const struct fio_opts *o = &jp->s->opts;
	FILE *out = e->out;
	char b[32];

	fprintf(out, "\n# ---- job %d of %d: fio job '%s' ----\n", index + 1,
		e->njobs, commented(e, jp->s->name));
	comment_section(e, jp->s);
	for (int i = 0; i < jp->ndropped; i++)
		fprintf(out, "# %s\n", commented(e, jp->dropped[i]));
	job_notes(e, jp);
	if (!jp->unsized)
		fprintf(out, "set $filesize%s=%s\n", jp->sfx,
			wml_size(b, sizeof(b), jp->filesize));
	emit_iosize(e, jp);
	fprintf(out, "set $nthreads%s=%lld\n", jp->sfx, o->numjobs);
	if (jp->iobytes != jp->filesize && !o->time_based)
		fprintf(out, "set $iobytes%s=%s\n", jp->sfx,
			wml_size(b, sizeof(b), jp->iobytes));
	if (jp->aio)
		fprintf(out, "set $iodepth%s=%lld\n", jp->sfx, o->iodepth);
	if (o->offset)
		fprintf(out, "set $offset%s=%s\n", jp->sfx,
			wml_size(b, sizeof(b), o->offset));
	if (o->thinktime_us)
		fprintf(out, "set $thinktime%s=%s\n", jp->sfx,
			wml_seconds(b, sizeof(b), o->thinktime_us));
	if (o->number_ios)
		fprintf(out, "set $nios%s=%lld\n", jp->sfx, o->number_ios);
	if (o->startdelay_us)
		fprintf(out, "set $startdelay_%d=%s\n", index + 1,
			wml_seconds(b, sizeof(b), o->startdelay_us));
	if (e->phases && o->runtime_us)
		fprintf(out, "set $runtime_%d=%s\n", index + 1,
			wml_seconds(b, sizeof(b), o->runtime_us));
	fputc('\n', out);
	if (e->files[jp->file].job == index)
		emit_file(e, &e->files[jp->file], jp);
	else
		fprintf(out, "# the file %s is the one of job '%s' (same filename)\n",
			e->files[jp->file].name,
			commented(e, e->jobs[e->files[jp->file].job].s->name));
	fprintf(out, "define process name=%s,instances=%s%s", jp->name,
		o->thread ? "1" : "$nthreads", o->thread ? "" : jp->sfx);
	phase_attrs(e, jp, index);
	fprintf(out, "\n{\n  thread name=%s,instances=%s%s\n  {\n", jp->name,
		o->thread ? "$nthreads" : "1", o->thread ? jp->sfx : "");
	for (int z = 0; z < jp->nzops; z++)
		io_flowop(e, jp, jp->writes > 0, jp->zops[z].iters, false, z);
	if (jp->reads && !jp->nzops)
		io_flowop(e, jp, false, jp->reads, false, -1);
	if (jp->writes && !jp->nzops)
		io_flowop(e, jp, true, jp->writes, jp->wrap, -1);
	if (o->thinktime_us)
		fprintf(out, "    flowop delay name=%s-think,value=$thinktime%s\n",
			jp->name, jp->sfx);
	if (jp->wrap)
		fprintf(out, "    flowop closefile name=%s-close,filename=%s\n",
			jp->name, e->files[jp->file].name);
	if (jp->fsyncs)
		fprintf(out, "    flowop fsync name=%s-fsync,filename=%s%s\n", jp->name,
			e->files[jp->file].name, jp->fsyncs > 1 ?
			arena_printf(&e->a, ",iters=%lld", jp->fsyncs) : "");
	if (o->rate || o->rate_iops)
		fprintf(out, "    flowop %s name=%s-rate\n", o->rate ? "bwlimit" :
			"iopslimit", jp->name);
	if (!o->time_based)
		fprintf(out, "    flowop finishonbytes name=%s-done,value=%s\n",
			jp->name, done_bytes(e, jp));
	if (o->number_ios)
		fprintf(out, "    flowop finishoncount name=%s-count,value=$nios%s\n",
			jp->name, jp->sfx);
	fprintf(out, "  }\n}\n");
	if (jp->vname)
		emit_verify(e, jp, index);
}

/*
 * One run time for the whole workload, when every job agrees and there
 * are no phases; otherwise (--lenient or phases) each job gets its own
 * (phase_attrs) and the run has none.
 */
static int run_time(struct emit *e, uint64_t *runtime_us, bool *alldone)
{
	char b1[32], b2[32];

	*runtime_us = 0;
	*alldone = e->phases;
	for (int i = 0; i < e->njobs; i++) {
		const struct fio_section *s = e->jobs[i].s;

		*alldone |= !s->opts.time_based || s->opts.number_ios;
		if (e->phases)
			continue;
		if (i && s->opts.runtime_us != *runtime_us) {
			diag_error(e->d, (struct src_loc){ s->line, 1 }, "job '%s': runtime "
				   "%s s differs from job '%s''s %s s: flowbench has one run "
				   "time for all jobs", s->name,
				   wml_seconds(b1, sizeof(b1), s->opts.runtime_us),
				   e->jobs[0].s->name,
				   wml_seconds(b2, sizeof(b2), *runtime_us));
			return -1;
		}
		*runtime_us = s->opts.runtime_us;
	}
	return 0;
}

static void emit_header(struct emit *e, const struct fio_jobfile *jf,
			const char *source_name)
{
	FILE *out = e->out;

	fprintf(out, "#\n# Generated by flowbench import-fio from %s.\n",
		commented(e, source_name));
	fprintf(out,
		"#\n# Each fio job below is a process definition; its options are\n"
		"# repeated as comments, with what each became and where flowbench\n"
		"# differs from fio (docs/import-fio.md has the whole mapping).\n"
		"# Scale it without editing, e.g.\n"
		"#   flowbench run THIS.f -D dir=/mnt/test -D runtime=30\n#\n");
	for (int i = 0; i < jf->nsections; i++) {
		if (jf->sections[i].global) {
			comment_section(e, &jf->sections[i]);
			fprintf(out, "#\n");
		}
	}
	for (int i = 0; i < e->ndirs; i++) {
		fprintf(out, "set ");
		print_dir_var(e, i);
		fputc('=', out);
		print_quoted(out, e->dirs[i]);
		fputc('\n', out);
	}
	if (e->dir_default)
		fprintf(out, "# fio would use the current directory where the job file "
			"gives none; here it is /tmp\n");
	for (int i = 0; i < e->njobs; i++)
		if (e->jobs[i].needs_size && e->files[e->jobs[i].file].job == i)
			fprintf(out, "# REQUIRED: the size of the file of job '%s' is not "
				"in the job file: run with -D filesize%s=SIZE\n",
				commented(e, e->jobs[i].s->name), e->jobs[i].fsfx);
}

/*
 * fio's rate and rate_iops are per clone; flowbench has one event
 * generator for the whole run, which the limit flowops of every thread
 * draw from.  Its rate is the sum over the limited clones, which gives
 * each its fio rate only if all are limited alike: jobs with different
 * rates, or one in I/Os and one in bytes, are an error.  *first is the
 * first limited job, or -1.
 */
static int plan_rate(struct emit *e, int *first)
{
	*first = -1;
	for (int i = 0; i < e->njobs; i++) {
		const struct fio_section *s = e->jobs[i].s, *f;

		if (!s->opts.rate && !s->opts.rate_iops)
			continue;
		if (*first < 0) {
			*first = i;
			continue;
		}
		f = e->jobs[*first].s;
		if (s->opts.rate_poisson != f->opts.rate_poisson) {
			diag_error(e->d, opt_loc(s, s->opts.rate_poisson ? FO_RATE_POISSON :
						 s->opts.rate ? FO_RATE : FO_RATE_IOPS),
				   "job '%s': rate_process unlike job '%s''s: flowbench "
				   "has one event generator, either steady or Poisson, so "
				   "every rate-limited job needs the same rate_process",
				   s->name, f->name);
			return -1;
		}
		if (s->opts.rate != f->opts.rate || s->opts.rate_iops != f->opts.rate_iops) {
			diag_error(e->d, opt_loc(s, s->opts.rate ? FO_RATE : FO_RATE_IOPS),
				   "job '%s': a rate unlike job '%s''s: flowbench has one "
				   "event generator, so every rate-limited job needs the same "
				   "rate or rate_iops", s->name, f->name);
			return -1;
		}
	}
	return 0;
}

/* The event generator the limited jobs' iopslimit/bwlimit flowops use. */
static void emit_rate(struct emit *e, int first)
{
	const struct fio_opts *o = &e->jobs[first].s->opts;
	bool bw = o->rate != 0;
	char b[32];

	fprintf(e->out, "# fio %s=%s is per clone; flowbench has one event "
		"generator for the run, at the sum of the limited clones' rates (%s), "
		"which their %s flowops share: the total is fio's, but a clone that "
		"falls behind its rate leaves the rest to the others (fio caps each "
		"clone on its own)\n", bw ? "rate" : "rate_iops",
		commented(e, o->text[bw ? FO_RATE : FO_RATE_IOPS]),
		bw ? "in MiB/s" : "in I/Os per second", bw ? "bwlimit" : "iopslimit");
	if (bw)
		fprintf(e->out, "set $rate=%s\n", wml_size(b, sizeof(b), o->rate));
	else
		fprintf(e->out, "set $rate=%lld\n", o->rate_iops);
	fprintf(e->out, "eventgen rate=$rate * (");
	for (int i = first, n = 0; i < e->njobs; i++) {
		const struct fio_opts *jo = &e->jobs[i].s->opts;

		if (jo->rate || jo->rate_iops)
			fprintf(e->out, "%s$nthreads%s", n++ ? " + " : "", e->jobs[i].sfx);
	}
	fprintf(e->out, ")%s%s\n", bw ? " / 1m" : "", o->rate_poisson ? ", poisson" : "");
}

/*
 * The earlier jobs named `name`: the last one is in the tree `*by_name`,
 * each links to the one before it (same_name[]), so finding them costs
 * log n plus their number, whatever the job file.
 */
static int waitees(void *const *by_name, const int *same_name, const char *name,
		   int *after, int n)
{
	struct keyed *last = lookup(by_name, name);

	for (int j = last ? last->val : -1; j >= 0; j = same_name[j])
		if (after)
			after[n++] = j;
		else
			n++;
	return n;
}

/*
 * fio's run order.  stonewall starts a new group: its job, and the jobs
 * after it until the next stonewall, start when every job before has
 * ended.  after= lists only the previous group's jobs: they themselves
 * started after all earlier groups ended, so this is the same.
 * wait_for=NAME adds the earlier job NAME (an unknown or later job is an
 * error at its line).  A job's verify read-back is part of it.  Any of
 * these, startdelay, or jobs with different runtimes make the workload
 * one of phases (e->phases): per-process times.
 */
static int plan_phases(struct emit *e)
{
	int group = 0, gstart = 0, pstart = 0, st = 0;
	int *same_name = xcalloc((size_t)e->njobs, sizeof(int));
	void *by_name = NULL;

	for (int i = 0; i < e->njobs && st == 0; i++) {
		struct job_plan *jp = &e->jobs[i];
		const struct fio_opts *o = &jp->s->opts;
		struct keyed *k;
		int n = 0, w = o->wait_for ? waitees(&by_name, same_name,
						     o->wait_for, NULL, 0) : 0;

		if (o->stonewall && i > 0) {
			pstart = gstart;
			gstart = i;
			group++;
		}
		jp->group = group;
		jp->after = arena_alloc(&e->a, ((size_t)(group ? gstart - pstart : 0) +
						 (size_t)w + 1) * sizeof(int));
		for (int j = pstart; group && j < gstart; j++)
			jp->after[n++] = j;
		n = o->wait_for ? waitees(&by_name, same_name, o->wait_for,
					  jp->after, n) : n;
		jp->after[n] = -1;
		if (o->wait_for && !w) {
			diag_error(e->d, opt_loc(jp->s, FO_WAIT_FOR), "job '%s': "
				   "wait_for=%s: no job of that name before it (fio waits "
				   "only for a job defined earlier)", jp->s->name, o->wait_for);
			st = -1;
		}
		if (group || o->wait_for || o->startdelay_us ||
		    o->runtime_us != e->jobs[0].s->opts.runtime_us)
			e->phases = true;
		k = lookup(&by_name, jp->s->name);
		same_name[i] = k ? k->val : -1;
		if (k)
			k->val = i;
		else
			insert(e, &by_name, jp->s->name, i);
	}
	tdestroy(by_name, no_free);
	free(same_name);
	return st;
}

/*
 * exitall: fio ends every job when one of its threads ends.  That is
 * flowbench's firstdone quit mode: the first thread done (a finish
 * flowop) ends the run; time-based jobs of one run time end together
 * anyway.  With phases a thread also ends at its process's runtime,
 * which firstdone need not count: an error (dropped with --lenient).
 * Returns 1 when the workload has it, 0 when not, -1 after an error.
 */
static int plan_exitall(struct emit *e)
{
	int found = 0;

	for (int i = 0; i < e->njobs; i++) {
		struct job_plan *jp = &e->jobs[i];

		if (!jp->s->opts.exitall)
			continue;
		if (!e->phases) {
			found = 1;
			continue;
		}
		if (drop_option(e, jp, FO_EXITALL, "exitall", "with run phases")) {
			jp->lo->exitall = false;
			continue;
		}
		diag_error(e->d, opt_loc(jp->s, FO_EXITALL), "job '%s': exitall with "
			   "run phases (stonewall, wait_for, startdelay, verify, "
			   "different runtimes) is not supported", jp->s->name);
		return -1;
	}
	return found;
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
		plan_job(e, &e->jobs[j], j);
		j++;
	}
	if (e->d->errors || plan_phases(e) < 0 ||
	    run_time(e, &runtime_us, &alldone) < 0 || plan_rate(e, &rated) < 0 ||
	    (exitall = plan_exitall(e)) < 0)
		return -1;
	emit_header(e, jf, source_name);
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
		emit_job(e, &e->jobs[i], i);
	fputc('\n', e->out);
	if (rated >= 0)
		emit_rate(e, rated);
	for (int i = 0; i < e->njobs; i++) {
		if (e->jobs[i].s->opts.ramp_us) {
			ramp_note(e, e->jobs[i].s->opts.ramp_us);
			break;
		}
	}
	if (e->phases) {
		fprintf(e->out, "# run phases: each job starts after the jobs it waits "
			"for and stops at its own runtime or after its bytes; 0: the run "
			"ends when every job has ended (set mode quit alldone)\n"
			"set $runtime=0\n");
	} else if (runtime_us) {
		wml_seconds(b, sizeof(b), runtime_us);
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
	tdestroy(e.names, no_free);
	tdestroy(e.dir_index, no_free);
	tdestroy(e.file_index, no_free);
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
