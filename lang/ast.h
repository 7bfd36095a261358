/*
 * ast.h - the syntax tree of a WML script, exactly as written.
 *
 * The parser builds this tree and nothing else: no variable is looked up,
 * no attribute is checked against its entity, nothing is executed.  The
 * compiler (compile.c) walks it in source order and produces the plan.
 * Every node keeps its source location so that later stages can report
 * `file.f:LINE:COL: ...` errors.  All nodes live in one arena owned by
 * struct ast_script and are freed together.
 */
#ifndef FLOWBENCH_AST_H
#define FLOWBENCH_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/arena.h"
#include "plan/srcloc.h"

/* ---- expressions: attribute values and `set` right-hand sides ---- */

/*
 * How deeply an expression may nest: operators, parentheses, randvar()/
 * cvar() calls and randtable tables each count one level.  The parser
 * refuses a deeper expression with a located error, so every walker of the
 * tree (evaluation, the -D search) may recurse: at most this many frames.
 * 1000 levels take a few hundred KB of stack even with sanitizers.
 */
#define AST_MAX_DEPTH 1000

enum ast_expr_kind {
	EX_INT,     /* 8k, 5g, 100: exact integer (suffix applied) */
	EX_DOUBLE,  /* 1.5, 0.25m: a number with a fraction */
	EX_BOOL,    /* true / false */
	EX_WORD,    /* a bare word: /tmp/fb, rand-read1, cvar-gamma */
	EX_STRING,  /* a quoted string: text and $variable segments */
	EX_VAR,     /* $name or ${name} */
	EX_NEG,     /* -a            (u.unary) */
	EX_ADD,     /* a + b         (u.binary) */
	EX_SUB,     /* a - b */
	EX_MUL,     /* a * b */
	EX_DIV,     /* a / b */
	EX_CALL,    /* randvar(...) or cvar(...): u.call */
	EX_TABLE,   /* {{pct, lo, hi}, ...}: u.table (randtable=) */
};

/* One piece of a quoted string: literal text, or a variable to interpolate. */
struct ast_strseg {
	bool is_var;           /* text holds a variable name (without '$') */
	char *text;
	struct src_loc loc;
	struct ast_strseg *next;
};

struct ast_attr;

struct ast_expr {
	enum ast_expr_kind kind;
	struct src_loc loc;
	/*
	 * Nesting levels in and under this node: 1 for a literal, one more
	 * per operator, parenthesis pair, call or table around it.  Above
	 * AST_MAX_DEPTH the node is one the parser has reported as too deep.
	 */
	unsigned depth;
	union {
		int64_t i;                  /* EX_INT */
		double d;                   /* EX_DOUBLE */
		bool b;                     /* EX_BOOL */
		char *word;                 /* EX_WORD */
		char *var;                  /* EX_VAR: name without '$' */
		struct ast_strseg *segs;    /* EX_STRING: NULL for "" */
		struct ast_expr *unary;     /* EX_NEG */
		struct {
			struct ast_expr *l, *r;
		} binary;                   /* EX_ADD .. EX_DIV */
		struct {
			char *fn;           /* "randvar" or "cvar" */
			struct ast_attr *args;
		} call;                     /* EX_CALL */
		struct {
			size_t nrows;
			struct ast_expr *(*rows)[3];  /* {pct, lo, hi} */
		} table;                    /* EX_TABLE */
	} u;
};

/*
 * One attribute in a list: `name=value`, a bare `name` (boolean true), or,
 * in flowop and composite lists, a local variable `$name[=value]`.
 */
struct ast_attr {
	char *name;             /* attribute or local-variable name (no '$') */
	bool is_local;          /* written as $name */
	struct ast_expr *value; /* NULL for a bare attribute */
	struct src_loc loc;     /* of the name */
	struct ast_attr *next;
};

/*
 * An entity with attributes and maybe a body: a process (body = threads),
 * a thread (body = flowops), a flowop statement (type = its flowop type or
 * composite name, no body), a composite definition (body = flowops).
 */
struct ast_entity {
	char *type;             /* flowop statements: the type word; else NULL */
	struct src_loc type_loc;
	struct src_loc loc;     /* of the introducing keyword */
	struct ast_attr *attrs;
	struct ast_entity *body;
	struct ast_attr *trailing_attrs; /* composite: attrs after the '}' */
	struct ast_entity *next;
};

enum ast_stmt_kind {
	ST_SET,              /* set $var = expr                 (var, expr) */
	ST_SET_MODE,         /* set mode quit X | set mode nousestats (words) */
	ST_DEFINE_FILE,      /* define file attrs               (attrs) */
	ST_DEFINE_FILESET,   /* define fileset attrs            (attrs) */
	ST_DEFINE_DEVICE,    /* define device attrs             (attrs) */
	ST_DEFINE_PROCESS,   /* define process attrs { thread... } (entity) */
	ST_DEFINE_COMPOSITE, /* define flowop attrs { flowop... } (entity) */
	ST_DEFINE_RANDVAR,   /* define randvar attrs (1.4 form) (attrs) */
	ST_CREATE_FILES,     /* create files  (also `create fileset(s)`: words) */
	ST_RUN,              /* run [expr]                      (expr or NULL) */
	ST_PSRUN,            /* psrun [expr [expr2]] */
	ST_SLEEP,            /* sleep expr */
	ST_ECHO,             /* echo "..." "..."                (strings) */
	ST_SYSTEM,           /* system "..."                    (strings) */
	ST_USAGE,            /* usage "..." (1.4 help text)     (strings) */
	ST_EVENTGEN,         /* eventgen [attrs] */
	ST_ENABLE,           /* enable lathist | enable multi attrs (words, attrs) */
	ST_DOMULTISYNC,      /* domultisync attrs */
	ST_LIST,             /* list fileset(s) | list flowop   (words) */
	ST_DEBUG,            /* debug expr */
	ST_VERSION,          /* version */
	ST_QUIT,             /* quit */
};

/* echo/system take several adjacent quoted strings, concatenated. */
struct ast_string_list {
	struct ast_expr *str;        /* EX_STRING (or EX_VAR, EX_WORD) */
	struct ast_string_list *next;
};

struct ast_word {
	char *text;
	struct src_loc loc;
	struct ast_word *next;
};

struct ast_stmt {
	enum ast_stmt_kind kind;
	struct src_loc loc;          /* of the command keyword */
	char *var;                   /* ST_SET: variable name without '$' */
	struct src_loc var_loc;
	struct ast_expr *expr;       /* ST_SET value; run/psrun/sleep/debug arg */
	struct ast_expr *expr2;      /* ST_PSRUN runtime */
	struct ast_attr *attrs;      /* define file/fileset/randvar, eventgen, enable multi, domultisync */
	struct ast_entity *entity;   /* define process / define flowop */
	struct ast_word *words;      /* mode words, list/create/enable object words */
	struct ast_string_list *strings; /* ST_ECHO/ST_SYSTEM: adjacent quoted strings */
	struct ast_stmt *next;
};

/* A parsed script: the statements in source order, plus what they point into. */
struct ast_script {
	struct arena arena;
	const char *filename;
	struct ast_stmt *stmts;
};

struct diag;

/* Command and entity spellings, for "did you mean" (NULL-terminated). */
extern const char *const ast_command_names[];
extern const char *const ast_entity_names[];

/*
 * ---- AST constructors (ast.c); all memory comes from the arena ----
 * Each sets the node's depth from its children's (ast.h); bounding it is
 * the parser's job.
 */

enum num_status {
	NUM_OK,
	NUM_INVALID,            /* not digits[.digits][e[+-]digits][kmgt] */
	NUM_TOO_LARGE,          /* does not fit int64 (or double) */
	NUM_TOO_SMALL,          /* a nonzero value that rounds to 0 (1e-400) */
};

/* Convert `len` bytes of number text into an EX_INT or EX_DOUBLE node. */
enum num_status ast_number(const char *text, size_t len, struct ast_expr *out);

struct ast_expr *ast_expr_new(struct arena *a, enum ast_expr_kind kind,
			      struct src_loc loc);
struct ast_expr *ast_expr_word(struct arena *a, char *word,
			       struct src_loc loc);
struct ast_expr *ast_expr_binary(struct arena *a, enum ast_expr_kind kind,
				 struct src_loc loc, struct ast_expr *l,
				 struct ast_expr *r);
/* -operand (EX_NEG) */
struct ast_expr *ast_expr_unary(struct arena *a, struct src_loc loc,
				struct ast_expr *operand);
struct ast_attr *ast_attr_new(struct arena *a, char *name, bool is_local,
			      struct ast_expr *value, struct src_loc loc);
struct ast_entity *ast_entity_new(struct arena *a, struct src_loc loc,
				  struct ast_attr *attrs,
				  struct ast_entity *body);
struct ast_word *ast_word_new(struct arena *a, char *text,
			      struct src_loc loc);
struct ast_stmt *ast_stmt_new(struct arena *a, enum ast_stmt_kind kind,
			      struct src_loc loc);


/*
 * Parse a single value as written on the command line (`-D size=64m`):
 * a number with suffix, a boolean, a bare word or a quoted string.
 * Errors name the `origin` (e.g. "-D filesize") rather than a file.
 */
struct ast_expr *ast_parse_value(const char *origin, const char *text,
				 struct diag *d, struct arena *arena);

void ast_script_free(struct ast_script *s);

#endif
