/*
 * parser.y - the WML grammar: tokens -> AST (struct ast_stmt list).
 *
 * The actions only build nodes; nothing is looked up or executed here.
 * Grammar decisions that keep it LALR(1) with no conflicts (%expect 0):
 *
 * - Statements start with a command keyword; no statement starts with a
 *   word, a variable, a number or punctuation.  Optional tails (`run`'s
 *   argument, `eventgen`'s attributes, a composite's trailing attributes)
 *   therefore never compete with the next statement.
 * - Keywords are tokens, but wherever a VALUE is expected they are also
 *   words (word_or_keyword), so `name=run` or `type=file` work.  Attribute
 *   names and flowop types are plain WORDs only.
 * - expr is + - * / with the usual precedence, unary minus and
 *   parentheses over numbers, variables, plain words, quoted strings and
 *   booleans.  Type checking is the compiler's job: `dir + 1` parses, and
 *   the compiler reports "'+' needs numbers, not a string".  A keyword used
 *   as a word (`name=run`) is only accepted as a lone value, never as an
 *   operand, or `run` followed by the next statement would be ambiguous; the
 *   error reporter phrases that case as "'+' needs numbers, not a word".
 * - `run`, `sleep` and `debug` take an expr.  `psrun` takes up to two
 *   SIGNED PRIMARIES (number, variable or parenthesised expr, each with an
 *   optional leading '-'), never binary expressions, so `psrun 10 -5` is
 *   two arguments, not 10 - 5.  Write `psrun (10-5)` for arithmetic.
 * - `set mode` takes a first word (which may be a keyword: `quit`) and then
 *   plain words only.
 * - `randvar(...)` / `cvar(...)` are values wherever a value is allowed
 *   (in `set` and, as an extension, in attributes: `size=cvar(...)`); the
 *   compiler decides where they make sense.
 *
 * Expressions nest at most AST_MAX_DEPTH levels (ast.h): each node's depth
 * is checked as it is built, a deeper one is reported once at its location
 * and its ancestors collapse into it, so no later stage ever recurses more
 * than that.  Nesting is the only thing that grows bison's stack (lists are
 * left-recursive), so YYMAXDEPTH is sized from the same limit: a stack
 * overflow is reported with the same message.
 *
 * Error recovery is at statement level: after a syntax error the parser
 * skips to the next command keyword.  A command keyword that starts a line
 * also ends bison's three-token silence (yyerrok), so an error in the very
 * next statement is still reported.
 */

%define api.pure full
%locations
%define parse.error custom
%define parse.lac full
%expect 0

%param {yyscan_t scanner}
%parse-param {struct parse_ctx *ctx}

%code requires {
#include <stdbool.h>

#include "lang/ast.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

struct parse_ctx;

/* A word-like token: its text and whether it starts a line. */
struct tok_word {
	char *text;
	bool bol;
};

/* Lists are built left-recursively with a tail pointer. */
struct ast_attr_list { struct ast_attr *head, *tail; };
struct entity_list { struct ast_entity *head, *tail; };
struct word_list { struct ast_word *head, *tail; };
struct string_list { struct ast_string_list *head, *tail; };
struct table_row { struct ast_expr *cell[3]; struct table_row *next; };
struct row_list { struct table_row *head, *tail; size_t n; };
}

%code {
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/diag.h"
#include "lang/scanner.h"

static void yyerror(YYLTYPE *loc, yyscan_t scanner, struct parse_ctx *ctx,
		    const char *msg);

#define LOC(l) ((struct src_loc){ (l).first_line, (l).first_column })
#define A (ctx->arena)

/* A command keyword: a fresh statement ends any error recovery. */
#define COMMAND(res, kw)                                \
	do {                                            \
		(res) = (kw);                           \
		if ((kw).bol) {                         \
			yyerrok;                        \
			ctx->recovering = false;        \
		}                                       \
	} while (0)

/*
 * Bison's stack limit.  Every level of nesting pushes at most 6 states
 * (`randvar ( attrs , WORD =` before a nested call; 2 or fewer for
 * operators, '(' and '-'), and the statement around an expression fewer
 * than 100.  So an expression within AST_MAX_DEPTH never reaches this
 * limit, and one that does is deeper than AST_MAX_DEPTH: yyerror says so.
 */
#define YYMAXDEPTH (6 * AST_MAX_DEPTH + 100)

static struct ast_expr *binary(struct parse_ctx *ctx, enum ast_expr_kind kind,
			       struct src_loc loc, struct ast_expr *l,
			       struct ast_expr *r);
static struct ast_expr *negate(struct parse_ctx *ctx, struct src_loc loc,
			       struct ast_expr *operand);
static struct ast_expr *parenthesised(struct parse_ctx *ctx,
				      struct src_loc loc, struct ast_expr *e);
static struct ast_expr *call_expr(struct parse_ctx *ctx, struct src_loc loc,
				  char *fn, struct ast_attr *args);
static struct ast_expr *table_expr(struct parse_ctx *ctx, struct src_loc loc,
				   struct row_list rows);
}

%union {
	struct tok_word w;
	struct ast_expr *expr;
	struct ast_attr *attr;
	struct ast_attr_list attrs;
	struct ast_entity *ent;
	struct entity_list ents;
	struct word_list words;
	struct ast_string_list *str;
	struct string_list strs;
	struct table_row *row;
	struct row_list rows;
	struct ast_stmt *stmt;
}

%token YYEOF 0 "end of file"
%token <w> WORD "a word"
%token <w> VAR "a variable"
%token <expr> NUMBER "a number"
%token <expr> STRING "a quoted string"
/* keep these together, KW_CREATE first and KW_FALSE last (see lexer.l) */
%token <w> KW_CREATE "create" KW_DEFINE "define" KW_DEBUG "debug"
%token <w> KW_DOMULTISYNC "domultisync" KW_ECHO "echo" KW_ENABLE "enable"
%token <w> KW_EVENTGEN "eventgen" KW_LIST "list" KW_PSRUN "psrun"
%token <w> KW_QUIT "quit" KW_RUN "run" KW_SET "set" KW_SLEEP "sleep"
%token <w> KW_SYSTEM "system" KW_USAGE "usage" KW_VERSION "version"
%token <w> KW_FILE "file" KW_FILES "files" KW_FILESET "fileset" KW_DEVICE "device"
%token <w> KW_FILESETS "filesets" KW_PROCESS "process"
%token <w> KW_PROCESSES "processes" KW_THREAD "thread" KW_FLOWOP "flowop"
%token <w> KW_RANDVAR "randvar" KW_CVAR "cvar" KW_MODE "mode"
%token <w> KW_TRUE "true" KW_FALSE "false"

%left '+' '-'
%left '*' '/'
%precedence UMINUS

%type <stmt> stmt set_stmt define_stmt create_stmt run_stmt psrun_stmt
%type <stmt> sleep_stmt echo_stmt system_stmt usage_stmt eventgen_stmt enable_stmt
%type <stmt> domultisync_stmt list_stmt debug_stmt version_stmt quit_stmt
%type <w> c_create c_define c_debug c_domultisync c_echo c_enable
%type <w> c_eventgen c_list c_psrun c_quit c_run c_set c_sleep c_system c_usage
%type <w> c_version word_or_keyword keyword fileset_kw process_kw
%type <expr> expr sarg sprim value scalar call table
%type <attr> attr
%type <attrs> attrs opt_attrs
%type <ent> thread flowop
%type <ents> threads flowops
%type <words> mode_words
%type <str> echo_arg
%type <strs> echo_args
%type <row> row
%type <rows> rows

%%

script:
	  %empty
	| script stmt
		{
			if ($2) {
				*ctx->stmts_tail = $2;
				ctx->stmts_tail = &$2->next;
				ctx->recovering = false;
			}
		}
	;

stmt:
	  set_stmt | define_stmt | create_stmt | run_stmt | psrun_stmt
	| sleep_stmt | echo_stmt | system_stmt | usage_stmt | eventgen_stmt
	| enable_stmt
	| domultisync_stmt | list_stmt | debug_stmt | version_stmt | quit_stmt
	| error		{ $$ = NULL; }
	;

/* ---- command keywords ---- */

c_create:	KW_CREATE	{ COMMAND($$, $1); } ;
c_define:	KW_DEFINE	{ COMMAND($$, $1); } ;
c_debug:	KW_DEBUG	{ COMMAND($$, $1); } ;
c_domultisync:	KW_DOMULTISYNC	{ COMMAND($$, $1); } ;
c_echo:		KW_ECHO		{ COMMAND($$, $1); } ;
c_enable:	KW_ENABLE	{ COMMAND($$, $1); } ;
c_eventgen:	KW_EVENTGEN	{ COMMAND($$, $1); } ;
c_list:		KW_LIST		{ COMMAND($$, $1); } ;
c_psrun:	KW_PSRUN	{ COMMAND($$, $1); } ;
c_quit:		KW_QUIT		{ COMMAND($$, $1); } ;
c_run:		KW_RUN		{ COMMAND($$, $1); } ;
c_set:		KW_SET		{ COMMAND($$, $1); } ;
c_sleep:	KW_SLEEP	{ COMMAND($$, $1); } ;
c_system:	KW_SYSTEM	{ COMMAND($$, $1); } ;
c_usage:	KW_USAGE	{ COMMAND($$, $1); } ;
c_version:	KW_VERSION	{ COMMAND($$, $1); } ;

/* ---- statements ---- */

set_stmt:
	  c_set VAR '=' scalar
		{
			$$ = ast_stmt_new(A, ST_SET, LOC(@1));
			$$->var = $2.text;
			$$->var_loc = LOC(@2);
			$$->expr = $4;
		}
	| c_set KW_MODE mode_words
		{
			$$ = ast_stmt_new(A, ST_SET_MODE, LOC(@1));
			$$->words = $3.head;
		}
	;

mode_words:
	  word_or_keyword
		{ $$.head = $$.tail = ast_word_new(A, $1.text, LOC(@1)); }
	| mode_words WORD
		{
			$$ = $1;
			$$.tail->next = ast_word_new(A, $2.text, LOC(@2));
			$$.tail = $$.tail->next;
		}
	;

define_stmt:
	  c_define KW_FILE attrs
		{
			$$ = ast_stmt_new(A, ST_DEFINE_FILE, LOC(@1));
			$$->attrs = $3.head;
		}
	| c_define fileset_kw attrs
		{
			$$ = ast_stmt_new(A, ST_DEFINE_FILESET, LOC(@1));
			$$->attrs = $3.head;
		}
	| c_define KW_DEVICE attrs
		{
			$$ = ast_stmt_new(A, ST_DEFINE_DEVICE, LOC(@1));
			$$->attrs = $3.head;
		}
	| c_define process_kw attrs '{' threads '}'
		{
			$$ = ast_stmt_new(A, ST_DEFINE_PROCESS, LOC(@1));
			$$->entity = ast_entity_new(A, LOC(@2), $3.head,
						    $5.head);
		}
	| c_define KW_FLOWOP attrs '{' flowops '}' opt_attrs
		{
			$$ = ast_stmt_new(A, ST_DEFINE_COMPOSITE, LOC(@1));
			$$->entity = ast_entity_new(A, LOC(@2), $3.head,
						    $5.head);
			$$->entity->trailing_attrs = $7.head;
		}
	| c_define KW_RANDVAR attrs
		{
			$$ = ast_stmt_new(A, ST_DEFINE_RANDVAR, LOC(@1));
			$$->attrs = $3.head;
		}
	;

fileset_kw: KW_FILESET | KW_FILESETS ;
process_kw: KW_PROCESS | KW_PROCESSES ;

threads:
	  thread		{ $$.head = $$.tail = $1; }
	| threads thread	{ $$ = $1; $$.tail->next = $2; $$.tail = $2; }
	;

thread:
	  KW_THREAD attrs '{' flowops '}'
		{ $$ = ast_entity_new(A, LOC(@1), $2.head, $4.head); }
	;

flowops:
	  flowop		{ $$.head = $$.tail = $1; }
	| flowops flowop	{ $$ = $1; $$.tail->next = $2; $$.tail = $2; }
	;

flowop:
	  KW_FLOWOP WORD opt_attrs
		{
			$$ = ast_entity_new(A, LOC(@1), $3.head, NULL);
			$$->type = $2.text;
			$$->type_loc = LOC(@2);
		}
	;

create_stmt:
	  c_create word_or_keyword
		{
			$$ = ast_stmt_new(A, ST_CREATE_FILES, LOC(@1));
			$$->words = ast_word_new(A, $2.text, LOC(@2));
		}
	;

run_stmt:
	  c_run			{ $$ = ast_stmt_new(A, ST_RUN, LOC(@1)); }
	| c_run expr
		{
			$$ = ast_stmt_new(A, ST_RUN, LOC(@1));
			$$->expr = $2;
		}
	;

psrun_stmt:
	  c_psrun		{ $$ = ast_stmt_new(A, ST_PSRUN, LOC(@1)); }
	| c_psrun sarg
		{
			$$ = ast_stmt_new(A, ST_PSRUN, LOC(@1));
			$$->expr = $2;
		}
	| c_psrun sarg sarg
		{
			$$ = ast_stmt_new(A, ST_PSRUN, LOC(@1));
			$$->expr = $2;
			$$->expr2 = $3;
		}
	;

sleep_stmt:
	  c_sleep expr
		{
			$$ = ast_stmt_new(A, ST_SLEEP, LOC(@1));
			$$->expr = $2;
		}
	;

debug_stmt:
	  c_debug expr
		{
			$$ = ast_stmt_new(A, ST_DEBUG, LOC(@1));
			$$->expr = $2;
		}
	;

echo_stmt:
	  c_echo echo_args
		{
			$$ = ast_stmt_new(A, ST_ECHO, LOC(@1));
			$$->strings = $2.head;
		}
	;

system_stmt:
	  c_system echo_args
		{
			$$ = ast_stmt_new(A, ST_SYSTEM, LOC(@1));
			$$->strings = $2.head;
		}
	;

/* `usage "..."`: the help lines of old (1.4) personalities */
usage_stmt:
	  c_usage echo_args
		{
			$$ = ast_stmt_new(A, ST_USAGE, LOC(@1));
			$$->strings = $2.head;
		}
	;

echo_args:
	  echo_arg		{ $$.head = $$.tail = $1; }
	| echo_args echo_arg	{ $$ = $1; $$.tail->next = $2; $$.tail = $2; }
	;

echo_arg:
	  STRING
		{
			$$ = arena_new(A, struct ast_string_list);
			$$->str = $1;
		}
	| VAR
		{
			$$ = arena_new(A, struct ast_string_list);
			$$->str = ast_expr_new(A, EX_VAR, LOC(@1));
			$$->str->u.var = $1.text;
		}
	;

eventgen_stmt:
	  c_eventgen opt_attrs
		{
			$$ = ast_stmt_new(A, ST_EVENTGEN, LOC(@1));
			$$->attrs = $2.head;
		}
	;

enable_stmt:
	  c_enable word_or_keyword opt_attrs
		{
			$$ = ast_stmt_new(A, ST_ENABLE, LOC(@1));
			$$->words = ast_word_new(A, $2.text, LOC(@2));
			$$->attrs = $3.head;
		}
	;

domultisync_stmt:
	  c_domultisync attrs
		{
			$$ = ast_stmt_new(A, ST_DOMULTISYNC, LOC(@1));
			$$->attrs = $2.head;
		}
	;

list_stmt:
	  c_list word_or_keyword
		{
			$$ = ast_stmt_new(A, ST_LIST, LOC(@1));
			$$->words = ast_word_new(A, $2.text, LOC(@2));
		}
	;

version_stmt:
	  c_version	{ $$ = ast_stmt_new(A, ST_VERSION, LOC(@1)); }
	;

quit_stmt:
	  c_quit	{ $$ = ast_stmt_new(A, ST_QUIT, LOC(@1)); }
	;

/* ---- attribute lists ---- */

opt_attrs:
	  %empty	{ $$.head = $$.tail = NULL; }
	| attrs
	;

attrs:
	  attr			{ $$.head = $$.tail = $1; }
	| attrs ',' attr	{ $$ = $1; $$.tail->next = $3; $$.tail = $3; }
	;

attr:
	  WORD		{ $$ = ast_attr_new(A, $1.text, false, NULL, LOC(@1)); }
	| WORD '=' value
		{ $$ = ast_attr_new(A, $1.text, false, $3, LOC(@1)); }
	| VAR		{ $$ = ast_attr_new(A, $1.text, true, NULL, LOC(@1)); }
	| VAR '=' value
		{ $$ = ast_attr_new(A, $1.text, true, $3, LOC(@1)); }
	;

/* ---- values ---- */

value:
	  scalar
	| table
	;

/* A single primary is stored as itself (EX_INT, EX_WORD, ...), unwrapped. */
scalar:
	  expr
	| keyword		{ $$ = ast_expr_word(A, $1.text, LOC(@1)); }
	| call
	;

call:
	  KW_RANDVAR '(' attrs ')'	{ $$ = call_expr(ctx, LOC(@1), $1.text, $3.head); }
	| KW_CVAR '(' attrs ')'		{ $$ = call_expr(ctx, LOC(@1), $1.text, $3.head); }
	;

/* randtable={{pct, lo, hi}, ...} */
table:
	  '{' rows '}'		{ $$ = table_expr(ctx, LOC(@1), $2); }
	;

rows:
	  row
		{
			$$.head = $$.tail = $1;
			$$.n = 1;
		}
	| rows ',' row
		{
			$$ = $1;
			$$.tail->next = $3;
			$$.tail = $3;
			$$.n++;
		}
	;

row:
	  '{' expr ',' expr ',' expr '}'
		{
			$$ = arena_new(A, struct table_row);
			$$->cell[0] = $2;
			$$->cell[1] = $4;
			$$->cell[2] = $6;
		}
	;

/* Binary nodes are located at their operator, unary minus at the '-'. */
expr:
	  NUMBER
	| VAR
		{
			$$ = ast_expr_new(A, EX_VAR, LOC(@1));
			$$->u.var = $1.text;
		}
	| WORD			{ $$ = ast_expr_word(A, $1.text, LOC(@1)); }
	| STRING
	| KW_TRUE
		{
			$$ = ast_expr_new(A, EX_BOOL, LOC(@1));
			$$->u.b = true;
		}
	| KW_FALSE
		{
			$$ = ast_expr_new(A, EX_BOOL, LOC(@1));
			$$->u.b = false;
		}
	| '(' expr ')'		{ $$ = parenthesised(ctx, LOC(@1), $2); }
	| expr '+' expr		{ $$ = binary(ctx, EX_ADD, LOC(@2), $1, $3); }
	| expr '-' expr		{ $$ = binary(ctx, EX_SUB, LOC(@2), $1, $3); }
	| expr '*' expr		{ $$ = binary(ctx, EX_MUL, LOC(@2), $1, $3); }
	| expr '/' expr		{ $$ = binary(ctx, EX_DIV, LOC(@2), $1, $3); }
	| '-' expr %prec UMINUS	{ $$ = negate(ctx, LOC(@1), $2); }
	;

/* psrun's arguments: no binary operators, so `psrun 10 -5` is unambiguous. */
sarg:
	  sprim
	| '-' sprim		{ $$ = negate(ctx, LOC(@1), $2); }
	;

sprim:
	  NUMBER
	| VAR
		{
			$$ = ast_expr_new(A, EX_VAR, LOC(@1));
			$$->u.var = $1.text;
		}
	| '(' expr ')'		{ $$ = parenthesised(ctx, LOC(@1), $2); }
	;

/* Where a word is expected, a keyword is just a word. */
word_or_keyword:
	  WORD
	| keyword
	;

keyword:
	  KW_CREATE | KW_DEFINE | KW_DEBUG | KW_DOMULTISYNC | KW_ECHO
	| KW_ENABLE | KW_EVENTGEN | KW_LIST | KW_PSRUN | KW_QUIT | KW_RUN
	| KW_SET | KW_SLEEP | KW_SYSTEM | KW_USAGE | KW_VERSION
	| KW_FILE | KW_FILES | KW_FILESET | KW_FILESETS | KW_DEVICE | KW_PROCESS
	| KW_PROCESSES | KW_THREAD | KW_FLOWOP | KW_RANDVAR | KW_CVAR | KW_MODE
	;

%%

/* ---- expressions of bounded depth ---- */

static void too_deep_error(struct parse_ctx *ctx, struct src_loc loc)
{
	diag_error(ctx->diag, loc,
		   "expression nested too deeply (more than %d levels)",
		   AST_MAX_DEPTH);
}

/* A node already reported as too deep: its ancestors become it. */
static bool too_deep(const struct ast_expr *e)
{
	return e && e->depth > AST_MAX_DEPTH;
}

/* `e`, just built at `loc`, reported if it is one level too deep. */
static struct ast_expr *bounded(struct parse_ctx *ctx, struct ast_expr *e,
				struct src_loc loc)
{
	if (too_deep(e))
		too_deep_error(ctx, loc);
	return e;
}

static struct ast_expr *binary(struct parse_ctx *ctx, enum ast_expr_kind kind,
			       struct src_loc loc, struct ast_expr *l,
			       struct ast_expr *r)
{
	if (too_deep(l) || too_deep(r))
		return too_deep(l) ? l : r;
	return bounded(ctx, ast_expr_binary(A, kind, loc, l, r), loc);
}

static struct ast_expr *negate(struct parse_ctx *ctx, struct src_loc loc,
			       struct ast_expr *operand)
{
	if (too_deep(operand))
		return operand;
	return bounded(ctx, ast_expr_unary(A, loc, operand), loc);
}

/* `( e )` is `e` one level deeper, reported at the '('. */
static struct ast_expr *parenthesised(struct parse_ctx *ctx,
				      struct src_loc loc, struct ast_expr *e)
{
	if (too_deep(e))
		return e;
	e->depth++;
	return bounded(ctx, e, loc);
}

/* randvar(...) / cvar(...): one level above its deepest argument. */
static struct ast_expr *call_expr(struct parse_ctx *ctx, struct src_loc loc,
				  char *fn, struct ast_attr *args)
{
	struct ast_expr *e;
	unsigned deepest = 0;

	for (struct ast_attr *a = args; a; a = a->next) {
		if (too_deep(a->value))
			return a->value;
		if (a->value && a->value->depth > deepest)
			deepest = a->value->depth;
	}
	e = ast_expr_new(A, EX_CALL, loc);
	e->u.call.fn = fn;
	e->u.call.args = args;
	e->depth = 1 + deepest;
	return bounded(ctx, e, loc);
}

/* randtable={{pct, lo, hi}, ...}: one level above its deepest cell. */
static struct ast_expr *table_expr(struct parse_ctx *ctx, struct src_loc loc,
				   struct row_list rows)
{
	struct ast_expr *e;
	struct table_row *r;
	unsigned deepest = 0;

	for (r = rows.head; r; r = r->next) {
		for (int k = 0; k < 3; k++) {
			if (too_deep(r->cell[k]))
				return r->cell[k];
			if (r->cell[k]->depth > deepest)
				deepest = r->cell[k]->depth;
		}
	}
	e = ast_expr_new(A, EX_TABLE, loc);
	e->u.table.nrows = rows.n;
	e->u.table.rows = arena_alloc(A, rows.n * sizeof(*e->u.table.rows));
	r = rows.head;
	for (size_t i = 0; i < rows.n; i++, r = r->next)
		memcpy(e->u.table.rows[i], r->cell, sizeof(r->cell));
	e->depth = 1 + deepest;
	return bounded(ctx, e, loc);
}

/*
 * Bison calls this only when its stack is full ("memory exhausted"): the
 * input nests deeper than AST_MAX_DEPTH (see YYMAXDEPTH above).
 */
static void yyerror(YYLTYPE *loc, yyscan_t scanner, struct parse_ctx *ctx,
		    const char *msg)
{
	(void)scanner;
	(void)msg;
	too_deep_error(ctx, LOC(*loc));
}

/* ---- syntax error messages ---- */

/* How a token kind is named in "expected ..." lists. */
static const char *token_kind_name(yysymbol_kind_t k, char *buf, size_t size)
{
	const char *name = yysymbol_name(k);

	/* "a word", "end of file" and '{' read well; keywords get quotes */
	if (k >= YYSYMBOL_KW_CREATE && k <= YYSYMBOL_KW_FALSE) {
		snprintf(buf, size, "'%s'", name);
		return buf;
	}
	return name;
}

/* How a concrete token is named in "unexpected ..." messages. */
static const char *tok_name(const struct tok_info *t, char *buf, size_t size)
{
	switch (t->kind) {
	case YYEOF:
		return "end of file";
	case STRING:
		return "quoted string";
	case WORD:
		snprintf(buf, size, "word '%s'", t->text);
		return buf;
	case NUMBER:
		snprintf(buf, size, "number '%s'", t->text);
		return buf;
	case VAR:
		snprintf(buf, size, "variable '%s'", t->text);
		return buf;
	default:
		snprintf(buf, size, "'%s'", t->text);
		return buf;
	}
}

static bool is_keyword_sym(yysymbol_kind_t k)
{
	return k >= YYSYMBOL_KW_CREATE && k <= YYSYMBOL_KW_FALSE;
}

static bool is_operator_sym(yysymbol_kind_t k)
{
	return k == YYTRANSLATE('+') || k == YYTRANSLATE('-') ||
	       k == YYTRANSLATE('*') || k == YYTRANSLATE('/');
}

/* Tokens that can start an expression (summed up as "a value"). */
static bool starts_value(yysymbol_kind_t k)
{
	return k == YYSYMBOL_NUMBER || k == YYSYMBOL_VAR ||
	       k == YYSYMBOL_WORD || k == YYSYMBOL_STRING ||
	       k == YYTRANSLATE('-') || k == YYTRANSLATE('(') ||
	       is_keyword_sym(k);
}

/* Add `nm` to a short list of distinct names; -1 when the list is full. */
static int add_name(char names[5][96], int *n, const char *nm)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(names[i], nm))
			return 0;
	if (*n == 5)
		return -1;
	snprintf(names[(*n)++], sizeof(names[0]), "%s", nm);
	return 0;
}

__attribute__((format(printf, 3, 4)))
static void msg_append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

static bool is_operator(int t)
{
	return t == '+' || t == '-' || t == '*' || t == '/';
}

/* A keyword used as a word: a value of its own, never an operand. */
static bool is_keyword_word(int t)
{
	return t >= KW_CREATE && t <= KW_MODE;
}

static bool next_is(const struct parse_ctx *ctx, size_t pos, const char *set)
{
	while (pos < ctx->len && (ctx->src[pos] == ' ' || ctx->src[pos] == '\t'))
		pos++;
	return pos < ctx->len && ctx->src[pos] && strchr(set, ctx->src[pos]);
}

/*
 * Bison calls this for every syntax error it does not suppress.  The token
 * history kept by the scanner lets us say what the user most likely meant
 * rather than list grammar symbols: unknown commands and entities (with a
 * suggestion), missing commas, trailing commas, words in arithmetic.
 */
static int yyreport_syntax_error(const yypcontext_t *yyctx, yyscan_t scanner,
				 struct parse_ctx *ctx)
{
	const struct tok_info *t = &ctx->tok, *p = &ctx->prev;
	struct diag *d = ctx->diag;
	yysymbol_kind_t exp[YYNTOKENS];
	int nexp = yypcontext_expected_tokens(yyctx, exp, YYNTOKENS);
	bool want_cmd = false, want_comma = false, want_brace = false;
	bool want_word = false, want_number = false, want_string = false;
	bool want_value;
	bool only_attr = nexp > 0;
	char dym[128], b1[96], b2[96];

	(void)scanner;
	ctx->recovering = true;
	for (int i = 0; i < nexp; i++) {
		want_cmd |= exp[i] == YYSYMBOL_KW_SET;
		want_comma |= exp[i] == YYTRANSLATE(',');
		want_brace |= exp[i] == YYTRANSLATE('}');
		want_word |= exp[i] == YYSYMBOL_WORD;
		want_number |= exp[i] == YYSYMBOL_NUMBER;
		want_string |= exp[i] == YYSYMBOL_STRING;
		if (exp[i] != YYSYMBOL_WORD && exp[i] != YYSYMBOL_VAR)
			only_attr = false;
	}

	want_value = want_word && want_number && want_string;

	/* define fil name=... */
	if (t->kind == WORD && p->kind == KW_DEFINE) {
		diag_error(d, t->loc, "unknown entity '%s' after define%s",
			   t->text, diag_did_you_mean(dym, sizeof(dym), t->text,
						      ast_entity_names));
		return 0;
	}

	/* eventgen <newline> defne file ...: the typo was eaten as an attribute */
	if (p->kind == WORD && p->bol && t->kind != '=' && t->kind != ',' &&
	    diag_suggest(p->text, ast_command_names)) {
		diag_error(d, p->loc, "unknown command '%s'%s", p->text,
			   diag_did_you_mean(dym, sizeof(dym), p->text,
					     ast_command_names));
		return 0;
	}

	/* name=a path=b */
	if (t->kind == WORD && want_comma && next_is(ctx, t->end_pos, "=")) {
		diag_error(d, t->loc,
			   "unexpected word '%s' after attribute list (missing ','%s?)",
			   t->text, t->bol ? " at the end of the previous line" : "");
		return 0;
	}

	/* defne file ... / runn 5 */
	if (t->kind == WORD && want_cmd &&
	    (t->bol || diag_suggest(t->text, ast_command_names))) {
		diag_error(d, t->loc, "unknown command '%s'%s", t->text,
			   diag_did_you_mean(dym, sizeof(dym), t->text,
					     ast_command_names));
		return 0;
	}

	/* $x = 5 */
	if (t->kind == VAR && want_cmd && next_is(ctx, t->end_pos, "=")) {
		diag_error(d, t->loc, "unexpected variable '%s' (missing 'set'?)",
			   t->text);
		return 0;
	}

	/* flowop or thread outside its block */
	if ((t->kind == KW_FLOWOP || t->kind == KW_THREAD) && want_cmd) {
		diag_error(d, t->loc, "'%s' is only allowed inside %s", t->text,
			   t->kind == KW_THREAD ? "'define process ... { }'" :
			   "a thread or a 'define flowop ... { }' block");
		return 0;
	}

	/* name=run + 1: other operand types are the compiler's business */
	if (is_operator(t->kind) && is_keyword_word(p->kind) && want_cmd) {
		diag_error(d, t->loc, "'%s' needs numbers, not a word", t->text);
		return 0;
	}
	if (is_operator(p->kind) && is_keyword_word(t->kind) && !t->bol) {
		diag_error(d, t->loc, "'%s' needs numbers, not a word", p->text);
		return 0;
	}

	/* path=/tmp/$x: words and variables do not join */
	if ((t->kind == VAR && p->kind == WORD) ||
	    (t->kind == WORD && p->kind == VAR)) {
		if (t->loc.line == p->end.line && t->loc.col == p->end.col) {
			diag_error(d, t->loc,
				   "a word and a variable cannot be joined; use a quoted string such as \"%s%s\"",
				   p->text, t->text);
			return 0;
		}
	}

	/* name=a, <newline> run */
	if (p->kind == ',' && only_attr) {
		diag_error(d, t->loc,
			   "unexpected %s after ',' (expected an attribute%s)",
			   tok_name(t, b1, sizeof(b1)),
			   t->kind == ',' ? "" : "; trailing comma?");
		return 0;
	}

	if (t->kind == YYEOF && want_brace) {
		diag_error(d, t->loc, "unexpected end of file (missing '}'?)");
		return 0;
	}

	/* The general case: what we saw, after what, and what would do. */
	{
		char msg[640], names[5][96];
		int n = 0;
		bool too_many = false;

		for (int i = 0; i < nexp && !too_many; i++) {
			const char *nm = token_kind_name(exp[i], b2, sizeof(b2));

			if (want_value && starts_value(exp[i]))
				nm = "a value";
			else if (is_operator_sym(exp[i]))
				continue;       /* never what was forgotten */
			else if (is_keyword_sym(exp[i]) && want_word)
				continue;       /* "a word" covers keywords */
			else if (exp[i] >= YYSYMBOL_KW_CREATE &&
				 exp[i] <= YYSYMBOL_KW_VERSION)
				nm = "a command";
			if (add_name(names, &n, nm) < 0)
				too_many = true;
		}
		snprintf(msg, sizeof(msg), "unexpected %s",
			 tok_name(t, b1, sizeof(b1)));
		if (p->kind)
			msg_append(msg, sizeof(msg), " after %s",
				   tok_name(p, b2, sizeof(b2)));
		for (int i = 0; i < n && !too_many; i++)
			msg_append(msg, sizeof(msg), "%s%s",
				   i == 0 ? "; expected " :
				   i == n - 1 ? " or " : ", ", names[i]);
		diag_error(d, t->loc, "%s", msg);
	}
	return 0;
}
