/*
 * read.h - what the reading half of import-fio shares, private to it:
 * parse.c (the options and their values), expand.c (${VAR}, -D, fio's
 * keywords and arithmetic), keep.c (the options --lenient never drops),
 * reader.c (job files, includes, sections, option lines) and cmdline.c
 * (fio's command line).  Each calls only those before it in that list;
 * job.h declares the reading steps the rest of import-fio calls.
 */
#ifndef FLOWBENCH_LANG_FIO_READ_H
#define FLOWBENCH_LANG_FIO_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "lang/fio/job.h"
#include "plan/arena.h"
#include "plan/diag.h"

/* parse.c: the options */
enum { FIO_OPT_UNKNOWN = -2 };
void fio_opts_init(struct fio_opts *o);
/* Set option `key` (value NULL: a bare key): 0, -1 after an error
 * through `d`, FIO_OPT_UNKNOWN when import-fio has no such option. */
int fio_opt_set(const char *key, const char *value, struct fio_opts *opts,
		struct arena *a, struct diag *d, struct src_loc loc);
/* Why `key` is only a comment (no effect on the I/O), or NULL. */
const char *fio_opt_comment_why(const char *key);
/* Whether import-fio maps option `key` (the table, not the comments). */
bool fio_opt_known(const char *key);
/* " (did you mean 'x'?)" among the supported options, or "". */
const char *fio_opt_suggest(char *buf, size_t size, const char *key);
/* "rw, readwrite, ...": every supported option. */
void fio_opt_supported(char *buf, size_t size);

/* expand.c: a value as fio reads it */
/*
 * `value` with ${NAME} replaced (-D NAME=... first, then the
 * environment) and, as fio does, with $mb_memory, $ncpus and $pagesize
 * replaced and then any + - * / arithmetic computed (fio runs bc), and a
 * value in parentheses computed (fio's own arithmetic).  Returns the
 * text (arena), or NULL with *why set: an unset variable, a bad
 * expression.  *note, if set, says what was replaced (for a comment);
 * *machine: a keyword took this machine's value (no -D gave it).
 */
const char *fio_expand(struct fio_jobfile *jf, const char *value,
		       const char **why, const char **note, bool *machine);
/* The -D NAME=VALUE given, or NULL; marks it used. */
const char *fio_define(const struct fio_jobfile *jf, const char *name);

/* keep.c: what --lenient must not drop */
/* Why option `key` (fio's name) changes how much work a job does or
 * what it measures, so that --lenient keeps it an error; NULL if not. */
const char *fio_keep_why(const char *key);

/* reader.c: files */
/* The whole of file `path` (NUL-terminated, in `a`), or NULL with errno
 * (EFBIG: larger than 16 MiB). */
char *fio_read_whole(struct arena *a, const char *path, size_t *len);

#endif
