/*
 * parse.h - reading a WML script into its syntax tree (lang/ast.h).
 */
#ifndef FLOWBENCH_PARSE_H
#define FLOWBENCH_PARSE_H

#include <stddef.h>

#include "lang/ast.h"

struct diag;

/*
 * Parse `len` bytes of WML source into `out`.  Errors go to `d` (several per
 * pass where the parser can recover).  Returns 0 when no error was reported.
 * `out` must be released with ast_script_free() in either case.
 */
int ast_parse(const char *filename, const char *source, size_t len,
	      struct diag *d, struct ast_script *out);

#endif
