/*
 * dio.c - the alignment O_DIRECT needs, asked of the kernel.
 *
 * Direct I/O goes to the device without the page cache, so every offset,
 * size and buffer address must suit the device: the file system says
 * what it accepts through statx(STATX_DIOALIGN) since Linux 6.1 (zero
 * offset alignment: no direct I/O for that file); before, the rule is
 * the device's logical block size, read from sysfs through the file
 * system's st_dev (a partition's queue is its parent's).  The flowops
 * check their settings against it once, before any op, so that an
 * impossible combination is an error naming both numbers instead of a
 * bare EINVAL from the first pread.
 */
#include "flowops/dio.h"

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <unistd.h>

/* A positive number from a one-line sysfs file, or 0. */
static uint32_t read_u32(const char *path)
{
	FILE *f = fopen(path, "re");
	unsigned long v = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%lu", &v) != 1 || v > UINT32_MAX)
		v = 0;
	fclose(f);
	return (uint32_t)v;
}

/*
 * The device MAJ:MIN: its name (the sysfs link's last component) and
 * logical block size, 0 when sysfs does not know it (no block device
 * behind the file system: tmpfs, NFS, btrfs's anonymous st_dev).
 */
static uint32_t sysfs_block_size(unsigned maj, unsigned min, char *dev, size_t len)
{
	char path[96], link[PATH_MAX];
	uint32_t lbs;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", maj, min);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		const char *name;

		link[n] = '\0';
		name = strrchr(link, '/');
		snprintf(dev, len, "/dev/%.48s", name ? name + 1 : link);
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/queue/logical_block_size",
		 maj, min);
	lbs = read_u32(path);
	if (!lbs) {     /* a partition: the whole disk's queue */
		snprintf(path, sizeof(path),
			 "/sys/dev/block/%u:%u/../queue/logical_block_size", maj, min);
		lbs = read_u32(path);
	}
	return lbs;
}

/*
 * A block device itself (`define device`): its own logical block size,
 * from BLKSSZGET on the open device, else from sysfs by its number (the
 * statx of a device node describes the node's file system, not it).
 */
static void blkdev_align(int fd, const struct statx *sx, const char *path,
			 struct dio_align *a)
{
	char ignored[64];
	int lbs = 0;

	if (fd < 0 || ioctl(fd, BLKSSZGET, &lbs) < 0 || lbs <= 0)
		lbs = (int)sysfs_block_size(sx->stx_rdev_major, sx->stx_rdev_minor,
					    ignored, sizeof(ignored));
	snprintf(a->dev, sizeof(a->dev), "%s", path ? path : "the device");
	a->src = DIO_BLKDEV;
	a->offset_align = a->mem_align = lbs > 0 ? (uint32_t)lbs : 512;
	if (lbs <= 0)
		a->src = DIO_ASSUMED;
}

void dio_probe(int fd, const char *path, struct dio_align *a)
{
	struct statx sx;
	uint32_t lbs;

	memset(a, 0, sizeof(*a));
	if (statx(fd >= 0 ? fd : AT_FDCWD, fd >= 0 ? "" : path,
		  fd >= 0 ? AT_EMPTY_PATH : 0,
#ifdef STATX_DIOALIGN
		  STATX_DIOALIGN |
#endif
		  STATX_TYPE, &sx) != 0) {
		if (fd >= 0) {
			a->src = DIO_ASSUMED;
			a->offset_align = a->mem_align = 512;
		}
		return;
	}
	if (S_ISBLK(sx.stx_mode)) {
		blkdev_align(fd, &sx, path, a);
		return;
	}
	lbs = sysfs_block_size(sx.stx_dev_major, sx.stx_dev_minor, a->dev,
			       sizeof(a->dev));
#ifdef STATX_DIOALIGN
	if (sx.stx_mask & STATX_DIOALIGN) {
		if (sx.stx_dio_offset_align == 0) {
			a->src = DIO_UNSUPPORTED;
			return;
		}
		a->src = DIO_STATX;
		a->offset_align = sx.stx_dio_offset_align;
		a->mem_align = sx.stx_dio_mem_align ? sx.stx_dio_mem_align : 1;
		return;
	}
#endif
	if (lbs) {
		a->src = DIO_SYSFS;
		a->offset_align = a->mem_align = lbs;
	} else if (fd >= 0) {
		a->src = DIO_ASSUMED;
		a->offset_align = a->mem_align = 512;
	}
}

void dio_describe(const struct dio_align *a, const char *path, char *buf,
		  size_t len)
{
	const char *dev = a->dev[0] ? a->dev : path;

	switch (a->src) {
	case DIO_STATX:
		snprintf(buf, len, "the direct-I/O alignment of %s, from statx", dev);
		break;
	case DIO_SYSFS:
		snprintf(buf, len, "the logical block size of %s", dev);
		break;
	case DIO_BLKDEV:
		snprintf(buf, len, "the logical block size of the device %s", dev);
		break;
	default:
		snprintf(buf, len, "assumed: the device of %s is unknown", path);
		break;
	}
}

/* iosize and misalign against the offset alignment: 0, or -1 with msg. */
static int dio_check_sizes(const struct dio_align *a, const char *why,
			   uint64_t iosize, uint64_t misalign, char *msg, size_t len)
{
	const char *name = NULL;
	uint64_t bad = 0;

	if (iosize % a->offset_align) {
		name = "iosize";
		bad = iosize;
	} else if (misalign % a->offset_align) {
		name = "misalign";
		bad = misalign;
	}
	if (!name)
		return 0;
	snprintf(msg, len, "directio needs I/O sizes and offsets in multiples "
		 "of %" PRIu32 " bytes (%s), but %s is %" PRIu64,
		 a->offset_align, why, name, bad);
	return -1;
}

/* What every check starts with: a probe that found nothing, or no O_DIRECT. */
static int dio_check_usable(const struct dio_align *a, const char *path,
			    char *msg, size_t len)
{
	if (a->src != DIO_UNSUPPORTED)
		return 0;
	snprintf(msg, len, "the file system of %s does not support O_DIRECT "
		 "(directio)", path);
	return -1;
}

int dio_check(const struct dio_align *a, const char *path, uint64_t iosize,
	      uint64_t misalign, const void *buf, uint64_t memoffset,
	      char *msg, size_t len)
{
	char why[PATH_MAX + 64];
	uint64_t past;

	if (a->src == DIO_NONE)
		return 0;
	if (dio_check_usable(a, path, msg, len) != 0)
		return -1;
	dio_describe(a, path, why, sizeof(why));
	if (dio_check_sizes(a, why, iosize, misalign, msg, len) != 0)
		return -1;
	past = (uint64_t)(uintptr_t)buf % a->mem_align;
	if (past) {
		snprintf(msg, len, "directio needs buffers aligned to %" PRIu32
			 " bytes in memory (%s), but memoffset %" PRIu64 " puts the "
			 "buffer %" PRIu64 " bytes past such a boundary",
			 a->mem_align, why, memoffset, past);
		return -1;
	}
	return 0;
}

int dio_check_filebench(const struct dio_align *a, const char *path,
			uint64_t iosize, uint64_t misalign, char *msg, size_t len)
{
	char why[PATH_MAX + 64];

	if (a->src == DIO_NONE)
		return 0;
	if (dio_check_usable(a, path, msg, len) != 0)
		return -1;
	dio_describe(a, path, why, sizeof(why));
	if (dio_check_sizes(a, why, iosize, misalign, msg, len) != 0)
		return -1;
	if (DIO_FILEBENCH_ALIGN % a->mem_align == 0)
		return 0;
	snprintf(msg, len, "directio needs buffers aligned to %" PRIu32 " bytes in "
		 "memory (%s), but --compat filebench places buffers on %d-byte "
		 "boundaries as filebench does, which this device refuses; run "
		 "without --compat filebench", a->mem_align, why, DIO_FILEBENCH_ALIGN);
	return -1;
}
