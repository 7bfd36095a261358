/*
 * vars.c - the global variables of a script (`set`, `define randvar`, -D,
 * the builtins): found and added by name, assigned as `set` does, and the
 * read-only ones refused with a located error, whichever way a script or
 * the command line tries to assign them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/compiler.h"
#include "plan/diag.h"

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
const char *var_suggestion(struct compiler *c, const char *name, char *buf,
			   size_t size)
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

/*
 * Is global `v` (may be NULL) read-only?  Then an error at `loc`, its
 * text preceded by `origin` ("" or "-D rank: "), and true.
 */
bool var_refuse_read_only(struct compiler *c, const struct var *v,
			  struct src_loc loc, const char *origin)
{
	if (!v || !v->read_only)
		return false;
	diag_error(c->d, loc, "%s'$%s' is read-only: %s", origin, v->name,
		   v->read_only);
	return true;
}
