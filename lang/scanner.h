/*
 * scanner.h - private glue between the scanner (lexer.l), the parser
 * (parser.y) and the AST helpers (ast.c).
 *
 * Nothing here is public: the rest of flowbench only sees ast.h.  The parse
 * context carries everything a pass needs (arena, diagnostics, position,
 * token history for error messages, the statement list being built), so
 * the scanner and the parser stay reentrant with no global state.
 *
 * Include this after "lang/parser.h": the yylex() prototype needs YYSTYPE
 * and YYLTYPE, which bison generates.
 */
#ifndef FLOWBENCH_SCANNER_H
#define FLOWBENCH_SCANNER_H

#include <stdbool.h>
#include <stddef.h>

#include "plan/arena.h"
#include "lang/ast.h"
#include "plan/diag.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

/* What the error reporter remembers about a token it may have to name. */
struct tok_info {
	int kind;               /* bison token number; 0 = end of file */
	struct src_loc loc;     /* first character */
	struct src_loc end;     /* just after the last character */
	size_t end_pos;         /* byte offset just after the token */
	bool bol;               /* first token on its line */
	char text[48];          /* spelling, truncated; "" for strings */
};

struct parse_ctx {
	struct arena *arena;
	struct diag *diag;
	const char *src;        /* the whole input, to peek ahead */
	size_t len;

	/* position of the next unread byte */
	size_t pos;
	int line, col;
	int last_line;          /* line on which the previous token ended */

	struct tok_info tok;    /* the most recent token (the lookahead) */
	struct tok_info prev;   /* the one before it */
	bool recovering;        /* skipping input after a syntax error */

	/* the quoted string being scanned */
	struct src_loc str_loc;
	struct ast_strseg *segs, **segs_tail;
	char *buf;              /* pending literal text (malloc'd) */
	size_t buf_len, buf_cap;
	struct src_loc buf_loc;

	/* the result, in source order */
	struct ast_stmt *stmts, **stmts_tail;
};

/* The scanner entry point, a wrapper that records token history. */
int yylex(YYSTYPE *lvalp, YYLTYPE *llocp, yyscan_t scanner);

#endif
