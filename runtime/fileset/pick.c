/*
 * pick.c - lock-free picking of fileset entries across worker processes.
 *
 * Layout of one set in shared memory (each part 64-byte aligned):
 *   rotor[0], rotor[1]     one cache line each (every pick touches one)
 *   exists[nwords]         bit e: entry e exists (omitted for directories)
 *   busy[nwords]           bit e: some flowop is working on entry e
 *   opens[n]               fd slots holding file e open (files only)
 *
 * Claiming is a fetch_or of the busy bit: whoever sees the bit clear in
 * the old value owns the entry.  Existence only changes under the owner's
 * busy mark, so the owner re-reads it after claiming to catch a change
 * that happened between its scan and its claim.
 */
#include "runtime/fileset/pick.h"

#include <string.h>

#define LINE 64

static size_t round_line(size_t n)
{
	return (n + LINE - 1) / LINE * LINE;
}

size_t pick_set_bytes(uint64_t n, bool with_exists, bool with_opens)
{
	size_t words = (size_t)((n + 63) / 64);
	size_t b = 2 * LINE;

	b += round_line(words * 8) * (with_exists ? 2 : 1);
	if (with_opens)
		b += round_line((size_t)n * 4);
	return b;
}

void pick_set_init(struct pick_set *s, void *mem, uint64_t n, bool with_exists,
		   bool with_opens)
{
	char *p = mem;
	size_t wb;

	memset(s, 0, sizeof(*s));
	s->n = n;
	s->nwords = (n + 63) / 64;
	wb = round_line((size_t)s->nwords * 8);
	s->rotor[0] = (_Atomic uint64_t *)p;
	s->rotor[1] = (_Atomic uint64_t *)(p + LINE);
	p += 2 * LINE;
	if (with_exists) {
		s->exists = (_Atomic uint64_t *)p;
		p += wb;
	}
	s->busy = (_Atomic uint64_t *)p;
	p += wb;
	if (with_opens)
		s->opens = (_Atomic uint32_t *)p;
}

/* Bits of word w that are real entries. */
static uint64_t valid_bits(const struct pick_set *s, uint64_t w)
{
	uint64_t rem = s->n % 64;

	return (w + 1 == s->nwords && rem) ? (1ull << rem) - 1 : ~0ull;
}

/* Bits of word w in state `want`. */
static uint64_t state_bits(const struct pick_set *s, enum pick_want want, uint64_t w)
{
	uint64_t ex;

	if (want == PICK_WANT_ANY || !s->exists)
		return want == PICK_WANT_ABSENT ? 0 : ~0ull;
	ex = atomic_load_explicit(&s->exists[w], memory_order_acquire);
	return want == PICK_WANT_EXISTING ? ex : ~ex;
}

/* Try to own entry w*64+b, still in state `want`; false if not. */
static bool try_take(const struct pick_set *s, enum pick_want want, unsigned flags,
		     uint64_t w, unsigned b, bool *busy_seen)
{
	uint64_t bit = 1ull << b;
	uint64_t e = w * 64 + b;
	uint64_t old = atomic_fetch_or_explicit(&s->busy[w], bit, memory_order_acq_rel);

	if (old & bit) {
		*busy_seen = true;
		return false;
	}
	if (!(state_bits(s, want, w) & bit) ||
	    ((flags & PICK_NOT_OPEN) && pick_open_count(s, e) > 0)) {
		atomic_fetch_and_explicit(&s->busy[w], ~bit, memory_order_release);
		return false;
	}
	return true;
}

enum pick_rc pick_scan(const struct pick_set *s, enum pick_want want, uint64_t start,
		       unsigned flags, uint64_t *out)
{
	uint64_t sw, nw = s->nwords;
	unsigned sb;
	bool busy_seen = false;

	if (s->n == 0)
		return PICK_NONE;
	if (start >= s->n)
		start %= s->n;
	sw = start / 64;
	sb = start % 64;
	/* nw + 1 steps: the start word's high bits first, its low bits last */
	for (uint64_t k = 0; k <= nw; k++) {
		uint64_t w = (sw + k) % nw;
		uint64_t mask = k == 0 ? ~0ull << sb :
				k == nw ? (sb ? (1ull << sb) - 1 : 0) : ~0ull;
		uint64_t st = state_bits(s, want, w) & mask & valid_bits(s, w);
		uint64_t busy, cand;

		if (!st)
			continue;
		busy = atomic_load_explicit(&s->busy[w], memory_order_relaxed);
		if (st & busy)
			busy_seen = true;
		cand = st & ~busy;
		while (cand) {
			unsigned b = (unsigned)__builtin_ctzll(cand);

			if (try_take(s, want, flags, w, b, &busy_seen)) {
				*out = w * 64 + b;
				return PICK_OK;
			}
			cand &= cand - 1;
		}
	}
	return busy_seen ? PICK_BUSY : PICK_NONE;
}

enum pick_rc pick_next(const struct pick_set *s, enum pick_want want, unsigned flags,
		       uint64_t *own, uint64_t *out)
{
	_Atomic uint64_t *rotor = s->rotor[want == PICK_WANT_ABSENT];
	uint64_t start = own ? *own : atomic_load_explicit(rotor, memory_order_relaxed);
	enum pick_rc rc = pick_scan(s, want, start, flags, out);

	if (rc == PICK_OK) {
		uint64_t next = *out + 1 == s->n ? 0 : *out + 1;

		if (own)
			*own = next;
		else
			atomic_store_explicit(rotor, next, memory_order_relaxed);
	}
	return rc;
}

bool pick_claim(const struct pick_set *s, uint64_t e)
{
	uint64_t bit = 1ull << (e % 64);

	return !(atomic_fetch_or_explicit(&s->busy[e / 64], bit,
					  memory_order_acq_rel) & bit);
}

void pick_release(const struct pick_set *s, uint64_t e)
{
	atomic_fetch_and_explicit(&s->busy[e / 64], ~(1ull << (e % 64)),
				  memory_order_release);
}

void pick_set_exists(const struct pick_set *s, uint64_t e, bool exists)
{
	uint64_t bit = 1ull << (e % 64);

	if (!s->exists)
		return;
	if (exists)
		atomic_fetch_or_explicit(&s->exists[e / 64], bit, memory_order_release);
	else
		atomic_fetch_and_explicit(&s->exists[e / 64], ~bit, memory_order_release);
}

uint64_t pick_busy_count(const struct pick_set *s)
{
	uint64_t n = 0;

	for (uint64_t w = 0; w < s->nwords; w++)
		n += (uint64_t)__builtin_popcountll(atomic_load_explicit(
			&s->busy[w], memory_order_relaxed) & valid_bits(s, w));
	return n;
}

uint64_t pick_count(const struct pick_set *s, enum pick_want want)
{
	uint64_t n = 0;

	for (uint64_t w = 0; w < s->nwords; w++)
		n += (uint64_t)__builtin_popcountll(
			state_bits(s, want, w) & valid_bits(s, w));
	return n;
}
