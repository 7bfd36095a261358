/*
 * srcloc.h - a position in a WML source file (1-based line and column).
 * Shared by the AST, the diagnostics and the plan, so that runtime errors
 * can still point at the statement that caused them.
 */
#ifndef FLOWBENCH_SRCLOC_H
#define FLOWBENCH_SRCLOC_H

struct src_loc {
	int line;
	int col;
};

#endif
