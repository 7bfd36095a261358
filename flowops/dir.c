/*
 * dir.c - makedir, removedir, listdir (WML reference 4.16-4.18).
 *
 * makedir and removedir work on the fileset's leaf directories (its
 * `leafdirs`): makedir picks one that does not exist and creates it,
 * removedir picks one that exists and removes it (round robin over the
 * shared rotors, or `indexed`).  listdir picks any directory of the tree
 * that is not a leaf directory, the root included, round robin, and
 * reads all its entries as one op; its bytes follow filebench: for every
 * entry returned (. and .. included) the name's length plus
 * sizeof(struct dirent) - 1.  A failed listing releases the directory
 * (filebench leaves it busy for ever).  Every path is reached below the
 * fileset's held root without following links (runtime/fileset/fsaccess.h).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flowops/common.h"
#include "flowops/registry.h"
#include "plan/flowop.h"
#include "runtime/fileset/fileset.h"
#include "runtime/fileset/fsaccess.h"
#include "runtime/engine/thread.h"
#include "runtime/engine/threadfile.h"

struct dir_priv {
	char *path;             /* fileset_path_max() bytes */
	struct fsa_dircache dirs;  /* makedir/removedir: the directory last used */
};

static int dir_init(struct fb_thread *t, struct flowop_inst *fi)
{
	struct dir_priv *p = calloc(1, sizeof(*p));

	if (!p || !(p->path = malloc(fileset_path_max(&t->filesets[fi->pf->fileset])))) {
		free(p);
		thread_fail(t, "flowop %s: out of memory", fi->pf->name);
		return FLOWOP_ERROR;
	}
	fsa_dircache_init(&p->dirs);
	fi->priv = p;
	return 0;
}

static void dir_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	struct dir_priv *p = fi->priv;

	(void)t;
	if (p) {
		fsa_dircache_close(&p->dirs);
		free(p->path);
	}
	free(p);
	fi->priv = NULL;
}

/*
 * makedir (make = true) or removedir on a picked leaf directory, through
 * its parent reached below the fileset's root and kept for the next one
 * (runtime/fileset/fsaccess.h).  The op's time is the mkdirat/unlinkat alone.
 */
static enum flowop_result leafdir_op(struct fb_thread *t, struct flowop_inst *fi,
				     bool make)
{
	struct dir_priv *p = fi->priv;
	const struct fileset_state *fs = &t->filesets[fi->pf->fileset];
	const struct pick_set *set = &fs->leafdirs;
	const char *what = make ? "mkdir" : "rmdir";
	struct fsa_entry ent;
	enum flowop_result r;
	uint64_t e, t0, t1;
	int rc, err;

	r = slot_pick(t, fi->pf, set, make ? PICK_WANT_ABSENT : PICK_WANT_EXISTING, 0,
		      NULL, &e);
	if (r != FLOWOP_OK)
		return r;
	if (fsa_reach_leaf(fs, e, &p->dirs, &ent) < 0) {
		err = errno;
		if (err == ENOENT && !make)
			pick_set_exists(set, e, false);
		pick_release(set, e);
		fileset_leaf_path(fs, e, p->path);
		if (err == ELOOP)
			return thread_refuse(t, fi, make ? "create" : "remove", p->path,
					     THREAD_WHY_LINK);
		return common_fail(t, fi, what, NULL, p->path, -1, err);
	}
	t0 = thread_ticks(t);
	rc = make ? mkdirat(ent.dirfd, ent.name, 0755) :
	     unlinkat(ent.dirfd, ent.name, AT_REMOVEDIR);
	t1 = thread_ticks(t);
	err = errno;
	/* already as wanted: count it, the state is right now */
	if (rc < 0 && err != (make ? EEXIST : ENOENT)) {
		pick_release(set, e);
		fileset_leaf_path(fs, e, p->path);
		return common_fail(t, fi, what, NULL, p->path, -1, err);
	}
	pick_set_exists(set, e, make);
	pick_release(set, e);
	return common_record(t, fi, t0, t1, 0);
}

static enum flowop_result makedir_run(struct fb_thread *t, struct flowop_inst *fi)
{
	return leafdir_op(t, fi, true);
}

static enum flowop_result removedir_run(struct fb_thread *t, struct flowop_inst *fi)
{
	return leafdir_op(t, fi, false);
}

static enum flowop_result listdir_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct dir_priv *p = fi->priv;
	const struct fileset_state *fs = &t->filesets[fi->pf->fileset];
	const struct pick_set *set = &fs->dirs;
	uint64_t d, t0, t1, bytes = 0;
	enum flowop_result r;
	struct dirent *de;
	DIR *dir;
	int fd, err;

	r = slot_pick(t, fi->pf, set, PICK_WANT_ANY, 0, NULL, &d);
	if (r != FLOWOP_OK)
		return r;
	t0 = thread_ticks(t);
	fd = fsa_open_dir(fs, (uint32_t)d);
	dir = fd < 0 ? NULL : fdopendir(fd);
	if (dir) {
		errno = 0;
		while ((de = readdir(dir)))
			bytes += strlen(de->d_name) + sizeof(struct dirent) - 1;
		err = errno;
		closedir(dir);
	} else {
		err = errno;
		if (fd >= 0)
			close(fd);
	}
	t1 = thread_ticks(t);
	pick_release(set, d);
	if (!dir || err) {
		fileset_dir_path(fs, (uint32_t)d, p->path);
		if (err == ELOOP)
			return thread_refuse(t, fi, "list", p->path, THREAD_WHY_LINK);
		return common_fail(t, fi, dir ? "readdir" : "opendir", NULL, p->path, -1,
				   err);
	}
	return common_record(t, fi, t0, t1, bytes);
}

/* Its private state and path buffer (at most PATH_MAX bytes). */
static void dir_need(const struct plan *p, const struct plan_flowop *f,
		     struct flowop_need *n)
{
	(void)p;
	(void)f;
	n->mem = sizeof(struct dir_priv) + PATH_MAX;
}

/* makedir, removedir also keep the parent directory last used open. */
static void leafdir_need(const struct plan *p, const struct plan_flowop *f,
			 struct flowop_need *n)
{
	dir_need(p, f, n);
	n->fds = 1;
}

static const struct attr_spec leafdir_attrs[] = {
	ATTR_FILENAME, ATTR_INDEXED,
	{ NULL, 0, 0, NULL }
};

static const struct attr_spec listdir_attrs[] = {
	ATTR_FILENAME,
	{ NULL, 0, 0, NULL }
};

#define DIR_OP(nm, table, fn, needs, names)             \
	static const struct flowop_ops fo_##nm = {      \
		.name = #nm,                            \
		.changes_names = names,                 \
		.cls = FLOWOP_CLASS_IO,                 \
		.rw = FLOWOP_RW_NONE,                   \
		.attrs = table,                         \
		.validate = common_validate_file,       \
		.need = needs,                          \
		.init = dir_init,                       \
		.run = fn,                              \
		.fini = dir_fini,                       \
	}

DIR_OP(makedir, leafdir_attrs, makedir_run, leafdir_need, true);
DIR_OP(removedir, leafdir_attrs, removedir_run, leafdir_need, true);
DIR_OP(listdir, listdir_attrs, listdir_run, dir_need, false);

const struct flowop_ops *const flowops_dir[] = {
	&fo_makedir, &fo_removedir, &fo_listdir, NULL,
};
