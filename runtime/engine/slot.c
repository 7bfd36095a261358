/*
 * slot.c - fd slots: what file a slot holds, and its open counts in the
 * fileset's shared state (runtime/engine/threadfile.c picks and opens).
 */
#include "runtime/engine/slot.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

void slot_init_all(struct fb_slot *slots)
{
	for (int i = 0; i < FB_ALL_SLOTS; i++) {
		memset(&slots[i], 0, sizeof(slots[i]));
		slots[i].fd = -1;
		slots[i].fileset = -1;
	}
}

void slot_close_all(struct fb_slot *slots)
{
	for (int i = 0; i < FB_ALL_SLOTS; i++) {
		if (slots[i].fd >= 0)
			slot_detach(&slots[i]);
	}
}

void slot_attach(struct fb_slot *s, int fd, int fsi, const struct pick_set *files,
		 uint64_t e, bool created)
{
	s->fd = fd;
	s->checked = created;
	s->fileset = fsi;
	s->entry = e;
	s->files = files;
	s->offset = 0;
	s->gen++;
	pick_open_inc(files, e);
}

int slot_detach(struct fb_slot *s)
{
	int rc = close(s->fd);

	s->fd = -1;
	if (s->files)
		pick_open_dec(s->files, s->entry);
	return rc;
}

int slot_open_flags(const struct plan_fileset *pf, int extra)
{
	int acc = pf->readonly ? O_RDONLY : pf->writeonly ? O_WRONLY : O_RDWR;

	return acc | extra | O_CLOEXEC;
}
