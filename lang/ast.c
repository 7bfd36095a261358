/*
 * ast.c - the small constructors the parser actions use to build the
 * tree, the number conversion shared by the scanner and the command line
 * (-D), and ast_parse_value() for one command-line value.  The scanner
 * and the parser are run over a script by lang/parse.c.
 */
#include "lang/ast.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plan/diag.h"
#include "plan/oom.h"

const char *const ast_command_names[] = {
	"create", "define", "debug", "domultisync", "echo", "enable",
	"eventgen", "list", "psrun", "quit", "run", "set", "sleep", "system",
	"usage", "version", NULL,
};

const char *const ast_entity_names[] = {
	"file", "fileset", "filesets", "process", "processes", "flowop",
	"randvar", NULL,
};

/* ---- constructors ---- */

struct ast_expr *ast_expr_new(struct arena *a, enum ast_expr_kind kind,
			      struct src_loc loc)
{
	struct ast_expr *e = arena_new(a, struct ast_expr);

	e->kind = kind;
	e->loc = loc;
	e->depth = 1;
	return e;
}

struct ast_expr *ast_expr_word(struct arena *a, char *word,
			       struct src_loc loc)
{
	struct ast_expr *e = ast_expr_new(a, EX_WORD, loc);

	e->u.word = word;
	return e;
}

struct ast_expr *ast_expr_binary(struct arena *a, enum ast_expr_kind kind,
				 struct src_loc loc, struct ast_expr *l,
				 struct ast_expr *r)
{
	struct ast_expr *e = ast_expr_new(a, kind, loc);

	e->u.binary.l = l;
	e->u.binary.r = r;
	e->depth = 1 + (l->depth > r->depth ? l->depth : r->depth);
	return e;
}

struct ast_expr *ast_expr_unary(struct arena *a, struct src_loc loc,
				struct ast_expr *operand)
{
	struct ast_expr *e = ast_expr_new(a, EX_NEG, loc);

	e->u.unary = operand;
	e->depth = 1 + operand->depth;
	return e;
}

struct ast_attr *ast_attr_new(struct arena *a, char *name, bool is_local,
			      struct ast_expr *value, struct src_loc loc)
{
	struct ast_attr *at = arena_new(a, struct ast_attr);

	at->name = name;
	at->is_local = is_local;
	at->value = value;
	at->loc = loc;
	return at;
}

struct ast_entity *ast_entity_new(struct arena *a, struct src_loc loc,
				  struct ast_attr *attrs,
				  struct ast_entity *body)
{
	struct ast_entity *en = arena_new(a, struct ast_entity);

	en->loc = loc;
	en->attrs = attrs;
	en->body = body;
	return en;
}

struct ast_word *ast_word_new(struct arena *a, char *text,
			      struct src_loc loc)
{
	struct ast_word *w = arena_new(a, struct ast_word);

	w->text = text;
	w->loc = loc;
	return w;
}

struct ast_stmt *ast_stmt_new(struct arena *a, enum ast_stmt_kind kind,
			      struct src_loc loc)
{
	struct ast_stmt *s = arena_new(a, struct ast_stmt);

	s->kind = kind;
	s->loc = loc;
	return s;
}

/* ---- numbers ---- */

/* Multiplier of a size suffix, either case; 0 if `c` is no suffix. */
static uint64_t suffix_mult(char c)
{
	switch (tolower((unsigned char)c)) {
	case 'k': return UINT64_C(1) << 10;
	case 'm': return UINT64_C(1) << 20;
	case 'g': return UINT64_C(1) << 30;
	case 't': return UINT64_C(1) << 40;
	default: return 0;
	}
}

/* digits[.digits] as a double, correctly rounded. */
static double decimal_value(const char *text, size_t len, size_t dot)
{
	static const double pow10[] = {
		1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
		1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
		1e21, 1e22,
	};
	uint64_t mant = 0;
	int sig = 0;
	size_t frac = len - dot - 1;
	char *copy;
	double v;

	/* Few significant digits: one exact division rounds correctly. */
	for (size_t i = 0; i < len; i++) {
		if (text[i] == '.')
			continue;
		if (mant || text[i] != '0')
			sig++;
		mant = mant * 10 + (uint64_t)(text[i] - '0');
		if (sig > 15)
			break;
	}
	if (sig <= 15 && frac < sizeof(pow10) / sizeof(pow10[0]))
		return (double)mant / pow10[frac];

	copy = xstrndup(text, len);
	v = strtod(copy, NULL);
	free(copy);
	return v;
}

/*
 * The whole value of digits[.digits] x 10^exp (`len` bytes, the dot at
 * `dot` or 0), when it is whole: *v, NUM_OK, or NUM_TOO_LARGE past
 * uint64; NUM_INVALID when it has a fraction.
 */
static enum num_status whole_value(const char *text, size_t len, size_t dot,
				   long exp, uint64_t *v)
{
	size_t last = len;      /* the digits without their trailing zeros */
	long scale = exp - (dot ? (long)(len - dot - 1) : 0);

	while (last > 0 && (text[last - 1] == '0' || text[last - 1] == '.')) {
		if (text[last - 1] == '0')
			scale++;
		last--;
	}
	*v = 0;
	if (last == 0)
		return NUM_OK;          /* all zeros */
	if (scale < 0)
		return NUM_INVALID;     /* digits remain after the point */
	for (size_t i = 0; i < last; i++) {
		unsigned digit = (unsigned)(text[i] - '0');

		if (text[i] == '.')
			continue;
		if (*v > (UINT64_MAX - digit) / 10)
			return NUM_TOO_LARGE;
		*v = *v * 10 + digit;
	}
	for (long k = 0; k < scale; k++) {
		if (*v > UINT64_MAX / 10)
			return NUM_TOO_LARGE;
		*v *= 10;
	}
	return NUM_OK;
}

/*
 * The exponent of text[*i..len): (e|E) [+|-] digits, as strtod reads it
 * (the command line's --runtime 3e10); *i moves past it.  false when it
 * is malformed.  A huge exponent is clamped: the value is then out of
 * range whatever the digits.
 */
static bool exponent(const char *text, size_t len, size_t *i, long *exp)
{
	size_t k = *i + 1;
	bool neg = false;

	*exp = 0;
	if (k < len && (text[k] == '+' || text[k] == '-'))
		neg = text[k++] == '-';
	if (k == len || !isdigit((unsigned char)text[k]))
		return false;
	for (; k < len && isdigit((unsigned char)text[k]); k++)
		if (*exp < 100000)
			*exp = *exp * 10 + (text[k] - '0');
	if (neg)
		*exp = -*exp;
	*i = k;
	return true;
}

/*
 * digits [ '.' digits ] [ (e|E) [+|-] digits ] [ k | m | g | t ] (exponent
 * and suffix in either case).  Without a fraction or exponent the value is
 * an exact int64 (EX_INT); with a fraction it is a double (EX_DOUBLE) and
 * the suffix still multiplies: 1.5k = 1536.0.  With an exponent (the
 * forms strtod reads, as for --runtime 3e10) a whole value is an exact
 * int64 (1e9, 1.5e3), anything else a double (1.5e0, 2.5e-1); a value
 * past int64, or a nonzero one that rounds to 0 as a double (1e-400), is
 * out of range.  Leading zeros are decimal.
 */
enum num_status ast_number(const char *text, size_t len, struct ast_expr *out)
{
	size_t i = 0, dot = 0, end;
	uint64_t mult = 1;
	bool has_exp = false;
	long exp = 0;

	while (i < len && isdigit((unsigned char)text[i]))
		i++;
	if (i == 0)
		return NUM_INVALID;
	if (i < len && text[i] == '.') {
		dot = i++;
		if (i == len || !isdigit((unsigned char)text[i]))
			return NUM_INVALID;
		while (i < len && isdigit((unsigned char)text[i]))
			i++;
	}
	end = i;
	if (i < len && (text[i] == 'e' || text[i] == 'E')) {
		if (!exponent(text, len, &i, &exp))
			return NUM_INVALID;
		has_exp = true;
	}
	if (i < len) {
		mult = suffix_mult(text[i]);
		if (!mult)
			return NUM_INVALID;
		i++;
	}
	if (i != len)
		return NUM_INVALID;

	if (has_exp) {
		uint64_t v;
		enum num_status st = whole_value(text, end, dot, exp, &v);
		char *copy;
		double d;

		if (st == NUM_TOO_LARGE || (st == NUM_OK && v > (uint64_t)INT64_MAX / mult))
			return NUM_TOO_LARGE;
		if (st == NUM_OK) {
			out->kind = EX_INT;
			out->u.i = (int64_t)(v * mult);
			return NUM_OK;
		}
		copy = xstrndup(text, i - (mult > 1));
		d = strtod(copy, NULL) * (double)mult;
		free(copy);
		if (!isfinite(d))
			return NUM_TOO_LARGE;
		if (d == 0)
			return NUM_TOO_SMALL;   /* a fraction, so not all zeros */
		out->kind = EX_DOUBLE;
		out->u.d = d;
		return NUM_OK;
	}
	if (dot) {
		double v = decimal_value(text, end, dot) * (double)mult;

		if (!isfinite(v))
			return NUM_TOO_LARGE;
		out->kind = EX_DOUBLE;
		out->u.d = v;
	} else {
		uint64_t v = 0;

		for (i = 0; i < end; i++) {
			unsigned digit = (unsigned)(text[i] - '0');

			if (v > (UINT64_MAX - digit) / 10)
				return NUM_TOO_LARGE;
			v = v * 10 + digit;
		}
		if (v > (uint64_t)INT64_MAX / mult)
			return NUM_TOO_LARGE;
		out->kind = EX_INT;
		out->u.i = (int64_t)(v * mult);
	}
	return NUM_OK;
}

void ast_script_free(struct ast_script *s)
{
	arena_free(&s->arena);
	s->stmts = NULL;
	s->filename = NULL;
}

/* ---- parsing one command-line value ---- */

static struct src_loc col_loc(size_t i)
{
	return (struct src_loc){ 1, (int)i + 1 };
}

/* Move `buf[0..*n)` into a literal segment at *tail. */
static void flush_text(struct arena *a, char *buf, size_t *n,
		       struct src_loc loc, struct ast_strseg ***tail)
{
	struct ast_strseg *seg;

	if (!*n)
		return;
	seg = arena_new(a, struct ast_strseg);
	seg->text = arena_strndup(a, buf, *n);
	seg->loc = loc;
	**tail = seg;
	*tail = &seg->next;
	*n = 0;
}

/*
 * A quoted command-line value: the same escapes and $name / ${name}
 * segments as a quoted string in a script.  NULL after reporting an error.
 */
static struct ast_expr *quoted_value(struct diag *d, struct arena *a,
				     const char *text, size_t len)
{
	struct ast_expr *e = ast_expr_new(a, EX_STRING, col_loc(0));
	struct ast_strseg **tail = &e->u.segs;
	char *buf = arena_alloc(a, len + 1);
	size_t n = 0, i = 1;
	struct src_loc text_loc = col_loc(1);
	int errors = d->errors;

	for (; i < len && text[i] != '"'; i++) {
		char c = text[i];

		if (c == '$') {
			size_t start = i, nlen = 0;
			bool brace = text[i + 1] == '{';
			const char *name = text + i + 1 + brace;

			while (isalnum((unsigned char)name[nlen]) ||
			       name[nlen] == '_')
				nlen++;
			if (!nlen || isdigit((unsigned char)name[0]) ||
			    (brace && name[nlen] != '}')) {
				diag_error(d, col_loc(i),
					   "'$' must start a variable: write $name or ${name}, or \\$ for a dollar sign");
				continue;
			}
			flush_text(a, buf, &n, text_loc, &tail);
			*tail = arena_new(a, struct ast_strseg);
			(*tail)->is_var = true;
			(*tail)->text = arena_strndup(a, name, nlen);
			(*tail)->loc = col_loc(start);
			tail = &(*tail)->next;
			i += nlen + (brace ? 2 : 0);
			continue;
		}
		if (!n)
			text_loc = col_loc(i);
		if (c != '\\') {
			buf[n++] = c;
			continue;
		}
		switch (text[++i]) {
		case 'n': buf[n++] = '\n'; break;
		case 't': buf[n++] = '\t'; break;
		case '\\': buf[n++] = '\\'; break;
		case '"': buf[n++] = '"'; break;
		case '$': buf[n++] = '$'; break;
		case '\0':
			i--;    /* the loop ends; "unterminated" follows */
			break;
		default:
			diag_error(d, col_loc(i - 1), "unknown escape '\\%c'",
				   text[i]);
		}
	}
	flush_text(a, buf, &n, text_loc, &tail);
	if (i >= len)
		diag_error(d, col_loc(0),
			   "unterminated string (missing closing '\"')");
	else if (i + 1 < len)
		diag_error(d, col_loc(i + 1),
			   "unexpected text after the closing '\"'");
	return d->errors > errors ? NULL : e;
}

/*
 * A value from the command line (-D name=VALUE).  Numbers (with suffix,
 * fraction or a leading '-'), true/false and quoted strings are recognised;
 * anything else is the literal text as one word, spaces included.
 */
struct ast_expr *ast_parse_value(const char *origin, const char *text,
				 struct diag *d, struct arena *arena)
{
	struct diag vd = *d;
	size_t len = strlen(text);
	struct ast_expr *e = NULL;

	vd.filename = origin;
	vd.source = text;
	vd.source_len = len;

	if (text[0] == '"') {
		e = quoted_value(&vd, arena, text, len);
		/* the command line has no variables to interpolate */
		for (struct ast_strseg *sg = e ? e->u.segs : NULL; sg; sg = sg->next) {
			if (sg->is_var) {
				diag_error(&vd, sg->loc,
					   "a value on the command line cannot use variables ('$%s')",
					   sg->text);
				e = NULL;
				break;
			}
		}
	} else if (!strcmp(text, "true") || !strcmp(text, "false")) {
		e = ast_expr_new(arena, EX_BOOL, col_loc(0));
		e->u.b = text[0] == 't';
	} else {
		size_t neg = text[0] == '-';

		if (isdigit((unsigned char)text[neg])) {
			e = ast_expr_new(arena, EX_INT, col_loc(neg));
			switch (ast_number(text + neg, len - neg, e)) {
			case NUM_OK:
				if (neg)
					e = ast_expr_unary(arena, col_loc(0),
							   e);
				break;
			case NUM_TOO_LARGE:
				diag_error(&vd, col_loc(neg),
					   "number '%s' is too large",
					   text + neg);
				e = NULL;
				break;
			case NUM_TOO_SMALL:
				diag_error(&vd, col_loc(neg),
					   "number '%s' is too small (it is not 0, but rounds to 0)",
					   text + neg);
				e = NULL;
				break;
			case NUM_INVALID:
				diag_error(&vd, col_loc(neg),
					   "invalid number '%s' (quote the value to pass it as text)",
					   text + neg);
				e = NULL;
				break;
			}
		} else {
			e = ast_expr_word(arena, arena_strdup(arena, text),
					  col_loc(0));
		}
	}
	d->errors = vd.errors;
	d->warnings = vd.warnings;
	return e;
}
