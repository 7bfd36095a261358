/*
 * oom.c - allocations that end the process when memory runs out (why,
 * and where this is the policy: oom.h).
 */
#include "plan/oom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void oom_exit(void)
{
	fputs("flowbench: error: out of memory\n", stderr);
	exit(EXIT_FAILURE);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		oom_exit();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom_exit();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom_exit();
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	p = reallocarray(p, n ? n : 1, size ? size : 1);
	if (!p)
		oom_exit();
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		oom_exit();
	return d;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (!d)
		oom_exit();
	return d;
}
