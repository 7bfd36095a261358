/*
 * units.h - numbers for people in automatic units.  In runtime/base, the
 * floor every layer may include, because the run's text lines
 * (runtime/measure) and compare's table (compare/, which may not
 * include runtime/measure) must print a latency the same way.
 */
#ifndef FLOWBENCH_UNITS_H
#define FLOWBENCH_UNITS_H

#include <stddef.h>

/*
 * A latency for people, in automatic units with four significant
 * digits: whole ns below 1 µs, else µs, ms or s ("812ns", "3.605µs",
 * "12.35ms", "1.500s"); the unit is picked after rounding (999.96 µs is
 * "1.000ms").  Never more digits than the histogram's 1/256 bound and
 * the clock justify.  "-" for a non-finite value.  Returns buf.
 */
char *units_latency(char *buf, size_t len, double ns);

#endif
