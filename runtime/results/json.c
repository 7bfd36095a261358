/*
 * json.c - the results file as JSON, with jansson: written from
 * results_emit()'s walk, read back into jansson's tree (for compare and
 * report).
 *
 * The sink builds a jansson tree (a stack of open maps and lists, and the
 * pending key of the innermost map), then dumps it indented with
 * DOC_REAL_DIGITS significant digits, the same text yaml.c writes, and
 * puts every list of numbers only on one line.
 */
#include "runtime/results/doc.h"
#include "runtime/results/format.h"

#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define JSON_DEPTH 16

struct json_builder {
	json_t *stack[JSON_DEPTH];
	int depth;
	json_t *root;
	char *key;                /* of the next value in a map (a copy) */
};

/* Attach a new value (reference stolen) where the document is. */
static int put(struct json_builder *b, json_t *v)
{
	json_t *top;
	int rc;

	if (!v)
		return -1;
	if (b->depth == 0) {
		if (b->root) {
			json_decref(v);
			return -1;
		}
		b->root = v;
		return 0;
	}
	top = b->stack[b->depth - 1];
	if (json_is_object(top)) {
		rc = b->key ? json_object_set_new(top, b->key, v) : (json_decref(v), -1);
		free(b->key);
		b->key = NULL;
	} else {
		rc = json_array_append_new(top, v);
	}
	return rc;
}

static int open_node(struct json_builder *b, json_t *v)
{
	if (!v || b->depth == JSON_DEPTH || put(b, v) < 0)
		return -1;
	b->stack[b->depth++] = v;   /* borrowed: the parent owns it */
	return 0;
}

static int j_map_begin(void *ctx) { return open_node(ctx, json_object()); }
static int j_list_begin(void *ctx) { return open_node(ctx, json_array()); }

static int j_close(void *ctx)
{
	struct json_builder *b = ctx;

	if (b->depth == 0)
		return -1;
	b->depth--;
	return 0;
}

static int j_key(void *ctx, const char *key)
{
	struct json_builder *b = ctx;

	free(b->key);
	b->key = strdup(key);
	return b->key ? 0 : -1;
}

static int j_string(void *ctx, const char *s)
{
	return put(ctx, s ? json_string(s) : json_null());
}

static int j_integer(void *ctx, uint64_t v)
{
	if (v > INT64_MAX)
		return put(ctx, json_real((double)v));
	return put(ctx, json_integer((json_int_t)v));
}

static int j_real(void *ctx, double v)
{
	return put(ctx, isfinite(v) ? json_real(v) : json_null());
}

static int j_boolean(void *ctx, int v)
{
	return put(ctx, json_boolean(v));
}

/*
 * `text` (jansson's indented dump) with every list that holds numbers
 * only written on one line, "[3456, 3471, 120034]": a histogram's
 * buckets took five lines each.  In place (the text only shrinks);
 * string literals are copied untouched.
 */
static void squeeze_number_lists(char *text)
{
	char *out = text, *in = text;

	while (*in) {
		size_t n;

		if (*in == '"') {               /* a string: copy to its end */
			*out++ = *in++;
			while (*in && *in != '"') {
				if (*in == '\\' && in[1])
					*out++ = *in++;
				*out++ = *in++;
			}
			if (*in)
				*out++ = *in++;
			continue;
		}
		n = *in == '[' ? 1 + strspn(in + 1, "0123456789.eE+-, \n") : 0;
		if (n <= 1 || in[n] != ']') {
			*out++ = *in++;
			continue;
		}
		/* "[ ...numbers, commas, blanks... ]": drop newlines and indents */
		for (char *p = in; p <= in + n; p++) {
			if (*p == '\n' && p[-1] == ',')
				*out++ = ' ';
			if (*p == '\n')
				continue;
			if (*p == ' ' && (p[-1] == ' ' || p[-1] == '\n' || p[-1] == '['))
				continue;
			*out++ = *p;
		}
		in += n + 1;
	}
	*out = '\0';
}

int results_write_json(FILE *f, const struct results *r)
{
	struct json_builder b = { .depth = 0 };
	struct doc_sink sink = {
		.map_begin = j_map_begin, .map_end = j_close,
		.list_begin = j_list_begin, .flow_list_begin = j_list_begin,
		.list_end = j_close,
		.key = j_key, .string = j_string, .integer = j_integer,
		.real = j_real, .boolean = j_boolean, .ctx = &b,
	};
	int rc = -1;

	char *text = NULL;

	if (results_emit(r, &sink) == 0 && b.root && b.depth == 0)
		text = json_dumps(b.root, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
				  JSON_REAL_PRECISION(DOC_REAL_DIGITS));
	if (text) {
		squeeze_number_lists(text);
		if (fputs(text, f) != EOF && fputc('\n', f) != EOF)
			rc = 0;
	}
	free(text);
	json_decref(b.root);
	free(b.key);
	return rc;
}

/* ---- reading ---------------------------------------------------------- */

/* A results file in JSON starts with '{' after blanks (format.h's looks_like). */
bool results_looks_like_json(const char *buf, size_t len)
{
	size_t i = 0;

	while (i < len && strchr(" \t\r\n", buf[i]))
		i++;
	return i < len && buf[i] == '{';
}

/* jansson's tree of the buffer; its failure always says where (line, column). */
json_t *results_read_json(const char *buf, size_t len, struct results_read_fail *fail)
{
	json_error_t jerr;
	json_t *root = json_loadb(buf, len, 0, &jerr);

	if (!root) {
		fail->placed = true;
		fail->line = jerr.line;
		fail->column = jerr.column;
		snprintf(fail->text, sizeof(fail->text), "%s", jerr.text);
	}
	return root;
}
