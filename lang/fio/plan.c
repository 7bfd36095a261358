/*
 * plan.c - what each fio job becomes, decided before anything is
 * printed (emit.h): its file or the device it stands for, its sizes
 * and iterations per pass, its pacing, zones, strides, verify read-back,
 * the phases jobs run in, the run's rate and time.  Every option that
 * cannot be honoured is refused here at its line, all of them in one
 * pass, or with --lenient dropped with a `# NOT IMPORTED:` note.
 */
#include "lang/fio/emit.h"
#include "plan/oom.h"

#include <ctype.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

static int plan_device(struct emit *e, struct job_plan *jp, int index,
		       const char *dev);

/*
 * --lenient: an option of job `jp` that the workload cannot honour is
 * left out, with a NOT IMPORTED note under the job and a warning at the
 * option's line; false (the caller reports the error) without --lenient,
 * or for an option that changes how much work the job does or what it
 * measures (keep.c), which --lenient never drops.
 */
static bool drop_option(struct emit *e, struct job_plan *jp, enum fio_opt id,
			const char *name, const char *why)
{
	struct src_loc at = fio_opt_loc(jp->s, id);

	if (!e->lenient || fio_keep_why(name))
		return false;
	diag_warning(e->d, at, "job '%s': %s=%s: not imported (--lenient): %s; the "
		     "job runs without it", jp->s->name, name, jp->s->opts.text[id], why);
	if (!(jp->ndropped & (jp->ndropped - 1))) {
		const char **d = arena_alloc(&e->a, (size_t)(jp->ndropped ? 2 *
					     jp->ndropped : 1) * sizeof(*d));

		if (jp->ndropped)
			memcpy(d, jp->dropped, (size_t)jp->ndropped * sizeof(*d));
		jp->dropped = d;
	}
	jp->dropped[jp->ndropped++] = arena_printf(&e->a, "NOT IMPORTED: %s=%s "
						   "(%s: %s)", name, jp->s->opts.text[id],
						   fio_where(e->jf, &e->a, at.line), why);
	return true;
}

/* `path` (absolute) with `.` and `..` taken away as words, in the arena:
 * no link is followed, the import looks at no file. */
static const char *lexical_path(struct arena *a, const char *path)
{
	char *text = arena_strdup(a, path), *save = NULL, *w;
	char *out = arena_alloc(a, strlen(text) + 2);
	size_t n = 0;

	for (w = strtok_r(text, "/", &save); w; w = strtok_r(NULL, "/", &save)) {
		if (strcmp(w, ".") == 0)
			continue;
		if (strcmp(w, "..") == 0) {
			while (n > 0 && out[--n] != '/')
				;
			continue;
		}
		n += (size_t)sprintf(out + n, "/%s", w);
	}
	if (!n)
		out[n++] = '/';
	out[n] = '\0';
	return out;
}

/* Whether a `..` of relative name `rel` climbs above where it starts. */
static bool climbs_out(struct arena *a, const char *rel)
{
	char *text = arena_strdup(a, rel), *save = NULL, *w;
	long depth = 0;

	for (w = strtok_r(text, "/", &save); w; w = strtok_r(NULL, "/", &save)) {
		if (strcmp(w, "..") == 0 && --depth < 0)
			return true;
		if (strcmp(w, ".") != 0 && strcmp(w, "..") != 0)
			depth++;
	}
	return false;
}

/*
 * A relative filename whose `..` climbs out of the job's directory, even
 * to come back (directory=/etc, filename=../../etc/passwd): the import
 * keeps it (fio would open it) and says at the filename line where it
 * leads, that -D dir= does not move it, and that the run's guard
 * refuses it in a system or shared directory.
 */
static void warn_escape(struct emit *e, const struct job_plan *jp, const char *base)
{
	const struct fio_opts *o = &jp->s->opts;
	const char *dir = lexical_path(&e->a, base);

	if (!o->filename || o->filename[0] == '/' || strcmp(dir, "/") == 0 ||
	    !climbs_out(&e->a, o->filename))
		return;
	diag_warning(e->d, fio_opt_loc(jp->s, FIO_OPT_FILENAME), "job '%s': "
		     "filename=%s resolves outside its directory %s (its `..` "
		     "leave it; it names %s): -D dir= does not move the file, and "
		     "the run refuses it where it is in a system or shared "
		     "directory (/etc, /usr, /tmp itself, ...)", jp->s->name,
		     o->filename, base, lexical_path(&e->a, arena_printf(&e->a,
		     "%s/%s", base, o->filename)));
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
		f.dir = fio_dir_index(e, base);
		f.name = fio_unique_name(e, arena_printf(&e->a, "%s-files",
						     jp->s->name), "j");
		goto add;
	}
	warn_escape(e, jp, base);
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
	if ((same = fio_lookup(&e->file_index, full))) {
		struct job_plan *oj = &e->jobs[e->files[same->val].job];
		const struct fio_opts *owner = &oj->s->opts;

		/* offset_increment's clones: the first one's file is made
		 * long enough for every clone's region */
		if (jp->nclones > 1 && oj->first_clone == jp->first_clone &&
		    o->offset >= owner->offset) {
			if (o->offset - owner->offset > oj->file_extra)
				oj->file_extra = o->offset - owner->offset;
		} else if (o->offset || owner->offset) {
			diag_error(e->d, fio_opt_loc(jp->s, o->offset ? FIO_OPT_OFFSET :
						 FIO_OPT_FILENAME), "job '%s': offset on a "
				   "file another job uses too is not supported (flowbench "
				   "sizes the file for the job that defines it)", jp->s->name);
			return -1;
		}
		jp->file = same->val;
		jp->dir = e->files[same->val].dir;
		return 0;
	}
	f.path = fio_insert(e, &e->file_index, full, e->nfiles)->key;
	f.name = fio_unique_name(e, slash + 1, "f");
	f.dir = fio_dir_index(e, slash == full ? "/" :
			  arena_strndup(&e->a, full, (size_t)(slash - full)));
add:
	e->files = fio_grow(e->files, e->nfiles, sizeof(*e->files));
	e->files[e->nfiles] = f;
	jp->file = e->nfiles++;
	jp->dir = f.dir;
	return 0;
}

/*
 * filename=/dev/X: the device itself, a `define device` the jobs naming
 * it share (runtime/fileset/blkdev.h: a run writes it only when the
 * command line names it, and never over data).  /dev/null and /dev/zero
 * are not block devices and store nothing: an error, or with --lenient a
 * file in the job's directory as before.
 */
static int plan_device(struct emit *e, struct job_plan *jp, int index,
		       const char *dev)
{
	const struct fio_opts *o = &jp->s->opts;
	struct src_loc at = fio_opt_loc(jp->s, FIO_OPT_FILENAME);   /* or the section's */
	struct out_file f = { .job = index, .device = dev, .blockdev = true };
	struct keyed *same = fio_lookup(&e->file_index, dev);
	const char *what = o->filename ? "filename=" : "the job's name (fio's file) ";
	bool null = strcmp(dev, "/dev/null") == 0 || strcmp(dev, "/dev/zero") == 0;

	if (!e->lenient && null) {
		diag_error(e->d, at, "job '%s': %s%s stores nothing: flowbench works "
			   "on files it creates and block devices (--lenient makes it a "
			   "file)", jp->s->name, what, dev);
		return -1;
	}
	if (null) {
		f.blockdev = false;
		diag_warning(e->d, at, "job '%s': %s%s stores nothing: the job runs on "
			     "a file in the job's directory (--lenient)", jp->s->name, what,
			     dev);
	}
	if (same) {
		jp->file = same->val;
		jp->dir = e->files[same->val].dir;
		return 0;
	}
	f.path = fio_insert(e, &e->file_index, dev, e->nfiles)->key;
	f.name = fio_unique_name(e, strrchr(dev, '/')[1] ? strrchr(dev, '/') + 1 : "dev", "f");
	f.dir = fio_dir_index(e, o->directory ? o->directory : "/tmp");
	if (!o->directory && null)
		e->dir_default = true;
	e->files = fio_grow(e->files, e->nfiles, sizeof(*e->files));
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
		diag_error(e->d, fio_opt_loc(s, id), "job '%s': %s is too large: more "
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

	if (__builtin_mul_overflow(fio_bs_extreme(o, false), (uint64_t)o->nrfiles, &block) ||
	    block > FIO_SIZE_MAX) {
		diag_error(e->d, fio_opt_loc(s, FIO_OPT_BS), "bs=%s x nrfiles=%lld is too "
			   "large: more than 2^63-1 bytes", fio_given(o, FIO_OPT_BS) ?
			   o->text[FIO_OPT_BS] : "4k", o->nrfiles);
		return -1;
	}
	total = o->size;
	if (o->filesize && checked_mul(e, s, FIO_OPT_FILESIZE, o->filesize,
				       (uint64_t)o->nrfiles, &total,
				       "filesize x nrfiles") < 0)
		return -1;
	/* block >= 1: bs and nrfiles are at least 1 (the parser's ranges) */
	jp->filesize = total / block * block;
	if (jp->filesize == 0) {
		diag_error(e->d, fio_opt_loc(s, o->filesize ? FIO_OPT_FILESIZE : FIO_OPT_SIZE),
			   "job '%s': %s=%llu is smaller than bs x nrfiles (%llu)",
			   s->name, o->filesize ? "filesize" : "size",
			   (unsigned long long)(o->filesize ? o->filesize : o->size),
			   (unsigned long long)block);
		return -1;
	}
	/* io_size: the bytes the job does, in its region (fio's io_limit) */
	jp->iobytes = o->io_size ? o->io_size : o->size_pct ?
		      jp->filesize / 100 * o->size_pct + jp->filesize % 100 * o->size_pct / 100 :
		      o->filesize && o->size ? o->size : jp->filesize;
	if (jp->iobytes == 0) {
		diag_error(e->d, fio_opt_loc(s, FIO_OPT_SIZE), "job '%s': size=%s of %llu "
			   "bytes is 0 bytes", s->name, o->text[FIO_OPT_SIZE],
			   (unsigned long long)jp->filesize);
		return -1;
	}
	return checked_mul(e, s, FIO_OPT_LOOPS, jp->iobytes, (uint64_t)o->loops,
			   &jp->iobytes, "size x loops");
}

/*
 * A read/write mix (rw=randrw, rw=rw with rwmixread/rwmixwrite) and a
 * random/sequential split (percentage_random, plan_pct_random) are
 * drawn per I/O as fio draws them: a choice (jp->choice, written by
 * write.c) whose pass is one I/O.  fsync=1 makes each write member a
 * write and its fsync.  On an asynchronous engine at an iodepth the
 * members are aioread and aiowrite of that iodepth, which share one
 * queue as members of a choice (flowops/aio.c): one request per draw,
 * as fio's loop.  One mix stays a fixed pass (R reads, then W writes),
 * said on stderr (fixed_pass_warning()): with an fsync after every N > 1
 * writes, which needs a count of the writes a choice does not keep (with
 * a split too, an error).
 */
static int plan_choice(struct emit *e, struct job_plan *jp, long long every)
{
	const struct fio_opts *o = &jp->s->opts;
	bool both = jp->reads && jp->writes;

	if (!both && !jp->seqmix)
		return 0;
	if (both && every > 1 && jp->seqmix) {
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_PCT_RANDOM), "job '%s': "
			   "percentage_random with a read/write mix and %s=%lld is not "
			   "supported: flowbench draws each I/O at random but keeps no "
			   "count of the writes for an %s after every %lld", jp->s->name,
			   fio_fsync_name(o), every, fio_fsync_name(o), every);
		return -1;
	}
	if (both && every > 1)
		return 0;               /* a fixed pass (plan_iterations says so) */
	jp->choice = true;
	jp->cname = fio_unique_name(e, arena_printf(&e->a, "%s-mix", jp->name), "j");
	if (!both)
		return 0;
	jp->reads = jp->writes = 1;
	if (every == 1) {
		jp->wsync = true;
		jp->wsname = fio_unique_name(e, arena_printf(&e->a, "%s-wsync",
							     jp->name), "j");
	}
	return 0;
}

/*
 * The flowop iterations of one pass: the mix's reads and writes, made
 * whole fsync intervals, or one draw of a choice (plan_choice).  Products
 * checked (at most 100 x 10^9 within the parser's ranges, but checked all
 * the same).
 */
static int plan_iterations(struct emit *e, struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	long long k;

	if (fio_is_mixed(o->rw)) {
		fio_mix(o->rwmixread, &jp->reads, &jp->writes);
	} else {
		jp->reads = !fio_is_write(o->rw);
		jp->writes = fio_is_write(o->rw);
	}
	long long every = fio_fsync_every(o);

	if (plan_choice(e, jp, every) < 0)
		return -1;
	if (!every || !jp->writes || jp->wsync)
		return 0;
	/* a pass of whole fsync intervals: N / fio_gcd(writes, N) times more;
	 * writes and fsync are >= 1 here, so neither gcd nor N is 0 */
	k = every / fio_gcd(jp->writes, every);
	if (__builtin_mul_overflow(jp->reads, k, &jp->reads) ||
	    __builtin_mul_overflow(jp->writes, k, &jp->writes)) {
		diag_error(e->d, fio_opt_loc(jp->s, o->fsync ? FIO_OPT_FSYNC : FIO_OPT_FDATASYNC),
			   "%s=%lld: a pass of whole fsync intervals is too large",
			   fio_fsync_name(o), every);
		return -1;
	}
	jp->fsyncs = jp->writes / every;
	return 0;
}

/* A mix plan_choice() left a fixed pass: said on stderr, at rw=. */
static void fixed_pass_warning(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;

	if (!jp->reads || !jp->writes || jp->choice)
		return;
	diag_warning(e->d, fio_opt_loc(jp->s, FIO_OPT_RW), "job '%s': rw=%s with %s=%lld: "
		     "each pass does %lld read%s then %lld write%s in that order, "
		     "not fio's random choice per I/O (a choice keeps no count of "
		     "the writes for an fsync after every N)", jp->s->name,
		     o->text[FIO_OPT_RW], fio_fsync_name(o), fio_fsync_every(o),
		     jp->reads, jp->reads == 1 ? "" : "s", jp->writes,
		     jp->writes == 1 ? "" : "s");
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

	if ((o->rate || o->rate_iops) && fio_is_mixed(o->rw))
		diag_error(e->d, fio_opt_loc(s, o->rate ? FIO_OPT_RATE : FIO_OPT_RATE_IOPS),
			   "job '%s': %s with rw=%s is not supported: fio limits reads "
			   "and writes each on its own, flowbench a job's total", s->name,
			   o->rate ? "rate" : "rate_iops", o->text[FIO_OPT_RW]);
	else if (o->rate && o->rate_iops)
		diag_error(e->d, fio_opt_loc(s, FIO_OPT_RATE_IOPS), "job '%s': rate and "
			   "rate_iops together are not supported: flowbench's one "
			   "event generator counts either I/Os or MiB", s->name);
	if (!o->thinktime_us)
		return e->d->errors == errs ? 0 : -1;
	/* a choice's pass is one I/O: the pause follows each, as in fio; so
	 * is an asynchronous job's at iodepth 1 */
	if ((fio_is_mixed(o->rw) && !jp->choice) || jp->fsyncs || jp->wsync ||
	    (jp->aio && o->iodepth > 1))
		diag_error(e->d, fio_opt_loc(s, FIO_OPT_THINKTIME), "job '%s': thinktime with "
			   "%s is not supported: flowbench would pause once per pass "
			   "of several I/Os, not after each one", s->name,
			   fio_is_mixed(o->rw) && !jp->choice ? "a read/write mix" :
			   jp->fsyncs || jp->wsync ? "fsync" : "iodepth > 1");
	return e->d->errors == errs ? 0 : -1;
}

static long long lcm_checked(long long a, long long b)
{
	long long r;

	return __builtin_mul_overflow(a / fio_gcd(a, b), b, &r) ? -1 : r;
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
	struct src_loc at = fio_opt_loc(s, FIO_OPT_RANDOM_DIST);
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
	if (fio_is_mixed(o->rw) || jp->fsyncs || o->thinktime_us) {
		diag_error(e->d, at, "job '%s': random_distribution=zoned with %s is "
			   "not supported", s->name, fio_is_mixed(o->rw) ?
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
		g = w[i] ? fio_gcd(g, w[i]) : g;
	}
	jp->zops = arena_alloc(&e->a, (size_t)n * sizeof(*jp->zops));
	end = 0;
	for (int i = 0; i < n; i++) {
		uint64_t ws;

		end += o->zones[i].space;
		if (!w[i])
			continue;
		ws = per_file / 100 * (uint64_t)end + per_file % 100 * (uint64_t)end / 100;
		ws -= ws % fio_bs_extreme(o, false);
		if (ws < fio_bs_extreme(o, true)) {
			diag_error(e->d, at, "job '%s': the first %lld%% of a %llu-byte "
				   "file is smaller than one block (bs=%llu)", s->name,
				   end, (unsigned long long)per_file,
				   (unsigned long long)fio_bs_extreme(o, true));
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
	if (fio_plan_real_size(e, jp) < 0)
		return -1;
	if ((fio_given(o, FIO_OPT_SIZE) || fio_given(o, FIO_OPT_FILESIZE)) && !o->fill_device)
		return plan_filesize(e, jp);
	jp->unsized = true;
	if (o->io_size && checked_mul(e, s, FIO_OPT_IO_SIZE, o->io_size, (uint64_t)o->loops,
				      &jp->iobytes, "io_size x loops") < 0)
		return -1;
	if (f->job != index) {
		const struct job_plan *owner = &e->jobs[f->job];

		snprintf(jp->fsfx, sizeof(jp->fsfx), "%s", owner->fsfx);
		jp->needs_size = owner->needs_size;
		return 0;
	}
	if (!f->device && !o->fill_device && !e->lenient) {
		diag_error(e->d, (struct src_loc){ s->line, 1 }, "job '%s': no size: "
			   "give size= or filesize= (flowbench creates the file, so it "
			   "must know how large), or the size of the file fio would "
			   "find with -D filesize%s=SIZE", s->name, jp->sfx);
		return -1;
	}
	jp->needs_size = true;
	diag_warning(e->d, o->fill_device ? fio_opt_loc(s, FIO_OPT_FILL_DEVICE) : f->device ?
		     fio_opt_loc(s, FIO_OPT_FILENAME) : (struct src_loc){ s->line, 1 },
		     "job '%s': %s: the file's size is not in the job file: give it "
		     "when running, with -D filesize%s=SIZE", s->name, o->fill_device ?
		     "fill_device=1 (fio fills the file system)" : f->device ?
		     "no size (fio would use the whole device)" : "no size (--lenient)",
		     jp->fsfx);
	return 0;
}

/*
 * Random offsets: fio aligns them to blockalign, by default the smallest
 * size.  With one size and blockalign = bs that is flowbench's own rule
 * (whole I/O-size blocks); sizes that vary (bssplit, bsrange) or another
 * blockalign get blockalign= (jp->blockalign).  fio's random map
 * (jp->randommap: one file, no zones, not norandommap) is flowbench's
 * randommap: with one size, a permutation of whole bs blocks; with sizes
 * that vary, a map of blocks of the smallest size (blockalign, fio's own
 * map: runtime/base/bmap.h).  A blockalign other than the smallest size
 * with the map is an error (dropped with --lenient): fio draws its blocks
 * in units of blockalign but marks them in units of the smallest size, a
 * mix flowbench does not copy.  Sequential I/O is not aligned by it in
 * fio either.
 */
static int plan_blockalign(struct emit *e, struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	bool varies = o->nbss || o->bs_max;
	uint64_t minbs = fio_bs_extreme(o, false);
	uint64_t ba = o->blockalign ? o->blockalign : minbs;

	jp->randommap = jp->random && !o->norandommap && !o->nzones && o->nrfiles <= 1;
	if (!jp->random || (!varies && ba == o->bs))
		return 0;
	if (!jp->randommap || ba == minbs) {
		jp->blockalign = ba;
		return 0;
	}
	if (drop_option(e, jp, FIO_OPT_BLOCKALIGN, "blockalign", "fio's random map "
			"marks blocks of the smallest size")) {
		jp->lo->blockalign = 0;
		jp->blockalign = varies ? minbs : 0;
		return 0;
	}
	diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_BLOCKALIGN), "job '%s': blockalign=%s "
		   "with fio's random map is not supported: fio draws blocks of "
		   "blockalign but marks blocks of the smallest size (%llu) done, and "
		   "flowbench's randommap does one or the other (norandommap makes the "
		   "offsets aligned to blockalign, drawn with replacement)", jp->s->name,
		   o->text[FIO_OPT_BLOCKALIGN], (unsigned long long)minbs);
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
	struct src_loc at = fio_opt_loc(s, FIO_OPT_VERIFY);

	if (!o->verify || !o->do_verify || !jp->writes)
		return 0;
	if ((fio_is_mixed(o->rw) || o->time_based) &&
	    drop_option(e, jp, FIO_OPT_VERIFY, "verify", fio_is_mixed(o->rw) ?
			"verify with a read/write mix" : "verify with time_based")) {
		jp->lo->verify = NULL;
		return 0;
	}
	if (fio_is_mixed(o->rw) || o->time_based) {
		diag_error(e->d, at, "job '%s': verify with %s is not supported", s->name,
			   fio_is_mixed(o->rw) ? "a read/write mix (fio checks reads "
			   "during the job)" : "time_based (the read-back follows "
			   "the writes, which here end only with the run)");
		return -1;
	}
	jp->vname = fio_unique_name(e, arena_printf(&e->a, "%s-verify", s->name), "j");
	e->phases = true;
	diag_warning(e->d, at, "job '%s': verify=%s: the read-back runs as process "
		     "%s after the job, but flowbench does not check the data", s->name,
		     o->verify, jp->vname);
	return 0;
}

/*
 * end_fsync (fsync_on_close: flowbench closes a job's files when it
 * ends): when a job that writes has done its I/O, fio fsyncs each of its
 * files.  Here a process of its own after the job, one fsync per clone
 * on the clone's file (each instance opens the next file, as the job's
 * clones do), then done: the same I/O, in the same order; its latency
 * is a line of its own, where fio counts the time in the job's.
 * nrfiles > 1 is an error (one fsync would not reach every file).
 */
static int plan_end_fsync(struct emit *e, struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;

	if (!o->end_fsync || !jp->writes)
		return 0;
	if (o->nrfiles > 1) {
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_END_FSYNC), "job '%s': "
			   "end_fsync (fsync_on_close) with nrfiles > 1 is not "
			   "supported", jp->s->name);
		return -1;
	}
	jp->fname = fio_unique_name(e, arena_printf(&e->a, "%s-end_fsync",
						    jp->s->name), "j");
	e->phases = true;
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
		drop_option(e, jp, FIO_OPT_RANDOM_DIST, "random_distribution",
			    msg ? msg + 2 : why);
		jp->lo->nzones = 0;
		jp->nzops = 0;
	}
	free(why);
	return 0;
}

/*
 * percentage_random=N: 100 is fio's default, 0 makes a random job
 * sequential (exactly).  In between, fio draws per I/O whether its
 * offset is random (odds N in 100) or continues a sequential run from
 * the end of the job's previous I/O, random or not: a choice between a
 * random flowop that leaves the slot's offset at its end (seqfollows)
 * and a sequential one on the same slot (jp->seqmix, plan_choice).
 * Not with aioread/aiowrite at iodepth > 1 (each its own queue) nor
 * zones (their flowops' working sets are ranges of their own): errors,
 * dropped with --lenient (the job's offsets are then all random).
 */
static int plan_pct_random(struct emit *e, struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	const char *why;

	if (o->pct_random == 100 || !jp->random)
		return 0;
	if (o->pct_random == 0) {
		jp->random = false;
		return 0;
	}
	if (!(jp->aio && o->iodepth > 1) && !o->nzones) {
		jp->seqmix = true;
		return 0;
	}
	why = jp->aio ? "at iodepth > 1 aioread/aiowrite each keep a queue of "
		"their own, so a choice per I/O would not split the queue as fio does" :
		"random_distribution=zoned's flowops each pick in a range of their own";
	if (drop_option(e, jp, FIO_OPT_PCT_RANDOM, "percentage_random", why)) {
		jp->lo->pct_random = 100;
		return 0;
	}
	diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_PCT_RANDOM), "job '%s': percentage_random="
		   "%lld is not supported here: %s (0 and 100 are supported)",
		   jp->s->name, o->pct_random, why);
	return -1;
}

/* Do two splits of bssplit hold the same sizes with the same shares? */
static bool bss_same(const struct fio_bs *a, int na, const struct fio_bs *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		if (a[i].size != b[i].size || a[i].pct != b[i].pct)
			return false;
	return true;
}

/*
 * bssplit=READS,WRITES: a job that only writes takes the writes' split
 * (fio uses a direction's own); one that only reads keeps the reads'.
 * A job that does both with two different splits is refused: its read
 * and write flowops share one $iosize.
 */
static int plan_bssplit_direction(struct emit *e, struct job_plan *jp)
{
	struct fio_opts *o = jp->lo;

	if (!o->bss_dirs)
		return 0;
	if (fio_is_write(o->rw)) {
		o->bss = o->bss_w;
		o->nbss = o->nbss_w;
		return 0;
	}
	if (!fio_is_mixed(o->rw) || bss_same(o->bss, o->nbss, o->bss_w, o->nbss_w))
		return 0;
	diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_BSSPLIT), "job '%s': bssplit=%s: "
		   "a split for reads and another for writes on a job that does both "
		   "is not supported: its read and write flowops share one size "
		   "($iosize)", jp->s->name, o->text[FIO_OPT_BSSPLIT]);
	return -1;
}

/* Decide everything about one job; errors for what cannot be expressed. */
int fio_plan_job(struct emit *e, struct job_plan *jp, int index)
{
	const struct fio_opts *o = &jp->s->opts;
	struct src_loc loc = { jp->s->line, 1 };
	int errs = e->d->errors;

	jp->name = fio_unique_name(e, jp->s->name, "j");
	if (e->njobs > 1)
		snprintf(jp->sfx, sizeof(jp->sfx), "_%d", index + 1);
	/* fio warns and runs the job as if without time_based */
	if (o->time_based && !o->runtime_us) {
		diag_warning(e->d, fio_opt_loc(jp->s, FIO_OPT_TIME_BASED), "job '%s': "
			     "time_based without runtime: fio says \"time_based requires "
			     "a runtime/timeout setting\" and runs the job without it, "
			     "as here", jp->s->name);
		jp->lo->time_based = false;
		jp->time_based_dropped = true;
	}
	/* fio 3.33 runs a time_based job until its runtime whatever number_ios
	 * says (measured: number_ios=100, 1 s: 10051 writes, every block of the
	 * file alike, no reopen) */
	if (o->time_based && o->number_ios) {
		diag_warning(e->d, fio_opt_loc(jp->s, FIO_OPT_NUMBER_IOS), "job '%s': "
			     "number_ios=%lld with time_based: fio runs the job for its "
			     "runtime regardless, as here", jp->s->name, o->number_ios);
		jp->nios_ignored = o->number_ios;
		jp->lo->number_ios = 0;
	}
	if (fio_fsync_every(o) && o->nrfiles > 1)
		diag_error(e->d, loc, "job '%s': %s with nrfiles > 1 is not "
			   "supported", jp->s->name, fio_fsync_name(o));
	if (o->openfiles && o->openfiles < o->nrfiles)
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_OPENFILES), "job '%s': openfiles=%lld "
			   "below nrfiles=%lld is not supported: flowbench keeps every "
			   "file of the job open (fio would close and reopen them)",
			   jp->s->name, o->openfiles, o->nrfiles);
	if (o->offset && o->nrfiles > 1)
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_OFFSET), "job '%s': offset with "
			   "nrfiles > 1 is not supported", jp->s->name);
	if (o->offset_increment && o->numjobs > 1 &&
	    drop_option(e, jp, FIO_OPT_OFFSET_INCREMENT, "offset_increment",
			"flowbench has no per-clone offset"))
		jp->lo->offset_increment = 0;
	else if (o->offset_increment && o->numjobs > 1)
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_OFFSET_INCREMENT), "job '%s': "
			   "offset_increment with numjobs > 1 is not supported: the "
			   "clones of a job run the same flowops, flowbench has no "
			   "per-clone offset", jp->s->name);
	if (o->fsync && o->fdatasync)
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_FDATASYNC), "job '%s': fsync and "
			   "fdatasync together are not supported", jp->s->name);
	if (e->jf->readonly && (fio_is_write(o->rw) || fio_is_mixed(o->rw)))
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_RW), "job '%s': rw=%s with "
			   "--readonly: fio refuses to run a job that writes", jp->s->name,
			   o->text[FIO_OPT_RW]);
	if (o->io_size && o->size_pct)
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_IO_SIZE), "job '%s': io_size "
			   "with size=N%% is not supported", jp->s->name);
	if (e->d->errors != errs || plan_bssplit_direction(e, jp) < 0 ||
	    fio_plan_filename_format(e, jp) < 0 || plan_file(e, jp, index) < 0)
		return -1;
	if (plan_size(e, jp, index) < 0)
		return -1;
	/* the job's own engine, buffered too: libaio's io_submit then does
	 * the I/O before it returns, as the kernel does for fio */
	jp->aio = !fio_sync_engine(o->engine);
	if (jp->aio && o->iodepth > FIO_AIO_DEPTH_MAX) {
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_IODEPTH), "iodepth=%lld is too "
			   "large for ioengine=%s: flowbench keeps at most %d I/Os in "
			   "flight per flowop", o->iodepth, fio_engine_text[o->engine],
			   FIO_AIO_DEPTH_MAX);
		return -1;
	}
	jp->random = o->rw == FIO_RW_RANDREAD || o->rw == FIO_RW_RANDWRITE ||
		     o->rw == FIO_RW_RANDRW;
	if (plan_pct_random(e, jp) < 0)
		return -1;
	if (plan_iterations(e, jp) < 0)
		return -1;
	fixed_pass_warning(e, jp);
	if (plan_pacing(e, jp) < 0 ||
	    plan_zones_or_drop(e, jp) < 0 || plan_blockalign(e, jp) < 0 ||
	    plan_end_fsync(e, jp) < 0 || plan_verify(e, jp) < 0 ||
	    fio_plan_data(e, jp) < 0)
		return -1;
	/* a wrapping pass is a whole file of writes: a pause or a rate limit
	 * once per pass would come in bursts, so those jobs do not wrap */
	jp->wrap = o->time_based && o->rw == FIO_RW_WRITE && o->nrfiles == 1 &&
		   !o->seq_add && !jp->fsyncs && !jp->aio && !o->thinktime_us &&
		   !o->rate && !o->rate_iops && !o->nbss && !o->bs_max && !o->number_ios;
	/* the others wrap op by op (one file; a stride wraps by itself) */
	jp->seqwrap = o->time_based && !jp->wrap && jp->writes &&
		      (!jp->random || jp->seqmix) && o->nrfiles == 1 && !o->seq_add;
	return 0;
}

/*
 * One run time for the whole workload, when every job agrees and there
 * are no phases; otherwise (--lenient or phases) each job gets its own
 * (phase_attrs) and the run has none.
 */
int fio_plan_run_time(struct emit *e, uint64_t *runtime_us, bool *alldone)
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
				   fio_wml_seconds(b1, sizeof(b1), s->opts.runtime_us),
				   e->jobs[0].s->name,
				   fio_wml_seconds(b2, sizeof(b2), *runtime_us));
			return -1;
		}
		*runtime_us = s->opts.runtime_us;
	}
	return 0;
}

/*
 * fio's rate and rate_iops are per clone; flowbench has one event
 * generator for the whole run, which the limit flowops of every thread
 * draw from.  Its rate is the sum over the limited clones, which gives
 * each its fio rate only if all are limited alike: jobs with different
 * rates, or one in I/Os and one in bytes, are an error.  *first is the
 * first limited job, or -1.
 */
int fio_plan_rate(struct emit *e, int *first)
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
			diag_error(e->d, fio_opt_loc(s, s->opts.rate_poisson ?
						 FIO_OPT_RATE_POISSON : s->opts.rate ?
						 FIO_OPT_RATE : FIO_OPT_RATE_IOPS),
				   "job '%s': rate_process unlike job '%s''s: flowbench "
				   "has one event generator, either steady or Poisson, so "
				   "every rate-limited job needs the same rate_process",
				   s->name, f->name);
			return -1;
		}
		if (s->opts.rate != f->opts.rate || s->opts.rate_iops != f->opts.rate_iops) {
			diag_error(e->d, fio_opt_loc(s, s->opts.rate ? FIO_OPT_RATE :
						 FIO_OPT_RATE_IOPS),
				   "job '%s': a rate unlike job '%s''s: flowbench has one "
				   "event generator, so every rate-limited job needs the same "
				   "rate or rate_iops", s->name, f->name);
			return -1;
		}
	}
	return 0;
}

/*
 * The earlier jobs named `name`: the last one is in the tree `*by_name`,
 * each links to the one before it (same_name[]), so finding them costs
 * log n plus their number, whatever the job file.
 */
static int waitees(void *const *by_name, const int *same_name, const char *name,
		   int *after, int n)
{
	struct keyed *last = fio_lookup(by_name, name);

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
int fio_plan_phases(struct emit *e)
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
			diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_WAIT_FOR), "job '%s': "
				   "wait_for=%s: no job of that name before it (fio waits "
				   "only for a job defined earlier)", jp->s->name, o->wait_for);
			st = -1;
		}
		if (group || o->wait_for || o->startdelay_us ||
		    o->runtime_us != e->jobs[0].s->opts.runtime_us)
			e->phases = true;
		k = fio_lookup(&by_name, jp->s->name);
		same_name[i] = k ? k->val : -1;
		if (k)
			k->val = i;
		else
			fio_insert(e, &by_name, jp->s->name, i);
	}
	tdestroy(by_name, fio_no_free);
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
int fio_plan_exitall(struct emit *e)
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
		if (drop_option(e, jp, FIO_OPT_EXITALL, "exitall", "with run phases")) {
			jp->lo->exitall = false;
			continue;
		}
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_EXITALL), "job '%s': exitall with "
			   "run phases (stonewall, wait_for, startdelay, verify, "
			   "different runtimes) is not supported", jp->s->name);
		return -1;
	}
	return found;
}
