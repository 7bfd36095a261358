/*
 * fsaccess.h - how the run reaches a fileset's entries on disk.
 *
 * Every flowop that opens, creates, removes or lists an entry of a
 * fileset goes through these functions, never through an absolute path:
 * paths are resolved below the root directory the master opened at
 * preparation (struct fileset_state.rootfd, inherited by the workers), and no
 * symbolic link is followed in any component (runtime/fileset/beneath.h).  So
 * replacing a directory of the tree with a link during the run, or the
 * fileset's directory itself, cannot lead a write or an unlink outside
 * the tree: the op fails with ELOOP instead.
 *
 * A file is written only after its open descriptor was checked
 * (fsa_refusal_fd(), through runtime/engine/threadfile.h's slot_writable()):
 * flowbench writes only regular files with at most one link owned by the
 * tree's owner (runtime/fileset/marker.h), so a hard link to somebody's file
 * planted in the tree is refused before a byte is written to it.  The
 * check is outside the op's timed window: an op's latency is the system
 * call's.
 *
 * Removing needs no such check during the run: unlinking a name removes
 * only that name.  A hard link planted in the tree leaves the file's
 * other names (and data) alone, a symbolic link is removed, not its
 * target, and a file of somebody else's could only be there if whoever
 * moved it could already delete it where it was.  What must not happen
 * is an unlink in somebody else's directory, reached through a link: the
 * directory holding the entry is reached below the root without links
 * (fsa_reach_file()), and kept (struct fsa_dircache) while the next
 * entries live in the same directory, which a round-robin pick makes the
 * common case.  A kept descriptor stays on flowbench's directory even if
 * that directory is moved and a link put in its place.
 */
#ifndef FLOWBENCH_FSACCESS_H
#define FLOWBENCH_FSACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "runtime/fileset/fileset.h"

/* An entry reached through its own directory, for unlinkat/mkdirat. */
struct fsa_entry {
	int dirfd;                /* the directory holding it (O_PATH) */
	char name[16];            /* its 8-digit name in that directory */
};

/* The directory last reached by a flowop, kept open for the next entry. */
struct fsa_dircache {
	const struct fileset_state *fs;  /* NULL: empty */
	uint32_t dir;                    /* its index in the fileset's tree */
	int fd;
};

/* open(2) of file `e` below the root, no link followed (ELOOP if one is met). */
int fsa_open_file(const struct fileset_state *fs, uint64_t e, int flags,
		  mode_t mode);

/*
 * The same with O_CREAT, creating the file's missing parent directories
 * (each below the root, no link followed) when the first open says
 * ENOENT.  The file is made with O_EXCL; only if it exists already is it
 * opened as it is, and *created says which (a file flowbench just made
 * needs no ownership check).
 */
int fsa_create_file(const struct fileset_state *fs, uint64_t e, int flags,
		    mode_t mode, bool *created);

/*
 * May flowbench write through `fd`, a file of `fs`?  NULL when the file
 * is ours; else the reason, in `why` (a failing fstat() is one too).
 */
const char *fsa_refusal_fd(const struct fileset_state *fs, int fd, char *why,
			   size_t len);

static inline void fsa_dircache_init(struct fsa_dircache *c)
{
	c->fs = NULL;
	c->fd = -1;
}

void fsa_dircache_close(struct fsa_dircache *c);

/*
 * Reach the directory holding file (leaf directory) `e`, through `c`
 * (opened, or kept from the last call when it is the same directory);
 * ent->dirfd belongs to the cache.  0, or -1 with errno (ELOOP: a
 * symbolic link is on the way).
 */
int fsa_reach_file(const struct fileset_state *fs, uint64_t e,
		   struct fsa_dircache *c, struct fsa_entry *ent);
int fsa_reach_leaf(const struct fileset_state *fs, uint64_t e,
		   struct fsa_dircache *c, struct fsa_entry *ent);

/* Open directory `d` of the tree for reading (listdir). */
int fsa_open_dir(const struct fileset_state *fs, uint32_t d);

/* lstat of file `e`, relative to the root (statfile: one system call). */
int fsa_stat_file(const struct fileset_state *fs, uint64_t e, struct stat *st);

#endif
