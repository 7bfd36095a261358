/*
 * io.c - the read and write flowops (WML reference 4.1, 4.2).
 *
 * Both work on the thread's fd slot (`fd`, default 0; with `opennext` a
 * slot rotor private to the flowop: 127, 126, ... 0, 127, ...), opening an
 * existing file of their fileset (round robin, runtime/fileset/pick.h) on first use.  That implicit open is timed and
 * recorded as an op of its own (stats->open), never as a read or write.
 * Random offsets are whole blocks of `iosize` chosen uniformly among ALL
 * blocks of the working set, the last one included; with `randommap`
 * (fio's random map) every block once per pass, in an order permuted
 * anew each pass (runtime/base/permute.h).  The working set is
 * `workingset` if given, else the larger of the file's size at population
 * and its size when the slot opened it (filebench uses only the former,
 * so files that grew or were created empty needed an explicit workingset).  Sequential reads wrap to offset 0 at EOF (the 0-byte read
 * still counts, as in filebench); sequential writes append at the slot's
 * offset.  With `stride` (fio's rw=read:N) each sequential op starts N
 * bytes after the previous one's end, wrapping at the working set's ends
 * (io_stride_offset()).  A failed or short write, a failed read, and a short random
 * read inside the size the file had when opened are op failures
 * (common.h, common_fail()): the run fails, or with --keep-going they are
 * counted and the op is not.
 *
 * Buffers: one per flowop, fixed at init(): `memoffset` bytes into the
 * thread's memory, or its own page-aligned one.  Under --compat
 * filebench the variants at the end place them as filebench does: every
 * op at a random multiple of the I/O size inside thread memory (with
 * directio 512 bytes more, the address rounded up to 512), or in the
 * flowop's own heap buffer (io_fb_buffer(), io_filebench_buf()).
 *
 * Hot path per op: two vDSO clock reads around one pread/pwrite; the
 * buffer and all settings are resolved in init().  aio.c shares the
 * setup, the slot and the offsets through io.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "flowops/common.h"
#include "flowops/dio.h"
#include "flowops/registry.h"
#include "plan/flowop.h"
#include "flowops/io.h"
#include "plan/diag.h"
#include "runtime/base/clock.h"
#include "runtime/fileset/fileset.h"
#include "runtime/base/log.h"
#include "runtime/base/rng.h"
#include "runtime/measure/stats.h"
#include "runtime/engine/thread.h"
#include "runtime/engine/threadfile.h"

/*
 * directio: this flowop's iosize, misalign and buffer against the
 * alignment of the file open as `fd`, or of the directory `path` (fd
 * < 0: only a device found in sysfs answers; if none does, the first
 * open decides).  0, or -1 with the run's error set.
 */
static int io_dio_check(struct fb_thread *t, const struct flowop_inst *fi,
			const struct io_priv *p, int fd, const char *path)
{
	struct dio_align a;
	char msg[PATH_MAX + 256];

	dio_probe(fd, path, &a);
	if (a.src == DIO_NONE)
		return 0;
	if (a.src == DIO_ASSUMED && t->proc_inst == 0 && t->thread_inst == 0)
		log_warn("flowop %s: the direct-I/O alignment of %s is unknown (no "
			 "STATX_DIOALIGN, no block device in sysfs); assuming 512 bytes",
			 fi->pf->name, path);
	/* fb_extra: buffers on every 512-byte boundary (--compat filebench) */
	if (p->fb_extra ?
	    dio_check_filebench(&a, path, p->iosize_random ? 0 : p->iosize,
				p->misalign, msg, sizeof(msg)) == 0 :
	    dio_check(&a, path, p->iosize_random ? 0 : p->iosize, p->misalign,
		      p->buf, p->memoffset, msg, sizeof(msg)) == 0)
		return 0;
	thread_fail(t, "flowop %s: %s", fi->pf->name, msg);
	return -1;
}

/* The first file this flowop opened with O_DIRECT: its exact alignment. */
static int io_dio_open(struct fb_thread *t, const struct flowop_inst *fi,
		       struct io_priv *p, const struct fb_slot *s)
{
	char path[PATH_MAX] = "(no file)";

	p->dio_pending = false;
	if (s->fileset >= 0)
		fileset_file_path(&t->filesets[s->fileset], s->entry, path);
	return io_dio_check(t, fi, p, s->fd, path);
}

/* The I/O buffer: `memoffset` bytes into thread memory or into its own. */
static int io_buffer(struct fb_thread *t, const struct plan_flowop *pf,
		     struct io_priv *p)
{
	void *b;

	if (t->mem) {
		if (t->memsize <= p->memoffset ||
		    (!p->iosize_random && t->memsize - p->memoffset < p->iosize)) {
			if (p->memoffset)
				thread_fail(t, "flowop %s: thread memsize %llu is smaller than "
					    "memoffset %llu plus iosize %llu", pf->name,
					    (unsigned long long)t->memsize,
					    (unsigned long long)p->memoffset,
					    (unsigned long long)p->iosize);
			else
				thread_fail(t, "flowop %s: thread memsize %llu is smaller than iosize %llu",
					    pf->name, (unsigned long long)t->memsize,
					    (unsigned long long)p->iosize);
			return FLOWOP_ERROR;
		}
		if (p->iosize_random)
			p->bufsize = t->memsize - p->memoffset;
		p->buf = (char *)t->mem + p->memoffset;
		return 0;
	}
	if (posix_memalign(&b, IO_ALIGN, p->memoffset + p->iosize) != 0) {
		thread_fail(t, "flowop %s: cannot allocate a %llu-byte buffer",
			    pf->name, (unsigned long long)p->iosize);
		return FLOWOP_ERROR;
	}
	p->buf_base = b;
	p->buf = p->buf_base + p->memoffset;
	p->own_buf = true;
	return 0;
}

/*
 * --compat filebench: filebench's buffer (reference 4.0, "I/O buffer").
 * With thread memory every op's buffer is drawn anew inside it
 * (io_filebench_buf()); here only that the I/O size fits.  Without, the
 * flowop's own heap buffer.  directio reserves 512 bytes more and rounds
 * the address up to 512, so the buffer is 512-aligned, not page-aligned.
 * Nothing is written into thread memory before the run: the thread
 * zero-fills it when released (runtime/engine/threadmem.h) and the
 * buffers hold those zeros, as filebench's do.
 */
static int io_fb_buffer(struct fb_thread *t, const struct plan_flowop *pf,
			struct io_priv *p)
{
	uint64_t need;

	p->fb_extra = p->oflags & O_DIRECT ? DIO_FILEBENCH_ALIGN : 0;
	p->fb_mask = p->fb_extra ? DIO_FILEBENCH_ALIGN - 1 : 0;
	need = p->fb_extra + (p->iosize_random ? 1 : p->iosize);
	if (p->memoffset) {
		thread_fail(t, "flowop %s: memoffset cannot be used with --compat "
			    "filebench, which places every buffer as filebench does",
			    pf->name);
		return FLOWOP_ERROR;
	}
	if (t->mem) {
		if (t->memsize < need) {
			thread_fail(t, "flowop %s: thread memsize %llu is smaller than the "
				    "I/O size %llu (iosize%s), which filebench refuses too",
				    pf->name, (unsigned long long)t->memsize,
				    (unsigned long long)need,
				    p->fb_extra ? " plus 512 bytes for directio" : "");
			return FLOWOP_ERROR;
		}
		p->fb_area = t->mem;
		p->fb_memsize = t->memsize;
		p->buf = t->mem;
		p->bufsize = t->memsize - p->fb_extra;  /* a random iosize's limit */
		return 0;
	}
	p->buf_base = malloc(p->bufsize + p->fb_extra);   /* a heap buffer, as filebench's */
	if (!p->buf_base) {
		thread_fail(t, "flowop %s: cannot allocate a %llu-byte buffer",
			    pf->name, (unsigned long long)(p->bufsize + p->fb_extra));
		return FLOWOP_ERROR;
	}
	memset(p->buf_base, 0, p->bufsize + p->fb_extra);
	p->buf = (char *)(((uintptr_t)p->buf_base + p->fb_mask) & ~p->fb_mask);
	p->own_buf = true;
	return 0;
}

char *io_filebench_buf(struct fb_thread *t, const struct io_priv *p)
{
	uint64_t unit, x;

	if (!p->fb_area)
		return p->buf;
	unit = p->iosize + p->fb_extra;
	x = rng_below(&t->rng, p->fb_memsize - unit);
	x -= x % unit;
	return (char *)(((uintptr_t)p->fb_area + x + p->fb_mask) & ~p->fb_mask);
}

/*
 * Settings from flowop `fi`'s attributes, before any buffer.  0 or
 * FLOWOP_ERROR.
 */
static int io_priv_settings(struct fb_thread *t, struct flowop_inst *fi,
			    struct io_priv *p)
{
	const struct plan_flowop *pf = fi->pf;
	bool iosize_random = pf->attr[COMMON_IOSIZE].kind == PV_RANDOM;
	/* a random size starts with a buffer of IO_RANDOM_BUF, grown when a sample needs it */
	int64_t iosize = iosize_random ? IO_RANDOM_BUF : plan_attr_int(pf, COMMON_IOSIZE, 0);
	int64_t ws = plan_attr_int(pf, COMMON_WORKINGSET, 0);
	uint64_t base;

	if (iosize <= 0) {
		thread_fail(t, "flowop %s: zero iosize", pf->name);
		return FLOWOP_ERROR;
	}
	p->iosize = (uint64_t)iosize;
	p->bufsize = p->iosize;
	p->iosize_random = iosize_random;
	/*
	 * a device's region starts at dev_base: offsets, the working set's
	 * end and misalign are the region's (its one entry ends there too)
	 */
	base = pf->fileset >= 0 ? t->filesets[pf->fileset].dev_base : 0;
	p->workingset = ws > 0 ? (uint64_t)ws + base : 0;
	p->random = plan_attr_bool(pf, IO_RANDOM, false);
	p->randommap = p->random && plan_attr_bool(pf, IO_RANDOMMAP, false);
	p->sets_offset = !p->random || plan_attr_bool(pf, IO_SEQFOLLOWS, false);
	p->noreadahead = plan_attr_bool(pf, COMMON_NOREADAHEAD, false);
	common_slotsel_init(&p->sel, pf);
	if (p->sel.fixed >= FB_FD_SLOTS) {
		thread_fail(t, "flowop %s: fd %d out of range 0..%d", pf->name,
			    p->sel.fixed, FB_FD_SLOTS - 1);
		return FLOWOP_ERROR;
	}
	p->oflags = common_open_flags(pf);
	p->misalign = (uint64_t)plan_attr_int(pf, IO_MISALIGN, 0) + base;
	p->stride = p->random ? 0 : plan_attr_int(pf, IO_STRIDE, 0);
	p->wrap = !p->random && !p->stride && plan_attr_bool(pf, IO_WRAP, false);
	p->seq_rare = p->misalign || p->stride || p->wrap;
	p->blockalign = p->random ? (uint64_t)plan_attr_int(pf, IO_BLOCKALIGN, 0) : 0;
	p->mapped = p->randommap && p->blockalign;
	p->map_iosize = p->iosize;
	p->memoffset = (uint64_t)plan_attr_int(pf, IO_MEMOFFSET, 0);
	return 0;
}

/* directio: the fileset's device now; the first opened file refines it. */
static int io_dio_setup(struct fb_thread *t, struct flowop_inst *fi,
			struct io_priv *p)
{
	const struct plan_flowop *pf = fi->pf;

	if (!(p->oflags & O_DIRECT))
		return 0;
	p->dio_pending = true;
	if (pf->fileset >= 0 &&
	    io_dio_check(t, fi, p, -1, t->filesets[pf->fileset].root) != 0)
		return FLOWOP_ERROR;
	return 0;
}

/*
 * A write flowop's data attributes (data.h): its rule and random stream,
 * seeded from the run's seed, the thread's identity and the flowop, so
 * the thread's own generator is left alone.  0 or FLOWOP_ERROR.
 */
static int io_data_setup(struct fb_thread *t, struct flowop_inst *fi,
			 struct io_priv *p)
{
	const struct plan_flowop *pf = fi->pf;
	uint64_t seed;

	if (!pf->ops || pf->ops->rw != FLOWOP_RW_WRITE || !data_given(pf, IO_DATA))
		return 0;
	seed = t->plan->seed ^ rng_identity((uint64_t)t->proc, t->proc_inst,
					    (uint64_t)t->thread, t->thread_inst);
	seed ^= (uint64_t)(pf - t->plan->flowops) * 0x9e3779b97f4a7c15ull;
	p->data = calloc(1, sizeof(*p->data));
	if (!p->data || data_gen_setup(p->data, pf, IO_DATA, seed) != 0) {
		thread_fail(t, "flowop %s: out of memory", pf->name);
		return FLOWOP_ERROR;
	}
	return 0;
}

/* `len` bytes of what this flowop writes: its data rule, or flowbench's pattern. */
void io_fill(struct io_priv *p, char *buf, uint64_t len)
{
	if (p->data)
		data_fill(p->data, buf, len);
	else
		common_fill_pattern(buf, len, 0x5a);
}

/*
 * randommap's state: the flowop's own, or the one the members of its
 * choice drawing from the same blocks share (iomap.h).  0 or
 * FLOWOP_ERROR.
 */
static int io_map_join(struct fb_thread *t, struct flowop_inst *fi, struct io_priv *p)
{
	struct iomap_key key = {
		.fileset = fi->pf->fileset, .size_random = p->iosize_random,
		.iosize = p->iosize, .blockalign = p->blockalign,
		.misalign = p->misalign, .workingset = p->workingset,
	};

	p->map = &p->own_map;
	if (!p->randommap)
		return 0;
	return iomap_join(t, fi->pf, &key, &p->own_map, &p->map) ? FLOWOP_ERROR : 0;
}

int io_priv_setup(struct fb_thread *t, struct flowop_inst *fi, struct io_priv *p)
{
	if (io_priv_settings(t, fi, p) != 0 || io_map_join(t, fi, p) != 0 ||
	    io_buffer(t, fi->pf, p) != 0 || io_data_setup(t, fi, p) != 0)
		return FLOWOP_ERROR;
	/* Written data: a non-zero pattern, not whatever memory held. */
	io_fill(p, p->buf, p->bufsize);
	return io_dio_setup(t, fi, p);
}

int io_priv_setup_filebench(struct fb_thread *t, struct flowop_inst *fi,
			    struct io_priv *p)
{
	if (io_priv_settings(t, fi, p) != 0 || io_map_join(t, fi, p) != 0 ||
	    io_fb_buffer(t, fi->pf, p) != 0)
		return FLOWOP_ERROR;
	return io_dio_setup(t, fi, p);
}

/* A flowop's io_priv, set up by `setup`: flowbench's buffer or filebench's. */
void *io_priv_alloc(size_t size)
{
	size_t line = 64, rounded = (size + line - 1) / line * line;
	void *p = aligned_alloc(line, rounded);

	if (p)
		memset(p, 0, rounded);
	return p;
}

static int io_init_with(struct fb_thread *t, struct flowop_inst *fi,
			int (*setup)(struct fb_thread *, struct flowop_inst *,
				     struct io_priv *))
{
	struct io_priv *p = io_priv_alloc(sizeof(*p));

	if (!p) {
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return FLOWOP_ERROR;
	}
	fi->priv = p;
	return setup(t, fi, p);
}

static enum flowop_result io_write_data(struct fb_thread *t, struct flowop_inst *fi);

/* A write whose contents change per write runs io_write_data(). */
static int io_init(struct fb_thread *t, struct flowop_inst *fi)
{
	int r = io_init_with(t, fi, io_priv_setup);
	const struct io_priv *p = fi->priv;

	if (r == 0 && p->data && data_per_write(p->data))
		fi->run = io_write_data;
	return r;
}

/* --compat filebench: filebench's buffers (io_fb_buffer()). */
static int io_init_filebench(struct fb_thread *t, struct flowop_inst *fi)
{
	return io_init_with(t, fi, io_priv_setup_filebench);
}

/*
 * A random iosize: this op's sample (at least 1 byte), with a buffer
 * large enough.  Growing allocates, but only when a sample exceeds every
 * earlier one, so almost never in a run.
 */
static enum flowop_result io_sample_size(struct fb_thread *t, struct flowop_inst *fi,
					 struct io_priv *p)
{
	int64_t n = thread_attr_int(t, fi->pf, COMMON_IOSIZE, 1);
	void *b;

	p->iosize = n < 1 ? 1 : (uint64_t)n;
	if (p->iosize <= p->bufsize)
		return FLOWOP_OK;
	if (!p->own_buf) {
		thread_fail(t, "flowop %s: iosize sample %llu is larger than the thread's memsize %llu",
			    fi->pf->name, (unsigned long long)p->iosize,
			    (unsigned long long)t->memsize);
		return FLOWOP_ERROR;
	}
	if (p->before_regrow) {
		enum flowop_result r = p->before_regrow(t, fi);

		if (r != FLOWOP_OK)
			return r;
	}
	if (posix_memalign(&b, IO_ALIGN, p->memoffset + p->iosize) != 0) {
		thread_fail(t, "flowop %s: cannot allocate a %llu-byte buffer",
			    fi->pf->name, (unsigned long long)p->iosize);
		return FLOWOP_ERROR;
	}
	io_fill(p, (char *)b + p->memoffset, p->iosize);
	free(p->buf_base);
	p->buf_base = b;
	p->buf = p->buf_base + p->memoffset;
	p->bufsize = p->iosize;
	return FLOWOP_OK;
}

void io_priv_teardown(struct fb_thread *t, struct io_priv *p)
{
	iomap_leave(t, &p->own_map, &p->map);
	if (p->data) {
		data_gen_free(p->data);
		free(p->data);
		p->data = NULL;
	}
	if (p->own_buf)
		free(p->buf_base);
	p->buf = NULL;
	p->buf_base = NULL;
	p->own_buf = false;
}

static void io_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	struct io_priv *p = fi->priv;

	if (p)
		io_priv_teardown(t, p);
	free(p);
	fi->priv = NULL;
}

/*
 * First use of the slot (or a slot of another fileset): the implicit
 * open, recorded where the engine chose for this instance
 * (flowop_inst.open_stats: stats->open, or under --compat filebench an
 * op of the flowop itself).
 */
static enum flowop_result io_open(struct fb_thread *t, struct flowop_inst *fi,
				  struct io_priv *p, struct fb_slot *s)
{
	int opened;
	enum flowop_result r = slot_acquire_rr(t, fi, s, p->oflags, fi->open_stats,
					       common_rotor(&p->sel), &opened);

	if (opened && p->noreadahead)
		posix_fadvise(s->fd, 0, 0, POSIX_FADV_RANDOM);
	if (opened && p->dio_pending && r == FLOWOP_OK && io_dio_open(t, fi, p, s) != 0)
		return FLOWOP_ERROR;
	return r;
}

/*
 * Blocks of the working set of the slot's file, computed once per open
 * (not per op: a 64-bit division is not free at a million ops per
 * second; the fstat happens once per open, never per op).
 */
static enum flowop_result io_working_set(struct fb_thread *t, struct flowop_inst *fi,
					 struct io_priv *p, const struct fb_slot *s)
{
	uint64_t wss = p->workingset;

	p->file_bytes = 0;
	if (!wss) {
		struct stat st;

		wss = fileset_file_size(&t->filesets[s->fileset], s->entry);
		if (fstat(s->fd, &st) == 0) {
			p->file_bytes = (uint64_t)st.st_size;
			if (p->file_bytes > wss)
				wss = p->file_bytes;
		}
	}
	if (wss < p->misalign || (wss - p->misalign) / p->iosize == 0) {
		char what[96];

		snprintf(what, sizeof(what), "iosize %llu is larger than the %llu-byte "
			 "working set of", (unsigned long long)p->iosize,
			 (unsigned long long)wss);
		return common_fail_fatal(t, fi, what, s, NULL, -1, EINVAL);
	}
	p->nblocks = (wss - p->misalign) / p->iosize;   /* misaligned blocks fit */
	p->wss_bytes = wss;
	p->wss_slot = s;
	p->wss_gen = s->gen;
	return FLOWOP_OK;
}

/*
 * blockalign: a random offset misalign + k x blockalign, k uniform among
 * the positions where this op's iosize bytes fit in the working set.
 * (fio draws the offset first, among blocks that fit its smallest size,
 * then a size that fits there: the same away from the working set's
 * last largest-size bytes.)
 */
static enum flowop_result io_random_aligned(struct fb_thread *t, struct flowop_inst *fi,
					    struct io_priv *p, struct fb_slot *s,
					    uint64_t *off)
{
	if (s != p->wss_slot || s->gen != p->wss_gen) {
		enum flowop_result r = io_working_set(t, fi, p, s);

		if (r != FLOWOP_OK)
			return r;
		p->nblocks = 0;         /* every op comes here */
	}
	if (p->wss_bytes - p->misalign < p->iosize) {
		char what[96];

		snprintf(what, sizeof(what), "iosize %llu is larger than the %llu-byte "
			 "working set of", (unsigned long long)p->iosize,
			 (unsigned long long)p->wss_bytes);
		return common_fail_fatal(t, fi, what, s, NULL, -1, EINVAL);
	}
	*off = p->misalign + rng_block_offset(&t->rng, (p->wss_bytes - p->misalign -
				p->iosize) / p->blockalign + 1, p->blockalign);
	return FLOWOP_OK;
}

/*
 * randommap with blockalign: fio's random map over blocks of blockalign
 * bytes (bmap.h).  A new working set (another file, or an open) starts
 * a new map.  The op takes a random block, or when that one is done the
 * next one not done (wrapping; a full map starts a new pass), a size
 * that fits before the working set's end (a random iosize is drawn
 * again, as fio draws again; after 64 draws the largest whole blocks
 * that fit), and is cut short before the first block done already, as
 * fio cuts it: so late in a pass I/Os get smaller, as in fio.
 */
static enum flowop_result io_random_mapped(struct fb_thread *t, struct flowop_inst *fi,
					   struct io_priv *p, struct fb_slot *s,
					   uint64_t *off)
{
	uint64_t ba = p->blockalign, b, n;
	struct iomap *m = p->map;

	if (!p->iosize_random)
		p->iosize = p->map_iosize;
	if (s != p->wss_slot || s->gen != p->wss_gen) {
		enum flowop_result r = io_working_set(t, fi, p, s);

		if (r != FLOWOP_OK)
			return r;
		p->nblocks = 0;         /* every op comes here */
	}
	if (m->slot != s || m->gen != s->gen) {      /* a new file: a new map */
		/* a constant size: only the blocks it fits from (fio's last_block()) */
		uint64_t span = p->wss_bytes - p->misalign, nbits;

		nbits = p->iosize_random ? span / ba : (span - p->iosize) / ba + 1;
		if (nbits == 0) {
			char what[112];

			snprintf(what, sizeof(what), "blockalign %llu is larger than the "
				 "%llu-byte working set of", (unsigned long long)ba,
				 (unsigned long long)p->wss_bytes);
			return common_fail_fatal(t, fi, what, s, NULL, -1, EINVAL);
		}
		if (m->bmap.nbits != nbits || !m->bmap.lv[0]) {
			bmap_free(&m->bmap);
			if (bmap_init(&m->bmap, nbits) != 0) {
				thread_fail(t, "flowop %s: cannot allocate the random map of "
					    "%llu blocks", fi->pf->name, (unsigned long long)nbits);
				return FLOWOP_ERROR;
			}
		} else {
			bmap_clear(&m->bmap);
		}
		m->slot = s;
		m->gen = s->gen;
	}
	b = rng_below(&t->rng, m->bmap.nbits);
	if (bmap_isset(&m->bmap, b))
		b = bmap_next_free(&m->bmap, b);
	if (b == BMAP_NONE) {           /* every block done: a new pass */
		bmap_clear(&m->bmap);
		b = rng_below(&t->rng, m->bmap.nbits);
	}
	*off = p->misalign + b * ba;
	for (int tries = 0; *off + p->iosize > p->wss_bytes; tries++) {
		enum flowop_result r;

		if (tries == 64 || !p->iosize_random) {
			p->iosize = (p->wss_bytes - *off) / ba * ba;
			break;
		}
		r = io_sample_size(t, fi, p);
		if (r != FLOWOP_OK)
			return r;
	}
	n = bmap_set_run(&m->bmap, b, (p->iosize + ba - 1) / ba);
	if (n * ba < p->iosize)
		p->iosize = n * ba;
	return FLOWOP_OK;
}

/*
 * A random offset off the common path: the working set of a file the
 * slot just opened, or every op of randommap (which keeps nblocks 0 for
 * that): the next block of the permutation, begun anew, with a new
 * order, when the slot holds another file or an open of it again.
 */
static __attribute__((noinline)) enum flowop_result
io_random_rare(struct fb_thread *t, struct flowop_inst *fi, struct io_priv *p,
	       struct fb_slot *s, uint64_t *off)
{
	if (p->mapped)
		return io_random_mapped(t, fi, p, s, off);
	if (p->blockalign)
		return io_random_aligned(t, fi, p, s, off);
	if (!p->randommap || s != p->wss_slot || s->gen != p->wss_gen) {
		enum flowop_result r = io_working_set(t, fi, p, s);

		if (r != FLOWOP_OK)
			return r;
		if (!p->randommap) {
			*off = rng_block_offset(&t->rng, p->nblocks, p->iosize) + p->misalign;
			return FLOWOP_OK;
		}
		p->nblocks = 0;
	}
	if (p->map->slot != s || p->map->gen != s->gen) {  /* a new file: a new order */
		permute_start(&p->map->pm, (p->wss_bytes - p->misalign) / p->iosize, &t->rng);
		p->map->slot = s;
		p->map->gen = s->gen;
	}
	*off = permute_next(&p->map->pm, &t->rng) * p->iosize + p->misalign;
	return FLOWOP_OK;
}

/*
 * stride: the next offset from *off, the end of the previous op (or the
 * start), as fio's offset modifier: the end plus `stride`.  The first op
 * is at the start, but a backward one with misalign (fio's offset=) at
 * the end plus stride, as fio does; past either end of the working set
 * the offset wraps to the start (forward) or to the end plus stride
 * (backward).
 */
static enum flowop_result io_stride_offset(struct fb_thread *t, struct flowop_inst *fi,
					   struct io_priv *p, struct fb_slot *s,
					   uint64_t *off)
{
	uint64_t start = p->misalign, end;
	int64_t next;

	if (s != p->wss_slot || s->gen != p->wss_gen) {
		enum flowop_result r = io_working_set(t, fi, p, s);

		if (r != FLOWOP_OK)
			return r;
	}
	end = p->wss_bytes;
	if (p->stride < 0 && (uint64_t)-p->stride > end - start) {
		char what[128];

		snprintf(what, sizeof(what), "stride %lld reaches before the start "
			 "of the %llu-byte working set of", (long long)p->stride,
			 (unsigned long long)end);
		return common_fail_fatal(t, fi, what, s, NULL, -1, EINVAL);
	}
	if (*off <= start) {                    /* the first op, or after a wrap */
		*off = p->stride > 0 || !start ? start : end + (uint64_t)p->stride;
		return FLOWOP_OK;
	}
	next = (int64_t)*off + p->stride;
	if (next >= (int64_t)start && (uint64_t)next < end)
		*off = (uint64_t)next;
	else
		*off = p->stride > 0 ? start : end + (uint64_t)p->stride;
	return FLOWOP_OK;
}

/*
 * wrap: a sequential op that would not fit before the end of the
 * working set (`workingset`, else the file's size at population or when
 * the slot opened it) starts again at misalign, as fio's time-based
 * sequential I/O starts again at the start of its region (a read does
 * so without reading 0 bytes at the end of the file first).
 */
static enum flowop_result io_wrap_offset(struct fb_thread *t, struct flowop_inst *fi,
					 struct io_priv *p, struct fb_slot *s,
					 uint64_t *off)
{
	if (s != p->wss_slot || s->gen != p->wss_gen) {
		enum flowop_result r = io_working_set(t, fi, p, s);

		if (r != FLOWOP_OK)
			return r;
	}
	if (*off < p->misalign || *off + p->iosize > p->wss_bytes)
		*off = p->misalign;
	return FLOWOP_OK;
}

/*
 * A sequential offset off the common path: a run that starts misaligned,
 * (stride) one with holes, or (wrap) writes that start again at the end.
 */
static __attribute__((noinline)) enum flowop_result
io_seq_rare(struct fb_thread *t, struct flowop_inst *fi, struct io_priv *p,
	    struct fb_slot *s, uint64_t *off)
{
	if (p->stride)
		return io_stride_offset(t, fi, p, s, off);
	if (p->wrap)
		return io_wrap_offset(t, fi, p, s, off);
	if (*off < p->misalign)
		*off = p->misalign;     /* a sequential run starts misaligned */
	return FLOWOP_OK;
}

/*
 * The slot ready and the offset of this op, or why not.  Inlined into
 * every run function of read and write: as a call it cost an op about
 * 25 instructions of call, frame and the offset passed through memory.
 */
static inline __attribute__((always_inline)) enum flowop_result
io_prepare(struct fb_thread *t, struct flowop_inst *fi, struct io_priv *p,
	   struct fb_slot *s, uint64_t *off)
{
	int fs = p->sel.fileset;        /* fi->pf->fileset, in the op's line */

	if (__builtin_expect(s->fd < 0 || (fs >= 0 && s->fileset != fs), 0)) {
		enum flowop_result r = io_open(t, fi, p, s);

		if (r != FLOWOP_OK)
			return r;
	}
	if (__builtin_expect(p->iosize_random, 0)) {
		enum flowop_result r = io_sample_size(t, fi, p);

		if (r != FLOWOP_OK)
			return r;
		if (p->random && p->wss_slot == s && s->gen == p->wss_gen &&
		    !p->blockalign)
			p->nblocks = (p->wss_bytes - p->misalign) / p->iosize;
	}
	if (p->random) {
		if (__builtin_expect(s != p->wss_slot || s->gen != p->wss_gen ||
				     p->nblocks == 0, 0))
			return io_random_rare(t, fi, p, s, off);
		*off = rng_block_offset(&t->rng, p->nblocks, p->iosize) + p->misalign;
	} else {
		*off = s->offset;
		if (__builtin_expect(p->seq_rare, 0))
			return io_seq_rare(t, fi, p, s, off);
	}
	return FLOWOP_OK;
}

/* io_prepare() for aio.c (read and write keep the static, inlined one). */
enum flowop_result io_place(struct fb_thread *t, struct flowop_inst *fi,
			    struct io_priv *p, struct fb_slot *s, uint64_t *off)
{
	return io_prepare(t, fi, p, s, off);
}

/*
 * A random read inside the size the file had when the slot opened it
 * came back short: the file shrank under the run (no flowop truncates;
 * a file deleted and created again is another file on another slot
 * open).  Reads past the end are normal: sequential reads wrap there,
 * and a working set larger than the file asks for them.  Never inlined:
 * its message buffer would otherwise grow every read's stack frame by
 * lines the op touches.
 */
static __attribute__((cold, noinline)) enum flowop_result
io_short_read(struct fb_thread *t, struct flowop_inst *fi,
				    const struct io_priv *p, const struct fb_slot *s,
				    uint64_t off, size_t done)
{
	char what[160];

	snprintf(what, sizeof(what), "short pread (%zu of %llu bytes, the file had "
		 "%llu bytes when opened) of", done, (unsigned long long)p->iosize,
		 (unsigned long long)p->file_bytes);
	return common_fail_kind(t, fi, FE_SHORT, what, s, NULL, (int64_t)off, 0);
}

/*
 * pread/pwrite as plain system calls.  glibc makes pread() and pwrite()
 * cancellation points: in a process that has ever run a second thread
 * (a worker of several thread instances; the master runs none before
 * it forks, runtime/fileset/prealloc.c) each call wraps the system call
 * in two atomic updates of the thread's cancellation state, about 50
 * instructions per op.
 * flowbench never cancels a thread, so that is pure cost.  Sanitizer
 * builds keep the libc calls, whose interceptors check the buffer.
 */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define IO_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define IO_SANITIZED 1
#endif
#endif
#if defined(SYS_pread64) && defined(SYS_pwrite64) && UINTPTR_MAX == UINT64_MAX && \
	!defined(IO_SANITIZED)
#define IO_RAW_SYSCALLS 1
#endif

#if defined(IO_RAW_SYSCALLS) && defined(__x86_64__)
/*
 * x86-64: the syscall instruction itself, with the arguments where the
 * kernel takes them.  libc's syscall() is a call that moves all seven of
 * its arguments one register along: about 20 instructions per op, and
 * the caller must keep its live values in saved registers around it.
 */
static inline long io_syscall4(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	if (__builtin_expect((unsigned long)ret > -4096ul, 0)) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}
#define IO_SYSCALL4(nr, a, b, c, d) \
	io_syscall4((nr), (long)(a), (long)(b), (long)(c), (long)(d))
#elif defined(IO_RAW_SYSCALLS)
#define IO_SYSCALL4(nr, a, b, c, d) syscall((nr), (a), (b), (c), (d))
#endif

static inline ssize_t io_pread(int fd, void *buf, uint64_t n, uint64_t off)
{
#ifdef IO_RAW_SYSCALLS
	return IO_SYSCALL4(SYS_pread64, fd, buf, (size_t)n, (off_t)off);
#else
	return pread(fd, buf, (size_t)n, (off_t)off);
#endif
}

static inline ssize_t io_pwrite(int fd, const void *buf, uint64_t n, uint64_t off)
{
#ifdef IO_RAW_SYSCALLS
	return IO_SYSCALL4(SYS_pwrite64, fd, buf, (size_t)n, (off_t)off);
#else
	return pwrite(fd, buf, (size_t)n, (off_t)off);
#endif
}

/*
 * A read of the prepared op into `buf`, started at tick t0: timed,
 * checked, recorded.  `slow`: through thread_record_slow(), which the
 * caller's compare chose (io_read_into()); a constant in each caller.
 */
static inline __attribute__((always_inline)) enum flowop_result
io_read_timed(struct fb_thread *t, struct flowop_inst *fi, struct io_priv *p,
	      struct fb_slot *s, uint64_t off, char *buf, uint64_t t0, bool slow)
{
	uint64_t t1;
	ssize_t n;

	n = io_pread(s->fd, buf, p->iosize, off);
	t1 = thread_ticks(t);
	if (__builtin_expect((uint64_t)n != p->iosize, 0)) {
		if (n < 0)
			return common_fail(t, fi, "pread", s, NULL, (int64_t)off, errno);
		if (p->random && off + p->iosize <= p->file_bytes)
			return io_short_read(t, fi, p, s, off, (size_t)n);
	}
	if (slow ? !thread_record_slow(t, fi->stats, &fi->stats->op, THREAD_NO_SUBMIT,
				       t0, t1, (uint64_t)n, off) :
	    !thread_record_plain(t, fi->stats, &fi->stats->op, t0, t1, (uint64_t)n))
		return FLOWOP_DONE;
	/* at EOF: wrap; misaligned runs wrap at the partial last block */
	if (p->sets_offset)
		s->offset = (uint64_t)n == p->iosize || (n && !p->misalign) ?
			    off + (uint64_t)n : 0;
	return FLOWOP_OK;
}

/* The read of an op that takes thread_record()'s slow path (logs, warm-up's end). */
static __attribute__((noinline, cold)) enum flowop_result
io_read_slow(struct fb_thread *t, struct flowop_inst *fi, struct io_priv *p,
	     struct fb_slot *s, uint64_t off, char *buf)
{
	return io_read_timed(t, fi, p, s, off, buf, thread_ticks(t), true);
}

/*
 * A read of the prepared op into `buf`.  Inlined into both the default
 * run function (buf = p->buf) and filebench's (a buffer placed per op),
 * so neither pays for the other.  thread_record()'s compare is made
 * here, before the read, so that the op's offset, which the per-op logs
 * want, is not kept past the system call on the common path.
 */
static inline __attribute__((always_inline)) enum flowop_result
io_read_into(struct fb_thread *t, struct flowop_inst *fi, struct io_priv *p,
	     struct fb_slot *s, uint64_t off, char *buf)
{
	uint64_t t0 = thread_ticks(t);

	if (thread_record_gated(t, t0))
		return io_read_slow(t, fi, p, s, off, buf);
	return io_read_timed(t, fi, p, s, off, buf, t0, false);
}

/*
 * One op of read: the slot, the offset, then io_read_into() the
 * flowop's own buffer or, under --compat filebench, one placed for this
 * op (io_filebench_buf()).  `filebench` is a constant in each run
 * function and this is inlined, so the default one has no trace of the
 * variant.
 */
static inline __attribute__((always_inline)) enum flowop_result
io_read_op(struct fb_thread *t, struct flowop_inst *fi, bool filebench)
{
	struct io_priv *p = fi->priv;
	struct fb_slot *s = common_slot(t, &p->sel);
	uint64_t off;
	enum flowop_result r = io_prepare(t, fi, p, s, &off);

	if (r != FLOWOP_OK)
		return r;
	if (filebench)
		return io_read_into(t, fi, p, s, off, io_filebench_buf(t, p));
	return io_read_into(t, fi, p, s, off, p->buf);
}

static enum flowop_result io_read(struct fb_thread *t, struct flowop_inst *fi)
{
	return io_read_op(t, fi, false);
}

/* --compat filebench: the same read into a buffer placed for this op. */
static enum flowop_result io_read_filebench(struct fb_thread *t, struct flowop_inst *fi)
{
	return io_read_op(t, fi, true);
}

/*
 * A short write: the file system ran out of something.  Writing the rest
 * once tells the reason (usually ENOSPC), which the failure is counted
 * under; if that write goes through, it is counted as a short one.
 */
static enum flowop_result io_short_write(struct fb_thread *t, struct flowop_inst *fi,
					 struct io_priv *p, struct fb_slot *s, uint64_t off,
					 const char *buf, size_t done)
{
	ssize_t n = pwrite(s->fd, buf + done, p->iosize - done,
			   (off_t)(off + done));
	char what[96];

	snprintf(what, sizeof(what), "short pwrite (%zu of %llu bytes) of", done,
		 (unsigned long long)p->iosize);
	if (n < 0)      /* counted under its reason */
		return common_fail(t, fi, what, s, NULL, (int64_t)off, errno);
	return common_fail_kind(t, fi, FE_SHORT, what, s, NULL, (int64_t)off, ENOSPC);
}

/* A write of the prepared op from `buf`, started at t0 (see io_read_timed()). */
static inline __attribute__((always_inline)) enum flowop_result
io_write_timed(struct fb_thread *t, struct flowop_inst *fi, struct io_priv *p,
	       struct fb_slot *s, uint64_t off, const char *buf, uint64_t t0, bool slow)
{
	uint64_t t1;
	ssize_t n;

	n = io_pwrite(s->fd, buf, p->iosize, off);
	t1 = thread_ticks(t);
	if (__builtin_expect(n != (ssize_t)p->iosize, 0)) {
		if (n < 0)
			return common_fail(t, fi, "pwrite", s, NULL, (int64_t)off, errno);
		return io_short_write(t, fi, p, s, off, buf, (size_t)n);
	}
	if (slow ? !thread_record_slow(t, fi->stats, &fi->stats->op, THREAD_NO_SUBMIT,
				       t0, t1, (uint64_t)n, off) :
	    !thread_record_plain(t, fi->stats, &fi->stats->op, t0, t1, (uint64_t)n))
		return FLOWOP_DONE;
	if (p->sets_offset)
		s->offset = off + (uint64_t)n;
	return FLOWOP_OK;
}

static __attribute__((noinline, cold)) enum flowop_result
io_write_slow(struct fb_thread *t, struct flowop_inst *fi, struct io_priv *p,
	      struct fb_slot *s, uint64_t off, const char *buf)
{
	return io_write_timed(t, fi, p, s, off, buf, thread_ticks(t), true);
}

/* A write of the prepared op from `buf` (see io_read_into()). */
static inline __attribute__((always_inline)) enum flowop_result
io_write_from(struct fb_thread *t, struct flowop_inst *fi, struct io_priv *p,
	      struct fb_slot *s, uint64_t off, const char *buf)
{
	uint64_t t0 = thread_ticks(t);

	if (thread_record_gated(t, t0))
		return io_write_slow(t, fi, p, s, off, buf);
	return io_write_timed(t, fi, p, s, off, buf, t0, false);
}

/*
 * One op of write, like io_read_op().  `data` (a constant, as
 * `filebench`): the contents change per write (refill, scramble), made
 * before the op's clock starts, as fio fills before it issues.
 */
static inline __attribute__((always_inline)) enum flowop_result
io_write_op(struct fb_thread *t, struct flowop_inst *fi, bool filebench, bool data)
{
	struct io_priv *p = fi->priv;
	struct fb_slot *s = common_slot(t, &p->sel);
	uint64_t off;
	enum flowop_result r = io_prepare(t, fi, p, s, &off);

	if (r == FLOWOP_OK)
		r = slot_writable(t, fi, s);
	if (r != FLOWOP_OK)
		return r;
	if (filebench)
		return io_write_from(t, fi, p, s, off, io_filebench_buf(t, p));
	if (data)
		data_before_write(p->data, p->buf, p->iosize, off);
	return io_write_from(t, fi, p, s, off, p->buf);
}

static enum flowop_result io_write(struct fb_thread *t, struct flowop_inst *fi)
{
	return io_write_op(t, fi, false, false);
}

/* A write with refill or scramble (io_init() chose it): the same, its data made first. */
static enum flowop_result io_write_data(struct fb_thread *t, struct flowop_inst *fi)
{
	return io_write_op(t, fi, false, true);
}

/* --compat filebench: the same write from a buffer placed for this op. */
static enum flowop_result io_write_filebench(struct fb_thread *t, struct flowop_inst *fi)
{
	return io_write_op(t, fi, true, false);
}

/* memoffset + iosize must fit in the thread's memory, when it has some. */
static int io_validate_memoffset(const struct plan *p, const struct plan_flowop *f,
				 struct diag *d)
{
	uint64_t memsize = f->thread >= 0 ? p->threads[f->thread].memsize : 0;
	int64_t iosize = plan_attr_int(f, COMMON_IOSIZE, 0);
	uint64_t memoffset = (uint64_t)plan_attr_int(f, IO_MEMOFFSET, 0);

	if (!memoffset || !memsize || f->attr[COMMON_IOSIZE].kind == PV_RANDOM ||
	    iosize <= 0 || memoffset + (uint64_t)iosize <= memsize)
		return 0;
	diag_error(d, f->attr[IO_MEMOFFSET].loc,
		   "flowop %s: memoffset %llu plus iosize %lld does not fit in the "
		   "thread's memsize (%llu bytes)", f->name,
		   (unsigned long long)memoffset, (long long)iosize,
		   (unsigned long long)memsize);
	return 1;
}

/* Can the files of fileset `fs` grow: does any flowop write (maybe) to them? */
static bool fileset_may_grow(const struct plan *p, int fs)
{
	for (int i = 0; i < p->nflowops; i++) {
		const struct plan_flowop *f = &p->flowops[i];

		/* a flowop given only `fd` may write to any file */
		if (f->ops->rw == FLOWOP_RW_WRITE && (f->fileset == fs || f->fileset < 0))
			return true;
	}
	return false;
}

/*
 * A sequential read reads at most `iosize` bytes per op from the slot's
 * offset.  From files of a constant size that nothing in the run writes
 * to, an iosize larger than the files can never be read whole: every op
 * would be a short read.  (Random reads are checked by io_validate();
 * readwholefile reads in chunks of iosize, where a large one is fine.)
 */
static int io_validate_short_reads(const struct plan *p,
				   const struct plan_flowop *f, struct diag *d)
{
	const struct plan_value *io = &f->attr[COMMON_IOSIZE];
	const struct plan_fileset *fs;

	if (f->fileset < 0 || io->kind != PV_INT || plan_attr_bool(f, IO_RANDOM, false))
		return 0;
	fs = &p->filesets[f->fileset];
	/* a device's size is known once it is opened (io_working_set() checks then) */
	if ((fs->is_device && !fs->size) || fs->size_rv >= 0 || (uint64_t)io->u.i <= fs->size ||
	    fileset_may_grow(p, f->fileset))
		return 0;
	diag_error(d, io->loc,
		   "flowop %s: iosize %lld is larger than the %llu-byte files of %s '%s', and no flowop writes to them: every read would be short; lower iosize or raise the file size",
		   f->name, (long long)io->u.i, (unsigned long long)fs->size,
		   fs->is_file ? "file" : "fileset", fs->name);
	return 1;
}

/*
 * randommap (a flowbench extension): only with `random`, a constant
 * iosize (the permutation is of whole blocks of one size) or blockalign
 * (a map of its blocks, io_random_mapped()), one slot (a pass covers the
 * file that slot holds: not opennext), and never under --compat
 * filebench, whose random offsets are drawn with replacement.
 */
static int io_validate_randommap(const struct plan *p, const struct plan_flowop *f,
				 struct diag *d)
{
	const struct plan_value *v = &f->attr[IO_RANDOMMAP];

	if (!plan_attr_bool(f, IO_RANDOMMAP, false))
		return 0;
	if (p->semantics == PLAN_SEM_FILEBENCH) {
		diag_error(d, v->loc, "flowop %s: randommap is a flowbench extension "
			   "(fio's random map); filebench draws random offsets with "
			   "replacement, so --compat filebench refuses it", f->name);
		return 1;
	}
	if (!plan_attr_bool(f, IO_RANDOM, false)) {
		diag_error(d, v->loc, "flowop %s: randommap needs random (it orders "
			   "random offsets; sequential I/O visits every block already)",
			   f->name);
		return 1;
	}
	if (f->attr[COMMON_IOSIZE].kind == PV_RANDOM && !plan_attr_given(f, IO_BLOCKALIGN)) {
		diag_error(d, v->loc, "flowop %s: randommap with a random iosize needs "
			   "blockalign (the map's block, fio's smallest size): without it "
			   "randommap permutes whole blocks of one size", f->name);
		return 1;
	}
	if (plan_attr_bool(f, COMMON_OPENNEXT, false)) {
		diag_error(d, v->loc, "flowop %s: randommap cannot be used with "
			   "opennext: each op takes another slot's file, so no pass "
			   "over one file would ever complete", f->name);
		return 1;
	}
	return 0;
}

/*
 * stride (a flowbench extension, read and write only): sequential I/O,
 * a step (iosize + stride) that moves, and never under --compat
 * filebench.
 */
static int io_validate_stride(const struct plan *p, const struct plan_flowop *f,
			      struct diag *d)
{
	const struct plan_value *v = &f->attr[IO_STRIDE];
	int64_t stride = plan_attr_int(f, IO_STRIDE, 0);

	if (f->nattr <= IO_STRIDE || !stride)
		return 0;
	if (p->semantics == PLAN_SEM_FILEBENCH) {
		diag_error(d, v->loc, "flowop %s: stride is a flowbench extension "
			   "(fio's rw=read:N); filebench's sequential I/O has no holes, "
			   "so --compat filebench refuses it", f->name);
		return 1;
	}
	if (plan_attr_bool(f, IO_RANDOM, false)) {
		diag_error(d, v->loc, "flowop %s: stride is for sequential I/O, not "
			   "with random", f->name);
		return 1;
	}
	if (f->attr[COMMON_IOSIZE].kind == PV_INT && stride == -f->attr[COMMON_IOSIZE].u.i) {
		diag_error(d, v->loc, "flowop %s: stride %lld with iosize %lld would "
			   "repeat the same block forever", f->name, (long long)stride,
			   (long long)f->attr[COMMON_IOSIZE].u.i);
		return 1;
	}
	return 0;
}

/*
 * seqfollows (a flowbench extension, read and write only): only with
 * `random` (a sequential op moves the slot's offset anyway), and never
 * under --compat filebench.
 */
static int io_validate_seqfollows(const struct plan *p, const struct plan_flowop *f,
				  struct diag *d)
{
	const struct plan_value *v = &f->attr[IO_SEQFOLLOWS];

	if (f->nattr <= IO_SEQFOLLOWS || !plan_attr_bool(f, IO_SEQFOLLOWS, false))
		return 0;
	if (p->semantics == PLAN_SEM_FILEBENCH) {
		diag_error(d, v->loc, "flowop %s: seqfollows is a flowbench extension "
			   "(fio's percentage_random); filebench's random offsets leave "
			   "the sequential one alone, so --compat filebench refuses it",
			   f->name);
		return 1;
	}
	if (!plan_attr_bool(f, IO_RANDOM, false)) {
		diag_error(d, v->loc, "flowop %s: seqfollows needs random (a "
			   "sequential op moves the slot's offset anyway)", f->name);
		return 1;
	}
	return 0;
}

/*
 * blockalign (a flowbench extension, fio's blockalign): only with
 * `random`, not with randommap (which permutes whole iosize blocks),
 * greater than 0, and never under --compat filebench.
 */
static int io_validate_blockalign(const struct plan *p, const struct plan_flowop *f,
				  struct diag *d)
{
	const struct plan_value *v = &f->attr[IO_BLOCKALIGN];
	const char *why = NULL;

	if (f->nattr <= IO_BLOCKALIGN || v->kind == PV_UNSET)
		return 0;
	if (p->semantics == PLAN_SEM_FILEBENCH)
		why = "is a flowbench extension (fio's blockalign); filebench's random "
		      "offsets are multiples of iosize, so --compat filebench refuses it";
	else if (plan_attr_int(f, IO_BLOCKALIGN, 0) <= 0)
		why = "must be greater than 0";
	else if (!plan_attr_bool(f, IO_RANDOM, false))
		why = "needs random (it aligns random offsets)";
	if (!why)
		return 0;
	diag_error(d, v->loc, "flowop %s: blockalign %s", f->name, why);
	return 1;
}

/*
 * wrap (a flowbench extension): sequential, without stride (which wraps
 * already), never under --compat filebench.
 */
static int io_validate_wrap(const struct plan *p, const struct plan_flowop *f,
			    struct diag *d)
{
	const struct plan_value *v = &f->attr[IO_WRAP];
	const char *why = NULL;

	if (f->nattr <= IO_WRAP || !plan_attr_bool(f, IO_WRAP, false))
		return 0;
	if (p->semantics == PLAN_SEM_FILEBENCH)
		why = "is a flowbench extension; filebench's sequential writes append "
		      "and its reads wrap at the end of the file, so --compat filebench "
		      "refuses it";
	else if (plan_attr_bool(f, IO_RANDOM, false))
		why = "is for sequential I/O, not with random";
	else if (plan_attr_int(f, IO_STRIDE, 0))
		why = "is not needed with stride, which wraps at the working set's ends";
	if (!why)
		return 0;
	diag_error(d, v->loc, "flowop %s: wrap %s", f->name, why);
	return 1;
}

/* Compile-time checks shared by read, write, aioread and aiowrite. */
int io_validate(const struct plan *p, const struct plan_flowop *f,
		struct diag *d)
{
	int errs = 0;
	int64_t iosize = plan_attr_int(f, COMMON_IOSIZE, 0);
	int64_t ws = plan_attr_int(f, COMMON_WORKINGSET, 0);
	uint64_t misalign = (uint64_t)plan_attr_int(f, IO_MISALIGN, 0);
	const char *type = f->ops ? f->ops->name : "read/write";

	if (!plan_attr_given(f, COMMON_IOSIZE) ||
	    (f->attr[COMMON_IOSIZE].kind != PV_RANDOM && iosize <= 0)) {
		diag_error(d, plan_attr_given(f, COMMON_IOSIZE) ?
			   f->attr[COMMON_IOSIZE].loc : f->loc,
			   "flowop %s: %s needs an iosize greater than 0", f->name, type);
		errs++;
	}
	errs += common_validate_file_or_fd(p, f, d);
	if (ws < 0) {
		diag_error(d, f->attr[COMMON_WORKINGSET].loc,
			   "flowop %s: workingset must not be negative", f->name);
		errs++;
	}
	if (f->ops && f->ops->rw == FLOWOP_RW_READ)
		errs += io_validate_short_reads(p, f, d);
	if (errs == 0 && f->fileset >= 0 && plan_attr_bool(f, IO_RANDOM, false)) {
		uint64_t wss = ws > 0 ? (uint64_t)ws : p->filesets[f->fileset].size;
		bool unknown = !wss && p->filesets[f->fileset].is_device;

		if (!unknown && (uint64_t)iosize + misalign > wss) {
			diag_error(d, f->attr[COMMON_IOSIZE].loc,
				   "flowop %s: iosize %lld%s is larger than the working set "
				   "(%llu bytes)", f->name, (long long)iosize,
				   misalign ? " plus misalign" : "", (unsigned long long)wss);
			errs++;
		}
	}
	errs += io_validate_memoffset(p, f, d);
	errs += io_validate_randommap(p, f, d);
	errs += io_validate_stride(p, f, d);
	errs += io_validate_seqfollows(p, f, d);
	errs += io_validate_blockalign(p, f, d);
	errs += io_validate_wrap(p, f, d);
	errs += data_validate(p, f, IO_DATA, d);
	return errs;
}

void io_need(const struct plan *p, const struct plan_flowop *f,
	     struct flowop_need *n)
{
	const struct plan_value *io = &f->attr[COMMON_IOSIZE];
	uint64_t memsize = p->threads[f->thread].memsize;
	uint64_t memoffset = (uint64_t)plan_attr_int(f, IO_MEMOFFSET, 0);
	uint64_t iosize = io->kind == PV_RANDOM ? IO_RANDOM_BUF :
			  io->kind == PV_INT && io->u.i > 0 ? (uint64_t)io->u.i : 0;

	n->mem = plan_sat_add(sizeof(struct io_priv), data_need(f, IO_DATA));
	/* randommap with blockalign: a map of the working set's blocks */
	if (plan_attr_bool(f, IO_RANDOMMAP, false) && plan_attr_int(f, IO_BLOCKALIGN, 0) > 0) {
		uint64_t ws = (uint64_t)plan_attr_int(f, COMMON_WORKINGSET, 0);

		if (!ws && f->fileset >= 0)
			ws = p->filesets[f->fileset].size;
		n->mem = plan_sat_add(n->mem, bmap_bytes(ws / (uint64_t)plan_attr_int(f,
						IO_BLOCKALIGN, 0) + 1));
	}
	/* a random size takes the thread's memory whole, or its own buffer */
	if (iosize && !(memsize && (io->kind == PV_RANDOM || iosize <= memsize)))
		n->mem = plan_sat_add(n->mem, plan_sat_add(memoffset, iosize));
	/* --compat filebench's own buffer reserves 512 bytes more for directio */
	if (plan_attr_bool(f, COMMON_DIRECTIO, false))
		n->mem = plan_sat_add(n->mem, DIO_FILEBENCH_ALIGN);
	common_need_slot(f, n);
}

/* What read and write both take. */
/* What read and write both take. */
#define IO_ATTRS_RW                                                     \
	ATTR_FILENAME,                                                  \
	COMMON_ATTR_IOSIZE,                                             \
	IO_ATTR_RANDOM,                                                 \
	COMMON_ATTR_WORKINGSET,                                         \
	COMMON_ATTR_DIRECTIO,                                           \
	COMMON_ATTR_DSYNC,                                              \
	ATTR_FD,                                                        \
	COMMON_ATTR_OPENNEXT,                                           \
	COMMON_ATTR_NOREADAHEAD,                                        \
	IO_ATTR_MISALIGN,                                               \
	{ "memoffset", T_SIZE, IO_MEMOFFSET,                            \
	  "the buffer starts this many bytes into the thread's memory" }, \
	IO_ATTR_RANDOMMAP,                                              \
	IO_ATTR_STRIDE,                                                 \
	IO_ATTR_SEQFOLLOWS,                                             \
	IO_ATTR_BLOCKALIGN,                                             \
	IO_ATTR_WRAP

static const struct attr_spec io_read_attrs[] = {
	IO_ATTRS_RW,
	{ NULL, 0, 0, NULL }
};

/* write also takes what it writes (data.h) */
static const struct attr_spec io_write_attrs[] = {
	IO_ATTRS_RW,
	DATA_ATTRS(IO_DATA),
	{ NULL, 0, 0, NULL }
};

/*
 * filebench's read and write (--compat filebench, plan_use_semantics()):
 * the same flowops with filebench's buffer placement.
 */
static const struct flowop_ops fo_read_filebench = {
	.name = "read",
	.on_device = true,
	.cls = FLOWOP_CLASS_IO,
	.rw = FLOWOP_RW_READ,
	.attrs = io_read_attrs,
	.nattr = IO_COUNT,
	.validate = io_validate,
	.need = io_need,
	.init = io_init_filebench,
	.run = io_read_filebench,
	.fini = io_fini,
};

static const struct flowop_ops fo_write_filebench = {
	.name = "write",
	.on_device = true,
	.cls = FLOWOP_CLASS_IO,
	.rw = FLOWOP_RW_WRITE,
	.attrs = io_write_attrs,
	.nattr = IO_COUNT,
	.validate = io_validate,
	.need = io_need,
	.init = io_init_filebench,
	.run = io_write_filebench,
	.fini = io_fini,
};

static const struct flowop_ops fo_read = {
	.name = "read",
	.on_device = true,
	.cls = FLOWOP_CLASS_IO,
	.rw = FLOWOP_RW_READ,
	.attrs = io_read_attrs,
	.nattr = IO_COUNT,
	.validate = io_validate,
	.need = io_need,
	.init = io_init,
	.run = io_read,
	.fini = io_fini,
	.filebench = &fo_read_filebench,
};

static const struct flowop_ops fo_write = {
	.name = "write",
	.on_device = true,
	.cls = FLOWOP_CLASS_IO,
	.rw = FLOWOP_RW_WRITE,
	.attrs = io_write_attrs,
	.nattr = IO_COUNT,
	.validate = io_validate,
	.need = io_need,
	.init = io_init,
	.run = io_write,
	.fini = io_fini,
	.filebench = &fo_write_filebench,
};

const struct flowop_ops *const flowops_io[] = { &fo_read, &fo_write, NULL };
