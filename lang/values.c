/*
 * values.c - what an evaluated value (struct value, compiler.h) reads
 * as: its text in a string or a message, its kind's name in "needs X,
 * not Y", and a number as a double.
 */
#include <inttypes.h>

#include "lang/compiler.h"

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
