/*
 * compile.c - from the AST of a script to the plan the runtime executes.
 *
 * WML is executed as it is read: `set` takes effect at once, `echo` prints
 * the values of its moment, and an attribute that names a variable reads
 * it only when the run needs it.  This file reproduces those semantics
 * without executing anything: one pass in source order keeps the
 * variables and collects definitions; at `run` every collected definition
 * is evaluated with the variables as they stand, checked against the
 * attributes its entity accepts, and laid out as plain arrays.
 *
 * Deliberate differences from filebench (documented in docs/wml.md):
 * entity names are read when defined but every other attribute at `run`
 * (filebench reads a few, like process instances and fd, when defined);
 * a `-D` variable replaces the script's own `set`; unknown attributes,
 * types and names are errors with suggestions; constructs whose runtime
 * flowbench does not have yet are errors that say so.
 */
#include "lang/compile.h"

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flowops/flowop.h"
#include "lang/diag.h"
#include "runtime/randvar.h"

/* ---- values -------------------------------------------------------- */

enum val_kind { V_INT, V_DOUBLE, V_BOOL, V_STRING, V_RANDVAR };

struct value {
	enum val_kind kind;
	int64_t i;
	double d;
	bool b;
	const char *s;
	int rv;                   /* V_RANDVAR: index into plan.randvars */
};

struct var {
	const char *name;
	struct value v;
	struct src_loc loc;       /* where it was last set */
	bool from_cli;            /* -D: the script's `set` is skipped */
};

/* A composite flowop definition (`define flowop`), expanded per invocation. */
struct composite {
	const char *name;
	const struct ast_entity *e;
	bool expanding;           /* being expanded: catches recursion */
};

/*
 * The local variables of the composite invocation being expanded; `up`
 * is the invocation around it (composites nest).  Looked up before the
 * globals.
 */
struct local {
	const char *name;
	struct value v;
	bool has_value;
};

struct scope {
	const char *composite;
	struct local *vars;
	int n;
	const struct scope *up;
};

/* A definition collected in source order, evaluated at `run`. */
struct pending {
	const struct ast_stmt *st;
	const char *name;         /* evaluated when defined, as filebench does */
};

struct compiler {
	const struct ast_script *script;
	struct compile_options *opts;
	struct diag *d;
	struct plan *p;

	struct var *vars;
	int nvars, capvars;

	struct pending *files;    /* define file, in order */
	int nfiles, capfiles;
	struct pending *procs;    /* define process, in order */
	int nprocs, capprocs;

	const struct ast_attr *eventgen;  /* the last `eventgen rate=` */
	struct composite *composites;
	int ncomposites, capcomposites;
	const struct scope *scope;        /* innermost composite invocation */

	const char *setting;              /* the variable `set` is assigning */

	int caps_filesets, caps_procs, caps_threads, caps_flowops, caps_actions;
	int caps_randvars;
};

/* Grow `*arr` (of `*cap` elements of `size` bytes) to hold one more. */
static void *grow(void *arr, int *cap, int n, size_t size)
{
	if (n < *cap)
		return arr;
	*cap = *cap ? *cap * 2 : 8;
	arr = realloc(arr, (size_t)*cap * size);
	if (!arr) {
		fprintf(stderr, "flowbench: out of memory\n");
		abort();
	}
	return arr;
}

#define PUSH(c, arr, n, cap) \
	((arr) = grow((arr), &(cap), (n), sizeof(*(arr))), &(arr)[(n)++])

static struct var *find_var(struct compiler *c, const char *name)
{
	for (int i = 0; i < c->nvars; i++)
		if (strcmp(c->vars[i].name, name) == 0)
			return &c->vars[i];
	return NULL;
}

/* " (did you mean '$x'?)" over the variables set so far, or "". */
static const char *var_suggestion(struct compiler *c, const char *name,
				  char *buf, size_t size)
{
	const char **names = calloc((size_t)c->nvars + 1, sizeof(*names));
	const char *best = NULL;

	for (int i = 0; names && i < c->nvars; i++)
		names[i] = c->vars[i].name;
	if (names)
		best = diag_suggest(name, names);
	if (best)
		snprintf(buf, size, " (did you mean '$%s'?)", best);
	else
		buf[0] = '\0';
	free(names);
	return buf;
}

static const char *value_text(struct compiler *c, const struct value *v)
{
	switch (v->kind) {
	case V_INT:
		return arena_printf(&c->p->arena, "%" PRId64, v->i);
	case V_DOUBLE:
		return arena_printf(&c->p->arena, "%g", v->d);
	case V_BOOL:
		return v->b ? "true" : "false";
	case V_STRING:
		return v->s;
	case V_RANDVAR:
		return "random variable";
	}
	return "";
}

static const char *kind_name(enum val_kind k)
{
	switch (k) {
	case V_INT:
	case V_DOUBLE:
		return "a number";
	case V_BOOL:
		return "a boolean";
	case V_STRING:
		return "a string";
	case V_RANDVAR:
		return "a random variable";
	}
	return "?";
}

static int eval(struct compiler *c, const struct ast_expr *e,
		struct value *out);

/* Look up `$name` at `loc`; an unset variable is an error. */
static int eval_var(struct compiler *c, const char *name, struct src_loc loc,
		    struct value *out)
{
	const struct var *v;

	for (const struct scope *sc = c->scope; sc; sc = sc->up) {
		for (int i = 0; i < sc->n; i++) {
			if (strcmp(sc->vars[i].name, name) != 0)
				continue;
			if (!sc->vars[i].has_value) {
				diag_error(c->d, loc,
					   "local variable '$%s' of composite '%s' has no value "
					   "(give it one in the definition or the invocation: $%s=...)",
					   name, sc->composite, name);
				return -1;
			}
			*out = sc->vars[i].v;
			return 0;
		}
	}
	v = find_var(c, name);

	if (!v) {
		char hint[160] = "";

		var_suggestion(c, name, hint, sizeof(hint));
		diag_error(c->d, loc, "variable '$%s' is not set%s", name, hint);
		return -1;
	}
	*out = v->v;
	return 0;
}

/* Interpolate a quoted string's segments with the current variables. */
static int eval_string(struct compiler *c, const struct ast_strseg *seg,
		       struct value *out)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int rc = 0;

	if (!f)
		abort();
	for (; seg; seg = seg->next) {
		struct value v;

		if (!seg->is_var) {
			fputs(seg->text, f);
			continue;
		}
		if (eval_var(c, seg->text, seg->loc, &v) < 0) {
			rc = -1;
			continue;
		}
		fputs(value_text(c, &v), f);
	}
	fclose(f);
	out->kind = V_STRING;
	out->s = arena_strndup(&c->p->arena, buf, len);
	free(buf);
	return rc;
}

static double as_double(const struct value *v)
{
	return v->kind == V_INT ? (double)v->i : v->d;
}

/* + - * / over numbers: integers stay exact unless a division leaves a
 * remainder or the result overflows, then the result is a double. */
static int eval_arith(struct compiler *c, const struct ast_expr *e,
		      struct value *out)
{
	struct value l, r;
	const char *op = e->kind == EX_ADD ? "+" : e->kind == EX_SUB ? "-" :
			 e->kind == EX_MUL ? "*" : "/";

	if (eval(c, e->u.binary.l, &l) < 0 || eval(c, e->u.binary.r, &r) < 0)
		return -1;
	if ((l.kind != V_INT && l.kind != V_DOUBLE) ||
	    (r.kind != V_INT && r.kind != V_DOUBLE)) {
		const struct value *bad = (l.kind != V_INT && l.kind != V_DOUBLE)
					  ? &l : &r;
		diag_error(c->d, e->loc, "'%s' needs numbers, not %s", op,
			   kind_name(bad->kind));
		return -1;
	}
	if (e->kind == EX_DIV && as_double(&r) == 0) {
		diag_error(c->d, e->loc, "division by zero");
		return -1;
	}
	if (l.kind == V_INT && r.kind == V_INT) {
		int64_t res;
		bool overflow = false;

		switch (e->kind) {
		case EX_ADD:
			overflow = __builtin_add_overflow(l.i, r.i, &res);
			break;
		case EX_SUB:
			overflow = __builtin_sub_overflow(l.i, r.i, &res);
			break;
		case EX_MUL:
			overflow = __builtin_mul_overflow(l.i, r.i, &res);
			break;
		default:
			overflow = (l.i == INT64_MIN && r.i == -1) ||
				   l.i % r.i != 0;
			res = overflow ? 0 : l.i / r.i;
			break;
		}
		if (!overflow) {
			out->kind = V_INT;
			out->i = res;
			return 0;
		}
	}
	out->kind = V_DOUBLE;
	switch (e->kind) {
	case EX_ADD:
		out->d = as_double(&l) + as_double(&r);
		break;
	case EX_SUB:
		out->d = as_double(&l) - as_double(&r);
		break;
	case EX_MUL:
		out->d = as_double(&l) * as_double(&r);
		break;
	default:
		out->d = as_double(&l) / as_double(&r);
		break;
	}
	return 0;
}

/*
 * randvar(...) / cvar(...) / define randvar: evaluate the attributes,
 * let the randvar module check them, and add the variable to the plan.
 * `skip` is an attribute to leave out (define randvar's name=$var).
 */
static int build_random(struct compiler *c, const char *fn,
			const struct ast_attr *args, struct src_loc loc,
			const struct ast_attr *skip, struct value *out)
{
	struct randvar_arg *av;
	struct randvar_row *rows = NULL;
	struct randvar_spec spec = { .fn = fn, .var = c->setting, .loc = loc };
	struct plan_randvar *rv;
	int nargs = 0, errors = 0;

	for (const struct ast_attr *a = args; a; a = a->next)
		nargs++;
	av = calloc((size_t)nargs + 1, sizeof(*av));
	if (!av)
		abort();
	for (const struct ast_attr *a = args; a; a = a->next) {
		struct randvar_arg *arg = &av[spec.nargs];
		struct value v;

		if (a == skip)
			continue;
		if (a->is_local) {
			diag_error(c->d, a->loc, "%s() takes attributes, not '$%s'",
				   fn, a->name);
			errors++;
			continue;
		}
		if (a->value && a->value->kind == EX_TABLE) {
			const struct ast_expr *t = a->value;

			if (strcmp(a->name, "randtable") != 0) {
				diag_error(c->d, a->loc,
					   "only randtable takes a table {{...}}, not '%s'",
					   a->name);
				errors++;
				continue;
			}
			free(rows);
			rows = calloc(t->u.table.nrows + 1, sizeof(*rows));
			if (!rows)
				abort();
			spec.nrows = (int)t->u.table.nrows;
			spec.table_loc = t->loc;
			for (size_t r = 0; r < t->u.table.nrows; r++) {
				double cell[3] = { 0, 0, 0 };

				for (int k = 0; k < 3; k++) {
					const struct ast_expr *x = t->u.table.rows[r][k];

					if (eval(c, x, &v) < 0) {
						errors++;
					} else if (v.kind != V_INT && v.kind != V_DOUBLE) {
						diag_error(c->d, x->loc,
							   "randtable cells are numbers, not %s",
							   kind_name(v.kind));
						errors++;
					} else {
						cell[k] = as_double(&v);
					}
				}
				rows[r] = (struct randvar_row){
					.pct = cell[0], .lo = cell[1], .hi = cell[2],
					.loc = t->u.table.rows[r][0]->loc,
				};
			}
			continue;
		}
		arg->name = a->name;
		arg->loc = a->loc;
		arg->val_loc = a->value ? a->value->loc : a->loc;
		if (a->value) {
			if (eval(c, a->value, &v) < 0) {
				errors++;
				continue;
			}
			if (v.kind == V_INT || v.kind == V_DOUBLE) {
				arg->is_num = true;
				arg->num = as_double(&v);
			} else if (v.kind == V_BOOL) {
				arg->is_num = true;
				arg->num = v.b;
			} else if (v.kind == V_RANDVAR) {
				diag_error(c->d, a->value->loc,
					   "%s(): '%s' cannot be a random variable", fn,
					   a->name);
				errors++;
				continue;
			} else {
				arg->str = v.s;
			}
		}
		spec.nargs++;
	}
	spec.args = av;
	spec.rows = rows;
	if (errors == 0) {
		struct plan_randvar tmp;

		memset(&tmp, 0, sizeof(tmp));
		if (randvar_build(&spec, &tmp, &c->p->arena, c->d) == 0) {
			rv = PUSH(c, c->p->randvars, c->p->nrandvars, c->caps_randvars);
			*rv = tmp;
			out->kind = V_RANDVAR;
			out->rv = c->p->nrandvars - 1;
		} else {
			errors++;
		}
	}
	free(av);
	free(rows);
	return errors ? -1 : 0;
}

static int eval_random(struct compiler *c, const char *fn,
		       const struct ast_attr *args, struct src_loc loc,
		       struct value *out)
{
	return build_random(c, fn, args, loc, NULL, out);
}

static int eval(struct compiler *c, const struct ast_expr *e,
		struct value *out)
{
	memset(out, 0, sizeof(*out));
	switch (e->kind) {
	case EX_INT:
		out->kind = V_INT;
		out->i = e->u.i;
		return 0;
	case EX_DOUBLE:
		out->kind = V_DOUBLE;
		out->d = e->u.d;
		return 0;
	case EX_BOOL:
		out->kind = V_BOOL;
		out->b = e->u.b;
		return 0;
	case EX_WORD:
		out->kind = V_STRING;
		out->s = e->u.word;
		return 0;
	case EX_STRING:
		return eval_string(c, e->u.segs, out);
	case EX_VAR:
		return eval_var(c, e->u.var, e->loc, out);
	case EX_NEG:
		if (eval(c, e->u.unary, out) < 0)
			return -1;
		if (out->kind == V_INT && out->i != INT64_MIN) {
			out->i = -out->i;
		} else if (out->kind == V_DOUBLE || out->kind == V_INT) {
			out->d = -as_double(out);
			out->kind = V_DOUBLE;
		} else {
			diag_error(c->d, e->loc, "'-' needs a number, not %s",
				   kind_name(out->kind));
			return -1;
		}
		return 0;
	case EX_ADD:
	case EX_SUB:
	case EX_MUL:
	case EX_DIV:
		return eval_arith(c, e, out);
	case EX_CALL:
		return eval_random(c, e->u.call.fn, e->u.call.args, e->loc, out);
	case EX_TABLE:
		diag_error(c->d, e->loc,
			   "a table {{...}} is only allowed as a randtable");
		return -1;
	}
	return -1;
}

/* ---- attributes ------------------------------------------------------ */

enum attr_type {
	T_STRING,   /* text; numbers are accepted as their decimal text */
	T_SIZE,     /* a non-negative whole number (bytes, counts) */
	T_INT,      /* a whole number, may be negative */
	T_BOOL,     /* true/false, bare, or a number (non-zero = true) */
	T_PCT,      /* a boolean (true = 100) or a percentage 0..100 */
	T_ANY,      /* kept as written (flowop `value`) */
};

enum attr_status {
	BUILT,      /* flowbench implements it */
	NOT_YET,    /* part of WML, not implemented yet */
	MISPLACED,  /* a fileset attribute written in `define file` */
};

struct attr_spec {
	const char *name;
	int id;
	enum attr_type type;
	enum attr_status status;
};

/* Attribute ids of entities other than flowops. */
enum {
	E_NAME, E_PATH, E_SIZE, E_PREALLOC, E_PARALLOC, E_REUSE, E_TRUSTTREE,
	E_READONLY, E_WRITEONLY, E_CACHED, E_ENTRIES, E_DIRWIDTH, E_DIRGAMMA,
	E_DIRDEPTHRV, E_LEAFDIRS, E_INSTANCES, E_NICE, E_MEMSIZE, E_USEISM,
	E_IOPRIO, E_COUNT
};

static const struct attr_spec file_attrs[] = {
	{ "name", E_NAME, T_STRING, BUILT },
	{ "path", E_PATH, T_STRING, BUILT },
	{ "size", E_SIZE, T_SIZE, BUILT },
	{ "filesize", E_SIZE, T_SIZE, BUILT },
	{ "prealloc", E_PREALLOC, T_PCT, BUILT },
	{ "paralloc", E_PARALLOC, T_BOOL, BUILT },
	{ "reuse", E_REUSE, T_BOOL, BUILT },
	{ "trusttree", E_TRUSTTREE, T_BOOL, BUILT },
	{ "readonly", E_READONLY, T_BOOL, BUILT },
	{ "writeonly", E_WRITEONLY, T_BOOL, BUILT },
	{ "cached", E_CACHED, T_BOOL, BUILT },
	{ "entries", E_ENTRIES, T_SIZE, MISPLACED },
	{ "dirwidth", E_DIRWIDTH, T_SIZE, MISPLACED },
	{ "dirgamma", E_DIRGAMMA, T_SIZE, MISPLACED },
	{ "dirdepthrv", E_DIRDEPTHRV, T_ANY, MISPLACED },
	{ "leafdirs", E_LEAFDIRS, T_SIZE, MISPLACED },
	{ NULL, 0, 0, BUILT }
};

static const struct attr_spec fileset_attrs[] = {
	{ "name", E_NAME, T_STRING, BUILT },
	{ "path", E_PATH, T_STRING, BUILT },
	{ "entries", E_ENTRIES, T_SIZE, BUILT },
	{ "size", E_SIZE, T_SIZE, BUILT },
	{ "filesize", E_SIZE, T_SIZE, BUILT },
	{ "dirwidth", E_DIRWIDTH, T_SIZE, BUILT },
	{ "dirgamma", E_DIRGAMMA, T_SIZE, BUILT },
	{ "dirdepthrv", E_DIRDEPTHRV, T_ANY, BUILT },
	{ "leafdirs", E_LEAFDIRS, T_SIZE, BUILT },
	{ "prealloc", E_PREALLOC, T_PCT, BUILT },
	{ "paralloc", E_PARALLOC, T_BOOL, BUILT },
	{ "reuse", E_REUSE, T_BOOL, BUILT },
	{ "trusttree", E_TRUSTTREE, T_BOOL, BUILT },
	{ "readonly", E_READONLY, T_BOOL, BUILT },
	{ "writeonly", E_WRITEONLY, T_BOOL, BUILT },
	{ "cached", E_CACHED, T_BOOL, BUILT },
	{ NULL, 0, 0, BUILT }
};

static const struct attr_spec process_attrs[] = {
	{ "name", E_NAME, T_STRING, BUILT },
	{ "instances", E_INSTANCES, T_SIZE, BUILT },
	{ "nice", E_NICE, T_INT, BUILT },
	{ NULL, 0, 0, BUILT }
};

static const struct attr_spec thread_attrs[] = {
	{ "name", E_NAME, T_STRING, BUILT },
	{ "instances", E_INSTANCES, T_SIZE, BUILT },
	{ "memsize", E_MEMSIZE, T_SIZE, BUILT },
	{ "useism", E_USEISM, T_BOOL, BUILT },
	{ "ioprio", E_IOPRIO, T_SIZE, BUILT },
	{ NULL, 0, 0, BUILT }
};

/* Flowop attributes; FA_COUNT marks `name`, which every flowop takes. */
static const struct attr_spec flowop_attrs[] = {
	{ "name", FA_COUNT, T_STRING, BUILT },
	{ "filename", FA_FILENAME, T_STRING, BUILT },
	{ "filesetname", FA_FILENAME, T_STRING, BUILT },
	{ "iosize", FA_IOSIZE, T_SIZE, BUILT },
	{ "workingset", FA_WORKINGSET, T_SIZE, BUILT },
	{ "random", FA_RANDOM, T_BOOL, BUILT },
	{ "dsync", FA_DSYNC, T_BOOL, BUILT },
	{ "directio", FA_DIRECTIO, T_BOOL, BUILT },
	{ "noreadahead", FA_NOREADAHEAD, T_BOOL, BUILT },
	{ "fd", FA_FD, T_SIZE, BUILT },
	{ "srcfd", FA_SRCFD, T_SIZE, BUILT },
	{ "opennext", FA_OPENNEXT, T_BOOL, BUILT },
	{ "iters", FA_ITERS, T_SIZE, BUILT },
	{ "value", FA_VALUE, T_ANY, BUILT },
	{ "target", FA_TARGET, T_STRING, BUILT },
	{ "blocking", FA_BLOCKING, T_BOOL, BUILT },
	{ "highwater", FA_HIGHWATER, T_SIZE, BUILT },
	{ "indexed", FA_INDEXED, T_SIZE, BUILT },
	{ NULL, 0, 0, BUILT }
};

static const struct attr_spec *find_spec(const struct attr_spec *specs,
					 const char *name)
{
	for (; specs->name; specs++)
		if (strcmp(specs->name, name) == 0)
			return specs;
	return NULL;
}

static void unknown_attr(struct compiler *c, const struct ast_attr *a,
			 const struct attr_spec *specs, const char *what)
{
	const char *names[40];
	char hint[160];
	int n = 0;

	for (; specs->name && n < 39; specs++)
		names[n++] = specs->name;
	names[n] = NULL;
	diag_error(c->d, a->loc, "unknown attribute '%s' for %s%s", a->name,
		   what, diag_did_you_mean(hint, sizeof(hint), a->name, names));
}

/* Convert an evaluated value to what an attribute of type `t` holds. */
static int convert(struct compiler *c, const struct ast_attr *a,
		   enum attr_type t, const struct value *v,
		   struct plan_value *out)
{
	out->loc = a->value ? a->value->loc : a->loc;
	if (v->kind == V_RANDVAR) {
		if (t == T_SIZE || t == T_INT || t == T_ANY) {
			out->kind = PV_RANDOM;
			out->u.rv = v->rv;
			return 0;
		}
		diag_error(c->d, out->loc,
			   "attribute '%s' cannot be a random variable", a->name);
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
	case T_INT:
		if (v->kind == V_STRING || v->kind == V_BOOL) {
			diag_error(c->d, out->loc,
				   "attribute '%s' needs a number, not %s%s%s%s",
				   a->name, kind_name(v->kind),
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
 * Evaluate an attribute list against `specs`.  values[id] receives each
 * attribute (the last one wins when repeated, with a warning); `given`
 * gets bit id set.  `what` names the entity in messages ("flowop read").
 * Returns the number of errors.
 */
static int eval_attrs(struct compiler *c, const struct ast_attr *attrs,
		      const struct attr_spec *specs, const char *what,
		      struct plan_value *values, uint64_t *given)
{
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
			unknown_attr(c, a, specs, what);
			errors++;
			continue;
		}
		if (s->status == MISPLACED) {
			diag_error(c->d, a->loc,
				   "attribute '%s' belongs to 'define fileset', not 'define file'",
				   a->name);
			errors++;
			continue;
		}
		if (s->status == NOT_YET) {
			diag_error(c->d, a->loc,
				   "attribute '%s' of %s is not implemented yet in flowbench",
				   a->name, what);
			errors++;
			continue;
		}
		if (*given & (1ull << s->id))
			diag_warning(c->d, a->loc,
				     "attribute '%s' given twice for %s; the last one counts",
				     a->name, what);
		if (a->value) {
			if (eval(c, a->value, &v) < 0) {
				errors++;
				continue;
			}
		} else {
			v = (struct value){ .kind = V_BOOL, .b = true };
		}
		if (convert(c, a, s->type, &v, &values[s->id]) < 0) {
			errors++;
			continue;
		}
		*given |= 1ull << s->id;
	}
	return errors;
}

/* The string `name=` of an attribute list, evaluated now (or NULL). */
static const char *entity_name(struct compiler *c, const struct ast_attr *attrs,
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
		if (eval(c, a->value, &v) < 0)
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

/* ---- statements ------------------------------------------------------ */

/* Set (or replace) global `$name`, unless -D gave it. */
static void assign_var(struct compiler *c, const char *name, struct src_loc loc,
		       const struct value *val)
{
	struct var *v = find_var(c, name);

	if (v && v->from_cli)
		return;
	if (!v) {
		v = PUSH(c, c->vars, c->nvars, c->capvars);
		v->name = name;
		v->from_cli = false;
	}
	v->v = *val;
	v->loc = loc;
}

static void stmt_set(struct compiler *c, const struct ast_stmt *st)
{
	struct var *v = find_var(c, st->var);
	struct value val;
	int rc;

	if (v && v->from_cli)
		return;         /* -D wins over the script */
	c->setting = st->var;
	rc = eval(c, st->expr, &val);
	c->setting = NULL;
	if (rc == 0)
		assign_var(c, st->var, st->var_loc, &val);
}

static void stmt_set_mode(struct compiler *c, const struct ast_stmt *st)
{
	const struct ast_word *w = st->words;

	if (w && strcmp(w->text, "nousestats") == 0 && !w->next)
		return;         /* a no-op in filebench as well */
	if (w && strcmp(w->text, "quit") == 0 && w->next && !w->next->next) {
		const char *m = w->next->text;
		static const char *const modes[] = {
			"timeout", "firstdone", "alldone", NULL
		};
		char hint[160];

		if (strcmp(m, "timeout") == 0) {
			c->p->quit_mode = QUIT_TIMEOUT;
		} else if (strcmp(m, "firstdone") == 0) {
			c->p->quit_mode = QUIT_FIRSTDONE;
		} else if (strcmp(m, "alldone") == 0) {
			c->p->quit_mode = QUIT_ALLDONE;
		} else {
			diag_error(c->d, w->next->loc,
				   "unknown quit mode '%s'%s", m,
				   diag_did_you_mean(hint, sizeof(hint), m, modes));
		}
		return;
	}
	diag_error(c->d, w ? w->loc : st->loc,
		   "expected 'set mode quit timeout|firstdone|alldone' or 'set mode nousestats'");
}

/* echo/system: the adjacent strings, interpolated and joined (or NULL). */
static const char *concat_strings(struct compiler *c, const struct ast_stmt *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *text;
	bool ok = true;

	if (!f)
		abort();
	for (const struct ast_string_list *s = st->strings; s; s = s->next) {
		struct value v;

		if (eval(c, s->str, &v) < 0) {
			ok = false;
			continue;
		}
		fputs(value_text(c, &v), f);
	}
	fclose(f);
	text = ok ? arena_strndup(&c->p->arena, buf, len) : NULL;
	free(buf);
	return text;
}

/* A number of seconds (run, psrun, sleep) into *out; false after an error. */
static bool eval_seconds(struct compiler *c, const struct ast_expr *e,
			 const char *what, bool negative_ok, double *out)
{
	struct value v;

	if (eval(c, e, &v) < 0)
		return false;
	if (v.kind != V_INT && v.kind != V_DOUBLE) {
		diag_error(c->d, e->loc, "%s needs a number of seconds, not %s",
			   what, kind_name(v.kind));
		return false;
	}
	if (!negative_ok && as_double(&v) < 0) {
		diag_error(c->d, e->loc, "%s: seconds must not be negative", what);
		return false;
	}
	*out = as_double(&v);
	return true;
}

static void push_action(struct compiler *c, enum plan_action_kind kind,
			const char *text, double num, struct src_loc loc)
{
	struct plan_action *act = PUSH(c, c->p->actions, c->p->nactions,
				       c->caps_actions);

	act->kind = kind;
	act->text = text;
	act->num = num;
	act->loc = loc;
}

/* `sleep N` before the run: the master pauses, nothing runs. */
static void stmt_sleep(struct compiler *c, const struct ast_stmt *st)
{
	double secs;

	if (eval_seconds(c, st->expr, "sleep", false, &secs))
		push_action(c, PA_SLEEP, NULL, secs, st->loc);
}

/* `system "..."`: shell commands from a shared workload need consent. */
static void stmt_system(struct compiler *c, const struct ast_stmt *st)
{
	const char *text = concat_strings(c, st);

	if (!c->opts->allow_system) {
		diag_error(c->d, st->loc,
			   "'system' runs a shell command; flowbench runs it only with --allow-system");
		return;
	}
	if (text)
		push_action(c, PA_SYSTEM, text, 0, st->loc);
}

/* `eventgen rate=V`: remembered; the rate is read at `run` (late-bound). */
static void stmt_eventgen(struct compiler *c, const struct ast_stmt *st)
{
	for (const struct ast_attr *a = st->attrs; a; a = a->next) {
		static const char *const names[] = { "rate", NULL };
		char hint[160];

		if (a->is_local || strcmp(a->name, "rate") != 0) {
			diag_error(c->d, a->loc, "unknown attribute '%s' for eventgen%s",
				   a->name, diag_did_you_mean(hint, sizeof(hint),
							      a->name, names));
		} else if (!a->value) {
			diag_error(c->d, a->loc, "eventgen: rate needs a value (rate=N)");
		} else {
			c->eventgen = a;
		}
	}
}

static void stmt_enable(struct compiler *c, const struct ast_stmt *st)
{
	static const char *const what[] = { "lathist", "multi", NULL };
	const char *w = st->words ? st->words->text : "";
	char hint[160];

	if (strcmp(w, "lathist") == 0 && !st->attrs)
		c->p->lathist = true;
	else if (strcmp(w, "multi") == 0)
		diag_error(c->d, st->loc,
			   "'enable multi' (filebench's multi-client synchronisation) is not supported by flowbench");
	else
		diag_error(c->d, st->loc, "unknown 'enable %s'%s", w,
			   diag_did_you_mean(hint, sizeof(hint), w, what));
}

static void stmt_list(struct compiler *c, const struct ast_stmt *st)
{
	static const char *const what[] = { "fileset", "filesets", "flowop", NULL };
	const char *w = st->words ? st->words->text : "";
	char hint[160];

	if (strcmp(w, "fileset") == 0 || strcmp(w, "filesets") == 0)
		push_action(c, PA_LIST_FILESETS, NULL, 0, st->loc);
	else if (strcmp(w, "flowop") == 0)
		push_action(c, PA_LIST_FLOWOPS, NULL, 0, st->loc);
	else
		diag_error(c->d, st->loc, "unknown 'list %s'%s", w,
			   diag_did_you_mean(hint, sizeof(hint), w, what));
}

static void stmt_debug(struct compiler *c, const struct ast_stmt *st)
{
	struct value v;

	if (eval(c, st->expr, &v) < 0)
		return;
	if (v.kind != V_INT || v.i < 0) {
		diag_error(c->d, st->expr->loc,
			   "debug needs a level 0..10, not %s", value_text(c, &v));
		return;
	}
	diag_warning(c->d, st->loc,
		     "'debug' has no effect: flowbench has a single level of messages");
}

static void remember_define(struct compiler *c, const struct ast_stmt *st,
			    struct pending **list, int *n, int *cap,
			    const char *what)
{
	const struct ast_attr *attrs = st->entity ? st->entity->attrs : st->attrs;
	struct src_loc loc = st->entity ? st->entity->loc : st->loc;
	const char *name = entity_name(c, attrs, loc, what);
	struct pending *pd;

	if (!name)
		return;
	for (int i = 0; i < *n; i++) {
		if (strcmp((*list)[i].name, name) == 0 && list == &c->files) {
			diag_error(c->d, loc, "%s '%s' is defined twice", what, name);
			diag_note(c->d, (*list)[i].st->loc, "first defined here");
			return;
		}
	}
	pd = PUSH(c, *list, *n, *cap);
	pd->st = st;
	pd->name = name;
}

/* The 1.4 form `define randvar name=$v, type=..., ...`. */
static void define_randvar(struct compiler *c, const struct ast_stmt *st)
{
	const struct ast_attr *name = NULL;
	struct value val;
	struct var *v;

	for (const struct ast_attr *a = st->attrs; a; a = a->next)
		if (!a->is_local && strcmp(a->name, "name") == 0)
			name = a;
	if (!name || !name->value || name->value->kind != EX_VAR) {
		diag_error(c->d, name ? name->loc : st->loc,
			   "define randvar needs name=$variable");
		return;
	}
	v = find_var(c, name->value->u.var);
	if (v && v->from_cli)
		return;         /* -D gave the variable a value */
	c->setting = name->value->u.var;
	if (build_random(c, "randvar", st->attrs, st->loc, name, &val) == 0)
		assign_var(c, name->value->u.var, name->value->loc, &val);
	c->setting = NULL;
}

static struct composite *find_composite(struct compiler *c, const char *name)
{
	for (int i = 0; i < c->ncomposites; i++)
		if (strcmp(c->composites[i].name, name) == 0)
			return &c->composites[i];
	return NULL;
}

/*
 * `define flowop name=N [, iters=V] [, $local[=value]]... { flowop ... }`:
 * remembered by name; every invocation expands it (build_composite).
 */
static void define_composite(struct compiler *c, const struct ast_stmt *st)
{
	const struct ast_entity *e = st->entity;
	const char *name = entity_name(c, e->attrs, e->loc, "composite flowop");
	struct composite *cp;

	if (!name)
		return;
	if (flowop_lookup(name) || flowop_is_known_unimplemented(name)) {
		diag_error(c->d, e->loc,
			   "a composite flowop cannot be named '%s': that is a built-in flowop",
			   name);
		return;
	}
	if (find_composite(c, name)) {
		diag_error(c->d, e->loc, "composite flowop '%s' is defined twice", name);
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		const struct ast_attr *a = pass ? e->trailing_attrs : e->attrs;

		for (; a; a = a->next) {
			if (a->is_local || strcmp(a->name, "name") == 0 ||
			    strcmp(a->name, "iters") == 0)
				continue;
			diag_error(c->d, a->loc,
				   "'define flowop' takes name, iters and local variables ($name=value), not '%s'",
				   a->name);
		}
	}
	cp = PUSH(c, c->composites, c->ncomposites, c->capcomposites);
	cp->name = name;
	cp->e = e;
	cp->expanding = false;
}

/* The script-order pass: everything up to (and including) `run`. */
static const struct ast_stmt *walk_script(struct compiler *c)
{
	for (const struct ast_stmt *st = c->script->stmts; st; st = st->next) {
		switch (st->kind) {
		case ST_SET:
			stmt_set(c, st);
			break;
		case ST_SET_MODE:
			stmt_set_mode(c, st);
			break;
		case ST_DEFINE_FILE:
			remember_define(c, st, &c->files, &c->nfiles,
					&c->capfiles, "file");
			break;
		case ST_DEFINE_PROCESS:
			remember_define(c, st, &c->procs, &c->nprocs,
					&c->capprocs, "process");
			break;
		case ST_DEFINE_FILESET:
			remember_define(c, st, &c->files, &c->nfiles,
					&c->capfiles, "fileset");
			break;
		case ST_DEFINE_COMPOSITE:
			define_composite(c, st);
			break;
		case ST_DEFINE_RANDVAR:
			define_randvar(c, st);
			break;
		case ST_CREATE_FILES:
			if (!st->words || strcmp(st->words->text, "files") != 0)
				diag_error(c->d, st->loc,
					   "unknown 'create %s' (only 'create files' exists)",
					   st->words ? st->words->text : "");
			/* files are created at `run` in any case */
			break;
		case ST_RUN:
			return st;
		case ST_PSRUN:
			return st;
		case ST_ECHO: {
			const char *text = concat_strings(c, st);

			if (text)
				push_action(c, PA_ECHO, text, 0, st->loc);
			break;
		}
		case ST_SLEEP:
			stmt_sleep(c, st);
			break;
		case ST_SYSTEM:
			stmt_system(c, st);
			break;
		case ST_EVENTGEN:
			stmt_eventgen(c, st);
			break;
		case ST_ENABLE:
			stmt_enable(c, st);
			break;
		case ST_DOMULTISYNC:
			diag_error(c->d, st->loc,
				   "'domultisync' (filebench's multi-client synchronisation) is not supported by flowbench");
			break;
		case ST_LIST:
			stmt_list(c, st);
			break;
		case ST_DEBUG:
			stmt_debug(c, st);
			break;
		case ST_VERSION:
			push_action(c, PA_VERSION, NULL, 0, st->loc);
			break;
		case ST_QUIT:
			push_action(c, PA_QUIT, NULL, 0, st->loc);
			return st;
		}
	}
	return NULL;
}

/* ---- evaluation at `run` --------------------------------------------- */

/* A constant attribute, or its default; a random variable is an error. */
static bool flag_attr(const struct plan_value *v, uint64_t given, int id)
{
	return (given & (1ull << id)) && v[id].u.b;
}

static int64_t const_attr(struct compiler *c, const struct plan_value *v,
			  uint64_t given, int id, const char *name, int64_t dflt)
{
	if (!(given & (1ull << id)))
		return dflt;
	if (v[id].kind == PV_RANDOM) {
		diag_error(c->d, v[id].loc,
			   "attribute '%s' cannot be a random variable", name);
		return dflt;
	}
	return v[id].u.i;
}

/* A random-variable attribute: its index, -1 when not given or constant. */
static int random_attr(const struct plan_value *v, uint64_t given, int id)
{
	return (given & (1ull << id)) && v[id].kind == PV_RANDOM ? v[id].u.rv : -1;
}

/*
 * `define file` and `define fileset`: a file is a fileset of one entry
 * with a fixed shape (dirwidth 10, dirgamma 0, no leaf directories).
 */
static void build_fileset(struct compiler *c, const struct pending *pd)
{
	bool is_file = pd->st->kind == ST_DEFINE_FILE;
	const char *what = is_file ? "file" : "fileset";
	struct plan_value v[E_COUNT] = { 0 };
	uint64_t given;
	struct plan_fileset *fs;
	int64_t size;

	if (eval_attrs(c, pd->st->attrs, is_file ? file_attrs : fileset_attrs,
		       what, v, &given))
		return;
	if (!(given & (1ull << E_PATH))) {
		diag_error(c->d, pd->st->loc, "%s '%s' needs a path (path=...)",
			   what, pd->name);
		return;
	}
	if (given & (1ull << E_CACHED))
		diag_warning(c->d, v[E_CACHED].loc,
			     "'cached' is ignored: the cache state is set by --cache (cold by default)");
	if (flag_attr(v, given, E_READONLY) && flag_attr(v, given, E_WRITEONLY))
		diag_error(c->d, v[E_WRITEONLY].loc,
			   "%s '%s' cannot be both readonly and writeonly",
			   what, pd->name);

	fs = PUSH(c, c->p->filesets, c->p->nfilesets, c->caps_filesets);
	memset(fs, 0, sizeof(*fs));
	fs->name = pd->name;
	fs->path = v[E_PATH].u.s;
	fs->is_file = is_file;
	fs->loc = pd->st->loc;
	size = (given & (1ull << E_SIZE)) && v[E_SIZE].kind == PV_INT ?
	       v[E_SIZE].u.i : 1024;
	fs->size = (uint64_t)size;
	fs->size_rv = random_attr(v, given, E_SIZE);
	fs->prealloc_pct = (int)const_attr(c, v, given, E_PREALLOC, "prealloc", 0);
	fs->paralloc = flag_attr(v, given, E_PARALLOC);
	fs->reuse = flag_attr(v, given, E_REUSE);
	fs->trusttree = flag_attr(v, given, E_TRUSTTREE);
	fs->readonly = flag_attr(v, given, E_READONLY);
	fs->writeonly = flag_attr(v, given, E_WRITEONLY);
	fs->dirwidth_rv = -1;
	fs->dirdepth_rv = -1;
	if (is_file) {
		fs->entries = 1;
		fs->dirwidth = 10;
		fs->dirgamma = 0;
	} else {
		fs->entries = (uint64_t)const_attr(c, v, given, E_ENTRIES, "entries", 0);
		fs->leafdirs = (uint64_t)const_attr(c, v, given, E_LEAFDIRS, "leafdirs", 0);
		fs->dirgamma = const_attr(c, v, given, E_DIRGAMMA, "dirgamma", 1500);
		fs->dirwidth_rv = random_attr(v, given, E_DIRWIDTH);
		if (given & (1ull << E_DIRWIDTH) && fs->dirwidth_rv < 0)
			fs->dirwidth = (double)v[E_DIRWIDTH].u.i;
		if (given & (1ull << E_DIRDEPTHRV)) {
			fs->dirdepth_rv = random_attr(v, given, E_DIRDEPTHRV);
			if (fs->dirdepth_rv < 0)
				diag_error(c->d, v[E_DIRDEPTHRV].loc,
					   "fileset '%s': dirdepthrv must name a random variable",
					   pd->name);
		}
		if (fs->entries == 0 && fs->leafdirs == 0)
			diag_warning(c->d, pd->st->loc,
				     "fileset '%s' has no entries and no leafdirs",
				     pd->name);
		if (!(given & (1ull << E_DIRWIDTH)) &&
		    (fs->entries > 1 || fs->leafdirs > 1))
			diag_error(c->d, pd->st->loc,
				   "fileset '%s' needs a directory width (dirwidth=...)",
				   pd->name);
		else if (fs->dirwidth_rv < 0 && (given & (1ull << E_DIRWIDTH)) &&
			 fs->dirwidth < 1)
			diag_error(c->d, v[E_DIRWIDTH].loc,
				   "fileset '%s': dirwidth must be at least 1",
				   pd->name);
	}
	if (!fs->path[0])
		diag_error(c->d, v[E_PATH].loc, "%s '%s': path is empty", what,
			   pd->name);
	if (strchr(fs->name, '/') || strcmp(fs->name, ".") == 0 ||
	    strcmp(fs->name, "..") == 0 || !fs->name[0])
		diag_error(c->d, pd->st->loc,
			   "%s name '%s' must be a single path component", what,
			   fs->name);
}

static int find_fileset(struct compiler *c, const char *name)
{
	for (int i = 0; i < c->p->nfilesets; i++)
		if (strcmp(c->p->filesets[i].name, name) == 0)
			return i;
	return -1;
}

/* A file whose definition had errors: do not report it missing too. */
static bool defined_but_broken(struct compiler *c, const char *name)
{
	for (int i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i].name, name) == 0)
			return true;
	return false;
}

static void build_composite(struct compiler *c, const struct ast_entity *e,
			    struct composite *cp, int thread, const char *prefix,
			    int depth);

/* A flowop name is unique in the whole plan: it labels its statistics. */
static bool name_is_new(struct compiler *c, const char *name, struct src_loc loc)
{
	for (int i = 0; i < c->p->nflowops; i++) {
		if (strcmp(c->p->flowops[i].name, name) == 0) {
			diag_error(c->d, loc,
				   "flowop name '%s' is used twice (each flowop needs its own name: it labels its statistics)",
				   name);
			diag_note(c->d, c->p->flowops[i].loc, "first used here");
			return false;
		}
	}
	return true;
}

/*
 * One flowop statement of a thread (prefix NULL, depth 0) or of a
 * composite being expanded (prefix = the invocation's name: the copy is
 * named "<prefix>.<name>").
 */
static void build_flowop(struct compiler *c, const struct ast_entity *e,
			 int thread, const char *prefix, int depth)
{
	const struct flowop_ops *ops = flowop_lookup(e->type);
	struct plan_value v[FA_COUNT + 1] = { 0 };
	uint64_t given;
	struct plan_flowop *f;
	struct composite *cp;
	const char *name;
	char what[96];
	char hint[160];

	if (!ops && (cp = find_composite(c, e->type))) {
		build_composite(c, e, cp, thread, prefix, depth);
		return;
	}
	if (!ops) {
		if (flowop_is_known_unimplemented(e->type))
			diag_error(c->d, e->type_loc,
				   "flowop '%s' is not implemented yet in flowbench",
				   e->type);
		else
			diag_error(c->d, e->type_loc, "unknown flowop '%s'%s",
				   e->type,
				   diag_did_you_mean(hint, sizeof(hint), e->type,
						     flowop_names()));
		return;
	}
	snprintf(what, sizeof(what), "flowop %s", ops->name);
	if (eval_attrs(c, e->attrs, flowop_attrs, what, v, &given))
		return;
	for (const struct ast_attr *a = e->attrs; a; a = a->next) {
		const struct attr_spec *s = find_spec(flowop_attrs, a->name);

		if (s && s->id != FA_COUNT && !(ops->attrs & FA_BIT(s->id))) {
			diag_error(c->d, a->loc,
				   "flowop %s does not take attribute '%s'",
				   ops->name, a->name);
			return;
		}
	}
	if (!(given & (1ull << FA_COUNT))) {
		diag_error(c->d, e->loc, "flowop %s needs a name (name=...)",
			   ops->name);
		return;
	}
	name = prefix ? arena_printf(&c->p->arena, "%s.%s", prefix,
				     v[FA_COUNT].u.s) : v[FA_COUNT].u.s;
	if (!name_is_new(c, name, v[FA_COUNT].loc))
		return;

	f = PUSH(c, c->p->flowops, c->p->nflowops, c->caps_flowops);
	memset(f, 0, sizeof(*f));
	f->ops = ops;
	f->name = name;
	f->depth = depth;
	f->loc = e->loc;
	f->thread = thread;
	f->fileset = -1;
	for (int a = 0; a < FA_COUNT; a++) {
		f->attr[a] = v[a];
		if (given & (1ull << a))
			f->given |= FA_BIT(a);
	}
	if (plan_attr_given(f, FA_ITERS) && f->attr[FA_ITERS].kind == PV_INT &&
	    f->attr[FA_ITERS].u.i < 1)
		diag_error(c->d, f->attr[FA_ITERS].loc,
			   "flowop %s: iters must be at least 1", f->name);
	if (plan_attr_given(f, FA_FILENAME)) {
		const char *fname = f->attr[FA_FILENAME].u.s;

		f->fileset = find_fileset(c, fname);
		if (f->fileset < 0 && defined_but_broken(c, fname))
			return;         /* its definition's error was reported */
		if (f->fileset < 0) {
			const char **names = calloc((size_t)c->p->nfilesets + 1,
						    sizeof(*names));

			for (int i = 0; names && i < c->p->nfilesets; i++)
				names[i] = c->p->filesets[i].name;
			diag_error(c->d, f->attr[FA_FILENAME].loc,
				   "flowop %s: no file or fileset named '%s'%s",
				   f->name, fname,
				   names ? diag_did_you_mean(hint, sizeof(hint),
							     fname, names) : "");
			free(names);
		}
	}
}

/* Bind local `a` (declared by the definition or given at invocation). */
static void bind_local(struct compiler *c, struct scope *sc,
		       const struct ast_attr *a, bool declare)
{
	struct local *l = NULL;

	for (int i = 0; i < sc->n; i++)
		if (strcmp(sc->vars[i].name, a->name) == 0)
			l = &sc->vars[i];
	if (!l && !declare) {
		const char **names = calloc((size_t)sc->n + 1, sizeof(*names));
		const char *best = NULL;

		for (int i = 0; names && i < sc->n; i++)
			names[i] = sc->vars[i].name;
		if (names)
			best = diag_suggest(a->name, names);
		diag_error(c->d, a->loc, "composite '%s' has no local variable '$%s'%s%s%s",
			   sc->composite, a->name, best ? " (did you mean '$" : "",
			   best ? best : "", best ? "'?)" : "");
		free(names);
		return;
	}
	if (!l) {
		l = &sc->vars[sc->n++];
		l->name = a->name;
		l->has_value = false;
	}
	if (a->value) {
		if (eval(c, a->value, &l->v) == 0)
			l->has_value = true;
	} else if (!declare) {
		l->v = (struct value){ .kind = V_BOOL, .b = true };
		l->has_value = true;
	}
}

/*
 * An invocation `flowop <composite> name=inv, iters=N, $local=value...`:
 * a plan entry for the composite, then a copy of each inner flowop named
 * "inv.<inner>", evaluated with the composite's local variables bound
 * (invocation values over definition defaults, both read in the scope
 * around the invocation).
 */
static void build_composite(struct compiler *c, const struct ast_entity *e,
			    struct composite *cp, int thread, const char *prefix,
			    int depth)
{
	const struct ast_entity *def = cp->e;
	struct plan_value iters = { 0 };
	const char *name = NULL;
	struct scope sc = { .composite = cp->name, .up = c->scope };
	int nlocals = 0, index;
	struct plan_flowop *f;

	if (cp->expanding) {
		diag_error(c->d, e->type_loc, "composite '%s' invokes itself", cp->name);
		return;
	}
	for (int pass = 0; pass < 2; pass++)
		for (const struct ast_attr *a = pass ? def->trailing_attrs : def->attrs; a; a = a->next)
			nlocals += a->is_local;
	for (const struct ast_attr *a = e->attrs; a; a = a->next)
		nlocals += a->is_local;
	sc.vars = calloc((size_t)nlocals + 1, sizeof(*sc.vars));
	if (!sc.vars)
		abort();
	/* definition defaults, then the invocation's values */
	for (int pass = 0; pass < 2; pass++) {
		for (const struct ast_attr *a = pass ? def->trailing_attrs : def->attrs; a; a = a->next) {
			struct value v;

			if (a->is_local)
				bind_local(c, &sc, a, true);
			else if (strcmp(a->name, "iters") == 0 && a->value &&
				 eval(c, a->value, &v) == 0)
				convert(c, a, T_SIZE, &v, &iters);
		}
	}
	for (const struct ast_attr *a = e->attrs; a; a = a->next) {
		struct value v;

		if (a->is_local) {
			bind_local(c, &sc, a, false);
		} else if (strcmp(a->name, "name") == 0 && a->value) {
			if (eval(c, a->value, &v) == 0)
				name = value_text(c, &v);
		} else if (strcmp(a->name, "iters") == 0 && a->value) {
			if (eval(c, a->value, &v) == 0)
				convert(c, a, T_SIZE, &v, &iters);
		} else {
			diag_error(c->d, a->loc,
				   "composite flowop '%s' takes name, iters and its local variables, not '%s'",
				   cp->name, a->name);
		}
	}
	if (!name) {
		diag_error(c->d, e->loc, "flowop %s needs a name (name=...)", cp->name);
		free(sc.vars);
		return;
	}
	if (prefix)
		name = arena_printf(&c->p->arena, "%s.%s", prefix, name);
	if (!name_is_new(c, name, e->loc)) {
		free(sc.vars);
		return;
	}
	index = c->p->nflowops;
	f = PUSH(c, c->p->flowops, c->p->nflowops, c->caps_flowops);
	memset(f, 0, sizeof(*f));
	f->ops = flowop_composite();
	f->name = name;
	f->loc = e->loc;
	f->thread = thread;
	f->fileset = -1;
	f->depth = depth;
	if (iters.kind != PV_UNSET) {
		f->attr[FA_ITERS] = iters;
		f->given |= FA_BIT(FA_ITERS);
	}

	cp->expanding = true;
	c->scope = &sc;
	for (const struct ast_entity *inner = def->body; inner; inner = inner->next)
		build_flowop(c, inner, thread, name, depth + 1);
	c->scope = sc.up;
	cp->expanding = false;
	c->p->flowops[index].ndesc = c->p->nflowops - index - 1;
	free(sc.vars);
}

static void build_thread(struct compiler *c, const struct ast_entity *e,
			 int proc)
{
	struct plan_value v[E_COUNT] = { 0 };
	uint64_t given;
	struct plan_thread *t;
	int index = c->p->nthreads;

	/* attributes in error keep their defaults: the flowops are checked too */
	eval_attrs(c, e->attrs, thread_attrs, "thread", v, &given);
	if (!(given & (1ull << E_NAME))) {
		diag_error(c->d, e->loc, "thread needs a name (name=...)");
		v[E_NAME].u.s = "?";
	}
	if (given & (1ull << E_USEISM))
		diag_warning(c->d, v[E_USEISM].loc,
			     "'useism' has no effect in flowbench: thread memory is always private");

	t = PUSH(c, c->p->threads, c->p->nthreads, c->caps_threads);
	memset(t, 0, sizeof(*t));
	t->name = v[E_NAME].u.s;
	t->loc = e->loc;
	t->proc = proc;
	t->instances = (given & (1ull << E_INSTANCES)) ? (uint64_t)v[E_INSTANCES].u.i : 1;
	t->memsize = (given & (1ull << E_MEMSIZE)) ? (uint64_t)v[E_MEMSIZE].u.i : 0;
	t->ioprio = (given & (1ull << E_IOPRIO)) ? (int)v[E_IOPRIO].u.i : 8;
	if (t->instances == 0)
		diag_error(c->d, v[E_INSTANCES].loc,
			   "thread '%s': instances must be at least 1", t->name);
	if (t->ioprio > 8)
		diag_error(c->d, v[E_IOPRIO].loc,
			   "thread '%s': ioprio is 0..7 (or 8 to leave it unchanged), not %d",
			   t->name, t->ioprio);
	t->first_flowop = c->p->nflowops;
	for (const struct ast_entity *fo = e->body; fo; fo = fo->next)
		build_flowop(c, fo, index, NULL, 0);
	/* `t` may have moved if the threads array grew: index again */
	c->p->threads[index].nflowops = c->p->nflowops -
					c->p->threads[index].first_flowop;
}

static void build_process(struct compiler *c, const struct pending *pd)
{
	const struct ast_entity *e = pd->st->entity;
	struct plan_value v[E_COUNT] = { 0 };
	uint64_t given;
	struct plan_proc *pr;
	int index = c->p->nprocs;

	/* attributes in error keep their defaults: the threads are checked too */
	eval_attrs(c, e->attrs, process_attrs, "process", v, &given);
	pr = PUSH(c, c->p->procs, c->p->nprocs, c->caps_procs);
	memset(pr, 0, sizeof(*pr));
	pr->name = pd->name;
	pr->loc = e->loc;
	pr->instances = (given & (1ull << E_INSTANCES)) ? (uint64_t)v[E_INSTANCES].u.i : 1;
	pr->nice = (given & (1ull << E_NICE)) ? (int)v[E_NICE].u.i : 0;
	if (pr->instances == 0)
		diag_error(c->d, v[E_INSTANCES].loc,
			   "process '%s': instances must be at least 1", pr->name);
	pr->first_thread = c->p->nthreads;
	for (const struct ast_entity *t = e->body; t; t = t->next)
		build_thread(c, t, index);
	c->p->procs[index].nthreads = c->p->nthreads -
				      c->p->procs[index].first_thread;
}

/*
 * `run [N]` or `psrun [period [N]]`: the duration (0 or absent: 60 s in
 * timeout mode, "until the workload ends" in the other modes), then every
 * definition evaluated with the variables as they stand now.
 */
static void build_run(struct compiler *c, const struct ast_stmt *run)
{
	struct plan *p = c->p;
	const struct ast_expr *duration = NULL;
	double secs = 0;

	p->has_run = run != NULL || c->opts->runtime_given;
	if (run) {
		p->run_loc = run->loc;
		duration = run->kind == ST_PSRUN ? run->expr2 : run->expr;
		if (run->kind == ST_PSRUN) {
			p->psrun_period = 10;
			if (run->expr) {
				double period;

				if (!eval_seconds(c, run->expr, "psrun", true, &period))
					;
				else if (period == 0)
					diag_error(c->d, run->expr->loc,
						   "psrun: the period must not be 0");
				else
					p->psrun_period = period;
			}
		}
	}
	if (duration && !eval_seconds(c, duration,
				      run->kind == ST_PSRUN ? "psrun" : "run",
				      false, &secs))
		secs = 0;
	if (secs <= 0)
		secs = p->quit_mode == QUIT_TIMEOUT ? 60 : 0;
	p->runtime_s = c->opts->runtime_given ? c->opts->runtime_s : secs;
	if (c->eventgen) {
		struct value v;

		if (eval(c, c->eventgen->value, &v) == 0) {
			if (v.kind != V_INT && v.kind != V_DOUBLE)
				diag_error(c->d, c->eventgen->value->loc,
					   "eventgen rate needs a number of events per second, not %s",
					   kind_name(v.kind));
			else {
				p->eventgen_rate.kind = PV_DOUBLE;
				p->eventgen_rate.u.d = as_double(&v);
				p->eventgen_rate.loc = c->eventgen->value->loc;
			}
		}
	}

	for (int i = 0; i < c->nfiles; i++)
		build_fileset(c, &c->files[i]);
	for (int i = 0; i < c->nprocs; i++)
		build_process(c, &c->procs[i]);
	if (c->d->errors == 0 && p->nprocs == 0 && p->has_run)
		diag_error(c->d, run ? run->loc : (struct src_loc){ 0, 0 },
			   "nothing to run: the script defines no process");
}

/* Put the -D variables in place before the script's first statement. */
static void seed_defines(struct compiler *c)
{
	for (int i = 0; i < c->opts->ndefines; i++) {
		struct compile_define *def = &c->opts->defines[i];
		struct var *v = find_var(c, def->name);
		struct value val;

		if (eval(c, def->value, &val) < 0)
			continue;
		if (!v) {
			v = PUSH(c, c->vars, c->nvars, c->capvars);
			v->name = def->name;
		}
		v->v = val;
		v->from_cli = true;
		v->loc = (struct src_loc){ 0, 0 };
	}
}

/* Does the script mention $name anywhere (set or used)?  For -D typos. */
static bool expr_mentions(const struct ast_expr *e, const char *name);

static bool attrs_mention(const struct ast_attr *a, const char *name)
{
	for (; a; a = a->next)
		if (a->value && expr_mentions(a->value, name))
			return true;
	return false;
}

static bool expr_mentions(const struct ast_expr *e, const char *name)
{
	if (!e)
		return false;
	switch (e->kind) {
	case EX_VAR:
		return strcmp(e->u.var, name) == 0;
	case EX_STRING:
		for (const struct ast_strseg *s = e->u.segs; s; s = s->next)
			if (s->is_var && strcmp(s->text, name) == 0)
				return true;
		return false;
	case EX_NEG:
		return expr_mentions(e->u.unary, name);
	case EX_ADD:
	case EX_SUB:
	case EX_MUL:
	case EX_DIV:
		return expr_mentions(e->u.binary.l, name) ||
		       expr_mentions(e->u.binary.r, name);
	case EX_CALL:
		return attrs_mention(e->u.call.args, name);
	case EX_TABLE:
		for (size_t r = 0; r < e->u.table.nrows; r++)
			for (int k = 0; k < 3; k++)
				if (expr_mentions(e->u.table.rows[r][k], name))
					return true;
		return false;
	default:
		return false;
	}
}

static bool entity_mentions(const struct ast_entity *e, const char *name)
{
	for (; e; e = e->next)
		if (attrs_mention(e->attrs, name) ||
		    attrs_mention(e->trailing_attrs, name) ||
		    entity_mentions(e->body, name))
			return true;
	return false;
}

static bool script_mentions(const struct ast_script *s, const char *name)
{
	for (const struct ast_stmt *st = s->stmts; st; st = st->next) {
		if (st->kind == ST_SET && strcmp(st->var, name) == 0)
			return true;
		if (expr_mentions(st->expr, name) ||
		    expr_mentions(st->expr2, name) ||
		    attrs_mention(st->attrs, name) ||
		    entity_mentions(st->entity, name))
			return true;
		for (const struct ast_string_list *l = st->strings; l; l = l->next)
			if (expr_mentions(l->str, name))
				return true;
	}
	return false;
}

static void check_defines_used(struct compiler *c)
{
	for (int i = 0; i < c->opts->ndefines; i++) {
		const char *name = c->opts->defines[i].name;
		const char **names;
		char hint[160] = "";
		int n = 0;

		c->opts->defines[i].used = script_mentions(c->script, name);
		if (c->opts->defines[i].used)
			continue;
		names = calloc((size_t)c->nvars + 1, sizeof(*names));
		for (int k = 0; names && k < c->nvars; k++)
			if (!c->vars[k].from_cli)
				names[n++] = c->vars[k].name;
		if (names) {
			const char *best = diag_suggest(name, names);

			if (best)
				snprintf(hint, sizeof(hint),
					 " (did you mean '%s'?)", best);
		}
		free(names);
		diag_error(c->d, (struct src_loc){ 0, 0 },
			   "-D %s: the script has no variable '$%s'%s", name,
			   name, hint);
	}
}

/* ---- entry ----------------------------------------------------------- */

int compile_script(const struct ast_script *script,
		   struct compile_options *opts, struct diag *d,
		   struct plan *out)
{
	struct compiler c = {
		.script = script, .opts = opts, .d = d, .p = out,
	};
	const struct ast_stmt *run;
	int errors_before = d->errors;

	memset(out, 0, sizeof(*out));
	arena_init(&out->arena);
	out->filename = script->filename;
	out->quit_mode = QUIT_TIMEOUT;

	seed_defines(&c);
	run = walk_script(&c);
	if (run && run->next)
		diag_error(d, run->next->loc,
			   "commands after '%s' are never executed; remove them or move them before it",
			   run->kind == ST_QUIT ? "quit" : run->kind == ST_PSRUN ? "psrun" : "run");
	out->seed = opts->seed;
	out->allow_system = opts->allow_system;
	if (run && run->kind == ST_QUIT)
		run = NULL;     /* nothing runs; the actions end with PA_QUIT */
	build_run(&c, run);
	check_defines_used(&c);

	for (int i = 0; i < out->nflowops; i++) {
		const struct plan_flowop *f = &out->flowops[i];

		if (f->ops->validate)
			f->ops->validate(out, f, d);
	}
	free(c.vars);
	free(c.composites);
	free(c.files);
	free(c.procs);
	return d->errors - errors_before;
}
