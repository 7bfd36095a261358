/*
 * diskstats.c - from a fileset's directory to its block device, and that
 * device's /proc/diskstats counters over the window (diskstats.h).
 *
 * Why the mount table: a file system without a device of its own (tmpfs,
 * overlay, NFS) and btrfs both give their files an anonymous device
 * number (major 0); /proc/self/mountinfo says which it is: its type for
 * the "no block device" line, its source (btrfs: /dev/...) for the
 * device behind it.  Each step that fails leaves the directory on "no
 * block device": statistics are an addition to the run, never a reason
 * for it to fail.
 */
#include "runtime/measure/diskstats.h"

#include <dirent.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "runtime/base/log.h"

#define DISKSTATS_PATH "/proc/diskstats"
#define DISKSTATS_MAX (1 << 20)     /* plenty for thousands of devices */

int diskstats_parse_line(const char *line, unsigned *major, unsigned *minor,
			 char *name, size_t namelen, struct disk_counters *c)
{
	unsigned long long v[11];
	char nm[64];
	int n = sscanf(line, " %u %u %63s %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
		       major, minor, nm, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		       &v[6], &v[7], &v[8], &v[9], &v[10]);

	if (n != 14)
		return -1;
	snprintf(name, namelen, "%s", nm);
	/* reads, merged, sectors, ms; writes, merged, sectors, ms; in flight, io ms, weighted ms */
	*c = (struct disk_counters){
		.ios = { v[0], v[4] }, .merges = { v[1], v[5] },
		.sectors = { v[2], v[6] }, .ticks = { v[3], v[7] },
		.io_ticks = v[9], .in_queue = v[10],
	};
	return 0;
}

int diskstats_find(const char *text, unsigned major, unsigned minor,
		   char *name, size_t namelen, struct disk_counters *c)
{
	for (const char *line = text; line && *line; line = strchr(line, '\n')) {
		unsigned ma, mi;
		char nm[64];
		struct disk_counters one;

		if (*line == '\n')
			line++;
		if (diskstats_parse_line(line, &ma, &mi, nm, sizeof(nm), &one) == 0 &&
		    ma == major && mi == minor) {
			snprintf(name, namelen, "%s", nm);
			*c = one;
			return 0;
		}
	}
	return -1;
}

static uint64_t grown(uint64_t before, uint64_t after)
{
	return after > before ? after - before : 0;
}

void diskstats_delta(const struct disk_counters *start, const struct disk_counters *end,
		     double window_s, struct disk_usage *u)
{
	for (int k = 0; k < 2; k++) {
		u->d.ios[k] = grown(start->ios[k], end->ios[k]);
		u->d.merges[k] = grown(start->merges[k], end->merges[k]);
		u->d.sectors[k] = grown(start->sectors[k], end->sectors[k]);
		u->d.ticks[k] = grown(start->ticks[k], end->ticks[k]);
	}
	u->d.io_ticks = grown(start->io_ticks, end->io_ticks);
	u->d.in_queue = grown(start->in_queue, end->in_queue);
	u->util_pct = window_s > 0 ? (double)u->d.io_ticks / (window_s * 10.0) : 0;
	if (u->util_pct > 100)
		u->util_pct = 100;   /* the two reads are not exactly the window's ends */
}

/* The whole of a small file (/proc, /sys), malloc'ed and NUL-terminated, or NULL. */
static char *read_text(const char *path, size_t max)
{
	FILE *f = fopen(path, "re");
	char *buf = f ? malloc(max) : NULL;
	size_t n = 0, got;

	if (!buf) {
		if (f)
			fclose(f);
		return NULL;
	}
	while (n < max - 1 && (got = fread(buf + n, 1, max - 1 - n, f)) > 0)
		n += got;
	fclose(f);
	buf[n] = '\0';
	return buf;
}

/* mountinfo's octal escapes (\040 for a space) decoded in place. */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/* One /proc/self/mountinfo line ("id parent M:m root point opts [tags] - type source ...").  0 or -1. */
static int parse_mount(const char *line, struct disk_mount *m)
{
	const char *dash = strstr(line, " - ");

	if (!dash || sscanf(line, "%*d %*d %u:%u %*s %4095s", &m->major, &m->minor,
			    m->point) != 3 ||
	    sscanf(dash + 3, "%31s %4095s", m->fstype, m->source) != 2)
		return -1;
	unescape(m->point);
	unescape(m->source);
	return 0;
}

/* Is `point` a path prefix of `path` (a whole component)? */
static size_t covers(const char *point, const char *path)
{
	size_t len = strlen(point);

	if (strcmp(point, "/") == 0)
		return 1;
	if (strncmp(point, path, len) == 0 && (path[len] == '/' || path[len] == '\0'))
		return len;
	return 0;
}

int diskstats_mount_lookup(char *mountinfo, const char *path, unsigned major,
			   unsigned minor, struct disk_mount *out)
{
	struct disk_mount *m = malloc(sizeof(*m));
	char *save = NULL;
	size_t best = 0;
	int rc = -1;

	if (!m)
		return -1;
	for (char *line = strtok_r(mountinfo, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t len;

		if (parse_mount(line, m) < 0)
			continue;
		if (m->major == major && m->minor == minor) {
			*out = *m;
			rc = 0;
			break;
		}
		len = covers(m->point, path);
		if (len && len >= best) {      /* the later of two on one point is on top */
			best = len;
			*out = *m;
			rc = 0;
		}
	}
	free(m);
	return rc;
}

/* The mount `dir` (device `dev`) is on, from /proc/self/mountinfo.  0 or -1. */
static int find_mount(const char *dir, dev_t dev, struct disk_mount *out)
{
	char *text = read_text("/proc/self/mountinfo", DISKSTATS_MAX);
	char real[PATH_MAX];
	int rc = -1;

	if (text && realpath(dir, real))
		rc = diskstats_mount_lookup(text, real, major(dev), minor(dev), out);
	free(text);
	return rc;
}

/* `src` into buf[size], cut to fit (a kernel name is short; /sys paths are not). */
static void copy_str(char *buf, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(buf, src, n);
	buf[n] = '\0';
}

/* Does /sys know a block device major:minor? */
static bool is_block(unsigned ma, unsigned mi)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", ma, mi);
	return stat(path, &st) == 0;
}

/* The last component of /sys/dev/block/M:m's target, plus `rest`, into buf. */
static void sys_name(unsigned ma, unsigned mi, const char *rest, char *buf, size_t size)
{
	char path[96], real[PATH_MAX];
	const char *slash;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u%s", ma, mi, rest);
	if (!realpath(path, real))
		return;
	slash = strrchr(real, '/');
	copy_str(buf, size, slash ? slash + 1 : real);
}

/* The disk a partition is on, or the devices a dm/md device is made of ("" when neither). */
static void underlying(struct disk_dev *d)
{
	char path[96];
	struct stat st;
	struct dirent *de;
	DIR *dir;
	size_t used = 0;

	d->on[0] = '\0';
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", d->major, d->minor);
	if (stat(path, &st) == 0) {
		sys_name(d->major, d->minor, "/..", d->on, sizeof(d->on));
		return;
	}
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/slaves", d->major, d->minor);
	dir = opendir(path);
	if (!dir)
		return;
	while ((de = readdir(dir)) != NULL && used < sizeof(d->on)) {
		int n;

		if (de->d_name[0] == '.')
			continue;
		n = snprintf(d->on + used, sizeof(d->on) - used, "%s%s",
			     used ? "," : "", de->d_name);
		used += n > 0 ? (size_t)n : 0;
	}
	closedir(dir);
}

/* Add device ma:mi unless it is there.  0 or -1 (memory). */
static int add_dev(struct disk_set *s, unsigned ma, unsigned mi)
{
	struct disk_dev *d, *grown_dev;

	for (int i = 0; i < s->ndev; i++)
		if (s->dev[i].major == ma && s->dev[i].minor == mi)
			return 0;
	grown_dev = realloc(s->dev, ((size_t)s->ndev + 1) * sizeof(*s->dev));
	if (!grown_dev)
		return -1;
	s->dev = grown_dev;
	d = &s->dev[s->ndev++];
	memset(d, 0, sizeof(*d));
	d->major = ma;
	d->minor = mi;
	sys_name(ma, mi, "", d->name, sizeof(d->name));
	underlying(d);
	return 0;
}

/* Add a directory on no block device unless it is there.  0 or -1 (memory). */
static int add_none(struct disk_set *s, const char *dir, const char *fstype)
{
	struct disk_none *n, *grown_none;

	for (int i = 0; i < s->nnone; i++)
		if (strcmp(s->none[i].dir, dir) == 0)
			return 0;
	grown_none = realloc(s->none, ((size_t)s->nnone + 1) * sizeof(*s->none));
	if (!grown_none)
		return -1;
	s->none = grown_none;
	n = &s->none[s->nnone++];
	snprintf(n->dir, sizeof(n->dir), "%s", dir);
	snprintf(n->fstype, sizeof(n->fstype), "%s", fstype);
	return 0;
}

/*
 * One directory: its device into the set, or the directory as one on
 * none; a block device (a device target's path) is its own device.
 */
static int trace_dir(struct disk_set *s, const char *dir)
{
	struct disk_mount *m = calloc(1, sizeof(*m));
	struct stat st, src;
	int rc;

	if (!m)
		return -1;
	if (stat(dir, &st) < 0) {
		free(m);
		return add_none(s, dir, "not found");
	}
	if (S_ISBLK(st.st_mode)) {
		/* a block device itself (`define device`): its own line */
		free(m);
		return add_dev(s, major(st.st_rdev), minor(st.st_rdev));
	}
	if (find_mount(dir, st.st_dev, m) < 0)
		snprintf(m->fstype, sizeof(m->fstype), "unknown");
	if (major(st.st_dev) != 0 && is_block(major(st.st_dev), minor(st.st_dev)))
		rc = add_dev(s, major(st.st_dev), minor(st.st_dev));
	else if (m->source[0] == '/' && stat(m->source, &src) == 0 && S_ISBLK(src.st_mode) &&
		 is_block(major(src.st_rdev), minor(src.st_rdev)))
		rc = add_dev(s, major(src.st_rdev), minor(src.st_rdev));
	else
		rc = add_none(s, dir, m->fstype);
	free(m);
	return rc;
}

int diskstats_init(struct disk_set *s, const char *const *dirs, int ndirs)
{
	memset(s, 0, sizeof(*s));
	for (int i = 0; i < ndirs; i++) {
		if (trace_dir(s, dirs[i]) < 0) {
			log_warn("out of memory: no disk statistics for this run");
			diskstats_free(s);
			return -1;
		}
	}
	return 0;
}

void diskstats_sample(struct disk_set *s, bool end, uint64_t now_ns)
{
	char *text = s->ndev ? read_text(DISKSTATS_PATH, DISKSTATS_MAX) : NULL;

	if (end)
		s->end_ns = now_ns;
	else
		s->start_ns = now_ns;
	for (int i = 0; i < s->ndev; i++) {
		struct disk_dev *d = &s->dev[i];
		bool found = text && diskstats_find(text, d->major, d->minor, d->name,
						    sizeof(d->name),
						    end ? &d->at_end : &d->at_start) == 0;

		if (end)
			d->ended = found;
		else
			d->started = found;
	}
	free(text);
}

void diskstats_free(struct disk_set *s)
{
	free(s->dev);
	free(s->none);
	memset(s, 0, sizeof(*s));
}

void diskstats_fields(FILE *out, const struct disk_usage *u)
{
	const struct disk_counters *d = &u->d;

	fprintf(out, "ios=%" PRIu64 "/%" PRIu64 ", sectors=%" PRIu64 "/%" PRIu64
		", merge=%" PRIu64 "/%" PRIu64 ", ticks=%" PRIu64 "/%" PRIu64
		", in_queue=%" PRIu64 ", util=%.2f%%",
		d->ios[0], d->ios[1], d->sectors[0], d->sectors[1], d->merges[0],
		d->merges[1], d->ticks[0], d->ticks[1], d->in_queue, u->util_pct);
}
