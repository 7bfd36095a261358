/*
 * oplogattrs.c - a process's per-op log attributes (docs/wml.md 4.5, a
 * flowbench extension for fio's write_lat_log, write_bw_log,
 * write_iops_log, write_hist_log and their settings): latlog=, bwlog=,
 * iopslog=, histlog= name a prefix (bare: the process's name, as fio
 * takes the job's), logavgmsec=, loghistmsec=, loghistcoarseness=,
 * logoffset, logshared.  Each value is checked here with its location;
 * the files themselves are the run's (runtime/results/oplogfiles.c).
 */
#include <inttypes.h>
#include <string.h>

#include "lang/compiler.h"
#include "plan/diag.h"

static const struct {
	int id;
	const char *name;
	enum plan_oplog_kind kind;
} logattr_names[] = {
	{ E_LATLOG, "latlog", PLAN_OPLOG_LAT },
	{ E_BWLOG, "bwlog", PLAN_OPLOG_BW },
	{ E_IOPSLOG, "iopslog", PLAN_OPLOG_IOPS },
	{ E_HISTLOG, "histlog", PLAN_OPLOG_HIST },
};

/* latlog="PREFIX", bare latlog (the process's name), latlog=false (none). */
static const char *logattr_prefix(struct compiler *c, const struct plan_value *v,
				const char *attr, const struct plan_proc *pr)
{
	switch (v->kind) {
	case PV_UNSET:
		return NULL;
	case PV_BOOL:
		return v->u.b ? pr->name : NULL;
	case PV_STRING:
		if (!*v->u.s || v->u.s[strlen(v->u.s) - 1] == '/') {
			diag_error(c->d, v->loc, "process '%s': %s=\"%s\" needs a prefix for "
				   "its files' names (%s=\"lg\" writes lg_..., also in "
				   "another directory: \"dir/lg\")", pr->name, attr,
				   v->u.s, attr);
			return NULL;
		}
		return v->u.s;
	default:
		diag_error(c->d, v->loc, "process '%s': %s= needs a prefix for its files' "
			   "names (a string), or nothing for the process's name", pr->name,
			   attr);
		return NULL;
	}
}

/* A window in milliseconds: 0 (`zero_ok`) or 1 to 10^12, into *out. */
static void logattr_msec(struct compiler *c, const struct plan_value *v, const char *attr,
		       const char *proc, bool zero_ok, uint64_t *out)
{
	if (v->kind == PV_UNSET)
		return;
	if (v->u.i < (zero_ok ? 0 : 1) || v->u.i > (int64_t)(PLAN_MAX_SECONDS * 1000)) {
		diag_error(c->d, v->loc, "process '%s': %s=%" PRId64 " is not a window in "
			   "milliseconds (%s to %.0f)", proc, attr, v->u.i,
			   zero_ok ? "0" : "1", PLAN_MAX_SECONDS * 1000);
		return;
	}
	*out = (uint64_t)v->u.i;
}

/* The first log attribute written: where the process's logs were asked for. */
static void logattr_where(const struct plan_value *v, struct plan_oplog *l)
{
	for (int id = E_LATLOG; id <= E_LOGSHARED; id++)
		if (attrs_given(v, id) && (!l->loc.line || v[id].loc.line < l->loc.line ||
					   (v[id].loc.line == l->loc.line &&
					    v[id].loc.col < l->loc.col)))
			l->loc = v[id].loc;
}

/* Settings without the log they set: errors at their attribute. */
static void logattr_orphans(struct compiler *c, const struct plan_value *v,
			  const struct plan_proc *pr)
{
	const struct plan_oplog *l = &pr->log;
	bool any = plan_oplog_any(l), hist = l->prefix[PLAN_OPLOG_HIST] != NULL;

	if (!any) {
		static const struct { int id; const char *name; } set[] = {
			{ E_LOGAVGMSEC, "logavgmsec" }, { E_LOGOFFSET, "logoffset" },
			{ E_LOGSHARED, "logshared" },
		};

		for (size_t i = 0; i < sizeof(set) / sizeof(set[0]); i++)
			if (attrs_given(v, set[i].id))
				diag_error(c->d, v[set[i].id].loc, "process '%s': %s= applies "
					   "to its per-op logs, and it has none (latlog=, "
					   "bwlog=, iopslog=, histlog=)", pr->name, set[i].name);
	}
	if (hist && !l->hist_msec && !attrs_given(v, E_LOGHISTMSEC))
		diag_error(c->d, v[E_HISTLOG].loc, "process '%s': histlog= needs "
			   "loghistmsec=, its window in milliseconds (fio writes an "
			   "empty file without it)", pr->name);
	if (!hist && attrs_given(v, E_LOGHISTMSEC))
		diag_error(c->d, v[E_LOGHISTMSEC].loc, "process '%s': loghistmsec= is "
			   "the histogram log's window, and it has no histlog=", pr->name);
	if (!hist && attrs_given(v, E_LOGHISTCOARSENESS))
		diag_error(c->d, v[E_LOGHISTCOARSENESS].loc, "process '%s': "
			   "loghistcoarseness= is the histogram log's, and it has no "
			   "histlog=", pr->name);
	if (any && l->avg_msec && !l->prefix[PLAN_OPLOG_LAT] &&
	    !l->prefix[PLAN_OPLOG_BW] && !l->prefix[PLAN_OPLOG_IOPS])
		diag_error(c->d, v[E_LOGAVGMSEC].loc, "process '%s': logavgmsec= "
			   "averages latlog=, bwlog= and iopslog= (histlog= has "
			   "loghistmsec=), and it has none of them", pr->name);
}

void build_oplog(struct compiler *c, const struct plan_value *v, struct plan_proc *pr)
{
	struct plan_oplog *l = &pr->log;

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < sizeof(logattr_names) / sizeof(logattr_names[0]); i++)
		l->prefix[logattr_names[i].kind] =
			logattr_prefix(c, &v[logattr_names[i].id], logattr_names[i].name, pr);
	logattr_msec(c, &v[E_LOGAVGMSEC], "logavgmsec", pr->name, true, &l->avg_msec);
	logattr_msec(c, &v[E_LOGHISTMSEC], "loghistmsec", pr->name, false, &l->hist_msec);
	if (attrs_given(v, E_LOGHISTCOARSENESS)) {
		int64_t k = v[E_LOGHISTCOARSENESS].u.i;

		if (k < 0 || k > 6)
			diag_error(c->d, v[E_LOGHISTCOARSENESS].loc, "process '%s': "
				   "loghistcoarseness=%" PRId64 " is not 0 to 6 (each step "
				   "halves the histogram's columns)", pr->name, k);
		else
			l->hist_coarseness = (int)k;
	}
	l->offset = attrs_given(v, E_LOGOFFSET) && v[E_LOGOFFSET].u.b;
	l->shared = attrs_given(v, E_LOGSHARED) && v[E_LOGSHARED].u.b;
	logattr_where(v, l);
	logattr_orphans(c, v, pr);
}
