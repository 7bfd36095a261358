/*
 * cache.c - the cache step between preallocation and the timed phase.
 *
 * Filebench never empties the page cache, so its first seconds read
 * freshly written data from memory.  flowbench makes the cache cold by
 * default: the system-wide drop_caches when we may write it (root outside
 * a restricted container), otherwise per file: fdatasync() so the pages
 * are clean, then POSIX_FADV_DONTNEED so the kernel drops them.
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
	int fd = fsa_open_file(fs, e, O_RDONLY, 0);
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

/* Log the decision and hand it to the caller. */
static void decided(char *what, size_t len, const char *text)
{
	log_info("Cache: %s", text);
	if (what && len)
		snprintf(what, len, "%s", text);
}

bool cache_drop_host(char *what, size_t len)
{
	sync();
	if (!drop_caches())
		return false;
	decided(what, len, "dropped (drop_caches)");
	return true;
}

int cache_drop_files(const struct fileset_state *fs, int nfs, char *what,
		     size_t len)
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
	decided(what, len, text);
	return 0;
}

int cache_prepare(const struct fileset_state *fs, int nfs, bool warm,
		  char *what, size_t len)
{
	if (warm) {
		decided(what, len, "warm (not flushed)");
		return 0;
	}
	if (cache_drop_host(what, len))
		return 0;
	return cache_drop_files(fs, nfs, what, len);
}
