/*
 * html_async.h - fio's split of asynchronous I/O on the page of
 * `flowbench report`: for a flowop that has an "async" block in some
 * file (aioread, aiowrite), a row per file and run with its engine and
 * depth, slat, clat and lat at p50 and p99 and fio's IO depths line.
 */
#ifndef FLOWBENCH_COMPARE_HTML_ASYNC_H
#define FLOWBENCH_COMPARE_HTML_ASYNC_H

#include <stdio.h>

#include "compare/load.h"

/* The table for flowop `k`; nothing when no run of any file has the block. */
void html_async_section(FILE *out, const struct rf_doc *docs, int ndocs,
			const struct rf_key *k);

#endif
