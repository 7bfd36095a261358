/*
 * catalog.h - the catalogue of workloads shipped with flowbench: where it
 * lives, what each workload is (the one-line description of its header),
 * and how a bare name on the command line finds its file.
 *
 * The catalogue is a directory of WML files: $FLOWBENCH_WORKLOADS when
 * set; else, for a binary still in the build tree it was built in, the
 * source tree's workloads/; else the installed $(pkgdatadir)/workloads.
 * Every file NAME.f
 * starts with a comment line "# NAME.f - description".
 */
#ifndef FLOWBENCH_CATALOG_H
#define FLOWBENCH_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The catalogue directory: $FLOWBENCH_WORKLOADS if set and not empty
 * (*from_env = true), else catalog_default_dir() for this binary
 * (/proc/self/exe).  from_env may be NULL.
 */
const char *catalog_dir(bool *from_env);

/*
 * The catalogue of the binary `exe` without FLOWBENCH_WORKLOADS:
 * `source_dir` (the source tree's workloads/) when exe's directory is
 * `build_dir` (the build tree it was built in: not installed yet) and
 * source_dir exists; else `installed`.  So the Quick start's
 * build/flowbench finds its workloads before any `make install`, and an
 * installed copy never reads a build tree.  NULL arguments: `installed`.
 */
const char *catalog_default_dir(const char *exe, const char *build_dir,
				const char *source_dir, const char *installed);

/*
 * The error for a bare name `arg` that catalog_resolve() did not find:
 * says where it looked and, when there is no catalogue at all, how to
 * name one (FLOWBENCH_WORKLOADS=DIR).
 */
void catalog_not_found(const char *arg, FILE *err);

/*
 * The description in a workload's header: the first comment line that has
 * any text must read "# NAME.f - description".  Copies the description
 * (trimmed, cut to size - 1 bytes) to desc and returns 0; returns -1 when
 * the header has no such line (no comment before the first statement, or
 * a first comment line of another form).
 */
int catalog_description(const char *text, char *desc, size_t size);

/*
 * Print every NAME.f of `dir`, sorted by name, as "NAME  description" with
 * the descriptions aligned.  Returns 0, or 1 after a message on `err`
 * (directory unreadable, no workload in it).
 */
int catalog_list_dir(const char *dir, FILE *out, FILE *err);

/*
 * `flowbench list`: the same for catalog_dir(), explaining on `err` where
 * it looked and how to point FLOWBENCH_WORKLOADS elsewhere when the
 * directory does not exist.
 */
int catalog_list(FILE *out, FILE *err);

/*
 * The file `flowbench run ARG` means when ARG is a catalogue name: if ARG
 * has no '/' and no file ARG exists in the current directory, returns the
 * malloc'ed path "<dir>/ARG.f" (or "<dir>/ARG" when ARG already ends in
 * ".f") if that file exists.  Returns NULL otherwise: ARG is used as
 * given.
 */
char *catalog_resolve(const char *arg, const char *dir);

#endif
