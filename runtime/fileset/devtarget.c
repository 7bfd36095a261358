/*
 * devtarget.c - a plan's device made ready or judged (why: devtarget.h).
 * The rules themselves are blkdev.c's; this file adds what the workload
 * and the command line say: whether it writes, whether it may.
 */
#include "runtime/fileset/devtarget.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>

#include "runtime/base/log.h"

/* `pct` % of `bytes` (pct > 0), else `abs`; rounded down to `unit`. */
static uint64_t extent(uint64_t bytes, double pct, uint64_t abs, unsigned unit)
{
	uint64_t v = pct > 0 ? (uint64_t)((long double)bytes * pct / 100) : abs;

	return unit ? v - v % unit : v;
}

/* The region of the device, checked against its size.  0 or -1 (logged). */
static int region(const struct plan_fileset *pf, const struct blkdev *d,
		  uint64_t *base, uint64_t *len)
{
	*base = extent(d->bytes, pf->dev_offset_pct, pf->dev_offset, d->lbs);
	if (pf->dev_offset_pct <= 0 && pf->dev_offset % d->lbs) {
		log_error("device '%s': offset=%" PRIu64 " is not a multiple of %s's "
			  "logical block size (%u bytes)", pf->name, pf->dev_offset,
			  pf->path, d->lbs);
		return -1;
	}
	if (*base >= d->bytes) {
		log_error("device '%s': offset %" PRIu64 " is at or beyond the end of %s "
			  "(%" PRIu64 " bytes)", pf->name, *base, pf->path, d->bytes);
		return -1;
	}
	*len = pf->dev_size_pct > 0 || pf->dev_size ?
	       extent(d->bytes, pf->dev_size_pct, pf->dev_size, pf->dev_size_pct > 0 ? d->lbs : 0) :
	       d->bytes - *base;
	if (*len == 0 || *len > d->bytes - *base) {
		log_error("device '%s': offset %" PRIu64 " + size %" PRIu64 " is beyond the "
			  "end of %s (%" PRIu64 " bytes)", pf->name, *base, *len, pf->path,
			  d->bytes);
		return -1;
	}
	return 0;
}

/* Some device of the plan on the same device as d is written through. */
static bool written(const struct plan *p, const struct blkdev *d)
{
	for (int i = 0; i < p->nfilesets; i++) {
		struct blkdev o;
		char why[256];

		if (p->filesets[i].is_device && p->filesets[i].dev_writes &&
		    blkdev_lookup(p->filesets[i].path, &o, why, sizeof(why)) == 0 &&
		    o.rdev == d->rdev)
			return true;
	}
	return false;
}

/*
 * What the workload asks of device pf: -1 (refused: logged), 0 read, 1
 * write (through it or another `define device` of the same device: one
 * descriptor serves both).
 */
static int wants_write(const struct plan *p, const struct plan_fileset *pf,
		       const struct blkdev *d, FILE *out)
{
	if (!written(p, d))
		return 0;
	if (blkdev_named(d, p->write_devices, p->nwrite_devices))
		return 1;
	if (out)
		fprintf(out, "%s: device '%s' (%s): writes refused: the workload writes "
			"to it and the command line does not name it (--write-device %s)\n",
			p->filename, pf->name, pf->path, pf->path);
	else
		log_error("%s:%d:%d: device '%s': the workload writes to %s, which the "
			  "command line does not name: writing a device needs "
			  "--write-device %s (flowbench check shows what else would be "
			  "refused)", p->filename, pf->loc.line, pf->loc.col, pf->name,
			  pf->path, pf->path);
	return -1;
}

int devtarget_open(const struct plan *p, int idx, const struct blkdev *const *held, int nheld,
		   struct blkdev *d, uint64_t *base, uint64_t *len)
{
	const struct plan_fileset *pf = &p->filesets[idx];
	char what[256], why[BLKDEV_WHY_MAX];
	int w;

	snprintf(what, sizeof(what), "%s:%d:%d: device '%s'", p->filename, pf->loc.line,
		 pf->loc.col, pf->name);
	if (blkdev_lookup(pf->path, d, why, sizeof(why)) < 0) {
		log_error("%s: %s", what, why);
		return -1;
	}
	if ((w = wants_write(p, pf, d, NULL)) < 0)
		return -1;
	for (int j = 0; j < nheld; j++)
		if (held[j]->fd >= 0 && held[j]->rdev == d->rdev) {
			/* held already for another `define device`: the same claim */
			*d = *held[j];
			if ((d->fd = fcntl(held[j]->fd, F_DUPFD_CLOEXEC, 0)) < 0) {
				log_error("%s: dup: %s", what, strerror(errno));
				return -1;
			}
			goto opened;
		}
	if (blkdev_open(pf->path, w == 1,
			blkdev_named(d, p->destroy_devices, p->ndestroy_devices), what, d) < 0)
		return -1;
opened:
	if (region(pf, d, base, len) < 0) {
		blkdev_close(d);
		return -1;
	}
	log_info("Device %s: %s (%s, %" PRIu64 " bytes, logical block %u), bytes %"
		 PRIu64 "-%" PRIu64 ", %s", pf->name, pf->path, d->name, d->bytes, d->lbs,
		 *base, *base + *len, d->writable ? "read and written" : "read only");
	return 0;
}

int devtarget_check(const struct plan *p, FILE *out)
{
	int refused = 0;

	for (int i = 0; i < p->nfilesets; i++) {
		const struct plan_fileset *pf = &p->filesets[i];
		char why[BLKDEV_WHY_MAX];
		const char *no;
		struct blkdev d;
		int w;

		if (!pf->is_device)
			continue;
		if (blkdev_lookup(pf->path, &d, why, sizeof(why)) < 0) {
			fprintf(out, "%s: device '%s': %s\n", p->filename, pf->name, why);
			refused++;
			continue;
		}
		if ((w = wants_write(p, pf, &d, out)) < 0) {
			refused++;
			continue;
		}
		if (w == 0) {
			fprintf(out, "%s: device '%s' (%s, %s, %" PRIu64 " bytes): read only\n",
				p->filename, pf->name, pf->path, d.name, d.bytes);
			continue;
		}
		no = blkdev_refusal(&d, -1, blkdev_named(&d, p->destroy_devices,
							 p->ndestroy_devices), why, sizeof(why));
		if (no) {
			fprintf(out, "%s: device '%s' (%s, %s): writes refused: %s\n",
				p->filename, pf->name, pf->path, d.name, no);
			refused++;
		} else {
			fprintf(out, "%s: device '%s' (%s, %s, %" PRIu64 " bytes): read and "
				"written (--write-device)\n", p->filename, pf->name, pf->path,
				d.name, d.bytes);
		}
	}
	return refused;
}
