/*
 * yaml.c - the results file as YAML, with libyaml's emitter.
 *
 * Block style, one document, except the short lists of numbers
 * (histogram buckets), which are one line each.  Strings are always double-quoted and keys
 * quoted unless they are plain identifiers, so a reader never mistakes
 * "true", "null" or "99.9" for anything but a string; numbers, booleans
 * and null are plain scalars.  Reals use the same significant digits as
 * json.c (and a ".0" where %g leaves none, as jansson does).
 */
#include "runtime/results/doc.h"

#include <ctype.h>
#include <math.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

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

int results_write_yaml(FILE *f, const struct run_results *r)
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
