/*
 * blkdev.c - block devices as targets, and every reason not to write one
 * (why: blkdev.h).  Everything is read from the kernel's own tables
 * (/sys/dev/block, /proc/self/mountinfo, /proc/swaps) by device number,
 * never by name, so a link or a second name of a device changes nothing;
 * the signatures are libblkid's.
 */
#include "runtime/fileset/blkdev.h"

#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/fs.h>

#include "runtime/base/log.h"

/* Devices related to one (its partitions and holders; the system's): bounded. */
#define REL_MAX 128

struct devset {
	dev_t dev[REL_MAX];
	char name[REL_MAX][64];
	int n;
};

/*
 * snprintf into buf; a path or name too long for it stays cut (sysfs
 * names are short; a cut one only fails to open).
 */
static void fmt(char *buf, size_t len, const char *f, ...)
	__attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;

	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
}

static bool set_has(const struct devset *s, dev_t d)
{
	for (int i = 0; i < s->n; i++)
		if (s->dev[i] == d)
			return true;
	return false;
}

static void set_add(struct devset *s, dev_t d, const char *name)
{
	if (s->n >= REL_MAX || set_has(s, d))
		return;
	s->dev[s->n] = d;
	fmt(s->name[s->n], sizeof(s->name[0]), "%s", name);
	s->n++;
}

/* The first line of a small sysfs file, without its newline. */
static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int read_u64(const char *path, uint64_t *v)
{
	char buf[64], *end;

	if (read_line(path, buf, sizeof(buf)) < 0)
		return -1;
	errno = 0;
	*v = strtoull(buf, &end, 10);
	return end == buf || errno ? -1 : 0;
}

/* "M:m" as a device number. */
static int parse_devno(const char *s, dev_t *d)
{
	unsigned ma, mi;

	if (sscanf(s, "%u:%u", &ma, &mi) != 2)
		return -1;
	*d = makedev(ma, mi);
	return 0;
}

/* The sysfs directory of device `d`, resolved (/sys/devices/.../block/sda/sda1). */
static int sys_dir(dev_t d, char *buf)
{
	char link[64];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(d), minor(d));
	return realpath(link, buf) ? 0 : -1;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* A device of /sys/class/block by its kernel name. */
static int class_dev(const char *name, dev_t *d)
{
	char path[PATH_MAX], buf[64];

	fmt(path, sizeof(path), "/sys/class/block/%s/dev", name);
	return read_line(path, buf, sizeof(buf)) < 0 ? -1 : parse_devno(buf, d);
}

/*
 * Every device below `sub` (holders, slaves) of device `d`, recursively,
 * into s; with `disks`, each one's whole disk too (a partition's parent).
 */
static void add_linked(struct devset *s, dev_t d, const char *sub, bool disks, int depth)
{
	char dir[PATH_MAX], path[PATH_MAX + 16];
	struct dirent *de;
	DIR *dp;

	if (depth > 16 || sys_dir(d, dir) < 0)
		return;
	if (disks) {
		fmt(path, sizeof(path), "%s/partition", dir);
		if (access(path, F_OK) == 0) {
			char parent[PATH_MAX];
			dev_t pd;

			fmt(parent, sizeof(parent), "%s", dir);
			*strrchr(parent, '/') = '\0';
			if (class_dev(base_name(parent), &pd) == 0)
				set_add(s, pd, base_name(parent));
		}
	}
	fmt(path, sizeof(path), "%s/%s", dir, sub);
	if (!(dp = opendir(path)))
		return;
	while ((de = readdir(dp))) {
		dev_t h;

		if (de->d_name[0] == '.' || class_dev(de->d_name, &h) < 0 || set_has(s, h))
			continue;
		set_add(s, h, de->d_name);
		add_linked(s, h, sub, disks, depth + 1);
	}
	closedir(dp);
}

/*
 * What sits on device d: itself, its partitions, and every holder of
 * either (dm, md, LVM volumes), recursively.
 */
static void related(const struct blkdev *d, struct devset *s)
{
	char dir[PATH_MAX], path[PATH_MAX + 300];
	struct dirent *de;
	DIR *dp;
	int n;

	s->n = 0;
	set_add(s, d->rdev, d->name);
	if (sys_dir(d->rdev, dir) == 0 && (dp = opendir(dir))) {
		while ((de = readdir(dp))) {
			char buf[64];
			dev_t pd;

			if (de->d_name[0] == '.')
				continue;
			fmt(path, sizeof(path), "%s/%s/partition", dir, de->d_name);
			if (access(path, F_OK) < 0)
				continue;
			fmt(path, sizeof(path), "%s/%s/dev", dir, de->d_name);
			if (read_line(path, buf, sizeof(buf)) == 0 && parse_devno(buf, &pd) == 0)
				set_add(s, pd, de->d_name);
		}
		closedir(dp);
	}
	n = s->n;
	for (int i = 0; i < n; i++)
		add_linked(s, s->dev[i], "holders", false, 0);
}

/*
 * The devices of the running system: those holding /, /usr, /boot and
 * this program, with the disks and the devices below them (slaves).
 */
static void system_devices(struct devset *s)
{
	static const char *const paths[] = { "/", "/usr", "/boot", "/proc/self/exe" };

	s->n = 0;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		struct stat st;
		char dir[PATH_MAX];

		if (stat(paths[i], &st) < 0 || major(st.st_dev) == 0 ||
		    sys_dir(st.st_dev, dir) < 0)
			continue;
		set_add(s, st.st_dev, base_name(dir));
		add_linked(s, st.st_dev, "slaves", true, 0);
	}
	for (int i = 0, n = s->n; i < n; i++)
		add_linked(s, s->dev[i], "slaves", true, 0);
}

/* A field of mountinfo or /proc/swaps with its \040 escapes undone, in place. */
static void mi_unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] && s[3]) {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* The block device a path names, if it is one. */
static bool path_dev(const char *path, dev_t *d)
{
	struct stat st;

	if (path[0] != '/' || stat(path, &st) < 0 || !S_ISBLK(st.st_mode))
		return false;
	*d = st.st_rdev;
	return true;
}

/* A device of `s` mounted somewhere (/proc/self/mountinfo): its index, else -1. */
static int mounted(const struct devset *s, char *where, size_t len)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int hit = -1;

	if (!f)
		return -1;
	while (hit < 0 && getline(&line, &cap, f) > 0) {
		char *save = NULL, *tok, *fields[6] = { 0 }, *source = NULL;
		int k = 0;
		dev_t d;

		for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
			if (k < 6)
				fields[k] = tok;
			if (k >= 6 && strcmp(tok, "-") == 0) {
				strtok_r(NULL, " \n", &save);          /* the type */
				source = strtok_r(NULL, " \n", &save);
				break;
			}
			k++;
		}
		if (!fields[2] || !fields[4])
			continue;
		mi_unescape(fields[4]);
		for (int i = 0; i < s->n && hit < 0; i++)
			if ((parse_devno(fields[2], &d) == 0 && d == s->dev[i]) ||
			    (source && (mi_unescape(source), path_dev(source, &d)) && d == s->dev[i])) {
				hit = i;
				snprintf(where, len, "%s", fields[4]);
			}
	}
	free(line);
	fclose(f);
	return hit;
}

/* A device of `s` in use as swap (/proc/swaps): its index, else -1. */
static int swapped(const struct devset *s)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[PATH_MAX + 128];
	int hit = -1;

	if (!f)
		return -1;
	if (!fgets(line, sizeof(line), f)) {   /* the header */
		fclose(f);
		return -1;
	}
	while (hit < 0 && fgets(line, sizeof(line), f)) {
		dev_t d;

		line[strcspn(line, " \t\n")] = '\0';
		mi_unescape(line);
		for (int i = 0; i < s->n && hit < 0; i++)
			if (path_dev(line, &d) && d == s->dev[i])
				hit = i;
	}
	fclose(f);
	return hit;
}

/* A signature libblkid finds on the open device: its phrase, or NULL. */
static const char *signature(int fd, char *why, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	const char *type = NULL, *usage = NULL;
	const char *res = NULL;
	int rc;

	if (!pr) {
		snprintf(why, len, "cannot probe it for signatures (libblkid: out of memory)");
		return why;
	}
	if (blkid_probe_set_device(pr, fd, 0, 0) < 0) {
		snprintf(why, len, "cannot probe it for signatures (libblkid cannot read it)");
		blkid_free_probe(pr);
		return why;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);
	rc = blkid_do_safeprobe(pr);
	if (rc == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &type, NULL) == 0) {
			blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
			snprintf(why, len, "it holds the signature of %s (%s; found by libblkid)",
				 type, usage && strcmp(usage, "raid") == 0 ?
				 "a RAID or LVM member" : usage && strcmp(usage, "filesystem") == 0 ?
				 "a file system" : usage && strcmp(usage, "crypto") == 0 ?
				 "an encrypted volume" : "data");
		} else if (blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) == 0) {
			snprintf(why, len, "it holds a partition table (%s, found by libblkid)",
				 type);
		} else {
			snprintf(why, len, "it holds a signature libblkid recognises");
		}
		res = why;
	} else if (rc == -2) {
		snprintf(why, len, "it holds several signatures (libblkid: ambivalent)");
		res = why;
	} else if (rc < 0) {
		snprintf(why, len, "cannot probe it for signatures (libblkid failed)");
		res = why;
	}
	blkid_free_probe(pr);
	return res;
}

/* The block sizes and size of an open device, by ioctl (the sysfs values otherwise). */
static void ioctl_sizes(struct blkdev *d, int fd)
{
	uint64_t bytes;
	int lbs;
	unsigned pbs;

	if (ioctl(fd, BLKGETSIZE64, &bytes) == 0)
		d->bytes = bytes;
	if (ioctl(fd, BLKSSZGET, &lbs) == 0 && lbs > 0)
		d->lbs = (unsigned)lbs;
	if (ioctl(fd, BLKPBSZGET, &pbs) == 0 && pbs > 0)
		d->pbs = pbs;
}

int blkdev_lookup(const char *path, struct blkdev *d, char *why, size_t len)
{
	char dir[PATH_MAX], p2[PATH_MAX + 64];
	struct stat st;
	uint64_t v;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->path = path;
	if (stat(path, &st) < 0) {
		snprintf(why, len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISBLK(st.st_mode)) {
		snprintf(why, len, "%s is not a block device (a device target must be one; "
			 "files are `define file`)", path);
		return -1;
	}
	d->rdev = st.st_rdev;
	d->lbs = d->pbs = 512;
	fmt(d->name, sizeof(d->name), "%u:%u", major(d->rdev), minor(d->rdev));
	fmt(d->disk, sizeof(d->disk), "%s", d->name);
	if (sys_dir(d->rdev, dir) < 0)
		return 0;               /* no sysfs: what the ioctls say later */
	fmt(d->name, sizeof(d->name), "%s", base_name(dir));
	fmt(d->disk, sizeof(d->disk), "%s", d->name);
	fmt(p2, sizeof(p2), "%s/partition", dir);
	if (access(p2, F_OK) == 0) {
		*strrchr(dir, '/') = '\0';
		fmt(d->disk, sizeof(d->disk), "%s", base_name(dir));
		fmt(p2, sizeof(p2), "%s/%s/size", dir, d->name);
	} else {
		fmt(p2, sizeof(p2), "%s/size", dir);
	}
	if (read_u64(p2, &v) == 0)
		d->bytes = v * 512;
	fmt(p2, sizeof(p2), "/sys/class/block/%s/queue/logical_block_size", d->disk);
	if (read_u64(p2, &v) == 0 && v)
		d->lbs = (unsigned)v;
	fmt(p2, sizeof(p2), "/sys/class/block/%s/queue/physical_block_size", d->disk);
	if (read_u64(p2, &v) == 0 && v)
		d->pbs = (unsigned)v;
	return 0;
}

/*
 * The reasons the kernel's tables give, before any open: the system's
 * device, mounted, swap, held by an LVM, MD or dm device.
 */
static const char *standing(const struct blkdev *d, char *why, size_t len)
{
	struct devset *rel = malloc(sizeof(*rel)), *sys = malloc(sizeof(*sys));
	char where[PATH_MAX];
	const char *res = NULL;
	int i;

	if (!rel || !sys) {
		snprintf(why, len, "out of memory while checking it");
		res = why;
		goto out;
	}
	related(d, rel);
	system_devices(sys);
	for (i = 0; i < rel->n && !res; i++)
		if (set_has(sys, rel->dev[i])) {
			snprintf(why, len, "it %s the running system (/, /usr, /boot or "
				 "flowbench itself is on %s)", i ? "holds" : "is a device of",
				 rel->name[i]);
			res = why;
		}
	for (i = 0; i < sys->n && !res; i++)
		if (sys->dev[i] == d->rdev) {
			snprintf(why, len, "it holds the running system (/, /usr, /boot or "
				 "flowbench itself is on it or on a device built on it)");
			res = why;
		}
	if (!res && (i = mounted(rel, where, sizeof(where))) >= 0) {
		if (rel->dev[i] == d->rdev)
			snprintf(why, len, "it is mounted at %s", where);
		else
			snprintf(why, len, "%s, which is on it, is mounted at %s", rel->name[i],
				 where);
		res = why;
	}
	if (!res && (i = swapped(rel)) >= 0) {
		snprintf(why, len, "%s is in use as swap (/proc/swaps)",
			 rel->dev[i] == d->rdev ? "it" : rel->name[i]);
		res = why;
	}
	if (!res && rel->n > 1) {
		char dir[PATH_MAX];
		dev_t h;

		/* a holder of the device or of a partition: LVM, MD, dm */
		for (i = 1; i < rel->n && !res; i++)
			if (class_dev(rel->name[i], &h) == 0 && sys_dir(h, dir) == 0) {
				char p[PATH_MAX + 16];

				fmt(p, sizeof(p), "%s/partition", dir);
				if (access(p, F_OK) == 0)
					continue;       /* a partition of its own, not a holder */
				snprintf(why, len, "it is a member of %s (an LVM, MD or "
					 "device-mapper device holds it: /sys/class/block/%s/holders)",
					 rel->name[i], d->name);
				res = why;
			}
	}
out:
	free(rel);
	free(sys);
	return res;
}

const char *blkdev_refusal(const struct blkdev *d, int fd, bool destroy, char *why,
			   size_t len)
{
	const char *res = standing(d, why, len);
	int own = -1;

	if (res)
		return res;
	if (fd < 0) {
		/* the caller holds nothing: an exclusive open tells "in use" */
		own = open(d->path, O_RDONLY | O_EXCL | O_CLOEXEC);
		if (own < 0) {
			snprintf(why, len, errno == EBUSY ? "it is in use: another program "
				 "holds it (an exclusive open fails: %s)" : "cannot open it to "
				 "check it: %s", strerror(errno));
			res = why;
			goto out;
		}
		if (!blkdev_same(d, own)) {
			snprintf(why, len, "%s changed while it was checked", d->path);
			res = why;
			goto out;
		}
		fd = own;
	}
	if (!destroy)
		res = signature(fd, why, len);
out:
	if (own >= 0)
		close(own);
	return res;
}

bool blkdev_named(const struct blkdev *d, const char *const *list, int n)
{
	for (int i = 0; i < n; i++) {
		dev_t x;

		if (path_dev(list[i], &x) && x == d->rdev)
			return true;
	}
	return false;
}

int blkdev_open(const char *path, bool write, bool destroy, const char *what,
		struct blkdev *d)
{
	char why[BLKDEV_WHY_MAX];
	const char *no;
	struct stat st;
	int fd;

	if (blkdev_lookup(path, d, why, sizeof(why)) < 0) {
		log_error("%s: %s", what, why);
		return -1;
	}
	if (write && (no = standing(d, why, sizeof(why))))
		goto refused;
	fd = open(path, (write ? O_RDWR | O_EXCL : O_RDONLY) | O_CLOEXEC);
	if (fd < 0) {
		if (write && errno == EBUSY)
			log_error("%s: refusing to write %s: it is in use: another program "
				  "holds it (an exclusive open fails: %s)", what, path,
				  strerror(errno));
		else
			log_error("%s: cannot open %s: %s", what, path, strerror(errno));
		return -1;
	}
	/* the device the checks judged, not another one the path now names */
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || st.st_rdev != d->rdev) {
		log_error("%s: %s changed while it was checked: it is not the block device "
			  "%u:%u any more", what, path, major(d->rdev), minor(d->rdev));
		close(fd);
		return -1;
	}
	if (write && !destroy && (no = signature(fd, why, sizeof(why)))) {
		close(fd);
		goto refused;
	}
	ioctl_sizes(d, fd);
	d->fd = fd;
	d->writable = write;
	return 0;
refused:
	log_error("%s: refusing to write %s: %s%s", what, path, no,
		  strstr(no, "signature") || strstr(no, "partition table") ?
		  "; --destroy-data with this device lets flowbench write over it" : "");
	return -1;
}

void blkdev_close(struct blkdev *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

bool blkdev_same(const struct blkdev *d, int fd)
{
	struct stat st;

	return fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == d->rdev;
}

int blkdev_reopen(const struct blkdev *d, int flags)
{
	char self[64];
	int fd;

	flags &= ~(O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND | O_EXCL);
	snprintf(self, sizeof(self), "/proc/self/fd/%d", d->fd);
	fd = open(self, flags | (d->writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (fd >= 0 && !blkdev_same(d, fd)) {
		close(fd);
		errno = ELOOP;
		return -1;
	}
	return fd;
}
