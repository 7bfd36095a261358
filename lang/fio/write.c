/*
 * write.c - printing the WML workload plan.c decided on: the
 * header, each job's comments (its options, what each became, where it
 * differs from fio), its file or fileset, process and flowops, and the
 * event generator.  Everything copied from the job file goes through
 * fio_commented() or fio_print_quoted() (wml.c), never raw.
 */
#include "lang/fio/emit.h"
#include "plan/oom.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/*
 * bsrange=A-B as fio draws it (its get_next_buflen()): A + B x U (U
 * uniform in [0, 1)), rounded down to a multiple of A, at most B.  With
 * B = m x A that is each of A, 2A, ..., mA with odds 1/m: one row
 * uniform over [A/2, B + A/2) rounded to the nearest multiple of A
 * (min A/2, the row's low end, keeps the table's scaling the identity;
 * A even).  Otherwise the m = floor(B / A) multiples have odds A/B each
 * and B takes the rest: one row per size (plan.c allows at most 1024).
 */
static void emit_bsrange(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	uint64_t a = o->bs, b = o->bs_max, m = b / a;
	char s1[32], s2[32], s3[32];

	if (b % a == 0 && a % 2 == 0) {
		fio_wml_size(s1, sizeof(s1), a / 2 ? a / 2 : 1);
		fprintf(e->out, "set $iosize%s=randvar(type=tabular,min=%s,round=%s,"
			"randtable={{100, %s, %s}})\n", jp->sfx, s1,
			fio_wml_size(s2, sizeof(s2), a), s1,
			fio_wml_size(s3, sizeof(s3), b + a / 2));
		return;
	}
	fprintf(e->out, "set $iosize%s=randvar(type=tabular,min=%s,round=%s,randtable={",
		jp->sfx, fio_wml_size(s1, sizeof(s1), a),
		fio_wml_size(s2, sizeof(s2), fio_gcd64(a, b)));
	for (uint64_t k = 1; k <= m; k++)
		fprintf(e->out, "%s{%.17g, %s, %s}", k > 1 ? ", " : "",
			100.0 * (double)a / (double)b, fio_wml_size(s1, sizeof(s1), k * a), s1);
	if (m * a < b)
		fprintf(e->out, ", {%.17g, %s, %s}", 100.0 - 100.0 * (double)(m * a) /
			(double)b, fio_wml_size(s2, sizeof(s2), b), s2);
	fprintf(e->out, "})\n");
}

/*
 * `$iosize`: bs, or for bssplit a tabular random variable whose rows are
 * the sizes with their shares.  min is the smallest size, so that the
 * table's own scaling (smallest low to min, its mean to its mean) is the
 * identity, and round (the sizes' gcd) keeps every sample an exact size.
 * bsrange: emit_bsrange().
 */
static void emit_iosize(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	uint64_t g = 0;
	char b[32];
	int n = 0;

	if (!o->nbss && o->bs_max) {
		emit_bsrange(e, jp);
		return;
	}
	if (!o->nbss) {
		fprintf(e->out, "set $iosize%s=%s\n", jp->sfx, fio_wml_size(b, sizeof(b), o->bs));
		return;
	}
	for (int i = 0; i < o->nbss; i++)
		if (o->bss[i].pct)
			g = fio_gcd64(g, o->bss[i].size);
	fprintf(e->out, "set $iosize%s=randvar(type=tabular,min=%s,", jp->sfx,
		fio_wml_size(b, sizeof(b), fio_bs_extreme(o, false)));
	fprintf(e->out, "round=%s,randtable={", fio_wml_size(b, sizeof(b), g));
	for (int i = 0; i < o->nbss; i++) {
		if (!o->bss[i].pct)
			continue;
		fio_wml_size(b, sizeof(b), o->bss[i].size);
		fprintf(e->out, "%s{%d, %s, %s}", n++ ? ", " : "", o->bss[i].pct, b, b);
	}
	fprintf(e->out, "})\n");
}

/* A section's header and its own option lines, as comments. */
static void comment_section(struct emit *e, const struct fio_section *s)
{
	fprintf(e->out, "# [%s]  (%s)\n", fio_commented(e, s->name), s->where);
	for (int i = 0; i < s->nlines; i++)
		fprintf(e->out, "#   %s\n", fio_commented(e, s->lines[i].text));
	for (int i = 0; i < s->nnotes; i++)
		fprintf(e->out, "# %s\n", fio_commented(e, s->notes[i].text));
}

/* fio's ramp_time: WML has no construct for it; --warmup does it. */
void fio_emit_ramp_note(struct emit *e, uint64_t us)
{
	char b[32];

	fio_wml_seconds(b, sizeof(b), us);
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

	if (fio_given(o, id) && strpbrk(t, "iI"))
		fprintf(e->out, "# %s=%s is %llu bytes: fio reads KiB, MiB, ... as "
			"powers of 1000 (its default kb_base)\n", name,
			fio_commented(e, t), (unsigned long long)v);
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
			"rate_iops", fio_commented(e, o->text[o->rate ? FIO_OPT_RATE :
							      FIO_OPT_RATE_IOPS]),
			o->rate ? "bwlimit" : "iopslimit");
	if (o->rate_poisson)     /* rate_process=poisson, or rate_poisson=1 */
		fprintf(out, "# %s=%s: %s\n", strcmp(o->text[FIO_OPT_RATE_POISSON],
			"poisson") == 0 ? "rate_process" : "rate_poisson",
			fio_commented(e, o->text[FIO_OPT_RATE_POISSON]),
			o->rate || o->rate_iops ? "the event generator's arrivals "
			"are a Poisson process of that mean rate (eventgen ..., poisson: "
			"exponential gaps)" : "no effect, the job has no rate");
	if (o->offset && e->files[jp->file].blockdev)
		fprintf(out, "# offset=%s: the job's I/O is in bytes [$offset%s, $offset%s + "
			"$filesize%s) of the device (misalign, workingset)\n",
			fio_commented(e, o->text[FIO_OPT_OFFSET]), jp->sfx, jp->sfx, jp->fsfx);
	else if (o->offset)
		fprintf(out, "# offset=%s: the file is $filesize%s + $offset%s bytes, as "
			"fio lays it out, and the job's I/O is in its last $filesize%s "
			"(misalign=$offset%s%s)\n", fio_commented(e, o->text[FIO_OPT_OFFSET]),
			jp->fsfx, jp->sfx, jp->fsfx, jp->sfx, jp->random ?
			arena_printf(&e->a, ", workingset=... + $offset%s", jp->sfx) : "");
	if (o->openfiles)
		fprintf(out, "# openfiles=%lld: no effect, flowbench keeps the job's "
			"%lld file%s open, as fio does with this many\n", o->openfiles,
			o->nrfiles, o->nrfiles == 1 ? "" : "s");
	if (fio_given(o, FIO_OPT_FILE_SERVICE))
		fprintf(out, "# file_service_type=roundrobin: as fio's default%s\n",
			o->nrfiles > 1 ? " and flowbench's opennext" : " (one file)");
	if (o->offset_increment && jp->nclones > 1)
		fprintf(out, "# offset_increment=%s: fio's clone %d of %d of job '%s', "
			"a job of its own here at offset $offset%s (flowbench's "
			"instances of one process would all work at one offset)%s\n",
			fio_commented(e, o->text[FIO_OPT_OFFSET_INCREMENT]), jp->clone + 1,
			jp->nclones, fio_commented(e, jp->s->name), jp->sfx,
			jp->file_extra ? "; the file is long enough for every clone's "
			"region, as fio extends it" : "");
	else if (o->offset_increment)
		fprintf(out, "# offset_increment=%s: no effect with one clone\n",
			fio_commented(e, o->text[FIO_OPT_OFFSET_INCREMENT]));
	if (o->nbss)
		fprintf(out, "# bssplit=%s: each I/O's size is drawn from %s table "
			"(a tabular randvar, $iosize%s)%s\n",
			fio_commented(e, o->text[FIO_OPT_BSSPLIT]),
			!o->bss_dirs ? "a" : fio_is_write(o->rw) ? "the writes'" :
			fio_is_mixed(o->rw) ? "the one" : "the reads'",
			jp->sfx, jp->blockalign ? arena_printf(&e->a, "; random offsets "
			"are multiples of %llu bytes, as fio aligns them (blockalign)",
			(unsigned long long)jp->blockalign) : "");
	else if (o->bs_max)
		fprintf(out, "# %s: each I/O's size drawn as fio draws it, a multiple of "
			"the smallest, each with odds %s (a tabular randvar, $iosize%s)%s\n",
			fio_commented(e, arena_printf(&e->a, "bsrange=%s", o->text[FIO_OPT_BS])),
			o->bs_max % o->bs ? "smallest/largest, the largest the rest" :
			"smallest/largest", jp->sfx, jp->blockalign ? arena_printf(&e->a,
			"; random offsets are multiples of %llu bytes, as fio aligns them "
			"(blockalign)", (unsigned long long)jp->blockalign) : "");
	if (jp->data_note)
		fprintf(out, "# %s\n", fio_commented(e, jp->data_note));
	if (o->thinktime_us)
		fprintf(out, "# thinktime=%s: a delay of $thinktime%s (%s s) after "
			"each I/O\n", fio_commented(e, o->text[FIO_OPT_THINKTIME]), jp->sfx,
			fio_wml_seconds(b, sizeof(b), o->thinktime_us));
	else if (fio_given(o, FIO_OPT_THINKTIME))
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
		"not move them\n", fio_commented(e, o->text[FIO_OPT_RANDOM_DIST]),
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

	if (f->device && f->blockdev && f->job == jp - e->jobs)
		fprintf(out, "# %s%s: the block device itself (define device %s); a "
			"run writes it only with --write-device %s, and never over a "
			"file system, partition table or other data on it\n", o->filename ?
			"filename=" : "the job's name (fio's file) ",
			fio_commented(e, f->device), f->name, fio_commented(e, f->device));
	if (f->device && !f->blockdev && f->job == jp - e->jobs) {
		fprintf(out, "# %s%s stores nothing: the job runs on the file %s in ",
			o->filename ? "filename=" : "the job's name (fio's file) ",
			fio_commented(e, f->device), f->name);
		fio_print_dir_var(e, f->dir);
		fprintf(out, " (--lenient)\n");
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
			fio_commented(e, e->jobs[f->job].s->name), jp->fsfx);
	if (o->blockalign)
		fprintf(out, "# blockalign=%s: %s\n", fio_commented(e, o->text[FIO_OPT_BLOCKALIGN]),
			!jp->random ? "no effect, the job's I/O is sequential" :
			jp->blockalign ? "random offsets are multiples of it (blockalign)" :
			"flowbench aligns random offsets to the I/O size anyway");
	if (o->verify && jp->vname)
		fprintf(out, "# verify=%s: fio reads back and checks what the job wrote; "
			"process %s reads the same bytes after the job, but flowbench does "
			"not check the data (fio's I/O pattern, not its checksum's CPU "
			"cost)\n", fio_commented(e, o->verify), jp->vname);
	else if (o->verify && !o->do_verify)
		fprintf(out, "# verify=%s with do_verify=0: no read-back\n",
			fio_commented(e, o->verify));
	else if (o->verify)
		fprintf(out, "# verify=%s: fio checks the data it reads; flowbench reads "
			"it but does not check it\n", fio_commented(e, o->verify));
	if (o->number_ios)
		fprintf(out, "# number_ios=%lld: each clone stops after $nios%s reads "
			"and writes (finishoncount, checked once per pass: it may do "
			"one pass more than fio)\n", o->number_ios, jp->sfx);
	if (o->seq_add)
		fprintf(out, "# rw=%s: sequential, each I/O %s bytes from the end of "
			"the one before (stride=%s%s), wrapping at the file's ends as "
			"fio does\n", fio_commented(e, o->text[FIO_OPT_RW]),
			fio_signed_size(b, sizeof(b), o->seq_add),
			fio_signed_size(b2, sizeof(b2), o->seq_add),
			o->seq_add < 0 ? ", backwards" : "");
	if (jp->random && !o->direct && o->fadvise_hint)
		fprintf(out, "# random I/O: fio advises the kernel POSIX_FADV_RANDOM "
			"(fadvise_hint=1, its default: no readahead); noreadahead does "
			"the same\n");
	else if (!jp->random && !o->direct && o->fadvise_hint)
		fprintf(out, "# sequential I/O: fio advises the kernel "
			"POSIX_FADV_SEQUENTIAL (fadvise_hint=1, its default: a larger "
			"readahead window); flowbench leaves the kernel's default\n");
	if (o->norandommap)
		fprintf(out, "# norandommap: plain random (with replacement): "
			"flowbench's default%s\n", jp->random ? "" :
			"; no effect, the job's I/O is sequential");
	else if (jp->random && !jp->randommap)
		fprintf(out, "# fio's random map (every block once per pass): "
			"not with %s; offsets drawn with replacement\n",
			o->nzones ? "zones (random_distribution=zoned)" :
			"several files (each op on another file's slot)");
	else if (jp->random && jp->blockalign)
		fprintf(out, "# fio's random map: randommap over blocks of %llu bytes "
			"(blockalign): a random block, or the next one not done yet, each "
			"I/O cut short before a block done already, every block once per "
			"pass, as fio's map\n", (unsigned long long)jp->blockalign);
	if (jp->seqmix)
		fprintf(out, "# percentage_random=%lld: each I/O's offset is random with "
			"odds $pctrandom%s in 100, else it follows the job's previous "
			"I/O (random ones leave the offset at their end: seqfollows), drawn "
			"per I/O as fio does (the choice %s)%s\n", o->pct_random, jp->sfx,
			jp->cname, jp->reads && jp->writes ? "; reads and writes share "
			"that offset (fio keeps one per direction)" : "");
	else if (fio_given(o, FIO_OPT_PCT_RANDOM))
		fprintf(out, "# percentage_random=%lld: %s\n", o->pct_random,
			jp->random ? "random offsets (fio's default)" :
			"sequential offsets, as in fio");
	if (o->stonewall && jp->group)
		fprintf(out, "# stonewall: starts when every job before it has ended "
			"(after= the jobs of the previous group)\n");
	if (o->wait_for)
		fprintf(out, "# wait_for=%s: starts when that job has ended (after=)\n",
			fio_commented(e, o->wait_for));
	if (o->startdelay_us)
		fprintf(out, "# startdelay=%s: starts $startdelay_%d s later\n",
			fio_wml_seconds(b, sizeof(b), o->startdelay_us), (int)(jp - e->jobs) + 1);
	if (e->phases && !o->startdelay_us && !(jp->after && jp->after[0] >= 0) &&
	    !o->runtime_us)
		fprintf(out, "# startdelay=0: no delay; as a phase its ops/s are over its "
			"own run time, as fio reports each job\n");
	if (e->phases && o->runtime_us)
		fprintf(out, "# runtime=%s: the job's own run time ($runtime_%d; the "
			"process's threads stop then)%s\n",
			fio_wml_seconds(b, sizeof(b), o->runtime_us), (int)(jp - e->jobs) + 1,
			o->time_based ? "" : ", or earlier once it has done its bytes");
}

/* The comments that say what of fio each flowop keeps and what not. */
static void job_notes(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	FILE *out = e->out;
	const char *eng = fio_engine_text[o->engine];

	if (jp->aio)
		fprintf(out, "# ioengine=%s, iodepth=%lld: aioread/aiowrite on %s, "
			"keeping up to $iodepth%s I/Os in flight by fio's depth rules "
			"(iodepth_batch_submit, iodepth_batch_complete_min/max, "
			"iodepth_low as fio resolves them)%s\n", eng, o->iodepth, eng,
			jp->sfx, o->direct || o->engine == FIO_ENGINE_IO_URING ? "" :
			"; on buffered files the kernel does each I/O inside the "
			"submission, as for fio");
	else
		fprintf(out, "# ioengine=%s: one pread/pwrite per op at an explicit offset%s%s\n",
			eng, o->iodepth > 1 ? " (iodepth has no effect with a synchronous "
			"engine, as in fio)" : "", o->engine >= FIO_ENGINE_VSYNC ?
			" (fio's vectored/pvsync2 calls of one buffer do the same I/O)" : "");
	if (jp->choice && jp->reads && jp->writes)
		fprintf(out, "# rwmixread=%lld: each I/O is a read with odds $rwmixread%s in "
			"100, else a write, drawn per I/O as fio does (the choice %s%s)\n",
			o->rwmixread, jp->sfx, jp->cname, jp->wsync ?
			"; each write is followed by its fsync" : "");
	else if (fio_is_mixed(o->rw) && jp->reads && jp->writes)
		fprintf(out, "# rwmixread=%lld: each pass does %lld read%s then %lld write%s, "
			"in that order: a fixed interleaving, not fio's random choice per op\n",
			o->rwmixread, jp->reads, jp->reads == 1 ? "" : "s",
			jp->writes, jp->writes == 1 ? "" : "s");
	if (o->rw == FIO_RW_RW && jp->reads && jp->writes)
		fprintf(out, "# rw=rw: reads and writes share one sequential offset (fio "
			"keeps one per direction); writes at the end of the file extend it\n");
	if (fio_fsync_every(o) && jp->fsyncs)
		fprintf(out, "# %s=%lld: %s\n", fio_fsync_name(o), fio_fsync_every(o),
			jp->fsyncs == 1 ? "one fsync after each pass's writes" :
			"the pass's fsyncs come together after its writes");
	else if (fio_fsync_every(o))
		fprintf(out, "# %s=%lld: no effect, the job does not write\n",
			fio_fsync_name(o), fio_fsync_every(o));
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
	if (jp->nios_ignored)
		fprintf(out, "# number_ios=%lld with time_based: fio runs the job until "
			"its runtime whatever number_ios says, as here\n", jp->nios_ignored);
	if (o->time_based)
		fprintf(out, "# time_based: the job loops until the run time is over\n");
	else if (jp->time_based_dropped)
		fprintf(out, "# time_based without runtime: fio ignores it (and says so); "
			"as fio, each clone stops once it has done $filesize%s bytes\n",
			jp->fsfx);
	else
		fprintf(out, "# no time_based: as fio, each clone stops once it has done "
			"$filesize%s bytes (finishonbytes, one byte less: it stops past "
			"its value; it checks once per pass, so a pass of several I/Os "
			"may end past fio's stop)\n", jp->fsfx);
	if (jp->wrap)
		fprintf(out, "# sequential writes start again at offset %s after each "
			"$filesize%s bytes (closefile; the next write reopens the file)\n",
			o->offset ? arena_printf(&e->a, "$offset%s", jp->sfx) : "0", jp->fsfx);
	else if (jp->seqwrap)
		fprintf(out, "# sequential writes start again at offset %s once the next "
			"would pass $filesize%s bytes (wrap, with workingset), as fio's "
			"time-based writes do\n", o->offset ?
			arena_printf(&e->a, "$offset%s", jp->sfx) : "0", jp->fsfx);
	else if (o->time_based && fio_is_write(o->rw) && !jp->random)
		fprintf(out, "# sequential writes do not wrap at $filesize%s here: the file "
			"grows for as long as the job runs\n", jp->fsfx);
	if (o->ramp_us)
		fio_emit_ramp_note(e, o->ramp_us);
	decimal_size_note(e, o, FIO_OPT_BS, "bs", o->bs);
	decimal_size_note(e, o, FIO_OPT_SIZE, "size", o->size);
	if (jp->iobytes != jp->filesize && !o->time_based)
		fprintf(out, "# %s%s: the job does $iobytes%s bytes over its "
			"$filesize%s bytes of files, then stops\n",
			o->io_size ? arena_printf(&e->a, "io_size=%s", fio_commented(e,
				     o->text[FIO_OPT_IO_SIZE])) :
			o->size_pct ? "size=N% of filesize" : o->filesize ?
			"size with filesize" : "size",
			o->loops > 1 ? arena_printf(&e->a, ", loops=%lld", o->loops) : "",
			jp->sfx, jp->fsfx);
	if (o->io_size && o->time_based)
		fprintf(out, "# io_size=%s: no effect, the job is time_based (as in "
			"fio)\n", fio_commented(e, o->text[FIO_OPT_IO_SIZE]));
	if (jp->fmt_note)
		fprintf(out, "# filename_format=%s: %s%s\n",
			fio_commented(e, o->filename_format), jp->fmt_note,
			jp->fmt_one_file ? "; without $filenum the job's files have one "
			"name: fio opens that one file nrfiles times" : "");
	if (jp->real_note)
		fprintf(out, "# %s\n", fio_commented(e, jp->real_note));
	if (jp->fname)
		fprintf(out, "# end_fsync (fsync_on_close): the job's files are fsynced "
			"once its writes are done, by process %s after it (its latency "
			"a line of its own; fio counts that time in the job's)\n",
			jp->fname);
	else if (o->end_fsync)
		fprintf(out, "# end_fsync: no effect, the job does not write\n");
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

/* A depth value: $iodepth when it is the job's iodepth, else the number. */
static const char *depth_value(struct emit *e, const struct job_plan *jp, long long v)
{
	return v == jp->s->opts.iodepth ? arena_printf(&e->a, "$iodepth%s", jp->sfx) :
	       arena_printf(&e->a, "%lld", v);
}

/* An asynchronous flowop's engine, iodepth and fio's depth rules. */
static void aio_attrs(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	struct fio_depth d;

	fio_depth(o, &d);
	fprintf(e->out, ",ioengine=%s,iodepth=$iodepth%s,iodepth_batch_submit=%s,"
		"iodepth_batch_complete_min=%s,iodepth_batch_complete_max=%s,"
		"iodepth_low=%s", fio_engine_text[o->engine], jp->sfx,
		depth_value(e, jp, d.batch), depth_value(e, jp, d.cmin),
		depth_value(e, jp, d.cmax), depth_value(e, jp, d.low));
}

/*
 * Sequential I/O of a time-based job that starts again at the end of
 * its region op by op (`wrap`, with workingset = $filesize past the
 * offset): writes that do not wrap by passes (jp->seqwrap), and reads
 * whose region ends before the file does (an offset, or the first
 * offset_increment clone's file, long enough for the others'), which
 * would otherwise read on to the end of the file.
 */
static bool seq_wraps(const struct emit *e, const struct job_plan *jp, bool write,
		      bool random)
{
	const struct fio_opts *o = &jp->s->opts;

	if (random || !o->time_based || o->nrfiles > 1 || o->seq_add)
		return false;
	/* a device's region ends before the device does: wrap at its end */
	if (e->files[jp->file].blockdev)
		return true;
	if (write)
		return jp->seqwrap;
	return o->offset || e->jobs[e->files[jp->file].job].file_extra;
}

/*
 * A read or write flowop's attributes after its name: its file and
 * size, offsets (`random`: random ones, which with a random/sequential
 * split leave the slot's offset at their end, seqfollows; blockalign),
 * O_DIRECT, depth, a write's data, iterations.
 */
static void emit_io_attrs(struct emit *e, const struct job_plan *jp, bool write,
			  bool random, long long iters, bool wrap, int zone)
{
	const struct fio_opts *o = &jp->s->opts;
	char b[32];

	fprintf(e->out, ",filename=%s,iosize=$iosize%s", e->files[jp->file].name,
		jp->sfx);
	if (zone >= 0)
		fprintf(e->out, ",workingset=%s%s",
			fio_wml_size(b, sizeof(b), jp->zops[zone].ws), offset_plus(e, jp));
	else if (((o->offset || e->files[jp->file].blockdev) && random) ||
		 seq_wraps(e, jp, write, random))
		fprintf(e->out, ",workingset=$filesize%s%s", jp->fsfx, offset_plus(e, jp));
	if (o->offset)
		fprintf(e->out, ",misalign=$offset%s", jp->sfx);
	if (seq_wraps(e, jp, write, random))
		fputs(",wrap", e->out);
	if (random)
		fputs(jp->randommap ? ",random,randommap" : ",random", e->out);
	if (random && jp->blockalign)
		fprintf(e->out, ",blockalign=%s", fio_wml_size(b, sizeof(b), jp->blockalign));
	if (random && jp->seqmix)
		fputs(",seqfollows", e->out);
	if (o->seq_add)
		fprintf(e->out, ",stride=%s", fio_signed_size(b, sizeof(b), o->seq_add));
	if (o->direct)
		fputs(",directio", e->out);
	else if (jp->random && o->fadvise_hint)
		fputs(",noreadahead", e->out);
	if (o->osync)
		fputs(",dsync", e->out);
	if (o->nrfiles > 1)
		fputs(",opennext", e->out);
	if (jp->aio)
		aio_attrs(e, jp);
	if (write && jp->data)
		fputs(jp->data, e->out);
	if (wrap)
		fprintf(e->out, ",iters=$filesize%s / $iosize%s", jp->fsfx, jp->sfx);
	else if (iters > 1)
		fprintf(e->out, ",iters=%lld", iters);
	fputc('\n', e->out);
}

static const char *io_type(const struct job_plan *jp, bool write)
{
	return jp->aio ? (write ? "aiowrite" : "aioread") : (write ? "write" : "read");
}

/* One read or write flowop line of the job's thread. */
static void io_flowop(struct emit *e, const struct job_plan *jp, bool write,
		      long long iters, bool wrap, int zone)
{
	fprintf(e->out, "    flowop %s name=%s-%s%s", io_type(jp, write), jp->name,
		write ? "write" : "read", zone < 0 ? "" :
		arena_printf(&e->a, "-zone%d", jp->zops[zone].zone));
	emit_io_attrs(e, jp, write, jp->random, iters, wrap, zone);
}

/*
 * The weight of one member of the job's choice (plan_choice): its
 * direction's share of a mix ($rwmixread), times its offsets' share of
 * a random/sequential split ($pctrandom), as WML expressions, so that
 * -D rwmixread=... or -D pctrandom=... changes the odds.
 */
static const char *member_weight(struct emit *e, const struct job_plan *jp,
				 bool write, bool random)
{
	const char *dir = !(jp->reads && jp->writes) ? NULL : write ?
		arena_printf(&e->a, "(100 - $rwmixread%s)", jp->sfx) :
		arena_printf(&e->a, "$rwmixread%s", jp->sfx);
	const char *off = !jp->seqmix ? NULL : random ?
		arena_printf(&e->a, "$pctrandom%s", jp->sfx) :
		arena_printf(&e->a, "(100 - $pctrandom%s)", jp->sfx);
	const char *w = dir && off ? arena_printf(&e->a, "%s * %s", dir, off) :
			dir ? dir : off;

	/* a lone term needs no parentheses */
	if (w[0] == '(' && !strchr(w, '*'))
		w = arena_strndup(&e->a, w + 1, strlen(w) - 2);
	return w;
}

/*
 * The job's choice (plan_choice): each I/O a read or a write with
 * rwmixread's odds and/or random or sequential with percentage_random's,
 * drawn per I/O; with fsync=1 each write is followed by its fsync (the
 * composite <wsname>).  Written before the job's process, which invokes
 * it as <job>: the results name its members <job>.read, <job>.write,
 * <job>.read-seq, ...
 */
static void emit_choice(struct emit *e, const struct job_plan *jp)
{
	FILE *out = e->out;

	if (jp->wsync) {
		fprintf(out, "define flowop name=%s\n{\n  flowop write name=write", jp->wsname);
		emit_io_attrs(e, jp, true, jp->random, 1, false, -1);
		fprintf(out, "  flowop fsync name=fsync,filename=%s\n}\n",
			e->files[jp->file].name);
	}
	fprintf(out, "define flowop name=%s,choose\n{\n", jp->cname);
	for (int write = 0; write < 2; write++) {
		if (!(write ? jp->writes : jp->reads))
			continue;
		for (int seq = 0; seq <= jp->seqmix; seq++) {
			const char *w = member_weight(e, jp, write, !seq);

			if (write && jp->wsync) {
				fprintf(out, "  flowop %s name=write,weight=%s\n", jp->wsname, w);
				continue;
			}
			fprintf(out, "  flowop %s name=%s%s,weight=%s", io_type(jp, write),
				write ? "write" : "read", seq ? "-seq" : "", w);
			emit_io_attrs(e, jp, write, jp->random && !seq, 1, false, -1);
		}
	}
	fprintf(out, "}\n");
}

static void emit_file(struct emit *e, const struct out_file *f,
		      const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;

	if (f->blockdev) {
		/* the whole device: each job's region is its flowops' workingset */
		fprintf(e->out, "define device name=%s,path=\"%s\"\n", f->name, f->path);
		return;
	}
	if (!f->fileset) {
		char b[32];

		fprintf(e->out, "define file name=%s,path=", f->name);
		fio_print_dir_var(e, f->dir);
		fprintf(e->out, ",size=$filesize%s%s%s%s,prealloc,reuse\n", jp->sfx,
			offset_plus(e, jp), jp->file_extra ? " + " : "", jp->file_extra ?
			fio_wml_size(b, sizeof(b), jp->file_extra) : "");
		return;
	}
	fprintf(e->out, "# fio's files %s.N.M become the fileset %s\n",
		fio_commented(e, jp->s->name), f->name);
	fprintf(e->out, "define fileset name=%s,path=", f->name);
	fio_print_dir_var(e, f->dir);
	if (o->nrfiles > 1)
		fprintf(e->out, ",entries=$nthreads%s * %lld,dirwidth=$nthreads%s * %lld,"
			"size=$filesize%s / %lld", jp->sfx, o->nrfiles, jp->sfx,
			o->nrfiles, jp->sfx, o->nrfiles);
	else
		fprintf(e->out, ",entries=$nthreads%s,dirwidth=$nthreads%s,size=$filesize%s%s",
			jp->sfx, jp->sfx, jp->sfx, offset_plus(e, jp));
	fprintf(e->out, ",dirgamma=0,prealloc,reuse\n");
}

/*
 * The bytes after which a size-limited job stops.  fio stops once a job
 * has done that many (bytes >= the limit); finishonbytes ends its thread
 * once its bytes exceed its value (filebench's rule), so the value is one
 * byte less: the same pass ends both.
 */
static const char *done_bytes(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;

	if (jp->unsized && !o->io_size)
		return o->loops > 1 ? arena_printf(&e->a, "$filesize%s * %lld - 1",
						   jp->fsfx, o->loops) :
			arena_printf(&e->a, "$filesize%s - 1", jp->fsfx);
	return arena_printf(&e->a, "$%s%s - 1", jp->iobytes != jp->filesize ?
			    "iobytes" : "filesize", jp->sfx);
}

/* after="A:B": the processes job `jp` starts after (plan_phases).  The
 * names are WML words (unique_name): nothing in them needs escaping. */
static void print_after(struct emit *e, const struct job_plan *jp)
{
	for (int k = 0; jp->after && jp->after[k] >= 0; k++) {
		const struct job_plan *w = &e->jobs[jp->after[k]];

		fprintf(e->out, "%s%s", k ? ":" : ",after=\"", w->name);
		if (w->fname)
			fprintf(e->out, ":%s", w->fname);
		if (w->vname)
			fprintf(e->out, ":%s", w->vname);
	}
	if (jp->after && jp->after[0] >= 0)
		fputc('"', e->out);
}

/* The run-phase attributes of the job's process: after, startdelay,
 * runtime (only when the workload has phases). */
static void emit_phase_attrs(struct emit *e, const struct job_plan *jp, int index)
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
 * The job's per-op logs as its process's attributes (write_lat_log ->
 * latlog=, ...; a bare option takes the job's name, as fio does), and
 * the settings for the logs it has.  fio's write_hist_log without
 * log_hist_msec writes an empty file: none here (log_notes() says so).
 */
static const char *const log_attr_names[PLAN_OPLOG_NKINDS] = {
	[PLAN_OPLOG_LAT] = "latlog", [PLAN_OPLOG_BW] = "bwlog",
	[PLAN_OPLOG_IOPS] = "iopslog", [PLAN_OPLOG_HIST] = "histlog",
};

/* Does the job write log `k`? */
static bool job_logs(const struct fio_opts *o, int k)
{
	return o->log_prefix[k] && (k != PLAN_OPLOG_HIST || o->log_hist_msec > 0);
}

static void emit_log_attrs(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	bool any = false, avg = false;

	for (int k = 0; k < PLAN_OPLOG_NKINDS; k++) {
		if (!job_logs(o, k))
			continue;
		fprintf(e->out, ",%s=", log_attr_names[k]);
		fio_print_quoted(e->out, *o->log_prefix[k] ? o->log_prefix[k] : jp->s->name);
		any = true;
		avg |= k != PLAN_OPLOG_HIST;
	}
	if (avg && o->log_avg_msec)
		fprintf(e->out, ",logavgmsec=%lld", o->log_avg_msec);
	if (job_logs(o, PLAN_OPLOG_HIST)) {
		fprintf(e->out, ",loghistmsec=%lld", o->log_hist_msec);
		if (o->log_hist_coarseness)
			fprintf(e->out, ",loghistcoarseness=%lld", o->log_hist_coarseness);
	}
	if (any && o->log_offset)
		fputs(",logoffset", e->out);
	if (any && !o->per_job_logs)
		fputs(",logshared", e->out);
}

/* What of the job's log options writes nothing, in fio as here. */
static void log_notes(struct emit *e, const struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;

	if (o->log_prefix[PLAN_OPLOG_HIST] && !o->log_hist_msec)
		fprintf(e->out, "# write_hist_log without log_hist_msec: fio's histogram "
			"log stays empty; none is written here\n");
	if (o->log_hist_msec && !o->log_prefix[PLAN_OPLOG_HIST])
		fprintf(e->out, "# log_hist_msec without write_hist_log: no histogram "
			"log, in fio as here\n");
	if (o->log_avg_msec && !job_logs(o, PLAN_OPLOG_LAT) && !job_logs(o, PLAN_OPLOG_BW) &&
	    !job_logs(o, PLAN_OPLOG_IOPS))
		fprintf(e->out, "# log_avg_msec without write_lat_log, write_bw_log or "
			"write_iops_log: no log to average, in fio as here\n");
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
		"after it (not checked)\n", fio_commented(e, jp->s->name));
	fprintf(out, "define process name=%s,instances=%s%s,after=%s", jp->vname,
		o->thread ? "1" : "$nthreads", o->thread ? "" : jp->sfx,
		jp->fname ? jp->fname : jp->name);
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
		aio_attrs(e, jp);
	fprintf(out, "\n    flowop finishonbytes name=%s-done,value=%s\n  }\n}\n",
		jp->vname, done_bytes(e, jp));
}

/*
 * end_fsync's process: after the job, each clone's file opened (the
 * next one of the fileset, as the job's clones took them), fsynced once
 * and closed, then the thread is done.
 */
static void emit_end_fsync(struct emit *e, const struct job_plan *jp, int index)
{
	const struct fio_opts *o = &jp->s->opts;
	FILE *out = e->out;

	fprintf(out, "\n# fio's end_fsync of job '%s': its files fsynced once its "
		"writes are done\n", fio_commented(e, jp->s->name));
	fprintf(out, "define process name=%s,instances=%s%s,after=%s", jp->fname,
		o->thread ? "1" : "$nthreads", o->thread ? "" : jp->sfx, jp->name);
	if (e->phases && o->runtime_us)
		fprintf(out, ",runtime=$runtime_%d", index + 1);
	fprintf(out, "\n{\n  thread name=%s,instances=%s%s\n  {\n", jp->fname,
		o->thread ? "$nthreads" : "1", o->thread ? jp->sfx : "");
	fprintf(out, "    flowop openfile name=%s-open,filename=%s%s\n", jp->fname,
		e->files[jp->file].name, o->direct ? ",directio" : "");
	fprintf(out, "    flowop fsync name=%s\n", jp->fname);
	fprintf(out, "    flowop closefile name=%s-close\n", jp->fname);
	fprintf(out, "    flowop finishoncount name=%s-done,value=1,target=%s\n  }\n}\n",
		jp->fname, jp->fname);
}

void fio_emit_job(struct emit *e, const struct job_plan *jp, int index)
{
	const struct fio_opts *o = &jp->s->opts;
	FILE *out = e->out;
	char b[32];

	fprintf(out, "\n# ---- job %d of %d: fio job '%s' ----\n", index + 1,
		e->njobs, fio_commented(e, jp->s->name));
	comment_section(e, jp->s);
	for (int i = 0; i < jp->ndropped; i++)
		fprintf(out, "# %s\n", fio_commented(e, jp->dropped[i]));
	job_notes(e, jp);
	if (!jp->unsized)
		fprintf(out, "set $filesize%s=%s\n", jp->sfx,
			fio_wml_size(b, sizeof(b), jp->filesize));
	emit_iosize(e, jp);
	fprintf(out, "set $nthreads%s=%lld\n", jp->sfx, o->numjobs);
	if (jp->iobytes != jp->filesize && !o->time_based)
		fprintf(out, "set $iobytes%s=%s\n", jp->sfx,
			fio_wml_size(b, sizeof(b), jp->iobytes));
	if (jp->aio)
		fprintf(out, "set $iodepth%s=%lld\n", jp->sfx, o->iodepth);
	if (o->offset)
		fprintf(out, "set $offset%s=%s\n", jp->sfx,
			fio_wml_size(b, sizeof(b), o->offset));
	if (o->thinktime_us)
		fprintf(out, "set $thinktime%s=%s\n", jp->sfx,
			fio_wml_seconds(b, sizeof(b), o->thinktime_us));
	if (o->number_ios)
		fprintf(out, "set $nios%s=%lld\n", jp->sfx, o->number_ios);
	if (o->startdelay_us)
		fprintf(out, "set $startdelay_%d=%s\n", index + 1,
			fio_wml_seconds(b, sizeof(b), o->startdelay_us));
	if (e->phases && o->runtime_us)
		fprintf(out, "set $runtime_%d=%s\n", index + 1,
			fio_wml_seconds(b, sizeof(b), o->runtime_us));
	if (jp->choice && jp->reads && jp->writes)
		fprintf(out, "set $rwmixread%s=%lld\n", jp->sfx, o->rwmixread);
	if (jp->seqmix)
		fprintf(out, "set $pctrandom%s=%lld\n", jp->sfx, o->pct_random);
	fputc('\n', out);
	if (e->files[jp->file].job == index)
		emit_file(e, &e->files[jp->file], jp);
	else
		fprintf(out, "# the file %s is the one of job '%s' (same filename)\n",
			e->files[jp->file].name,
			fio_commented(e, e->jobs[e->files[jp->file].job].s->name));
	if (jp->choice)
		emit_choice(e, jp);
	log_notes(e, jp);
	fprintf(out, "define process name=%s,instances=%s%s", jp->name,
		o->thread ? "1" : "$nthreads", o->thread ? "" : jp->sfx);
	emit_phase_attrs(e, jp, index);
	emit_log_attrs(e, jp);
	fprintf(out, "\n{\n  thread name=%s,instances=%s%s\n  {\n", jp->name,
		o->thread ? "$nthreads" : "1", o->thread ? jp->sfx : "");
	for (int z = 0; z < jp->nzops; z++)
		io_flowop(e, jp, jp->writes > 0, jp->zops[z].iters, false, z);
	if (jp->choice)         /* a mix: one draw a pass; a split: as many as I/Os */
		fprintf(out, "    flowop %s name=%s%s\n", jp->cname, jp->name,
			jp->reads && jp->writes ? "" : jp->reads + jp->writes > 1 ?
			arena_printf(&e->a, ",iters=%lld", jp->reads + jp->writes) : "");
	if (jp->reads && !jp->nzops && !jp->choice)
		io_flowop(e, jp, false, jp->reads, false, -1);
	if (jp->writes && !jp->nzops && !jp->choice)
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
	if (jp->fname)
		emit_end_fsync(e, jp, index);
	if (jp->vname)
		emit_verify(e, jp, index);
}

void fio_emit_header(struct emit *e, const struct fio_jobfile *jf,
			const char *source_name)
{
	FILE *out = e->out;

	fprintf(out, "#\n# Generated by flowbench import-fio from %s.\n",
		fio_commented(e, source_name));
	fprintf(out,
		"#\n# Each fio job below is a process definition; its options are\n"
		"# repeated as comments, with what each became and where flowbench\n"
		"# differs from fio (docs/import-fio.md has the whole mapping).\n"
		"# Scale it without editing, e.g.\n"
		"#   flowbench run THIS.f -D dir=/mnt/test -D runtime=30\n#\n");
	for (int i = 0; i < jf->nrun_notes; i++)
		fprintf(out, "# %s\n%s", fio_commented(e, jf->run_notes[i].text),
			i == jf->nrun_notes - 1 ? "#\n" : "");
	for (int i = 0; i < jf->nsections; i++) {
		if (jf->sections[i].global) {
			comment_section(e, &jf->sections[i]);
			fprintf(out, "#\n");
		}
	}
	for (int i = 0; i < e->ndirs; i++) {
		fprintf(out, "set ");
		fio_print_dir_var(e, i);
		fputc('=', out);
		fio_print_quoted(out, e->dirs[i]);
		fputc('\n', out);
	}
	if (e->dir_default)
		fprintf(out, "# fio would use the current directory where the job file "
			"gives none; here it is /tmp\n");
	for (int i = 0; i < e->njobs; i++)
		if (e->jobs[i].needs_size && e->files[e->jobs[i].file].job == i)
			fprintf(out, "# REQUIRED: the size of the file of job '%s' is not "
				"in the job file: run with -D filesize%s=SIZE\n",
				fio_commented(e, e->jobs[i].s->name), e->jobs[i].fsfx);
}

/* The event generator the limited jobs' iopslimit/bwlimit flowops use. */
void fio_emit_rate(struct emit *e, int first)
{
	const struct fio_opts *o = &e->jobs[first].s->opts;
	bool bw = o->rate != 0;
	char b[32];

	fprintf(e->out, "# fio %s=%s is per clone; flowbench has one event "
		"generator for the run, at the sum of the limited clones' rates (%s), "
		"which their %s flowops share: the total is fio's, but a clone that "
		"falls behind its rate leaves the rest to the others (fio caps each "
		"clone on its own)\n", bw ? "rate" : "rate_iops",
		fio_commented(e, o->text[bw ? FIO_OPT_RATE : FIO_OPT_RATE_IOPS]),
		bw ? "in MiB/s" : "in I/Os per second", bw ? "bwlimit" : "iopslimit");
	if (bw)
		fprintf(e->out, "set $rate=%s\n", fio_wml_size(b, sizeof(b), o->rate));
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
