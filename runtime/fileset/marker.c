/*
 * marker.c - reading, checking, locking and rewriting the .flowbench
 * marker of a fileset directory (what it means: marker.h).
 *
 * The marker is opened O_RDWR | O_NOFOLLOW | O_NONBLOCK (a FIFO planted
 * in its place cannot block us, a link is not followed; read-only where
 * the file system or its mode says so, then it cannot be updated) and
 * checked on
 * the open descriptor before anything is read or written through it: a
 * regular file with exactly one link.  It is rewritten in place, never
 * renamed, so the lock taken on the open file stays valid for the run.
 */
#include "runtime/fileset/marker.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/base/log.h"

#define CREATED_LINE "This directory was created by flowbench; it owns and may " \
	"delete its contents.\n"
#define CREATED_TAG "This directory was created by flowbench"
#define ADOPTED_LINE "This directory was adopted by flowbench (--force); it may " \
	"delete only the entries listed below, never other files.\n"
#define ADOPTED_TAG "This directory was adopted by flowbench"
#define VERSION_LINE "flowbench-marker 2"
#define MARKER_MAX (1u << 20)       /* a sane marker is a few hundred bytes */

uint32_t marker_serial_of(const char *n)
{
	uint32_t v = 0;
	int i;

	for (i = 0; n[i]; i++) {
		if (i >= 8 || n[i] < '0' || n[i] > '9')
			return 0;
		v = v * 10 + (uint32_t)(n[i] - '0');
	}
	return i == 8 ? v : 0;
}

bool marker_owns(const struct fs_marker *m, uint32_t serial)
{
	size_t lo = 0, hi = m->nowned;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->owned[mid].hi < serial)
			lo = mid + 1;
		else if (m->owned[mid].lo > serial)
			hi = mid;
		else
			return true;
	}
	return false;
}

int marker_reserve(struct fs_marker *m, uint32_t lo, uint32_t hi)
{
	struct marker_range *r;
	size_t i = 0, j, n = m->nowned;

	if (lo == 0 || lo > hi)
		return 0;
	/* ranges [i, j) touch or overlap lo..hi: merge them into one */
	while (i < n && m->owned[i].hi < lo - 1)
		i++;
	j = i;
	while (j < n && (hi == UINT32_MAX || m->owned[j].lo <= hi + 1)) {
		if (m->owned[j].lo < lo)
			lo = m->owned[j].lo;
		if (m->owned[j].hi > hi)
			hi = m->owned[j].hi;
		j++;
	}
	if (j == i) {
		r = realloc(m->owned, (n + 1) * sizeof(*r));
		if (!r)
			return -1;
		m->owned = r;
		memmove(&r[i + 1], &r[i], (n - i) * sizeof(*r));
		m->nowned = n + 1;
	} else {
		memmove(&m->owned[i + 1], &m->owned[j], (n - j) * sizeof(*m->owned));
		m->nowned = n - (j - i) + 1;
	}
	m->owned[i].lo = lo;
	m->owned[i].hi = hi;
	return 0;
}

const char *marker_foreign(const struct fs_marker *m, const struct stat *st,
			   char *why, size_t len)
{
	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))
		snprintf(why, len, "it is neither a regular file nor a directory");
	/* no link at all: ours, removed behind our back while we held it open */
	else if (S_ISREG(st->st_mode) && st->st_nlink > 1)
		snprintf(why, len, "it has %lu links (a hard link to a file elsewhere?)",
			 (unsigned long)st->st_nlink);
	else if (st->st_uid != m->owner)
		snprintf(why, len, "it belongs to uid %lu, not to uid %lu who owns the "
			 "tree's marker", (unsigned long)st->st_uid,
			 (unsigned long)m->owner);
	else
		return NULL;
	return why;
}

/* One "owns AAAAAAAA-BBBBBBBB" line into *lo, *hi. */
static bool parse_owns(const char *s, size_t len, uint32_t *lo, uint32_t *hi)
{
	char a[9], b[9];

	if (len != 22 || memcmp(s, "owns ", 5) != 0 || s[13] != '-')
		return false;
	memcpy(a, s + 5, 8);
	memcpy(b, s + 14, 8);
	a[8] = b[8] = '\0';
	*lo = marker_serial_of(a);
	*hi = marker_serial_of(b);
	return *lo && *hi && *lo <= *hi;
}

int marker_parse(const char *text, size_t len, struct fs_marker *m, bool *legacy)
{
	const char *end = text + len, *line = text;
	bool first = true;

	*legacy = true;
	while (line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
		uint32_t lo, hi;

		if (first) {
			if (n >= sizeof(CREATED_TAG) - 1 &&
			    !memcmp(line, CREATED_TAG, sizeof(CREATED_TAG) - 1))
				m->adopted = false;
			else if (n >= sizeof(ADOPTED_TAG) - 1 &&
				 !memcmp(line, ADOPTED_TAG, sizeof(ADOPTED_TAG) - 1))
				m->adopted = true;
			else
				return -1;
			first = false;
		} else if (n == sizeof(VERSION_LINE) - 1 && !memcmp(line, VERSION_LINE, n)) {
			*legacy = false;
		} else if (!*legacy && parse_owns(line, n, &lo, &hi)) {
			if (marker_reserve(m, lo, hi) < 0)
				return -1;
		} else if (n) {
			return -1;
		}
		line = nl ? nl + 1 : end;
	}
	return first ? -1 : 0;
}

/*
 * A marker without ranges (written before they existed): a directory
 * flowbench created owns the 8-digit entries it holds now; an adopted
 * one owns none.
 */
static int upgrade_legacy(int rootfd, const char *root, struct fs_marker *m)
{
	int fd = openat(rootfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *e;
	DIR *d;

	if (m->adopted)
		return 0;
	if (fd < 0 || !(d = fdopendir(fd))) {
		log_error("cannot read directory %s: %s", root, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	while ((e = readdir(d))) {
		uint32_t s = marker_serial_of(e->d_name);

		if (s && marker_reserve(m, s, s) < 0) {
			closedir(d);
			log_error("out of memory");
			return -1;
		}
	}
	closedir(d);
	return 0;
}

/* The checks on the open marker: a regular file, one link.  0 or -1 (logged). */
static int check_file(int fd, const char *root, struct stat *st)
{
	if (fstat(fd, st) < 0) {
		log_error("cannot stat %s/%s: %s", root, MARKER_NAME, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st->st_mode)) {
		log_error("refusing to use %s: its %s is not a regular file (left "
			  "untouched)", root, MARKER_NAME);
		return -1;
	}
	if (st->st_nlink != 1) {
		log_error("refusing to use %s: its %s has %lu links (a hard link to "
			  "a file elsewhere?); flowbench writes only a marker it made "
			  "(left untouched)", root, MARKER_NAME,
			  (unsigned long)st->st_nlink);
		return -1;
	}
	return 0;
}

/*
 * Take the run's lock: LOCK_EX, or LOCK_SH for the clients of one run
 * that share the tree (marker_attach, marker_share).  0 or -1 (logged).
 */
static int lock(int fd, const char *root, int how)
{
	while (flock(fd, how | LOCK_NB) < 0) {
		if (errno == EINTR)
			continue;
		if (errno == EWOULDBLOCK)
			log_error("refusing to use %s: another flowbench run is using it "
				  "(its %s is locked); wait for that run to end, or give "
				  "this one another path or fileset name", root, MARKER_NAME);
		else
			log_error("cannot lock %s/%s: %s", root, MARKER_NAME,
				  strerror(errno));
		return -1;
	}
	return 0;
}

/* marker_open() and marker_attach(): the lock taken `how`. */
static enum marker_found open_marker(int rootfd, const char *root,
				     struct fs_marker *m, int how)
{
	struct stat st;
	char *text = NULL;
	bool legacy;
	ssize_t n;
	int fd;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	fd = openat(rootfd, MARKER_NAME, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && (errno == EROFS || errno == EACCES))
		/* a tree on a read-only mount can be used for reading */
		fd = openat(rootfd, MARKER_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
			    O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return MARKER_NONE;
		if (errno == ELOOP)
			log_error("refusing to use %s: its %s is a symbolic link (left "
				  "untouched)", root, MARKER_NAME);
		else
			log_error("cannot open %s/%s: %s", root, MARKER_NAME,
				  strerror(errno));
		return MARKER_ERROR;
	}
	if (check_file(fd, root, &st) < 0)
		goto fail;
	if ((size_t)st.st_size > MARKER_MAX || !(text = malloc(MARKER_MAX))) {
		log_error("refusing to use %s: its %s is not flowbench's marker "
			  "(left untouched)", root, MARKER_NAME);
		goto fail;
	}
	n = pread(fd, text, MARKER_MAX, 0);
	if (n < 0 || marker_parse(text, (size_t)n, m, &legacy) < 0) {
		if (n < 0)
			log_error("cannot read %s/%s: %s", root, MARKER_NAME, strerror(errno));
		else
			log_error("refusing to use %s: its %s is not flowbench's marker "
				  "(left untouched)", root, MARKER_NAME);
		goto fail;
	}
	free(text);
	text = NULL;
	m->fd = fd;
	m->owner = st.st_uid;
	if (lock(fd, root, how) < 0)
		goto fail_m;
	if (legacy && how == LOCK_SH) {
		log_error("refusing to share %s: its %s is of an older flowbench "
			  "(the client that prepares the files upgrades it)", root, MARKER_NAME);
		goto fail_m;
	}
	if (legacy && (upgrade_legacy(rootfd, root, m) < 0 || marker_save(m, root) < 0))
		goto fail_m;
	return MARKER_OURS;
fail:
	free(text);
	free(m->owned);
	close(fd);
	memset(m, 0, sizeof(*m));
	m->fd = -1;
	return MARKER_ERROR;
fail_m:
	marker_close(m);
	return MARKER_ERROR;
}

enum marker_found marker_open(int rootfd, const char *root, struct fs_marker *m)
{
	return open_marker(rootfd, root, m, LOCK_EX);
}

enum marker_found marker_attach(int rootfd, const char *root, struct fs_marker *m)
{
	return open_marker(rootfd, root, m, LOCK_SH);
}

int marker_share(struct fs_marker *m, const char *root)
{
	if (m->fd < 0)
		return 0;
	return lock(m->fd, root, LOCK_SH);
}

int marker_create(int rootfd, const char *root, bool adopted, struct fs_marker *m)
{
	struct stat st;
	int fd;

	memset(m, 0, sizeof(*m));
	m->fd = -1;
	fd = openat(rootfd, MARKER_NAME, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
	if (fd < 0) {
		log_error("cannot create %s/%s: %s", root, MARKER_NAME, strerror(errno));
		return -1;
	}
	m->fd = fd;
	m->adopted = adopted;
	if (lock(fd, root, LOCK_EX) < 0 || fstat(fd, &st) < 0 || marker_save(m, root) < 0) {
		marker_close(m);
		return -1;
	}
	m->owner = st.st_uid;
	return 0;
}

int marker_save(const struct fs_marker *m, const char *root)
{
	size_t cap = 256 + m->nowned * 24, len;
	char *text = malloc(cap);
	int rc = 0;

	if (!text) {
		log_error("out of memory");
		return -1;
	}
	len = (size_t)snprintf(text, cap, "%s%s\n", m->adopted ? ADOPTED_LINE :
			       CREATED_LINE, VERSION_LINE);
	for (size_t i = 0; i < m->nowned; i++)
		len += (size_t)snprintf(text + len, cap - len, "owns %08u-%08u\n",
					m->owned[i].lo, m->owned[i].hi);
	if (pwrite(m->fd, text, len, 0) != (ssize_t)len ||
	    ftruncate(m->fd, (off_t)len) < 0 || fdatasync(m->fd) < 0) {
		log_error("cannot write %s/%s: %s", root, MARKER_NAME, strerror(errno));
		rc = -1;
	}
	free(text);
	return rc;
}

void marker_close(struct fs_marker *m)
{
	if (m->fd >= 0)
		close(m->fd);
	free(m->owned);
	memset(m, 0, sizeof(*m));
	m->fd = -1;
}
