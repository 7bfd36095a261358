/*
 * threadmem.h - a thread's memory (`memsize`) of the type its `memtype`
 * attribute asks for: ordinary anonymous pages, transparent huge pages,
 * or pages of the hugetlbfs pool, faulted in before the run so that no
 * page fault is timed.
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

/*
 * Map and fault in `size` bytes of type `type` for thread `name`.  For
 * hugetlb, `run_pages` is what the whole run needs of the pool (for the
 * message).  0, or -1 with the reason in err (beginning "thread NAME:").
 */
int thread_mem_alloc(struct thread_mem *m, uint64_t size, enum plan_memtype type,
		     const char *name, uint64_t run_pages, char *err, size_t len);
void thread_mem_free(struct thread_mem *m);

/* The default huge page size in bytes (/proc/meminfo), 0 if unknown. */
uint64_t thread_mem_hugepage_size(void);

/* Huge pages of `hpsize` bytes that plan `p`'s hugetlb threads need in all. */
uint64_t thread_mem_run_pages(const struct plan *p, uint64_t hpsize);

/* "anon", "thp", "hugetlb". */
const char *thread_mem_type_name(enum plan_memtype type);

#endif
