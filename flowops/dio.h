/*
 * dio.h - what O_DIRECT asks of a read or write: the alignment of its
 * offsets, sizes and buffer addresses on the file's device, found once
 * (statx, else sysfs, else assumed), and the check of a flowop's
 * iosize, misalign and buffer against it with a message that names
 * both numbers.
 */
#ifndef FLOWBENCH_FLOWOPS_DIO_H
#define FLOWBENCH_FLOWOPS_DIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where an alignment came from (decides how a message names it). */
enum dio_source {
	DIO_NONE,       /* not probed yet, or the probe found nothing */
	DIO_STATX,      /* statx(STATX_DIOALIGN) of the file (Linux 6.1+) */
	DIO_SYSFS,      /* the device's queue/logical_block_size */
	DIO_BLKDEV,     /* a block device itself: BLKSSZGET (or its sysfs size) */
	DIO_ASSUMED,    /* neither answered: 512 assumed */
	DIO_UNSUPPORTED,/* statx says the file cannot do direct I/O */
};

struct dio_align {
	enum dio_source src;
	uint32_t offset_align;  /* file offsets and sizes: multiples of this */
	uint32_t mem_align;     /* buffer addresses: multiples of this */
	char dev[64];           /* "/dev/vda1", or "" when unknown */
};

/*
 * Probe the file open as `fd` (fd >= 0) or, with fd < 0, the file or
 * directory `path`.  A directory never answers statx(STATX_DIOALIGN),
 * so for it only the device is found (the logical block size, used for
 * offsets and buffers alike, as kernels before 6.0 require); a device
 * without a block device behind it (tmpfs, NFS) gives DIO_NONE for a
 * path and DIO_ASSUMED for a file.  Never fails.
 */
void dio_probe(int fd, const char *path, struct dio_align *a);

/* "the logical block size of /dev/vda" and the like, into buf. */
void dio_describe(const struct dio_align *a, const char *path, char *buf,
		  size_t len);

/*
 * Check one flowop's direct I/O against `a`: iosize (0: sampled per op,
 * not checked), misalign (added to every offset) and the buffer
 * address.  0 if every I/O can be issued, else -1 with the message
 * (without the "flowop NAME: " prefix) in msg, naming the number that
 * does not fit and the alignment it misses.
 */
int dio_check(const struct dio_align *a, const char *path, uint64_t iosize,
	      uint64_t misalign, const void *buf, uint64_t memoffset,
	      char *msg, size_t len);

/*
 * filebench puts a direct-I/O buffer at any multiple of this many bytes
 * (reference 4.0, "I/O buffer"): what `--compat filebench` does too.
 */
#define DIO_FILEBENCH_ALIGN 512

/*
 * dio_check() for buffers placed as filebench places them (--compat
 * filebench): anywhere on a DIO_FILEBENCH_ALIGN boundary, so the device
 * must accept every such address, whatever one buffer's address is.
 */
int dio_check_filebench(const struct dio_align *a, const char *path,
			uint64_t iosize, uint64_t misalign, char *msg, size_t len);

#endif
