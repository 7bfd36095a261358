/*
 * options.c - what a job's fio options mean, as the planner (plan.c) and
 * the writer (write.c) both need it: the engine's name and whether it is
 * synchronous, the kind of rw, the smallest and largest I/O size, the
 * fsync cadence, where an option was set, and the common divisors of
 * counts and sizes.
 */
#include "lang/fio/emit.h"

const char *const fio_engine_text[] = {
	[FIO_ENGINE_SYNC] = "sync", [FIO_ENGINE_PSYNC] = "psync",
	[FIO_ENGINE_LIBAIO] = "libaio", [FIO_ENGINE_IO_URING] = "io_uring",
	[FIO_ENGINE_POSIXAIO] = "posixaio", [FIO_ENGINE_VSYNC] = "vsync",
	[FIO_ENGINE_PVSYNC] = "pvsync", [FIO_ENGINE_PVSYNC2] = "pvsync2",
};

/* The engines that do one I/O per system call, iodepth or not. */
bool fio_sync_engine(int engine)
{
	return engine != FIO_ENGINE_LIBAIO && engine != FIO_ENGINE_IO_URING &&
	       engine != FIO_ENGINE_POSIXAIO;
}

/*
 * fio's depth options as fio resolves them (init.c: a batch of 0 or more
 * than iodepth is iodepth, so is an iodepth_low of 0 or more; a
 * complete_max below complete_min is complete_min) and uses them
 * (backend.c, ioengines.c: at most the I/Os in flight are asked for, so
 * a minimum or maximum above iodepth is iodepth).
 */
void fio_depth(const struct fio_opts *o, struct fio_depth *d)
{
	long long qd = o->iodepth;

	d->batch = o->iodepth_batch == 0 || o->iodepth_batch > qd ? qd : o->iodepth_batch;
	d->low = o->iodepth_low == 0 || o->iodepth_low > qd ? qd : o->iodepth_low;
	d->cmin = o->iodepth_cmin > qd ? qd : o->iodepth_cmin;
	d->cmax = o->iodepth_cmax < o->iodepth_cmin ? o->iodepth_cmin : o->iodepth_cmax;
	if (d->cmax > qd)
		d->cmax = qd;
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
	return rw == FIO_RW_WRITE || rw == FIO_RW_RANDWRITE;
}

bool fio_is_mixed(int rw)
{
	return rw == FIO_RW_RW || rw == FIO_RW_RANDRW;
}

/* The smallest and the largest I/O size of a job: bs, bsrange's ends,
 * or bssplit's sizes that have a share of the I/Os. */
uint64_t fio_bs_extreme(const struct fio_opts *o, bool largest)
{
	uint64_t r = o->nbss ? 0 : largest && o->bs_max ? o->bs_max : o->bs;

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
	if (fio_given(&s->opts, id))
		return s->opts.at[id];
	return (struct src_loc){ s->line, 1 };
}
