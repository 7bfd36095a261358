/*
 * threadfile.c - picking entries, the implicit open, the write check
 * (threadfile.h).
 */
#include "runtime/engine/threadfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include "runtime/base/clock.h"
#include "runtime/engine/thread.h"
#include "runtime/fileset/fileset.h"
#include "runtime/fileset/fsaccess.h"
#include "runtime/measure/stats.h"

enum flowop_result slot_pick(struct fb_thread *t, const struct plan_flowop *pf,
			     const struct pick_set *set, enum pick_want want,
			     unsigned flags, uint64_t *own, uint64_t *e)
{
	bool indexed = plan_attr_given(pf, PA_INDEXED);

	for (;;) {
		enum pick_rc rc;

		if (indexed) {
			int64_t v = thread_attr_int(t, pf, PA_INDEXED, 0);

			rc = pick_indexed(set, want, flags, v < 0 ? (uint64_t)-v : (uint64_t)v, e);
		} else {
			rc = pick_next(set, want, flags, own, e);
		}
		if (rc == PICK_OK)
			return FLOWOP_OK;
		if (rc == PICK_NONE)
			return FLOWOP_NORSC;
		/* every candidate is busy for a moment: let its owner finish */
		if (shared_halted(t->ctl))
			return FLOWOP_DONE;
		sched_yield();
	}
}

enum flowop_result slot_acquire_rr(struct fb_thread *t, struct flowop_inst *fi,
				   struct fb_slot *s, int flags, struct op_stats *rec,
				   uint64_t *own, int *opened)
{
	const struct plan_flowop *pf = fi->pf;
	const struct fileset_state *fs;
	const struct pick_set *files;
	char path[PATH_MAX];
	enum flowop_result r;
	uint64_t t0, t1, e;
	int fd, oflags;

	*opened = 0;
	if (pf->fileset < 0) {
		/* fd only: the file an earlier openfile/createfile left there */
		if (s->fd >= 0)
			return FLOWOP_OK;
		/* left closed by an open that failed (--keep-going) */
		if (t->op_failures && t->ctl->keep_going)
			return thread_op_failed(t, fi, FE_EBADF, "flowop %s: fd slot "
						"%d is not open", pf->name,
						(int)(s - t->slots));
		thread_fail(t, "flowop %s: fd slot %d holds no open file and the "
			    "flowop names no file (filename=...)", pf->name,
			    (int)(s - t->slots));
		return FLOWOP_ERROR;
	}
	fs = &t->filesets[pf->fileset];
	files = &fs->files;
	if (s->fd >= 0) {
		if (s->fileset == pf->fileset)
			return FLOWOP_OK;
		thread_fail(t, "flowop %s: fd slot %d holds a file of '%s', not of '%s'%s",
			    pf->name, (int)(s - t->slots),
			    t->filesets[s->fileset].pf->name, fs->pf->name,
			    s == &t->slots[0] ? " (too many flowops of this thread read or "
			    "write files of their own without fd=N: give them fd=N)" : "");
		return FLOWOP_ERROR;
	}
	r = slot_pick(t, pf, files, PICK_WANT_EXISTING, 0, own, &e);
	if (r != FLOWOP_OK)
		return r;
	oflags = slot_open_flags(fs->pf, flags);
	t0 = thread_ticks(t);
	fd = fsa_open_file(fs, e, oflags, 0);
	t1 = thread_ticks(t);
	if (fd < 0) {
		int err = errno;

		if (err == ENOENT)
			pick_set_exists(files, e, false);   /* removed behind our back */
		pick_release(files, e);
		fileset_file_path(fs, e, path);
		if (err == ELOOP)
			return thread_refuse(t, fi, "open", path, THREAD_WHY_LINK);
		if (err == EINVAL && (flags & O_DIRECT)) {
			thread_fail(t, "flowop %s: file system refuses O_DIRECT for %s",
				    pf->name, path);
			return FLOWOP_ERROR;
		}
		/* an op failure of the flowop that opens (--keep-going) */
		return thread_op_failed(t, fi, fo_err_kind_of(err),
					"flowop %s: open %s: %s", pf->name, path,
					strerror(err));
	}
	slot_attach(s, fd, pf->fileset, files, e, false);
	pick_release(files, e);
	*opened = 1;
	if (!thread_record(t, fi->stats, rec, t0, t1, 0))
		return FLOWOP_DONE;
	return FLOWOP_OK;
}

enum flowop_result slot_check_writable(struct fb_thread *t, const struct flowop_inst *fi,
				       struct fb_slot *s)
{
	const struct fileset_state *fs;
	char path[PATH_MAX], reason[160];
	const char *why;

	if (s->fd < 0 || s->fileset < 0)
		return FLOWOP_OK;       /* the write fails as it would (EBADF) */
	fs = &t->filesets[s->fileset];
	why = fsa_refusal_fd(fs, s->fd, reason, sizeof(reason));
	if (!why) {
		s->checked = true;
		return FLOWOP_OK;
	}
	fileset_file_path(fs, s->entry, path);
	return thread_refuse(t, fi, "write", path, why);
}
