/*
 * choose.c - the checks of a choice: a composite defined with `choose`
 * (docs/wml.md §4.6, a flowbench extension), whose invocation runs one
 * of its direct children per execution, drawn by their `weight=`s
 * (flowops/choice.c draws).  Everything that can be wrong with one is
 * said here, at its place: `choose` that is not a boolean or under
 * --compat filebench, a choice of fewer than two flowops, a member
 * without a weight, a weight outside a choice, too large, or all of a
 * choice's weights 0.  The weight's own type (a whole number, not
 * negative, not random) is attrs.c's conversion, as for any attribute.
 */
#include <string.h>

#include "lang/compile.h"
#include "lang/compiler.h"
#include "plan/diag.h"

bool choose_define(struct compiler *c, const struct ast_entity *def,
		   const char *name)
{
	const struct ast_attr *at = NULL;
	struct plan_value v = { 0 };
	int members = 0;

	for (int pass = 0; pass < 2; pass++)
		for (const struct ast_attr *a = pass ? def->trailing_attrs : def->attrs; a; a = a->next)
			if (!a->is_local && strcmp(a->name, "choose") == 0)
				at = a;
	if (!at)
		return false;
	if (at->value) {
		struct value e;

		if (eval_expr(c, at->value, &e) < 0 ||
		    attrs_convert(c, at, T_BOOL, &e, &v) < 0)
			return true;    /* said; its members are still checked as a choice's */
		if (!v.u.b)
			return false;
	}
	if (!c->opts->registry->choice) {       /* a registry built without one */
		diag_error(c->d, at->loc,
			   "composite flowop '%s': choose needs the choice flowop, which this build's registry lacks",
			   name);
		return false;
	}
	if (c->opts->semantics == PLAN_SEM_FILEBENCH) {
		diag_error(c->d, at->loc,
			   "composite flowop '%s': choose is a flowbench extension (one flowop drawn by weight); filebench has no such construct, so --compat filebench refuses it",
			   name);
		return true;
	}
	for (const struct ast_entity *in = def->body; in; in = in->next)
		members++;
	if (members < 2)
		diag_error(c->d, at->loc,
			   "composite flowop '%s' chooses among %d flowop%s: a choice needs at least two",
			   name, members, members == 1 ? "" : "s");
	return true;
}

void choose_member(struct compiler *c, const char *flowop,
		   const struct plan_value *weight, struct src_loc loc)
{
	const struct scope *sc = c->scope;
	bool in_choice = sc && sc->choose;

	if (weight->kind == PV_UNSET) {
		if (in_choice)
			diag_error(c->d, loc,
				   "flowop %s: a member of choice '%s' needs its odds, weight=N (0: never chosen)",
				   flowop, sc->composite);
		return;
	}
	if (!in_choice) {
		diag_error(c->d, weight->loc,
			   "flowop %s: weight= gives odds only to a flowop directly inside a composite defined with choose (define flowop name=..., choose { ... })",
			   flowop);
		return;
	}
	if (weight->u.i > CHOOSE_MAX_WEIGHT)
		diag_error(c->d, weight->loc,
			   "flowop %s: weight=%lld is more than flowbench's limit of %lld",
			   flowop, (long long)weight->u.i, (long long)CHOOSE_MAX_WEIGHT);
}

void choose_check_total(struct compiler *c, int index, struct src_loc loc,
			const char *composite)
{
	const struct plan_flowop *fo = c->p->flowops;
	int last = index + fo[index].ndesc;

	for (int j = index + 1; j <= last; j += 1 + fo[j].ndesc)
		if (fo[j].attr[PA_WEIGHT].kind != PV_INT || fo[j].attr[PA_WEIGHT].u.i != 0)
			return;         /* one positive (or an error already said) */
	if (last > index)
		diag_error(c->d, loc,
			   "flowop %s (choice '%s'): every weight is 0: at least one must be more than 0",
			   fo[index].name, composite);
}
