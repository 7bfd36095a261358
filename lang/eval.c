/*
 * eval.c - values, variables and the expressions that combine them.
 *
 * Every attribute, `set` and `echo` of a script ends up here: a literal,
 * a `$variable` (a composite's local first, then the globals), a quoted
 * string with variables interpolated, arithmetic, or a randvar(...) call
 * (handed to random.c).  Evaluation happens at the moment WML would do it,
 * so the caller decides when; this file only knows how.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/compiler.h"
#include "plan/diag.h"
#include "plan/oom.h"

/* ---- values ---------------------------------------------------------- */

/* How a value reads in a string, a message or a text attribute. */
const char *value_text(struct compiler *c, const struct value *v)
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

/* "a number", "a string"...: for "needs X, not Y" messages. */
const char *value_kind_name(enum val_kind k)
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

double value_as_double(const struct value *v)
{
	return v->kind == V_INT ? (double)v->i : v->d;
}

/* ---- variables and composite scopes ----------------------------------- */

struct var *var_find(struct compiler *c, const char *name)
{
	int i = name_find(&c->var_names, name);

	return i < 0 ? NULL : &c->vars[i];
}

/* A new global `$name` (not set yet: the caller fills it in). */
struct var *var_add(struct compiler *c, const char *name)
{
	struct var *v = PUSH(c->vars, c->nvars, c->capvars);

	memset(v, 0, sizeof(*v));
	v->name = name;
	name_put(&c->var_names, name, c->nvars - 1);
	return v;
}

/*
 * " (did you mean '$x'?)" over the variables set so far, or "" (also when
 * the error will not be shown: the search is as long as the script).
 */
static const char *var_suggestion(struct compiler *c, const char *name,
				  char *buf, size_t size)
{
	const char **names;
	const char *best = NULL;

	buf[0] = '\0';
	if (!diag_error_shown(c->d))
		return buf;
	names = calloc((size_t)c->nvars + 1, sizeof(*names));

	for (int i = 0; names && i < c->nvars; i++)
		names[i] = c->vars[i].name;
	if (names)
		best = diag_suggest(name, names);
	if (best)
		snprintf(buf, size, " (did you mean '$%s'?)", best);
	free(names);
	return buf;
}

/* Set (or replace) global `$name`, unless -D gave it or it is read-only. */
void var_assign(struct compiler *c, const char *name, struct src_loc loc,
		const struct value *val)
{
	struct var *v = var_find(c, name);

	if (v && v->from_cli)
		return;
	if (var_refuse_read_only(c, v, loc, ""))
		return;
	if (!v)
		v = var_add(c, name);
	v->v = *val;
	v->loc = loc;
}

/* Bind local `a` (declared by the definition or given at invocation). */
void scope_bind(struct compiler *c, struct scope *sc,
		const struct ast_attr *a, bool declare)
{
	int known = name_find(&sc->names, a->name);
	struct local *l = known < 0 ? NULL : &sc->vars[known];

	if (!l && !declare) {
		const char **names = diag_error_shown(c->d) ?
				     calloc((size_t)sc->n + 1, sizeof(*names)) : NULL;
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
		name_put(&sc->names, a->name, sc->n);
		l = &sc->vars[sc->n++];
		l->name = a->name;
		l->has_value = false;
	}
	if (a->value) {
		if (eval_expr(c, a->value, &l->v) == 0)
			l->has_value = true;
	} else if (!declare) {
		l->v = (struct value){ .kind = V_BOOL, .b = true };
		l->has_value = true;
	}
}

/* ---- expressions ------------------------------------------------------ */

/* Look up `$name` at `loc`; an unset variable is an error. */
static int eval_var(struct compiler *c, const char *name, struct src_loc loc,
		    struct value *out)
{
	const struct var *v;

	for (const struct scope *sc = c->scope; sc; sc = sc->up) {
		int i = name_find(&sc->names, name);

		if (i < 0)
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
	v = var_find(c, name);

	if (!v) {
		char hint[160] = "";

		var_suggestion(c, name, hint, sizeof(hint));
		if (!hint[0])      /* e.g. an imported device's size: the user's to give */
			snprintf(hint, sizeof(hint), " (set it in the script, or on the "
				 "command line with -D %s=VALUE)", name);
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
		oom_exit();
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

/* + - * / over numbers: integers stay exact unless a division leaves a
 * remainder or the result overflows, then the result is a double. */
static int eval_arith(struct compiler *c, const struct ast_expr *e,
		      struct value *out)
{
	struct value l, r;
	const char *op = e->kind == EX_ADD ? "+" : e->kind == EX_SUB ? "-" :
			 e->kind == EX_MUL ? "*" : "/";

	if (eval_expr(c, e->u.binary.l, &l) < 0 ||
	    eval_expr(c, e->u.binary.r, &r) < 0)
		return -1;
	if ((l.kind != V_INT && l.kind != V_DOUBLE) ||
	    (r.kind != V_INT && r.kind != V_DOUBLE)) {
		const struct value *bad = (l.kind != V_INT && l.kind != V_DOUBLE)
					  ? &l : &r;
		diag_error(c->d, e->loc, "'%s' needs numbers, not %s", op,
			   value_kind_name(bad->kind));
		return -1;
	}
	if (e->kind == EX_DIV && value_as_double(&r) == 0) {
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
		out->d = value_as_double(&l) + value_as_double(&r);
		break;
	case EX_SUB:
		out->d = value_as_double(&l) - value_as_double(&r);
		break;
	case EX_MUL:
		out->d = value_as_double(&l) * value_as_double(&r);
		break;
	default:
		out->d = value_as_double(&l) / value_as_double(&r);
		break;
	}
	return 0;
}

/* Evaluate `e` now, into *out; 0, or -1 after reporting the error. */
int eval_expr(struct compiler *c, const struct ast_expr *e, struct value *out)
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
		if (eval_expr(c, e->u.unary, out) < 0)
			return -1;
		if (out->kind == V_INT && out->i != INT64_MIN) {
			out->i = -out->i;
		} else if (out->kind == V_DOUBLE || out->kind == V_INT) {
			out->d = -value_as_double(out);
			out->kind = V_DOUBLE;
		} else {
			diag_error(c->d, e->loc, "'-' needs a number, not %s",
				   value_kind_name(out->kind));
			return -1;
		}
		return 0;
	case EX_ADD:
	case EX_SUB:
	case EX_MUL:
	case EX_DIV:
		return eval_arith(c, e, out);
	case EX_CALL:
		return random_eval(c, e->u.call.fn, e->u.call.args, e->loc, out);
	case EX_TABLE:
		diag_error(c->d, e->loc,
			   "a table {{...}} is only allowed as a randtable");
		return -1;
	}
	return -1;
}
