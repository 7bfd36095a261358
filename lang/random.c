/*
 * random.c - random variables written in a script, into the plan.
 *
 * Three spellings make one: randvar(type=..., ...) and cvar(...) inside an
 * expression, and the older `define randvar name=$v, ...` statement; the
 * 1.4 fileset attribute filesizegamma makes a fourth.  Their attributes
 * arrive here as values (eval.c evaluated them with the variables of the
 * moment), as a struct rvspec for lang/rvspec.c, which knows the
 * distributions and checks their parameters; the result is appended to
 * plan.randvars, and the expression's value is the index of that variable.
 */
#include <string.h>

#include "lang/compiler.h"
#include "lang/rvspec.h"

int random_add(struct compiler *c, const struct rvspec *spec,
	       struct value *out)
{
	struct plan_randvar tmp, *rv;

	memset(&tmp, 0, sizeof(tmp));
	if (rvspec_build(spec, &tmp, &c->p->arena, c->d) != 0)
		return -1;
	rv = PUSH(c->p->randvars, c->p->nrandvars, c->caps_randvars);
	*rv = tmp;
	out->kind = V_RANDVAR;
	out->rv = c->p->nrandvars - 1;
	return 0;
}

/*
 * The 1.4 fileset attribute `filesizegamma=G`: file sizes drawn from a
 * gamma distribution of mean `size` and shape G/1000, as a randvar.
 */
int random_gamma(struct compiler *c, double mean, double gamma1000,
		 struct src_loc loc)
{
	const struct rvspec_arg args[] = {
		{ .name = "type", .str = "gamma", .loc = loc, .val_loc = loc },
		{ .name = "mean", .is_num = true, .num = mean, .loc = loc, .val_loc = loc },
		{ .name = "gamma", .is_num = true, .num = gamma1000, .loc = loc, .val_loc = loc },
	};
	struct rvspec spec = {
		.fn = "randvar", .var = "filesizegamma", .loc = loc,
		.nargs = 3, .args = args,
	};
	struct value v;

	return random_add(c, &spec, &v) == 0 ? v.rv : -1;
}
