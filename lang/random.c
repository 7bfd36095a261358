/*
 * random.c - random variables written in a script, into the plan.
 *
 * Three spellings make one: randvar(type=..., ...) and cvar(...) inside an
 * expression, and the older `define randvar name=$v, ...` statement.  All
 * evaluate their attributes with the variables of the moment, hand them as
 * a randvar_spec to runtime/base/randvar.c (which knows the distributions and
 * checks their parameters), and append the result to plan.randvars; the
 * expression's value is then the index of that variable.
 */
#include <stdlib.h>
#include <string.h>

#include "lang/compiler.h"
#include "plan/diag.h"
#include "lang/randvar.h"
#include "plan/oom.h"

/*
 * randtable={{pct, lo, hi}, ...}: every cell evaluated now, into *rows
 * (replacing an earlier table) and spec's row count.  Returns the number
 * of errors.
 */
static int eval_randtable(struct compiler *c, const struct ast_expr *t,
			  struct randvar_spec *spec, struct randvar_row **rows)
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
		(*rows)[r] = (struct randvar_row){
			.pct = cell[0], .lo = cell[1], .hi = cell[2],
			.loc = t->u.table.rows[r][0]->loc,
		};
	}
	return errors;
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
	av = xcalloc((size_t)nargs + 1, sizeof(*av));
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
	if (errors == 0) {
		struct plan_randvar tmp;

		memset(&tmp, 0, sizeof(tmp));
		if (randvar_build(&spec, &tmp, &c->p->arena, c->d) == 0) {
			rv = PUSH(c->p->randvars, c->p->nrandvars, c->caps_randvars);
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

/*
 * The 1.4 fileset attribute `filesizegamma=G`: file sizes drawn from a
 * gamma distribution of mean `size` and shape G/1000, as a randvar.
 */
int random_gamma(struct compiler *c, double mean, double gamma1000,
		 struct src_loc loc)
{
	const struct randvar_arg args[] = {
		{ .name = "type", .str = "gamma", .loc = loc, .val_loc = loc },
		{ .name = "mean", .is_num = true, .num = mean, .loc = loc, .val_loc = loc },
		{ .name = "gamma", .is_num = true, .num = gamma1000, .loc = loc, .val_loc = loc },
	};
	struct randvar_spec spec = {
		.fn = "randvar", .var = "filesizegamma", .loc = loc,
		.nargs = 3, .args = args,
	};
	struct plan_randvar tmp, *rv;

	memset(&tmp, 0, sizeof(tmp));
	if (randvar_build(&spec, &tmp, &c->p->arena, c->d) != 0)
		return -1;
	rv = PUSH(c->p->randvars, c->p->nrandvars, c->caps_randvars);
	*rv = tmp;
	return c->p->nrandvars - 1;
}

/* A randvar(...) or cvar(...) call in an expression. */
int random_eval(struct compiler *c, const char *fn, const struct ast_attr *args,
		struct src_loc loc, struct value *out)
{
	return build_random(c, fn, args, loc, NULL, out);
}

/* The 1.4 form `define randvar name=$v, type=..., ...`. */
void random_define(struct compiler *c, const struct ast_stmt *st)
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
	v = var_find(c, name->value->u.var);
	if (v && v->from_cli)
		return;         /* -D gave the variable a value */
	if (var_refuse_read_only(c, v, name->value->loc, ""))
		return;
	c->setting = name->value->u.var;
	if (build_random(c, "randvar", st->attrs, st->loc, name, &val) == 0)
		var_assign(c, name->value->u.var, name->value->loc, &val);
	c->setting = NULL;
}
