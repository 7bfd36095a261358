/*
 * fsaccess.c - a fileset's entries reached below its held root, with the
 * ownership check and the kept parent directory (why: fsaccess.h).
 */
#include "runtime/fileset/fsaccess.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runtime/fileset/beneath.h"

int fsa_open_file(const struct fileset_state *fs, uint64_t e, int flags,
		  mode_t mode)
{
	char rel[TREE_PATH_MAX];

	if (fs->pf->is_device)
		return blkdev_reopen(&fs->dev, flags);     /* never the path again */
	tree_file_relpath(&fs->tree, e, rel);
	return beneath_open(fs->rootfd, rel, flags, mode);
}

/* mkdir every missing directory above `rel` (all below the root). */
static int make_parents(const struct fileset_state *fs, char *rel)
{
	for (char *c = rel; (c = strchr(c, '/')); c++) {
		*c = '\0';
		if (beneath_mkdir(fs->rootfd, rel, 0755) < 0 && errno != EEXIST) {
			*c = '/';
			return -1;
		}
		*c = '/';
	}
	return 0;
}

/* O_EXCL first; a file that exists already is opened as it is. */
static int create_or_open(const struct fileset_state *fs, const char *rel,
			  int flags, mode_t mode, bool *created)
{
	int fd = beneath_open(fs->rootfd, rel, flags | O_CREAT | O_EXCL, mode);

	*created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = beneath_open(fs->rootfd, rel, flags, mode);
	return fd;
}

int fsa_create_file(const struct fileset_state *fs, uint64_t e, int flags,
		    mode_t mode, bool *created)
{
	char rel[TREE_PATH_MAX];
	int fd;

	tree_file_relpath(&fs->tree, e, rel);
	fd = create_or_open(fs, rel, flags, mode, created);
	if (fd < 0 && errno == ENOENT && make_parents(fs, rel) == 0)
		fd = create_or_open(fs, rel, flags, mode, created);
	return fd;
}

const char *fsa_refusal_fd(const struct fileset_state *fs, int fd, char *why,
			   size_t len)
{
	struct stat st;

	if (fs->pf->is_device) {
		if (fs->dev.writable && blkdev_same(&fs->dev, fd))
			return NULL;
		snprintf(why, len, "it is not the device %s held for writing", fs->root);
		return why;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(why, len, "cannot check it: fstat: %s", strerror(errno));
		return why;
	}
	return marker_foreign(&fs->marker, &st, why, len);
}

void fsa_dircache_close(struct fsa_dircache *c)
{
	if (c->fd >= 0)
		close(c->fd);
	fsa_dircache_init(c);
}

/*
 * ent->dirfd: directory `d` of the tree, from the cache or opened into
 * it; ent->name: the entry's serial `serial` in it.
 */
static int reach(const struct fileset_state *fs, uint32_t d, uint32_t serial,
		 struct fsa_dircache *c, struct fsa_entry *ent)
{
	tree_serial_name(serial, ent->name);
	if (c->fs != fs || c->dir != d || c->fd < 0) {
		char rel[TREE_PATH_MAX];
		int fd;

		tree_dir_relpath(&fs->tree, d, rel);
		fd = beneath_open(fs->rootfd, rel, O_PATH | O_DIRECTORY, 0);
		if (fd < 0)
			return -1;
		fsa_dircache_close(c);
		c->fs = fs;
		c->dir = d;
		c->fd = fd;
	}
	ent->dirfd = c->fd;
	return 0;
}

int fsa_reach_file(const struct fileset_state *fs, uint64_t e,
		   struct fsa_dircache *c, struct fsa_entry *ent)
{
	uint32_t d = tree_file_dir(&fs->tree, e);

	return reach(fs, d, (uint32_t)(e - fs->tree.dirs[d].first + 1), c, ent);
}

int fsa_reach_leaf(const struct fileset_state *fs, uint64_t e,
		   struct fsa_dircache *c, struct fsa_entry *ent)
{
	uint32_t d = tree_leaf_dir(&fs->tree, e);

	return reach(fs, d, (uint32_t)(e - fs->tree.dirs[d].first + 1), c, ent);
}

int fsa_open_dir(const struct fileset_state *fs, uint32_t d)
{
	char rel[TREE_PATH_MAX];

	tree_dir_relpath(&fs->tree, d, rel);
	return beneath_open(fs->rootfd, rel, O_RDONLY | O_DIRECTORY, 0);
}

int fsa_stat_file(const struct fileset_state *fs, uint64_t e, struct stat *st)
{
	char rel[TREE_PATH_MAX];

	tree_file_relpath(&fs->tree, e, rel);
	return fstatat(fs->rootfd, rel, st, AT_SYMLINK_NOFOLLOW);
}
