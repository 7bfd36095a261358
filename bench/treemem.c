/*
 * treemem.c - memory per entry of a populated fileset (no disk).
 *
 * Builds a plan holding one fileset by hand, populates it with
 * fileset_populate() (the tree in private memory, the pick state in a
 * shared mapping) and prints the bytes each takes per entry, with the
 * population time.  Run by bench/fileset-create; links libflowbench.a.
 *
 * Usage: treemem [ENTRIES [DIRWIDTH]]   (default 10000000 20)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/fileset/fileset.h"
#include "runtime/base/log.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	struct plan_fileset pf = {
		.name = "treemem", .path = "/nonexistent", .size = 16384,
		.size_rv = -1, .dirwidth_rv = -1, .dirdepth_rv = -1,
		.dirgamma = 1500,
	};
	struct plan p;
	struct fileset_state fs;
	double t0, t1;

	memset(&p, 0, sizeof(p));
	pf.entries = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
	pf.dirwidth = argc > 2 ? strtod(argv[2], NULL) : 20;
	p.filesets = &pf;
	p.nfilesets = 1;
	log_init();
	t0 = now();
	if (fileset_populate(&fs, &p, 0) < 0)
		return 1;
	t1 = now();
	printf("entries %llu dirwidth %g dirs %u population %.3f s\n",
	       (unsigned long long)fs.tree.nfiles, pf.dirwidth, fs.tree.ndirs, t1 - t0);
	printf("private (tree) %zu bytes = %.3f bytes/entry\n", tree_bytes(&fs.tree),
	       (double)tree_bytes(&fs.tree) / (double)fs.tree.nfiles);
	printf("shared (pick state) %zu bytes = %.3f bytes/entry\n", fs.shm_len,
	       (double)fs.shm_len / (double)fs.tree.nfiles);
	printf("total %.3f bytes/entry\n",
	       (double)(tree_bytes(&fs.tree) + fs.shm_len) / (double)fs.tree.nfiles);
	fileset_release(&fs);
	return 0;
}
