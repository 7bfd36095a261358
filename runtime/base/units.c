/*
 * units.c - a latency in automatic units, one spelling for the run's
 * output and for compare's table (units.h says why it lives here).
 */
#include "runtime/base/units.h"

#include <math.h>
#include <stdio.h>

char *units_latency(char *buf, size_t len, double ns)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "µs", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	double a = fabs(ns), v;
	size_t u = 0;

	if (!isfinite(ns)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (a < 999.5) {
		snprintf(buf, len, "%.0fns", ns);
		return buf;
	}
	while (u + 1 < sizeof(units) / sizeof(units[0]) && a / units[u].ns >= 999.95)
		u++;
	v = ns / units[u].ns;
	a = fabs(v);
	snprintf(buf, len, a < 9.9995 ? "%.3f%s" : a < 99.995 ? "%.2f%s" : "%.1f%s",
		 v, units[u].unit);
	return buf;
}
