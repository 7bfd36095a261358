/*
 * diskstats.h - what the devices under the filesets did over the window.
 *
 * fio ends with "Disk stats (read/write)": per device the I/Os, merges,
 * time and utilisation the kernel counted (/proc/diskstats), so a user
 * sees what reached the disk, not only what the benchmark asked for.
 * A fileset's directory is traced to its block device (st_dev, or the
 * mount's source for file systems with anonymous device numbers such as
 * btrfs); a directory on no block device (tmpfs, NFS, overlay) is named
 * as such; a device target's path (a block device) is that device.  The counts are the whole device's: other processes' I/O on
 * it during the window is in them.
 */
#ifndef FLOWBENCH_DISKSTATS_H
#define FLOWBENCH_DISKSTATS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { DISK_READ, DISK_WRITE };

/* One device's line of /proc/diskstats: the counters flowbench reports. */
struct disk_counters {
	uint64_t ios[2];        /* completed, [DISK_READ], [DISK_WRITE] */
	uint64_t merges[2];
	uint64_t sectors[2];    /* of 512 bytes, whatever the device's sector size */
	uint64_t ticks[2];      /* ms spent on them, summed over requests */
	uint64_t io_ticks;      /* ms during which the device had I/O in flight */
	uint64_t in_queue;      /* ms, weighted by the requests in flight */
};

/* The counters' growth over a window, and the share of it the device was busy. */
struct disk_usage {
	struct disk_counters d;
	double util_pct;        /* io_ticks / window, at most 100 (fio's util) */
};

/* A device under some fileset, with its counters at both ends of the window. */
struct disk_dev {
	unsigned major, minor;
	char name[32];          /* as /proc/diskstats names it */
	char on[96];            /* the disk of a partition, the slaves of dm/md; "" */
	struct disk_counters at_start, at_end;
	bool started, ended;    /* found in /proc/diskstats at that end */
};

/* A fileset directory on no block device. */
struct disk_none {
	char dir[256];
	char fstype[32];        /* "unknown" when the mount was not found */
};

/* The devices of a run's filesets (one entry per device) and the directories on none. */
struct disk_set {
	struct disk_dev *dev;
	int ndev;
	struct disk_none *none;
	int nnone;
	uint64_t start_ns, end_ns;   /* when the samples were read */
};

/*
 * One line of /proc/diskstats: "major minor name" and at least the 11
 * counters of every kernel since 2.6 (14 fields; 4.18 adds discards,
 * 5.5 flushes: 18 and 20 fields).  0, or -1 when the line is shorter or
 * not numbers.
 */
int diskstats_parse_line(const char *line, unsigned *major, unsigned *minor,
			 char *name, size_t namelen, struct disk_counters *c);

/* The line of device major:minor in a whole /proc/diskstats text.  0 or -1 (absent). */
int diskstats_find(const char *text, unsigned major, unsigned minor,
		   char *name, size_t namelen, struct disk_counters *c);

/* What /proc/self/mountinfo says of one mount. */
struct disk_mount {
	unsigned major, minor;      /* its st_dev (anonymous for btrfs, tmpfs, NFS...) */
	char point[PATH_MAX];       /* where, octal escapes (\040) decoded */
	char fstype[32];
	char source[PATH_MAX];      /* "/dev/vdb", "tmpfs", "server:/export" */
};

/*
 * The mount holding `path` (absolute, no symbolic links) whose files
 * have device major:minor, in a whole mountinfo text (cut into lines in
 * place): the mount with that device number, else the innermost mount
 * point above `path` (a btrfs subvolume numbers its files apart from
 * its mount), the later of two on one point.  0, or -1 when none.
 */
int diskstats_mount_lookup(char *mountinfo, const char *path, unsigned major,
			   unsigned minor, struct disk_mount *out);

/* end - start over `window_s` seconds (counters that went back count 0). */
void diskstats_delta(const struct disk_counters *start, const struct disk_counters *end,
		     double window_s, struct disk_usage *u);

/*
 * Trace each of `ndirs` directories to its device; a device met twice is
 * one entry.  0, or -1 when out of memory (after a warning: the run
 * goes on without disk statistics).
 */
int diskstats_init(struct disk_set *s, const char *const *dirs, int ndirs);

/* Read /proc/diskstats for every device, as the window's start or end, at `now_ns`. */
void diskstats_sample(struct disk_set *s, bool end, uint64_t now_ns);

/* Release what diskstats_init allocated. */
void diskstats_free(struct disk_set *s);

/*
 * "ios=0/1000, sectors=0/8000, merge=0/0, ticks=0/620, in_queue=620,
 * util=31.00%" (no newline): fio's fields in its order, read/write pairs.
 */
void diskstats_fields(FILE *out, const struct disk_usage *u);

#endif
