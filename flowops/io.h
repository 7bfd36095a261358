/*
 * io.h - what the synchronous (io.c) and asynchronous (aio.c) read/write
 * flowops share: the per-flowop settings and buffer, the slot made ready
 * with its implicit open, the working set and the offset of each op, and
 * the compile-time checks.  aio.c only adds how an op is issued and when
 * it is recorded.
 */
#ifndef FLOWBENCH_FLOWOPS_IO_H
#define FLOWBENCH_FLOWOPS_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "flowops/common.h"
#include "flowops/data.h"
#include "flowops/iomap.h"
#include "plan/flowop.h"
#include "runtime/base/bmap.h"
#include "runtime/base/permute.h"
#include "runtime/engine/slot.h"

struct diag;
struct fb_thread;

#define IO_ALIGN 4096
/* A random iosize starts with a buffer of this size, grown for larger samples. */
#define IO_RANDOM_BUF 65536

/* read's and write's own attributes (aio.c numbers its own after IO_COUNT). */
enum io_attr {
	IO_RANDOM = COMMON_OWN, /* a random whole block of the working set */
	IO_MISALIGN,            /* bytes added to every offset */
	IO_MEMOFFSET,           /* the buffer starts this far into thread memory */
	IO_RANDOMMAP,           /* random: every block once per pass (fio's random map) */
	IO_STRIDE,              /* sequential: a hole of N bytes after each op (N < 0: backwards) */
	IO_SEQFOLLOWS,          /* random: leave the slot's offset at the op's end */
	IO_BLOCKALIGN,          /* random: offsets are multiples of this (fio's blockalign) */
	IO_WRAP,                /* sequential: start again at the working set's end */
	IO_DATA,                /* write, aiowrite: the data attributes (data.h) from here */
	IO_COUNT = IO_DATA + DATA_A_COUNT
};

#define IO_ATTR_RANDOM                                                  \
	{ "random", T_BOOL, IO_RANDOM,                                  \
	  "a random whole iosize block of the working set, else sequential" }
#define IO_ATTR_MISALIGN                                                \
	{ "misalign", T_SIZE, IO_MISALIGN, "bytes added to every offset" }
#define IO_ATTR_STRIDE                                                  \
	{ "stride", T_INT, IO_STRIDE,                                   \
	  "sequential: skip this many bytes after each op, backwards if negative (fio's rw=read:N; flowbench's own)" }
#define IO_ATTR_SEQFOLLOWS                                              \
	{ "seqfollows", T_BOOL, IO_SEQFOLLOWS,                          \
	  "with random: each op leaves the slot's offset at its end, so the slot's next sequential op follows it (fio's percentage_random; flowbench's own)" }
#define IO_ATTR_BLOCKALIGN                                              \
	{ "blockalign", T_SIZE, IO_BLOCKALIGN,                          \
	  "with random: offsets are whole multiples of this many bytes, not of iosize (fio's blockalign; flowbench's own)" }
#define IO_ATTR_WRAP                                                    \
	{ "wrap", T_BOOL, IO_WRAP,                                      \
	  "sequential: an op that would pass the working set's end starts again at its start (writes do not append, reads read no 0 bytes at the end; fio's time_based I/O; flowbench's own)" }
#define IO_ATTR_RANDOMMAP                                               \
	{ "randommap", T_BOOL, IO_RANDOMMAP,                            \
	  "with random: every block of the working set once per pass, in a new random order each pass (fio's random map; flowbench's own)" }

/*
 * A read or write flowop's state in one thread.  The first cache line
 * holds everything a plain op reads (the buffer, the size, the random
 * offset's bounds, the slot selection): allocated line-aligned
 * (io_priv_alloc()), an op touches that line and no other of these
 * ~200 bytes (docs/benchmarks.md, issue 15).  The rest is set-up,
 * per-open and rare-path state.
 */
struct io_priv {
	/* line 0: every op */
	char *buf;             /* bufsize bytes, IO_ALIGN-aligned (but fb_area below) */
	uint64_t iosize;       /* this op's size */
	uint64_t nblocks;      /* random: whole iosize blocks in the working set */
	uint64_t misalign;     /* added to every offset (0 by default) */
	const struct fb_slot *wss_slot;   /* slot and open nblocks was computed for */
	uint32_t wss_gen;
	bool random;
	/*
	 * The op leaves the slot's offset at its end, where the slot's next
	 * sequential op starts: sequential ops, and random ones with
	 * seqfollows (fio's percentage_random).
	 */
	bool sets_offset;
	bool iosize_random;    /* a random variable: sampled at every op */
	/*
	 * Sequential: misalign, stride or wrap is set, so the op takes
	 * io_seq_rare(); plain sequential ops test only this.
	 */
	bool seq_rare;
	/* its first COMMON_SLOTSEL_HOT_END bytes in line 0 */
	struct common_slotsel sel;

	/* line 1 on: set-up, each open, rare paths */
	bool own_buf;          /* allocated here (else inside thread memory) */
	bool noreadahead;
	bool dio_pending;      /* directio: check the first opened file's device */
	int oflags;            /* O_DIRECT, O_DSYNC */
	uint64_t bufsize;
	uint64_t wss_bytes;    /* the working set of the open file */
	uint64_t file_bytes;   /* its size when opened (fstat), 0: unknown */
	uint64_t workingset;   /* 0: the file's size at population */
	/*
	 * randommap: the blocks of the working set (map->pm.n of them) in a
	 * permutation walked once per pass.  nblocks stays 0 then, so that
	 * every op takes io_random_rare() and plain random pays nothing.
	 */
	bool randommap;
	struct iomap own_map;
	struct iomap *map;     /* own_map, or the one its choice shares (iomap.h) */
	/*
	 * blockalign: random offsets are misalign + k x blockalign with the
	 * op inside the working set (fio's blockalign, and its offsets for
	 * sizes that vary); nblocks stays 0 as for randommap, so plain
	 * random pays nothing (io_random_rare()).  0: multiples of iosize.
	 */
	uint64_t blockalign;
	/*
	 * randommap with blockalign (fio's random map for sizes that vary,
	 * or another blockalign): the blocks of blockalign bytes a pass has
	 * done (io_random_mapped(): map->bmap); an op takes a random block, or the next
	 * one not done, and is cut short before the first one done already,
	 * as fio's.  map_iosize: a constant iosize, restored before each op.
	 */
	bool mapped;
	uint64_t map_iosize;
	/*
	 * Sequential: stride (a flowbench extension, fio's rw=read:N) is
	 * added to the end of the previous op to give the next offset,
	 * wrapping at the working set's ends (io_seq_rare()).
	 */
	int64_t stride;
	/*
	 * wrap (sequential): an op that would not fit before the working
	 * set's end starts again at misalign.
	 */
	bool wrap;
	/*
	 * memoffset: buf starts that far into thread memory, or into
	 * buf_base (own_buf).  0 by default.
	 */
	uint64_t memoffset;
	char *buf_base;        /* own_buf: what was allocated (buf - memoffset) */
	/*
	 * A write's contents by its data attributes (data.h), or NULL:
	 * flowbench's pattern.  Filled at init and when the buffer grows;
	 * with refill or scramble, before each write too (io_write_data()).
	 */
	struct data_gen *data;
	/*
	 * Called before a random iosize's sample replaces the buffer by a
	 * larger one (aio.c: wait for the writes still reading the old
	 * one).  NULL for synchronous I/O.  FLOWOP_OK or why not.
	 */
	enum flowop_result (*before_regrow)(struct fb_thread *t, struct flowop_inst *fi);
	/*
	 * --compat filebench (io_priv_setup_filebench()): each op's buffer
	 * is placed anew in fb_area, the thread memory (fb_memsize bytes),
	 * or, when that is NULL, is buf, the flowop's own.  fb_extra: 512
	 * bytes reserved for directio, whose buffer address is rounded up
	 * with fb_mask (511); both 0 otherwise and by default.
	 */
	char *fb_area;
	uint64_t fb_memsize;
	uint64_t fb_extra;
	uintptr_t fb_mask;
};
_Static_assert(__builtin_offsetof(struct io_priv, sel) + COMMON_SLOTSEL_HOT_END <= 64,
	       "struct io_priv: what an op reads fits in its first cache line");

/* A zeroed block of `size` bytes starting a cache line (an io_priv first), or NULL. */
void *io_priv_alloc(size_t size);

/*
 * Fill `p` from flowop `fi`'s attributes and set up its buffer.  0 or
 * FLOWOP_ERROR.
 */
int io_priv_setup(struct fb_thread *t, struct flowop_inst *fi, struct io_priv *p);
/*
 * io_priv_setup() with filebench's buffer (`--compat filebench`,
 * reference 4.0 "I/O buffer"): a buffer placed at every op by
 * io_filebench_buf().  0 or FLOWOP_ERROR.
 */
int io_priv_setup_filebench(struct fb_thread *t, struct flowop_inst *fi,
			    struct io_priv *p);
/*
 * The buffer of this op of a flowop set up by io_priv_setup_filebench():
 * with thread memory, at a random multiple of the I/O size (iosize, plus
 * 512 with directio) below memsize minus that size, drawn from the
 * thread's generator as random file offsets are; else the flowop's own.
 * With directio the address is rounded up to 512.
 */
char *io_filebench_buf(struct fb_thread *t, const struct io_priv *p);
/* Free what io_priv_setup() allocated (not `p` itself). */
void io_priv_teardown(struct fb_thread *t, struct io_priv *p);

/*
 * Make slot `s` ready for this op (implicit open, recorded into
 * fi->open_stats), sample a random iosize, and choose the offset: a
 * random whole block of the working set, or the slot's sequential
 * offset (which the caller advances).  FLOWOP_OK or why not.
 */
enum flowop_result io_place(struct fb_thread *t, struct flowop_inst *fi,
			    struct io_priv *p, struct fb_slot *s, uint64_t *off);

/* `len` bytes of what flowop `p` writes: its data rule (data.h) or flowbench's pattern. */
void io_fill(struct io_priv *p, char *buf, uint64_t len);

/* Compile-time checks of read, write, aioread and aiowrite. */
int io_validate(const struct plan *p, const struct plan_flowop *f,
		struct diag *d);

/*
 * What io_priv_setup() allocates for flowop `f` (its io_priv and, when
 * the thread's memory does not hold it, its buffer), with its fd slots.
 */
void io_need(const struct plan *p, const struct plan_flowop *f,
	     struct flowop_need *n);

#endif
