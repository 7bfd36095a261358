/*
 * reader.c - reading fio jobs for `flowbench import-fio`: job files
 * (INI), the files they include, and the sections and options of fio's
 * command line (cmdline.c calls in here), in the order fio reads them.
 *
 * The format: `[section]` headers, `key=value` or a bare `key` (a boolean
 * set to true), blanks around `=`, whole-line comments starting with `;`
 * or `#`.  [global] sections (fio: any name starting with "global") set
 * defaults for the job sections after them; a job's own lines override.
 * The command line's options before its first --name are global too, and
 * stay the defaults of the first job file; a second job file starts
 * again from fio's defaults, as fio does.
 *
 * Every source's lines are numbered in one sequence (struct fio_source),
 * and fio_origin() gives diag each line's own file and line back: an
 * option of an included file is reported at that file's line, wherever
 * the error is found.  Every option the supported set lacks is an error,
 * all of them in one pass; with --lenient an option that does not change
 * how much work a job does or what it measures (keep.c) is dropped with
 * a `# NOT IMPORTED:` comment and a warning at its line.
 */
#include "lang/fio/read.h"
#include "plan/oom.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* fio's include FILE may nest; deeper than this is taken for a loop. */
#define FIO_INCLUDE_DEPTH 8
/* The largest job file read by include (the command reads the first). */
#define FIO_INCLUDE_MAX (16u << 20)

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

int fio_read_source(struct fio_jobfile *jf, const char *name, const char *text,
		    size_t len, bool argv)
{
	struct fio_source *src;
	int lines = 1;

	for (size_t i = 0; i < len; i++)
		lines += text[i] == '\n';
	if (jf->nsources == jf->sources_cap) {
		jf->sources_cap = jf->sources_cap ? 2 * jf->sources_cap : 8;
		jf->sources = xreallocarray(jf->sources, (size_t)jf->sources_cap,
					    sizeof(*jf->sources));
	}
	src = &jf->sources[jf->nsources++];
	src->name = arena_strdup(&jf->arena, name);
	src->text = text;
	src->len = len;
	src->base = jf->next_base;
	src->nlines = lines;
	src->argv = argv;
	/* sizes are checked (INT_MAX - 2 per file), their sum is not */
	jf->next_base = lines < INT_MAX - 2 - jf->next_base ? jf->next_base + lines + 1 :
			INT_MAX - 2;
	return src->base;
}

/* The source of line N of the sequence: the last one based below it. */
static const struct fio_source *source_of(const struct fio_jobfile *jf, int line)
{
	int lo = 0, hi = jf->nsources - 1;

	if (hi < 0 || line <= jf->sources[0].base)
		return NULL;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;

		if (jf->sources[mid].base < line)
			lo = mid;
		else
			hi = mid - 1;
	}
	return &jf->sources[lo];
}

bool fio_origin(const void *ctx, int line, struct diag_origin *o)
{
	const struct fio_source *src = source_of(ctx, line);

	if (!src)
		return false;
	*o = (struct diag_origin){ src->name, src->text, src->len,
				   line - src->base, src->argv };
	return true;
}

const char *fio_where(const struct fio_jobfile *jf, struct arena *a, int line)
{
	const struct fio_source *src = source_of(jf, line), *first = NULL;

	for (int i = 0; i < jf->nsources && !first; i++)
		if (!jf->sources[i].argv)
			first = &jf->sources[i];
	if (src && src->argv)
		return arena_printf(a, "argv[%d]", line - src->base - 1);
	/* the (first) job file's lines need not name it */
	if (!src || src == first)
		return arena_printf(a, "line %d", src ? line - src->base : line);
	return arena_printf(a, "%s line %d", src->name, line - src->base);
}

/* fio reads every section whose name starts with "global" as [global]. */
static bool global_name(const char *name)
{
	return strncmp(name, "global", 6) == 0;
}

/* fio's --section: only the named jobs (and every global one) are read. */
static bool skipped(const struct fio_jobfile *jf, const char *name)
{
	if (!jf->ro.nsections || global_name(name))
		return false;
	for (int i = 0; i < jf->ro.nsections; i++)
		if (strcmp(jf->ro.sections[i], name) == 0)
			return false;
	return true;
}

/* A new section, its options starting as `from`.  The array doubles when
 * full, so that a file of many sections is read in linear time. */
static struct fio_section *new_section(struct fio_jobfile *jf, const char *name,
				       int line, const struct fio_opts *from)
{
	struct fio_section *s;

	if (jf->nsections == jf->sections_cap) {
		int cap = jf->sections_cap ? 2 * jf->sections_cap : 8;

		s = xreallocarray(jf->sections, (size_t)cap, sizeof(*s));
		jf->sections = s;
		jf->sections_cap = cap;
	}
	s = &jf->sections[jf->nsections++];
	memset(s, 0, sizeof(*s));
	s->name = arena_strdup(&jf->arena, name);
	s->line = line;
	s->where = fio_where(jf, &jf->arena, line);
	s->global = global_name(name);
	s->opts = *from;
	if (!s->global)
		jf->njobs++;
	return s;
}

/* Append a line to an array of the arena that doubles when full (the
 * old one stays in the arena): n appends cost linear time. */
static void push_line(struct arena *a, struct fio_line **lines, int *n, int *cap,
		      int line, const char *text)
{
	if (*n == *cap) {
		int c = *cap ? 2 * *cap : 8;
		struct fio_line *l = arena_alloc(a, (size_t)c * sizeof(*l));

		if (*n)
			memcpy(l, *lines, (size_t)*n * sizeof(*l));
		*lines = l;
		*cap = c;
	}
	(*lines)[*n].line = line;
	(*lines)[*n].text = arena_strdup(a, text);
	(*n)++;
}

/* A comment the emitter writes under the section's option lines. */
static void add_note(struct fio_jobfile *jf, struct fio_section *s, int line,
		     const char *text)
{
	push_line(&jf->arena, &s->notes, &s->nnotes, &s->notes_cap, line, text);
}

void fio_read_run_note(struct fio_jobfile *jf, int line, const char *text)
{
	push_line(&jf->arena, &jf->run_notes, &jf->nrun_notes, &jf->run_notes_cap,
		  line, text);
}

/*
 * Cut a trailing comment off an option line: fio allows `numjobs=4 ; why`
 * and `bs=4k # why`.  Only a ';' or '#' after a blank starts one, so a
 * path with '#' in it stays whole.
 */
static void strip_trailing_comment(char *text)
{
	for (char *p = text + 1; *p; p++) {
		if ((*p == ';' || *p == '#') && isblank((unsigned char)p[-1])) {
			*p = '\0';
			break;
		}
	}
	trim(text);
}

/*
 * --lenient: an option import-fio cannot honour, dropped.  The job runs
 * without it: a `NOT IMPORTED` comment under the job and a warning at
 * the option's own line say so.
 */
static void not_imported(struct fio_jobfile *jf, struct fio_section *s,
			 const char *text, const char *why, struct src_loc loc,
			 struct diag *d)
{
	add_note(jf, s, loc.line, arena_printf(&jf->arena, "NOT IMPORTED: %s "
					       "(%s: %s)", text,
					       fio_where(jf, &jf->arena, loc.line), why));
	diag_warning(d, loc, "%s: not imported (--lenient): %s; the job runs "
		     "without it", text, why);
}

/*
 * Set option `key` with `d` quiet: the first line of what it would say
 * (without its location) into *why.  0, -1 or FIO_OPT_UNKNOWN.
 */
static int set_quietly(struct fio_jobfile *jf, const char *key, const char *value,
		       struct fio_opts *opts, struct diag *d, struct src_loc loc,
		       char **why)
{
	struct diag q = *d;
	size_t n = 0;
	int st;
	char *nl, *msg;

	q.out = open_memstream(why, &n);
	if (!q.out)
		oom_exit();
	q.source = NULL;
	q.origin = NULL;
	q.filename = "";
	st = fio_opt_set(key, value, opts, &jf->arena, &q, loc);
	fclose(q.out);
	if ((nl = strchr(*why, '\n')))
		*nl = '\0';
	/* the message without its ":LINE:COL: " (the note has the line) */
	if ((msg = strstr(*why, ": ")))
		memmove(*why, msg + 2, strlen(msg + 2) + 1);
	return st;
}

/* An option import-fio does not know. */
static void unsupported_option(struct fio_jobfile *jf, struct fio_section *s,
			   const char *key, const char *shown, struct src_loc loc,
			   struct diag *d)
{
	const char *keep = fio_keep_why(key);
	char hint[128];

	if (jf->lenient && !keep) {
		not_imported(jf, s, shown, "an option import-fio does not support", loc, d);
		return;
	}
	diag_error(d, loc, "unsupported option '%s'%s%s%s", key,
		   fio_opt_suggest(hint, sizeof(hint), key),
		   jf->lenient ? ": --lenient keeps it an error: " : "",
		   jf->lenient ? keep : "");
	jf->unsupported++;
}

/* The section option lines go to: the current one, or the globals. */
static struct fio_opts *target(struct fio_jobfile *jf, struct fio_section *s)
{
	return s->global ? &jf->global : &s->opts;
}

void fio_read_option(struct fio_jobfile *jf, char *text, int line, int col,
		     struct diag *d)
{
	struct src_loc loc = { line, col };
	struct fio_section *s;
	char *eq, *key = text, *value = NULL, *msg = NULL;
	const char *why, *v, *note = NULL, *shown;
	bool machine = false;
	int st;

	if (jf->skipping)
		return;
	if (jf->cur < 0) {
		diag_error(d, loc, "option outside a section: start with [global] "
			   "or [jobname]");
		return;
	}
	s = &jf->sections[jf->cur];
	strip_trailing_comment(text);
	push_line(&jf->arena, &s->lines, &s->nlines, &s->lines_cap, line, text);
	eq = strchr(text, '=');
	if (eq) {
		*eq = '\0';
		value = trim(eq + 1);
		key = trim(key);
	}
	shown = value ? arena_printf(&jf->arena, "%s=%s", key, value) : key;
	if ((why = fio_opt_comment_why(key))) {
		add_note(jf, s, line, arena_printf(&jf->arena, "%s: no effect on "
			 "the I/O pattern (%s): a comment only", shown, why));
		return;
	}
	v = value;
	if (value && !(v = fio_expand(jf, value, &why, &note, &machine))) {
		/* an unset ${VAR} is never dropped: the option would silently
		 * be fio's default, maybe another amount of work */
		diag_error(d, loc, "%s: %s", key, why);
		return;
	}
	if (note)
		add_note(jf, s, line, arena_printf(&jf->arena, "%s: %s", shown, note));
	if (machine)
		diag_warning(d, loc, "%s: %s: the import depends on the machine it "
			     "runs on (-D NAME=VALUE sets a keyword's value)", shown, note);
	if (!jf->lenient) {
		st = fio_opt_set(key, v, target(jf, s), &jf->arena, d, loc);
		if (st == FIO_OPT_UNKNOWN)
			unsupported_option(jf, s, key, shown, loc, d);
	} else {
		st = set_quietly(jf, key, v, target(jf, s), d, loc, &msg);
		if (st == FIO_OPT_UNKNOWN)
			unsupported_option(jf, s, key, shown, loc, d);
		else if (st < 0 && !fio_keep_why(key))
			not_imported(jf, s, shown, msg, loc, d);
		else if (st < 0)
			/* said again, loudly: --lenient does not drop it */
			fio_opt_set(key, v, target(jf, s), &jf->arena, d, loc);
		free(msg);
	}
	if (st == 0 && s->global)
		s->opts = jf->global;
}

void fio_read_section(struct fio_jobfile *jf, const char *name, int line,
		      struct diag *d)
{
	(void)d;
	jf->skipping = skipped(jf, name);
	if (jf->skipping)
		return;
	jf->cur = (int)(new_section(jf, name, line, &jf->global) - jf->sections);
}

static void read_job_text(struct fio_jobfile *jf, const char *name, const char *text,
		      size_t len, struct diag *d, int depth);

/* The whole of open file `fd` (closed here), as fio_read_whole(). */
static char *read_fd(struct arena *a, int fd, size_t *len)
{
	char *buf = NULL, *copy;
	size_t n = 0, cap = 0;
	ssize_t got;

	do {
		if (n == cap) {
			cap = cap ? 2 * cap : 4096;
			buf = xrealloc(buf, cap + 1);
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got > 0)
			n += (size_t)got;
	} while (got != 0 && (got > 0 || errno == EINTR) && n <= FIO_INCLUDE_MAX);
	if (got < 0 || n > FIO_INCLUDE_MAX) {
		int e = got < 0 ? errno : EFBIG;

		close(fd);
		free(buf);
		errno = e;
		return NULL;
	}
	close(fd);
	copy = arena_strndup(a, buf ? buf : "", n);
	free(buf);
	*len = n;
	return copy;
}

char *fio_read_whole(struct arena *a, const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	return fd < 0 ? NULL : read_fd(a, fd, len);
}

/*
 * The directory includes are read from: the top job file's (the one
 * named on the command line), resolved (realpath) when first needed.
 */
static const char *include_root(struct fio_jobfile *jf)
{
	const char *top = jf->top ? jf->top : ".";
	const char *slash = strrchr(top, '/');
	char *dir = slash == top ? xstrdup("/") : slash ?
		    xstrndup(top, (size_t)(slash - top)) : xstrdup(".");
	char *real;

	if (!jf->top_dir) {
		real = realpath(dir, NULL);
		jf->top_dir = real ? arena_strdup(&jf->arena, real) : NULL;
		free(real);
	}
	free(dir);
	return jf->top_dir;
}

/* Whether resolved path `real` is `root` or below it. */
static bool beneath(const char *real, const char *root)
{
	size_t n = strlen(root);

	if (strcmp(root, "/") == 0)
		return true;
	return strncmp(real, root, n) == 0 && (real[n] == '/' || real[n] == '\0');
}

/*
 * Open included file `path` by the rule of docs/import-fio.md: it
 * resolves (`..` and symbolic links followed) to a regular file in the
 * top job file's directory or below.  The descriptor, or -1 with *why
 * set (an arena text; it names no content of the file).
 */
static int open_include(struct fio_jobfile *jf, const char *path, const char **why)
{
	struct arena *a = &jf->arena;
	const char *root = include_root(jf);
	char *real = realpath(path, NULL);
	struct stat st;
	int fd;

	if (!root) {
		*why = arena_printf(a, "cannot resolve the job file's directory: %s",
				    strerror(errno));
		free(real);
		return -1;
	}
	if (!real) {
		*why = arena_printf(a, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (!beneath(real, root)) {
		*why = arena_printf(a, "it resolves outside the job file's "
				    "directory %s: import-fio reads includes only "
				    "from there and below (copy the file there)", root);
		free(real);
		return -1;
	}
	fd = open(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	free(real);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		*why = fd < 0 ? arena_printf(a, "cannot read %s: %s", path,
					     strerror(errno)) :
		       arena_printf(a, "not a regular file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* Whether `c` can be in the name of an fio option. */
static bool key_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-';
}

/*
 * The first line (1-based) of an included file that is no line of a job
 * file, or 0 when each is one: blank, a comment, `[section]`, `include
 * ...`, or an option, `key` or `key=value`, whose key is an option name
 * (letters, digits, `_`, `-`).  A NUL byte is never in a job file.
 */
static int not_job_line(const char *text, size_t len)
{
	size_t pos = 0;
	int line = 0;

	while (pos < len) {
		const char *p = text + pos, *nl = memchr(p, '\n', len - pos);
		const char *end = nl ? nl : text + len, *key;

		line++;
		pos = (size_t)(end - text) + 1;
		if (memchr(p, '\0', (size_t)(end - p)))
			return line;
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p == end || *p == ';' || *p == '#' || *p == '[')
			continue;
		key = p;
		if (!key_char(*p))
			return line;
		while (p < end && key_char(*p))
			p++;
		if (p - key == 7 && strncmp(key, "include", 7) == 0)
			continue;
		while (p < end && isblank((unsigned char)*p))
			p++;
		if (p < end && *p != '=' && *p != '\r' &&
		    !((*p == ';' || *p == '#') && isblank((unsigned char)p[-1])))
			return line;
	}
	return 0;
}

/*
 * `include FILE`: fio reads FILE's lines as if they were here, in the
 * section that includes it (an included file has no sections); a
 * relative name is taken from the directory of the job file that
 * includes it.  import-fio reads only a regular file that resolves into
 * the top job file's directory or below (open_include()), and only one
 * whose every line is a job file's: of another file it quotes nothing.
 * Its lines are its own in every message; a file refused or missing, or
 * includes nested deeper than FIO_INCLUDE_DEPTH (a loop), are errors at
 * the include line.
 */
static void include_file(struct fio_jobfile *jf, const char *from, const char *name,
			 struct diag *d, struct src_loc loc, int depth)
{
	struct arena *a = &jf->arena;
	const char *slash = strrchr(from, '/');
	const char *path = !slash ? name :
		arena_printf(a, "%.*s/%s", (int)(slash - from), from, name);
	const char *why = NULL;
	size_t len = 0;
	char *text;
	int fd, bad;

	if (!*name) {
		diag_error(d, loc, "include needs a file name");
		return;
	}
	if (name[0] == '/') {
		diag_error(d, loc, "include %s: an absolute path: import-fio reads "
			   "includes only relative to the job file, from its "
			   "directory and below", name);
		return;
	}
	if (depth >= FIO_INCLUDE_DEPTH) {
		diag_error(d, loc, "include %s: more than %d includes deep (does "
			   "it include itself?)", name, FIO_INCLUDE_DEPTH);
		return;
	}
	if ((fd = open_include(jf, path, &why)) < 0) {
		diag_error(d, loc, "include %s: %s", name, why);
		return;
	}
	if (!(text = read_fd(a, fd, &len))) {
		diag_error(d, loc, "include %s: cannot read %s: %s", name, path,
			   errno == EFBIG ? "larger than 16 MiB" : strerror(errno));
		return;
	}
	if ((bad = not_job_line(text, len))) {
		diag_error(d, loc, "include %s: not a job file: its line %d is not "
			   "an option, a section, an include or a comment (its "
			   "lines are not shown)", name, bad);
		return;
	}
	read_job_text(jf, path, text, len, d, depth + 1);
}

/* The lines of one file (the job file or an included one). */
static void read_job_text(struct fio_jobfile *jf, const char *name, const char *text,
		      size_t len, struct diag *d, int depth)
{
	int line = 0, base;
	size_t pos = 0;

	if (len > INT_MAX - 2) {
		/* lines and columns are ints */
		diag_error(d, (struct src_loc){ 0, 0 }, "%s: job file too large "
			   "(%zu bytes)", name, len);
		return;
	}
	base = fio_read_source(jf, name, text, len, false);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		char *raw = arena_strndup(&jf->arena, text + pos, n);
		bool nul = memchr(text + pos, '\0', n) != NULL;
		char *s = trim(raw);
		struct src_loc loc = { base + ++line, (int)(s - raw) + 1 };

		pos += n + 1;
		if (nul) {
			diag_error(d, loc, "NUL byte in the line");
			continue;
		}
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (strncmp(s, "include", 7) == 0 && (!s[7] || isblank((unsigned char)s[7]))) {
			if (jf->skipping)
				continue;
			strip_trailing_comment(s);
			include_file(jf, name, trim(s + 7), d, loc, depth);
			continue;
		}
		if (*s == '[' && depth > 0) {
			diag_error(d, loc, "a section header in an included file: fio's "
				   "include files hold options only");
			continue;
		}
		if (*s == '[') {
			char *close = strchr(s, ']');
			char *sname;

			if (!close || *trim(close + 1)) {
				diag_error(d, loc, "a section header is [name], alone on its line");
				continue;
			}
			*close = '\0';
			sname = trim(s + 1);
			if (!*sname) {
				diag_error(d, loc, "empty section name");
				continue;
			}
			fio_read_section(jf, sname, loc.line, d);
			continue;
		}
		fio_read_option(jf, s, loc.line, loc.col, d);
	}
}

void fio_read_begin(struct fio_jobfile *jf, const struct fio_read_opts *ro,
		    struct diag *d)
{
	memset(jf, 0, sizeof(*jf));
	arena_init(&jf->arena);
	if (ro)
		jf->ro = *ro;
	jf->lenient = jf->ro.lenient;
	jf->cur = -1;
	fio_opts_init(&jf->global);
	d->origin = fio_origin;
	d->origin_ctx = jf;
}

int fio_read_file(struct fio_jobfile *jf, const char *name, const char *text,
		  size_t len, struct diag *d)
{
	int errors0 = d->errors;

	/* the command line's globals are the first job file's defaults; a
	 * later one starts from fio's own, as fio resets them per file */
	if (jf->nfiles++)
		fio_opts_init(&jf->global);
	jf->cur = -1;
	jf->skipping = false;
	jf->top = arena_strdup(&jf->arena, name);
	jf->top_dir = NULL;
	read_job_text(jf, name, text, len, d, 0);
	return d->errors - errors0;
}

int fio_read_end(struct fio_jobfile *jf, struct diag *d)
{
	if (jf->unsupported) {
		char list[4096];

		fio_opt_supported(list, sizeof(list));
		fprintf(d->out, "%s: %d unsupported option%s (import-fio supports: %s)\n",
			d->filename, jf->unsupported, jf->unsupported == 1 ? "" : "s", list);
	}
	if (d->errors == 0 && jf->njobs == 0)
		diag_error(d, (struct src_loc){ 0, 0 }, "no job section: fio runs "
			   "nothing (add a [jobname] section%s)", jf->ro.nsections ?
			   ", or name one of the file's jobs with --section" : "");
	return d->errors;
}

int fio_parse(const char *text, size_t len, struct diag *d, struct fio_jobfile *jf)
{
	return fio_parse_ex(text, len, d, jf, false);
}

int fio_parse_ex(const char *text, size_t len, struct diag *d,
		 struct fio_jobfile *jf, bool lenient)
{
	struct fio_read_opts ro = { .lenient = lenient };
	int errors0 = d->errors;

	fio_read_begin(jf, &ro, d);
	fio_read_file(jf, d->filename, text, len, d);
	fio_read_end(jf, d);
	return d->errors - errors0;
}

void fio_jobfile_free(struct fio_jobfile *jf)
{
	free(jf->sections);
	jf->sections = NULL;
	free(jf->sources);
	jf->sources = NULL;
	arena_free(&jf->arena);
}
