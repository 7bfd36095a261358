/*
 * data.h - what the write flowops (write, aiowrite) write: by default
 * flowbench's fixed pattern (filebench's semantics: the data is not what
 * is measured), or, with the `data` attributes, fio's buffer contents:
 * zeros, a pattern of the user's, random bytes, a mix of random and
 * compressible bytes per chunk (buffer_compress_percentage), contents
 * made anew before each write (refill_buffers), each 512-byte block
 * stamped with its offset (scramble_buffers), writes that repeat the
 * previous contents (dedupe_percentage).  On a compressing or
 * deduplicating file system these decide what the device stores.
 *
 * A family that takes them numbers the DATA_A_COUNT attributes from a
 * base of its own (io.h: IO_DATA) and passes that base here.  Setting up
 * (data_gen_setup(), at init) and the first fill are off the hot path;
 * a flowop whose contents change per write calls data_before_write()
 * from a run function of its own, so flowops without it pay nothing.
 */
#ifndef FLOWBENCH_FLOWOPS_DATA_H
#define FLOWBENCH_FLOWOPS_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/flowop.h"
#include "runtime/base/rng.h"

struct diag;

/* The attributes, in this order from a family's base index. */
enum data_attr {
	DATA_A_DATA,        /* pattern | zero | random */
	DATA_A_PATTERN,     /* "0x..." the bytes of the pattern */
	DATA_A_COMPRESS,    /* 0..100: compressible share of each chunk */
	DATA_A_CHUNK,       /* compress's chunk (0: the whole write) */
	DATA_A_REFILL,      /* new contents before each write */
	DATA_A_SCRAMBLE,    /* offset and stamp into each 512-byte block per write */
	DATA_A_DEDUPE,      /* 0..100: odds a refill repeats the previous contents */
	DATA_A_COUNT
};

#define DATA_ATTRS(base)                                                \
	{ "data", T_STRING, (base) + DATA_A_DATA,                       \
	  "what is written: pattern (default), zero or random (flowbench's own, fio's buffer contents)" }, \
	{ "pattern", T_STRING, (base) + DATA_A_PATTERN,                 \
	  "data=pattern's bytes, as hex digits \"0x...\" (fio's buffer_pattern; default flowbench's 256-byte pattern)" }, \
	{ "compress", T_SIZE, (base) + DATA_A_COMPRESS,                 \
	  "0..100: each chunk is (100 - N) % random bytes, then N % of the pattern or zeros (fio's buffer_compress_percentage)" }, \
	{ "compresschunk", T_SIZE, (base) + DATA_A_CHUNK,               \
	  "with compress: the chunk, default 512 (fio's buffer_compress_chunk); 0: the whole write" }, \
	{ "refill", T_BOOL, (base) + DATA_A_REFILL,                     \
	  "new contents before each write (fio's refill_buffers)" },   \
	{ "scramble", T_BOOL, (base) + DATA_A_SCRAMBLE,                 \
	  "before each write, its offset and a count into each 512-byte block (fio's scramble_buffers)" }, \
	{ "dedupe", T_SIZE, (base) + DATA_A_DEDUPE,                     \
	  "with refill: odds in 100 that a write repeats the previous one's contents (fio's dedupe_percentage)" }

enum data_kind { DATA_KIND_PATTERN, DATA_KIND_ZERO, DATA_KIND_RANDOM };

/* fio's MAX_PATTERN_SIZE: the longest pattern, in bytes. */
#define DATA_PATTERN_MAX 512
/* fio's compress chunk unless given (buffer_compress_chunk's default). */
#define DATA_CHUNK_DEFAULT 512
/* scramble: the block each stamp is written into (fio's 512 bytes). */
#define DATA_SCRAMBLE_BLOCK 512

/* One flowop instance's contents: its rule and its own random stream. */
struct data_gen {
	enum data_kind kind;
	bool mixed;            /* compress given: chunks of random + kind's bytes */
	bool refill, scramble;
	unsigned compress;     /* 0..100 */
	unsigned dedupe;       /* 0..100 */
	uint64_t chunk;        /* 0: the whole write */
	uint64_t seeds;        /* splitmix64 state: one seed per fill */
	uint64_t last;         /* the previous fill's seed (dedupe) */
	bool filled;           /* last is one */
	uint64_t salt;         /* scramble's stamp: unique to the instance */
	uint64_t writes;       /* scramble's count */
	struct rng rng;        /* dedupe's draws */
	/* the pattern repeated to a whole number of copies, at most
	 * DATA_PBLOCK bytes: fills copy from here */
	unsigned plen;
	unsigned pblock;
	unsigned char *pbuf;
};

/* True when flowop `f` gives any data attribute (from `base`). */
bool data_given(const struct plan_flowop *f, int base);

/* Memory an instance's data rule takes (its struct and pattern block), 0 without. */
uint64_t data_need(const struct plan_flowop *f, int base);

/* The contents change before each write: a run function of its own. */
static inline bool data_per_write(const struct data_gen *g)
{
	return g->refill || g->scramble;
}

/*
 * Compile-time checks of the data attributes (values, combinations,
 * --compat filebench refuses them); the error count.
 */
int data_validate(const struct plan *p, const struct plan_flowop *f, int base,
		  struct diag *d);

/*
 * The rule of flowop `f`'s attributes (validated) into `g`, its random
 * stream seeded from `seed` (the run's, the thread's and the flowop's).
 * 0, or -1 out of memory.
 */
int data_gen_setup(struct data_gen *g, const struct plan_flowop *f, int base,
		   uint64_t seed);
void data_gen_free(struct data_gen *g);

/* `len` bytes of contents by g's rule, from a new seed (or, dedupe, the last). */
void data_fill(struct data_gen *g, void *buf, uint64_t len);

/*
 * fio's scramble_buffers: into each whole 512-byte block of the `len`
 * bytes written at `off`, that block's offset (8 bytes in one of its
 * first eight 64-byte lines, the same for the whole write) and a stamp
 * unique to this write (16 bytes at 48..63).
 */
void data_scramble(struct data_gen *g, void *buf, uint64_t len, uint64_t off);

/* Before a write of `len` bytes from `buf` at `off`: refill, then scramble. */
static inline void data_before_write(struct data_gen *g, void *buf, uint64_t len,
				     uint64_t off)
{
	if (g->refill)
		data_fill(g, buf, len);
	if (g->scramble)
		data_scramble(g, buf, len, off);
}

/*
 * Parse a pattern "0x..." (hex digits, an odd count's first one a byte
 * of its own, as fio reads them) into out[DATA_PATTERN_MAX]: its length,
 * or 0 when it is not one.
 */
unsigned data_parse_pattern(const char *s, unsigned char *out);

#endif
