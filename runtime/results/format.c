/*
 * format.c - the table of results file formats (format.h), and what is
 * looked up in it: the format a file name asks for, the one a file's
 * content is in, and the lists of endings and names that the messages
 * and the help print.
 */
#include "runtime/results/format.h"

#include <string.h>

/*
 * One row per format, in the order the lists name them.  A file's
 * content is in the first row whose looks_like claims it, and in YAML
 * when none does (the row without looks_like): fio's JSON output before
 * JSON, since it is JSON too.  fio's row is read only: no ending asks
 * for it and it has no writer.
 */
static const struct results_format formats[] = {
	{ "fio JSON", (const char *const[]){ NULL },
	  NULL, results_looks_like_fio, results_read_fio },
	{ "JSON", (const char *const[]){ ".json", NULL },
	  results_write_json, results_looks_like_json, results_read_json },
	{ "YAML", (const char *const[]){ ".yaml", ".yml", NULL },
	  results_write_yaml, NULL, results_read_yaml },
};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

const struct results_format *results_format_at(size_t i)
{
	return i < NFORMATS ? &formats[i] : NULL;
}

/* The ending is the name's last dot on, in its last component, not all of it. */
const struct results_format *results_format_of(const char *path)
{
	const char *dot = strrchr(path, '.');
	const char *slash = strrchr(path, '/');

	if (!dot || (slash && dot < slash) || dot == path || dot[-1] == '/')
		return NULL;
	for (size_t i = 0; i < NFORMATS; i++)
		for (const char *const *e = formats[i].endings; *e; e++)
			if (strcmp(dot, *e) == 0)
				return &formats[i];
	return NULL;
}

const struct results_format *results_format_of_content(const char *buf, size_t len)
{
	const struct results_format *rest = NULL;

	for (size_t i = 0; i < NFORMATS; i++) {
		if (!formats[i].looks_like) {
			if (!rest)
				rest = &formats[i];
		} else if (formats[i].looks_like(buf, len)) {
			return &formats[i];
		}
	}
	return rest;
}

/* A string built in a caller's buffer, cut at its size, always terminated. */
struct text {
	char *buf;
	size_t size, len;
};

static void add(struct text *t, const char *s)
{
	size_t n = strlen(s);

	if (t->len + 1 >= t->size)
		return;
	if (n > t->size - 1 - t->len)
		n = t->size - 1 - t->len;
	memcpy(t->buf + t->len, s, n);
	t->len += n;
	t->buf[t->len] = '\0';
}

/* How many items a row gives the list `what`. */
static size_t items_of(const struct results_format *f, enum results_list_kind what)
{
	size_t n = 0;

	switch (what) {
	case RESULTS_ENDINGS:
		while (f->endings[n])
			n++;
		return n;
	case RESULTS_ENDINGS_BY_FORMAT:
		return f->endings[0] != NULL;      /* not a read-only row */
	case RESULTS_CLAIMING_NAMES:
		return f->looks_like != NULL;
	}
	return 0;
}

/* The row's j-th item of the list `what`. */
static void add_item(struct text *t, const struct results_format *f, size_t j,
		     enum results_list_kind what)
{
	if (what == RESULTS_ENDINGS) {
		add(t, f->endings[j]);
	} else if (what == RESULTS_CLAIMING_NAMES) {
		add(t, f->name);
	} else {
		for (size_t e = 0; f->endings[e]; e++) {
			add(t, e ? "/" : "");
			add(t, f->endings[e]);
		}
	}
}

const char *results_format_list(char *buf, size_t size, enum results_list_kind what)
{
	struct text t = { buf, size, 0 };
	size_t n = 0, k = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < NFORMATS; i++)
		n += items_of(&formats[i], what);
	for (size_t i = 0; i < NFORMATS; i++) {
		for (size_t j = 0; j < items_of(&formats[i], what); j++, k++) {
			add(&t, k == 0 ? "" : k + 1 == n ? " or " : ", ");
			add_item(&t, &formats[i], j, what);
		}
	}
	return buf;
}
