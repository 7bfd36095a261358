/*
 * createloop.c - the cheapest way to create N files of S bytes, the
 * yardstick for flowbench's preallocation (bench/fileset-create).
 *
 * Directories are made first (not timed, like flowbench's
 * "Pre-allocating directories" step): either <dir>/dNNNNNNN holding WIDTH
 * files each, or, with -l, the directories of a list (the tree flowbench
 * made, so that both walk the same paths).  Then one thread per online
 * CPU claims chunks of files with an atomic counter and, per file, does
 * openat(O_CREAT|O_EXCL) relative to the top directory, one write of S
 * bytes per MiB, and close.  A chunk is 64 files or about 16 MiB,
 * whichever is fewer (flowbench's rule, runtime/fileset/prealloc.c: big
 * files are spread over the threads too).  Prints the seconds the file
 * phase took.
 *
 * Usage: createloop DIR FILES SIZE WIDTH
 *        createloop -l LIST DIR SIZE
 * LIST: one entry a line, "d REL" (a directory, made in this order, so
 * parents first) or "f REL" (a file, created in this order), REL
 * relative to DIR.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHUNK_FILES 64
#define CHUNK_BYTES (16ul << 20)
#define BLOCK (1u << 20)

struct job {
	int top;
	unsigned long files, width, chunk;
	char **paths;           /* -l: the files' paths; else NULL */
	size_t size;
	char *buf;
	atomic_ulong next;
	atomic_int failed;
};

/* Create file i: open, write, close.  0 or -1 (reported). */
static int create_one(struct job *j, unsigned long i)
{
	char name[64];
	const char *path = name;
	size_t left = j->size;
	int fd;

	if (j->paths)
		path = j->paths[i];
	else
		snprintf(name, sizeof(name), "d%07lu/f%07lu", i / j->width, i % j->width);
	fd = openat(j->top, path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(path);
		return -1;
	}
	while (left) {
		size_t n = left < BLOCK ? left : BLOCK;

		if (write(fd, j->buf, n) != (ssize_t)n) {
			perror(path);
			close(fd);
			return -1;
		}
		left -= n;
	}
	close(fd);
	return 0;
}

static void *worker(void *arg)
{
	struct job *j = arg;

	for (;;) {
		unsigned long first = atomic_fetch_add(&j->next, j->chunk);

		if (first >= j->files || atomic_load(&j->failed))
			return NULL;
		for (unsigned long i = first; i < first + j->chunk && i < j->files; i++)
			if (create_one(j, i) < 0) {
				atomic_store(&j->failed, 1);
				return NULL;
			}
	}
}

/* The flat tree: dNNNNNNN, WIDTH files each. */
static int make_flat_dirs(struct job *j)
{
	char name[32];

	for (unsigned long d = 0; d * j->width < j->files; d++) {
		snprintf(name, sizeof(name), "d%07lu", d);
		if (mkdirat(j->top, name, 0755) < 0) {
			perror(name);
			return -1;
		}
	}
	return 0;
}

/* -l LIST: make its directories, keep its files' paths in j->paths. */
static int read_list(struct job *j, const char *list)
{
	FILE *f = fopen(list, "r");
	unsigned long cap = 0;
	char *line = NULL;
	size_t len = 0;
	ssize_t n;

	if (!f) {
		perror(list);
		return -1;
	}
	while ((n = getline(&line, &len, f)) > 0) {
		if (line[n - 1] == '\n')
			line[--n] = '\0';
		if (n < 3 || line[1] != ' ' || (line[0] != 'd' && line[0] != 'f')) {
			fprintf(stderr, "%s: not \"d REL\" or \"f REL\": %s\n", list, line);
			return -1;
		}
		if (line[0] == 'd') {
			if (mkdirat(j->top, line + 2, 0755) < 0) {
				perror(line + 2);
				return -1;
			}
			continue;
		}
		if (j->files == cap) {
			cap = cap ? 2 * cap : 1024;
			j->paths = realloc(j->paths, cap * sizeof(*j->paths));
		}
		if (!j->paths || !(j->paths[j->files++] = strdup(line + 2))) {
			perror("createloop");
			return -1;
		}
	}
	free(line);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct job j = { 0 };
	struct timespec a, b;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t tid[256];
	int n = ncpu < 1 ? 1 : ncpu > 256 ? 256 : (int)ncpu;
	bool listed = argc == 5 && strcmp(argv[1], "-l") == 0;
	const char *dir = listed ? argv[3] : argv[1];

	if (argc != 5) {
		fprintf(stderr, "usage: createloop DIR FILES SIZE WIDTH\n"
			"       createloop -l LIST DIR SIZE\n");
		return 2;
	}
	j.size = strtoul(listed ? argv[4] : argv[3], NULL, 10);
	if (!listed) {
		j.files = strtoul(argv[2], NULL, 10);
		j.width = strtoul(argv[4], NULL, 10);
	}
	j.buf = malloc(BLOCK);
	if (!j.buf || (!listed && !j.width) || mkdir(dir, 0755) < 0) {
		perror(dir);
		return 1;
	}
	memset(j.buf, 0x5a, BLOCK);
	j.top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (j.top < 0 || (listed ? read_list(&j, argv[2]) : make_flat_dirs(&j)) < 0)
		return 1;
	j.chunk = j.size ? CHUNK_BYTES / j.size : CHUNK_FILES;
	j.chunk = j.chunk < 1 ? 1 : j.chunk > CHUNK_FILES ? CHUNK_FILES : j.chunk;
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
