/*
 * loadnum.c - a results file's numbers read only when they can be
 * measurements (loadnum.h): `ops: "lots"`, `ops: -5`, `ops_per_s: 1e308`
 * are refused with their JSON path instead of becoming "-" or a
 * 309-digit cell.
 */
#include "compare/loadnum.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/log.h"

/* 2^63 - 1 as a double rounds to 2^63: "below" it is below 2^63. */
#define RF_MAX 9223372036854775808.0

/* Each kind's largest value, whether it is whole, and what it is called. */
static const struct {
	double max;
	bool whole;
	const char *noun;
} kinds[] = {
	[RF_COUNT] = { RF_MAX, true, "a count (a whole number from 0 to 2^63-1)" },
	[RF_RATE] = { RF_MAX, false, "a rate (a number per second from 0 to 2^63-1)" },
	[RF_MBPS] = { RF_MAX / 1048576.0, false,
		      "a rate in MiB/s (from 0 to 2^63-1 bytes per second)" },
	[RF_SECONDS] = { RF_MAX / 1e9, false,
			 "a time in seconds (from 0 to 2^63-1 ns)" },
	[RF_NS] = { RF_MAX, false, "a latency in ns (from 0 to 2^63-1)" },
	[RF_PERCENT] = { RF_MAX, false, "a percentage (from 0)" },
};

void rf_bad(struct rf_at *at, const char *prefix, const char *key,
	    const char *fmt, ...)
{
	char why[256], where[200] = "";
	va_list ap;

	if (at->bad)
		return;
	at->bad = true;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (at->line > 0)
		snprintf(where, sizeof(where), " (in the run from line %d)", at->line);
	log_error_to(at->err, "%s: %s%s%s%s%s%s: %s", at->file, at->run,
		     *at->run && (*prefix || *key) ? "." : "", prefix,
		     *prefix && *key ? "." : "", key, where, why);
}

/* The value as the file has it, cut to a cell's width. */
static void shown(const json_t *v, char *buf, size_t size)
{
	char *text = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

	snprintf(buf, size, "%s", text ? text : "?");
	if (text && strlen(text) >= size && size > 4)
		strcpy(buf + size - 4, "...");
	free(text);
}

double rf_num(struct rf_at *at, const char *prefix, const json_t *obj,
	      const char *key, enum rf_kind k)
{
	const json_t *v = json_object_get(obj, key);
	char text[48];
	double x;

	if (!v || json_is_null(v))
		return NAN;
	if (json_is_integer(v) && json_integer_value(v) >= 0 &&
	    (double)json_integer_value(v) <= kinds[k].max)
		return (double)json_integer_value(v);
	x = json_is_number(v) ? json_number_value(v) : NAN;
	if (json_is_number(v) && x >= 0 && x < kinds[k].max &&
	    (!kinds[k].whole || x == floor(x)))
		return x;
	shown(v, text, sizeof(text));
	rf_bad(at, prefix, key, "%s is not %s", text, kinds[k].noun);
	return NAN;
}
