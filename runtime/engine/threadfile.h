/*
 * threadfile.h - how a thread reaches the files its flowops work on:
 * picking an entry of a fileset (round robin or `indexed`, waiting while
 * every candidate is busy), the implicit open of the flowops that work on
 * "the slot's file" (read, write, readwholefile, ...), and the check that
 * a slot's file is flowbench's before the first write through it.
 */
#ifndef FLOWBENCH_THREADFILE_H
#define FLOWBENCH_THREADFILE_H

#include <stdbool.h>
#include <stdint.h>

#include "plan/flowop.h"
#include "runtime/engine/slot.h"
#include "runtime/fileset/pick.h"

struct fb_thread;
struct op_stats;

/*
 * Pick an entry of `set` for flowop `pf` in state `want`: by its
 * `indexed` attribute if given, else round robin from the shared rotor
 * (or *own, a flowop's private rotor).  While every candidate is busy it
 * yields and retries, giving up when the run halts.  FLOWOP_OK (*e is busy
 * for the caller, who must pick_release() it), FLOWOP_NORSC, or FLOWOP_DONE.
 */
enum flowop_result slot_pick(struct fb_thread *t, const struct plan_flowop *pf,
			     const struct pick_set *set, enum pick_want want,
			     unsigned flags, uint64_t *own, uint64_t *e);

/*
 * Make slot `s` ready for flowop `fi` (the implicit open of read, write,
 * readwholefile, ...): if it is closed, pick an existing file of the
 * flowop's fileset and open it with the fileset's access mode plus
 * `flags`, timing the open into `rec` (its own op, never a read or a
 * write).  A slot holding a file of another fileset is an error.
 * Returns FLOWOP_OK, FLOWOP_ERROR (error text set), FLOWOP_FAILED (the open
 * failed and was counted: --keep-going), FLOWOP_NORSC (no file) or FLOWOP_DONE
 * (the open ended after the deadline: not counted, the thread stops). *opened
 * tells whether an open happened.  `own` is an opennext rotor or NULL.
 */
enum flowop_result slot_acquire_rr(struct fb_thread *t, struct flowop_inst *fi,
				   struct fb_slot *s, int flags, struct op_stats *rec,
				   uint64_t *own, int *opened);

/*
 * Flowop `fi` is about to write through slot `s`: FLOWOP_OK if its file is
 * ours (checked once per open), else the run's refusal (FLOWOP_ERROR).
 */
enum flowop_result slot_check_writable(struct fb_thread *t, const struct flowop_inst *fi,
				       struct fb_slot *s);

static inline enum flowop_result slot_writable(struct fb_thread *t,
					       const struct flowop_inst *fi,
					       struct fb_slot *s)
{
	if (__builtin_expect(s->checked, 1))
		return FLOWOP_OK;
	return slot_check_writable(t, fi, s);
}

static inline enum flowop_result slot_acquire(struct fb_thread *t,
					      struct flowop_inst *fi,
					      struct fb_slot *s, int flags,
					      struct op_stats *rec, int *opened)
{
	return slot_acquire_rr(t, fi, s, flags, rec, NULL, opened);
}

#endif
