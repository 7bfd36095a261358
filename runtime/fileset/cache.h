/*
 * cache.h - the page cache before the timed phase: cold, warm or kept.
 *
 * The state of the cache changes what a read costs, so each run puts it
 * in a state it can name and reports what it did (struct cache_report,
 * the "Cache: " line and the results files' environment.cache).
 */
#ifndef FLOWBENCH_CACHE_H
#define FLOWBENCH_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fileset_state;   /* runtime/fileset/fileset.h: not included, so that
			   results.h can hold a report without the system
			   headers it pulls in */

/* --cache: what the step makes of the page cache. */
enum cache_mode {
	CACHE_COLD,   /* emptied: drop_caches, else each file written back and evicted */
	CACHE_WARM,   /* each file written back, evicted, then read whole sequentially */
	CACHE_KEEP,   /* left as the file preparation (and whatever ran before) left it */
};

/* The read size of the warm fill (warm.c says why this one). */
#define CACHE_WARM_READ 65536u

/* What the step did, for the text report and the results files. */
struct cache_report {
	enum cache_mode mode;
	char text[200];          /* the decision, as logged after "Cache: " */
	bool filled;             /* warm: the fill ran; the counts below hold */
	uint64_t files;          /* regular files filled */
	uint64_t bytes;          /* their size */
	bool resident_known;     /* every file's residency was counted */
	uint64_t resident;       /* of those bytes, in the cache after the fill (mincore) */
	uint64_t not_evicted;    /* bytes still cached after the eviction (mapped
				    or locked elsewhere, tmpfs): they keep their history */
};

/* "cold", "warm", "keep": the --cache value and results' environment.cache.state. */
const char *cache_mode_name(enum cache_mode mode);

/*
 * Put the cache of the files of fs[0..nfs) in `mode`'s state and say what
 * was done in *rep (may be NULL).  Cold: sync() and drop_caches if
 * permitted, else fdatasync and POSIX_FADV_DONTNEED on every existing
 * file.  Warm: cache_warm_files().  Keep: nothing, logged.  Returns 0,
 * or -1 after logging an error (or on an interrupt during the fill).
 */
int cache_prepare(const struct fileset_state *fs, int nfs, enum cache_mode mode,
		  struct cache_report *rep);

/*
 * Its halves, for a run on several clients where one per host drops
 * the host's cache (runtime/engine/coord.h): sync() and drop_caches,
 * true when permitted (the decision logged); and the per-file fallback
 * (0 or -1 after an error).
 */
bool cache_drop_host(struct cache_report *rep);
int cache_drop_files(const struct fileset_state *fs, int nfs,
		     struct cache_report *rep);

/*
 * Warm (warm.c): every existing file written back and evicted, then
 * read whole in CACHE_WARM_READ sequential reads, so that the cache
 * holds the files in the same folios whatever came before; then how much
 * of them is resident, warned when not all (memory too small).  0, or -1
 * after an error or an interrupt.
 */
int cache_warm_files(const struct fileset_state *fs, int nfs,
		     struct cache_report *rep);

/* Log the decision ("Cache: text") and keep it in rep->text (rep may be NULL). */
void cache_decided(struct cache_report *rep, const char *text);

#endif
