/*
 * threadmem.c - mapping a thread's memory by `memtype`.
 *
 * Whether a buffer sits on 4 KiB pages or on huge pages changes what
 * direct I/O costs (the kernel pins every page of the buffer per I/O),
 * so the page size is the user's choice, never the kernel's mood:
 *  - anon: private anonymous memory with MADV_NOHUGEPAGE, base pages
 *    even where transparent huge pages are "always";
 *  - thp: anonymous memory aligned to the PMD size with MADV_HUGEPAGE
 *    (and MADV_COLLAPSE where the kernel has it, so a fragmented memory
 *    still ends up huge); an error when THP is disabled;
 *  - hugetlb: MAP_HUGETLB pages from the reserved pool (vm.nr_hugepages),
 *    an error naming the sysctl when the pool is short.
 * Every page is made present and writable before the run so no fault
 * lands in an op (populate_pages()).  Fresh anonymous memory is zero already:
 * the work is the faults, so the kernel takes them all in one
 * madvise(MADV_POPULATE_WRITE) call instead of one trap per page from a
 * memset (Linux 5.14; older kernels get one write per page).  Not
 * MAP_POPULATE: the page-size advice (MADV_NOHUGEPAGE, MADV_HUGEPAGE) must
 * come before the pages do, and mmap() with MAP_POPULATE succeeds even
 * when the pages could not be had, where madvise() says so.  Each thread
 * populates its own memory in thread_setup(), so the threads and
 * processes of a run populate theirs in parallel.
 * Under `--compat filebench` (THREAD_MEM_FILL_AT_RELEASE) nothing is written
 * before the run: filebench allocates and zero-fills thread memory after
 * the start barrier, so the released thread does it (thread_mem_zero())
 * and the time it takes, faults included, is in the measured window.
 */
#include "runtime/engine/threadmem.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23      /* Linux 5.14; EINVAL before */
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25            /* Linux 6.1; EINVAL before */
#endif

#define THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"
#define THP_PMD_SIZE "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"

const char *thread_mem_type_name(enum plan_memtype type)
{
	static const char *const names[] = {
		[PLAN_MEM_ANON] = "anon", [PLAN_MEM_THP] = "thp",
		[PLAN_MEM_HUGETLB] = "hugetlb",
	};

	return (unsigned)type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}

/* A "Key:   N" line of /proc/meminfo, or -1. */
static long long meminfo(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "re");
	size_t klen = strlen(key);
	char line[128];
	long long v = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			v = strtoll(line + klen + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

uint64_t thread_mem_hugepage_size(void)
{
	long long kb = meminfo("Hugepagesize");

	return kb > 0 ? (uint64_t)kb * 1024 : 0;
}

uint64_t thread_mem_run_pages(const struct plan *p, uint64_t hpsize)
{
	uint64_t n = 0;

	for (int i = 0; hpsize && i < p->nthreads; i++) {
		const struct plan_thread *pt = &p->threads[i];

		if (pt->memtype == PLAN_MEM_HUGETLB && pt->memsize)
			n += (pt->memsize + hpsize - 1) / hpsize * pt->instances *
			     p->procs[pt->proc].instances;
	}
	return n;
}

static uint64_t round_up(uint64_t v, uint64_t to)
{
	return (v + to - 1) / to * to;
}

/* "2 MiB", "1 GiB", "64 KiB" */
static void size_text(uint64_t b, char *buf, size_t len)
{
	if (b >= 1u << 30 && b % (1u << 30) == 0)
		snprintf(buf, len, "%llu GiB", (unsigned long long)(b >> 30));
	else if (b >= 1u << 20 && b % (1u << 20) == 0)
		snprintf(buf, len, "%llu MiB", (unsigned long long)(b >> 20));
	else
		snprintf(buf, len, "%llu KiB", (unsigned long long)(b >> 10));
}

static int map_anon(struct thread_mem *m, const char *name, char *err, size_t len)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	m->mapped = round_up(m->size, page);
	m->addr = mmap(NULL, m->mapped, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->addr == MAP_FAILED) {
		snprintf(err, len, "thread %s: cannot allocate memsize %llu bytes: %s",
			 name, (unsigned long long)m->size, strerror(errno));
		return -1;
	}
	(void)madvise(m->addr, m->mapped, MADV_NOHUGEPAGE);   /* advice only */
	return 0;
}

/* THP's policy, 'always', 'madvise' or 'never' ("" when the kernel has none). */
static void thp_policy(char *buf, size_t len)
{
	FILE *f = fopen(THP_ENABLED, "re");
	char line[128];
	char *l, *r;

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && (l = strchr(line, '[')) &&
	    (r = strchr(l, ']'))) {
		*r = '\0';
		snprintf(buf, len, "%s", l + 1);
	}
	fclose(f);
}

static int map_thp(struct thread_mem *m, const char *name, char *err, size_t len)
{
	uint64_t pmd = 0, head;
	char policy[32];
	FILE *f;
	char *raw;

	thp_policy(policy, sizeof(policy));
	if (!policy[0] || strcmp(policy, "never") == 0) {
		snprintf(err, len, "thread %s: memtype=thp, but transparent huge pages are %s "
			 "(%s%s%s)", name, policy[0] ? "disabled" : "not available",
			 policy[0] ? "'never' in " : "no ", THP_ENABLED,
			 policy[0] ? "; write madvise to it" : " in this kernel");
		return -1;
	}
	f = fopen(THP_PMD_SIZE, "re");
	if (f) {
		unsigned long long v;

		if (fscanf(f, "%llu", &v) == 1)
			pmd = v;
		fclose(f);
	}
	if (!pmd)
		pmd = 2u << 20;
	/* map one huge page more and cut it to a huge-page-aligned range */
	m->mapped = round_up(m->size, pmd);
	raw = mmap(NULL, m->mapped + pmd, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED) {
		snprintf(err, len, "thread %s: cannot allocate memsize %llu bytes: %s",
			 name, (unsigned long long)m->size, strerror(errno));
		return -1;
	}
	head = round_up((uint64_t)(uintptr_t)raw, pmd) - (uint64_t)(uintptr_t)raw;
	if (head)
		munmap(raw, head);
	if (pmd - head)
		munmap(raw + head + m->mapped, pmd - head);
	m->addr = raw + head;
	if (madvise(m->addr, m->mapped, MADV_HUGEPAGE) != 0) {
		snprintf(err, len, "thread %s: memtype=thp: madvise(MADV_HUGEPAGE): %s",
			 name, strerror(errno));
		munmap(m->addr, m->mapped);
		m->addr = NULL;
		return -1;
	}
	return 0;
}

static int map_hugetlb(struct thread_mem *m, const char *name, uint64_t run_pages,
		       char *err, size_t len)
{
	uint64_t hp = thread_mem_hugepage_size();
	char hps[32];
	long long total, free_pages;
	uint64_t pages, want;

	if (!hp) {
		snprintf(err, len, "thread %s: memtype=hugetlb, but this kernel has no "
			 "huge pages (no Hugepagesize in /proc/meminfo)", name);
		return -1;
	}
	m->mapped = round_up(m->size, hp);
	m->addr = mmap(NULL, m->mapped, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (m->addr != MAP_FAILED)
		return 0;
	m->addr = NULL;
	size_text(hp, hps, sizeof(hps));
	if (errno != ENOMEM) {
		snprintf(err, len, "thread %s: memtype=hugetlb: cannot map %llu bytes of "
			 "%s huge pages: %s", name, (unsigned long long)m->mapped, hps,
			 strerror(errno));
		return -1;
	}
	pages = m->mapped / hp;
	if (run_pages < pages)
		run_pages = pages;
	total = meminfo("HugePages_Total");
	free_pages = meminfo("HugePages_Free");
	if (total < 0 || free_pages < 0)
		total = free_pages = 0;
	/* what others hold stays theirs: reserve that much more */
	want = (uint64_t)(total - free_pages) + run_pages;
	snprintf(err, len, "thread %s: memtype=hugetlb needs %llu huge page%s of %s "
		 "per instance (%llu for the whole run), but only %lld of %lld are free "
		 "(reserve them with: sysctl vm.nr_hugepages=%llu)", name,
		 (unsigned long long)pages, pages == 1 ? "" : "s", hps,
		 (unsigned long long)run_pages, free_pages, total,
		 (unsigned long long)want);
	return -1;
}

/* One write per page: the fault-in where MADV_POPULATE_WRITE is missing. */
static void touch_pages(void *addr, uint64_t len)
{
	volatile char *p = addr;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	for (uint64_t off = 0; off < len; off += page)
		p[off] = 0;
}

/*
 * Every page of the mapping present and writable (private, not the
 * shared zero page), by the kernel in one call.  EINVAL on a private
 * anonymous read-write mapping means a kernel without
 * MADV_POPULATE_WRITE.  0, or -1 with the reason in err.
 */
static int populate_pages(struct thread_mem *m, const char *name, char *err, size_t len)
{
	while (madvise(m->addr, m->mapped, MADV_POPULATE_WRITE) != 0) {
		int e = errno;

		if (e == EINTR)
			continue;       /* the pages done so far stay: cheap to redo */
		if (e == EINVAL) {
			touch_pages(m->addr, m->mapped);
			return 0;
		}
		snprintf(err, len, "thread %s: cannot fault in memsize %llu bytes: %s%s",
			 name, (unsigned long long)m->size, strerror(e),
			 e == EFAULT ? " (no page to be had: a huge-page pool "
			 "or a memory limit ran short)" : "");
		return -1;
	}
	return 0;
}

enum thread_mem_fill thread_mem_fill_of(enum plan_semantics sem)
{
	return sem == PLAN_SEM_FILEBENCH ? THREAD_MEM_FILL_AT_RELEASE :
	       THREAD_MEM_FILL_BEFORE_RUN;
}

int thread_mem_alloc(struct thread_mem *m, uint64_t size, enum plan_memtype type,
		     enum thread_mem_fill fill, const char *name, uint64_t run_pages,
		     char *err, size_t len)
{
	int r;

	memset(m, 0, sizeof(*m));
	m->size = size;
	if (!size)
		return 0;
	if (type == PLAN_MEM_THP)
		r = map_thp(m, name, err, len);
	else if (type == PLAN_MEM_HUGETLB)
		r = map_hugetlb(m, name, run_pages, err, len);
	else
		r = map_anon(m, name, err, len);
	if (r != 0) {
		memset(m, 0, sizeof(*m));
		return -1;
	}
	if (fill == THREAD_MEM_FILL_AT_RELEASE)
		return 0;       /* untouched: zeroed by the released thread */
	/* fault every page in now, not in the first timed ops */
	if (populate_pages(m, name, err, len) != 0) {
		thread_mem_free(m);
		return -1;
	}
	if (type == PLAN_MEM_THP)
		(void)madvise(m->addr, m->mapped, MADV_COLLAPSE);   /* best effort */
	return 0;
}

/*
 * Not a plain memset at the call site: the compiler must not drop it
 * (fresh anonymous pages are zero already, but writing them is the cost
 * being emulated).
 */
void thread_mem_zero(void *addr, uint64_t size)
{
	memset(addr, 0, size);
	__asm__ volatile("" : : "r"(addr) : "memory");
}

void thread_mem_free(struct thread_mem *m)
{
	if (m->addr && m->mapped)
		munmap(m->addr, m->mapped);
	memset(m, 0, sizeof(*m));
}
