/*
 * usage.h - what the timed window cost the machine, as plain data: the
 * CPU of every worker process instance and of the master (cpuuse.h),
 * and the devices under the filesets (diskstats.h).  The engine fills
 * it, the printed report and the results files read it.
 */
#ifndef FLOWBENCH_USAGE_H
#define FLOWBENCH_USAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "runtime/measure/cpuuse.h"
#include "runtime/measure/diskstats.h"

/* One process's CPU use: a worker instance, or the master. */
struct usage_cpu {
	const char *process;        /* plan process name (the plan's memory); NULL: the master */
	uint64_t instance;          /* 1-based; 0 for the master */
	struct cpu_usage u;
};

/* One device's use; `found` false when /proc/diskstats lost it during the window. */
struct usage_disk {
	char name[32];
	char on[96];
	unsigned major, minor;
	bool found;
	struct disk_usage u;
};

struct usage_report {
	bool measured;              /* false: nothing here (the run never released) */
	double window_s;            /* what the CPU percentages divide by */
	double disk_window_s;       /* between the two reads of /proc/diskstats */
	struct usage_cpu *cpu;      /* [ncpu] worker instances, in the order started */
	int ncpu;
	struct usage_cpu master;
	struct usage_disk *disk;    /* [ndisk] */
	int ndisk;
	struct disk_none *none;     /* [nnone] fileset directories on no block device */
	int nnone;
};

/*
 * A client's use in a fixed size, for flowbench-mpi's ranks (its wire
 * and the results file's ranks[]): its workers summed, its master, its
 * first USAGE_SUMMARY_DISKS devices, and how many it had (ndisk_total),
 * so that a client with more says so instead of losing them unseen.
 */
#define USAGE_SUMMARY_DISKS 8
struct usage_summary {
	bool measured;
	double window_s, disk_window_s;
	struct cpu_usage workers;       /* every worker instance, summed */
	struct cpu_usage master;
	int ndisk;                      /* kept: at most USAGE_SUMMARY_DISKS */
	int ndisk_total;                /* under its filesets: ndisk or more */
	struct usage_disk disk[USAGE_SUMMARY_DISKS];
};

void usage_summarize(const struct usage_report *r, struct usage_summary *s);

/* The disks' part from a sampled set.  0, or -1 when out of memory. */
int usage_take_disks(struct usage_report *r, const struct disk_set *s);

/*
 * The printed lines, timestamped: a header with the window, one "CPU"
 * line per process definition (its instances summed, in the order of
 * r->cpu), one for the master, then "Disk" lines: each device, each
 * directory on none.  `note`, if not NULL, ends the header (whose
 * machine the lines describe, under flowbench-mpi).
 */
void usage_print(FILE *out, const struct usage_report *r, const char *note);

/* Deep copy (the process names stay shared).  0, or -1 when out of memory. */
int usage_copy(struct usage_report *dst, const struct usage_report *src);

void usage_free(struct usage_report *r);

#endif
