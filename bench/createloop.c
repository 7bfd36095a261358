/*
 * createloop.c - the cheapest way to create N files of S bytes, the
 * yardstick for flowbench's preallocation (bench/fileset-create).
 *
 * Directories <dir>/dNNNNNNN hold WIDTH files each (made first, not
 * timed, like flowbench's "Pre-allocating directories" step).  Then one
 * thread per online CPU claims chunks of 64 files with an atomic counter
 * and, per file, does openat(O_CREAT|O_EXCL) relative to the top
 * directory, one write of S bytes per MiB, and close.  Prints the seconds
 * the file phase took.
 *
 * Usage: createloop DIR FILES SIZE WIDTH
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHUNK 64
#define BLOCK (1u << 20)

struct job {
	int top;
	unsigned long files, width;
	size_t size;
	char *buf;
	atomic_ulong next;
	atomic_int failed;
};

static void *worker(void *arg)
{
	struct job *j = arg;
	char path[64];

	for (;;) {
		unsigned long first = atomic_fetch_add(&j->next, CHUNK);

		if (first >= j->files || atomic_load(&j->failed))
			return NULL;
		for (unsigned long i = first; i < first + CHUNK && i < j->files; i++) {
			size_t left = j->size;
			int fd;

			snprintf(path, sizeof(path), "d%07lu/f%07lu", i / j->width, i % j->width);
			fd = openat(j->top, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
			if (fd < 0) {
				perror(path);
				atomic_store(&j->failed, 1);
				return NULL;
			}
			while (left) {
				size_t n = left < BLOCK ? left : BLOCK;

				if (write(fd, j->buf, n) != (ssize_t)n) {
					perror(path);
					atomic_store(&j->failed, 1);
					break;
				}
				left -= n;
			}
			close(fd);
		}
	}
}

int main(int argc, char **argv)
{
	struct job j = { 0 };
	struct timespec a, b;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t tid[256];
	int n = ncpu < 1 ? 1 : ncpu > 256 ? 256 : (int)ncpu;
	char name[32];

	if (argc != 5) {
		fprintf(stderr, "usage: createloop DIR FILES SIZE WIDTH\n");
		return 2;
	}
	j.files = strtoul(argv[2], NULL, 10);
	j.size = strtoul(argv[3], NULL, 10);
	j.width = strtoul(argv[4], NULL, 10);
	j.buf = malloc(BLOCK);
	if (!j.buf || !j.width || mkdir(argv[1], 0755) < 0) {
		perror(argv[1]);
		return 1;
	}
	memset(j.buf, 0x5a, BLOCK);
	j.top = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (unsigned long d = 0; d * j.width < j.files; d++) {
		snprintf(name, sizeof(name), "d%07lu", d);
		if (mkdirat(j.top, name, 0755) < 0) {
			perror(name);
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < n; i++)
		pthread_create(&tid[i], NULL, worker, &j);
	for (int i = 0; i < n; i++)
		pthread_join(tid[i], NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (atomic_load(&j.failed))
		return 1;
	printf("%.6f\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
	return 0;
}
