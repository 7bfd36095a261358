/*
 * check_main.h - the main() every Check test program shares: run one
 * suite, print Check's summary line, exit non-zero on any failure.
 */
#ifndef FLOWBENCH_CHECK_MAIN_H
#define FLOWBENCH_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

#define CHECK_MAIN(suite_fn)                                            \
	int main(void)                                                  \
	{                                                               \
		SRunner *sr = srunner_create(suite_fn());               \
		int failed;                                             \
									\
		srunner_run_all(sr, CK_NORMAL);                         \
		failed = srunner_ntests_failed(sr);                     \
		srunner_free(sr);                                       \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS;            \
	}

#endif
