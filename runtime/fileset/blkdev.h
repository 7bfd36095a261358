/*
 * blkdev.h - a block device as the target of flowops (`define device`),
 * and the rules that keep flowbench from writing over anything on one.
 *
 * Reading a device needs nothing but the OS's permission.  Writing one
 * needs the device named on the command line (--write-device), and is
 * refused even then, with the reason, when the device, one of its
 * partitions or something built on it is mounted or swap; when it is a
 * member of an LVM, MD or device-mapper device (holders); when another
 * program holds it (an exclusive open fails); when it holds a file
 * system, a partition table, RAID or LVM metadata (libblkid), unless
 * --destroy-data names it too; and always when it holds `/` or the
 * running system.  The device is opened once by its path, checked to be
 * the block device the checks judged (st_rdev), and held: for writing
 * with O_EXCL, so nothing can mount or claim it during the run; every
 * later open goes through that descriptor (/proc/self/fd), never the
 * path again, so a path swapped for another device cannot redirect it.
 */
#ifndef FLOWBENCH_BLKDEV_H
#define FLOWBENCH_BLKDEV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Room for a refusal's reason: a mount point and a device's name. */
#define BLKDEV_WHY_MAX 4352

struct blkdev {
	int fd;                   /* held for the run (workers inherit it); -1 */
	dev_t rdev;
	bool writable;            /* fd is O_RDWR | O_EXCL */
	uint64_t bytes;           /* the device's size */
	unsigned lbs, pbs;        /* logical and physical block sizes */
	char name[64];            /* the kernel's name (loop3, sdb1) */
	char disk[64];            /* the whole disk's name (= name for a disk) */
	const char *path;         /* as the workload names it (the caller's string) */
};

/*
 * What `path` is (stat, following links): a block device, its numbers,
 * size and block sizes read from sysfs; d->fd stays -1 and d->path is
 * `path` itself (it must outlive d).  0, or -1 with the reason in why.
 */
int blkdev_lookup(const char *path, struct blkdev *d, char *why, size_t len);

/*
 * Why writing device `d` would be refused (NULL: it would not be), the
 * phrase in `why`: the system's device, mounted, swap, held, in use, a
 * signature (unless `destroy`).  `fd` is an open descriptor of the
 * device for the signature probe, held exclusively by the caller; -1:
 * the check opens one itself (read-only, exclusive: "in use" is found
 * that way) and closes it.
 */
const char *blkdev_refusal(const struct blkdev *d, int fd, bool destroy, char *why,
			   size_t len);

/*
 * `path` is one of the `n` devices of `list` (the command line's
 * --write-device or --destroy-data): the same block device, by number.
 */
bool blkdev_named(const struct blkdev *d, const char *const *list, int n);

/*
 * Open device `path` for the run into *d: read-only, or for writing
 * (O_RDWR | O_EXCL, after every check of blkdev_refusal(), the probe
 * made on the held descriptor).  0, or -1 after logging the error
 * (`what`: "device 'd'").
 */
int blkdev_open(const char *path, bool write, bool destroy, const char *what,
		struct blkdev *d);
void blkdev_close(struct blkdev *d);

/*
 * A new descriptor of the held device with `flags` (O_DIRECT ...; the
 * access mode is the held one's), opened through /proc/self/fd and
 * checked to be the same device.  -1 with errno (ELOOP: not the same).
 */
int blkdev_reopen(const struct blkdev *d, int flags);

/* fd is the held device (same number, a block device): writes may go there. */
bool blkdev_same(const struct blkdev *d, int fd);

#endif
