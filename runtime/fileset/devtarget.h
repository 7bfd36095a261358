/*
 * devtarget.h - a `define device` of the plan made ready for a run, or
 * judged for `flowbench check`: its permission to write (the command
 * line's --write-device and --destroy-data), its region (a size or an
 * offset given as a percentage of the device, resolved now that its
 * size is known) and the held descriptor (blkdev.h).
 */
#ifndef FLOWBENCH_DEVTARGET_H
#define FLOWBENCH_DEVTARGET_H

#include <stdint.h>
#include <stdio.h>

#include "plan/plan.h"
#include "runtime/fileset/blkdev.h"

/*
 * Open device p->filesets[idx] for the run (for writing when a flowop
 * writes through it, or through another `define device` of the same
 * device, and the command line allows it, after every check) and resolve
 * its region [*base, *base + *len), both multiples of the logical block
 * size.  A device one of the `nheld` devices `held` holds already is
 * shared (a second exclusive open would fail).  0, or -1 after logging
 * the error, nothing held.
 */
int devtarget_open(const struct plan *p, int idx, const struct blkdev *const *held, int nheld,
		   struct blkdev *d, uint64_t *base, uint64_t *len);

/*
 * `flowbench check`: one line per device of the plan on `out`, what a
 * run would do with it: read it, write it, or refuse to write it and
 * why (found as the run would, nothing opened for writing).  The number
 * of devices a run would refuse.
 */
int devtarget_check(const struct plan *p, FILE *out);

#endif
