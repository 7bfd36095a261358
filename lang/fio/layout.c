/*
 * layout.c - where a job's files are and how large, where the job file
 * leaves it to fio's defaults or to the device: offset_increment (each
 * clone a job of its own, at its own offset), filename_format (fio's
 * names for per-clone files) and the sizes a job takes from the file or
 * device it finds (no size, size=N%, offset=N%), which import-fio takes
 * from -D filesize=SIZE (filesize_N for job N).  They run before plan.c
 * places and sizes the job's files, and change only the job's own copy
 * of its options (job_plan.lo); each says what it did in a note.
 */
#include "lang/fio/emit.h"

#include <string.h>

/* The most clones offset_increment makes jobs of their own. */
#define FIO_SPLIT_MAX 256

/*
 * offset_increment=I with numjobs=N: fio's clone k works at offset
 * `offset + k x I`, and flowbench's instances of one process run the
 * same flowops at the same offsets: so each clone becomes a job of its
 * own, numjobs=1, offset its own.  The number of jobs to make of `s`
 * (1: none split); not with offset=N% (known only later), nor beyond
 * FIO_SPLIT_MAX clones or 2^63 bytes (plan.c refuses those as before).
 */
int fio_clones_to_split(const struct fio_section *s)
{
	const struct fio_opts *o = &s->opts;
	uint64_t last;

	if (s->global || !o->offset_increment || o->numjobs <= 1 || o->offset_pct ||
	    o->numjobs > FIO_SPLIT_MAX ||
	    __builtin_mul_overflow(o->offset_increment, (uint64_t)o->numjobs - 1, &last) ||
	    __builtin_add_overflow(last, o->offset, &last) || last > FIO_SIZE_MAX)
		return 1;
	return (int)o->numjobs;
}

/* Clone k of `s`, a job of its own (fio_clones_to_split). */
void fio_split_clone(struct emit *e, const struct fio_section *s, int k,
		     struct fio_section *out)
{
	struct fio_opts *o = &out->opts;

	*out = *s;
	o->numjobs = 1;
	o->offset += (uint64_t)k * o->offset_increment;
	if (!fio_given(o, FIO_OPT_OFFSET))
		o->at[FIO_OPT_OFFSET] = o->at[FIO_OPT_OFFSET_INCREMENT];
	fio_give(o, FIO_OPT_OFFSET);
	o->text[FIO_OPT_OFFSET] = arena_printf(&e->a, "%llu", (unsigned long long)o->offset);
	/* the clones are one job in fio's groups: the first starts a group */
	if (k > 0)
		o->stonewall = false;
}

/* `s` with every `word` replaced by `by` (arena). */
static const char *replace_all(struct arena *a, const char *s, const char *word,
			       const char *by)
{
	const char *at;

	while ((at = strstr(s, word)))
		s = arena_printf(a, "%.*s%s%s", (int)(at - s), s, by, at + strlen(word));
	return s;
}

/*
 * filename_format=FMT (no filename): fio names each clone's files FMT
 * with $jobname, $jobnum (the clone, from 0) and $filenum (the file,
 * from 0) replaced, in `directory` (or FMT's own directory).  With
 * $jobnum every clone has its own files: flowbench's per-clone fileset,
 * in that directory.  Without it the clones share one file: as
 * filename=.  Without $filenum, a job's nrfiles files all have one name,
 * so fio opens one file nrfiles times, each `size / nrfiles` bytes (or
 * filesize) while the job does `size` bytes: one file of that size here,
 * and the same bytes.
 */
int fio_plan_filename_format(struct emit *e, struct job_plan *jp)
{
	struct fio_opts *o = jp->lo;
	struct src_loc at = fio_opt_loc(jp->s, FIO_OPT_FILENAME_FORMAT);
	const char *fmt = o->filename_format, *slash;
	bool per_clone, per_file;

	if (!fmt || o->filename)
		return 0;
	if (strstr(fmt, "$clientuid")) {
		diag_error(e->d, at, "job '%s': filename_format=%s: $clientuid is "
			   "fio's client/server mode, not supported", jp->s->name, fmt);
		return -1;
	}
	fmt = replace_all(&e->a, fmt, "$jobname", jp->s->name);
	per_clone = strstr(fmt, "$jobnum") != NULL;
	per_file = strstr(fmt, "$filenum") != NULL;
	if (per_file && !per_clone && o->nrfiles > 1) {
		diag_error(e->d, at, "job '%s': filename_format=%s: files shared by "
			   "the clones, one per $filenum, are not supported (flowbench "
			   "shares a job's files among its clones only round robin)",
			   jp->s->name, fmt);
		return -1;
	}
	if (o->nrfiles > 1 && !per_file) {
		/* nrfiles entries of one name: one file */
		if (!o->filesize && o->size && !o->size_pct) {
			o->filesize = o->size / (uint64_t)o->nrfiles;
			if (!o->filesize)
				o->filesize = o->size;
		} else if (o->filesize && !o->size) {
			o->size = o->filesize * (uint64_t)o->nrfiles;
		}
		jp->fmt_one_file = true;
		o->nrfiles = 1;
	}
	if (!per_clone) {
		o->filename = replace_all(&e->a, fmt, "$filenum", "0");
		jp->fmt_note = "the clones share that one file (no $jobnum), as "
			       "with filename=";
		return 0;
	}
	slash = strrchr(fmt, '/');
	if (slash) {
		const char *dir = arena_strndup(&e->a, fmt, (size_t)(slash - fmt));

		if (strchr(dir, '$')) {
			diag_error(e->d, at, "job '%s': filename_format=%s: a keyword "
				   "in the directory is not supported (flowbench's "
				   "fileset has one directory)", jp->s->name,
				   o->filename_format);
			return -1;
		}
		o->directory = fmt[0] == '/' || !o->directory ? (*dir ? dir : "/") :
			arena_printf(&e->a, "%s/%s", o->directory, dir);
	}
	jp->fmt_note = "each clone has its own file(s), as fio's $jobnum names "
		       "them (the fileset's entries, named 00000001, ... by flowbench)";
	return 0;
}

/* -D filesize_N=SIZE (job N), else -D filesize=SIZE (every job): the
 * real size of the job's file or device.  1 with *v, 0 if not given, -1
 * after an error. */
static int real_size(struct emit *e, const struct job_plan *jp, uint64_t *v)
{
	const char *name = arena_printf(&e->a, "filesize%s", jp->sfx);
	const char *d = fio_define(e->jf, name);

	if (!d && *jp->sfx)
		d = fio_define(e->jf, name = "filesize");
	if (!d)
		return 0;
	if (fio_parse_size(d, v) != 0 || *v == 0) {
		diag_error(e->d, (struct src_loc){ 0, 0 }, "-D %s=%s: a positive size "
			   "like 4k, 1m or 20g (the size of job '%s''s file or device)",
			   name, d, jp->s->name);
		return -1;
	}
	return 1;
}

/* pct % of v, exactly (v up to 2^63 - 1). */
static uint64_t percent_of(uint64_t v, uint64_t pct)
{
	return v / 100 * pct + v % 100 * pct / 100;
}

/*
 * The sizes fio takes from the file or device itself: no size (the whole
 * of it), size=N% and offset=N% (a part of it).  With -D filesize=SIZE
 * (filesize_N) they become bytes: size=N% is the region of N % of SIZE
 * the job works in, offset=N% where that region starts.  Without it, a
 * percentage of a size the job file does not give is an error (even with
 * --lenient: it is how much work the job does), and no size at all is
 * left to plan.c (-D at run time).
 */
int fio_plan_real_size(struct emit *e, struct job_plan *jp)
{
	struct fio_opts *o = jp->lo;
	uint64_t real = 0;
	bool sized = (fio_given(o, FIO_OPT_SIZE) || fio_given(o, FIO_OPT_FILESIZE)) &&
		     !o->fill_device;
	/* a job without size on a file an earlier job defines takes that
	 * job's size, as fio takes the file's */
	bool owner = e->files[jp->file].job == jp - e->jobs;
	bool need = (o->offset_pct && !o->filesize) || (o->size_pct && !o->filesize) ||
		    (!sized && owner);
	int given = need ? real_size(e, jp, &real) : 0;

	if (given < 0)
		return -1;
	if (o->offset_pct && !o->filesize && !given) {
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_OFFSET), "job '%s': "
			   "offset=%llu%% of a size the job file does not give: give the "
			   "file's or device's size with -D filesize%s=SIZE", jp->s->name,
			   (unsigned long long)o->offset_pct, jp->sfx);
		return -1;
	}
	if (o->size_pct && !o->filesize && !given) {
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_SIZE), "job '%s': size=%llu%% "
			   "of a size the job file does not give (fio takes the file's "
			   "or device's): give it with -D filesize%s=SIZE, or give "
			   "filesize=", jp->s->name, (unsigned long long)o->size_pct,
			   jp->sfx);
		return -1;
	}
	if (o->offset_pct) {
		o->offset = percent_of(o->filesize ? o->filesize : real, o->offset_pct);
		o->offset -= o->offset % o->bs;
		jp->real_note = arena_printf(&e->a, "offset=%llu%% is %llu bytes",
					     (unsigned long long)o->offset_pct,
					     (unsigned long long)o->offset);
		o->offset_pct = 0;
	}
	if (!given || (sized && !o->size_pct))
		return 0;
	/* the region of the file or device the job works in */
	o->size = o->size_pct ? percent_of(real, o->size_pct) : real;
	if (!fio_given(o, FIO_OPT_SIZE)) {
		fio_give(o, FIO_OPT_SIZE);
		o->at[FIO_OPT_SIZE] = (struct src_loc){ jp->s->line, 1 };
	}
	o->text[FIO_OPT_SIZE] = arena_printf(&e->a, "%llu", (unsigned long long)o->size);
	jp->real_note = arena_printf(&e->a, "%s%sthe %s is %llu bytes (-D filesize%s)%s",
				     jp->real_note ? jp->real_note : "",
				     jp->real_note ? "; " : "",
				     o->fill_device ? "file system" : "file or device",
				     (unsigned long long)real, jp->sfx, o->size_pct ?
				     arena_printf(&e->a, ": size=%llu%% is %llu bytes",
						  (unsigned long long)o->size_pct,
						  (unsigned long long)o->size) : "");
	o->size_pct = 0;
	o->fill_device = false;
	return 0;
}
