/*
 * warm.c - the warm cache: one defined state, whatever came before.
 *
 * Leaving the cache as it is does not make two warm runs alike: the
 * kernel keeps a file's cached pages in folios whose sizes follow how
 * the pages came in (1 MiB writes leave 1 MiB folios, 8 KiB random reads
 * single pages, sequential reads the readahead's folios of up to 2 MiB),
 * and a cached random 8 KiB read of a 256 MiB file was 10-18 % slower
 * from single pages than from large folios (docs/reproducing.md).  So
 * warm writes every file back and evicts it (fdatasync, then
 * POSIX_FADV_DONTNEED: pages that stay, mapped or locked elsewhere or on
 * tmpfs, are counted and warned about), then reads it whole from the
 * start in CACHE_WARM_READ reads: the readahead then grows its window and
 * its folios the same way each time.  64 KiB: the first read's size is
 * read in small folios before the readahead ramps up, so a smaller read
 * gives larger folios (6.18, ext4: 306 folios for a 256 MiB file at
 * 64 KiB, 1049 at 1 MiB, 161 at 8 KiB for 16 times the system calls).
 * Last, mincore() on a mapping of each file says how much of it is
 * resident: less than all is warned about (memory too small), with the
 * numbers, and with the other cause seen on shared machines: another
 * program's drop_caches during the fill (/proc/vmstat's drop_pagecache
 * moved).
 *
 * Files are reached below the held root with no link followed
 * (fsaccess.h), opened read-only and non-blocking; what is not a regular
 * file is skipped and named.
 */
#include "runtime/fileset/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/base/interrupt.h"
#include "runtime/base/log.h"
#include "runtime/fileset/fsaccess.h"

#define WINDOW ((size_t)1 << 30)   /* mapped at a time to count residency */

/*
 * The read buffer and mincore's vector are mapped for the step and
 * unmapped after it, not taken from the heap: the workers are forked
 * from this process next, and the step leaves their memory as it was
 * (what one op touches is counted: tests/e2e/oplines.sh).
 */
struct warm {
	struct cache_report *rep;
	char *buf;                 /* CACHE_WARM_READ bytes */
	unsigned char *vec;        /* mincore's answer for one window */
	size_t vec_len;
	size_t page;
	bool measured;             /* every file's residency could be counted */
	uint64_t drops;            /* drop_caches calls seen during the fill */
};

/* /proc/vmstat's drop_pagecache: the machine's drop_caches calls (0: unknown). */
static uint64_t drop_count(void)
{
	FILE *f = fopen("/proc/vmstat", "re");
	char line[128];
	unsigned long long n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "drop_pagecache %llu", &n) == 1)
			break;
	fclose(f);
	return n;
}

/* "256.0 MiB" */
static const char *bytes_text(char *buf, size_t len, uint64_t b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

/* Bytes of fd's first `size` bytes in the page cache, or -1 (errno). */
static int64_t resident_bytes(struct warm *w, int fd, uint64_t size)
{
	int64_t n = 0;

	for (uint64_t off = 0; off < size; off += WINDOW) {
		size_t len = size - off < WINDOW ? (size_t)(size - off) : WINDOW;
		size_t npages = (len + w->page - 1) / w->page;
		void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
		int rc;

		if (map == MAP_FAILED)
			return -1;
		rc = mincore(map, len, w->vec);
		munmap(map, len);
		if (rc < 0)
			return -1;
		for (size_t i = 0; i < npages; i++)
			if (w->vec[i] & 1)
				n += (int64_t)(i + 1 < npages ? w->page : len - i * w->page);
	}
	return n;
}

/* Write back, evict, then read from the start to the end. */
static int fill_file(struct warm *w, int fd, uint64_t size, const char *path)
{
	int64_t left;

	if (fdatasync(fd) < 0) {
		log_error("fdatasync %s: %s", path, strerror(errno));
		return -1;
	}
	if ((errno = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)) != 0) {
		log_error("posix_fadvise(DONTNEED) %s: %s", path, strerror(errno));
		return -1;
	}
	left = resident_bytes(w, fd, size);
	if (left > 0)
		w->rep->not_evicted += (uint64_t)left;
	for (uint64_t off = 0; off < size;) {
		ssize_t r = pread(fd, w->buf, CACHE_WARM_READ, (off_t)off);

		if (interrupt_signal()) {
			log_info("Cache warm-up interrupted at %s", path);
			return -1;
		}
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			log_error("cannot read %s to warm the cache: %s", path, strerror(errno));
			return -1;
		}
		if (r == 0)
			break;          /* shortened since: what is there is read */
		off += (uint64_t)r;
	}
	return 0;
}

/* Pass `fill` (true) or the residency count (false) over every existing file. */
static int each_file(struct warm *w, const struct fileset_state *fs, int nfs, bool fill)
{
	for (int i = 0; i < nfs; i++) {
		char path[PATH_MAX];

		for (uint64_t e = 0; e < fs[i].tree.nfiles; e++) {
			struct stat st;
			int fd, rc = 0;

			if (!pick_exists(&fs[i].files, e))
				continue;
			fileset_file_path(&fs[i], e, path);
			fd = fsa_open_file(&fs[i], e, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
			if (fd < 0) {
				log_error("cannot open %s to warm the cache: %s", path, strerror(errno));
				return -1;
			}
			if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
				if (fill)
					log_warn("%s is not a regular file: not warmed", path);
			} else if (fill) {
				w->rep->files++;
				w->rep->bytes += (uint64_t)st.st_size;
				rc = fill_file(w, fd, (uint64_t)st.st_size, path);
			} else {
				int64_t n = resident_bytes(w, fd, (uint64_t)st.st_size);

				if (n < 0)
					w->measured = false;
				else
					w->rep->resident += (uint64_t)n;
			}
			close(fd);
			if (rc < 0)
				return -1;
		}
	}
	return 0;
}

/*
 * The Cache: line (logged here, as cache.c's cache_decided() logs the
 * others: warm.c calls nothing of cache.c), then the warnings when the
 * state is not the one promised.
 */
static void warm_report(struct warm *w)
{
	struct cache_report *r = w->rep;
	char a[32], b[32], c[32];
	double pct = r->bytes ? 100.0 * (double)r->resident / (double)r->bytes : 100.0;
	bool dropped = w->drops && w->measured && r->resident < r->bytes;

	if (r->resident < r->bytes && pct > 99.9)
		pct = 99.9;     /* 100.0 only when all of it is */
	if (!w->measured)
		snprintf(c, sizeof(c), "residency not measured");
	else
		snprintf(c, sizeof(c), "%.1f %% resident", pct);
	snprintf(r->text, sizeof(r->text), "warm: %llu file%s, %s evicted and read again "
		 "in sequential %u KiB reads; %s%s", (unsigned long long)r->files,
		 log_plural(r->files), bytes_text(a, sizeof(a), r->bytes),
		 CACHE_WARM_READ / 1024, c,
		 dropped ? " (another program dropped the page cache meanwhile)" : "");
	log_info("Cache: %s", r->text);
	if (!w->measured)
		log_warn("the page cache's residency of the files could not be counted "
			 "(mmap or mincore failed): the run may not be wholly warm");
	else if (r->resident < r->bytes)
		log_warn("the warm cache holds %s of the files' %s (%.1f %%; memory %s%s): "
			 "the rest is read from the device, so the run is not warm",
			 bytes_text(a, sizeof(a), r->resident), bytes_text(b, sizeof(b), r->bytes),
			 pct, bytes_text(c, sizeof(c), (uint64_t)sysconf(_SC_PHYS_PAGES) *
					 (uint64_t)w->page),
			 dropped ? "; another program dropped the whole page cache "
				   "(drop_caches) during the fill" : "");
	if (r->not_evicted)
		log_warn("%s of the files stayed in the page cache through the eviction "
			 "(mapped or locked by a process, or a file system that keeps its "
			 "pages in memory, such as tmpfs): those pages keep the folios "
			 "they had", bytes_text(a, sizeof(a), r->not_evicted));
}

int cache_warm_files(const struct fileset_state *fs, int nfs,
		     struct cache_report *rep)
{
	struct cache_report local;
	struct warm w = { .rep = rep ? rep : &local, .measured = true };
	int rc = -1;

	w.page = (size_t)sysconf(_SC_PAGESIZE);
	w.vec_len = WINDOW / w.page;
	memset(w.rep, 0, sizeof(*w.rep));
	w.rep->mode = CACHE_WARM;
	w.buf = mmap(NULL, CACHE_WARM_READ + w.vec_len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (w.buf == MAP_FAILED) {
		log_error("out of memory");
		return -1;
	}
	w.vec = (unsigned char *)w.buf + CACHE_WARM_READ;
	w.drops = drop_count();
	if (each_file(&w, fs, nfs, true) < 0 || each_file(&w, fs, nfs, false) < 0)
		goto out;
	w.drops = drop_count() - w.drops;
	w.rep->filled = true;
	w.rep->resident_known = w.measured;
	warm_report(&w);
	rc = 0;
out:
	munmap(w.buf, CACHE_WARM_READ + w.vec_len);
	return rc;
}
