/*
 * test_parser.c - unit tests of the WML scanner and parser (lang/lexer.l,
 * lang/parser.y, lang/ast.c): source text in, AST and error messages out.
 *
 * Most tests parse a snippet and compare a compact dump of the tree (see
 * dump_*) or the exact diagnostics, captured with open_memstream.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/ast.h"
#include "lang/parse.h"
#include "plan/diag.h"

#include "tests/unit/check_main.h"

/* ---- helpers ---- */

struct result {
	struct ast_script script;
	char *errors;           /* everything diag printed */
	int rc;
	int nerrors;
};

static struct result parse_n(const char *src, size_t len)
{
	struct result r;
	struct diag d;
	size_t size;
	FILE *f = open_memstream(&r.errors, &size);

	ck_assert_ptr_nonnull(f);
	diag_init(&d, "t.f", src, len, f);
	d.max_errors = 1000;
	r.rc = ast_parse("t.f", src, len, &d, &r.script);
	fclose(f);
	r.nerrors = d.errors;
	return r;
}

static struct result parse(const char *src)
{
	return parse_n(src, strlen(src));
}

static void done(struct result *r)
{
	ast_script_free(&r->script);
	free(r->errors);
}

/* Parse a snippet that must be error-free. */
static struct result parse_ok(const char *src)
{
	struct result r = parse(src);

	ck_assert_msg(r.rc == 0 && r.nerrors == 0,
		      "unexpected errors for:\n%s\n---\n%s", src, r.errors);
	return r;
}

/* The first line of the diagnostics (the located message itself). */
static char *first_line(const char *s)
{
	size_t n = strcspn(s, "\n");
	char *line = malloc(n + 1);

	memcpy(line, s, n);
	line[n] = '\0';
	return line;
}

#define ck_assert_first_error(r, expected)                              \
	do {                                                            \
		char *line_ = first_line((r).errors);                   \
		ck_assert_str_eq(line_, expected);                      \
		free(line_);                                            \
	} while (0)

static void dump_attrs(FILE *f, const struct ast_attr *a);

static void dump_expr(FILE *f, const struct ast_expr *e)
{
	static const char *const ops = "+-*/";

	switch (e->kind) {
	case EX_INT:
		fprintf(f, "%lld", (long long)e->u.i);
		break;
	case EX_DOUBLE:
		fprintf(f, "%gd", e->u.d);
		break;
	case EX_BOOL:
		fputs(e->u.b ? "true" : "false", f);
		break;
	case EX_WORD:
		fprintf(f, "'%s'", e->u.word);
		break;
	case EX_VAR:
		fprintf(f, "$%s", e->u.var);
		break;
	case EX_STRING:
		fputs("str(", f);
		for (const struct ast_strseg *s = e->u.segs; s; s = s->next)
			fprintf(f, s->is_var ? "%s$%s" : "%s\"%s\"",
				s == e->u.segs ? "" : " ", s->text);
		fputc(')', f);
		break;
	case EX_NEG:
		fputs("(neg ", f);
		dump_expr(f, e->u.unary);
		fputc(')', f);
		break;
	case EX_ADD:
	case EX_SUB:
	case EX_MUL:
	case EX_DIV:
		fprintf(f, "(%c ", ops[e->kind - EX_ADD]);
		dump_expr(f, e->u.binary.l);
		fputc(' ', f);
		dump_expr(f, e->u.binary.r);
		fputc(')', f);
		break;
	case EX_CALL:
		fprintf(f, "%s(", e->u.call.fn);
		dump_attrs(f, e->u.call.args);
		fputc(')', f);
		break;
	case EX_TABLE:
		fputc('{', f);
		for (size_t i = 0; i < e->u.table.nrows; i++) {
			fputs(i ? " {" : "{", f);
			for (int j = 0; j < 3; j++) {
				if (j)
					fputc(' ', f);
				dump_expr(f, e->u.table.rows[i][j]);
			}
			fputc('}', f);
		}
		fputc('}', f);
		break;
	}
}

static void dump_attrs(FILE *f, const struct ast_attr *a)
{
	for (; a; a = a->next) {
		fprintf(f, "%s%s", a->is_local ? "$" : "", a->name);
		if (a->value) {
			fputc('=', f);
			dump_expr(f, a->value);
		}
		if (a->next)
			fputs(", ", f);
	}
}

static void dump_entity(FILE *f, const char *kw, const struct ast_entity *e)
{
	fprintf(f, "%s", e->type ? e->type : kw);
	if (e->attrs) {
		fputc(' ', f);
		dump_attrs(f, e->attrs);
	}
	if (e->body || !e->type) {
		fputs(" {", f);
		for (const struct ast_entity *c = e->body; c; c = c->next) {
			fputc(' ', f);
			dump_entity(f, "thread", c);
			fputc(';', f);
		}
		fputs(" }", f);
	}
	if (e->trailing_attrs) {
		fputc(' ', f);
		dump_attrs(f, e->trailing_attrs);
	}
}

static const char *const stmt_names[] = {
	[ST_SET] = "set", [ST_SET_MODE] = "set-mode",
	[ST_DEFINE_FILE] = "define-file", [ST_DEFINE_FILESET] = "define-fileset",
	[ST_DEFINE_PROCESS] = "define-process",
	[ST_DEFINE_COMPOSITE] = "define-composite",
	[ST_DEFINE_RANDVAR] = "define-randvar", [ST_CREATE_FILES] = "create",
	[ST_RUN] = "run", [ST_PSRUN] = "psrun", [ST_SLEEP] = "sleep",
	[ST_ECHO] = "echo", [ST_SYSTEM] = "system", [ST_EVENTGEN] = "eventgen",
	[ST_ENABLE] = "enable", [ST_DOMULTISYNC] = "domultisync",
	[ST_LIST] = "list", [ST_DEBUG] = "debug", [ST_VERSION] = "version",
	[ST_QUIT] = "quit",
};

static void dump_stmt(FILE *f, const struct ast_stmt *s)
{
	fputs(stmt_names[s->kind], f);
	if (s->var)
		fprintf(f, " $%s =", s->var);
	for (const struct ast_word *w = s->words; w; w = w->next)
		fprintf(f, " %s", w->text);
	if (s->expr) {
		fputc(' ', f);
		dump_expr(f, s->expr);
	}
	if (s->expr2) {
		fputc(' ', f);
		dump_expr(f, s->expr2);
	}
	if (s->attrs) {
		fputc(' ', f);
		dump_attrs(f, s->attrs);
	}
	if (s->entity) {
		fputc(' ', f);
		dump_entity(f, s->kind == ST_DEFINE_PROCESS ? "process" :
			    "flowop", s->entity);
	}
	for (const struct ast_string_list *l = s->strings; l; l = l->next) {
		fputc(' ', f);
		dump_expr(f, l->str);
	}
}

/* The whole script, one statement per line (caller frees). */
static char *dump_script(const struct ast_script *sc)
{
	char *buf;
	size_t size;
	FILE *f = open_memstream(&buf, &size);

	for (const struct ast_stmt *s = sc->stmts; s; s = s->next) {
		dump_stmt(f, s);
		fputc('\n', f);
	}
	fclose(f);
	return buf;
}

/* Parse (error-free) and compare the dump. */
#define ck_assert_parses_to(src, expected)                              \
	do {                                                            \
		struct result r_ = parse_ok(src);                       \
		char *dump_ = dump_script(&r_.script);                  \
		ck_assert_str_eq(dump_, expected);                      \
		free(dump_);                                            \
		done(&r_);                                              \
	} while (0)

/* Parse with errors and compare the whole diagnostic output. */
#define ck_assert_errors(src, expected)                                 \
	do {                                                            \
		struct result r_ = parse(src);                          \
		ck_assert_int_ne(r_.rc, 0);                             \
		ck_assert_str_eq(r_.errors, expected);                  \
		done(&r_);                                              \
	} while (0)

static int count_lines_with(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* ---- numbers ---- */

START_TEST(test_number_suffixes)
{
	ck_assert_parses_to(
		"set $a = 8k\nset $b = 8K\nset $c = 5g\nset $d = 5G\n"
		"set $e = 3m\nset $f = 3M\nset $g = 2t\nset $h = 2T\n"
		"set $i = 05\nset $j = 100\nset $k = 0\n",
		"set $a = 8192\nset $b = 8192\n"
		"set $c = 5368709120\nset $d = 5368709120\n"
		"set $e = 3145728\nset $f = 3145728\n"
		"set $g = 2199023255552\nset $h = 2199023255552\n"
		"set $i = 5\nset $j = 100\nset $k = 0\n");
}
END_TEST

START_TEST(test_number_fractions)
{
	struct result r = parse_ok("set $a = 1.5k\nset $b = 0.25\n"
				   "set $c = 1.5m\nset $d = 2.0\n");
	const struct ast_stmt *s = r.script.stmts;

	ck_assert_int_eq(s->expr->kind, EX_DOUBLE);
	ck_assert_double_eq(s->expr->u.d, 1536.0);
	s = s->next;
	ck_assert_int_eq(s->expr->kind, EX_DOUBLE);
	ck_assert_double_eq(s->expr->u.d, 0.25);
	s = s->next;
	ck_assert_double_eq(s->expr->u.d, 1572864.0);
	s = s->next;
	ck_assert_int_eq(s->expr->kind, EX_DOUBLE);
	ck_assert_double_eq(s->expr->u.d, 2.0);
	done(&r);
}
END_TEST

START_TEST(test_number_int64_limits)
{
	struct result r = parse_ok("set $a = 9223372036854775807\n"
				   "set $b = 8388607t\n");

	ck_assert_int_eq(r.script.stmts->expr->kind, EX_INT);
	ck_assert(r.script.stmts->expr->u.i == INT64_MAX);
	ck_assert(r.script.stmts->next->expr->u.i ==
		  (int64_t)8388607 << 40);
	done(&r);
}
END_TEST

START_TEST(test_number_invalid)
{
	/* one clear error each, not a number followed by a stray word */
	ck_assert_errors("define file name=f,size=16kb\n",
			 "t.f:1:25: invalid number '16kb'\n"
			 "    define file name=f,size=16kb\n"
			 "                            ^\n");
	ck_assert_errors("set $x = 8x\n",
			 "t.f:1:10: invalid number '8x'\n"
			 "    set $x = 8x\n"
			 "             ^\n");
	ck_assert_errors("set $x = 1.\nset $y = 1.2.3\nset $z = 2kk\n",
			 "t.f:1:10: invalid number '1.'\n"
			 "    set $x = 1.\n"
			 "             ^\n"
			 "t.f:2:10: invalid number '1.2.3'\n"
			 "    set $y = 1.2.3\n"
			 "             ^\n"
			 "t.f:3:10: invalid number '2kk'\n"
			 "    set $z = 2kk\n"
			 "             ^\n");
}
END_TEST

START_TEST(test_number_too_large)
{
	struct result r = parse("set $a = 9223372036854775808\n"
				"set $b = 8388608t\n"
				"set $c = 99999999999999999999999\n");

	ck_assert_int_eq(r.nerrors, 3);
	ck_assert_first_error(r,
		"t.f:1:10: number '9223372036854775808' is too large");
	ck_assert_ptr_nonnull(strstr(r.errors,
		"t.f:2:10: number '8388608t' is too large\n"));
	ck_assert_ptr_nonnull(strstr(r.errors,
		"t.f:3:10: number '99999999999999999999999' is too large\n"));
	done(&r);
}
END_TEST

/*
 * Exponents, as the command line's numbers (--runtime 3e10, strtod) take
 * them: a whole value is an exact integer, anything else a double.
 */
START_TEST(test_number_exponents)
{
	struct result r = parse_ok("set $a = 1e9\nset $b = 3e10\nset $c = 1.5e0\n"
				   "set $d = 2.5E-1\nset $e = 1.5e3\nset $f = 1500e-2\n"
				   "set $g = 1e+2k\nset $h = 9.223372036854775807e18\n"
				   "set $i = 0e999\nset $j = 1e-3\n");
	const struct ast_stmt *s = r.script.stmts;

	ck_assert_int_eq(s->expr->kind, EX_INT);
	ck_assert(s->expr->u.i == 1000000000);
	s = s->next;
	ck_assert_int_eq(s->expr->kind, EX_INT);
	ck_assert(s->expr->u.i == INT64_C(30000000000));
	s = s->next;
	ck_assert_int_eq(s->expr->kind, EX_DOUBLE);
	ck_assert_double_eq(s->expr->u.d, 1.5);
	s = s->next;
	ck_assert_int_eq(s->expr->kind, EX_DOUBLE);
	ck_assert_double_eq(s->expr->u.d, 0.25);
	s = s->next;
	ck_assert_int_eq(s->expr->kind, EX_INT);
	ck_assert(s->expr->u.i == 1500);
	s = s->next;
	ck_assert_int_eq(s->expr->kind, EX_INT);
	ck_assert(s->expr->u.i == 15);
	s = s->next;
	ck_assert_int_eq(s->expr->kind, EX_INT);
	ck_assert(s->expr->u.i == 102400);
	s = s->next;
	ck_assert_int_eq(s->expr->kind, EX_INT);
	ck_assert(s->expr->u.i == INT64_MAX);
	s = s->next;
	ck_assert_int_eq(s->expr->kind, EX_INT);
	ck_assert(s->expr->u.i == 0);
	s = s->next;
	ck_assert_int_eq(s->expr->kind, EX_DOUBLE);
	ck_assert_double_eq(s->expr->u.d, 1e-3);
	done(&r);
}
END_TEST

START_TEST(test_number_exponent_errors)
{
	struct result r = parse("set $a = 1e19\nset $b = 9.223372036854775808e18\n"
				"set $c = 1e-400\nset $d = 1e\n"
				"set $f = 1e2.5\nset $g = 1e999\n");

	ck_assert_int_eq(r.nerrors, 6);
	ck_assert_first_error(r, "t.f:1:10: number '1e19' is too large");
	ck_assert_ptr_nonnull(strstr(r.errors,
		"t.f:2:10: number '9.223372036854775808e18' is too large\n"));
	ck_assert_ptr_nonnull(strstr(r.errors,
		"t.f:3:10: number '1e-400' is too small (it is not 0, but rounds to 0)\n"));
	ck_assert_ptr_nonnull(strstr(r.errors, "t.f:4:10: invalid number '1e'\n"));
	ck_assert_ptr_nonnull(strstr(r.errors, "t.f:5:10: invalid number '1e2.5'\n"));
	ck_assert_ptr_nonnull(strstr(r.errors, "t.f:6:10: number '1e999' is too large\n"));
	done(&r);
}
END_TEST

/* ---- variables, words and strings ---- */

START_TEST(test_variables)
{
	struct result r = parse_ok("set ${x} = $x\nset $a = ${b_2}\n"
				   "set $_c = 1\n");
	const struct ast_stmt *s = r.script.stmts;

	ck_assert_str_eq(s->var, "x");
	ck_assert_int_eq(s->expr->kind, EX_VAR);
	ck_assert_str_eq(s->expr->u.var, "x");
	ck_assert_int_eq(s->var_loc.col, 5);
	ck_assert_int_eq(s->expr->loc.col, 12);
	s = s->next;
	ck_assert_str_eq(s->var, "a");
	ck_assert_str_eq(s->expr->u.var, "b_2");
	ck_assert_str_eq(s->next->var, "_c");
	done(&r);
}
END_TEST

START_TEST(test_lone_dollar)
{
	struct result r = parse("set $ = 5\nset $x = ${\nrun\n");

	ck_assert_int_eq(r.nerrors, 2);
	ck_assert_first_error(r,
		"t.f:1:5: '$' is not a variable: write $name or ${name}");
	ck_assert_ptr_nonnull(strstr(r.errors,
		"t.f:2:10: '${' is not a variable: write $name or ${name}\n"));
	done(&r);
}
END_TEST

START_TEST(test_words)
{
	ck_assert_parses_to(
		"define file name=aux.df,path=/tmp/fb,x=cvar-gamma,"
		"p=lower:4096;upper:8192,q=./data,r=-foo,s=_x\n",
		"define-file name='aux.df', path='/tmp/fb', x='cvar-gamma', "
		"p='lower:4096;upper:8192', q='./data', r='-foo', s='_x'\n");
}
END_TEST

START_TEST(test_keywords_as_values)
{
	ck_assert_parses_to(
		"define fileset name=run,path=random,type=file,x=flowop,"
		"y=set,z=mode,w=true,v=false,u=randvar,t=cvar\n"
		"define file name=files\n",
		"define-fileset name='run', path='random', type='file', "
		"x='flowop', y='set', z='mode', w=true, v=false, "
		"u='randvar', t='cvar'\n"
		"define-file name='files'\n");
}
END_TEST

START_TEST(test_quoted_keywords_are_text)
{
	ck_assert_parses_to(
		"echo \"run\" \"define file\"\nset $x = \"random\"\n",
		"echo str(\"run\") str(\"define file\")\n"
		"set $x = str(\"random\")\n");
}
END_TEST

START_TEST(test_string_escapes)
{
	struct result r = parse_ok(
		"echo \"a\\tb\\nc \\\\ \\\" \\$x # not a comment\"\n");
	const struct ast_strseg *seg = r.script.stmts->strings->str->u.segs;

	ck_assert_ptr_nonnull(seg);
	ck_assert(!seg->is_var);
	ck_assert_str_eq(seg->text, "a\tb\nc \\ \" $x # not a comment");
	ck_assert_ptr_null(seg->next);  /* merged into one segment */
	done(&r);
}
END_TEST

START_TEST(test_string_interpolation)
{
	struct result r = parse_ok("echo \"a $x b${y}c\" \"$z\"\n");
	const struct ast_string_list *l = r.script.stmts->strings;
	const struct ast_strseg *seg = l->str->u.segs;
	char *dump = dump_script(&r.script);

	ck_assert_str_eq(dump, "echo str(\"a \" $x \" b\" $y \"c\") str($z)\n");
	free(dump);
	ck_assert_int_eq(l->str->loc.col, 6);
	ck_assert_int_eq(seg->loc.col, 7);              /* "a " */
	ck_assert_int_eq(seg->next->loc.col, 9);        /* $x */
	ck_assert_int_eq(seg->next->next->next->loc.col, 13); /* ${y} */
	ck_assert_int_eq(l->next->str->loc.col, 20);
	done(&r);
}
END_TEST

START_TEST(test_string_empty_and_multiline)
{
	struct result r = parse_ok("set $e = \"\"\necho \"line1\nline2\" \n"
				   "  run 5\n");
	const struct ast_stmt *s = r.script.stmts;

	ck_assert_int_eq(s->expr->kind, EX_STRING);
	ck_assert_ptr_null(s->expr->u.segs);
	s = s->next;
	ck_assert_str_eq(s->strings->str->u.segs->text, "line1\nline2");
	s = s->next;
	ck_assert_int_eq(s->kind, ST_RUN);
	ck_assert_int_eq(s->loc.line, 4);
	ck_assert_int_eq(s->loc.col, 3);
	done(&r);
}
END_TEST

START_TEST(test_string_errors)
{
	ck_assert_errors("echo \"a\\qb\"\n",
			 "t.f:1:8: unknown escape '\\q'\n"
			 "    echo \"a\\qb\"\n"
			 "           ^\n");
	ck_assert_errors("run 5\necho \"abc\n\n",
			 "t.f:2:6: unterminated string (missing closing '\"')\n"
			 "    echo \"abc\n"
			 "         ^\n");
}
END_TEST

START_TEST(test_comments_and_bad_characters)
{
	struct result r = parse("# comment: run 5 $ ;\nrun 5 # trailing\n"
				"set $x = 1 ;\nset $y = 2 @\n");

	ck_assert_int_eq(r.nerrors, 2);
	ck_assert_first_error(r, "t.f:3:12: unexpected character ';'");
	ck_assert_ptr_nonnull(strstr(r.errors,
				     "t.f:4:12: unexpected character '@'\n"));
	ck_assert_int_eq(r.script.stmts->kind, ST_RUN);
	done(&r);
}
END_TEST

START_TEST(test_nul_byte)
{
	static const char src[] = "run 5\nset $x = 1\0\nquit\n";
	struct result r = parse_n(src, sizeof(src) - 1);

	ck_assert_int_eq(r.nerrors, 1);
	ck_assert_first_error(r, "t.f:2:11: unexpected byte 0x00");
	done(&r);

	static const char src3[] = "run # a\0b\n";
	r = parse_n(src3, sizeof(src3) - 1);
	ck_assert_int_eq(r.nerrors, 1);
	ck_assert_first_error(r, "t.f:1:5: unexpected byte 0x00 in a comment");
	done(&r);

	static const char src2[] = "echo \"a\0b\"\n";
	r = parse_n(src2, sizeof(src2) - 1);
	ck_assert_int_eq(r.nerrors, 1);
	ck_assert_first_error(r,
		"t.f:1:8: unexpected byte 0x00 in a quoted string");
	done(&r);
}
END_TEST

/* ---- expressions ---- */

START_TEST(test_arithmetic_precedence)
{
	ck_assert_parses_to(
		"set $r = $a + $b * 2\n"
		"set $r = ($a + $b) * 2\n"
		"set $r = 8 / 2 / 2\n"
		"set $r = 10 - 2 - 3\n"
		"set $r = -5\n"
		"set $r = - $x - 1\n"
		"set $r = $a-1\n"
		"set $r = 2 * -$a\n"
		"set $r = $a/$b\n",
		"set $r = (+ $a (* $b 2))\n"
		"set $r = (* (+ $a $b) 2)\n"
		"set $r = (/ (/ 8 2) 2)\n"
		"set $r = (- (- 10 2) 3)\n"
		"set $r = (neg 5)\n"
		"set $r = (- (neg $x) 1)\n"
		"set $r = (- $a 1)\n"
		"set $r = (* 2 (neg $a))\n"
		"set $r = (/ $a $b)\n");
}
END_TEST

START_TEST(test_arithmetic_locations)
{
	struct result r = parse_ok("set $r = $a +\n  $b * 2\n");
	const struct ast_expr *e = r.script.stmts->expr;

	ck_assert_int_eq(e->kind, EX_ADD);
	ck_assert_int_eq(e->loc.line, 1);       /* the operator */
	ck_assert_int_eq(e->loc.col, 13);
	ck_assert_int_eq(e->u.binary.r->loc.line, 2);
	ck_assert_int_eq(e->u.binary.r->loc.col, 6);
	ck_assert_int_eq(e->u.binary.r->u.binary.r->loc.col, 8);
	done(&r);
}
END_TEST

START_TEST(test_non_numeric_operands)
{
	/* words, strings and booleans parse as operands: the compiler
	 * reports the type error with its own message */
	ck_assert_parses_to("set $x = foo + 1\nset $y = \"a\" * true\n"
			    "run foo\n",
			    "set $x = (+ 'foo' 1)\n"
			    "set $y = (* str(\"a\") true)\n"
			    "run 'foo'\n");

	/* a keyword is a word only as a lone value */
	struct result r = parse("set $x = run + 1\n");

	ck_assert_int_eq(r.nerrors, 1);
	ck_assert_first_error(r, "t.f:1:14: '+' needs numbers, not a word");
	done(&r);
	r = parse("define file name=f,size=2 * file\n");
	ck_assert_first_error(r, "t.f:1:29: '*' needs numbers, not a word");
	done(&r);
	r = parse("define file name=f,path=/tmp/$x\n");
	ck_assert_first_error(r,
		"t.f:1:30: a word and a variable cannot be joined; "
		"use a quoted string such as \"/tmp/$x\"");
	done(&r);
}
END_TEST

START_TEST(test_negative_attribute_values)
{
	ck_assert_parses_to("define file name=f,size=-5,x=-$y,z=-(1+2)\n",
			    "define-file name='f', size=(neg 5), "
			    "x=(neg $y), z=(neg (+ 1 2))\n");
}
END_TEST

/* ---- nesting depth (AST_MAX_DEPTH) ---- */

/* pre + n copies of `unit` + mid + n copies of `close` + post, malloc'ed. */
static char *nest_src(const char *pre, const char *unit, int n,
		      const char *mid, const char *close, const char *post)
{
	size_t ulen = strlen(unit), clen = strlen(close);
	size_t len = strlen(pre) + (size_t)n * (ulen + clen) + strlen(mid) +
		     strlen(post);
	char *s = malloc(len + 1), *p = s;

	ck_assert_ptr_nonnull(s);
	p = stpcpy(p, pre);
	for (int i = 0; i < n; i++)
		p = stpcpy(p, unit);
	p = stpcpy(p, mid);
	for (int i = 0; i < n; i++)
		p = stpcpy(p, close);
	stpcpy(p, post);
	return s;
}

/*
 * Each way of nesting, at exactly `depth` levels (ast.h): 1 for the
 * literal, one per '+', '-', '(', call and table.  Calls and tables count
 * a level each: `cvar(a=` n times around `1` is n + 1 levels, and a table
 * cell of n levels makes randvar(randtable={{...}}) n + 2.
 */
static char *nested_expr(int form, int depth)
{
	switch (form) {
	case 0:
		return nest_src("set $x = 1", "+1", depth - 1, "", "", "\n");
	case 1:
		return nest_src("set $x = ", "(", depth - 1, "1", ")", "\n");
	case 2:
		return nest_src("set $x = ", "-", depth - 1, "1", "", "\n");
	case 3:
		return nest_src("set $x = ", "cvar(type=t, a=", depth - 1, "1",
				")", "\n");
	default:
		return nest_src("set $x = randvar(randtable={{50, 1, 1", "+1",
				depth - 3, "}})", "", "\n");
	}
}

START_TEST(test_depth_limit_accepted)
{
	char *src = nested_expr(_i, AST_MAX_DEPTH);
	struct result r = parse_ok(src);

	ck_assert_ptr_nonnull(r.script.stmts);
	ck_assert_uint_eq(r.script.stmts->expr->depth, AST_MAX_DEPTH);
	done(&r);
	free(src);
}
END_TEST

START_TEST(test_depth_limit_plus_one_refused)
{
	/* where each form goes over: the 1000th '+', else the outermost */
	static const char *const expected[] = {
		"t.f:1:2009: expression nested too deeply (more than 1000 levels)",
		"t.f:1:10: expression nested too deeply (more than 1000 levels)",
		"t.f:1:10: expression nested too deeply (more than 1000 levels)",
		"t.f:1:10: expression nested too deeply (more than 1000 levels)",
		"t.f:1:10: expression nested too deeply (more than 1000 levels)",
	};
	char *src = nested_expr(_i, AST_MAX_DEPTH + 1);
	struct result r = parse(src);

	ck_assert_int_eq(r.rc, -1);
	ck_assert_int_eq(r.nerrors, 1);
	ck_assert_first_error(r, expected[_i]);
	done(&r);
	free(src);
}
END_TEST

/*
 * Far too deep, as a file could be: one error each, and the tree kept no
 * deeper than the limit + 1, so nothing that walked it could overflow.
 * 50,000 terms once overflowed the stack in evaluation; 100,000 '(' or '-'
 * fill bison's own stack first, reported the same way.  The 200 KB line is
 * quoted as a window around the column, not whole.
 */
START_TEST(test_far_too_deep)
{
	for (int form = 0; form < 4; form++) {
		char *src = nested_expr(form, 100000);
		struct result r = parse(src);

		ck_assert_int_eq(r.rc, -1);
		ck_assert_int_eq(r.nerrors, 1);
		ck_assert_msg(strncmp(r.errors, "t.f:1:", 6) == 0 &&
			      strstr(r.errors, ": expression nested too deeply (more than 1000 levels)\n"),
			      "form %d: %.200s", form, r.errors);
		ck_assert_msg(strlen(r.errors) < 500, "form %d: %zu bytes of errors",
			      form, strlen(r.errors));
		if (r.script.stmts)
			ck_assert_uint_le(r.script.stmts->expr->depth,
					  AST_MAX_DEPTH + 1);
		done(&r);
		free(src);
	}
}
END_TEST

/* A long line is quoted as 160 bytes around the column, "..." where cut. */
START_TEST(test_long_line_quoted_as_window)
{
	char *src = nest_src("set $x = 1", "+1", 300, " + \"a\"", "", "\n");
	struct result r = parse_ok(src);
	char *msgs = NULL;
	size_t size;
	FILE *f = open_memstream(&msgs, &size);
	struct diag d;

	ck_assert_ptr_nonnull(f);
	diag_init(&d, "t.f", src, strlen(src), f);
	diag_error(&d, (struct src_loc){ 1, 401 }, "x");
	diag_error(&d, (struct src_loc){ 1, 3 }, "y");
	fclose(f);
	/* column 401 is a '+': 80 bytes before it, 80 from it */
	ck_assert_str_eq(msgs,
		"t.f:1:401: x\n"
		"    ...+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1"
		"+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1...\n"
		"       " "                                                                                "
		"^\n"
		"t.f:1:3: y\n"
		"    set $x = 1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1"
		"+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1...\n"
		"      ^\n");
	free(msgs);
	done(&r);
	free(src);
}
END_TEST

/* Two deep operands: each is reported; the next statement still parses. */
START_TEST(test_too_deep_twice_then_recovers)
{
	char *a = nested_expr(0, AST_MAX_DEPTH + 1);
	char *b = nested_expr(1, AST_MAX_DEPTH + 1);
	char *src;
	struct result r;

	/* set $x = (1+1+...) * ((((...1...)))) */
	a[strlen(a) - 1] = '\0';
	b[strlen(b) - 1] = '\0';
	src = malloc(strlen(a) + strlen(b) + 32);
	ck_assert_ptr_nonnull(src);
	sprintf(src, "set $x = (%s) * %s\nrun 1 +\n", a + 9, b + 9);
	r = parse(src);
	ck_assert_int_eq(r.nerrors, 3);
	ck_assert_first_error(r, "t.f:1:2010: expression nested too deeply (more than 1000 levels)");
	ck_assert_ptr_nonnull(strstr(r.errors, "\nt.f:1:2016: expression nested too deeply"));
	ck_assert_ptr_nonnull(strstr(r.errors, "\nt.f:3:1: unexpected end of file after '+'"));
	done(&r);
	free(src);
	free(a);
	free(b);
}
END_TEST

/* ---- statements ---- */

START_TEST(test_every_statement)
{
	ck_assert_parses_to(
		"set $x = 5\n"
		"set mode quit firstdone\n"
		"set mode nousestats\n"
		"define file name=f,path=/tmp,size=1m,prealloc,reuse\n"
		"define fileset name=fs,entries=10\n"
		"define filesets name=fs2,entries=$n\n"
		"define process name=p { thread name=t { flowop read name=r } }\n"
		"define processes name=p2 { thread name=t { flowop hog name=h } }\n"
		"define flowop name=c { flowop write name=w }\n"
		"define randvar name=$rv, type=gamma\n"
		"create files\n"
		"create fileset\n"
		"run\n"
		"run 60\n"
		"psrun\n"
		"psrun 10\n"
		"psrun -10 60\n"
		"sleep $t\n"
		"echo \"hi\" $x\n"
		"system \"ls\"\n"
		"eventgen\n"
		"eventgen rate=100\n"
		"enable lathist\n"
		"enable multi master=localhost, client=c1\n"
		"domultisync value=1\n"
		"list filesets\n"
		"list flowop\n"
		"debug 3\n"
		"version\n"
		"quit\n",
		"set $x = 5\n"
		"set-mode quit firstdone\n"
		"set-mode nousestats\n"
		"define-file name='f', path='/tmp', size=1048576, prealloc, reuse\n"
		"define-fileset name='fs', entries=10\n"
		"define-fileset name='fs2', entries=$n\n"
		"define-process process name='p' { thread name='t' { read name='r'; }; }\n"
		"define-process process name='p2' { thread name='t' { hog name='h'; }; }\n"
		"define-composite flowop name='c' { write name='w'; }\n"
		"define-randvar name=$rv, type='gamma'\n"
		"create files\n"
		"create fileset\n"
		"run\n"
		"run 60\n"
		"psrun\n"
		"psrun 10\n"
		"psrun (neg 10) 60\n"
		"sleep $t\n"
		"echo str(\"hi\") $x\n"
		"system str(\"ls\")\n"
		"eventgen\n"
		"eventgen rate=100\n"
		"enable lathist\n"
		"enable multi master='localhost', client='c1'\n"
		"domultisync value=1\n"
		"list filesets\n"
		"list flowop\n"
		"debug 3\n"
		"version\n"
		"quit\n");
}
END_TEST

START_TEST(test_statement_locations)
{
	struct result r = parse_ok("  set $x = 1\n\tenable lathist\n");
	const struct ast_stmt *s = r.script.stmts;

	ck_assert_int_eq(s->loc.line, 1);
	ck_assert_int_eq(s->loc.col, 3);
	ck_assert_int_eq(s->var_loc.col, 7);
	ck_assert_int_eq(s->next->loc.line, 2);
	ck_assert_int_eq(s->next->loc.col, 2);          /* a tab is 1 column */
	ck_assert_int_eq(s->next->words->loc.col, 9);
	done(&r);
}
END_TEST

START_TEST(test_psrun_arguments)
{
	ck_assert_parses_to("psrun 10 -5\npsrun -1 3\npsrun $p $r\n"
			    "psrun (10-5) -(2*3)\npsrun -$p\n",
			    "psrun 10 (neg 5)\n"
			    "psrun (neg 1) 3\n"
			    "psrun $p $r\n"
			    "psrun (- 10 5) (neg (* 2 3))\n"
			    "psrun (neg $p)\n");
}
END_TEST

START_TEST(test_run_then_define)
{
	/* `run 60` must not swallow the next line */
	ck_assert_parses_to("run 60\ndefine file name=f\nrun\nrun $t\n"
			    "sleep 2 * $t\n",
			    "run 60\ndefine-file name='f'\nrun\nrun $t\n"
			    "sleep (* 2 $t)\n");
}
END_TEST

START_TEST(test_nested_process_locations)
{
	struct result r = parse_ok(
		"define process name=p,instances=2\n"
		"{\n"
		"  thread name=t1,memsize=10m,instances=$n\n"
		"  {\n"
		"    flowop read name=r1,filename=f,iosize=8k,random\n"
		"    flowop write name=w1\n"
		"  }\n"
		"  thread name=t2 {\n"
		"\tflowop delay name=d,value=1\n"
		"  }\n"
		"}\n");
	const struct ast_stmt *s = r.script.stmts;
	const struct ast_entity *p = s->entity, *t1, *t2, *fo;

	ck_assert_int_eq(s->kind, ST_DEFINE_PROCESS);
	ck_assert_int_eq(s->loc.line, 1);
	ck_assert_int_eq(s->loc.col, 1);
	ck_assert_int_eq(p->loc.line, 1);
	ck_assert_int_eq(p->loc.col, 8);                /* "process" */
	ck_assert_ptr_null(p->type);
	ck_assert_str_eq(p->attrs->name, "name");
	ck_assert_str_eq(p->attrs->value->u.word, "p");
	ck_assert_int_eq(p->attrs->next->loc.col, 23);  /* instances */
	ck_assert_int_eq(p->attrs->next->value->u.i, 2);

	t1 = p->body;
	ck_assert_int_eq(t1->loc.line, 3);
	ck_assert_int_eq(t1->loc.col, 3);
	ck_assert_int_eq(t1->attrs->next->value->u.i, 10 << 20);
	fo = t1->body;
	ck_assert_str_eq(fo->type, "read");
	ck_assert_int_eq(fo->loc.line, 5);
	ck_assert_int_eq(fo->loc.col, 5);
	ck_assert_int_eq(fo->type_loc.line, 5);
	ck_assert_int_eq(fo->type_loc.col, 12);
	ck_assert_str_eq(fo->attrs->next->next->next->name, "random");
	ck_assert_ptr_null(fo->attrs->next->next->next->value);
	ck_assert_int_eq(fo->attrs->next->next->next->loc.col, 46);
	ck_assert_str_eq(fo->next->type, "write");
	ck_assert_int_eq(fo->next->loc.line, 6);
	ck_assert_ptr_null(fo->next->next);

	t2 = t1->next;
	ck_assert_int_eq(t2->loc.line, 8);
	ck_assert_str_eq(t2->body->type, "delay");
	ck_assert_int_eq(t2->body->loc.line, 9);
	ck_assert_int_eq(t2->body->loc.col, 2);
	ck_assert_int_eq(t2->body->type_loc.col, 9);
	ck_assert_ptr_null(t2->next);
	ck_assert_ptr_null(s->next);
	done(&r);
}
END_TEST

START_TEST(test_composite_locals_and_trailing_attrs)
{
	struct result r = parse_ok(
		"define flowop name=rw, $iosize=8k, $f\n"
		"{\n"
		"  flowop read name=r, iosize=$iosize, $inner=$f\n"
		"  flowop rw2 name=nested, iters=2\n"
		"} iters=5, $x=\"a\"\n"
		"define process name=p { thread name=t {\n"
		"  flowop rw name=use, iters=3, $iosize=16k } }\n");
	const struct ast_stmt *s = r.script.stmts;
	const struct ast_entity *c = s->entity;
	char *dump = dump_script(&r.script);

	ck_assert_str_eq(dump,
		"define-composite flowop name='rw', $iosize=8192, $f "
		"{ read name='r', iosize=$iosize, $inner=$f; "
		"rw2 name='nested', iters=2; } iters=5, $x=str(\"a\")\n"
		"define-process process name='p' { thread name='t' "
		"{ rw name='use', iters=3, $iosize=16384; }; }\n");
	free(dump);
	ck_assert_int_eq(s->kind, ST_DEFINE_COMPOSITE);
	ck_assert_int_eq(c->loc.col, 8);
	ck_assert(c->attrs->next->is_local);
	ck_assert_int_eq(c->attrs->next->loc.col, 24);
	ck_assert(!c->attrs->is_local);
	ck_assert_int_eq(c->trailing_attrs->loc.line, 5);
	ck_assert_int_eq(c->trailing_attrs->loc.col, 3);
	ck_assert(c->trailing_attrs->next->is_local);
	done(&r);
}
END_TEST

START_TEST(test_randvar_call_with_table)
{
	struct result r = parse_ok(
		"set $x = randvar(type=tabular, min=4k, round=4k,\n"
		"    randtable={{10,4k,8k},{90, 8k, $hi}})\n"
		"set $c = cvar(type=cvar-gamma, parameters=mean:65536;gamma:1.5)\n"
		"set $w = randvar\n");
	const struct ast_expr *e = r.script.stmts->expr;
	char *dump = dump_script(&r.script);

	ck_assert_str_eq(dump,
		"set $x = randvar(type='tabular', min=4096, round=4096, "
		"randtable={{10 4096 8192} {90 8192 $hi}})\n"
		"set $c = cvar(type='cvar-gamma', "
		"parameters='mean:65536;gamma:1.5')\n"
		"set $w = 'randvar'\n");
	free(dump);
	ck_assert_int_eq(e->kind, EX_CALL);
	ck_assert_int_eq(e->loc.col, 10);
	e = e->u.call.args->next->next->next->value;
	ck_assert_int_eq(e->kind, EX_TABLE);
	ck_assert_uint_eq(e->u.table.nrows, 2);
	ck_assert_int_eq(e->loc.line, 2);
	ck_assert_int_eq(e->loc.col, 15);
	ck_assert_int_eq(e->u.table.rows[1][2]->loc.col, 36);
	done(&r);
}
END_TEST

START_TEST(test_legacy_define_randvar)
{
	ck_assert_parses_to(
		"define randvar name=$iosize, type=gamma, min=1k, mean=8k, "
		"gamma=1500, round=1k\n",
		"define-randvar name=$iosize, type='gamma', min=1024, "
		"mean=8192, gamma=1500, round=1024\n");
}
END_TEST

START_TEST(test_call_as_attribute_value)
{
	ck_assert_parses_to(
		"define fileset name=fs,size=cvar(type=cvar-gamma,"
		"parameters=\"mean:16384;gamma:1.5\"),entries=100\n",
		"define-fileset name='fs', size=cvar(type='cvar-gamma', "
		"parameters=str(\"mean:16384;gamma:1.5\")), entries=100\n");
}
END_TEST

/* ---- errors ---- */

START_TEST(test_unknown_command)
{
	ck_assert_errors("set $x = 1\ndefne file name=f,path=/tmp\nrun 5\n",
			 "t.f:2:1: unknown command 'defne' (did you mean 'define'?)\n"
			 "    defne file name=f,path=/tmp\n"
			 "    ^\n");
	ck_assert_errors("runn 5\n",
			 "t.f:1:1: unknown command 'runn' (did you mean 'run'?)\n"
			 "    runn 5\n"
			 "    ^\n");
	ck_assert_errors("frobnicate\nrun\n",
			 "t.f:1:1: unknown command 'frobnicate'\n"
			 "    frobnicate\n"
			 "    ^\n");
	/* the typo follows a statement whose attributes are optional */
	ck_assert_errors("eventgen\nevetngen rate=5\n",
			 "t.f:2:1: unknown command 'evetngen' (did you mean 'eventgen'?)\n"
			 "    evetngen rate=5\n"
			 "    ^\n");
}
END_TEST

START_TEST(test_unknown_entity)
{
	ck_assert_errors("define fil name=f\nrun\n",
			 "t.f:1:8: unknown entity 'fil' after define (did you mean 'file'?)\n"
			 "    define fil name=f\n"
			 "           ^\n");
	ck_assert_errors("define procss name=p { thread name=t { flowop read name=r } }\n",
			 "t.f:1:8: unknown entity 'procss' after define (did you mean 'process'?)\n"
			 "    define procss name=p { thread name=t { flowop read name=r } }\n"
			 "           ^\n");
}
END_TEST

START_TEST(test_comma_errors)
{
	ck_assert_errors("define file name=f,\nrun 5\n",
			 "t.f:2:1: unexpected 'run' after ',' (expected an attribute; trailing comma?)\n"
			 "    run 5\n"
			 "    ^\n");
	ck_assert_errors("define file name=f,,path=/x\n",
			 "t.f:1:20: unexpected ',' after ',' (expected an attribute)\n"
			 "    define file name=f,,path=/x\n"
			 "                       ^\n");
	ck_assert_errors("define file name=f path=/x\n",
			 "t.f:1:20: unexpected word 'path' after attribute list (missing ','?)\n"
			 "    define file name=f path=/x\n"
			 "                       ^\n");
	ck_assert_errors("run 5, 6\n",
			 "t.f:1:6: unexpected ',' after number '5'; expected end of file or a command\n"
			 "    run 5, 6\n"
			 "         ^\n");
}
END_TEST

START_TEST(test_other_syntax_errors)
{
	struct result r = parse("define process name=p { thread name=t { flowop read name=r }\n");

	ck_assert_first_error(r, "t.f:2:1: unexpected end of file (missing '}'?)");
	done(&r);
	r = parse("set $x 5\n");
	ck_assert_first_error(r,
		"t.f:1:8: unexpected number '5' after variable '$x'; expected '='");
	done(&r);
	r = parse("define process name=p { flowop read name=r }\n");
	ck_assert_first_error(r,
		"t.f:1:25: unexpected 'flowop' after '{'; expected 'thread'");
	done(&r);
	r = parse("run 1\n$x = 5\n");
	ck_assert_first_error(r,
		"t.f:2:1: unexpected variable '$x' (missing 'set'?)");
	done(&r);
	r = parse("flowop read name=r\n");
	ck_assert_first_error(r, "t.f:1:1: 'flowop' is only allowed inside "
			      "a thread or a 'define flowop ... { }' block");
	done(&r);
	r = parse("sleep\n");
	ck_assert_first_error(r,
		"t.f:2:1: unexpected end of file after 'sleep'; expected a value");
	done(&r);
}
END_TEST

START_TEST(test_several_errors_one_pass)
{
	struct result r = parse(
		"set $a = 16kb\n"                       /* lexical */
		"define fil name=f\n"                   /* entity */
		"define file name=g,,path=/x\n"         /* comma */
		"run 5\n"
		"runn 5\n"                              /* command */
		"set $b = 1 @\n"                        /* character */
		"define file name=h path=/y\n");        /* missing comma */

	ck_assert_int_eq(r.nerrors, 6);
	ck_assert_int_eq(count_lines_with(r.errors, "t.f:"), 6);
	ck_assert_ptr_nonnull(strstr(r.errors, "t.f:1:10: invalid number"));
	ck_assert_ptr_nonnull(strstr(r.errors, "t.f:2:8: unknown entity 'fil'"));
	ck_assert_ptr_nonnull(strstr(r.errors, "t.f:3:20: unexpected ','"));
	ck_assert_ptr_nonnull(strstr(r.errors, "t.f:5:1: unknown command 'runn'"));
	ck_assert_ptr_nonnull(strstr(r.errors, "t.f:6:12: unexpected character '@'"));
	ck_assert_ptr_nonnull(strstr(r.errors, "t.f:7:20: unexpected word 'path'"));
	/* the good statements in between are still in the tree */
	ck_assert_ptr_nonnull(r.script.stmts);
	done(&r);
}
END_TEST

START_TEST(test_unknown_command_after_error_line)
{
	/* skipping after an error must not hide a typo on the next line... */
	struct result r = parse("define file name=a,,b\ndefne file name=x\n"
				"define fileset name=c,,\n"
				"  seed=5\n");

	ck_assert_int_eq(r.nerrors, 3);
	ck_assert_ptr_nonnull(strstr(r.errors,
		"t.f:2:1: unknown command 'defne' (did you mean 'define'?)\n"));
	/* ...nor report an attribute on a continuation line as a command */
	ck_assert_ptr_null(strstr(r.errors, "'seed'"));
	done(&r);
}
END_TEST

/* A tiny deterministic generator, so failures are reproducible. */
static unsigned next_rand(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return *state >> 16;
}

static const char realistic[] =
	"set $dir=/tmp\nset $nfiles=1000\nset $meandirwidth=20\n"
	"set $iosize=cvar(type=cvar-uniform, parameters=lower:4096;upper:8192)\n"
	"define fileset name=bigfileset,path=$dir,size=$filesize,"
	"entries=$nfiles,dirwidth=$meandirwidth,prealloc=80\n"
	"define flowop name=cf, $fs=\"bigfileset\" { flowop createfile "
	"name=c1,filesetname=$fs,fd=1 }\n"
	"define process name=filereader,instances=1\n{\n"
	"  thread name=filereaderthread,memsize=10m,instances=$nthreads\n  {\n"
	"    flowop openfile name=openfile1,filesetname=bigfileset,fd=1\n"
	"    flowop readwholefile name=readfile1,fd=1,iosize=$iosize\n"
	"    flowop cf name=x, iters=2\n"
	"    flowop closefile name=closefile1,fd=1\n  }\n}\n"
	"set $r = randvar(type=tabular, randtable={{10, 1k, 2k},{90,2k,4k}})\n"
	"echo \"File-server Version 3.0 personality successfully loaded\"\n"
	"psrun -10 60\n";

START_TEST(test_garbage_does_not_crash)
{
	unsigned state = 12345;
	char buf[256];
	size_t n = sizeof(realistic) - 1;

	/* random bytes, including NULs and high bytes */
	for (int iter = 0; iter < 2000; iter++) {
		size_t len = next_rand(&state) % sizeof(buf);
		struct result r;

		for (size_t i = 0; i < len; i++)
			buf[i] = (char)next_rand(&state);
		r = parse_n(buf, len);
		done(&r);
	}
	/* random mixes of the language's own tokens */
	static const char *const toks[] = {
		"define ", "process ", "thread ", "flowop ", "file ", "{", "}",
		"(", ")", "=", ",", "+", "-", "*", "/", "$x", "${", "\"", "\\",
		"8k ", "1.5 ", "name", " ", "\n", "randvar", "cvar", "set ",
		"run ", "psrun ", "echo ", "#", "mode ", "true", "x", "16kb",
	};
	for (int iter = 0; iter < 3000; iter++) {
		char src[512] = "";
		int ntok = (int)(next_rand(&state) % 40);
		struct result r;

		for (int i = 0; i < ntok; i++)
			strcat(src, toks[next_rand(&state) %
					 (sizeof(toks) / sizeof(toks[0]))]);
		r = parse(src);
		done(&r);
	}
	/* every truncation of a realistic script, and one mutation each */
	for (size_t len = 0; len <= n; len++) {
		struct result r = parse_n(realistic, len);
		char *copy = malloc(n);

		done(&r);
		memcpy(copy, realistic, n);
		copy[len % n] = (char)next_rand(&state);
		r = parse_n(copy, n);
		done(&r);
		free(copy);
	}
	/* very deep nesting must fail cleanly, not crash */
	{
		size_t depth = 20000;
		char *deep = malloc(depth + 16);
		struct result r;

		memcpy(deep, "set $x = ", 9);
		memset(deep + 9, '(', depth);
		deep[9 + depth] = '\0';
		r = parse(deep);
		ck_assert_int_ne(r.rc, 0);
		done(&r);
		free(deep);
	}
}
END_TEST

START_TEST(test_empty_input)
{
	struct result r = parse_ok("");

	ck_assert_ptr_null(r.script.stmts);
	done(&r);
	r = parse_ok("# only a comment\n\n");
	ck_assert_ptr_null(r.script.stmts);
	done(&r);
	r = parse_n(NULL, 0);
	ck_assert_int_eq(r.rc, 0);
	done(&r);
}
END_TEST

/* ---- realistic scripts ---- */

static const char *const scripts[] = {
	/* 1: single file, random reads */
	"set $dir=/tmp\nset $filesize=1g\nset $iosize=8k\nset $nthreads=1\n"
	"define file name=largefile1,path=$dir,size=$filesize,prealloc,reuse\n"
	"define process name=rand-read,instances=1\n{\n"
	"  thread name=rand-thread,memsize=5m,instances=$nthreads\n  {\n"
	"    flowop read name=rand-read1,filename=largefile1,iosize=$iosize,random\n"
	"  }\n}\n"
	"echo \"Random Read Version 3.0 personality successfully loaded\"\n"
	"run 60\n",

	/* 2: file server with a cvar-sized fileset */
	"set $dir=/tmp\nset $nfiles=10000\nset $meandirwidth=20\n"
	"set $nthreads=50\nset $iosize=1m\nset $meanappendsize=16k\n"
	"set $filesize=cvar(type=cvar-gamma,parameters=mean:131072;gamma:1.5)\n"
	"define fileset name=bigfileset,path=$dir,size=$filesize,"
	"entries=$nfiles,dirwidth=$meandirwidth,prealloc=80\n"
	"define process name=filereader,instances=1\n{\n"
	"  thread name=filereaderthread,memsize=10m,instances=$nthreads\n  {\n"
	"    flowop createfile name=createfile1,filesetname=bigfileset,fd=1\n"
	"    flowop writewholefile name=wrtfile1,srcfd=1,fd=1,iosize=$iosize\n"
	"    flowop closefile name=closefile1,fd=1\n"
	"    flowop openfile name=openfile1,filesetname=bigfileset,fd=1\n"
	"    flowop appendfilerand name=appendfilerand1,iosize=$meanappendsize,fd=1\n"
	"    flowop closefile name=closefile2,fd=1\n"
	"    flowop openfile name=openfile2,filesetname=bigfileset,fd=1\n"
	"    flowop readwholefile name=readfile1,fd=1,iosize=$iosize\n"
	"    flowop closefile name=closefile3,fd=1\n"
	"    flowop deletefile name=deletefile1,filesetname=bigfileset\n"
	"    flowop statfile name=statfile1,filesetname=bigfileset\n"
	"  }\n}\n"
	"echo \"File-server Version 3.0 personality successfully loaded\"\n"
	"run 60\n",

	/* 3: inline cvar size, two threads in one process */
	"define fileset name=logs,path=/tmp/fb,entries=1000,dirwidth=100,"
	"dirgamma=0,size=cvar(type=cvar-gamma,parameters=mean:16384;gamma:1.5),"
	"prealloc=50,paralloc,leafdirs=10\n"
	"define process name=proc,instances=2\n{\n"
	"  thread name=writer,memsize=1m,instances=4\n  {\n"
	"    flowop appendfilerand name=append,filesetname=logs,iosize=4k\n"
	"    flowop fsync name=sync,filesetname=logs\n  }\n"
	"  thread name=reader,memsize=1m,useism,ioprio=4\n  {\n"
	"    flowop readwholefile name=rd,filesetname=logs,iosize=1m\n"
	"    flowop opslimit name=limit\n  }\n}\n"
	"run 10\n",

	/* 4: composite flowops with locals */
	"set $dir=/tmp\n"
	"define fileset name=src,path=$dir,entries=100,dirwidth=10,prealloc\n"
	"define flowop name=readone, $fileset, $iosz=8k\n{\n"
	"  flowop openfile name=open,filesetname=$fileset,fd=1\n"
	"  flowop read name=read,fd=1,iosize=$iosz\n"
	"  flowop closefile name=close,fd=1\n}\n"
	"define flowop name=readtwo, $fs\n{\n"
	"  flowop readone name=first, iters=1, $fileset=$fs, $iosz=4k\n"
	"  flowop readone name=second, $fileset=$fs\n} iters=2\n"
	"define process name=p\n{\n  thread name=t\n  {\n"
	"    flowop readtwo name=both, iters=5, $fs=src\n  }\n}\n"
	"run 30\n",

	/* 5: tabular randvar as the I/O size */
	"set $x = randvar(type=tabular, min=4k, round=4k, "
	"randtable={{10,4k,8k},{90,8k,16k}})\n"
	"define file name=f,path=/tmp,size=100m,prealloc\n"
	"define process name=p { thread name=t { flowop read name=r, "
	"filename=f, iosize=$x, random } }\n"
	"run 5\n",

	/* 6: first thread done ends the run */
	"set mode quit firstdone\n"
	"set $dir=/tmp\nset $count=1000\n"
	"define file name=f,path=$dir,size=0\n"
	"define process name=p,instances=1\n{\n"
	"  thread name=t,memsize=10m\n  {\n"
	"    flowop appendfile name=append,filename=f,iosize=8k,dsync\n"
	"    flowop finishoncount name=finish,value=$count,target=append\n"
	"  }\n}\n"
	"run\n",

	/* 7: rate-limited OLTP-like load */
	"set $dir=/tmp\nset $rate=100\n"
	"eventgen rate=100\n"
	"define fileset name=data,path=$dir,entries=10,dirwidth=1024,"
	"size=10m,prealloc=100,reuse\n"
	"define process name=dbwr,instances=1\n{\n"
	"  thread name=dbwr,memsize=10m,useism\n  {\n"
	"    flowop write name=dbwrite-a,filesetname=data,iosize=2k,"
	"workingset=10m,random,iters=100,opennext,directio,dsync\n"
	"    flowop eventlimit name=random-rate\n"
	"    flowop semblock name=dbwr-block,value=1000,highwater=2000\n"
	"  }\n}\n"
	"run 60\n",

	/* 8: echo with interpolation, several strings */
	"set $x = 5\nset $name = web\n"
	"echo \"a $x b\" \"c\"\n"
	"echo \"server ${name}: ready\\n\"\n"
	"system \"mkdir -p /tmp/fb\" \" && echo done\"\n"
	"version\n",

	/* 9: interval statistics */
	"define file name=f,path=/tmp,size=1m,prealloc\n"
	"define process name=p { thread name=t { flowop read name=r,"
	"filename=f,iosize=4k } }\n"
	"psrun -10 60\n",

	/* 10: latency histograms */
	"enable lathist\n"
	"debug 2\n"
	"define file name=f,path=/tmp,size=8m,prealloc,reuse,readonly\n"
	"define process name=p { thread name=t { flowop read name=r,"
	"filename=f,iosize=8k,random,noreadahead } }\n"
	"run 60\n",

	/* 11: explicit creation, listing, sleeping, arithmetic */
	"set $n = 4\nset $total = $n * 1k + 512\n"
	"define fileset name=fs,path=/tmp,entries=$total,dirwidth=$n * 2\n"
	"create files\n"
	"list filesets\n"
	"list flowop\n"
	"sleep 1\n"
	"define process name=p { thread name=t { flowop statfile "
	"name=s,filesetname=fs,indexed=$n } }\n"
	"run 60\n",

	/* 12: legacy 1.4 randvar, multi-client sync, quit */
	"define randvar name=$iosize, type=gamma, min=1k, mean=8k, gamma=1500\n"
	"enable multi master=localhost, client=c1\n"
	"domultisync value=1\n"
	"define file name=f,path=/tmp,size=1m\n"
	"define process name=p { thread name=t { flowop write name=w,"
	"filename=f,iosize=$iosize\n"
	"  flowop delay name=d, value=1 } }\n"
	"run 5\n"
	"quit\n",
};

START_TEST(test_realistic_scripts)
{
	static const enum ast_stmt_kind last[] = {
		ST_RUN, ST_RUN, ST_RUN, ST_RUN, ST_RUN, ST_RUN, ST_RUN,
		ST_VERSION, ST_PSRUN, ST_RUN, ST_RUN, ST_QUIT,
	};
	struct result r = parse_ok(scripts[_i]);
	const struct ast_stmt *s = r.script.stmts;

	ck_assert_ptr_nonnull(s);
	while (s->next)
		s = s->next;
	ck_assert_int_eq(s->kind, last[_i]);
	done(&r);
}
END_TEST

/* ---- command-line values ---- */

/* Parse a -D value; returns its dump or the first error line. */
static char *value_of(const char *text)
{
	struct arena a;
	struct diag d;
	char *errs, *out;
	size_t size;
	FILE *f = open_memstream(&errs, &size);
	struct ast_expr *e;

	arena_init(&a);
	diag_init(&d, "script.f", NULL, 0, f);
	e = ast_parse_value("-D v", text, &d, &a);
	fclose(f);
	if (e) {
		f = open_memstream(&out, &size);
		dump_expr(f, e);
		fclose(f);
		ck_assert_int_eq(d.errors, 0);
	} else {
		out = first_line(errs);
		ck_assert_int_eq(d.errors, 1);
	}
	free(errs);
	arena_free(&a);
	return out;
}

#define ck_assert_value(text, expected)                                 \
	do {                                                            \
		char *v_ = value_of(text);                              \
		ck_assert_str_eq(v_, expected);                         \
		free(v_);                                               \
	} while (0)

START_TEST(test_parse_value)
{
	ck_assert_value("64m", "67108864");
	ck_assert_value("8K", "8192");
	ck_assert_value("1.5k", "1536d");
	ck_assert_value("-5", "(neg 5)");
	ck_assert_value("-2.5", "(neg 2.5d)");
	ck_assert_value("true", "true");
	ck_assert_value("false", "false");
	ck_assert_value("/tmp/my dir", "'/tmp/my dir'");
	ck_assert_value("16kb",
			"-D v:1:1: invalid number '16kb' (quote the value to pass it as text)");
	ck_assert_value("\"16kb\"", "str(\"16kb\")");
	ck_assert_value("run", "'run'");
	ck_assert_value("", "''");
	ck_assert_value("\"a $x\\tb\"",
			"-D v:1:4: a value on the command line cannot use variables ('$x')");
	ck_assert_value("\"a\\tb\"", "str(\"a\tb\")");
	ck_assert_value("\"\"", "str()");
	ck_assert_value("99999999999999999999",
			"-D v:1:1: number '99999999999999999999' is too large");
	ck_assert_value("1e9", "1000000000");
	ck_assert_value("2.5e-1", "0.25d");
	ck_assert_value("-1.5e3", "(neg 1500)");
	ck_assert_value("1e19", "-D v:1:1: number '1e19' is too large");
	ck_assert_value("1e-400",
			"-D v:1:1: number '1e-400' is too small (it is not 0, but rounds to 0)");
	ck_assert_value("\"abc", "-D v:1:1: unterminated string (missing closing '\"')");
	ck_assert_value("\"a\\qb\"", "-D v:1:3: unknown escape '\\q'");
	ck_assert_value("\"a\"b", "-D v:1:4: unexpected text after the closing '\"'");
}
END_TEST

START_TEST(test_parse_value_counts_errors)
{
	struct arena a;
	struct diag d;
	char *errs;
	size_t size;
	FILE *f = open_memstream(&errs, &size);

	arena_init(&a);
	diag_init(&d, "script.f", NULL, 0, f);
	d.errors = 2;
	ck_assert_ptr_null(ast_parse_value("-D n", "\"x", &d, &a));
	ck_assert_int_eq(d.errors, 3);
	ck_assert_str_eq(d.filename, "script.f");
	fclose(f);
	ck_assert_ptr_nonnull(strstr(errs, "    \"x\n    ^\n"));
	free(errs);
	arena_free(&a);
}
END_TEST

static Suite *parser_suite(void)
{
	Suite *s = suite_create("parser");
	TCase *lex = tcase_create("lexical");
	TCase *expr = tcase_create("expressions");
	TCase *stmt = tcase_create("statements");
	TCase *err = tcase_create("errors");
	TCase *real = tcase_create("realistic");
	TCase *val = tcase_create("values");

	tcase_add_test(lex, test_number_suffixes);
	tcase_add_test(lex, test_number_fractions);
	tcase_add_test(lex, test_number_int64_limits);
	tcase_add_test(lex, test_number_invalid);
	tcase_add_test(lex, test_number_too_large);
	tcase_add_test(lex, test_number_exponents);
	tcase_add_test(lex, test_number_exponent_errors);
	tcase_add_test(lex, test_variables);
	tcase_add_test(lex, test_lone_dollar);
	tcase_add_test(lex, test_words);
	tcase_add_test(lex, test_keywords_as_values);
	tcase_add_test(lex, test_quoted_keywords_are_text);
	tcase_add_test(lex, test_string_escapes);
	tcase_add_test(lex, test_string_interpolation);
	tcase_add_test(lex, test_string_empty_and_multiline);
	tcase_add_test(lex, test_string_errors);
	tcase_add_test(lex, test_comments_and_bad_characters);
	tcase_add_test(lex, test_nul_byte);
	tcase_add_test(lex, test_empty_input);
	suite_add_tcase(s, lex);

	tcase_add_test(expr, test_arithmetic_precedence);
	tcase_add_test(expr, test_arithmetic_locations);
	tcase_add_test(expr, test_non_numeric_operands);
	tcase_add_test(expr, test_negative_attribute_values);
	tcase_add_loop_test(expr, test_depth_limit_accepted, 0, 5);
	tcase_add_loop_test(expr, test_depth_limit_plus_one_refused, 0, 5);
	tcase_add_test(expr, test_far_too_deep);
	tcase_add_test(expr, test_too_deep_twice_then_recovers);
	tcase_add_test(expr, test_long_line_quoted_as_window);
	suite_add_tcase(s, expr);

	tcase_add_test(stmt, test_every_statement);
	tcase_add_test(stmt, test_statement_locations);
	tcase_add_test(stmt, test_psrun_arguments);
	tcase_add_test(stmt, test_run_then_define);
	tcase_add_test(stmt, test_nested_process_locations);
	tcase_add_test(stmt, test_composite_locals_and_trailing_attrs);
	tcase_add_test(stmt, test_randvar_call_with_table);
	tcase_add_test(stmt, test_legacy_define_randvar);
	tcase_add_test(stmt, test_call_as_attribute_value);
	suite_add_tcase(s, stmt);

	tcase_add_test(err, test_unknown_command);
	tcase_add_test(err, test_unknown_entity);
	tcase_add_test(err, test_comma_errors);
	tcase_add_test(err, test_other_syntax_errors);
	tcase_add_test(err, test_several_errors_one_pass);
	tcase_add_test(err, test_unknown_command_after_error_line);
	tcase_add_test(err, test_garbage_does_not_crash);
	tcase_set_timeout(err, 120);
	suite_add_tcase(s, err);

	tcase_add_loop_test(real, test_realistic_scripts, 0,
			    (int)(sizeof(scripts) / sizeof(scripts[0])));
	suite_add_tcase(s, real);

	tcase_add_test(val, test_parse_value);
	tcase_add_test(val, test_parse_value_counts_errors);
	suite_add_tcase(s, val);
	return s;
}

CHECK_MAIN(parser_suite)
