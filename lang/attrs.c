/*
 * attrs.c - which attributes each entity takes, and their values checked.
 *
 * An attribute of a file, fileset, process, thread or flowop is looked up
 * in its entity's table (name, id, type), evaluated with the variables of
 * the moment and converted to the type the table gives it.  Everything a
 * user can misspell or misplace is reported here, with a suggestion: an
 * unknown name, a value of the wrong type, a fileset attribute in
 * `define file`, an attribute a flowop does not take.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "plan/flowop.h"
#include "lang/compiler.h"
#include "plan/diag.h"

/* Where a file attribute may be written (see misplaced()). */
enum attr_place {
	ANYWHERE,
	FILESET_ONLY,   /* shapes a tree of files: not for `define file` */
};

struct attr_spec {
	const char *name;
	int id;
	enum attr_type type;
	enum attr_place place;
};

/*
 * `define file` and `define fileset` share one table: a file is a fileset
 * of one entry, so only the attributes that shape a tree are left out.
 */
static const struct attr_spec fileset_attrs[] = {
	{ "name", E_NAME, T_STRING, ANYWHERE },
	{ "path", E_PATH, T_STRING, ANYWHERE },
	{ "entries", E_ENTRIES, T_SIZE, FILESET_ONLY },
	{ "size", E_SIZE, T_SIZE_RV, ANYWHERE },
	{ "filesize", E_SIZE, T_SIZE_RV, ANYWHERE },
	{ "dirwidth", E_DIRWIDTH, T_SIZE_RV, FILESET_ONLY },
	{ "dirgamma", E_DIRGAMMA, T_SIZE, FILESET_ONLY },
	{ "dirdepthrv", E_DIRDEPTHRV, T_ANY, FILESET_ONLY },
	{ "leafdirs", E_LEAFDIRS, T_SIZE, FILESET_ONLY },
	{ "filesizegamma", E_FILESIZEGAMMA, T_SIZE, FILESET_ONLY },
	{ "prealloc", E_PREALLOC, T_PCT, ANYWHERE },
	{ "paralloc", E_PARALLOC, T_BOOL, ANYWHERE },
	{ "reuse", E_REUSE, T_BOOL, ANYWHERE },
	{ "trusttree", E_TRUSTTREE, T_BOOL, ANYWHERE },
	{ "readonly", E_READONLY, T_BOOL, ANYWHERE },
	{ "writeonly", E_WRITEONLY, T_BOOL, ANYWHERE },
	{ "cached", E_CACHED, T_BOOL, ANYWHERE },
	{ NULL, 0, 0, ANYWHERE }
};

static const struct attr_spec process_attrs[] = {
	{ "name", E_NAME, T_STRING, ANYWHERE },
	{ "instances", E_INSTANCES, T_SIZE, ANYWHERE },
	{ "nice", E_NICE, T_INT, ANYWHERE },
	{ NULL, 0, 0, ANYWHERE }
};

static const struct attr_spec thread_attrs[] = {
	{ "name", E_NAME, T_STRING, ANYWHERE },
	{ "instances", E_INSTANCES, T_SIZE, ANYWHERE },
	{ "memsize", E_MEMSIZE, T_SIZE, ANYWHERE },
	{ "useism", E_USEISM, T_BOOL, ANYWHERE },
	{ "ioprio", E_IOPRIO, T_SIZE, ANYWHERE },
	{ "memtype", E_MEMTYPE, T_STRING, ANYWHERE },
	{ NULL, 0, 0, ANYWHERE }
};

/* Flowop attributes; FA_COUNT marks `name`, which every flowop takes. */
static const struct attr_spec flowop_attrs[] = {
	{ "name", FA_COUNT, T_STRING, ANYWHERE },
	{ "filename", FA_FILENAME, T_STRING, ANYWHERE },
	{ "filesetname", FA_FILENAME, T_STRING, ANYWHERE },
	{ "iosize", FA_IOSIZE, T_SIZE_RV, ANYWHERE },
	{ "workingset", FA_WORKINGSET, T_SIZE, ANYWHERE },
	{ "random", FA_RANDOM, T_BOOL, ANYWHERE },
	{ "dsync", FA_DSYNC, T_BOOL, ANYWHERE },
	{ "directio", FA_DIRECTIO, T_BOOL, ANYWHERE },
	{ "noreadahead", FA_NOREADAHEAD, T_BOOL, ANYWHERE },
	{ "misalign", FA_MISALIGN, T_SIZE, ANYWHERE },
	{ "memoffset", FA_MEMOFFSET, T_SIZE, ANYWHERE },
	{ "fd", FA_FD, T_SIZE, ANYWHERE },
	{ "srcfd", FA_SRCFD, T_SIZE, ANYWHERE },
	{ "opennext", FA_OPENNEXT, T_BOOL, ANYWHERE },
	{ "iters", FA_ITERS, T_SIZE_RV, ANYWHERE },
	{ "value", FA_VALUE, T_ANY, ANYWHERE },
	{ "target", FA_TARGET, T_STRING, ANYWHERE },
	{ "blocking", FA_BLOCKING, T_BOOL, ANYWHERE },
	{ "highwater", FA_HIGHWATER, T_SIZE, ANYWHERE },
	{ "indexed", FA_INDEXED, T_SIZE_RV, ANYWHERE },
	{ "iodepth", FA_IODEPTH, T_SIZE, ANYWHERE },
	{ NULL, 0, 0, ANYWHERE }
};

static const struct attr_spec *const owner_specs[] = {
	[FOR_FILE] = fileset_attrs,
	[FOR_FILESET] = fileset_attrs,
	[FOR_PROCESS] = process_attrs,
	[FOR_THREAD] = thread_attrs,
	[FOR_FLOWOP] = flowop_attrs,
};

static const struct attr_spec *find_spec(const struct attr_spec *specs,
					 const char *name)
{
	for (; specs->name; specs++)
		if (strcmp(specs->name, name) == 0)
			return specs;
	return NULL;
}

/* A fileset attribute written in `define file`: a known name, wrong place. */
static bool misplaced(enum attr_owner owner, const struct attr_spec *s)
{
	return owner == FOR_FILE && s->place == FILESET_ONLY;
}

/*
 * "unknown attribute" with the closest valid name.  A file's own
 * attributes are offered before the misplaced ones: on a tie they are the
 * better guess.
 */
static void unknown_attr(struct compiler *c, const struct ast_attr *a,
			 enum attr_owner owner, const char *what)
{
	const char *names[40];
	char hint[160];
	int n = 0;

	for (int pass = 0; pass < 2; pass++)
		for (const struct attr_spec *s = owner_specs[owner];
		     s->name && n < 39; s++)
			if (misplaced(owner, s) == (pass == 1))
				names[n++] = s->name;
	names[n] = NULL;
	diag_error(c->d, a->loc, "unknown attribute '%s' for %s%s", a->name,
		   what, diag_did_you_mean(hint, sizeof(hint), a->name, names));
}

/* Convert an evaluated value to what an attribute of type `t` holds. */
int attr_convert(struct compiler *c, const struct ast_attr *a,
		 enum attr_type t, const struct value *v,
		 struct plan_value *out)
{
	out->loc = a->value ? a->value->loc : a->loc;
	if (v->kind == V_RANDVAR) {
		if (t == T_SIZE_RV || t == T_ANY) {
			out->kind = PV_RANDOM;
			out->u.rv = v->rv;
			return 0;
		}
		diag_error(c->d, out->loc,
			   "attribute '%s' cannot be a random variable: it is read once, not per use",
			   a->name);
		return -1;
	}
	switch (t) {
	case T_ANY:
		out->kind = v->kind == V_INT ? PV_INT :
			    v->kind == V_DOUBLE ? PV_DOUBLE :
			    v->kind == V_BOOL ? PV_BOOL : PV_STRING;
		out->u.i = v->i;
		if (v->kind == V_DOUBLE)
			out->u.d = v->d;
		else if (v->kind == V_BOOL)
			out->u.b = v->b;
		else if (v->kind == V_STRING)
			out->u.s = v->s;
		return 0;
	case T_STRING:
		if (v->kind == V_BOOL) {
			diag_error(c->d, out->loc,
				   "attribute '%s' needs a string, not a boolean",
				   a->name);
			return -1;
		}
		out->kind = PV_STRING;
		out->u.s = value_text(c, v);
		return 0;
	case T_BOOL:
		if (v->kind == V_STRING) {
			diag_error(c->d, out->loc,
				   "attribute '%s' needs true or false, not '%s'",
				   a->name, v->s);
			return -1;
		}
		out->kind = PV_BOOL;
		out->u.b = v->kind == V_BOOL ? v->b :
			   v->kind == V_INT ? v->i != 0 : v->d != 0;
		return 0;
	case T_PCT:
		if (v->kind == V_BOOL) {
			out->kind = PV_INT;
			out->u.i = v->b ? 100 : 0;
			return 0;
		}
		/* a percentage is a whole number */
		__attribute__((fallthrough));
	case T_SIZE:
	case T_SIZE_RV:
	case T_INT:
		if (v->kind == V_STRING || v->kind == V_BOOL) {
			diag_error(c->d, out->loc,
				   "attribute '%s' needs a number, not %s%s%s%s",
				   a->name, value_kind_name(v->kind),
				   v->kind == V_STRING ? " '" : "",
				   v->kind == V_STRING ? v->s : "",
				   v->kind == V_STRING ? "'" : "");
			return -1;
		}
		out->kind = PV_INT;
		if (v->kind == V_DOUBLE) {
			if (v->d != floor(v->d) || fabs(v->d) > 9e18) {
				diag_error(c->d, out->loc,
					   "attribute '%s' needs a whole number, not %g",
					   a->name, v->d);
				return -1;
			}
			out->u.i = (int64_t)v->d;
		} else {
			out->u.i = v->i;
		}
		if (t != T_INT && out->u.i < 0) {
			diag_error(c->d, out->loc,
				   "attribute '%s' must not be negative (%" PRId64 ")",
				   a->name, out->u.i);
			return -1;
		}
		if (t == T_PCT && out->u.i > 100) {
			diag_error(c->d, out->loc,
				   "attribute '%s' is a percentage (0..100), not %" PRId64,
				   a->name, out->u.i);
			return -1;
		}
		return 0;
	}
	return -1;
}

/*
 * Evaluate an attribute list against the table of `owner`.  values[id]
 * receives each attribute (the last one wins when repeated, with a
 * warning); `given` gets bit id set.  `what` names the entity in messages
 * ("flowop read").  Returns the number of errors.
 */
int attrs_eval(struct compiler *c, enum attr_owner owner,
	       const struct ast_attr *attrs, const char *what,
	       struct plan_value *values, uint64_t *given)
{
	const struct attr_spec *specs = owner_specs[owner];
	int errors = 0;

	*given = 0;
	for (const struct ast_attr *a = attrs; a; a = a->next) {
		const struct attr_spec *s;
		struct value v;

		if (a->is_local) {
			diag_error(c->d, a->loc,
				   "local variable '$%s' is only allowed in a composite flowop",
				   a->name);
			errors++;
			continue;
		}
		s = find_spec(specs, a->name);
		if (!s) {
			unknown_attr(c, a, owner, what);
			errors++;
			continue;
		}
		if (misplaced(owner, s)) {
			diag_error(c->d, a->loc,
				   "attribute '%s' belongs to 'define fileset', not 'define file'",
				   a->name);
			errors++;
			continue;
		}
		if (*given & (1ull << s->id))
			diag_warning(c->d, a->loc,
				     "attribute '%s' given twice for %s; the last one counts",
				     a->name, what);
		if (a->value) {
			if (eval_expr(c, a->value, &v) < 0) {
				errors++;
				continue;
			}
		} else {
			v = (struct value){ .kind = V_BOOL, .b = true };
		}
		if (attr_convert(c, a, s->type, &v, &values[s->id]) < 0) {
			errors++;
			continue;
		}
		*given |= 1ull << s->id;
	}
	return errors;
}

/*
 * After attrs_eval(FOR_FLOWOP): the attributes `ops` does not take (its
 * `attrs` mask).  Reports the first one; returns 0 or -1.
 */
int attrs_check_flowop(struct compiler *c, const struct flowop_ops *ops,
		       const struct ast_attr *attrs)
{
	for (const struct ast_attr *a = attrs; a; a = a->next) {
		const struct attr_spec *s = find_spec(flowop_attrs, a->name);

		if (s && s->id != FA_COUNT && !(ops->attrs & FA_BIT(s->id))) {
			diag_error(c->d, a->loc,
				   "flowop %s does not take attribute '%s'",
				   ops->name, a->name);
			return -1;
		}
	}
	return 0;
}

/* The string `name=` of an attribute list, evaluated now (or NULL). */
const char *attrs_name(struct compiler *c, const struct ast_attr *attrs,
		       struct src_loc loc, const char *what)
{
	for (const struct ast_attr *a = attrs; a; a = a->next) {
		struct value v;

		if (a->is_local || strcmp(a->name, "name") != 0)
			continue;
		if (!a->value) {
			diag_error(c->d, a->loc, "%s: 'name' needs a value", what);
			return NULL;
		}
		if (eval_expr(c, a->value, &v) < 0)
			return NULL;
		if (v.kind == V_BOOL) {
			diag_error(c->d, a->value->loc,
				   "%s: a name must be a string, not a boolean", what);
			return NULL;
		}
		return value_text(c, &v);
	}
	diag_error(c->d, loc, "%s needs a name (name=...)", what);
	return NULL;
}
