/*
 * cache.h - making the page cache cold (or not) before the timed phase.
 */
#ifndef FLOWBENCH_CACHE_H
#define FLOWBENCH_CACHE_H

#include <stdbool.h>

#include "runtime/fileset/fileset.h"

#include <stddef.h>

/*
 * Cold: sync() and drop_caches if permitted, else fdatasync and
 * POSIX_FADV_DONTNEED on every existing file.  Warm: nothing, logged.
 * The decision, as logged after "Cache: ", goes to what[len] (what may
 * be NULL).  Returns 0, or -1 after logging an error.
 */
int cache_prepare(const struct fileset_state *fs, int nfs, bool warm,
		  char *what, size_t len);

/*
 * Its two halves, for a run on several clients where one per host drops
 * the host's cache (runtime/engine/coord.h): sync() and drop_caches,
 * true when permitted (the decision logged); and the per-file fallback
 * (0 or -1 after an error).
 */
bool cache_drop_host(char *what, size_t len);
int cache_drop_files(const struct fileset_state *fs, int nfs, char *what,
		     size_t len);

#endif
