/*
 * threadmem.h - a thread's memory (`memsize`) of the type its `memtype`
 * attribute asks for: ordinary anonymous pages, transparent huge pages,
 * or pages of the hugetlbfs pool, faulted in before the run so that no
 * page fault is timed (flowbench's rule), or left untouched until the
 * thread is released and zero-filled then, inside the timed window, as
 * filebench does (`--compat filebench`).
 */
#ifndef FLOWBENCH_THREADMEM_H
#define FLOWBENCH_THREADMEM_H

#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"

struct thread_mem {
	void *addr;        /* `size` usable bytes, page-aligned (huge-page-aligned for thp, hugetlb) */
	uint64_t size;     /* what was asked */
	uint64_t mapped;   /* bytes mapped at addr (for munmap) */
};

/* When a thread's memory is first written, so its pages faulted in. */
enum thread_mem_fill {
	THREAD_MEM_FILL_BEFORE_RUN,  /* flowbench: at allocation, before the barrier */
	THREAD_MEM_FILL_AT_RELEASE,  /* filebench: zero-filled by the released thread */
};

/* The fill the rules `sem` ask for (read once, where a thread is set up). */
enum thread_mem_fill thread_mem_fill_of(enum plan_semantics sem);

/*
 * Map `size` bytes of type `type` for thread `name` and, with
 * THREAD_MEM_FILL_BEFORE_RUN, fault every page in (THREAD_MEM_FILL_AT_RELEASE
 * leaves them untouched: thread_mem_zero() at release).  For hugetlb,
 * `run_pages` is what the whole run needs of the pool (for the message).  0, or
 * -1 with the reason in err (beginning "thread NAME:").
 */
int thread_mem_alloc(struct thread_mem *m, uint64_t size, enum plan_memtype type,
		     enum thread_mem_fill fill, const char *name, uint64_t run_pages,
		     char *err, size_t len);
/*
 * Zero-fill the `size` bytes at `addr`: filebench's start, timed
 * (THREAD_MEM_FILL_AT_RELEASE).
 */
void thread_mem_zero(void *addr, uint64_t size);
void thread_mem_free(struct thread_mem *m);

/* The default huge page size in bytes (/proc/meminfo), 0 if unknown. */
uint64_t thread_mem_hugepage_size(void);

/* Huge pages of `hpsize` bytes that plan `p`'s hugetlb threads need in all. */
uint64_t thread_mem_run_pages(const struct plan *p, uint64_t hpsize);

/* "anon", "thp", "hugetlb". */
const char *thread_mem_type_name(enum plan_memtype type);

#endif
