/*
 * attrs.c - which attributes each entity takes, and their values checked.
 *
 * An attribute of a file, fileset, process or thread is looked up in its
 * entity's table here (name, id, type); a flowop's in the table of the
 * attributes every flowop takes (plan/plan.c) and then in the one its
 * family declares with its ops (plan/flowop.h).  It is evaluated with
 * the variables of the moment and converted to the type the table gives
 * it.  Everything a user can misspell or misplace is reported here, with
 * a suggestion: an unknown name, a value of the wrong type, a fileset
 * attribute in `define file`, an attribute only other flowops take.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/flowop.h"
#include "lang/compile.h"
#include "lang/compiler.h"
#include "plan/diag.h"
#include "plan/oom.h"

/* Where a file attribute may be written (see misplaced()). */
enum attr_place {
	ANYWHERE,
	FILESET_ONLY,   /* shapes a tree of files: not for `define file` */
};

struct entity_attr {
	const char *name;
	int id;
	enum attr_type type;
	enum attr_place place;
};

/*
 * `define file` and `define fileset` share one table: a file is a fileset
 * of one entry, so only the attributes that shape a tree are left out.
 */
static const struct entity_attr fileset_attrs[] = {
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

static const struct entity_attr process_attrs[] = {
	{ "name", E_NAME, T_STRING, ANYWHERE },
	{ "instances", E_INSTANCES, T_SIZE, ANYWHERE },
	{ "nice", E_NICE, T_INT, ANYWHERE },
	/* run phases: a flowbench extension (lang/entities.c build_phases) */
	{ "after", E_AFTER, T_STRING, ANYWHERE },
	{ "startdelay", E_STARTDELAY, T_SECONDS, ANYWHERE },
	{ "runtime", E_RUNTIME, T_SECONDS, ANYWHERE },
	/* per-op logs in fio's formats: a flowbench extension (lang/oplogattrs.c) */
	{ "latlog", E_LATLOG, T_ANY, ANYWHERE },
	{ "bwlog", E_BWLOG, T_ANY, ANYWHERE },
	{ "iopslog", E_IOPSLOG, T_ANY, ANYWHERE },
	{ "histlog", E_HISTLOG, T_ANY, ANYWHERE },
	{ "logavgmsec", E_LOGAVGMSEC, T_INT, ANYWHERE },
	{ "loghistmsec", E_LOGHISTMSEC, T_INT, ANYWHERE },
	{ "loghistcoarseness", E_LOGHISTCOARSENESS, T_INT, ANYWHERE },
	{ "logoffset", E_LOGOFFSET, T_BOOL, ANYWHERE },
	{ "logshared", E_LOGSHARED, T_BOOL, ANYWHERE },
	{ NULL, 0, 0, ANYWHERE }
};

static const struct entity_attr thread_attrs[] = {
	{ "name", E_NAME, T_STRING, ANYWHERE },
	{ "instances", E_INSTANCES, T_SIZE, ANYWHERE },
	{ "memsize", E_MEMSIZE, T_SIZE, ANYWHERE },
	{ "useism", E_USEISM, T_BOOL, ANYWHERE },
	{ "ioprio", E_IOPRIO, T_SIZE, ANYWHERE },
	{ "memtype", E_MEMTYPE, T_STRING, ANYWHERE },
	{ NULL, 0, 0, ANYWHERE }
};

/*
 * `define device`: a block device, the region of it its flowops use.
 * size and offset take bytes or a percentage of the device ("95%"),
 * which is known only when the device is opened.
 */
static const struct entity_attr device_attrs[] = {
	{ "name", E_NAME, T_STRING, ANYWHERE },
	{ "path", E_PATH, T_STRING, ANYWHERE },
	{ "size", E_SIZE, T_ANY, ANYWHERE },
	{ "offset", E_OFFSET, T_ANY, ANYWHERE },
	{ NULL, 0, 0, ANYWHERE }
};

static const struct entity_attr *const owner_specs[] = {
	[FOR_FILE] = fileset_attrs,
	[FOR_FILESET] = fileset_attrs,
	[FOR_DEVICE] = device_attrs,
	[FOR_PROCESS] = process_attrs,
	[FOR_THREAD] = thread_attrs,
};

static const struct entity_attr *find_spec(const struct entity_attr *specs,
					   const char *name)
{
	for (; specs->name; specs++)
		if (strcmp(specs->name, name) == 0)
			return specs;
	return NULL;
}

/* A fileset attribute written in `define file`: a known name, wrong place. */
static bool misplaced(enum attrs_owner owner, const struct entity_attr *s)
{
	return owner == FOR_FILE && s->place == FILESET_ONLY;
}

/*
 * "unknown attribute" with the closest valid name.  A file's own
 * attributes are offered before the misplaced ones: on a tie they are the
 * better guess.
 */
static void unknown_attr(struct compiler *c, const struct ast_attr *a,
			 enum attrs_owner owner, const char *what)
{
	const char *names[40];
	char hint[160];
	int n = 0;

	for (int pass = 0; pass < 2; pass++)
		for (const struct entity_attr *s = owner_specs[owner];
		     s->name && n < 39; s++)
			if (misplaced(owner, s) == (pass == 1))
				names[n++] = s->name;
	names[n] = NULL;
	diag_error(c->d, a->loc, "unknown attribute '%s' for %s%s", a->name,
		   what, diag_did_you_mean(hint, sizeof(hint), a->name, names));
}

/* Convert an evaluated value to what an attribute of type `t` holds. */
int attrs_convert(struct compiler *c, const struct ast_attr *a,
		  enum attr_type t, const struct value *v,
		  struct plan_value *out)
{
	out->loc = a->value ? a->value->loc : a->loc;
	if (v->kind == V_RANDVAR) {
		if (t == T_SIZE_RV || t == T_ANY || t == T_SECONDS) {
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
	case T_SECONDS:
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
 * One attribute `a` of type `t` into values[index]: evaluated (bare: true)
 * and converted; a repeat is warned about and the last one counts.  The
 * value is stored only once it converted, so a value in error never
 * replaces an earlier one.  0 or -1 (reported).
 */
static int eval_into(struct compiler *c, const struct ast_attr *a,
		     enum attr_type t, int index, const char *what,
		     struct plan_value *values)
{
	struct plan_value out = { 0 };
	struct value v;

	if (attrs_given(values, index))
		diag_warning(c->d, a->loc,
			     "attribute '%s' given twice for %s; the last one counts",
			     a->name, what);
	if (a->value) {
		if (eval_expr(c, a->value, &v) < 0)
			return -1;
	} else {
		v = (struct value){ .kind = V_BOOL, .b = true };
	}
	if (attrs_convert(c, a, t, &v, &out) < 0)
		return -1;
	values[index] = out;
	return 0;
}

/* A composite's local variable where only attributes may be. */
static void local_misplaced(struct compiler *c, const struct ast_attr *a)
{
	diag_error(c->d, a->loc,
		   "local variable '$%s' is only allowed in a composite flowop",
		   a->name);
}

int attrs_eval(struct compiler *c, enum attrs_owner owner,
	       const struct ast_attr *attrs, const char *what,
	       struct plan_value *values)
{
	const struct entity_attr *specs = owner_specs[owner];
	int errors = 0;

	for (const struct ast_attr *a = attrs; a; a = a->next) {
		const struct entity_attr *s;

		if (a->is_local) {
			local_misplaced(c, a);
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
		if (eval_into(c, a, s->type, s->id, what, values) < 0)
			errors++;
	}
	return errors;
}

/* Append the names of `specs` to names[*n] (sized by the caller). */
static void collect_names(const struct attr_spec *specs, const char **names,
			  size_t *n)
{
	for (; specs && specs->name; specs++)
		names[(*n)++] = specs->name;
}

static size_t count_specs(const struct attr_spec *specs)
{
	size_t n = 0;

	for (; specs && specs->name; specs++)
		n++;
	return n;
}

/*
 * The attribute names `ops` takes (all = false), or those of every
 * flowop of the registry (all = true), NULL-terminated; free() it.
 */
static const char **flowop_attr_names(const struct flowop_registry *r,
				      const struct flowop_ops *ops, bool all)
{
	size_t cap = count_specs(plan_flowop_common_attrs) + count_specs(ops->attrs) + 1;
	const struct flowop_ops *other;
	const char **names;
	size_t n = 0;

	for (int i = 0; all && (other = flowop_registry_at(r, i)); i++)
		cap += count_specs(other->attrs);
	names = xcalloc(cap, sizeof(*names));
	collect_names(plan_flowop_common_attrs, names, &n);
	collect_names(ops->attrs, names, &n);
	for (int i = 0; all && (other = flowop_registry_at(r, i)); i++)
		collect_names(other->attrs, names, &n);
	names[n] = NULL;
	return names;
}

/*
 * "unknown attribute" for flowop `ops`, with the closest name it takes;
 * if none of its own is close, the closest another flowop takes (whose
 * use here is then reported as such).
 */
static void unknown_flowop_attr(struct compiler *c, const struct ast_attr *a,
				const struct flowop_ops *ops, const char *what)
{
	const char **own = flowop_attr_names(c->opts->registry, ops, false);
	const char **all = NULL;
	const char *near = diag_suggest(a->name, own);
	char hint[160] = "";

	if (!near) {
		all = flowop_attr_names(c->opts->registry, ops, true);
		near = diag_suggest(a->name, all);
	}
	if (near)
		snprintf(hint, sizeof(hint), " (did you mean '%s'?)", near);
	diag_error(c->d, a->loc, "unknown attribute '%s' for %s%s", a->name,
		   what, hint);
	free(own);
	free(all);
}

/* The spec of `name` in the table of some flowop of `r`, or NULL. */
static const struct attr_spec *spec_of_any_flowop(const struct flowop_registry *r,
						  const char *name)
{
	const struct flowop_ops *ops;

	for (int i = 0; (ops = flowop_registry_at(r, i)); i++) {
		const struct attr_spec *s = flowop_attr_spec(ops, name);

		if (s)
			return s;
	}
	return NULL;
}

int attrs_eval_flowop(struct compiler *c, const struct flowop_ops *ops,
		      const struct ast_attr *attrs, const char *what,
		      struct plan_value *values)
{
	const struct ast_attr *foreign = NULL;
	int errors = 0;

	for (const struct ast_attr *a = attrs; a; a = a->next) {
		const struct attr_spec *s;

		if (a->is_local) {
			local_misplaced(c, a);
			errors++;
			continue;
		}
		s = flowop_attr_spec(ops, a->name);
		if (s) {
			errors += eval_into(c, a, s->type, s->index, what, values) < 0;
			continue;
		}
		s = spec_of_any_flowop(c->opts->registry, a->name);
		if (!s) {
			unknown_flowop_attr(c, a, ops, what);
			errors++;
			continue;
		}
		/*
		 * Another flowop's attribute: its value is still checked (as
		 * that flowop declares it), so that an error in it comes first.
		 */
		if (eval_into(c, a, s->type, 0, what, &(struct plan_value){ 0 }) < 0)
			errors++;
		else if (!foreign)
			foreign = a;
	}
	if (!errors && foreign) {
		diag_error(c->d, foreign->loc, "flowop %s does not take attribute '%s'",
			   ops->name, foreign->name);
		errors++;
	}
	return errors;
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
