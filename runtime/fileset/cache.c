/*
 * cache.c - the cache step between preallocation and the timed phase.
 *
 * Filebench never empties the page cache, so its first seconds read
 * freshly written data from memory.  flowbench makes the cache cold by
 * default: the system-wide drop_caches when we may write it (root outside
 * a restricted container), otherwise per file: fdatasync() so the pages
 * are clean, then POSIX_FADV_DONTNEED so the kernel drops them.  Warm
 * fills it the same way every run (warm.c); keep leaves it alone.
 */
#include "runtime/fileset/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runtime/fileset/fsaccess.h"
#include "runtime/base/log.h"

const char *cache_mode_name(enum cache_mode mode)
{
	static const char *const names[] = {
		[CACHE_COLD] = "cold", [CACHE_WARM] = "warm", [CACHE_KEEP] = "keep",
	};

	return (unsigned)mode < sizeof(names) / sizeof(names[0]) ? names[mode] : "?";
}

static bool drop_caches(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	ok = write(fd, "3\n", 2) == 2;
	close(fd);
	return ok;
}

/* Write back and drop file e's pages; opened below the held root (fsaccess.h). */
static int drop_file(const struct fileset_state *fs, uint64_t e, const char *path)
{
	int fd = fsa_open_file(fs, e, O_RDONLY | O_NONBLOCK, 0);
	int rc = 0;

	if (fd < 0) {
		log_error("cannot open %s to drop its cache: %s", path, strerror(errno));
		return -1;
	}
	if (fdatasync(fd) < 0) {
		log_error("fdatasync %s: %s", path, strerror(errno));
		rc = -1;
	} else if ((errno = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) != 0) {
		log_error("posix_fadvise(DONTNEED) %s: %s", path, strerror(errno));
		rc = -1;
	}
	close(fd);
	return rc;
}

void cache_decided(struct cache_report *rep, const char *text)
{
	log_info("Cache: %s", text);
	if (rep)
		snprintf(rep->text, sizeof(rep->text), "%s", text);
}

bool cache_drop_host(struct cache_report *rep)
{
	sync();
	if (!drop_caches())
		return false;
	cache_decided(rep, "dropped (drop_caches)");
	return true;
}

int cache_drop_files(const struct fileset_state *fs, int nfs,
		     struct cache_report *rep)
{
	unsigned long long n = 0;
	char text[128];

	for (int i = 0; i < nfs; i++) {
		char path[PATH_MAX];

		for (uint64_t j = 0; j < fs[i].tree.nfiles; j++) {
			if (!pick_exists(&fs[i].files, j))
				continue;
			fileset_file_path(&fs[i], j, path);
			if (drop_file(&fs[i], j, path) < 0)
				return -1;
			n++;
		}
	}
	snprintf(text, sizeof(text),
		 "cold via fdatasync+fadvise(DONTNEED) on %llu file%s", n, log_plural(n));
	cache_decided(rep, text);
	return 0;
}

int cache_prepare(const struct fileset_state *fs, int nfs, enum cache_mode mode,
		  struct cache_report *rep)
{
	if (rep)
		rep->mode = mode;
	switch (mode) {
	case CACHE_KEEP:
		cache_decided(rep, "kept as it was (not flushed, not filled)");
		return 0;
	case CACHE_WARM:
		return cache_warm_files(fs, nfs, rep);
	case CACHE_COLD:
		break;
	}
	if (cache_drop_host(rep))
		return 0;
	return cache_drop_files(fs, nfs, rep);
}
