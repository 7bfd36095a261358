/*
 * defines.c - the -D name=value options of the command line.
 *
 * A -D variable is put in place before the script's first statement and
 * marked, so that the script's own `set` of it is skipped (flowbench's
 * deliberate difference from filebench: the command line wins).  After
 * the walk, each -D must name a variable the script mentions somewhere;
 * the search below walks the whole AST for `$name`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/compile.h"
#include "lang/compiler.h"
#include "plan/diag.h"

/*
 * Put the -D variables in place before the script's first statement; a
 * builtin ($rank...) is refused, before its value is even evaluated.
 */
void defines_seed(struct compiler *c)
{
	for (int i = 0; i < c->opts->ndefines; i++) {
		struct compile_define *def = &c->opts->defines[i];
		struct var *v = var_find(c, def->name);
		struct value val;
		char origin[300];

		snprintf(origin, sizeof(origin), "-D %s: ", def->name);
		if (var_refuse_read_only(c, v, (struct src_loc){ 0, 0 }, origin))
			continue;
		if (eval_expr(c, def->value, &val) < 0)
			continue;
		if (!v)
			v = var_add(c, def->name);
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

/*
 * After the walk: a -D naming a variable the script never mentions is
 * almost always a typo, which would otherwise silently change nothing.
 * A -D of a builtin was refused already; builtins are not suggested.
 */
void defines_check_used(struct compiler *c)
{
	for (int i = 0; i < c->opts->ndefines; i++) {
		const char *name = c->opts->defines[i].name;
		const struct var *v = var_find(c, name);
		const char **names;
		char hint[160] = "";
		int n = 0;

		if (v && v->read_only)
			continue;
		c->opts->defines[i].used = script_mentions(c->script, name);
		if (c->opts->defines[i].used)
			continue;
		names = calloc((size_t)c->nvars + 1, sizeof(*names));
		for (int k = 0; names && k < c->nvars; k++)
			if (!c->vars[k].from_cli && !c->vars[k].read_only)
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
