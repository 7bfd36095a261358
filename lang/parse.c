/*
 * parse.c - a WML script read into its syntax tree: one reentrant flex
 * scanner (lexer.l) and the bison parser (parser.y) over the source,
 * with the tree's arena.  Kept apart from the tree's constructors
 * (ast.c), which the scanner and parser themselves use.
 */
#include "lang/parse.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "plan/diag.h"
#include "lang/parser.h"
#include "lang/scanner.h"

/* flex's entry points, defined in the generated lang/lexer.c */
int yylex_init_extra(struct parse_ctx *extra, yyscan_t *scanner);
struct yy_buffer_state *yy_scan_bytes(const char *bytes, int len,
				      yyscan_t scanner);
int yylex_destroy(yyscan_t scanner);

int ast_parse(const char *filename, const char *source, size_t len,
	      struct diag *d, struct ast_script *out)
{
	struct parse_ctx ctx;
	yyscan_t scanner;
	int before = d->errors;

	arena_init(&out->arena);
	out->filename = arena_strdup(&out->arena, filename ? filename : "-");
	out->stmts = NULL;

	memset(&ctx, 0, sizeof(ctx));
	ctx.arena = &out->arena;
	ctx.diag = d;
	ctx.src = source ? source : "";
	ctx.len = source ? len : 0;
	ctx.line = 1;
	ctx.col = 1;
	ctx.segs_tail = &ctx.segs;
	ctx.stmts_tail = &ctx.stmts;

	if (ctx.len > INT_MAX - 2) {
		diag_error(d, (struct src_loc){ 0, 0 },
			   "script is too large (%zu bytes)", ctx.len);
		return -1;
	}
	if (yylex_init_extra(&ctx, &scanner)) {
		diag_error(d, (struct src_loc){ 0, 0 },
			   "cannot initialise the scanner");
		return -1;
	}
	yy_scan_bytes(ctx.src, (int)ctx.len, scanner);
	if (yyparse(scanner, &ctx) != 0 && d->errors == before)
		diag_error(d, (struct src_loc){ ctx.line, ctx.col },
			   "syntax error");
	yylex_destroy(scanner);
	free(ctx.buf);
	out->stmts = ctx.stmts;
	return d->errors > before ? -1 : 0;
}

