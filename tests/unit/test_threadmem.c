/*
 * test_threadmem.c - thread memory is made ready before the run the cheap
 * way (issue 15): after thread_mem_alloc() every page can be written
 * without a single fault (nothing is left for the timed window), and
 * getting there took no trap per page (the kernel populated the pages in
 * one call, where the old memset took a page fault for each); a thp
 * memory is still made of huge pages.
 */
#include <check.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "runtime/engine/threadmem.h"

#include "tests/unit/check_main.h"

#define MEM_BYTES (32u << 20)

/* A counter of this thread's page faults taken by trapping (perf), or -1. */
static int trap_counter(void)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
		.config = PERF_COUNT_SW_PAGE_FAULTS, .disabled = 1,
		.exclude_kernel = 1, .exclude_hv = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);

	if (fd >= 0)
		ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	return fd;
}

static uint64_t counter_read(int fd)
{
	uint64_t v = 0;

	ck_assert_int_eq(read(fd, &v, sizeof(v)), (ssize_t)sizeof(v));
	return v;
}

/* This thread's minor faults so far (trapped or taken for it by the kernel). */
static long thread_minflt(void)
{
	struct rusage ru;

	ck_assert_int_eq(getrusage(RUSAGE_THREAD, &ru), 0);
	return ru.ru_minflt;
}

/* Does this kernel have MADV_POPULATE_WRITE (Linux 5.14)? */
static int kernel_populates(void)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ok;

	ck_assert_ptr_ne(p, MAP_FAILED);
	ok = madvise(p, (size_t)page, 23 /* MADV_POPULATE_WRITE */) == 0;
	munmap(p, (size_t)page);
	return ok;
}

/*
 * Faults while writing every page of m (the timed window's share).  One
 * store per page, not memset() and not instrumented: under AddressSanitizer
 * both would touch the shadow memory, whose own first faults would count.
 */
__attribute__((no_sanitize("address")))
static long faults_writing(const struct thread_mem *m)
{
	long before = thread_minflt();
	volatile unsigned char *p = m->addr;

	for (uint64_t off = 0; off < m->mapped; off += 4096)
		p[off] = 0x5a;
	return thread_minflt() - before;
}

/*
 * anon: every page present and writable when thread_mem_alloc() returns
 * (writing all of it faults less than once per 100 pages: NUMA balancing
 * may unmap a few), and the population itself trapped less than once per
 * 16 pages (memset: once per page).
 */
START_TEST(test_populated_without_traps)
{
	size_t pages = MEM_BYTES / (size_t)sysconf(_SC_PAGESIZE);
	int fd = trap_counter(), perf_err = errno;
	struct thread_mem m;
	uint64_t traps = 0;
	char err[256];
	long late;

	if (fd >= 0)
		ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	ck_assert_int_eq(thread_mem_alloc(&m, MEM_BYTES, PLAN_MEM_ANON,
					  THREAD_MEM_FILL_BEFORE_RUN, "t", 0,
					  err, sizeof(err)), 0);
	if (fd >= 0) {
		ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
		traps = counter_read(fd);
		close(fd);
	}
	late = faults_writing(&m);
	printf("anon %u MiB: %zu pages, %llu traps populating, %ld faults writing afterwards\n",
	       MEM_BYTES >> 20, pages, (unsigned long long)traps, late);
	ck_assert_msg(late < (long)(pages / 100),
		      "%ld faults writing %zu pages after thread_mem_alloc (not populated)",
		      late, pages);
	if (fd < 0)
		printf("skip: no perf_event_open here (%s): the trap count is not checked\n",
		       strerror(perf_err));
	else if (!kernel_populates())
		printf("skip: no MADV_POPULATE_WRITE in this kernel: one write per page\n");
	else
		ck_assert_msg(traps < pages / 16,
			      "%llu page-fault traps populating %zu pages: not the kernel's "
			      "MADV_POPULATE_WRITE", (unsigned long long)traps, pages);
	for (size_t i = 0; i < m.mapped; i += 4096)
		ck_assert_int_eq(((unsigned char *)m.addr)[i], 0x5a);
	thread_mem_free(&m);
}
END_TEST

/* AnonHugePages of the mapping at addr (/proc/self/smaps), in KiB, or -1. */
static long anon_huge_kib(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[256];
	int in = 0;
	long kib = -1;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {      /* a mapping's first line */
			in = lo == (unsigned long)(uintptr_t)addr;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
			break;
	}
	fclose(f);
	return kib;
}

/* thp: populated the same way, and still huge pages (not 4 KiB ones). */
START_TEST(test_thp_populated_huge)
{
	struct thread_mem m;
	char err[512];
	long huge;

	if (thread_mem_alloc(&m, MEM_BYTES, PLAN_MEM_THP,
			     THREAD_MEM_FILL_BEFORE_RUN, "t", 0, err,
			     sizeof(err)) != 0) {
		printf("skip: %s\n", err);
		return;
	}
	huge = anon_huge_kib(m.addr);
	printf("thp %u MiB: AnonHugePages %ld kB\n", MEM_BYTES >> 20, huge);
	/* at least one huge page: a fragmented machine may not give them all */
	ck_assert_msg(huge >= 2048, "memtype=thp memory has %ld kB of huge pages", huge);
	ck_assert_msg(faults_writing(&m) < (long)(m.mapped / (2u << 20)),
		      "faults writing thp memory after thread_mem_alloc (not populated)");
	thread_mem_free(&m);
}
END_TEST

static Suite *threadmem_suite(void)
{
	Suite *s = suite_create("threadmem");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_populated_without_traps);
	tcase_add_test(tc, test_thp_populated_huge);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(threadmem_suite)
