/*
 * yaml.c - the results file as YAML, with libyaml: written by its
 * emitter, read back by its parser into a jansson tree (the tree json.c's
 * reader makes of the same results, for compare and report), its runs
 * one at a time when the reader is given a hook for them.
 *
 * Block style, one document, except the short lists of numbers
 * (histogram buckets), which are one line each.  Strings are always double-quoted and keys
 * quoted unless they are plain identifiers, so a reader never mistakes
 * "true", "null" or "99.9" for anything but a string; numbers, booleans
 * and null are plain scalars.  Reals use the same significant digits as
 * json.c (and a ".0" where %g leaves none, as jansson does).
 */
#include "runtime/results/doc.h"
#include "runtime/results/format.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

/* ---- writing ---------------------------------------------------------- */

struct yaml_sink {
	yaml_emitter_t em;
};

static int emit(struct yaml_sink *y, yaml_event_t *ev, int ok)
{
	if (!ok)
		return -1;
	return yaml_emitter_emit(&y->em, ev) ? 0 : -1;
}

static int scalar(struct yaml_sink *y, const char *text, bool quoted)
{
	yaml_event_t ev;
	int ok = yaml_scalar_event_initialize(&ev, NULL, NULL,
			(yaml_char_t *)text, (int)strlen(text), 1, 1,
			quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_PLAIN_SCALAR_STYLE);

	return emit(y, &ev, ok);
}

static int y_map_begin(void *ctx)
{
	struct yaml_sink *y = ctx;
	yaml_event_t ev;
	int ok = yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
						     YAML_BLOCK_MAPPING_STYLE);

	return emit(y, &ev, ok);
}

static int y_list_begin(void *ctx)
{
	struct yaml_sink *y = ctx;
	yaml_event_t ev;
	int ok = yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
						      YAML_BLOCK_SEQUENCE_STYLE);

	return emit(y, &ev, ok);
}

static int y_flow_list_begin(void *ctx)
{
	struct yaml_sink *y = ctx;
	yaml_event_t ev;
	int ok = yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
						      YAML_FLOW_SEQUENCE_STYLE);

	return emit(y, &ev, ok);
}

static int y_map_end(void *ctx)
{
	yaml_event_t ev;

	return emit(ctx, &ev, yaml_mapping_end_event_initialize(&ev));
}

static int y_list_end(void *ctx)
{
	yaml_event_t ev;

	return emit(ctx, &ev, yaml_sequence_end_event_initialize(&ev));
}

/* A key that a YAML reader would take as a plain string. */
static bool plain_key(const char *k)
{
	if (!isalpha((unsigned char)k[0]) && k[0] != '_')
		return false;
	for (; *k; k++) {
		if (!isalnum((unsigned char)*k) && *k != '_' && *k != '-')
			return false;
	}
	return true;
}

static int y_key(void *ctx, const char *key)
{
	/* "true", "null", "no", ... are identifiers that YAML 1.1 reinterprets */
	static const char *const special[] = {
		"true", "false", "yes", "no", "on", "off", "null", "y", "n",
	};
	bool quoted = !plain_key(key);

	for (size_t i = 0; !quoted && i < sizeof(special) / sizeof(*special); i++)
		quoted = strcasecmp(key, special[i]) == 0;
	return scalar(ctx, key, quoted);
}

static int y_string(void *ctx, const char *s)
{
	return s ? scalar(ctx, s, true) : scalar(ctx, "null", false);
}

static int y_integer(void *ctx, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
	return scalar(ctx, buf, false);
}

static int y_real(void *ctx, double v)
{
	char buf[48];

	if (!isfinite(v))
		return scalar(ctx, "null", false);
	snprintf(buf, sizeof(buf), "%.*g", DOC_REAL_DIGITS, v);
	if (!strpbrk(buf, ".e"))
		strcat(buf, ".0");
	return scalar(ctx, buf, false);
}

static int y_boolean(void *ctx, int v)
{
	return scalar(ctx, v ? "true" : "false", false);
}

int results_write_yaml(FILE *f, const struct results *r)
{
	struct yaml_sink y;
	struct doc_sink sink = {
		.map_begin = y_map_begin, .map_end = y_map_end,
		.list_begin = y_list_begin, .flow_list_begin = y_flow_list_begin,
		.list_end = y_list_end,
		.key = y_key, .string = y_string, .integer = y_integer,
		.real = y_real, .boolean = y_boolean, .ctx = &y,
	};
	yaml_event_t ev;
	int rc = -1;

	if (!yaml_emitter_initialize(&y.em))
		return -1;
	yaml_emitter_set_output_file(&y.em, f);
	yaml_emitter_set_unicode(&y.em, 1);
	yaml_emitter_set_width(&y.em, -1);
	if (emit(&y, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING)) == 0 &&
	    emit(&y, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0)) == 0 &&
	    results_emit(r, &sink) == 0 &&
	    emit(&y, &ev, yaml_document_end_event_initialize(&ev, 1)) == 0 &&
	    emit(&y, &ev, yaml_stream_end_event_initialize(&ev)) == 0 &&
	    yaml_emitter_flush(&y.em))
		rc = 0;
	yaml_emitter_delete(&y.em);
	return rc;
}

/* ---- reading ---------------------------------------------------------- */

/*
 * A scalar as the writer above means it: quoted
 * is a string; plain is null, a boolean, an integer or a real when it
 * reads as one, else a string (a hand-edited file may drop quotes).
 */
static json_t *read_scalar(const yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;
	char *end;
	long long i;
	double d;

	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return json_string(s);
	if (!*s || strcmp(s, "null") == 0 || strcmp(s, "~") == 0)
		return json_null();
	if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0)
		return json_boolean(s[0] == 't');
	errno = 0;
	i = strtoll(s, &end, 10);
	if (!*end && !errno)
		return json_integer(i);
	d = strtod(s, &end);
	return *end ? json_string(s) : json_real(d);
}

static void fail_at(struct results_read_fail *f, const yaml_mark_t *m,
		    const char *why)
{
	f->placed = true;
	f->line = (int)m->line + 1;
	f->column = (int)m->column + 1;
	snprintf(f->text, sizeof(f->text), "%s", why);
}

static int read_next(yaml_parser_t *p, yaml_event_t *ev,
		     struct results_read_fail *f)
{
	if (yaml_parser_parse(p, ev))
		return 0;
	fail_at(f, &p->problem_mark, p->problem ? p->problem : "invalid YAML");
	return -1;
}

static json_t *read_node(yaml_parser_t *p, yaml_event_t *ev, int depth,
			 struct results_read_fail *f);

/* Attach the next node under `parent` (key NULL: a list item). */
static int read_child(yaml_parser_t *p, json_t *parent, const char *key, int depth,
		      struct results_read_fail *f)
{
	yaml_event_t ev;
	json_t *v;

	if (read_next(p, &ev, f) < 0)
		return -1;
	v = read_node(p, &ev, depth + 1, f);
	if (!v)
		return -1;
	return key ? json_object_set_new(parent, key, v) : json_array_append_new(parent, v);
}

static int read_runs(yaml_parser_t *p, struct results_read_fail *f,
		     const struct results_runs *each);

/*
 * The value of the top-level key "runs" (its key event `key`, deleted
 * here): a list streamed to the hook one run at a time (read_runs()),
 * anything else kept as it is (the reader says what is wrong with it).
 */
static int read_top_runs(yaml_parser_t *p, json_t *map, yaml_event_t *key,
			 struct results_read_fail *f, const struct results_runs *each)
{
	yaml_event_t val;

	if (json_object_get(map, "runs")) {
		fail_at(f, &key->start_mark, "a second \"runs\"");
		yaml_event_delete(key);
		return -1;
	}
	yaml_event_delete(key);
	if (read_next(p, &val, f) < 0)
		return -1;
	if (val.type == YAML_SEQUENCE_START_EVENT) {
		yaml_event_delete(&val);
		if (json_object_set_new(map, "runs", json_array()) < 0)
			return -1;
		return read_runs(p, f, each);
	}
	return json_object_set_new(map, "runs", read_node(p, &val, 1, f));
}

/*
 * A mapping's entries up to its end; keys must be scalars.  With `each`
 * (the top-level mapping only), its "runs" are streamed (read_top_runs()).
 */
static int read_map(yaml_parser_t *p, json_t *map, int depth,
		    struct results_read_fail *f, const struct results_runs *each)
{
	yaml_event_t ev;

	for (;;) {
		int rc;

		if (read_next(p, &ev, f) < 0)
			return -1;
		if (ev.type == YAML_MAPPING_END_EVENT)
			break;
		if (ev.type != YAML_SCALAR_EVENT) {
			fail_at(f, &ev.start_mark, "a mapping key that is not a scalar");
			yaml_event_delete(&ev);
			return -1;
		}
		if (each && strcmp((const char *)ev.data.scalar.value, "runs") == 0) {
			if (read_top_runs(p, map, &ev, f, each) < 0)
				return -1;
			continue;
		}
		rc = read_child(p, map, (const char *)ev.data.scalar.value, depth, f);
		yaml_event_delete(&ev);
		if (rc < 0)
			return -1;
	}
	yaml_event_delete(&ev);
	return 0;
}

static int read_list(yaml_parser_t *p, json_t *list, int depth,
		     struct results_read_fail *f)
{
	yaml_event_t ev;

	for (;;) {
		json_t *v;

		if (read_next(p, &ev, f) < 0)
			return -1;
		if (ev.type == YAML_SEQUENCE_END_EVENT)
			break;
		v = read_node(p, &ev, depth + 1, f);
		if (!v || json_array_append_new(list, v) < 0)
			return -1;
	}
	yaml_event_delete(&ev);
	return 0;
}

/*
 * The node `ev` starts (ev consumed), or NULL with f set.  Aliases and
 * nesting deeper than any results file are refused: a crafted file must
 * not exhaust the stack.
 */
static json_t *read_node(yaml_parser_t *p, yaml_event_t *ev, int depth,
			 struct results_read_fail *f)
{
	json_t *node = NULL;
	int rc = 0;

	if (depth > 64) {
		fail_at(f, &ev->start_mark, "nested too deeply for a results file");
	} else if (ev->type == YAML_SCALAR_EVENT) {
		node = read_scalar(ev);
	} else if (ev->type == YAML_MAPPING_START_EVENT) {
		node = json_object();
		rc = node ? read_map(p, node, depth, f, NULL) : -1;
	} else if (ev->type == YAML_SEQUENCE_START_EVENT) {
		node = json_array();
		rc = node ? read_list(p, node, depth, f) : -1;
	} else {
		fail_at(f, &ev->start_mark, "an alias or event a results file does not use");
	}
	if (rc < 0) {
		json_decref(node);
		node = NULL;
	}
	if (!node && !f->text[0])
		fail_at(f, &ev->start_mark, "out of memory");
	yaml_event_delete(ev);
	return node;
}

/*
 * The top-level "runs" sequence, its start read: each item to the hook
 * and dropped, so that the file is never one tree.
 */
static int read_runs(yaml_parser_t *p, struct results_read_fail *f,
		     const struct results_runs *each)
{
	yaml_event_t ev;

	for (size_t i = 0;; i++) {
		int line, rc;
		size_t end;
		json_t *run;

		if (read_next(p, &ev, f) < 0)
			return -1;
		if (ev.type == YAML_SEQUENCE_END_EVENT)
			break;
		line = (int)ev.start_mark.line + 1;
		if (!(run = read_node(p, &ev, 2, f)))
			return -1;
		end = p->mark.index;
		rc = each->run(each->ctx, run, i, line);
		json_decref(run);
		if (rc < 0) {
			f->stopped = true;
			return -1;
		}
		if (each->consumed)
			each->consumed(each->ctx, end);
	}
	yaml_event_delete(&ev);
	return 0;
}

/*
 * The first document of a YAML buffer as a jansson tree, or NULL with f
 * set; with `each`, its top-level "runs" streamed to the hook.
 */
json_t *results_read_yaml(const char *buf, size_t len, struct results_read_fail *f,
			  const struct results_runs *each)
{
	yaml_parser_t p;
	yaml_event_t ev;
	json_t *root = NULL;

	if (!yaml_parser_initialize(&p)) {
		snprintf(f->text, sizeof(f->text), "out of memory");
		return NULL;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	while (!root && read_next(&p, &ev, f) == 0) {
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			snprintf(f->text, sizeof(f->text), "an empty YAML document");
			break;
		}
		if (ev.type == YAML_STREAM_START_EVENT || ev.type == YAML_DOCUMENT_START_EVENT) {
			yaml_event_delete(&ev);
			continue;
		}
		if (each && ev.type == YAML_MAPPING_START_EVENT) {
			yaml_event_delete(&ev);
			root = json_object();
			if (root && read_map(&p, root, 0, f, each) < 0) {
				json_decref(root);
				root = NULL;
			}
			if (!root && !f->text[0] && !f->stopped)
				snprintf(f->text, sizeof(f->text), "out of memory");
			break;
		}
		root = read_node(&p, &ev, 0, f);
		if (!root)
			break;
	}
	yaml_parser_delete(&p);
	return root;
}
