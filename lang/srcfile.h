/*
 * srcfile.h - reading a whole input file (a workload, an fio job, a fuzz
 * reproducer) into memory, NUL-terminated, for the front ends.
 */
#ifndef FLOWBENCH_SRCFILE_H
#define FLOWBENCH_SRCFILE_H

#include <stddef.h>

/*
 * The bytes of `path` in a malloc'ed buffer with a NUL after them
 * (*len excludes it), or NULL with errno set.
 */
char *srcfile_read(const char *path, size_t *len);

#endif
