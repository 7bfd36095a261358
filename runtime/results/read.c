/*
 * read.c - a results file read back as a jansson tree, for compare and
 * report: mapped, handed to the reader of the format its content is in
 * (format.c's table: the content decides, not the name), and a failure
 * said in one error line.  With a hook for the runs, the pages the
 * reader is done with are dropped as it goes: the file is never all in
 * memory.
 */
#include "runtime/results/format.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/base/log.h"

/*
 * The document of a buffer, by the reader of the format it is in.  NULL
 * with the error printed: where the reader stopped when it knows, and
 * for the format that reads what no other row claims, the ones it is
 * not either ("not valid YAML (nor JSON)").
 */
static json_t *parse_buffer(const char *path, const char *buf, size_t len, FILE *err,
			    const struct results_runs *each)
{
	const struct results_format *fmt = results_format_of_content(buf, len);
	struct results_read_fail fail = { 0 };
	char names[64], nor[80] = "";
	json_t *root = fmt->read(buf, len, &fail, each);

	if (root || fail.stopped)
		return root;
	if (!fmt->looks_like &&
	    *results_format_list(names, sizeof(names), RESULTS_CLAIMING_NAMES))
		snprintf(nor, sizeof(nor), " (nor %s)", names);
	if (fail.placed)
		log_error_to(err, "%s:%d:%d: not valid %s%s: %s",
			path, fail.line, fail.column, fmt->name, nor, fail.text);
	else
		log_error_to(err, "%s: not a results file: %s", path, fail.text);
	return NULL;
}

/* The mapping and the hook the reader is handed, which it wraps. */
struct mapped {
	char *base;
	size_t dropped;                 /* pages before it dropped */
	const struct results_runs *each;
};

static int pass_run(void *ctx, const json_t *run, size_t i, int line)
{
	const struct mapped *m = ctx;

	return m->each->run(m->each->ctx, run, i, line);
}

/*
 * The reader is done with the first n bytes: their whole pages leave
 * this process's memory (the mapping is private and never written, so
 * a page read again would come back from the file).
 */
static void drop_read(void *ctx, size_t n)
{
	struct mapped *m = ctx;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), upto = n / page * page;

	if (upto >= m->dropped + (4u << 20)) {
		madvise(m->base + m->dropped, upto - m->dropped, MADV_DONTNEED);
		m->dropped = upto;
	}
}

/*
 * The file is mapped, not copied: jansson's own file reader takes it a
 * character at a time through stdio (getc was 4 % of a compare of two
 * 38 MB files).
 */
json_t *results_read_file(const char *path, FILE *err, const struct results_runs *each)
{
	struct mapped m = { .each = each };
	struct results_runs wrap = { pass_run, drop_read, &m };
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	json_t *root;
	void *buf;

	if (fd < 0 || fstat(fd, &st) < 0) {
		log_error_to(err, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0) {
		close(fd);
		log_error_to(err, "%s: %s", path, S_ISREG(st.st_mode) ?
			"an empty file, not a results file" : "not a regular file");
		return NULL;
	}
	buf = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (buf == MAP_FAILED) {
		log_error_to(err, "%s: %s", path, strerror(errno));
		return NULL;
	}
	m.base = buf;
	madvise(buf, (size_t)st.st_size, MADV_SEQUENTIAL);
	root = parse_buffer(path, buf, (size_t)st.st_size, err, each ? &wrap : NULL);
	munmap(buf, (size_t)st.st_size);
	return root;
}

