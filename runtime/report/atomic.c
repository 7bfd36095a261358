/*
 * atomic.c - writing a results file so that it is never seen half-written:
 * a temporary file beside the target, flushed and fsync'ed, renamed over
 * it, then the directory fsync'ed so the rename itself is durable.
 */
#include "runtime/report/doc.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int results_format_of(const char *path)
{
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');

	if (!dot || (slash && dot < slash) || dot == path || dot[-1] == '/')
		return -1;
	if (strcmp(dot, ".json") == 0)
		return RESULTS_JSON;
	if (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0)
		return RESULTS_YAML;
	return -1;
}

/* fsync the directory holding `path` (best effort: some fs refuse). */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

int atomic_write_file(const char *path, int (*fn)(FILE *f, const void *arg),
		      const void *arg)
{
	char *copy = strdup(path), *dir, tmp[PATH_MAX];
	const char *what = "write";
	mode_t mask;
	FILE *f = NULL;
	bool failed = false;
	int fd, e = 0;

	if (!copy) {
		fprintf(stderr, "flowbench: cannot write %s: out of memory\n", path);
		return -1;
	}
	dir = dirname(copy);
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s/.flowbench-results.XXXXXX", dir) >= sizeof(tmp)) {
		fprintf(stderr, "flowbench: cannot write %s: path too long\n", path);
		free(copy);
		return -1;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "flowbench: cannot write %s: cannot create a temporary file in %s: %s\n",
			path, dir, strerror(errno));
		free(copy);
		return -1;
	}
	mask = umask(0);
	umask(mask);
	errno = 0;
	if (fchmod(fd, 0666 & ~mask) < 0 || !(f = fdopen(fd, "w"))) {
		what = "open";
		failed = true;
	} else if (fn(f, arg) < 0 || fflush(f) == EOF || ferror(f)) {
		failed = true;
	} else if (fsync(fd) < 0) {
		what = "fsync";
		failed = true;
	}
	e = errno;
	if (f ? fclose(f) == EOF : close(fd) < 0) {
		if (!failed)
			e = errno;
		failed = true;
	}
	if (!failed && rename(tmp, path) < 0) {
		e = errno;
		what = "rename";
		failed = true;
	}
	if (failed) {
		fprintf(stderr, "flowbench: cannot %s %s: %s\n", what, path,
			e ? strerror(e) : "the document could not be written");
		unlink(tmp);
		free(copy);
		return -1;
	}
	sync_dir(dir);
	free(copy);
	return 0;
}

static int write_json(FILE *f, const void *arg)
{
	return results_write_json(f, arg);
}

static int write_yaml(FILE *f, const void *arg)
{
	return results_write_yaml(f, arg);
}

int results_write_file(const char *path, const struct run_results *r)
{
	switch (results_format_of(path)) {
	case RESULTS_JSON:
		return atomic_write_file(path, write_json, r);
	case RESULTS_YAML:
		return atomic_write_file(path, write_yaml, r);
	default:
		fprintf(stderr, "flowbench: %s: a results file ends in .json, .yaml or .yml\n",
			path);
		return -1;
	}
}
