/*
 * slot.h - a thread's file descriptor slots (WML's `fd` attribute).
 *
 * Every thread instance has FB_FD_SLOTS slots.  A flowop works on slot
 * `fd` if that attribute is > 0, else on slot 0 (or, with `opennext`, on
 * a rotating slot).  A slot stays open from its first (implicit or
 * explicit) open until the thread ends or a closefile closes it.  It
 * remembers which file (fileset and entry) it held even after closefile:
 * deletefile fd=, writewholefile srcfd= and fsyncset use that reference.
 *
 * Behind the FB_FD_SLOTS slots a script can name, a thread has
 * FB_OWN_SLOTS more: a flowop that reads or writes a file of its own
 * (filename=) without `fd` normally shares slot 0, but when slot 0 holds
 * a file of another fileset it takes one of these for good, so that
 * several such flowops in one thread (tpcso.f reads 30 files) each work
 * on their own file (flowops/common.h, common_slot()).
 *
 * Nothing is written through a slot before its open file was checked to
 * be flowbench's (runtime/fileset/fsaccess.h): a regular file with at most one
 * link, owned by the tree's owner, so a hard link planted in the tree is
 * never written.  The check is one fstat at the first write after each
 * open (slot_writable() in threadfile.h), not at the open: an open that only reads costs
 * nothing more, and a file created with O_EXCL needs none.
 */
#ifndef FLOWBENCH_SLOT_H
#define FLOWBENCH_SLOT_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/flowop.h"
#include "runtime/fileset/pick.h"

#define FB_FD_SLOTS 128
#define FB_OWN_SLOTS 64
#define FB_ALL_SLOTS (FB_FD_SLOTS + FB_OWN_SLOTS)

struct op_stats;

struct fb_slot {
	int fd;                       /* -1 while closed */
	int fileset;                  /* of the file held (or last held), -1 if none */
	uint64_t entry;               /* that file's index in its fileset */
	const struct pick_set *files; /* its fileset's shared state (open counts) */
	uint64_t offset;              /* next sequential offset */
	uint32_t gen;                 /* bumped at every open (caches key on it) */
	bool checked;                 /* its file was found to be ours since the
					 open (slot_writable()) */
};

/* The slot flowop `pf` uses: its `fd` attribute if > 0, else 0. */
static inline int slot_index(const struct plan_flowop *pf)
{
	int64_t fd = plan_attr_int(pf, PA_FD, 0);

	return fd > 0 ? (int)fd : 0;
}

static inline bool slot_has_ref(const struct fb_slot *s)
{
	return s->fileset >= 0;
}

/* `slots` has FB_ALL_SLOTS entries (a thread's `slots` array). */
void slot_init_all(struct fb_slot *slots);
/* Close every open slot (end of the thread), keeping open counts right. */
void slot_close_all(struct fb_slot *slots);

/*
 * Record that `fd` now holds file `e` of fileset `fsi` (open count + 1).
 * `created`: the open made the file (O_EXCL), so it is ours unchecked.
 */
void slot_attach(struct fb_slot *s, int fd, int fsi, const struct pick_set *files,
		 uint64_t e, bool created);
/* Close the slot's descriptor; the file reference stays.  close()'s result. */
int slot_detach(struct fb_slot *s);

/* open(2) flags for a file of fileset `pf` plus `extra`. */
int slot_open_flags(const struct plan_fileset *pf, int extra);

#endif
