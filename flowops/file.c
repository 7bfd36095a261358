/*
 * file.c - flowops on whole files: openfile, createfile, closefile,
 * deletefile, statfile, fsync, fsyncset (WML reference 4.5-4.11).
 *
 * Files are picked through the fileset's shared state (runtime/fileset/pick.h):
 * round robin from the shared rotor (or the flowop's own with opennext),
 * or by `indexed`.  The picked file is busy only while the flowop works
 * on it.  Each flowop records one op of 0 bytes per system call it times
 * (fsyncset: one per fsync), never a read or a write.
 *
 * Differences from filebench (docs/differences.md): deletefile never
 * deletes a file open in some slot; it deletes another one, and returns
 * "no resource" only when every existing file is open.  fsyncset syncs
 * only slots that are open.  A failed stat is an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
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

struct file_priv {
	struct common_slotsel sel;
	struct fsa_dircache dirs;  /* deletefile: the directory last used */
	int oflags;             /* O_DIRECT, O_SYNC */
	bool noreadahead;
	char *path;             /* fileset_path_max() bytes */
};

static int file_init(struct fb_thread *t, struct flowop_inst *fi)
{
	const struct plan_flowop *pf = fi->pf;
	struct file_priv *p = calloc(1, sizeof(*p));
	size_t plen = 4096;

	if (p && pf->fileset >= 0)
		plen = fileset_path_max(&t->filesets[pf->fileset]);
	if (!p || !(p->path = malloc(plen))) {
		free(p);
		thread_fail(t, "flowop %s: out of memory", pf->name);
		return FLOWOP_ERROR;
	}
	fi->priv = p;
	fsa_dircache_init(&p->dirs);
	common_slotsel_init(&p->sel, pf);
	p->oflags = common_open_flags(pf);
	p->noreadahead = plan_attr_bool(pf, COMMON_NOREADAHEAD, false);
	return 0;
}

static void file_fini(struct fb_thread *t, struct flowop_inst *fi)
{
	struct file_priv *p = fi->priv;

	(void)t;
	if (p) {
		fsa_dircache_close(&p->dirs);
		free(p->path);
	}
	free(p);
	fi->priv = NULL;
}

static enum flowop_result slot_busy(struct fb_thread *t, struct flowop_inst *fi,
				    const struct fb_slot *s)
{
	thread_fail(t, "flowop %s: fd slot %d is already open (close it first)",
		    fi->pf->name, (int)(s - t->slots));
	return FLOWOP_ERROR;
}

static enum flowop_result slot_closed(struct fb_thread *t, struct flowop_inst *fi,
				      const struct fb_slot *s)
{
	return common_slot_not_open(t, fi, s);
}

/*
 * An open or create of file e failed with `err`: release it and report.
 * A missing file is marked absent (it was removed behind our back, and a
 * createfile may make it again); a symbolic link on the way stops the run.
 */
static enum flowop_result open_failed(struct fb_thread *t, struct flowop_inst *fi,
				      struct file_priv *p,
				      const struct fileset_state *fs,
				      uint64_t e, const char *what, int err)
{
	if (err == ENOENT && !strcmp(what, "open"))
		pick_set_exists(&fs->files, e, false);
	pick_release(&fs->files, e);
	fileset_file_path(fs, e, p->path);
	if (err == ELOOP)
		return thread_refuse(t, fi, what, p->path, THREAD_WHY_LINK);
	if (err == EINVAL && (p->oflags & O_DIRECT))
		return common_fail_fatal(t, fi, !strcmp(what, "open") ?
					 "O_DIRECT refused: open" :
					 "O_DIRECT refused: create",
					 NULL, p->path, -1, err);
	return common_fail(t, fi, what, NULL, p->path, -1, err);
}

/*
 * After a successful open of file e into s: attach (`created`: made by
 * this open, so known to be ours; else checked before its first write,
 * runtime/engine/slot.h), release, advise, record.
 */
static enum flowop_result opened(struct fb_thread *t, struct flowop_inst *fi,
				 struct file_priv *p, struct fb_slot *s, uint64_t e,
				 int fd, bool created, uint64_t t0, uint64_t t1)
{
	const struct fileset_state *fs = &t->filesets[fi->pf->fileset];

	slot_attach(s, fd, fi->pf->fileset, &fs->files, e, created);
	pick_release(&fs->files, e);
	if (p->noreadahead)
		posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	return common_record(t, fi, t0, t1, 0);
}

static enum flowop_result openfile_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct file_priv *p = fi->priv;
	struct fb_slot *s = common_slot(t, &p->sel);
	const struct fileset_state *fs = &t->filesets[fi->pf->fileset];
	enum flowop_result r;
	uint64_t e, t0, t1;
	int fd, flags;

	if (s->fd >= 0)
		return slot_busy(t, fi, s);
	flags = slot_open_flags(fs->pf, p->oflags);
	r = slot_pick(t, fi->pf, &fs->files, PICK_WANT_EXISTING, 0,
		      common_rotor(&p->sel), &e);
	if (r != FLOWOP_OK)
		return r;
	t0 = thread_ticks(t);
	fd = fsa_open_file(fs, e, flags, 0);
	t1 = thread_ticks(t);
	if (fd < 0)
		return open_failed(t, fi, p, fs, e, "open", errno);
	return opened(t, fi, p, s, e, fd, false, t0, t1);
}

static enum flowop_result createfile_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct file_priv *p = fi->priv;
	struct fb_slot *s = common_slot(t, &p->sel);
	const struct fileset_state *fs = &t->filesets[fi->pf->fileset];
	int flags = slot_open_flags(fs->pf, p->oflags);
	enum flowop_result r;
	uint64_t e, t0, t1;
	bool created;
	int fd;

	if (s->fd >= 0)
		return slot_busy(t, fi, s);
	r = slot_pick(t, fi->pf, &fs->files, PICK_WANT_ABSENT, 0, NULL, &e);
	if (r != FLOWOP_OK)
		return r;
	t0 = thread_ticks(t);
	fd = fsa_create_file(fs, e, flags, 0666, &created);
	t1 = thread_ticks(t);
	if (fd < 0)
		return open_failed(t, fi, p, fs, e, "create", errno);
	pick_set_exists(&fs->files, e, true);
	return opened(t, fi, p, s, e, fd, created, t0, t1);
}

static enum flowop_result closefile_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct file_priv *p = fi->priv;
	struct fb_slot *s = common_slot(t, &p->sel);
	uint64_t t0, t1;
	int rc;

	if (s->fd < 0)
		return slot_closed(t, fi, s);
	t0 = thread_ticks(t);
	rc = slot_detach(s);
	t1 = thread_ticks(t);
	if (rc < 0)
		return common_fail(t, fi, "close", s, NULL, -1, errno);
	return common_record(t, fi, t0, t1, 0);
}

/*
 * deletefile fd=N: the file slot N holds or held, if it can be deleted
 * (it still exists and no other slot has it open).  Claims it busy
 * (waiting for a current user) and returns true.
 */
static bool claim_slot_file(struct fb_thread *t, const struct fileset_state *fs,
			    struct fb_slot *s, uint64_t *e)
{
	while (!pick_claim(&fs->files, s->entry)) {
		if (shared_halted(t->ctl))
			return false;
		sched_yield();
	}
	if (pick_exists(&fs->files, s->entry) &&
	    pick_open_count(&fs->files, s->entry) <= (s->fd >= 0 ? 1u : 0u)) {
		*e = s->entry;
		if (s->fd < 0)
			s->fileset = -1;      /* the reference is used up */
		return true;
	}
	pick_release(&fs->files, s->entry);
	return false;
}

static enum flowop_result deletefile_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct file_priv *p = fi->priv;
	const struct plan_flowop *pf = fi->pf;
	struct fb_slot *s = p->sel.fixed > 0 ? &t->slots[p->sel.fixed] : NULL;
	int set = common_fileset(fi, s);
	const struct fileset_state *fs;
	struct fsa_entry ent;
	uint64_t e, t0 = 0, t1 = 0;
	int rc;

	if (set < 0) {
		thread_fail(t, "flowop %s: fd slot %d holds no file to delete (nothing "
			    "was opened in it, or its file was deleted already) and the "
			    "flowop names no fileset", pf->name, p->sel.fixed);
		return FLOWOP_ERROR;
	}
	fs = &t->filesets[set];
	if (!(s && s->fileset == set && claim_slot_file(t, fs, s, &e))) {
		/*
		 * No slot reference, or its file is gone or open elsewhere
		 * (another thread picked the same file): delete another file
		 * of the same fileset, as without fd.
		 */
		enum flowop_result r = slot_pick(t, pf, &fs->files, PICK_WANT_EXISTING,
						 PICK_NOT_OPEN, NULL, &e);

		if (r != FLOWOP_OK)
			return r;
	}
	if (fsa_reach_file(fs, e, &p->dirs, &ent) < 0) {
		rc = -1;
	} else {
		t0 = thread_ticks(t);
		rc = unlinkat(ent.dirfd, ent.name, 0);
		t1 = thread_ticks(t);
	}
	if (rc < 0) {
		int err = errno;

		if (err == ENOENT)       /* removed behind our back: it is absent */
			pick_set_exists(&fs->files, e, false);
		pick_release(&fs->files, e);
		fileset_file_path(fs, e, p->path);
		if (err == ELOOP)
			return thread_refuse(t, fi, "remove", p->path, THREAD_WHY_LINK);
		return common_fail(t, fi, "unlink", NULL, p->path, -1, err);
	}
	pick_set_exists(&fs->files, e, false);
	pick_release(&fs->files, e);
	return common_record(t, fi, t0, t1, 0);
}

static enum flowop_result statfile_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct file_priv *p = fi->priv;
	const struct plan_flowop *pf = fi->pf;
	struct fb_slot *s = p->sel.fixed > 0 ? &t->slots[p->sel.fixed] : NULL;
	const struct fileset_state *fs;
	struct stat st;
	uint64_t e, t0, t1;
	int rc;

	if (s && s->fd >= 0) {
		t0 = thread_ticks(t);
		rc = fstat(s->fd, &st);
		t1 = thread_ticks(t);
		if (rc < 0)
			return common_fail(t, fi, "fstat", s, NULL, -1, errno);
	} else {
		enum flowop_result r;

		if (pf->fileset < 0)
			return slot_closed(t, fi, s);
		fs = &t->filesets[pf->fileset];
		r = slot_pick(t, pf, &fs->files, PICK_WANT_EXISTING, 0, NULL, &e);

		if (r != FLOWOP_OK)
			return r;
		t0 = thread_ticks(t);
		rc = fsa_stat_file(fs, e, &st);
		t1 = thread_ticks(t);
		if (rc < 0) {
			int err = errno;

			if (err == ENOENT)
				pick_set_exists(&fs->files, e, false);
			pick_release(&fs->files, e);
			fileset_file_path(fs, e, p->path);
			return common_fail(t, fi, "stat", NULL, p->path, -1, err);
		}
		pick_release(&fs->files, e);
	}
	return common_record(t, fi, t0, t1, 0);
}

static enum flowop_result fsync_run(struct fb_thread *t, struct flowop_inst *fi)
{
	struct file_priv *p = fi->priv;
	struct fb_slot *s = common_slot(t, &p->sel);
	uint64_t t0, t1;
	int rc;

	if (s->fd < 0)
		return slot_closed(t, fi, s);
	t0 = thread_ticks(t);
	rc = fsync(s->fd);
	t1 = thread_ticks(t);
	if (rc < 0)
		return common_fail(t, fi, "fsync", s, NULL, -1, errno);
	return common_record(t, fi, t0, t1, 0);
}

/* fsync every open slot holding a file of the flowop's fileset: one op each. */
static enum flowop_result fsyncset_run(struct fb_thread *t, struct flowop_inst *fi)
{
	for (int i = 0; i < FB_ALL_SLOTS; i++) {
		struct fb_slot *s = &t->slots[i];
		uint64_t t0, t1;
		int rc;

		if (s->fd < 0 || s->fileset != fi->pf->fileset)
			continue;
		t0 = thread_ticks(t);
		rc = fsync(s->fd);
		t1 = thread_ticks(t);
		if (rc < 0)
			return common_fail(t, fi, "fsync", s, NULL, -1, errno);
		if (!thread_record(t, fi->stats, &fi->stats->op, t0, t1, 0))
			return FLOWOP_DONE;
	}
	return FLOWOP_OK;
}

/*
 * Its private state and path buffer (fileset_path_max() bytes: at most
 * PATH_MAX), and the fd slots it may hold.
 */
static void file_need(const struct plan *p, const struct plan_flowop *f,
		      struct flowop_need *n)
{
	(void)p;
	n->mem = sizeof(struct file_priv) + PATH_MAX;
	common_need_slot(f, n);
}

/* deletefile also keeps the directory it last deleted in open. */
static void deletefile_need(const struct plan *p, const struct plan_flowop *f,
			    struct flowop_need *n)
{
	file_need(p, f, n);
	n->fds = 1;
}

/* fsyncset syncs the slots other flowops opened: none of its own. */
static void fsyncset_need(const struct plan *p, const struct plan_flowop *f,
			  struct flowop_need *n)
{
	(void)p;
	(void)f;
	n->mem = sizeof(struct file_priv) + PATH_MAX;
}

/* openfile, createfile */
static const struct attr_spec open_attrs[] = {
	ATTR_FILENAME, ATTR_FD, COMMON_ATTR_OPENNEXT, ATTR_INDEXED, COMMON_ATTR_DSYNC,
	COMMON_ATTR_DIRECTIO, COMMON_ATTR_NOREADAHEAD,
	{ "iosize", T_SIZE_RV, COMMON_IOSIZE,
	  "accepted for filebench's scripts; no effect" },
	{ NULL, 0, 0, NULL }
};

/* closefile, fsync: the slot's file */
static const struct attr_spec slot_attrs[] = {
	ATTR_FILENAME, ATTR_FD, COMMON_ATTR_OPENNEXT,
	{ "iosize", T_SIZE_RV, COMMON_IOSIZE,
	  "accepted for filebench's scripts; no effect" },
	{ NULL, 0, 0, NULL }
};

/* deletefile, statfile: a picked file, or the one slot `fd` held */
static const struct attr_spec pick_attrs[] = {
	ATTR_FILENAME, ATTR_FD, ATTR_INDEXED,
	{ "iosize", T_SIZE_RV, COMMON_IOSIZE,
	  "accepted for filebench's scripts; no effect" },
	{ NULL, 0, 0, NULL }
};

static const struct attr_spec fsyncset_attrs[] = {
	ATTR_FILENAME,
	{ NULL, 0, 0, NULL }
};

/* dev: it may work on a block device (`define device`): no names, no paths */
#define FILE_OP(nm, table, fn, val, needs, names, dev)  \
	static const struct flowop_ops fo_##nm = {      \
		.name = #nm,                            \
		.changes_names = names,                 \
		.on_device = dev,                       \
		.cls = FLOWOP_CLASS_IO,                 \
		.rw = FLOWOP_RW_NONE,                   \
		.attrs = table,                         \
		.nattr = COMMON_OWN,                    \
		.validate = val,                        \
		.need = needs,                          \
		.init = file_init,                      \
		.run = fn,                              \
		.fini = file_fini,                      \
	}

FILE_OP(openfile, open_attrs, openfile_run, common_validate_file, file_need, false,
	true);
FILE_OP(createfile, open_attrs, createfile_run, common_validate_file, file_need, true,
	false);
FILE_OP(closefile, slot_attrs, closefile_run, common_validate_slot, file_need, false,
	true);
FILE_OP(deletefile, pick_attrs, deletefile_run, common_validate_file_or_fd,
	deletefile_need, true, false);
FILE_OP(statfile, pick_attrs, statfile_run, common_validate_file_or_fd, file_need,
	false, false);
FILE_OP(fsync, slot_attrs, fsync_run, common_validate_slot, file_need, false, true);
FILE_OP(fsyncset, fsyncset_attrs, fsyncset_run, common_validate_file, fsyncset_need,
	false, true);

const struct flowop_ops *const flowops_file[] = {
	&fo_openfile, &fo_createfile, &fo_closefile, &fo_deletefile,
	&fo_statfile, &fo_fsync, &fo_fsyncset, NULL,
};
