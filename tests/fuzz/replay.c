/*
 * replay.c - run the fuzz target on given files, without libFuzzer.
 *
 * Linked with fuzz_compile.c into tests/fuzz/replay, which every build
 * has (plain, sanitized, fuzzing), so `make check` replays the saved
 * crash reproducers in tests/fuzz/regressions/ (tests/fuzz/regressions.sh)
 * without clang's libFuzzer and without a fuzzing run.  A regression
 * shows as a crash, a sanitizer report or a hang of this program.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read a whole file; NULL (errno set) on failure. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (cap - n < 4096) {
			uint8_t *nb = realloc(buf, cap ? cap * 2 : 8192);

			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap = cap ? cap * 2 : 8192;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	if (ferror(f)) {
		free(buf);
		fclose(f);
		errno = EIO;
		return NULL;
	}
	fclose(f);
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: replay FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		size_t len = 0;
		uint8_t *buf = slurp(argv[i], &len);

		if (!buf) {
			fprintf(stderr, "replay: cannot read '%s': %s\n", argv[i],
				strerror(errno));
			return 1;
		}
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		printf("ok %s\n", argv[i]);
	}
	return 0;
}
