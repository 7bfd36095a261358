/*
 * read.c - a results file read back as a jansson tree, for compare and
 * report: mapped, handed to the reader of the format its content is in
 * (format.c's table: the content decides, not the name), and a failure
 * said in one error line.
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
static json_t *parse_buffer(const char *path, const char *buf, size_t len, FILE *err)
{
	const struct results_format *fmt = results_format_of_content(buf, len);
	struct results_read_fail fail = { 0 };
	char names[64], nor[80] = "";
	json_t *root = fmt->read(buf, len, &fail);

	if (root)
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

/*
 * The file is mapped, not copied: jansson's own file reader takes it a
 * character at a time through stdio (getc was 4 % of a compare of two
 * 38 MB files).
 */
json_t *results_read_file(const char *path, FILE *err)
{
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
	root = parse_buffer(path, buf, (size_t)st.st_size, err);
	munmap(buf, (size_t)st.st_size);
	return root;
}

