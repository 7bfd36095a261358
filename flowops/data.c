/*
 * data.c - the contents the write flowops write (data.h): the rule a
 * flowop's data attributes give, the fills and fio's scramble.
 *
 * Random bytes come from eight xorshift64 lanes seeded per fill from
 * the instance's own stream (splitmix64 of the run's seed, the thread's
 * identity and the flowop), so runs with one --seed write the same
 * bytes and the thread's generator (offsets, sizes) is left alone.  The
 * lanes are independent, so the compiler keeps them in vector registers:
 * a fill costs well under a cycle per byte (docs/benchmarks.md).  They
 * are not fio's bytes, only as incompressible: the same rules of which
 * bytes are random, which a pattern and when they change.
 */
#include "flowops/data.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "flowops/common.h"
#include "plan/diag.h"

/* Fills copy the pattern from a block of whole copies of it, about this large. */
#define DATA_PBLOCK 4096
/* Lanes of the random fill: 64 bytes a step. */
#define DATA_LANES 8

static const char *const data_kind_names[] = { "pattern", "zero", "random" };

bool data_given(const struct plan_flowop *f, int base)
{
	if (f->nattr < base + DATA_A_COUNT)
		return false;
	for (int i = 0; i < DATA_A_COUNT; i++)
		if (plan_attr_given(f, base + i))
			return true;
	return false;
}

uint64_t data_need(const struct plan_flowop *f, int base)
{
	return data_given(f, base) ? sizeof(struct data_gen) + DATA_PBLOCK : 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

unsigned data_parse_pattern(const char *s, unsigned char *out)
{
	size_t n;
	unsigned k = 0;

	if (!s || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return 0;
	s += 2;
	n = strlen(s);
	if (n == 0 || (n + 1) / 2 > DATA_PATTERN_MAX)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (hexval(s[i]) < 0)
			return 0;
	if (n % 2) {                    /* fio: an odd count's first digit alone */
		out[k++] = (unsigned char)hexval(*s++);
		n--;
	}
	for (; n; n -= 2, s += 2)
		out[k++] = (unsigned char)(hexval(s[0]) << 4 | hexval(s[1]));
	return k;
}

/* The kind `data=` names, or -1. */
static int data_kind_of(const struct plan_value *v)
{
	if (v->kind != PV_STRING)
		return -1;
	for (int i = 0; i < 3; i++)
		if (strcasecmp(v->u.s, data_kind_names[i]) == 0)
			return i;
	return -1;
}

/* A percentage attribute, if given, is 0..100 (a located error if not). */
static int data_check_pct(const struct plan_flowop *f, struct diag *d, int a,
			  const char *name)
{
	int64_t v = plan_attr_int(f, a, 0);

	if (!plan_attr_given(f, a) || (v >= 0 && v <= 100))
		return 0;
	diag_error(d, f->attr[a].loc, "flowop %s: %s must be 0 to 100 (a "
		   "percentage), not %lld", f->name, name, (long long)v);
	return 1;
}

int data_validate(const struct plan *p, const struct plan_flowop *f, int base,
		  struct diag *d)
{
	const struct plan_value *kind = &f->attr[base + DATA_A_DATA];
	const struct plan_value *pat = &f->attr[base + DATA_A_PATTERN];
	unsigned char buf[DATA_PATTERN_MAX];
	int k = kind->kind == PV_UNSET ? DATA_KIND_PATTERN : data_kind_of(kind);
	bool compress = plan_attr_given(f, base + DATA_A_COMPRESS);
	int errs = 0;

	if (!data_given(f, base))
		return 0;
	if (p->semantics == PLAN_SEM_FILEBENCH) {
		for (int i = 0; i < DATA_A_COUNT; i++)
			if (plan_attr_given(f, base + i)) {
				diag_error(d, f->attr[base + i].loc, "flowop %s: the data "
					   "attributes are a flowbench extension (fio's buffer "
					   "contents); --compat filebench refuses them", f->name);
				return 1;
			}
	}
	if (k < 0) {
		diag_error(d, kind->loc, "flowop %s: data must be pattern, zero or "
			   "random, not %s", f->name, kind->kind == PV_STRING ?
			   kind->u.s : "a number");
		return 1;
	}
	if (pat->kind != PV_UNSET &&
	    (pat->kind != PV_STRING || !data_parse_pattern(pat->u.s, buf))) {
		diag_error(d, pat->loc, "flowop %s: pattern must be hex digits \"0x...\", "
			   "1 to %d bytes (fio's buffer_pattern written in hex)", f->name,
			   DATA_PATTERN_MAX);
		errs++;
	} else if (pat->kind != PV_UNSET && k != DATA_KIND_PATTERN) {
		diag_error(d, pat->loc, "flowop %s: pattern with data=%s: the pattern "
			   "is data=pattern's bytes (and compress's compressible part)",
			   f->name, data_kind_names[k]);
		errs++;
	}
	errs += data_check_pct(f, d, base + DATA_A_COMPRESS, "compress");
	errs += data_check_pct(f, d, base + DATA_A_DEDUPE, "dedupe");
	if (compress && k == DATA_KIND_RANDOM) {
		diag_error(d, f->attr[base + DATA_A_COMPRESS].loc, "flowop %s: compress "
			   "with data=random: compress mixes random bytes into the pattern "
			   "or zeros (data=pattern or data=zero)", f->name);
		errs++;
	}
	if (plan_attr_given(f, base + DATA_A_CHUNK) && !compress) {
		diag_error(d, f->attr[base + DATA_A_CHUNK].loc, "flowop %s: compresschunk "
			   "needs compress (it is the chunk compress divides)", f->name);
		errs++;
	}
	if (plan_attr_given(f, base + DATA_A_DEDUPE)) {
		bool random = k == DATA_KIND_RANDOM ||
			      (compress && plan_attr_int(f, base + DATA_A_COMPRESS, 0) < 100);

		if (!plan_attr_bool(f, base + DATA_A_REFILL, false)) {
			diag_error(d, f->attr[base + DATA_A_DEDUPE].loc, "flowop %s: dedupe "
				   "needs refill (it is the odds that a refill repeats the "
				   "previous contents)", f->name);
			errs++;
		} else if (!random) {
			diag_error(d, f->attr[base + DATA_A_DEDUPE].loc, "flowop %s: dedupe "
				   "needs random bytes to repeat (data=random, or compress "
				   "below 100)", f->name);
			errs++;
		}
	}
	return errs;
}

/* The pattern (given, or flowbench's default) repeated into g->pbuf. */
static int data_pattern_setup(struct data_gen *g, const struct plan_flowop *f, int base)
{
	const struct plan_value *pat = &f->attr[base + DATA_A_PATTERN];
	unsigned char one[DATA_PATTERN_MAX];
	unsigned n;

	if (pat->kind == PV_STRING && (n = data_parse_pattern(pat->u.s, one)) > 0) {
		;
	} else {
		n = 256;        /* common_fill_pattern()'s period */
		common_fill_pattern((char *)one, n, 0x5a);
	}
	g->plen = n;
	g->pblock = DATA_PBLOCK / n * n;
	g->pbuf = malloc(g->pblock);
	if (!g->pbuf)
		return -1;
	for (unsigned i = 0; i < g->pblock; i += n)
		memcpy(g->pbuf + i, one, n);
	return 0;
}

int data_gen_setup(struct data_gen *g, const struct plan_flowop *f, int base,
		   uint64_t seed)
{
	const struct plan_value *kind = &f->attr[base + DATA_A_DATA];
	int k = kind->kind == PV_UNSET ? DATA_KIND_PATTERN : data_kind_of(kind);

	memset(g, 0, sizeof(*g));
	g->kind = k < 0 ? DATA_KIND_PATTERN : (enum data_kind)k;
	g->mixed = plan_attr_given(f, base + DATA_A_COMPRESS);
	g->compress = (unsigned)plan_attr_int(f, base + DATA_A_COMPRESS, 0);
	g->chunk = (uint64_t)plan_attr_int(f, base + DATA_A_CHUNK, DATA_CHUNK_DEFAULT);
	g->refill = plan_attr_bool(f, base + DATA_A_REFILL, false);
	g->scramble = plan_attr_bool(f, base + DATA_A_SCRAMBLE, false);
	g->dedupe = (unsigned)plan_attr_int(f, base + DATA_A_DEDUPE, 0);
	g->seeds = seed;
	g->salt = rng_splitmix64(&g->seeds);
	rng_seed(&g->rng, rng_splitmix64(&g->seeds));
	if (g->kind == DATA_KIND_PATTERN)
		return data_pattern_setup(g, f, base);
	return 0;
}

void data_gen_free(struct data_gen *g)
{
	free(g->pbuf);
	g->pbuf = NULL;
}

/* Two lanes of the random fill (the compiler's vectors: SSE2 on x86-64). */
typedef uint64_t data_v2 __attribute__((vector_size(16)));

/* One xorshift64 step (13, 7, 17) of each lane. */
#define DATA_STEP(v) do { (v) ^= (v) << 13; (v) ^= (v) >> 7; (v) ^= (v) << 17; } while (0)

/*
 * `len` random bytes from `seed`: eight xorshift64 lanes, each started
 * from a splitmix64 of the seed, 64 bytes a step, held in four vector
 * variables so that they stay in registers (about 0.7 instructions a
 * byte).
 */
static void data_random(unsigned char *p, uint64_t len, uint64_t seed)
{
	uint64_t s[DATA_LANES];
	data_v2 a, b, c, d;

	for (int i = 0; i < DATA_LANES; i++)
		s[i] = rng_splitmix64(&seed) | 1;       /* never 0 */
	memcpy(&a, s, 16);
	memcpy(&b, s + 2, 16);
	memcpy(&c, s + 4, 16);
	memcpy(&d, s + 6, 16);
	for (; len >= 8 * DATA_LANES; len -= 8 * DATA_LANES, p += 8 * DATA_LANES) {
		DATA_STEP(a);
		DATA_STEP(b);
		DATA_STEP(c);
		DATA_STEP(d);
		memcpy(p, &a, 16);
		memcpy(p + 16, &b, 16);
		memcpy(p + 32, &c, 16);
		memcpy(p + 48, &d, 16);
	}
	if (len) {
		DATA_STEP(a);
		DATA_STEP(b);
		DATA_STEP(c);
		DATA_STEP(d);
		memcpy(s, &a, 16);
		memcpy(s + 2, &b, 16);
		memcpy(s + 4, &c, 16);
		memcpy(s + 6, &d, 16);
		memcpy(p, s, len);
	}
}

/* `len` bytes of the pattern from its first byte (or zeros). */
static void data_fixed(const struct data_gen *g, unsigned char *p, uint64_t len)
{
	if (g->kind == DATA_KIND_ZERO) {
		memset(p, 0, len);
		return;
	}
	while (len) {
		uint64_t n = len < g->pblock ? len : g->pblock;

		memcpy(p, g->pbuf, n);
		p += n;
		len -= n;
	}
}

/* The seed of the next fill: a new one, or (dedupe) the previous one again. */
static uint64_t data_seed(struct data_gen *g)
{
	if (g->dedupe && g->filled &&
	    (g->dedupe == 100 || rng_below(&g->rng, 100) < g->dedupe))
		return g->last;
	g->last = rng_splitmix64(&g->seeds);
	g->filled = true;
	return g->last;
}

void data_fill(struct data_gen *g, void *buf, uint64_t len)
{
	unsigned char *p = buf;
	uint64_t seed, chunk;

	if (!g->mixed) {
		if (g->kind == DATA_KIND_RANDOM)
			data_random(p, len, data_seed(g));
		else
			data_fixed(g, p, len);
		return;
	}
	/* fio's buffer_compress_percentage: each chunk a random head, a fixed tail */
	seed = data_seed(g);
	chunk = g->chunk ? g->chunk : len;
	for (uint64_t off = 0; off < len; off += chunk) {
		uint64_t n = len - off < chunk ? len - off : chunk;
		uint64_t r = n * (100 - g->compress) / 100;

		data_random(p + off, r, rng_splitmix64(&seed));
		data_fixed(g, p + off + r, n - r);
	}
}

void data_scramble(struct data_gen *g, void *buf, uint64_t len, uint64_t off)
{
	unsigned char *p = buf;
	uint64_t stamp = ++g->writes;
	unsigned line = (unsigned)((stamp ^ off) & 7) * 64;

	for (uint64_t i = 0; i + DATA_SCRAMBLE_BLOCK <= len; i += DATA_SCRAMBLE_BLOCK) {
		uint64_t at = off + i;

		memcpy(p + i + line, &at, 8);
		memcpy(p + i + 48, &g->salt, 8);
		memcpy(p + i + 56, &stamp, 8);
	}
}
