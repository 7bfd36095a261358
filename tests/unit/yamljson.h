/*
 * yamljson.h - a YAML document read with libyaml's parser into a jansson
 * tree, for tests that check a YAML results file holds the same tree as
 * the JSON one.  Quoted scalars are strings; plain ones are null, true,
 * false, integers or reals when they read as such, else strings.
 * Header-only (static functions): used by test_results.c and yaml2json.c.
 */
#ifndef FLOWBENCH_TESTS_YAMLJSON_H
#define FLOWBENCH_TESTS_YAMLJSON_H

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static json_t *yj_scalar(const yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;
	char *end;

	if (ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return json_string(s);
	if (!*s || strcmp(s, "null") == 0 || strcmp(s, "~") == 0)
		return json_null();
	if (strcmp(s, "true") == 0 || strcmp(s, "false") == 0)
		return json_boolean(s[0] == 't');
	errno = 0;
	long long i = strtoll(s, &end, 10);
	if (!*end && !errno)
		return json_integer(i);
	double d = strtod(s, &end);
	if (!*end)
		return json_real(d);
	return json_string(s);
}

/* The node starting with `ev` (consumed); NULL on a parse error. */
static json_t *yj_node(yaml_parser_t *p, yaml_event_t *ev)
{
	json_t *node = NULL;
	yaml_event_t e;

	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		node = yj_scalar(ev);
		break;
	case YAML_SEQUENCE_START_EVENT:
		node = json_array();
		for (;;) {
			if (!yaml_parser_parse(p, &e))
				goto bad;
			if (e.type == YAML_SEQUENCE_END_EVENT) {
				yaml_event_delete(&e);
				break;
			}
			json_t *item = yj_node(p, &e);
			if (!item)
				goto bad;
			json_array_append_new(node, item);
		}
		break;
	case YAML_MAPPING_START_EVENT:
		node = json_object();
		for (;;) {
			if (!yaml_parser_parse(p, &e))
				goto bad;
			if (e.type == YAML_MAPPING_END_EVENT) {
				yaml_event_delete(&e);
				break;
			}
			if (e.type != YAML_SCALAR_EVENT) {
				yaml_event_delete(&e);
				goto bad;
			}
			char *k = strdup((const char *)e.data.scalar.value);
			yaml_event_delete(&e);
			if (!yaml_parser_parse(p, &e)) {
				free(k);
				goto bad;
			}
			json_t *v = yj_node(p, &e);
			if (!v) {
				free(k);
				goto bad;
			}
			json_object_set_new(node, k, v);
			free(k);
		}
		break;
	default:
		break;
	}
	yaml_event_delete(ev);
	return node;
bad:
	yaml_event_delete(ev);
	json_decref(node);
	return NULL;
}

/* The first document of `f` as a jansson tree, or NULL (bad YAML). */
static json_t *yaml_to_json(FILE *f)
{
	yaml_parser_t p;
	yaml_event_t ev;
	json_t *root = NULL;

	if (!yaml_parser_initialize(&p))
		return NULL;
	yaml_parser_set_input_file(&p, f);
	for (;;) {
		if (!yaml_parser_parse(&p, &ev))
			break;
		if (ev.type == YAML_STREAM_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		if (ev.type == YAML_STREAM_START_EVENT ||
		    ev.type == YAML_DOCUMENT_START_EVENT ||
		    ev.type == YAML_DOCUMENT_END_EVENT) {
			yaml_event_delete(&ev);
			continue;
		}
		if (root) {
			yaml_event_delete(&ev);
			break;
		}
		root = yj_node(&p, &ev);
		if (!root)
			break;
	}
	if (p.error != YAML_NO_ERROR) {
		json_decref(root);
		root = NULL;
	}
	yaml_parser_delete(&p);
	return root;
}

#endif
