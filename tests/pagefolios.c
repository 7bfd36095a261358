/*
 * pagefolios.c - how the page cache holds a file: how many of its pages
 * are resident (mincore) and in folios of which sizes (the PFN of each
 * page from /proc/self/pagemap, its compound head/tail flags from
 * /proc/kpageflags; root only).  tests/e2e/cache-warm.sh compares two
 * histories of the same file with it: the kernel's folio sizes follow
 * how the pages came into the cache, and they change how fast a cached
 * read is.
 *
 * Usage: pagefolios FILE
 * Prints "pages N resident R folios F large L sizes K1:C1 K2:C2 ..." (L
 * resident pages in folios of LARGE pages or more; K pages a folio, C
 * folios of that size; only resident pages are touched, so nothing is
 * read in).  Exit 0, 1 on an error, 77 when the page flags
 * cannot be read (not root, no /proc/kpageflags).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define PM_PRESENT (1ULL << 63)
#define PM_PFN_MASK ((1ULL << 55) - 1)
#define MAXK 1024		/* folio sizes counted up to 4 MiB */
#define LARGE 16		/* a large folio: 64 KiB with 4 KiB pages */

static int read_u64(int fd, uint64_t index, uint64_t *v)
{
	return pread(fd, v, sizeof(*v), (off_t)(index * sizeof(*v))) ==
	       (ssize_t)sizeof(*v) ? 0 : -1;
}

/* Close the folio of `run` pages that just ended into the histogram. */
static void folio_end(uint64_t *hist, uint64_t *nfolios, uint64_t *run)
{
	if (*run == 0)
		return;
	hist[*run < MAXK ? *run : MAXK]++;
	(*nfolios)++;
	*run = 0;
}

int main(int argc, char **argv)
{
	static uint64_t hist[MAXK + 1];
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t npages, resident = 0, nfolios = 0, run = 0, large = 0;
	unsigned char *vec;
	volatile const char *map;
	struct stat st;
	int fd, pm, kf;

	if (argc != 2) {
		fprintf(stderr, "usage: pagefolios FILE\n");
		return 1;
	}
	pm = open("/proc/self/pagemap", O_RDONLY);
	kf = open("/proc/kpageflags", O_RDONLY);
	if (pm < 0 || kf < 0) {
		fprintf(stderr, "pagefolios: page flags unreadable: %s\n", strerror(errno));
		return 77;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "pagefolios: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	npages = ((uint64_t)st.st_size + (uint64_t)psz - 1) / (uint64_t)psz;
	if (npages == 0) {
		printf("pages 0 resident 0 folios 0 large 0 sizes\n");
		return 0;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	vec = malloc(npages);
	if (map == MAP_FAILED || !vec ||
	    mincore((void *)map, (size_t)st.st_size, vec) < 0) {
		fprintf(stderr, "pagefolios: %s: %s\n", argv[1], strerror(errno));
		free(vec);
		return 1;
	}
	for (uint64_t i = 0; i < npages; i++) {
		uint64_t pme, flags, vpn;

		if (!(vec[i] & 1)) {
			folio_end(hist, &nfolios, &run);
			continue;
		}
		resident++;
		(void)map[i * (uint64_t)psz];	/* map the cached page */
		vpn = ((uintptr_t)map + i * (uint64_t)psz) / (uint64_t)psz;
		if (read_u64(pm, vpn, &pme) < 0 || !(pme & PM_PRESENT) ||
		    (pme & PM_PFN_MASK) == 0 ||
		    read_u64(kf, pme & PM_PFN_MASK, &flags) < 0) {
			fprintf(stderr, "pagefolios: no page frame for page %llu "
				"(not root?)\n", (unsigned long long)i);
			free(vec);
			return 77;
		}
		if (!(flags & (1ULL << KPF_COMPOUND_TAIL)))
			folio_end(hist, &nfolios, &run);
		run++;
	}
	folio_end(hist, &nfolios, &run);
	for (int k = LARGE; k <= MAXK; k++)
		large += hist[k] * (uint64_t)k;
	printf("pages %llu resident %llu folios %llu large %llu sizes",
	       (unsigned long long)npages, (unsigned long long)resident,
	       (unsigned long long)nfolios, (unsigned long long)large);
	for (int k = 1; k <= MAXK; k++)
		if (hist[k])
			printf(" %d:%llu", k, (unsigned long long)hist[k]);
	printf("\n");
	munmap((void *)map, (size_t)st.st_size);
	free(vec);
	close(fd);
	close(pm);
	close(kf);
	return 0;
}
