/*
 * wholefile.c - readwholefile, writewholefile, appendfile, appendfilerand
 * (WML reference 4.12-4.15).
 *
 * All four work on the slot's file, opening an existing file of their
 * fileset on first use (the implicit open: its own op in stats->open,
 * never a read or a write; under --compat filebench an op of the flowop,
 * flowop_inst.open_stats).  Each execution is one op whatever the
 * number of system calls; bytes are what was really moved.
 *
 *   readwholefile   reads from offset 0 to EOF in chunks of `iosize`
 *                   (0: the working set, at most the buffer).
 *   writewholefile  writes exactly the file's size (or, with srcfd, the
 *                   size of the file slot srcfd holds or held) at the
 *                   slot's offset, in chunks of `iosize`; the last chunk
 *                   is shortened (filebench writes whole chunks and
 *                   overshoots).  Like filebench the offset is not reset,
 *                   so a second write on the same open slot extends the
 *                   file.
 *   appendfile      appends `iosize` bytes (one pwritev2 with RWF_APPEND,
 *                   atomic with other appenders).
 *   appendfilerand  appends a size drawn uniformly in [1, iosize] from the
 *                   thread's generator (filebench: 0 .. iosize-2, a 0 an
 *                   empty op).
 * Files grow without limit: nothing wraps (as in filebench).
 *
 * Buffers: the start of the thread's memory when it is large enough,
 * else the flowop's own, written with a pattern at init.  Under --compat
 * filebench, readwholefile and writewholefile place theirs as filebench
 * does (wf_fb_buf()): at every op, at a random multiple of the chunk
 * size inside thread memory (512 bytes more for directio, the address
 * rounded up to 512), or in the flowop's own heap buffer; a chunk that
 * does not fit the thread's memory is an error, and `iosize` 0 reads
 * or writes the whole file in one chunk.
 *
 * Under --compat filebench (their `filebench` ops tables) the two append
 * flowops do what filebench does: lseek to the end, then write (two
 * system calls, one op; appenders racing between them overwrite each
 * other's data, as in filebench), and appendfilerand appends
 * floor(u * (iosize - 1)) bytes, u uniform in [0, 1): 0 .. iosize-2, a
 * 0 recording an empty op that touches no file.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "flowops/common.h"
#include "flowops/dio.h"
#include "flowops/registry.h"
#include "plan/flowop.h"
#include "plan/diag.h"
#include "runtime/fileset/fileset.h"
#include "runtime/base/rng.h"
#include "runtime/engine/thread.h"
#include "runtime/engine/threadfile.h"

#define WF_ALIGN 4096
#define WF_DEFAULT_BUF (1u << 20)

/* The buffer of a flowop of constant `iosize` (a random one reads 0 here). */
static size_t wf_bufsize(int64_t iosize)
{
	return iosize > 0 ? (size_t)iosize : WF_DEFAULT_BUF;
}

struct wf_priv {
	struct common_slotsel sel;
	int oflags;
	bool noreadahead;
	char *buf;
	size_t bufsize;
	bool own_buf;
	uint64_t workingset;    /* `workingset`, 0: the file's size */
	int srcfd;
	/* --compat filebench (wf_init_filebench()): 512 reserved for directio, mask 511 */
	uint64_t fb_extra;
	uintptr_t fb_mask;
};

/* A flowop's wf_priv with its settings, no buffer yet; NULL with the error set. */
static struct wf_priv *wf_priv_new(struct fb_thread *t, struct flowop_inst *fi)
{
	const struct plan_flowop *pf = fi->pf;
	struct wf_priv *p = calloc(1, sizeof(*p));
	int64_t ws = plan_attr_int(pf, COMMON_WORKINGSET, 0);

	if (!p) {
		thread_fail(t, "flowop %s: out of memory", pf->name);
		return NULL;
	}
	fi->priv = p;
	common_slotsel_init(&p->sel, pf);
	p->oflags = common_open_flags(pf);
	p->noreadahead = plan_attr_bool(pf, COMMON_NOREADAHEAD, false);
	p->workingset = ws > 0 ? (uint64_t)ws : 0;
	p->srcfd = (int)plan_attr_int(pf, COMMON_SRCFD, 0);
	return p;
}

static int wf_init(struct fb_thread *t, struct flowop_inst *fi)
{
	const struct plan_flowop *pf = fi->pf;
	struct wf_priv *p = wf_priv_new(t, fi);

	if (!p)
		return FLOWOP_ERROR;
	p->bufsize = wf_bufsize(plan_attr_int(pf, COMMON_IOSIZE, 0));
	if (t->mem && t->memsize >= p->bufsize) {
		p->buf = t->mem;
	} else {
		void *b;

		if (posix_memalign(&b, WF_ALIGN, p->bufsize) != 0) {
			thread_fail(t, "flowop %s: cannot allocate a %zu-byte buffer",
				    pf->name, p->bufsize);
			return FLOWOP_ERROR;
		}
		p->buf = b;
		p->own_buf = true;
	}
	common_fill_pattern(p->buf, p->bufsize, 0x3c);
	return 0;
}

/*
 * --compat filebench: no buffer now (wf_fb_buf() places one per op) and
 * nothing written into thread memory, which the released thread
 * zero-fills (runtime/engine/threadmem.h).
 */
static int wf_init_filebench(struct fb_thread *t, struct flowop_inst *fi)
{
	struct wf_priv *p = wf_priv_new(t, fi);

	if (!p)
		return FLOWOP_ERROR;
	p->fb_extra = p->oflags & O_DIRECT ? DIO_FILEBENCH_ALIGN : 0;
	p->fb_mask = p->fb_extra ? DIO_FILEBENCH_ALIGN - 1 : 0;
	p->own_buf = true;      /* p->buf, when there is one, is the heap buffer */
	return 0;
}

/*
 * --compat filebench: the buffer of this op's `chunk`-byte I/Os, as
 * filebench places it (reference 4.0, "I/O buffer"): in thread memory at
 * a random multiple of the I/O size (chunk, plus 512 with directio)
 * below memsize minus that size; without thread memory the flowop's own
 * heap buffer, grown as needed.  With directio the address is rounded
 * up to 512.  NULL with the run's error set.
 */
static char *wf_fb_buf(struct fb_thread *t, const struct flowop_inst *fi,
		       struct wf_priv *p, size_t chunk)
{
	uint64_t unit = chunk + p->fb_extra, x;
	char *b;

	if (t->mem) {
		if (t->memsize < unit) {
			thread_fail(t, "flowop %s: thread memsize %llu is smaller than the "
				    "I/O size %llu (iosize, or the file's size%s), which "
				    "filebench refuses too", fi->pf->name,
				    (unsigned long long)t->memsize, (unsigned long long)unit,
				    p->fb_extra ? ", plus 512 bytes for directio" : "");
			return NULL;
		}
		x = rng_below(&t->rng, t->memsize - unit);
		b = (char *)t->mem + (x - x % unit);
	} else {
		if (p->bufsize < unit) {
			free(p->buf);
			p->buf = calloc(1, unit);
			p->bufsize = p->buf ? unit : 0;
			if (!p->buf) {
				thread_fail(t, "flowop %s: cannot allocate a %llu-byte buffer",
					    fi->pf->name, (unsigned long long)unit);
				return NULL;
			}
		}
		b = p->buf;
	}
	return (char *)(((uintptr_t)b + p->fb_mask) & ~p->fb_mask);
}

/*
 * --compat filebench: wf_fb_buf() for chunks of *chunk bytes, 0 meaning
 * a 1 MiB chunk (an empty file or working set).  NULL with the run's
 * error set, also when the chunk is too large for one I/O.
 */
static char *wf_fb_chunk_buf(struct fb_thread *t, const struct flowop_inst *fi,
			     struct wf_priv *p, uint64_t *chunk)
{
	char *buf = NULL;

	if (!*chunk)
		*chunk = WF_DEFAULT_BUF;
	if (*chunk > SSIZE_MAX || !(buf = wf_fb_buf(t, fi, p, (size_t)*chunk))) {
		if (!t->failed)
			thread_fail(t, "flowop %s: iosize %llu is too large", fi->pf->name,
				    (unsigned long long)*chunk);
	}
	return buf;
}

static void wf_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	struct wf_priv *p = fi->priv;

	(void)t;
	if (p && p->own_buf)
		free(p->buf);
	free(p);
	fi->priv = NULL;
}

/* The slot, opened (implicitly) if needed. */
static enum flowop_result wf_setup(struct fb_thread *t, struct flowop_inst *fi,
				   struct wf_priv *p, struct fb_slot **sp)
{
	struct fb_slot *s = common_slot(t, &p->sel);
	enum flowop_result r = FLOWOP_OK;
	int opened = 0;

	if (s->fd < 0 || (fi->pf->fileset >= 0 && s->fileset != fi->pf->fileset)) {
		r = slot_acquire_rr(t, fi, s, p->oflags, fi->open_stats,
				    common_rotor(&p->sel), &opened);
		if (opened && p->noreadahead)
			posix_fadvise(s->fd, 0, 0, POSIX_FADV_RANDOM);
	}
	*sp = s;
	return r;
}

/* The working set of the slot's file: `workingset`, else its size. */
static uint64_t wf_wss(struct fb_thread *t, const struct wf_priv *p,
		       const struct fb_slot *s)
{
	return p->workingset ? p->workingset :
	       fileset_file_size(&t->filesets[s->fileset], s->entry);
}

static size_t wf_chunk(const struct wf_priv *p, int64_t iosize, uint64_t dflt)
{
	uint64_t c = iosize > 0 ? (uint64_t)iosize : dflt;

	return c == 0 || c > p->bufsize ? p->bufsize : (size_t)c;
}

/*
 * Read the slot's file from offset 0 to EOF into `buf` in `chunk`s: one
 * op.  Inlined into flowbench's and filebench's run functions alike.
 */
static inline __attribute__((always_inline)) enum flowop_result
wf_read_whole(struct fb_thread *t, struct flowop_inst *fi, struct fb_slot *s,
	      char *buf, size_t chunk)
{
	uint64_t off = 0, t0, t1;
	ssize_t n;

	t0 = thread_ticks(t);
	while ((n = pread(s->fd, buf, chunk, (off_t)off)) > 0)
		off += (uint64_t)n;
	t1 = thread_ticks(t);
	if (n < 0)
		return common_fail(t, fi, "pread", s, NULL, (int64_t)off, errno);
	s->offset = off;
	return common_record(t, fi, t0, t1, off);
}

static enum flowop_result readwholefile_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct wf_priv *p = fi->priv;
	struct fb_slot *s;
	enum flowop_result r = wf_setup(t, fi, p, &s);
	size_t chunk;

	if (r != FLOWOP_OK)
		return r;
	chunk = wf_chunk(p, thread_attr_int(t, fi->pf, COMMON_IOSIZE, 0), wf_wss(t, p, s));
	return wf_read_whole(t, fi, s, p->buf, chunk);
}

/*
 * --compat filebench: chunks of `iosize`, 0 the whole working set in
 * one (an empty one: a 1 MiB chunk), into a buffer placed for this op.
 */
static enum flowop_result readwholefile_run_filebench(struct fb_thread *t,
						      struct flowop_inst *fi)
{
	struct wf_priv *p = fi->priv;
	struct fb_slot *s;
	enum flowop_result r = wf_setup(t, fi, p, &s);
	int64_t iosize = thread_attr_int(t, fi->pf, COMMON_IOSIZE, 0);
	uint64_t chunk;
	char *buf;

	if (r != FLOWOP_OK)
		return r;
	chunk = iosize > 0 ? (uint64_t)iosize : wf_wss(t, p, s);
	if (!(buf = wf_fb_chunk_buf(t, fi, p, &chunk)))
		return FLOWOP_ERROR;
	return wf_read_whole(t, fi, s, buf, (size_t)chunk);
}

/* pwrite `len` bytes at off in chunks; returns bytes written, sets *err. */
static uint64_t write_all(int fd, const char *buf, size_t chunk, uint64_t off,
			  uint64_t len, int *err)
{
	uint64_t done = 0;

	*err = 0;
	while (done < len) {
		size_t n = len - done < chunk ? (size_t)(len - done) : chunk;
		ssize_t w = pwrite(fd, buf, n, (off_t)(off + done));

		if (w <= 0) {
			*err = w < 0 ? errno : ENOSPC;
			break;
		}
		done += (uint64_t)w;
	}
	return done;
}

/* How much writewholefile writes: the srcfd file's size, else the working set. */
static inline __attribute__((always_inline)) enum flowop_result
wf_write_size(struct fb_thread *t, struct flowop_inst *fi, const struct wf_priv *p,
	      const struct fb_slot *s, uint64_t *size)
{
	if (p->srcfd > 0) {
		const struct fb_slot *src = &t->slots[p->srcfd];

		if (!slot_has_ref(src)) {
			thread_fail(t, "flowop %s: srcfd %d holds no file", fi->pf->name,
				    p->srcfd);
			return FLOWOP_ERROR;
		}
		*size = fileset_file_size(&t->filesets[src->fileset], src->entry);
	} else {
		*size = wf_wss(t, p, s);
	}
	return FLOWOP_OK;
}

/* Write `size` bytes from `buf` in `chunk`s at the slot's offset: one op. */
static inline __attribute__((always_inline)) enum flowop_result
wf_write_whole(struct fb_thread *t, struct flowop_inst *fi, struct fb_slot *s,
	       const char *buf, size_t chunk, uint64_t size)
{
	uint64_t done, t0, t1, off = s->offset;
	int err;

	t0 = thread_ticks(t);
	done = write_all(s->fd, buf, chunk, off, size, &err);
	t1 = thread_ticks(t);
	if (err)
		return common_fail(t, fi, "pwrite", s, NULL, (int64_t)(off + done), err);
	s->offset += done;
	return thread_record_at(t, fi->stats, &fi->stats->op, t0, t1, done, off) ?
	       FLOWOP_OK : FLOWOP_DONE;
}

static enum flowop_result writewholefile_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct wf_priv *p = fi->priv;
	struct fb_slot *s;
	enum flowop_result r = wf_setup(t, fi, p, &s);
	uint64_t size;
	size_t chunk;

	if (r == FLOWOP_OK)
		r = slot_writable(t, fi, s);
	if (r == FLOWOP_OK)
		r = wf_write_size(t, fi, p, s, &size);
	if (r != FLOWOP_OK)
		return r;
	chunk = wf_chunk(p, thread_attr_int(t, fi->pf, COMMON_IOSIZE, 0), size);
	return wf_write_whole(t, fi, s, p->buf, chunk, size);
}

/*
 * --compat filebench: chunks of min(size, iosize), iosize 0 the whole
 * size in one, from a buffer placed for this op.
 */
static enum flowop_result writewholefile_run_filebench(struct fb_thread *t,
						       struct flowop_inst *fi)
{
	struct wf_priv *p = fi->priv;
	struct fb_slot *s;
	enum flowop_result r = wf_setup(t, fi, p, &s);
	int64_t iosize = thread_attr_int(t, fi->pf, COMMON_IOSIZE, 0);
	uint64_t size = 0, chunk;
	char *buf;

	if (r == FLOWOP_OK)
		r = slot_writable(t, fi, s);
	if (r == FLOWOP_OK)
		r = wf_write_size(t, fi, p, s, &size);
	if (r != FLOWOP_OK)
		return r;
	chunk = iosize > 0 && (uint64_t)iosize < size ? (uint64_t)iosize : size;
	if (!(buf = wf_fb_chunk_buf(t, fi, p, &chunk)))
		return FLOWOP_ERROR;
	return wf_write_whole(t, fi, s, buf, (size_t)chunk, size);
}

/*
 * Append `len` bytes as one op: pwritev2(RWF_APPEND) per chunk, or where
 * the kernel lacks it, lseek to the end and write.
 */
static uint64_t append(int fd, const char *buf, size_t chunk, uint64_t len, int *err)
{
	uint64_t done = 0;

	*err = 0;
	while (done < len) {
		size_t n = len - done < chunk ? (size_t)(len - done) : chunk;
		struct iovec iov = { .iov_base = (void *)buf, .iov_len = n };
		ssize_t w = pwritev2(fd, &iov, 1, -1, RWF_APPEND);

		if (w < 0 && (errno == EOPNOTSUPP || errno == EINVAL || errno == ENOSYS)) {
			w = lseek(fd, 0, SEEK_END) < 0 ? -1 : write(fd, buf, n);
		}
		if (w <= 0) {
			*err = w < 0 ? errno : ENOSPC;
			break;
		}
		done += (uint64_t)w;
	}
	return done;
}

/*
 * filebench's append: lseek to the end of the file, then write() the
 * chunks at the descriptor's offset.  Two system calls, not atomic: an
 * appender of another thread between them makes both write at the same
 * offset, as in filebench.  Returns bytes written, sets *err.
 */
static uint64_t append_seek_write(int fd, const char *buf, size_t chunk,
				  uint64_t len, int *err)
{
	uint64_t done = 0;

	*err = 0;
	if (lseek(fd, 0, SEEK_END) < 0) {
		*err = errno;
		return 0;
	}
	while (done < len) {
		size_t n = len - done < chunk ? (size_t)(len - done) : chunk;
		ssize_t w = write(fd, buf, n);

		if (w <= 0) {
			*err = w < 0 ? errno : ENOSPC;
			break;
		}
		done += (uint64_t)w;
	}
	return done;
}

/*
 * common_record() for the variants, out of line, so that the default run
 * functions keep their inlining of it.
 */
static __attribute__((noinline)) enum flowop_result
wf_fb_record(struct fb_thread *t, struct flowop_inst *fi, uint64_t t0,
	     uint64_t t1, uint64_t bytes)
{
	return common_record(t, fi, t0, t1, bytes);
}

/*
 * Append `len` bytes as one op: with append(), or under --compat
 * filebench with filebench's lseek and write (append_seek_write()).
 * `filebench` is a constant in each caller and this is inlined, so the
 * default path has no trace of the variant.
 */
static inline __attribute__((always_inline)) enum flowop_result
append_op(struct fb_thread *t, struct flowop_inst *fi, uint64_t len, bool filebench)
{
	struct wf_priv *p = fi->priv;
	struct fb_slot *s;
	enum flowop_result r = wf_setup(t, fi, p, &s);
	uint64_t done, t0, t1;
	int err;

	if (r == FLOWOP_OK)
		r = slot_writable(t, fi, s);
	if (r != FLOWOP_OK)
		return r;
	t0 = thread_ticks(t);
	if (filebench)
		done = append_seek_write(s->fd, p->buf, p->bufsize, len, &err);
	else
		done = append(s->fd, p->buf, p->bufsize, len, &err);
	t1 = thread_ticks(t);
	if (err)
		return common_fail(t, fi, "append to", s, NULL, -1, err);
	if (filebench)
		return wf_fb_record(t, fi, t0, t1, done);
	return common_record(t, fi, t0, t1, done);
}

static enum flowop_result append_run(struct fb_thread *t, struct flowop_inst *fi,
				     uint64_t len)
{
	return append_op(t, fi, len, false);
}

static enum flowop_result append_fb_run(struct fb_thread *t, struct flowop_inst *fi,
					uint64_t len)
{
	return append_op(t, fi, len, true);
}

static enum flowop_result appendfile_run(struct fb_thread *t, struct flowop_inst *fi)
{
	int64_t iosize = thread_attr_int(t, fi->pf, COMMON_IOSIZE, 0);

	if (iosize <= 0) {
		thread_fail(t, "flowop %s: zero iosize", fi->pf->name);
		return FLOWOP_ERROR;
	}
	return append_run(t, fi, (uint64_t)iosize);
}

static enum flowop_result appendfilerand_run(struct fb_thread *t, struct flowop_inst *fi)
{
	int64_t iosize = thread_attr_int(t, fi->pf, COMMON_IOSIZE, 0);

	if (iosize <= 0) {
		thread_fail(t, "flowop %s: zero iosize", fi->pf->name);
		return FLOWOP_ERROR;
	}
	return append_run(t, fi, 1 + rng_below(&t->rng, (uint64_t)iosize));
}

/* `iosize` of an append flowop, this op's sample if random; 0 after an error. */
static uint64_t append_iosize(struct fb_thread *t, struct flowop_inst *fi)
{
	int64_t iosize = thread_attr_int(t, fi->pf, COMMON_IOSIZE, 0);

	if (iosize <= 0) {
		thread_fail(t, "flowop %s: zero iosize", fi->pf->name);
		return 0;
	}
	return (uint64_t)iosize;
}

/* appendfile under --compat filebench: lseek to the end, then write. */
static enum flowop_result appendfile_fb_run(struct fb_thread *t, struct flowop_inst *fi)
{
	uint64_t iosize = append_iosize(t, fi);

	if (!iosize)
		return FLOWOP_ERROR;
	return append_fb_run(t, fi, iosize);
}

/*
 * appendfilerand under --compat filebench: floor(u * (iosize - 1))
 * bytes, u uniform in [0, 1) (0 .. iosize-2), appended by lseek and
 * write; a size of 0 is an op of 0 bytes that opens and writes nothing
 * (reference 4.15).
 */
static enum flowop_result appendfilerand_fb_run(struct fb_thread *t,
						struct flowop_inst *fi)
{
	uint64_t iosize = append_iosize(t, fi);
	uint64_t len, now;

	if (!iosize)
		return FLOWOP_ERROR;
	len = rng_below(&t->rng, iosize - 1);      /* iosize 1: always 0 */
	if (len)
		return append_fb_run(t, fi, len);
	now = thread_ticks(t);
	return wf_fb_record(t, fi, now, now, 0);
}

/* The append flowops need an iosize. */
static int append_validate(const struct plan *p, const struct plan_flowop *f,
			   struct diag *d)
{
	int errs = common_validate_file_or_fd(p, f, d);

	if (!plan_attr_given(f, COMMON_IOSIZE) ||
	    (f->attr[COMMON_IOSIZE].kind != PV_RANDOM &&
	     plan_attr_int(f, COMMON_IOSIZE, 0) <= 0)) {
		diag_error(d, plan_attr_given(f, COMMON_IOSIZE) ?
			   f->attr[COMMON_IOSIZE].loc : f->loc,
			   "flowop %s: %s needs an iosize greater than 0", f->name,
			   f->ops ? f->ops->name : "append");
		errs++;
	}
	return errs;
}

/*
 * Its private state and, when the thread's memory cannot hold it, its
 * own buffer (wf_init()), and the fd slots it may hold.
 */
static void wf_need(const struct plan *p, const struct plan_flowop *f,
		    struct flowop_need *n)
{
	uint64_t bufsize = wf_bufsize(plan_attr_int(f, COMMON_IOSIZE, 0));

	n->mem = sizeof(struct wf_priv);
	if (p->threads[f->thread].memsize < bufsize)
		n->mem = plan_sat_add(n->mem, bufsize);
	/* --compat filebench's own buffer reserves 512 bytes more for directio */
	if (plan_attr_bool(f, COMMON_DIRECTIO, false))
		n->mem = plan_sat_add(n->mem, DIO_FILEBENCH_ALIGN);
	common_need_slot(f, n);
}

static const struct attr_spec wf_attrs[] = {
	ATTR_FILENAME, ATTR_FD, COMMON_ATTR_OPENNEXT, ATTR_INDEXED, COMMON_ATTR_IOSIZE,
	COMMON_ATTR_DSYNC, COMMON_ATTR_DIRECTIO, COMMON_ATTR_NOREADAHEAD,
	COMMON_ATTR_WORKINGSET,
	{ NULL, 0, 0, NULL }
};

static const struct attr_spec writewholefile_attrs[] = {
	ATTR_FILENAME, ATTR_FD, COMMON_ATTR_OPENNEXT, ATTR_INDEXED, COMMON_ATTR_IOSIZE,
	COMMON_ATTR_DSYNC, COMMON_ATTR_DIRECTIO, COMMON_ATTR_NOREADAHEAD,
	COMMON_ATTR_WORKINGSET, COMMON_ATTR_SRCFD,
	{ NULL, 0, 0, NULL }
};

/*
 * Flowop `nm`, declared as fo_<id>, running `fn` after `ini`; `variant`
 * is its table under filebench's rules (flowop_ops.filebench), NULL
 * where they agree.  A variant is declared with an id of its own: the
 * same flowop, other functions.
 */
#define WF_OP_AS(id, nm, rwmark, table, ini, fn, val, variant) \
	static const struct flowop_ops fo_##id = {      \
		.name = #nm,                            \
		.cls = FLOWOP_CLASS_IO,                 \
		.rw = rwmark,                           \
		.attrs = table,                         \
		.nattr = COMMON_OWN,                    \
		.validate = val,                        \
		.need = wf_need,                        \
		.init = ini,                            \
		.run = fn,                              \
		.fini = wf_fini,                        \
		.filebench = variant,                   \
	}
#define WF_OP(nm, rwmark, table, ini, fn, val, variant) \
	WF_OP_AS(nm, nm, rwmark, table, ini, fn, val, variant)

/* filebench's (--compat filebench): buffer placement (wf_fb_buf()), lseek + write appends */
WF_OP_AS(readwholefile_fb, readwholefile, FLOWOP_RW_READ, wf_attrs, wf_init_filebench,
	 readwholefile_run_filebench, common_validate_file_or_fd, NULL);
WF_OP_AS(writewholefile_fb, writewholefile, FLOWOP_RW_WRITE, writewholefile_attrs,
	 wf_init_filebench, writewholefile_run_filebench, common_validate_file_or_fd,
	 NULL);
WF_OP_AS(appendfile_fb, appendfile, FLOWOP_RW_WRITE, wf_attrs, wf_init, appendfile_fb_run,
	 append_validate, NULL);
WF_OP_AS(appendfilerand_fb, appendfilerand, FLOWOP_RW_WRITE, wf_attrs, wf_init,
	 appendfilerand_fb_run, append_validate, NULL);

WF_OP(readwholefile, FLOWOP_RW_READ, wf_attrs, wf_init, readwholefile_run,
      common_validate_file_or_fd, &fo_readwholefile_fb);
WF_OP(writewholefile, FLOWOP_RW_WRITE, writewholefile_attrs, wf_init,
      writewholefile_run, common_validate_file_or_fd, &fo_writewholefile_fb);
WF_OP(appendfile, FLOWOP_RW_WRITE, wf_attrs, wf_init, appendfile_run, append_validate,
      &fo_appendfile_fb);
WF_OP(appendfilerand, FLOWOP_RW_WRITE, wf_attrs, wf_init, appendfilerand_run,
      append_validate, &fo_appendfilerand_fb);

const struct flowop_ops *const flowops_wholefile[] = {
	&fo_readwholefile, &fo_writewholefile, &fo_appendfile, &fo_appendfilerand,
	NULL,
};
