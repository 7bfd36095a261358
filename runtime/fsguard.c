/*
 * fsguard.c - the directories flowbench never uses for a fileset.
 *
 * Two lists.  Directories in the system trees hold the operating system
 * and its virtual file systems: nothing at or below them is ever a
 * fileset's directory (except tmpfs scratch space under /dev/shm).
 * Top-level directories are fine to hold filesets but never are one:
 * making /tmp or /home itself a fileset's directory and cleaning it would
 * touch everybody's files.  The home directories and every directory
 * above them are refused for the same reason.
 */
#include "runtime/fsguard.h"

#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Nothing at or below these. */
static const char *const system_trees[] = {
	"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32",
	"/proc", "/sbin", "/sys", "/usr", NULL
};

/* Below these is fine (benchmark scratch space), the directory itself not. */
static const char *const top_dirs[] = {
	"/home", "/root", "/tmp", "/var", "/var/tmp", "/var/lib", "/var/log",
	"/var/cache", "/var/spool", "/var/mail", "/opt", "/srv", "/mnt",
	"/media", "/run", "/dev/shm", "/lost+found", NULL
};

/* Is `path` `base` or inside it?  ("/etcetera" is not inside "/etc".) */
static bool at_or_below(const char *path, const char *base)
{
	size_t n = strlen(base);

	if (n == 1 && base[0] == '/')
		return path[0] == '/';
	return strncmp(path, base, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

const char *fsguard_refusal(const char *dir, const struct fsguard_homes *homes)
{
	if (dir[0] != '/')
		return "it is not an absolute path";
	if (strcmp(dir, "/") == 0)
		return "it is the root directory";
	for (int i = 0; homes && i < homes->n; i++) {
		if (strcmp(dir, homes->dir[i]) == 0)
			return "it is the home directory";
		if (at_or_below(homes->dir[i], dir))
			return "it holds the home directory";
	}
	for (int i = 0; top_dirs[i]; i++) {
		if (strcmp(dir, top_dirs[i]) == 0)
			return "it is a top-level system directory (use a directory inside it)";
	}
	if (at_or_below(dir, "/dev/shm"))
		return NULL;
	for (int i = 0; system_trees[i]; i++) {
		if (at_or_below(dir, system_trees[i]))
			return "it is inside a system directory";
	}
	return NULL;
}

static void add_home(struct fsguard_homes *h, const char *dir)
{
	char *r;

	if (!dir || dir[0] != '/' || h->n >= FSGUARD_MAX_HOMES)
		return;
	r = realpath(dir, NULL);
	if (!r)
		return;
	for (int i = 0; i < h->n; i++) {
		if (strcmp(h->dir[i], r) == 0) {
			free(r);
			return;
		}
	}
	h->dir[h->n++] = r;
}

void fsguard_homes_get(struct fsguard_homes *h)
{
	struct passwd *pw = getpwuid(getuid());

	memset(h, 0, sizeof(*h));
	add_home(h, getenv("HOME"));
	if (pw)
		add_home(h, pw->pw_dir);
}

void fsguard_homes_free(struct fsguard_homes *h)
{
	for (int i = 0; i < h->n; i++)
		free(h->dir[i]);
	memset(h, 0, sizeof(*h));
}
