/*
 * eval.c - expressions, and the composite scopes they read.
 *
 * Every attribute, `set` and `echo` of a script ends up here: a literal,
 * a `$variable` (a composite's local first, then the globals), a quoted
 * string with variables interpolated, arithmetic, or a randvar(...) call,
 * whose attributes are evaluated here and handed as values to random.c.
 * Evaluation happens at the moment WML would do it, so the caller decides
 * when; this file only knows how.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/compiler.h"
#include "lang/rvspec.h"
#include "plan/diag.h"
#include "plan/oom.h"

/* ---- composite scopes ------------------------------------------------- */

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
		return eval_random(c, e->u.call.fn, e->u.call.args, e->loc, NULL,
				   out);
	case EX_TABLE:
		diag_error(c->d, e->loc,
			   "a table {{...}} is only allowed as a randtable");
		return -1;
	}
	return -1;
}

/* ---- randvar(...) attributes ------------------------------------------ */

/*
 * randtable={{pct, lo, hi}, ...}: every cell evaluated now, into *rows
 * (replacing an earlier table) and spec's row count.  Returns the number
 * of errors.
 */
static int eval_randtable(struct compiler *c, const struct ast_expr *t,
			  struct rvspec *spec, struct rvspec_row **rows)
{
	int errors = 0;

	free(*rows);
	*rows = xcalloc(t->u.table.nrows + 1, sizeof(**rows));
	spec->nrows = (int)t->u.table.nrows;
	spec->table_loc = t->loc;
	for (size_t r = 0; r < t->u.table.nrows; r++) {
		double cell[3] = { 0, 0, 0 };

		for (int k = 0; k < 3; k++) {
			const struct ast_expr *x = t->u.table.rows[r][k];
			struct value v;

			if (eval_expr(c, x, &v) < 0) {
				errors++;
			} else if (v.kind != V_INT && v.kind != V_DOUBLE) {
				diag_error(c->d, x->loc,
					   "randtable cells are numbers, not %s",
					   value_kind_name(v.kind));
				errors++;
			} else {
				cell[k] = value_as_double(&v);
			}
		}
		(*rows)[r] = (struct rvspec_row){
			.pct = cell[0], .lo = cell[1], .hi = cell[2],
			.loc = t->u.table.rows[r][0]->loc,
		};
	}
	return errors;
}

/*
 * randvar(...) / cvar(...) / define randvar: the attributes evaluated in
 * order, then handed as values to random.c, which has them checked and
 * adds the variable to the plan.  `skip` is an attribute to leave out
 * (define randvar's name=$var).
 */
int eval_random(struct compiler *c, const char *fn, const struct ast_attr *args,
		struct src_loc loc, const struct ast_attr *skip,
		struct value *out)
{
	struct rvspec_arg *av;
	struct rvspec_row *rows = NULL;
	struct rvspec spec = { .fn = fn, .var = c->setting, .loc = loc };
	int nargs = 0, errors = 0;

	for (const struct ast_attr *a = args; a; a = a->next)
		nargs++;
	av = xcalloc((size_t)nargs + 1, sizeof(*av));
	for (const struct ast_attr *a = args; a; a = a->next) {
		struct rvspec_arg *arg = &av[spec.nargs];
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
			if (strcmp(a->name, "randtable") != 0) {
				diag_error(c->d, a->loc,
					   "only randtable takes a table {{...}}, not '%s'",
					   a->name);
				errors++;
				continue;
			}
			errors += eval_randtable(c, a->value, &spec, &rows);
			continue;
		}
		arg->name = a->name;
		arg->loc = a->loc;
		arg->val_loc = a->value ? a->value->loc : a->loc;
		if (a->value) {
			if (eval_expr(c, a->value, &v) < 0) {
				errors++;
				continue;
			}
			if (v.kind == V_INT || v.kind == V_DOUBLE) {
				arg->is_num = true;
				arg->num = value_as_double(&v);
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
	if (errors == 0 && random_add(c, &spec, out) < 0)
		errors++;
	free(av);
	free(rows);
	return errors ? -1 : 0;
}
