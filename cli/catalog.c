/*
 * catalog.c - reading the catalogue of workloads (the .f files of
 * workloads/, installed in $(pkgdatadir)/workloads): `flowbench list` and
 * the bare names that `flowbench run NAME` accepts.  The description of
 * a workload is the first line of its own header, so the list can never
 * drift from the files.
 */
#include "cli/catalog.h"
#include "plan/oom.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FLOWBENCH_WORKLOADS_DIR
#define FLOWBENCH_WORKLOADS_DIR "/usr/local/share/flowbench/workloads"
#endif

/* The header is at the top: a description line further down is a mistake. */
#define HEADER_BYTES 4096

#ifndef FLOWBENCH_BUILD_DIR
#define FLOWBENCH_BUILD_DIR NULL
#endif
#ifndef FLOWBENCH_SOURCE_WORKLOADS
#define FLOWBENCH_SOURCE_WORKLOADS NULL
#endif

/* True if a and b name the same existing directory (symbolic links followed). */
static bool same_dir(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && S_ISDIR(sa.st_mode) &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

const char *catalog_default_dir(const char *exe, const char *build_dir,
				const char *source_dir, const char *installed)
{
	char dir[4096];
	const char *slash;
	struct stat st;

	if (!exe || !build_dir || !source_dir)
		return installed;
	slash = strrchr(exe, '/');
	if (!slash || (size_t)(slash - exe) >= sizeof(dir))
		return installed;
	memcpy(dir, exe, (size_t)(slash - exe));
	dir[slash - exe] = '\0';
	if (!same_dir(dir[0] ? dir : "/", build_dir))
		return installed;
	if (stat(source_dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return installed;
	return source_dir;
}

const char *catalog_dir(bool *from_env)
{
	const char *env = getenv("FLOWBENCH_WORKLOADS");
	bool set = env && *env;
	char exe[4096];
	ssize_t n;

	if (from_env)
		*from_env = set;
	if (set)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return FLOWBENCH_WORKLOADS_DIR;
	exe[n] = '\0';
	return catalog_default_dir(exe, FLOWBENCH_BUILD_DIR,
				   FLOWBENCH_SOURCE_WORKLOADS,
				   FLOWBENCH_WORKLOADS_DIR);
}

/* True if [s, end) is blank. */
static bool blank(const char *s, const char *end)
{
	for (; s < end; s++)
		if (!isspace((unsigned char)*s))
			return false;
	return true;
}

/*
 * Parse one comment line's text [s, end) (after its '#'s) as
 * "NAME.f - description"; the name is one word ending in ".f".
 */
static int parse_title(const char *s, const char *end, char *desc, size_t size)
{
	const char *name = s, *dash, *d;
	size_t n;

	while (name < end && isspace((unsigned char)*name))
		name++;
	dash = name;
	while (dash < end && !isspace((unsigned char)*dash))
		dash++;
	/* the word before " - " is NAME.f */
	if (dash - name < 3 || strncmp(dash - 2, ".f", 2) != 0)
		return -1;
	d = dash;
	while (d < end && (*d == ' ' || *d == '\t'))
		d++;
	if (d == dash || d >= end || *d != '-' || d + 1 >= end ||
	    (d[1] != ' ' && d[1] != '\t'))
		return -1;
	d++;
	while (d < end && isspace((unsigned char)*d))
		d++;
	while (end > d && isspace((unsigned char)end[-1]))
		end--;
	if (d == end || size == 0)
		return -1;
	n = (size_t)(end - d);
	if (n > size - 1)
		n = size - 1;
	memcpy(desc, d, n);
	desc[n] = '\0';
	return 0;
}

int catalog_description(const char *text, char *desc, size_t size)
{
	const char *line = text;

	while (*line) {
		const char *end = strchr(line, '\n');
		const char *s = line;

		if (!end)
			end = line + strlen(line);
		while (s < end && (*s == ' ' || *s == '\t'))
			s++;
		if (s < end && *s == '#') {
			while (s < end && *s == '#')
				s++;
			if (!blank(s, end))
				return parse_title(s, end, desc, size);
		} else if (!blank(s, end)) {
			return -1;        /* a statement before any title */
		}
		line = *end ? end + 1 : end;
	}
	return -1;
}

/* The first HEADER_BYTES of a file, NUL-terminated, or -1 with errno. */
static int read_header(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

static bool is_workload(const char *dir, const char *name)
{
	size_t n = strlen(name);
	char path[4096];
	struct stat st;

	if (n < 3 || strcmp(name + n - 2, ".f") != 0 || name[0] == '.')
		return false;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted NAME.f entries of `dir`; *n is their count.  NULL + errno. */
static char **workload_names(const char *dir, int *n)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	int cap = 0;

	*n = 0;
	if (!dp)
		return NULL;
	while ((de = readdir(dp))) {
		if (!is_workload(dir, de->d_name))
			continue;
		if (*n == cap) {
			char **nn = xreallocarray(names, (size_t)(cap ? cap * 2 : 64),
						  sizeof(*names));

			names = nn;
			cap = cap ? cap * 2 : 64;
		}
		names[*n] = xstrdup(de->d_name);
		(*n)++;
	}
	closedir(dp);
	if (*n)
		qsort(names, (size_t)*n, sizeof(*names), by_name);
	else
		names = calloc(1, sizeof(*names));
	return names;
}

int catalog_list_dir(const char *dir, FILE *out, FILE *err)
{
	char header[HEADER_BYTES], desc[256], path[4096];
	int n, width = 0;
	char **names = workload_names(dir, &n);

	if (!names) {
		fprintf(err, "flowbench: error: cannot read the workload catalogue '%s': %s\n",
			dir, strerror(errno));
		return 1;
	}
	if (n == 0) {
		fprintf(err, "flowbench: error: no workload (*.f) in the catalogue '%s'\n",
			dir);
		free(names);
		return 1;
	}
	for (int i = 0; i < n; i++) {
		int w = (int)strlen(names[i]) - 2;

		if (w > width)
			width = w;
	}
	for (int i = 0; i < n; i++) {
		const char *d = desc;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (read_header(path, header, sizeof(header)) < 0)
			d = "(unreadable)";
		else if (catalog_description(header, desc, sizeof(desc)) < 0)
			d = "(no description: the header has no '# NAME.f - ...' line)";
		fprintf(out, "%-*.*s  %s\n", width, (int)strlen(names[i]) - 2,
			names[i], d);
		free(names[i]);
	}
	free(names);
	return 0;
}

int catalog_list(FILE *out, FILE *err)
{
	bool from_env;
	const char *dir = catalog_dir(&from_env);
	struct stat st;

	if (!from_env && stat(dir, &st) < 0) {
		fprintf(err,
			"flowbench: error: no workload catalogue: FLOWBENCH_WORKLOADS is not set and\n"
			"the installed catalogue '%s' does not exist (%s).\n"
			"Set FLOWBENCH_WORKLOADS to a directory of .f files, e.g.\n"
			"FLOWBENCH_WORKLOADS=/path/to/flowbench/workloads flowbench list\n",
			dir, strerror(errno));
		return 1;
	}
	return catalog_list_dir(dir, out, err);
}

char *catalog_resolve(const char *arg, const char *dir)
{
	size_t n = strlen(arg);
	const char *ext = n > 2 && strcmp(arg + n - 2, ".f") == 0 ? "" : ".f";
	struct stat st;
	char *path;

	if (n == 0 || strchr(arg, '/') || access(arg, F_OK) == 0 || errno != ENOENT)
		return NULL;
	if (asprintf(&path, "%s/%s%s", dir, arg, ext) < 0)
		return NULL;
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode)) {
		free(path);
		return NULL;
	}
	return path;
}

void catalog_not_found(const char *arg, FILE *err)
{
	bool from_env;
	const char *dir = catalog_dir(&from_env);
	struct stat st;

	if (!from_env && stat(dir, &st) < 0)
		fprintf(err, "flowbench: error: '%s' is not a file, and there is no workload catalogue to look it up in ('%s' does not exist): give a path, or name a catalogue with FLOWBENCH_WORKLOADS=DIR (the workloads/ directory of the source tree)\n",
			arg, dir);
	else
		fprintf(err, "flowbench: error: '%s' is neither a file nor a workload of the catalogue '%s' (see 'flowbench list'; FLOWBENCH_WORKLOADS=DIR names another catalogue)\n",
			arg, dir);
}
