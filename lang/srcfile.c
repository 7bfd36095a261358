/*
 * srcfile.c - read a whole file into memory (see srcfile.h).
 *
 * stdio rather than one fstat + read, so pipes and /dev/stdin work too.
 */
#include "lang/srcfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

char *srcfile_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t got;

		if (cap - n < 4096) {
			char *nb = realloc(buf, cap ? cap * 2 : 8192);

			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap = cap ? cap * 2 : 8192;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;

		free(buf);
		fclose(f);
		errno = e ? e : EIO;
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}
