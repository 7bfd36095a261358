/*
 * slot.h - a thread's file descriptor slots (WML's `fd` attribute).
 *
 * Every thread instance has FB_FD_SLOTS slots.  A flowop works on slot
 * `fd` if that attribute is > 0, else on slot 0.  A slot stays open from
 * its first (implicit or explicit) open until the thread ends or a
 * closefile closes it, and remembers which file and fileset it holds and
 * the sequential offset.
 */
#ifndef FLOWBENCH_SLOT_H
#define FLOWBENCH_SLOT_H

#include <stdint.h>

#include "flowops/flowop.h"

#define FB_FD_SLOTS 128

struct fs_file;
struct op_stats;

struct fb_slot {
	int fd;                       /* -1 while closed */
	int fileset;                  /* of the file last opened here, -1 if none */
	const struct fs_file *file;
	uint64_t offset;              /* next sequential offset */
};

/* The slot flowop `pf` uses: its `fd` attribute if > 0, else 0. */
static inline int slot_index(const struct plan_flowop *pf)
{
	int64_t fd = plan_attr_int(pf, FA_FD, 0);

	return fd > 0 ? (int)fd : 0;
}

void slot_init_all(struct fb_slot *slots);
void slot_close_all(struct fb_slot *slots);

/*
 * Make slot `s` ready for flowop `fi`: if it is closed, pick an existing
 * file of the flowop's fileset and open it with the fileset's access mode
 * plus `flags` (O_DIRECT, O_DSYNC, ...), timing the open into `rec` (the
 * open is an op of its own).  If the slot already holds a file of another
 * fileset that is an error.  Returns FO_OK, FO_ERROR (error text set),
 * FO_NORSC (no file to open) or FO_DONE (the open ended after the
 * deadline: not counted, the thread stops).  *opened tells whether an
 * open happened (so the caller can apply per-open advice).
 */
enum fo_result slot_acquire(struct fb_thread *t, struct flowop_inst *fi,
			    struct fb_slot *s, int flags, struct op_stats *rec,
			    int *opened);

#endif
