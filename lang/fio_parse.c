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

#include <ctype.h>
#include <errno.h>
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
	{ "runtime", FO_RUNTIME, K_TIME, F(runtime), 0, 0 },
	{ "time_based", FO_TIME_BASED, K_BOOL, F(time_based), 0, 0 },
	{ "ramp_time", FO_RAMP_TIME, K_TIME, F(ramp_time), 0, 0 },
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

int fio_parse_size(const char *s, uint64_t *v)
{
	static const char *const suffix = "kmgtp";
	unsigned long long n;
	const char *p;
	char *end;
	int shift = 0;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (*end) {
		p = strchr(suffix, tolower((unsigned char)*end));
		if (!p)
			return -1;
		shift = 10 * (int)(p - suffix + 1);
		end++;
		/* 4k, 4kb, 4KiB: all powers of 1024, as fio by default */
		if (strcasecmp(end, "") != 0 && strcasecmp(end, "b") != 0 &&
		    strcasecmp(end, "ib") != 0)
			return -1;
	}
	if (shift && n > (UINT64_MAX >> shift))
		return -1;
	*v = (uint64_t)n << shift;
	return 0;
}

int fio_parse_seconds(const char *s, double *v)
{
	static const struct { const char *sfx; double mul; } units[] = {
		{ "", 1 }, { "s", 1 }, { "m", 60 }, { "h", 3600 }, { "d", 86400 },
		{ "ms", 1e-3 }, { "us", 1e-6 },
	};
	unsigned long long n;
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].sfx) == 0) {
			*v = (double)n * units[i].mul;
			return 0;
		}
	}
	return -1;
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

/* Store `value` (NULL for a bare key) into the option `o` of `opts`. */
static int set_option(const struct opt_spec *o, const char *value,
		      struct fio_opts *opts, struct arena *a, struct diag *d,
		      struct src_loc loc)
{
	char *field = (char *)opts + o->off;
	const char *v = value ? value : "";
	uint64_t size;
	double secs;
	int k;

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
		if (fio_parse_size(v, &size) < 0 || size == 0) {
			diag_error(d, loc, "%s needs a positive size like 4k, 1m or 20g, "
				   "not '%s'", o->name, v);
			return -1;
		}
		*(uint64_t *)field = size;
		break;
	case K_INT: {
		char *end;
		long long n;

		errno = 0;
		n = strtoll(v, &end, 10);
		if (errno || end == v || *end || n < o->min || n > o->max) {
			diag_error(d, loc, "%s needs a whole number from %lld to %lld, "
				   "not '%s'", o->name, o->min, o->max, v);
			return -1;
		}
		*(long long *)field = n;
		break;
	}
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
		if (fio_parse_seconds(v, &secs) < 0) {
			diag_error(d, loc, "%s needs a time like 60, 30s, 2m or 1h, not '%s'",
				   o->name, v);
			return -1;
		}
		*(double *)field = secs;
		break;
	case K_PATH:
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
		*(const char **)field = arena_strdup(a, v);
		break;
	}
	opts->given |= FIO_BIT(o->id);
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

static struct fio_section *new_section(struct fio_jobfile *jf, const char *name,
				       int line, const struct fio_opts *from)
{
	struct fio_section *s;

	s = realloc(jf->sections, (size_t)(jf->nsections + 1) * sizeof(*s));
	if (!s)
		abort();
	jf->sections = s;
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

static void add_line(struct fio_jobfile *jf, struct fio_section *s, int line,
		     const char *text)
{
	struct fio_line *l = arena_alloc(&jf->arena,
					 (size_t)(s->nlines + 1) * sizeof(*l));

	if (s->nlines)
		memcpy(l, s->lines, (size_t)s->nlines * sizeof(*l));
	l[s->nlines].line = line;
	l[s->nlines].text = arena_strdup(&jf->arena, text);
	s->lines = l;
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
