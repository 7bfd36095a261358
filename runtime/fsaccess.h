/*
 * fsaccess.h - how the run reaches a fileset's entries on disk.
 *
 * Every flowop that opens, creates, removes or lists an entry of a
 * fileset goes through these functions, never through an absolute path:
 * paths are resolved below the root directory the master opened at
 * preparation (struct fs_state.rootfd, inherited by the workers), and no
 * symbolic link is followed in any component (runtime/beneath.h).  So
 * replacing a directory of the tree with a link during the run, or the
 * fileset's directory itself, cannot lead a write or an unlink outside
 * the tree: the op fails with ELOOP instead.
 *
 * Opening a file for writing is followed by a check of the open file
 * (fsa_refusal_fd()), and removing an entry is preceded by a check of
 * the entry (fsa_refusal_at()): flowbench writes, truncates and removes
 * only regular files with one link and directories, owned by the tree's
 * owner (runtime/marker.h).  A hard link to somebody's file planted in
 * the tree is refused before a byte is written to it.  The checks are
 * outside the op's timed window: an op's latency is the system call's.
 */
#ifndef FLOWBENCH_FSACCESS_H
#define FLOWBENCH_FSACCESS_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "runtime/fileset.h"

/* An entry reached through its own directory, for unlinkat/mkdirat. */
struct fsa_entry {
	int dirfd;                /* the directory holding it (O_PATH) */
	const char *name;         /* its last component, inside rel */
	char rel[TREE_PATH_MAX];  /* its path below the root */
};

/* open(2) of file `e` below the root, no link followed (ELOOP if one is met). */
int fsa_open_file(const struct fs_state *fs, uint64_t e, int flags, mode_t mode);

/*
 * The same with O_CREAT, creating the file's missing parent directories
 * (each below the root, no link followed) when the first open says
 * ENOENT.
 */
int fsa_create_file(const struct fs_state *fs, uint64_t e, int flags, mode_t mode);

/*
 * May flowbench write through `fd`, just opened with `flags`?  NULL when
 * the open is read-only or the file is ours; else the reason, in `why`.
 * A failing fstat() is a reason too.
 */
const char *fsa_refusal_fd(const struct fs_state *fs, int fd, int flags,
			   char *why, size_t len);

/* Reach the directory holding file (leaf directory) `e`.  0 or -1 with errno. */
int fsa_reach_file(const struct fs_state *fs, uint64_t e, struct fsa_entry *ent);
int fsa_reach_leaf(const struct fs_state *fs, uint64_t e, struct fsa_entry *ent);
void fsa_leave(const struct fs_state *fs, struct fsa_entry *ent);

/*
 * May flowbench remove the entry `ent` names?  NULL if it is ours or
 * does not exist (the unlink then fails as it would); else the reason.
 */
const char *fsa_refusal_at(const struct fs_state *fs, const struct fsa_entry *ent,
			   char *why, size_t len);

/* Open directory `d` of the tree for reading (listdir). */
int fsa_open_dir(const struct fs_state *fs, uint32_t d);

/* lstat of file `e`, relative to the root (statfile: one system call). */
int fsa_stat_file(const struct fs_state *fs, uint64_t e, struct stat *st);

/* Does `flags` let the opener change the file? */
static inline bool fsa_may_write(int flags)
{
	return (flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC);
}

#endif
