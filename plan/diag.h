/*
 * diag.h - located error messages for WML scripts.
 *
 * Every error a user can cause in a script is reported as
 *     file.f:LINE:COL: message
 *         <the source line>
 *         ^
 * and counted, so that one pass can report several errors and the caller
 * can decide the exit status.  Only the first 20 errors and 20 warnings
 * are shown: a huge script with a mistake repeated on every line gets a
 * readable report, and quoting lines (a scan from the start of the text
 * each) stays cheap.  "Did you mean" suggestions come from
 * diag_suggest(), an edit-distance search over the valid spellings.
 */
#ifndef FLOWBENCH_DIAG_H
#define FLOWBENCH_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "plan/srcloc.h"

/*
 * Where a line of a text read from several sources came from: import-fio
 * numbers the lines of a job file, the files it includes and the
 * command line in one sequence, and its hook gives each line's own file
 * and line back, so that every message names the place the user wrote.
 */
struct diag_origin {
	const char *filename;   /* the source's name as the user named it */
	const char *source;     /* its whole text, for quoting; may be NULL */
	size_t source_len;
	int line;               /* the line in that source */
	bool argv;              /* a command line: printed "argv[line - 1]" */
};
typedef bool diag_origin_fn(const void *ctx, int line, struct diag_origin *o);

struct diag {
	const char *filename;   /* as the user named it */
	const char *source;     /* whole text, for quoting lines; may be NULL */
	size_t source_len;
	FILE *out;              /* usually stderr */
	int errors;
	int warnings;
	int max_errors;         /* stop reporting after this many (0 = 20) */
	int max_warnings;       /* the same for warnings (20) */
	bool hushed;            /* the last error/warning was not shown: nor its notes */
	/* NULL, or where line N came from (false: this text's own line N) */
	diag_origin_fn *origin;
	const void *origin_ctx;
};

void diag_init(struct diag *d, const char *filename, const char *source,
	       size_t len, FILE *out);

/* Report an error at `loc` (line 0 = no location: "file.f: message"). */
void diag_error(struct diag *d, struct src_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void diag_warning(struct diag *d, struct src_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * Would an error reported now be shown (not just counted)?  A caller whose
 * hint costs time in proportion to the script (a suggestion among all its
 * variables) skips it when not.
 */
bool diag_error_shown(const struct diag *d);

/* A follow-up line for the previous message ("note: first defined here"). */
void diag_note(struct diag *d, struct src_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The candidate closest to `word` by edit distance, or NULL if none is
 * close enough to be a plausible typo.  `candidates` ends with NULL.
 */
const char *diag_suggest(const char *word, const char *const *candidates);

/* Writes " (did you mean 'x'?)" into buf when there is a suggestion, else "". */
const char *diag_did_you_mean(char *buf, size_t size, const char *word,
			      const char *const *candidates);

#endif
