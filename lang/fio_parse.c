/*
 * fio_parse.c - reading an fio job file (INI) for `flowbench import-fio`.
 *
 * The format: `[section]` headers, `key=value` or a bare `key` (a boolean
 * set to true), blanks around `=`, whole-line comments starting with `;`
 * or `#`.  [global] sections set defaults for the job sections after
 * them; a job's own lines override.  Only the options of the table below
 * are accepted: every other one is an error, all of them reported in one
 * pass with their lines, so a user sees at once what the job file uses
 * that import-fio cannot translate.
 */
#include "lang/fio_import.h"
#include "plan/oom.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum opt_kind { K_RW, K_ENGINE, K_SIZE, K_INT, K_BOOL, K_TIME, K_PATH };

struct opt_spec {
	const char *name;
	enum fio_opt id;
	enum opt_kind kind;
	size_t off;               /* the field in struct fio_opts */
	long long min, max;       /* K_INT */
};

#define F(field) offsetof(struct fio_opts, field)
static const struct opt_spec opt_table[] = {
	{ "rw", FO_RW, K_RW, F(rw), 0, 0 },
	{ "readwrite", FO_RW, K_RW, F(rw), 0, 0 },
	{ "rwmixread", FO_RWMIXREAD, K_INT, F(rwmixread), 0, 100 },
	{ "bs", FO_BS, K_SIZE, F(bs), 0, 0 },
	{ "size", FO_SIZE, K_SIZE, F(size), 0, 0 },
	{ "filename", FO_FILENAME, K_PATH, F(filename), 0, 0 },
	{ "directory", FO_DIRECTORY, K_PATH, F(directory), 0, 0 },
	{ "nrfiles", FO_NRFILES, K_INT, F(nrfiles), 1, 1000000 },
	{ "numjobs", FO_NUMJOBS, K_INT, F(numjobs), 1, 100000 },
	{ "iodepth", FO_IODEPTH, K_INT, F(iodepth), 1, 65536 },
	{ "ioengine", FO_IOENGINE, K_ENGINE, F(engine), 0, 0 },
	{ "direct", FO_DIRECT, K_BOOL, F(direct), 0, 0 },
	{ "runtime", FO_RUNTIME, K_TIME, F(runtime_us), 0, 0 },
	{ "time_based", FO_TIME_BASED, K_BOOL, F(time_based), 0, 0 },
	{ "ramp_time", FO_RAMP_TIME, K_TIME, F(ramp_us), 0, 0 },
	{ "fsync", FO_FSYNC, K_INT, F(fsync), 0, 1000000000 },
	{ "thread", FO_THREAD, K_BOOL, F(thread), 0, 0 },
	{ "group_reporting", FO_GROUP_REPORTING, K_BOOL, F(group_reporting), 0, 0 },
};
#undef F

static const char *const rw_names[] = {
	[FIO_READ] = "read", [FIO_WRITE] = "write", [FIO_RANDREAD] = "randread",
	[FIO_RANDWRITE] = "randwrite", [FIO_RW] = "rw", [FIO_RANDRW] = "randrw",
	NULL,
};
static const char *const engine_names[] = {
	[FIO_SYNC] = "sync", [FIO_PSYNC] = "psync", [FIO_LIBAIO] = "libaio",
	[FIO_IO_URING] = "io_uring", [FIO_POSIXAIO] = "posixaio", NULL,
};

#define NOPTS (sizeof(opt_table) / sizeof(opt_table[0]))

static const struct opt_spec *find_opt(const char *name)
{
	for (size_t i = 0; i < NOPTS; i++)
		if (strcmp(opt_table[i].name, name) == 0)
			return &opt_table[i];
	return NULL;
}

/* "rw, readwrite, rwmixread, ...": the supported names, for messages. */
static void supported_list(char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < NOPTS && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? ", " : "",
				      opt_table[i].name);
}

/*
 * The leading decimal digits of `s` into *n, *end after them (set in
 * every case but the first).  Returns 0, FIO_NOT_A_VALUE (no digit first:
 * signs and blanks are not numbers here) or FIO_TOO_LARGE (more than 64
 * bits: *n is then meaningless).
 */
static int leading_digits(const char *s, uint64_t *n, const char **end)
{
	uint64_t v = 0;
	bool overflow = false;

	if (!isdigit((unsigned char)*s))
		return FIO_NOT_A_VALUE;
	for (; isdigit((unsigned char)*s); s++) {
		overflow |= __builtin_mul_overflow(v, 10, &v);
		overflow |= __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v);
	}
	*n = v;
	*end = s;
	return overflow ? FIO_TOO_LARGE : 0;
}

/* n x mult, or FIO_TOO_LARGE when it overflows or passes `max`. */
static int scaled(uint64_t n, uint64_t mult, uint64_t max, uint64_t *v)
{
	uint64_t r;

	if (__builtin_mul_overflow(n, mult, &r) || r > max)
		return FIO_TOO_LARGE;
	*v = r;
	return 0;
}

/* The multiplier of a size suffix ("", "k", "kb", "KiB", ...), 0 if none. */
static uint64_t size_multiplier(const char *sfx)
{
	static const char prefixes[] = "kmgtp";
	const char *p;
	uint64_t mult = 1, base;

	if (!*sfx)
		return 1;
	p = strchr(prefixes, tolower((unsigned char)*sfx));
	if (!p || !*p)
		return 0;
	/* 4k, 4kb: powers of 1024; 4KiB: powers of 1000, as fio reads
	 * the IEC prefixes with its default kb_base */
	if (strcasecmp(sfx + 1, "") == 0 || strcasecmp(sfx + 1, "b") == 0)
		base = 1024;
	else if (strcasecmp(sfx + 1, "ib") == 0)
		base = 1000;
	else
		return 0;
	for (const char *q = prefixes; q <= p; q++)
		mult *= base;   /* at most 1024^5 = 2^50: no overflow */
	return mult;
}

int fio_parse_size(const char *s, uint64_t *v)
{
	const char *end;
	uint64_t n, mult;
	int st = leading_digits(s, &n, &end);

	if (st == FIO_NOT_A_VALUE)
		return st;
	mult = size_multiplier(end);
	if (!mult)
		return FIO_NOT_A_VALUE;
	/* a well-formed size too long for 64 bits is too large, not invalid */
	if (st == FIO_TOO_LARGE)
		return FIO_TOO_LARGE;
	return scaled(n, mult, FIO_SIZE_MAX, v);
}

int fio_parse_time(const char *s, uint64_t *us)
{
	static const struct { const char *sfx; uint64_t us; } units[] = {
		{ "", 1000000 }, { "s", 1000000 }, { "m", 60000000 },
		{ "h", UINT64_C(3600000000) }, { "d", UINT64_C(86400000000) },
		{ "ms", 1000 }, { "us", 1 },
	};
	const char *end;
	uint64_t n;
	int st = leading_digits(s, &n, &end);

	if (st == FIO_NOT_A_VALUE)
		return st;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].sfx) == 0)
			return st ? st : scaled(n, units[i].us, FIO_TIME_MAX_US, us);
	}
	return FIO_NOT_A_VALUE;
}

void fio_mix(long long rwmixread, long long *reads, long long *writes)
{
	long long a = rwmixread, b = 100 - rwmixread;

	while (b) {
		long long t = a % b;

		a = b;
		b = t;
	}
	/* a = gcd(rwmixread, 100 - rwmixread), never 0 (they sum to 100) */
	*reads = rwmixread / a;
	*writes = (100 - rwmixread) / a;
}

static int name_index(const char *const *names, const char *v)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(names[i], v) == 0)
			return i;
	return -1;
}

/* "'\r' at character 3" for the first control character of `v`, or NULL. */
static const char *control_char(const char *v, char *buf, size_t size)
{
	for (const char *p = v; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f) {
			snprintf(buf, size, "byte 0x%02x at character %d", c,
				 (int)(p - v) + 1);
			return buf;
		}
	}
	return NULL;
}

static int set_size(const struct opt_spec *o, const char *v, void *field,
		    struct diag *d, struct src_loc loc)
{
	uint64_t size;
	int st = fio_parse_size(v, &size);

	if (st == FIO_TOO_LARGE) {
		diag_error(d, loc, "%s=%s is too large: sizes go up to 2^63-1 bytes "
			   "(the largest file)", o->name, v);
		return -1;
	}
	if (st < 0 || size == 0) {
		diag_error(d, loc, "%s needs a positive size like 4k, 1m or 20g, "
			   "not '%s'", o->name, v);
		return -1;
	}
	*(uint64_t *)field = size;
	return 0;
}

static int set_int(const struct opt_spec *o, const char *v, void *field,
		   struct diag *d, struct src_loc loc)
{
	char *end;
	long long n;

	errno = 0;
	n = strtoll(v, &end, 10);
	if (end != v && !*end && (errno == ERANGE || n > o->max) && n > 0) {
		diag_error(d, loc, "%s=%s is too large: at most %lld", o->name, v,
			   o->max);
		return -1;
	}
	if (errno || end == v || *end || n < o->min || n > o->max) {
		diag_error(d, loc, "%s needs a whole number from %lld to %lld, "
			   "not '%s'", o->name, o->min, o->max, v);
		return -1;
	}
	*(long long *)field = n;
	return 0;
}

static int set_time(const struct opt_spec *o, const char *v, void *field,
		    struct diag *d, struct src_loc loc)
{
	uint64_t us;
	int st = fio_parse_time(v, &us);

	if (st == FIO_TOO_LARGE) {
		diag_error(d, loc, "%s=%s is too large: times go up to 10^9 s",
			   o->name, v);
		return -1;
	}
	if (st < 0) {
		diag_error(d, loc, "%s needs a time like 60, 30s, 2m or 1h, not '%s'",
			   o->name, v);
		return -1;
	}
	*(uint64_t *)field = us;
	return 0;
}

/* A file or directory name: one name, no ${VAR}, no control character
 * (it is written into a WML string and shown in comments). */
static int set_path(const struct opt_spec *o, const char *v, void *field,
		    struct arena *a, struct diag *d, struct src_loc loc)
{
	char where[48];

	if (!*v || strchr(v, ':')) {
		diag_error(d, loc, *v ? "%s with several names ('%s': ':' "
			   "separates them in fio) is not supported" :
			   "%s needs a value%s", o->name, v);
		return -1;
	}
	if (strchr(v, '$')) {
		diag_error(d, loc, "%s: fio's ${VAR} environment expansion is not "
			   "supported ('%s')", o->name, v);
		return -1;
	}
	if (control_char(v, where, sizeof(where))) {
		diag_error(d, loc, "%s: a control character in the name (%s)",
			   o->name, where);
		return -1;
	}
	*(const char **)field = arena_strdup(a, v);
	return 0;
}

/* Store `value` (NULL for a bare key) into the option `o` of `opts`. */
static int set_option(const struct opt_spec *o, const char *value,
		      struct fio_opts *opts, struct arena *a, struct diag *d,
		      struct src_loc loc)
{
	char *field = (char *)opts + o->off;
	const char *v = value ? value : "";
	int k, st = 0;

	if (!value && o->kind != K_BOOL) {
		diag_error(d, loc, "option '%s' needs a value (%s=...)", o->name, o->name);
		return -1;
	}
	switch (o->kind) {
	case K_RW:
		/* fio also spells rw as readwrite */
		k = strcmp(v, "readwrite") == 0 ? FIO_RW : name_index(rw_names, v);
		if (k < 0) {
			diag_error(d, loc, "unsupported %s '%s' (supported: read, write, "
				   "randread, randwrite, rw, readwrite, randrw)", o->name, v);
			return -1;
		}
		*(int *)field = k;
		break;
	case K_ENGINE:
		k = name_index(engine_names, v);
		if (k < 0) {
			diag_error(d, loc, "unsupported ioengine '%s' (supported: sync, "
				   "psync, libaio, io_uring, posixaio)", v);
			return -1;
		}
		*(int *)field = k;
		break;
	case K_SIZE:
		st = set_size(o, v, field, d, loc);
		break;
	case K_INT:
		st = set_int(o, v, field, d, loc);
		break;
	case K_BOOL:
		if (!value || strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0) {
			*(bool *)field = true;
		} else if (strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0) {
			*(bool *)field = false;
		} else {
			diag_error(d, loc, "%s is 0 or 1, not '%s'", o->name, v);
			return -1;
		}
		break;
	case K_TIME:
		st = set_time(o, v, field, d, loc);
		break;
	case K_PATH:
		st = set_path(o, v, field, a, d, loc);
		break;
	}
	if (st < 0)
		return -1;
	opts->given |= FIO_BIT(o->id);
	opts->at[o->id] = loc;
	opts->text[o->id] = arena_strdup(a, v);
	return 0;
}

static void opts_defaults(struct fio_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->rw = FIO_READ;
	o->engine = FIO_PSYNC;
	o->rwmixread = 50;
	o->nrfiles = o->numjobs = o->iodepth = 1;
	o->bs = 4096;
}

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
	s->global = strcmp(name, "global") == 0;
	s->opts = *from;
	if (!s->global)
		jf->njobs++;
	return s;
}

/* Keep an option line for the comments.  The section's array doubles
 * when full (the old one stays in the arena): linear in the lines. */
static void add_line(struct fio_jobfile *jf, struct fio_section *s, int line,
		     const char *text)
{
	if (s->nlines == s->lines_cap) {
		int cap = s->lines_cap ? 2 * s->lines_cap : 8;
		struct fio_line *l = arena_alloc(&jf->arena,
						 (size_t)cap * sizeof(*l));

		if (s->nlines)
			memcpy(l, s->lines, (size_t)s->nlines * sizeof(*l));
		s->lines = l;
		s->lines_cap = cap;
	}
	s->lines[s->nlines].line = line;
	s->lines[s->nlines].text = arena_strdup(&jf->arena, text);
	s->nlines++;
}

/* One `key[=value]` line of section `s`; `col` is the key's column. */
static void option_line(struct fio_jobfile *jf, struct fio_section *s,
			struct fio_opts *global, char *text, int line, int col,
			struct diag *d, int *unsupported)
{
	struct src_loc loc = { line, col };
	char *eq = strchr(text, '=');
	char *key = text, *value = NULL;
	const struct opt_spec *o;

	add_line(jf, s, line, text);
	if (eq) {
		*eq = '\0';
		value = trim(eq + 1);
		key = trim(key);
	}
	o = find_opt(key);
	if (!o) {
		const char *names[NOPTS + 1] = { NULL };
		char hint[128];

		for (size_t i = 0; i < NOPTS; i++)
			names[i] = opt_table[i].name;
		diag_error(d, loc, "unsupported option '%s'%s", key,
			   diag_did_you_mean(hint, sizeof(hint), key, names));
		(*unsupported)++;
		return;
	}
	if (set_option(o, value, s->global ? global : &s->opts, &jf->arena,
		       d, loc) == 0 && s->global)
		s->opts = *global;
}

int fio_parse(const char *text, size_t len, struct diag *d, struct fio_jobfile *jf)
{
	struct fio_opts global;
	struct fio_section *cur = NULL;
	int line = 0, unsupported = 0, errors0 = d->errors;
	size_t pos = 0;

	memset(jf, 0, sizeof(*jf));
	arena_init(&jf->arena);
	opts_defaults(&global);
	if (len > INT_MAX - 2) {
		/* lines and columns are ints */
		diag_error(d, (struct src_loc){ 0, 0 }, "job file too large "
			   "(%zu bytes)", len);
		return d->errors - errors0;
	}
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		char *raw = arena_strndup(&jf->arena, text + pos, n);
		bool nul = memchr(text + pos, '\0', n) != NULL;
		char *s = trim(raw);
		struct src_loc loc = { ++line, (int)(s - raw) + 1 };

		pos += n + 1;
		if (nul) {
			diag_error(d, loc, "NUL byte in the line");
			continue;
		}
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (*s == '[') {
			char *close = strchr(s, ']');
			char *name;

			if (!close || *trim(close + 1)) {
				diag_error(d, loc, "a section header is [name], alone on its line");
				continue;
			}
			*close = '\0';
			name = trim(s + 1);
			if (!*name) {
				diag_error(d, loc, "empty section name");
				continue;
			}
			cur = new_section(jf, name, line, &global);
			if (cur->global)
				cur->opts = global;
			continue;
		}
		if (!cur) {
			diag_error(d, loc, "option outside a section: start with [global] "
				   "or [jobname]");
			continue;
		}
		option_line(jf, cur, &global, s, line, loc.col, d, &unsupported);
	}
	if (unsupported) {
		char list[512];

		supported_list(list, sizeof(list));
		fprintf(d->out, "%s: %d unsupported option%s (import-fio supports: %s)\n",
			d->filename, unsupported, unsupported == 1 ? "" : "s", list);
	}
	if (d->errors == errors0 && jf->njobs == 0)
		diag_error(d, (struct src_loc){ 0, 0 }, "no job section: fio runs "
			   "nothing (add a [jobname] section)");
	return d->errors - errors0;
}

void fio_jobfile_free(struct fio_jobfile *jf)
{
	free(jf->sections);
	jf->sections = NULL;
	arena_free(&jf->arena);
}
