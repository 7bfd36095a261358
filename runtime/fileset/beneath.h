/*
 * beneath.h - reaching entries below a directory flowbench holds open,
 * never through a symbolic link.
 *
 * Every file flowbench creates, writes, truncates or removes lives in a
 * fileset tree whose root directory it opens once, at preparation, and
 * holds until the run ends.  Naming files by absolute path would let
 * anybody who can write in the tree (or above it) swap a directory for a
 * symbolic link, before or during the run, and lead a write or an unlink
 * to a file elsewhere.  So every relative path is resolved from the held
 * descriptor with openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS): a link
 * in any component fails with ELOOP, an escape with EXDEV.  Kernels
 * without openat2 (before Linux 5.6) get the same guarantee one component
 * at a time with O_NOFOLLOW.
 *
 * These functions know nothing of filesets: runtime/fileset/fsaccess.h applies
 * them to a fileset's entries and adds the ownership checks.
 */
#ifndef FLOWBENCH_BENEATH_H
#define FLOWBENCH_BENEATH_H

#include <sys/types.h>

/*
 * open(2) of `rel` (relative, no "..") below the directory `dirfd`,
 * never following a symbolic link in any component, the last one
 * included.  `flags` are open(2)'s (O_CLOEXEC is added); `mode` is used
 * with O_CREAT.  A descriptor, or -1 with errno (ELOOP: a symbolic link
 * was met).
 */
int beneath_open(int dirfd, const char *rel, int flags, mode_t mode);

/* The component-by-component way beneath_open() takes without openat2. */
int beneath_open_walk(int dirfd, const char *rel, int flags, mode_t mode);

/*
 * The directory holding the last component of `rel`, opened (O_PATH)
 * below `dirfd` without following links; *leaf points at that last
 * component inside `rel`.  When `rel` has a single component the
 * directory is `dirfd` itself, returned as is: release the result with
 * beneath_close_parent(dirfd, fd).  -1 with errno on failure.
 */
int beneath_parent(int dirfd, const char *rel, const char **leaf);
void beneath_close_parent(int dirfd, int pfd);

/*
 * mkdir(2) of `rel` below `dirfd`, through beneath_parent(): the new
 * directory's parent is reached without following links.  0 or -1 with
 * errno (EEXIST when it exists).
 */
int beneath_mkdir(int dirfd, const char *rel, mode_t mode);

#endif
