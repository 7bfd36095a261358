/*
 * results_env.c - what machine and file systems a run measured, for the
 * results file: host, kernel, CPUs, memory, the op clock and its cost,
 * and for each distinct fileset path the file system under it (statfs
 * magic; device, type and options from /proc/self/mountinfo; the block
 * device's disk with its model from sysfs), the CPU model, and for each
 * block device a `define device` targets its identity (model, serial,
 * size, block sizes, rotational, scheduler, queue depth, write cache, a
 * loop device's backing file: /sys/class/block).  Read once, after the
 * runs (and by `run --again` before its run, to say what differs from
 * the recorded machine); anything unreadable is left empty, never an
 * error.
 */
#include "runtime/results/results.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "runtime/base/clock.h"
#include "runtime/fileset/blkdev.h"

/* The nearest existing directory at or above `path` (fileset may be gone). */
static char *existing_dir(const char *path)
{
	char *p = strdup(path), *slash;
	struct stat st;

	while (p && stat(p, &st) < 0) {
		slash = strrchr(p, '/');
		if (!slash || slash == p) {
			strcpy(p, "/");
			break;
		}
		*slash = '\0';
	}
	return p;
}

/* Undo mountinfo's octal escapes (\040 for a space) in place. */
static void unescape_octal(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] && s[3]) {
			*o++ = (char)(((s[1] - '0') << 6) | ((s[2] - '0') << 3) | (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/*
 * The mountinfo line for the mount holding `real` (a resolved path on
 * device `dev`): the longest mount point that prefixes it, of device
 * `dev` when `by_dev` (else of any device; of mounts on the same point,
 * the last, the one on top).  True when one was found.
 */
static bool find_fs_mount(struct res_filesystem *f, const char *real, dev_t dev,
			  bool by_dev)
{
	FILE *in = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0, best = 0;

	if (!in)
		return false;
	while (getline(&line, &cap, in) > 0) {
		unsigned maj, min;
		char mnt[PATH_MAX], opts[1024], fstype[256], source[PATH_MAX];
		char *dash = strstr(line, " - ");
		size_t len;

		if (!dash ||
		    sscanf(line, "%*u %*u %u:%u %*s %4095s %1023s", &maj, &min, mnt, opts) != 4 ||
		    sscanf(dash + 3, "%255s %4095s", fstype, source) != 2)
			continue;
		if (by_dev && makedev(maj, min) != dev)
			continue;
		unescape_octal(mnt);
		len = strlen(mnt);
		if (strncmp(real, mnt, len) != 0 ||
		    (len > 1 && real[len] != '/' && real[len] != '\0'))
			continue;
		if (len + 1 < best || (by_dev && len + 1 == best))
			continue;
		best = len + 1;
		unescape_octal(source);
		free(f->type);
		free(f->device);
		free(f->options);
		f->type = strdup(fstype);
		f->device = strdup(source);
		f->options = strdup(opts);
	}
	free(line);
	fclose(in);
	return best > 0;
}

/* A sysfs attribute's first line, trimmed, malloc'ed; NULL when unreadable. */
static char *sysfs_line(const char *dir, const char *attr)
{
	char path[PATH_MAX + 64], buf[256];
	FILE *in;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	if (!(in = fopen(path, "re")))
		return NULL;
	if (!fgets(buf, sizeof(buf), in))
		buf[0] = '\0';
	fclose(in);
	n = strcspn(buf, "\n");
	while (n > 0 && buf[n - 1] == ' ')
		n--;
	buf[n] = '\0';
	return buf[0] ? strdup(buf) : NULL;
}

/*
 * The disk under device `dev` (a partition's parent), its model and
 * whether it rotates, from /sys/dev/block; nothing for a device that is
 * no block device (tmpfs, NFS, overlay).
 */
static void capture_disk(struct res_filesystem *f, dev_t dev)
{
	char link[64], real[PATH_MAX], attr[PATH_MAX + 16];
	char *rot, *slash;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, real))
		return;
	snprintf(attr, sizeof(attr), "%s/partition", real);
	if (access(attr, F_OK) == 0 && (slash = strrchr(real, '/')))
		*slash = '\0';
	slash = strrchr(real, '/');
	f->disk = strdup(slash ? slash + 1 : real);
	f->disk_model = sysfs_line(real, "device/model");
	rot = sysfs_line(real, "queue/rotational");
	f->rotational = rot ? rot[0] == '1' : -1;
	free(rot);
}

/* /proc/cpuinfo's "model name" (x86), else its "Processor"/"cpu model". */
static void capture_cpu_model(char *out, size_t size)
{
	static const char *const keys[] = { "model name", "Processor", "cpu model", "cpu" };
	FILE *in = fopen("/proc/cpuinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int best = (int)(sizeof(keys) / sizeof(keys[0]));

	out[0] = '\0';
	if (!in)
		return;
	while (best > 0 && getline(&line, &cap, in) > 0) {
		char *colon = strchr(line, ':');

		for (int k = 0; colon && k < best; k++) {
			size_t n = strlen(keys[k]);

			if (strncmp(line, keys[k], n) != 0 ||
			    line + n + strspn(line + n, " \t") != colon)
				continue;      /* "cpu family" is not "cpu" */
			colon += 1 + strspn(colon + 1, " \t");
			colon[strcspn(colon, "\n")] = '\0';
			snprintf(out, size, "%s", colon);
			best = k;
			break;
		}
	}
	free(line);
	fclose(in);
}

static void capture_fs(struct res_filesystem *f, const char *path)
{
	char *dir = existing_dir(path);
	char real[PATH_MAX];
	struct statfs sfs;
	struct stat st;

	f->path = strdup(path);
	f->rotational = -1;
	if (!dir)
		return;
	if (statfs(dir, &sfs) == 0)
		snprintf(f->magic, sizeof(f->magic), "0x%lx", (unsigned long)sfs.f_type);
	/*
	 * By device first; btrfs gives each subvolume's files a device
	 * number of its own, which no mountinfo line has: then by path.
	 */
	if (realpath(dir, real) && stat(real, &st) == 0) {
		if (!find_fs_mount(f, real, st.st_dev, true))
			find_fs_mount(f, real, st.st_dev, false);
		capture_disk(f, st.st_dev);
	}
	free(dir);
}

/* A sysfs file's first line, trimmed, malloc'ed; NULL when absent or empty. */
static char *sys_text(const char *disk, const char *file)
{
	char path[PATH_MAX], buf[512];
	FILE *f;
	size_t n;
	char *s;

	snprintf(path, sizeof(path), "/sys/class/block/%s/%s", disk, file);
	if (!(f = fopen(path, "re")))
		return NULL;
	s = fgets(buf, sizeof(buf), f);
	fclose(f);
	if (!s)
		return NULL;
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	while (*s == ' ')
		s++;
	return *s ? strdup(s) : NULL;
}

/* queue/scheduler's chosen one: "mq-deadline" of "[mq-deadline] none". */
static char *chosen_scheduler(const char *disk)
{
	char *all = sys_text(disk, "queue/scheduler"), *open, *close;

	if (!all)
		return NULL;
	open = strchr(all, '[');
	close = open ? strchr(open, ']') : NULL;
	if (open && close) {
		*close = '\0';
		memmove(all, open + 1, (size_t)(close - open));
	}
	return all;
}

/* Device `path`'s identity (blkdev.h for what it is; the rest from sysfs). */
static void capture_dev(struct res_device *d, const char *path)
{
	struct blkdev b;
	char why[256], *s;

	d->path = strdup(path);
	d->rotational = -1;
	if (blkdev_lookup(path, &b, why, sizeof(why)) < 0)
		return;
	snprintf(d->name, sizeof(d->name), "%s", b.name);
	d->size_bytes = b.bytes;
	d->logical_block_size = b.lbs;
	d->physical_block_size = b.pbs;
	d->model = sys_text(b.disk, "device/model");
	d->serial = sys_text(b.disk, "device/serial");
	if (!d->serial)
		d->serial = sys_text(b.disk, "serial");
	d->scheduler = chosen_scheduler(b.disk);
	d->write_cache = sys_text(b.disk, "queue/write_cache");
	d->backing_file = sys_text(b.disk, "loop/backing_file");
	if ((s = sys_text(b.disk, "queue/rotational"))) {
		d->rotational = strcmp(s, "1") == 0;
		free(s);
	}
	if ((s = sys_text(b.disk, "queue/nr_requests"))) {
		d->queue_depth = strtoull(s, NULL, 10);
		free(s);
	}
}

/* One entry per distinct device path of the plan's `define device`s. */
static void capture_devices(struct res_env *env, const struct plan *p)
{
	env->dev = calloc((size_t)p->nfilesets, sizeof(*env->dev));
	if (!env->dev)
		return;
	for (int i = 0; i < p->nfilesets; i++) {
		const char *path = p->filesets[i].path;
		bool seen = false;

		if (!p->filesets[i].is_device || !path)
			continue;
		for (int j = 0; j < env->ndev && !seen; j++)
			seen = strcmp(env->dev[j].path, path) == 0;
		if (!seen)
			capture_dev(&env->dev[env->ndev++], path);
	}
}

static void capture_filesystems(struct res_env *env, const struct plan *p)
{
	if (!p || p->nfilesets <= 0)
		return;
	env->fs = calloc((size_t)p->nfilesets, sizeof(*env->fs));
	if (!env->fs)
		return;
	for (int i = 0; i < p->nfilesets; i++) {
		const char *path = p->filesets[i].path;
		bool seen = false;

		if (!path || p->filesets[i].is_device)
			continue;       /* a device: capture_devices() */
		for (int j = 0; j < env->nfs && !seen; j++)
			seen = env->fs[j].path && strcmp(env->fs[j].path, path) == 0;
		if (!seen)
			capture_fs(&env->fs[env->nfs++], path);
	}
}

void results_capture_env(struct results *r, const struct plan *p,
			 const struct cache_report *cache, bool tsc, double clock_read_ns,
			 double clock_drift_ppm)
{
	struct res_env *env = &r->env;
	struct utsname u;
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);

	if (gethostname(env->hostname, sizeof(env->hostname) - 1) < 0)
		env->hostname[0] = '\0';
	if (uname(&u) == 0)
		snprintf(env->kernel, sizeof(env->kernel), "%s %s %s",
			 u.sysname, u.release, u.machine);
	env->cpus = sysconf(_SC_NPROCESSORS_ONLN);
	capture_cpu_model(env->cpu_model, sizeof(env->cpu_model));
	env->memory_bytes = pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz : 0;
	env->clock_source = tsc ? "tsc" : "monotonic";
	env->clock_read_ns = clock_read_ns;
	env->clock_drift_ppm = clock_drift_ppm;
	if (!clock_kernel_source(env->kernel_clock, sizeof(env->kernel_clock)))
		env->kernel_clock[0] = '\0';
	if (cache)
		env->cache = *cache;
	else
		memset(&env->cache, 0, sizeof(env->cache));
	if (!env->fs)
		capture_filesystems(env, p);
	if (!env->dev && p && p->nfilesets > 0)
		capture_devices(env, p);
}
