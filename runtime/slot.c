/*
 * slot.c - opening files into fd slots (the implicit open of read/write,
 * and later openfile/closefile).
 */
#include "runtime/slot.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "runtime/clock.h"
#include "runtime/fileset.h"
#include "runtime/stats.h"
#include "runtime/thread.h"

void slot_init_all(struct fb_slot *slots)
{
	for (int i = 0; i < FB_FD_SLOTS; i++) {
		slots[i].fd = -1;
		slots[i].fileset = -1;
		slots[i].file = NULL;
		slots[i].offset = 0;
	}
}

void slot_close_all(struct fb_slot *slots)
{
	for (int i = 0; i < FB_FD_SLOTS; i++) {
		if (slots[i].fd >= 0)
			close(slots[i].fd);
		slots[i].fd = -1;
	}
}

enum fo_result slot_acquire(struct fb_thread *t, struct flowop_inst *fi,
			    struct fb_slot *s, int flags, struct op_stats *rec,
			    int *opened)
{
	const struct plan_flowop *pf = fi->pf;
	const struct fs_state *fs = &t->filesets[pf->fileset];
	const struct fs_file *file;
	uint64_t t0, t1;
	int acc, fd;

	*opened = 0;
	if (s->fd >= 0) {
		if (s->fileset == pf->fileset)
			return FO_OK;
		thread_fail(t, "flowop %s: fd slot %d holds a file of '%s', not of '%s'",
			    pf->name, (int)(s - t->slots),
			    t->filesets[s->fileset].pf->name, fs->pf->name);
		return FO_ERROR;
	}
	file = fileset_pick_existing(fs);
	if (!file)
		return FO_NORSC;
	acc = fs->pf->readonly ? O_RDONLY : fs->pf->writeonly ? O_WRONLY : O_RDWR;
	t0 = thread_ticks(t);
	fd = open(file->path, acc | flags | O_CLOEXEC);
	t1 = thread_ticks(t);
	if (fd < 0) {
		if (errno == EINVAL && (flags & O_DIRECT))
			thread_fail(t, "flowop %s: file system refuses O_DIRECT for %s",
				    pf->name, file->path);
		else
			thread_fail(t, "flowop %s: open %s: %s", pf->name, file->path,
				    strerror(errno));
		return FO_ERROR;
	}
	s->fd = fd;
	s->fileset = pf->fileset;
	s->file = file;
	s->offset = 0;
	*opened = 1;
	if (!thread_record(t, fi->stats, rec, t0, t1, 0))
		return FO_DONE;
	return FO_OK;
}
