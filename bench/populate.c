/*
 * populate.c - the memory's own population cost, the yardstick for
 * flowbench's start-up (bench/startup): THREADS threads of one process
 * each map MIB MiB of private anonymous memory on base pages and have
 * the kernel fault it in (madvise MADV_POPULATE_WRITE), all at once, as
 * a workload's threads do before the start barrier.  Prints the seconds
 * from the first thread's start to the last one's end.  MODE compares
 * the ways: "populate" (the default, flowbench's since issue 15),
 * "memset" (a memset of the whole memory: flowbench's before) or "touch"
 * (one write per page: the fallback without MADV_POPULATE_WRITE).
 *
 * Usage: populate THREADS MIB [populate|memset|touch]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif

static size_t bytes;
static const char *mode = "populate";

static void *populate(void *arg)
{
	char *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)arg;
	if (p == MAP_FAILED)
		return "mmap";
	madvise(p, bytes, MADV_NOHUGEPAGE);
	if (strcmp(mode, "memset") == 0) {
		memset(p, 0, bytes);
	} else if (strcmp(mode, "touch") == 0) {
		for (size_t off = 0; off < bytes; off += 4096)
			((volatile char *)p)[off] = 0;
	} else if (madvise(p, bytes, MADV_POPULATE_WRITE) != 0) {
		return "madvise(MADV_POPULATE_WRITE)";
	}
	__asm__ volatile("" : : "r"(p) : "memory");
	return NULL;
}

int main(int argc, char **argv)
{
	struct timespec a, b;
	pthread_t *tid;
	int n;

	if (argc < 3 || argc > 4 || (n = atoi(argv[1])) < 1 || atoi(argv[2]) < 1 ||
	    (argc == 4 && strcmp(argv[3], "populate") && strcmp(argv[3], "memset") &&
	     strcmp(argv[3], "touch"))) {
		fprintf(stderr, "usage: populate THREADS MIB [populate|memset|touch]\n");
		return 2;
	}
	if (argc == 4)
		mode = argv[3];
	bytes = (size_t)atoi(argv[2]) << 20;
	tid = calloc((size_t)n, sizeof(*tid));
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < n; i++)
		if (!tid || pthread_create(&tid[i], NULL, populate, NULL) != 0) {
			perror("pthread_create");
			return 1;
		}
	for (int i = 0; i < n; i++) {
		void *why;

		pthread_join(tid[i], &why);
		if (why) {
			perror(why);
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.6f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
