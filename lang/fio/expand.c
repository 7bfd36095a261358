/*
 * expand.c - an fio option's value as fio reads it before parsing it:
 * ${NAME} replaced by a -D NAME=VALUE of import-fio's command line or
 * else the environment (fio itself reads only the environment, and an
 * unset one becomes empty, silently: here it is an error), fio's
 * keywords $mb_memory, $ncpus and $pagesize replaced by this machine's
 * values (or -D's) and the arithmetic fio then hands to bc computed, and
 * a value in parentheses computed as fio's own arithmetic does.  The
 * arithmetic is whole numbers with + - * / % and parentheses, bc's rules
 * (division truncates); anything else in an expression is an error.
 */
#include "lang/fio/read.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *fio_define(const struct fio_jobfile *jf, const char *name)
{
	for (int i = jf->ro.ndefines - 1; i >= 0; i--) {
		if (strcmp(jf->ro.defines[i].name, name) == 0) {
			if (jf->ro.define_used)
				jf->ro.define_used[i] = true;
			return jf->ro.defines[i].value;
		}
	}
	return NULL;
}

/* ${NAME}: -D, then the environment.  NULL with *why when unset. */
static const char *expand_vars(struct fio_jobfile *jf, const char *v,
			       const char **why, const char **note)
{
	struct arena *a = &jf->arena;
	char *out = arena_strdup(a, "");
	const char *p = v;

	while (*p) {
		const char *dollar = strstr(p, "${"), *close, *val;
		char *name;
		bool from_d;

		if (!dollar)
			return arena_printf(a, "%s%s", out, p);
		close = strchr(dollar, '}');
		if (!close || close == dollar + 2) {
			*why = arena_printf(a, "'%s': ${ without a variable name and }", v);
			return NULL;
		}
		name = arena_strndup(a, dollar + 2, (size_t)(close - dollar - 2));
		val = fio_define(jf, name);
		from_d = val != NULL;
		if (!val)
			val = getenv(name);
		if (!val) {
			*why = arena_printf(a, "${%s} is not set: give it with -D %s=VALUE "
					    "(or in the environment); fio would read it as "
					    "empty", name, name);
			return NULL;
		}
		*note = arena_printf(a, "%s%s${%s} is %s (%s)", *note ? *note : "",
				     *note ? ", " : "", name, val,
				     from_d ? "-D" : "the environment");
		out = arena_printf(a, "%s%.*s%s", out, (int)(dollar - p), p, val);
		p = close + 1;
	}
	return out;
}

/* A keyword's value: -D NAME (without the $), else this machine's. */
static const char *keyword_value(struct fio_jobfile *jf, const char *word,
				 bool *machine)
{
	const char *d = fio_define(jf, word + 1);
	long long v;

	if (d)
		return d;
	*machine = true;
	if (strcmp(word, "$pagesize") == 0)
		v = sysconf(_SC_PAGESIZE);
	else if (strcmp(word, "$ncpus") == 0)
		v = sysconf(_SC_NPROCESSORS_CONF);
	else    /* $mb_memory, as fio: physical memory in MiB */
		v = (long long)((uint64_t)sysconf(_SC_PHYS_PAGES) *
				(uint64_t)sysconf(_SC_PAGESIZE) >> 20);
	return arena_printf(&jf->arena, "%lld", v);
}

/* The arithmetic: a small recursive descent over whole numbers. */
struct calc {
	const char *p;
	const char *err;
};

static long long calc_sum(struct calc *c, int depth);

static void calc_blanks(struct calc *c)
{
	while (isblank((unsigned char)*c->p))
		c->p++;
}

static long long calc_atom(struct calc *c, int depth)
{
	long long v = 0;

	calc_blanks(c);
	if (*c->p == '-') {
		c->p++;
		v = calc_atom(c, depth + 1);
		if (__builtin_mul_overflow(v, -1, &v))
			c->err = "a number beyond 64 bits";
		return v;
	}
	if (*c->p == '(') {
		if (depth > 64) {
			c->err = "parentheses nested too deep";
			return 0;
		}
		c->p++;
		v = calc_sum(c, depth + 1);
		calc_blanks(c);
		if (*c->p != ')' && !c->err)
			c->err = "a '(' without its ')'";
		else
			c->p++;
		return v;
	}
	if (!isdigit((unsigned char)*c->p)) {
		if (!c->err)
			c->err = "a whole number expected";
		return 0;
	}
	for (; isdigit((unsigned char)*c->p); c->p++)
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, *c->p - '0', &v))
			c->err = "a number beyond 64 bits";
	return v;
}

static long long calc_product(struct calc *c, int depth)
{
	long long v = calc_atom(c, depth);

	for (;;) {
		char op;
		long long r;

		calc_blanks(c);
		op = *c->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		c->p++;
		r = calc_atom(c, depth);
		if (op == '*' && __builtin_mul_overflow(v, r, &v))
			c->err = "a result beyond 64 bits";
		else if (op != '*' && r == 0)
			c->err = "a division by zero";
		else if (op != '*' && v == INT64_MIN && r == -1)
			c->err = "a result beyond 64 bits";
		else if (op == '/')
			v /= r;
		else if (op == '%')
			v %= r;
		if (c->err)
			return 0;
	}
}

static long long calc_sum(struct calc *c, int depth)
{
	long long v = calc_product(c, depth);

	for (;;) {
		char op;
		long long r;

		calc_blanks(c);
		op = *c->p;
		if (op != '+' && op != '-')
			return v;
		c->p++;
		r = calc_product(c, depth);
		if (op == '+' ? __builtin_add_overflow(v, r, &v) :
		    __builtin_sub_overflow(v, r, &v))
			c->err = "a result beyond 64 bits";
		if (c->err)
			return 0;
	}
}

/* `s` computed, into *v; NULL or why not. */
static const char *calc(const char *s, long long *v)
{
	struct calc c = { s, NULL };

	*v = calc_sum(&c, 0);
	calc_blanks(&c);
	if (!c.err && *c.p)
		c.err = "only whole numbers, + - * / % and parentheses can be computed";
	return c.err;
}

/* Only digits, blanks, operators and parentheses, and one operator at least. */
static bool is_arithmetic(const char *s)
{
	return s[strspn(s, "0123456789 \t+-*/%()")] == '\0' && strpbrk(s, "+-*/%()");
}

const char *fio_expand(struct fio_jobfile *jf, const char *value,
		       const char **why, const char **note, bool *machine)
{
	static const char *const keywords[] = { "$mb_memory", "$ncpus", "$pagesize" };
	struct arena *a = &jf->arena;
	const char *v = value, *err;
	bool keyword = false;
	long long n;

	*note = NULL;
	*machine = false;
	if (strstr(v, "${") && !(v = expand_vars(jf, v, why, note)))
		return NULL;
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++) {
		const char *at;

		while ((at = strstr(v, keywords[i]))) {
			size_t k = strlen(keywords[i]);
			bool m = false;
			const char *kv = keyword_value(jf, keywords[i], &m);

			*machine |= m;
			*note = arena_printf(a, "%s%s%s is %s (%s)", *note ? *note : "",
					     *note ? ", " : "", keywords[i], kv,
					     m ? "this machine's" : "-D");
			v = arena_printf(a, "%.*s%s%s", (int)(at - v), v, kv, at + k);
			keyword = true;
		}
	}
	/* fio hands a value with a keyword and + - * / to bc, and computes a
	 * value in parentheses itself */
	if ((keyword && strpbrk(v, "+-*/")) || (v[0] == '(' && is_arithmetic(v))) {
		if ((err = calc(v, &n))) {
			*why = arena_printf(a, "'%s' cannot be computed: %s", v, err);
			return NULL;
		}
		*note = arena_printf(a, "%s%s%s = %lld", *note ? *note : "",
				     *note ? ", " : "", v, n);
		v = arena_printf(a, "%lld", n);
	}
	return v;
}
