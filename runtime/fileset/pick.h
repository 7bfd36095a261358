/*
 * pick.h - which entry of a fileset a flowop gets, shared by all workers.
 *
 * Workers are separate processes, so the state that changes during a run
 * (which files and leaf dirs exist, which are busy, how many slots hold a
 * file open, and the round-robin rotors) lives in memory the master maps
 * MAP_SHARED before forking.  It is updated with atomics only: a bitmap
 * for existence and one for busy marks, claimed with fetch_or; no lock is
 * ever held, least of all across a system call.
 *
 * A pick scans from a start index for the first entry in the wanted state
 * (existing, absent, or any) that is not busy, wrapping once: O(n/64)
 * words at worst.  The picked entry is marked busy until the flowop
 * releases it, so no entry is handed out twice at the same time.
 */
#ifndef FLOWBENCH_PICK_H
#define FLOWBENCH_PICK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum pick_want {
	PICK_WANT_EXISTING,
	PICK_WANT_ABSENT,
	PICK_WANT_ANY,
};

enum pick_rc {
	PICK_OK,
	PICK_NONE,      /* no entry in the wanted state: "no resource" */
	PICK_BUSY,      /* some exist but all are busy right now: retry */
};

/* Flags of a pick. */
#define PICK_NOT_OPEN 1u   /* skip entries open in some fd slot (deletefile) */

struct pick_set {
	uint64_t n;
	uint64_t nwords;
	_Atomic uint64_t *exists;      /* NULL: every entry exists (directories) */
	_Atomic uint64_t *busy;
	_Atomic uint32_t *opens;       /* NULL unless files: slots holding it open */
	_Atomic uint64_t *rotor[2];    /* next index: [0] existing/any, [1] absent */
};

/* Bytes of shared memory a set of n entries needs (a multiple of 64). */
size_t pick_set_bytes(uint64_t n, bool with_exists, bool with_opens);

/* Lay the set out in `mem` (zeroed shared memory of pick_set_bytes()). */
void pick_set_init(struct pick_set *s, void *mem, uint64_t n, bool with_exists,
		   bool with_opens);

/*
 * The first entry >= start (wrapping) in state `want`, not busy (and with
 * PICK_NOT_OPEN, not open), marked busy for the caller.
 */
enum pick_rc pick_scan(const struct pick_set *s, enum pick_want want, uint64_t start,
		       unsigned flags, uint64_t *out);

/*
 * Round robin: scan from the rotor, then move it past the pick.  The
 * rotor is the set's shared one for `want`, or *own if not NULL (a
 * flowop's private rotor, for opennext).
 */
enum pick_rc pick_next(const struct pick_set *s, enum pick_want want, unsigned flags,
		       uint64_t *own, uint64_t *out);

/* `indexed`: the nearest entry >= index mod n; rotors untouched. */
static inline enum pick_rc pick_indexed(const struct pick_set *s, enum pick_want want,
					unsigned flags, uint64_t index, uint64_t *out)
{
	if (s->n == 0)
		return PICK_NONE;
	return pick_scan(s, want, index % s->n, flags, out);
}

/* Mark a given entry busy; false if it already was. */
bool pick_claim(const struct pick_set *s, uint64_t e);
void pick_release(const struct pick_set *s, uint64_t e);

static inline bool pick_exists(const struct pick_set *s, uint64_t e)
{
	return !s->exists ||
	       (atomic_load_explicit(&s->exists[e / 64], memory_order_acquire) >>
		(e % 64)) & 1;
}

/* Change an entry's existence (the caller holds its busy mark). */
void pick_set_exists(const struct pick_set *s, uint64_t e, bool exists);

static inline void pick_open_inc(const struct pick_set *s, uint64_t e)
{
	if (s->opens)
		atomic_fetch_add_explicit(&s->opens[e], 1, memory_order_relaxed);
}

static inline void pick_open_dec(const struct pick_set *s, uint64_t e)
{
	if (s->opens)
		atomic_fetch_sub_explicit(&s->opens[e], 1, memory_order_relaxed);
}

static inline uint32_t pick_open_count(const struct pick_set *s, uint64_t e)
{
	return s->opens ? atomic_load_explicit(&s->opens[e], memory_order_relaxed) : 0;
}

/* Entries in state `want` (a full count; for tests and logs). */
uint64_t pick_count(const struct pick_set *s, enum pick_want want);
/* Entries busy right now (for messages: a snapshot, not exact). */
uint64_t pick_busy_count(const struct pick_set *s);

#endif
