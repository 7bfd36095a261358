/*
 * json.c - the results file as JSON, with jansson: written from
 * results_emit()'s walk, read back into jansson's tree (for compare and
 * report), or read with its runs streamed one at a time, so that a file
 * of many runs is never one tree.
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

/*
 * The streaming reader: the top-level object's members each read by
 * jansson (one value at a time, JSON_DISABLE_EOF_CHECK), but the "runs"
 * array's items handed to the hook one by one and dropped, so the tree
 * of the whole file is never made.  pos is where it reads, line the
 * line of pos (from 1) and line_start where that line starts.
 */
struct jstream {
	const char *buf;
	size_t len, pos, line_start;
	int line;
	struct results_read_fail *fail;
};

static void js_advance(struct jstream *js, size_t n)
{
	const char *p = js->buf + js->pos, *end = p + n, *nl;

	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		js->line++;
		p = nl + 1;
		js->line_start = (size_t)(p - js->buf);
	}
	js->pos += n;
}

/* The next character after blanks, or 0 at the end. */
static char js_peek(struct jstream *js)
{
	size_t n = 0;

	while (js->pos + n < js->len && strchr(" \t\r\n", js->buf[js->pos + n]))
		n++;
	js_advance(js, n);
	return js->pos < js->len ? js->buf[js->pos] : 0;
}

/* A failure at the current position. */
static int js_fail(struct jstream *js, const char *why)
{
	js->fail->placed = true;
	js->fail->line = js->line;
	js->fail->column = (int)(js->pos - js->line_start) + 1;
	snprintf(js->fail->text, sizeof(js->fail->text), "%s", why);
	return -1;
}

/* The value at pos (jansson's), or NULL with the failure placed in the file. */
static json_t *js_value(struct jstream *js)
{
	json_error_t e;
	json_t *v = json_loadb(js->buf + js->pos, js->len - js->pos,
			       JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK, &e);

	if (!v) {
		js->fail->placed = true;
		js->fail->line = js->line + e.line - 1;
		js->fail->column = e.line == 1 ?
			(int)(js->pos - js->line_start) + e.column : e.column;
		snprintf(js->fail->text, sizeof(js->fail->text), "%s", e.text);
		return NULL;
	}
	js_advance(js, (size_t)e.position);
	return v;
}

/* Skip `c` after blanks, or fail saying what was expected. */
static int js_expect(struct jstream *js, char c, const char *what)
{
	if (js_peek(js) != c)
		return js_fail(js, what);
	js_advance(js, 1);
	return 0;
}

/* The "runs" array, its '[' read: each item to the hook, none kept. */
static int js_runs(struct jstream *js, const struct results_runs *each)
{
	size_t i = 0;

	if (js_peek(js) == ']') {
		js_advance(js, 1);
		return 0;
	}
	for (;; i++) {
		int line, rc;
		json_t *run;

		js_peek(js);
		line = js->line;
		if (!(run = js_value(js)))
			return -1;
		rc = each->run(each->ctx, run, i, line);
		json_decref(run);
		if (rc < 0) {
			js->fail->stopped = true;
			return -1;
		}
		if (each->consumed)
			each->consumed(each->ctx, js->pos);
		if (js_peek(js) == ']')
			break;
		if (js_expect(js, ',', "',' or ']' expected after a run") < 0)
			return -1;
	}
	js_advance(js, 1);
	return 0;
}

/* One member of the top-level object into root ("runs" to the hook). */
static int js_member(struct jstream *js, json_t *root, const struct results_runs *each)
{
	json_t *key, *v;
	int rc = -1;

	if (js_peek(js) != '"')
		return js_fail(js, "a key (a string) expected");
	if (!(key = js_value(js)))
		return -1;
	if (js_expect(js, ':', "':' expected") < 0)
		goto out;
	if (strcmp(json_string_value(key), "runs") == 0 && js_peek(js) == '[') {
		if (json_object_get(root, "runs")) {
			js_fail(js, "a second \"runs\"");
			goto out;
		}
		js_advance(js, 1);
		if (json_object_set_new(root, "runs", json_array()) < 0) {
			js_fail(js, "out of memory");
			goto out;
		}
		rc = js_runs(js, each);
		goto out;
	}
	if ((v = js_value(js)))
		rc = json_object_set_new(root, json_string_value(key), v) < 0 ?
		     js_fail(js, "out of memory") : 0;
out:
	json_decref(key);
	return rc;
}

/* The whole buffer, streaming the runs to `each`. */
static json_t *read_streaming(const char *buf, size_t len, struct results_read_fail *fail,
			      const struct results_runs *each)
{
	struct jstream js = { buf, len, 0, 0, 1, fail };
	json_t *root = json_object();

	if (!root || js_expect(&js, '{', "'{' expected") < 0)
		goto bad;
	if (js_peek(&js) == '}') {
		js_advance(&js, 1);
	} else {
		for (;;) {
			char c;

			if (js_member(&js, root, each) < 0)
				goto bad;
			c = js_peek(&js);
			if (c != '}' && c != ',') {
				js_fail(&js, "',' or '}' expected");
				goto bad;
			}
			js_advance(&js, 1);
			if (c == '}')
				break;
		}
	}
	if (js_peek(&js) != 0) {
		js_fail(&js, "end of file expected");
		goto bad;
	}
	return root;
bad:
	json_decref(root);
	return NULL;
}

/*
 * jansson's tree of the buffer (with `each`: without its runs, streamed
 * to the hook); its failure always says where (line, column).
 */
json_t *results_read_json(const char *buf, size_t len, struct results_read_fail *fail,
			  const struct results_runs *each)
{
	json_error_t jerr;
	json_t *root;

	if (each)
		return read_streaming(buf, len, fail, each);
	root = json_loadb(buf, len, 0, &jerr);
	if (!root) {
		fail->placed = true;
		fail->line = jerr.line;
		fail->column = jerr.column;
		snprintf(fail->text, sizeof(fail->text), "%s", jerr.text);
	}
	return root;
}
