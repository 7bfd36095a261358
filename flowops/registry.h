/*
 * registry.h - the flowop families, and the registry they make.
 *
 * Each family file (io.c, file.c, ...) exports one NULL-terminated table
 * of its flowops, flowops_<family>[].  FLOWOPS_FAMILIES lists the families
 * once and yields both the tables' declarations (here) and the registry
 * (registry.c): adding a family is its own file, one line below, and its
 * row in docs/architecture.md.  The registry is a value (struct
 * flowop_registry, plan/flowop.h) that the command line hands to the
 * compiler (compile_options); no layer below it names this file.
 */
#ifndef FLOWBENCH_FLOWOPS_REGISTRY_H
#define FLOWBENCH_FLOWOPS_REGISTRY_H

#include "plan/flowop.h"

/*
 * Every family, in the order the registry walks (and suggests) their
 * flowops: a new one is one more line before the end.
 */
#define FLOWOPS_FAMILIES(X)                                                 \
	X(io)           /* read, write */                                   \
	X(file)         /* open/create/close/delete/stat/fsync */           \
	X(wholefile)    /* read/writewholefile, append* */                  \
	X(dir)          /* makedir, removedir, listdir */                   \
	X(rate)         /* eventlimit, iops/ops/bwlimit */                  \
	X(finish)       /* finishoncount, finishonbytes */                  \
	X(misc)         /* delay, hog, print, testrandvar */                \
	X(sync)         /* block, wakeup, semblock, sempost */              \
	X(aio)          /* aiowrite, aioread, aiowait */                    \
	/* the end of the list */

#define FLOWOPS_FAMILY_TABLE(family) \
	extern const struct flowop_ops *const flowops_##family[];
FLOWOPS_FAMILIES(FLOWOPS_FAMILY_TABLE)
#undef FLOWOPS_FAMILY_TABLE

/* The ops of a composite invocation (composite.c): not reachable by name. */
extern const struct flowop_ops flowops_composite;
/* The ops of a choice, a composite defined with `choose` (choice.c). */
extern const struct flowop_ops flowops_choice;

/* Every family's flowops by name, and the composite's and choice's ops. */
extern const struct flowop_registry flowops_registry;

#endif
