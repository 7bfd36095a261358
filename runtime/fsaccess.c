/*
 * fsaccess.c - a fileset's entries reached below its held root, with the
 * ownership checks (why: fsaccess.h).
 */
#include "runtime/fsaccess.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "runtime/beneath.h"

int fsa_open_file(const struct fs_state *fs, uint64_t e, int flags, mode_t mode)
{
	char rel[TREE_PATH_MAX];

	tree_file_relpath(&fs->tree, e, rel);
	return beneath_open(fs->rootfd, rel, flags, mode);
}

/* mkdir every missing directory above `rel` (all below the root). */
static int make_parents(const struct fs_state *fs, char *rel)
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

int fsa_create_file(const struct fs_state *fs, uint64_t e, int flags, mode_t mode)
{
	char rel[TREE_PATH_MAX];
	int fd;

	tree_file_relpath(&fs->tree, e, rel);
	fd = beneath_open(fs->rootfd, rel, flags | O_CREAT, mode);
	if (fd < 0 && errno == ENOENT && make_parents(fs, rel) == 0)
		fd = beneath_open(fs->rootfd, rel, flags | O_CREAT, mode);
	return fd;
}

const char *fsa_refusal_fd(const struct fs_state *fs, int fd, int flags,
			   char *why, size_t len)
{
	struct stat st;

	if (!fsa_may_write(flags))
		return NULL;
	if (fstat(fd, &st) < 0) {
		snprintf(why, len, "cannot check it: fstat: %s", strerror(errno));
		return why;
	}
	return marker_foreign(&fs->marker, &st, why, len);
}

static int reach(const struct fs_state *fs, struct fsa_entry *ent)
{
	ent->dirfd = beneath_parent(fs->rootfd, ent->rel, &ent->name);
	return ent->dirfd < 0 ? -1 : 0;
}

int fsa_reach_file(const struct fs_state *fs, uint64_t e, struct fsa_entry *ent)
{
	tree_file_relpath(&fs->tree, e, ent->rel);
	return reach(fs, ent);
}

int fsa_reach_leaf(const struct fs_state *fs, uint64_t e, struct fsa_entry *ent)
{
	tree_leaf_relpath(&fs->tree, e, ent->rel);
	return reach(fs, ent);
}

void fsa_leave(const struct fs_state *fs, struct fsa_entry *ent)
{
	beneath_close_parent(fs->rootfd, ent->dirfd);
	ent->dirfd = -1;
}

const char *fsa_refusal_at(const struct fs_state *fs, const struct fsa_entry *ent,
			   char *why, size_t len)
{
	struct stat st;

	if (fstatat(ent->dirfd, ent->name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno == ENOENT)
			return NULL;
		snprintf(why, len, "cannot check it: stat: %s", strerror(errno));
		return why;
	}
	return marker_foreign(&fs->marker, &st, why, len);
}

int fsa_open_dir(const struct fs_state *fs, uint32_t d)
{
	char rel[TREE_PATH_MAX];

	tree_dir_relpath(&fs->tree, d, rel);
	return beneath_open(fs->rootfd, rel, O_RDONLY | O_DIRECTORY, 0);
}

int fsa_stat_file(const struct fs_state *fs, uint64_t e, struct stat *st)
{
	char rel[TREE_PATH_MAX];

	tree_file_relpath(&fs->tree, e, rel);
	return fstatat(fs->rootfd, rel, st, AT_SYMLINK_NOFOLLOW);
}
