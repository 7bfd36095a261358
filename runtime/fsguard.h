/*
 * fsguard.h - where a fileset's directory may never be.
 *
 * flowbench creates, cleans and (with --force) adopts one directory per
 * file or fileset, <path>/<name>.  Whatever the workload or the command
 * line says, some directories are never used that way: the root
 * directory, the user's home directory and every directory above it,
 * top-level system directories, and anything inside the system trees
 * (/etc, /usr, /proc, ...).  docs/robustness.md lists them.  The check is
 * a pure function of the resolved path so it can be tested without
 * touching those directories.
 */
#ifndef FLOWBENCH_FSGUARD_H
#define FLOWBENCH_FSGUARD_H

#define FSGUARD_MAX_HOMES 2

/* The user's home directories, resolved: $HOME and the passwd entry's. */
struct fsguard_homes {
	char *dir[FSGUARD_MAX_HOMES];
	int n;
};

void fsguard_homes_get(struct fsguard_homes *h);
void fsguard_homes_free(struct fsguard_homes *h);

/*
 * Why the absolute, symlink-free path `dir` must not be a fileset's
 * directory (a short phrase: "it is the root directory"), or NULL when
 * it may.  `homes` may be NULL.
 */
const char *fsguard_refusal(const char *dir, const struct fsguard_homes *homes);

#endif
