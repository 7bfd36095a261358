/*
 * common.c - slot choice, error messages and checks shared by the file,
 * whole-file, directory and read/write flowops.
 */
#include "flowops/common.h"

#include <limits.h>
#include <string.h>

#include "flowops/registry.h"
#include "plan/diag.h"
#include "runtime/fileset/fileset.h"

void common_slotsel_init(struct common_slotsel *sel, const struct plan_flowop *pf)
{
	sel->fixed = slot_index(pf);
	sel->opennext = sel->fixed == 0 && plan_attr_bool(pf, COMMON_OPENNEXT, false);
	sel->may_own = sel->fixed == 0 && !sel->opennext && pf->fileset >= 0 &&
		       pf->ops && pf->ops->rw != FLOWOP_RW_NONE;
	sel->own = 0;
	sel->fileset = pf->fileset;
	sel->rotor = FB_FD_SLOTS - 1;
	sel->file_rotor = 0;
}

void common_fill_pattern(char *buf, size_t len, unsigned char key)
{
	size_t done = len < 256 ? len : 256;

	for (size_t i = 0; i < done; i++)
		buf[i] = (char)(key ^ (unsigned char)(i * 131));
	while (done < len) {            /* the period is 256: double what is there */
		size_t n = done < len - done ? done : len - done;

		memcpy(buf + done, buf, n);
		done += n;
	}
}

void common_need_slot(const struct plan_flowop *f, struct flowop_need *n)
{
	struct common_slotsel sel;

	common_slotsel_init(&sel, f);
	if (sel.opennext)
		n->every_slot = true;
	else
		n->slot = sel.fixed;
	n->own_slot = sel.may_own;
}

struct fb_slot *common_slot_own(struct fb_thread *t, struct common_slotsel *sel)
{
	if (t->nown >= FB_OWN_SLOTS)
		return &t->slots[0];   /* slot_acquire() reports the conflict */
	sel->own = FB_FD_SLOTS + t->nown++;
	return &t->slots[sel->own];
}

/* "WHAT PATH[ at offset N]" into buf (see common_fail()). */
static void fail_where(struct fb_thread *t, const char *what, const struct fb_slot *s,
		       const char *path, int64_t off, char *buf, size_t len)
{
	char file[PATH_MAX];
	char at[48] = "";

	if (s && s->fileset >= 0) {
		fileset_file_path(&t->filesets[s->fileset], s->entry, file);
		path = file;
	}
	if (off >= 0)
		snprintf(at, sizeof(at), " at offset %lld", (long long)off);
	snprintf(buf, len, "%s %s%s", what, path ? path : "(no file)", at);
}

enum flowop_result common_fail_kind(struct fb_thread *t, const struct flowop_inst *fi,
				    enum fo_err_kind kind, const char *what,
				    const struct fb_slot *s, const char *path,
				    int64_t off, int err)
{
	char where[PATH_MAX + 160];

	fail_where(t, what, s, path, off, where, sizeof(where));
	if (!err)
		return thread_op_failed(t, fi, kind, "flowop %s: %s", fi->pf->name,
					where);
	return thread_op_failed(t, fi, kind, "flowop %s: %s: %s", fi->pf->name,
				where, strerror(err));
}

enum flowop_result common_fail(struct fb_thread *t, const struct flowop_inst *fi,
			       const char *what, const struct fb_slot *s,
			       const char *path, int64_t off, int err)
{
	return common_fail_kind(t, fi, fo_err_kind_of(err), what, s, path, off, err);
}

enum flowop_result common_fail_fatal(struct fb_thread *t,
				     const struct flowop_inst *fi,
				     const char *what, const struct fb_slot *s,
				     const char *path, int64_t off, int err)
{
	char where[PATH_MAX + 160];

	fail_where(t, what, s, path, off, where, sizeof(where));
	thread_fail(t, "flowop %s: %s: %s", fi->pf->name, where, strerror(err));
	return FLOWOP_ERROR;
}

enum flowop_result common_slot_not_open(struct fb_thread *t,
					const struct flowop_inst *fi,
					const struct fb_slot *s)
{
	int slot = s ? (int)(s - t->slots) : 0;

	if (t->op_failures && t->ctl->keep_going)
		return thread_op_failed(t, fi, FE_EBADF, "flowop %s: fd slot %d "
					"is not open", fi->pf->name, slot);
	thread_fail(t, "flowop %s: fd slot %d is not open", fi->pf->name, slot);
	return FLOWOP_ERROR;
}

enum need { NEED_FILE, NEED_FILE_OR_FD, NEED_NOTHING };

static int validate(const struct plan *p, const struct plan_flowop *f,
		    struct diag *d, enum need need)
{
	static const int fds[] = { PA_FD, COMMON_SRCFD };
	const char *type = f->ops ? f->ops->name : "flowop";
	bool has_file = f->fileset >= 0 || plan_attr_given(f, PA_FILENAME);
	int errs = 0;

	(void)p;
	if (need == NEED_FILE && !has_file) {
		diag_error(d, f->loc, "flowop %s: %s needs a file or fileset "
			   "(filename=...)", f->name, type);
		errs++;
	} else if (need == NEED_FILE_OR_FD && !has_file &&
		   plan_attr_int(f, PA_FD, 0) <= 0) {
		diag_error(d, f->loc, "flowop %s: %s needs a file or fileset "
			   "(filename=...) or the fd slot of an open file (fd=N)",
			   f->name, type);
		errs++;
	}
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]) && fds[i] < f->nattr; i++) {
		int64_t v = plan_attr_int(f, fds[i], 0);

		if (v < 0 || v >= FB_FD_SLOTS) {
			diag_error(d, f->attr[fds[i]].loc,
				   "flowop %s: %s must be 0..%d, not %lld", f->name,
				   fds[i] == PA_FD ? "fd" : "srcfd", FB_FD_SLOTS - 1,
				   (long long)v);
			errs++;
		}
	}
	return errs;
}

int common_validate_file(const struct plan *p, const struct plan_flowop *f,
			 struct diag *d)
{
	return validate(p, f, d, NEED_FILE);
}

int common_validate_file_or_fd(const struct plan *p, const struct plan_flowop *f,
			       struct diag *d)
{
	return validate(p, f, d, NEED_FILE_OR_FD);
}

int common_validate_slot(const struct plan *p, const struct plan_flowop *f,
			 struct diag *d)
{
	return validate(p, f, d, NEED_NOTHING);
}

/*
 * The choice (`define flowop ..., choose`) plan flowop `k` is a direct
 * member of, as its index in p->flowops, or -1: the nearest entry before
 * it one level up is its composite.
 */
int common_choice_of(const struct plan *p, int k)
{
	const struct plan_flowop *f = &p->flowops[k];
	int first = p->threads[f->thread].first_flowop;

	for (int j = k - 1; f->depth > 0 && j >= first; j--)
		if (p->flowops[j].depth == f->depth - 1)
			return p->flowops[j].ops == &flowops_choice ? j : -1;
	return -1;
}
