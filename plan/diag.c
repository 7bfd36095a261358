/*
 * diag.c - located error messages and "did you mean" suggestions.
 */
#include "plan/diag.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void diag_init(struct diag *d, const char *filename, const char *source,
	       size_t len, FILE *out)
{
	memset(d, 0, sizeof(*d));
	d->filename = filename;
	d->source = source;
	d->source_len = len;
	d->out = out;
	d->max_errors = 20;
	d->max_warnings = 20;
}

/* A longer line is quoted as this many bytes around the column, "..." on cut sides. */
#define QUOTE_WIDTH 160

/*
 * Print the source line of `loc` and a caret under its column.  A line of
 * 100 KB (a generated expression) is quoted as a window around the column
 * rather than whole, with the caret line under it as long.
 */
static void quote_line(const char *source, size_t source_len, FILE *out,
		       struct src_loc loc)
{
	const char *p = source, *end, *line_end;
	size_t len, col, from, to;
	int line = 1;

	if (!p || loc.line <= 0)
		return;
	end = p + source_len;
	while (p < end && line < loc.line) {
		if (*p++ == '\n')
			line++;
	}
	if (line != loc.line)
		return;
	line_end = memchr(p, '\n', (size_t)(end - p));
	if (!line_end)
		line_end = end;
	len = (size_t)(line_end - p);
	col = loc.col > 1 ? (size_t)loc.col - 1 : 0;     /* bytes before the caret */
	if (col > len)
		col = len;
	from = 0;
	to = len;
	if (len > QUOTE_WIDTH) {
		from = col > QUOTE_WIDTH / 2 ? col - QUOTE_WIDTH / 2 : 0;
		if (to > from + QUOTE_WIDTH)
			to = from + QUOTE_WIDTH;
	}
	fprintf(out, "    %s%.*s%s\n    %s", from ? "..." : "",
		(int)(to - from), p + from, to < len ? "..." : "",
		from ? "   " : "");
	for (size_t i = from; i < col && i < to; i++)
		fputc(p[i] == '\t' ? '\t' : ' ', out);
	fputs("^\n", out);
}

static void vreport(struct diag *d, struct src_loc loc, const char *kind,
		    bool quote, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

static void vreport(struct diag *d, struct src_loc loc, const char *kind,
		    bool quote, const char *fmt, va_list ap)
{
	struct diag_origin o = {
		.filename = d->filename, .source = d->source,
		.source_len = d->source_len, .line = loc.line,
	};

	if (loc.line > 0 && d->origin && !d->origin(d->origin_ctx, loc.line, &o))
		o = (struct diag_origin){ d->filename, d->source, d->source_len,
					  loc.line, false };
	loc.line = o.line;
	if (loc.line > 0 && o.argv)
		fprintf(d->out, "argv[%d]: %s", loc.line - 1, kind);
	else if (loc.line > 0)
		fprintf(d->out, "%s:%d:%d: %s", o.filename, loc.line, loc.col,
			kind);
	else
		fprintf(d->out, "%s: %s", d->filename, kind);
	vfprintf(d->out, fmt, ap);
	fputc('\n', d->out);
	if (quote)
		quote_line(o.source, o.source_len, d->out, loc);
}

void diag_error(struct diag *d, struct src_loc loc, const char *fmt, ...)
{
	va_list ap;

	d->errors++;
	d->hushed = d->errors > d->max_errors;
	if (d->hushed)
		return;
	va_start(ap, fmt);
	vreport(d, loc, "", true, fmt, ap);
	va_end(ap);
	if (d->errors == d->max_errors)
		fprintf(d->out, "%s: too many errors; the rest are counted, not shown\n",
			d->filename);
}

bool diag_error_shown(const struct diag *d)
{
	return d->errors < d->max_errors;
}

void diag_warning(struct diag *d, struct src_loc loc, const char *fmt, ...)
{
	va_list ap;

	d->warnings++;
	d->hushed = d->warnings > d->max_warnings;
	if (d->warnings == d->max_warnings + 1)
		fprintf(d->out, "%s: too many warnings; the rest are counted, not shown\n",
			d->filename);
	if (d->hushed)
		return;
	va_start(ap, fmt);
	vreport(d, loc, "warning: ", true, fmt, ap);
	va_end(ap);
}

void diag_note(struct diag *d, struct src_loc loc, const char *fmt, ...)
{
	va_list ap;

	if (d->hushed)
		return;
	va_start(ap, fmt);
	vreport(d, loc, "note: ", false, fmt, ap);
	va_end(ap);
}

#define SUGGEST_MAX_LEN 64

/*
 * Damerau-Levenshtein (optimal string alignment), case-insensitive, or
 * (size_t)-1 once it must exceed limit.  A script with thousands of
 * misspelt names asks for thousands of suggestions over long candidate
 * lists, so the work is bounded: no allocation, names longer than
 * SUGGEST_MAX_LEN or differing in length by more than limit skipped at
 * once, and a row whose every cell is over limit ends the comparison.
 */
static size_t edit_distance_within(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t rows[3][SUGGEST_MAX_LEN + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2];

	if (la > SUGGEST_MAX_LEN || lb > SUGGEST_MAX_LEN ||
	    (la > lb ? la - lb : lb - la) > limit)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		int ai = tolower((unsigned char)a[i - 1]);
		size_t row_min;

		cur[0] = row_min = i;
		for (size_t j = 1; j <= lb; j++) {
			int bj = tolower((unsigned char)b[j - 1]);
			size_t best = prev[j - 1] + (ai != bj);

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 && prev2[j - 2] + 1 < best &&
			    ai == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == bj)
				best = prev2[j - 2] + 1;
			cur[j] = best;
			if (best < row_min)
				row_min = best;
		}
		if (row_min > limit)
			return (size_t)-1;
		size_t *t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb] <= limit ? prev[lb] : (size_t)-1;
}

const char *diag_suggest(const char *word, const char *const *candidates)
{
	const char *best = NULL;
	size_t len = strlen(word);
	/* allow roughly one typo per three characters, at least one */
	size_t limit = len < 3 ? 1 : (len + 2) / 3;

	for (; *candidates; candidates++) {
		size_t dist = edit_distance_within(word, *candidates, limit);

		if (dist != (size_t)-1) {
			best = *candidates;
			limit = dist;   /* later ones must do strictly better */
			if (dist == 0)
				break;
			limit--;
		}
	}
	return best;
}

const char *diag_did_you_mean(char *buf, size_t size, const char *word,
			      const char *const *candidates)
{
	const char *s = diag_suggest(word, candidates);

	if (s)
		snprintf(buf, size, " (did you mean '%s'?)", s);
	else if (size)
		buf[0] = '\0';
	return buf;
}
