/*
 * common.h - what the file-based flowop families share: choosing the fd
 * slot (`fd`, `opennext`), failing with a message that names the flowop,
 * the path and the reason (and counting the failure: --keep-going), the
 * compile-time checks of `fd`/`srcfd`, the attributes the file-based
 * families declare alike (their index constants and table entries) and
 * what a flowop's slot use adds to its need (plan/flowop.h).
 */
#ifndef FLOWBENCH_FLOWOPS_COMMON_H
#define FLOWBENCH_FLOWOPS_COMMON_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/flowop.h"
#include "runtime/engine/slot.h"
#include "runtime/engine/thread.h"
#include "runtime/engine/threadfile.h"

/*
 * The attributes the file-based families (file.c, wholefile.c, io.c,
 * aio.c) read alike, numbered after the ones every stage knows; each
 * family numbers its own from COMMON_OWN, and sets flowop_ops.nattr to its
 * whole range (its init reads these for every flowop of the family,
 * whether the flowop takes them or not: unset then).
 */
enum common_attr {
	COMMON_OPENNEXT = PA_OWN, /* fd slot rotation (common_slotsel_init()) */
	COMMON_DSYNC,             /* O_SYNC (common_open_flags()) */
	COMMON_DIRECTIO,          /* O_DIRECT (common_open_flags()) */
	COMMON_NOREADAHEAD,       /* posix_fadvise(POSIX_FADV_RANDOM) after an open */
	COMMON_IOSIZE,            /* bytes per op or chunk */
	COMMON_WORKINGSET,        /* bytes of the file it works on */
	COMMON_SRCFD,             /* writewholefile: the slot giving the size */
	COMMON_OWN                /* a file-based family's own attributes from here */
};

#define COMMON_ATTR_OPENNEXT                                            \
	{ "opennext", T_BOOL, COMMON_OPENNEXT,                          \
	  "rotate through the fd slots and open the next file in each" }
#define COMMON_ATTR_DSYNC                                               \
	{ "dsync", T_BOOL, COMMON_DSYNC, "open with O_SYNC" }
#define COMMON_ATTR_DIRECTIO                                            \
	{ "directio", T_BOOL, COMMON_DIRECTIO, "open with O_DIRECT" }
#define COMMON_ATTR_NOREADAHEAD                                         \
	{ "noreadahead", T_BOOL, COMMON_NOREADAHEAD,                    \
	  "posix_fadvise(POSIX_FADV_RANDOM) after the open" }
#define COMMON_ATTR_IOSIZE                                              \
	{ "iosize", T_SIZE_RV, COMMON_IOSIZE, "bytes per op (or chunk)" }
#define COMMON_ATTR_WORKINGSET                                          \
	{ "workingset", T_SIZE, COMMON_WORKINGSET,                      \
	  "bytes of the file it works on (0: the file's size)" }
#define COMMON_ATTR_SRCFD                                               \
	{ "srcfd", T_SIZE, COMMON_SRCFD,                                \
	  "the fd slot whose file's size it writes" }

/*
 * Which slot a flowop works on: `fd` if > 0; else with `opennext` a
 * rotor private to the flowop statement in this thread (127, 126, ...,
 * 0, 127, ...), which also keeps its own file rotor; else slot 0.
 *
 * A flowop that reads or writes a file it names itself, without `fd`,
 * may own a private slot instead of slot 0 (runtime/engine/slot.h): it takes one
 * the first time it finds slot 0 holding a file of another fileset, and
 * keeps it.  filebench would read or write slot 0's file, whatever the
 * flowop names; without this, the second such flowop would fail.
 */
struct common_slotsel {
	/* what common_slot() reads at every op: the first 14 bytes */
	int fixed;
	int own;               /* its private slot (>= FB_FD_SLOTS), 0: none yet */
	int fileset;           /* the flowop's fileset */
	bool opennext;
	bool may_own;          /* reads/writes its own file, no fd, no opennext */
	/* opennext only */
	int rotor;
	uint64_t file_rotor;
};
/* The end of what every op reads (struct io_priv places it in its first line). */
#define COMMON_SLOTSEL_HOT_END \
	(__builtin_offsetof(struct common_slotsel, may_own) + 1)

void common_slotsel_init(struct common_slotsel *sel, const struct plan_flowop *pf);

/* Slot 0 holds another fileset's file: take a private slot if one is left. */
struct fb_slot *common_slot_own(struct fb_thread *t, struct common_slotsel *sel);

static inline struct fb_slot *common_slot(struct fb_thread *t,
					  struct common_slotsel *sel)
{
	int i = sel->fixed;

	if (sel->opennext) {
		i = sel->rotor;
		sel->rotor = i ? i - 1 : FB_FD_SLOTS - 1;
	} else if (sel->may_own) {
		if (sel->own)
			return &t->slots[sel->own];
		if (__builtin_expect(t->slots[0].fd >= 0 &&
				     t->slots[0].fileset != sel->fileset, 0))
			return common_slot_own(t, sel);
	}
	return &t->slots[i];
}

/*
 * The fileset a flowop works on: its filename's, or for a flowop given
 * only `fd`, the one of the file its slot holds; -1 if neither.
 */
static inline int common_fileset(const struct flowop_inst *fi,
				 const struct fb_slot *s)
{
	return fi->pf->fileset >= 0 ? fi->pf->fileset : s ? s->fileset : -1;
}

/*
 * The open flags a flowop's attributes ask for: O_DIRECT (directio) and
 * O_SYNC (dsync: data and metadata reach the disk per write, as filebench).
 */
static inline int common_open_flags(const struct plan_flowop *pf)
{
	return (plan_attr_bool(pf, COMMON_DIRECTIO, false) ? O_DIRECT : 0) |
	       (plan_attr_bool(pf, COMMON_DSYNC, false) ? O_SYNC : 0);
}

/*
 * Count the flowop's op from t0 to t1: FLOWOP_OK, or FLOWOP_DONE past the
 * deadline.  Always inlined, as thread_record() is (hot path).
 */
static inline __attribute__((always_inline)) enum flowop_result
common_record(struct fb_thread *t, struct flowop_inst *fi, uint64_t t0,
	      uint64_t t1, uint64_t bytes)
{
	return thread_record(t, fi->stats, &fi->stats->op, t0, t1, bytes) ?
	       FLOWOP_OK : FLOWOP_DONE;
}

/* The opennext file rotor, or NULL for the fileset's shared rotor. */
static inline uint64_t *common_rotor(struct common_slotsel *sel)
{
	return sel->opennext ? &sel->file_rotor : NULL;
}

/*
 * An op failed (a system call's error, a short transfer): count it in
 * the flowop's statistics (kind of errno `err`) and, without
 * --keep-going, fail the run with "flowop NAME: WHAT PATH: strerror(err)",
 * PATH being the slot's file (s != NULL) or `path`; `off` >= 0 adds
 * " at offset N".  Returns FLOWOP_FAILED (--keep-going) or FLOWOP_ERROR: return
 * it from run().  thread_op_failed() (runtime/engine/thread.h) says more.
 */
enum flowop_result common_fail(struct fb_thread *t, const struct flowop_inst *fi,
			       const char *what, const struct fb_slot *s,
			       const char *path, int64_t off, int err)
	__attribute__((cold));
/*
 * The same, counted as `kind` (FE_SHORT: a short transfer); `err` 0
 * leaves out ": strerror".
 */
enum flowop_result common_fail_kind(struct fb_thread *t,
				    const struct flowop_inst *fi,
				    enum fo_err_kind kind, const char *what,
				    const struct fb_slot *s, const char *path,
				    int64_t off, int err) __attribute__((cold));
/*
 * The same message for what no op can get past (the workload does not
 * fit the files: an iosize larger than the file): fails the run even
 * with --keep-going, counts nothing.  Returns FLOWOP_ERROR.
 */
enum flowop_result common_fail_fatal(struct fb_thread *t,
				     const struct flowop_inst *fi,
				     const char *what, const struct fb_slot *s,
				     const char *path, int64_t off, int err)
	__attribute__((cold));
/*
 * A flowop that needs an open slot found it closed.  After an op failure
 * of this thread with --keep-going (an open that failed left it closed)
 * it is one more failure, counted as EBADF; otherwise the workload is
 * wrong and the run fails.  FLOWOP_FAILED or FLOWOP_ERROR.
 */
enum flowop_result common_slot_not_open(struct fb_thread *t,
					const struct flowop_inst *fi,
					const struct fb_slot *s)
	__attribute__((cold));

/*
 * Fill `len` bytes with the written-data pattern: byte i is
 * `key ^ (i * 131)`, which repeats every 256 bytes, so one 256-byte
 * period is computed and then copied in doubling blocks (a byte loop
 * over a 10 MiB buffer was half the start-up of a large-iosize run).
 */
void common_fill_pattern(char *buf, size_t len, unsigned char key);

/*
 * need(): the fd slots flowop `f` may hold open, as common_slotsel_init()
 * chooses them (its `fd`, every slot with `opennext`, else slot 0 and
 * maybe a private one).
 */
void common_need_slot(const struct plan_flowop *f, struct flowop_need *n);

/* validate(): `fd` and `srcfd` within 0..FB_FD_SLOTS-1, and a file given. */
int common_validate_file(const struct plan *p, const struct plan_flowop *f,
			 struct diag *d);
/*
 * The same for flowops that can also work on the file already open in
 * their `fd` slot (read, write, *wholefile, append*, deletefile,
 * statfile): a file, or fd > 0.
 */
int common_validate_file_or_fd(const struct plan *p, const struct plan_flowop *f,
			       struct diag *d);
/* The same without requiring a file (flowops on a slot: closefile, fsync). */
int common_validate_slot(const struct plan *p, const struct plan_flowop *f,
			 struct diag *d);

/*
 * The choice (`define flowop ..., choose`) that plan flowop `k` is a
 * direct member of, as its index in p->flowops, or -1.
 */
int common_choice_of(const struct plan *p, int k);

#endif
