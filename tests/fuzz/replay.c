/*
 * replay.c - run the fuzz target on given files, without libFuzzer.
 *
 * Linked with fuzz_compile.c into tests/fuzz/replay, which every build
 * has (plain, sanitized, fuzzing), so `make check` replays the saved
 * crash reproducers in tests/fuzz/regressions/ (tests/fuzz/regressions.sh)
 * without clang's libFuzzer and without a fuzzing run.  A regression
 * shows as a crash, a sanitizer report or a hang of this program.  Files
 * are read as flowbench reads a workload (frontend_read()).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lang/frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: replay FILE...\n");
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		size_t len = 0;
		uint8_t *buf = (uint8_t *)frontend_read(argv[i], &len, stderr);

		if (!buf)
			return 1;
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		printf("ok %s\n", argv[i]);
	}
	return 0;
}
