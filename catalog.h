/*
 * catalog.h - the catalogue of workloads shipped with flowbench: where it
 * lives, what each workload is (the one-line description of its header),
 * and how a bare name on the command line finds its file.
 *
 * The catalogue is a directory of WML files: $FLOWBENCH_WORKLOADS when
 * set, else the installed $(pkgdatadir)/workloads.  Every file NAME.f
 * starts with a comment line "# NAME.f - description".
 */
#ifndef FLOWBENCH_CATALOG_H
#define FLOWBENCH_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * The catalogue directory: $FLOWBENCH_WORKLOADS if set and not empty
 * (*from_env = true), else the directory flowbench was installed with.
 * from_env may be NULL.
 */
const char *catalog_dir(bool *from_env);

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
