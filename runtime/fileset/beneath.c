/*
 * beneath.c - openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), with a
 * component-by-component fallback (see beneath.h for why).
 *
 * The fallback opens each directory on the way with O_PATH | O_DIRECTORY
 * | O_NOFOLLOW and the last component with O_NOFOLLOW: a link anywhere
 * fails with ELOOP (or ENOTDIR for a link in the middle, which is turned
 * into ELOOP so that callers see one errno for "a link was in the way").
 * Whether the kernel has openat2 is learnt on the first call; the answer
 * is the same for every thread and process of the run, so a relaxed
 * atomic flag is enough.
 */
#include "runtime/fileset/beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* 0: not known yet, 1: openat2 works, -1: it does not exist here. */
static int have_openat2;

static int sys_openat2(int dirfd, const char *rel, int flags, mode_t mode)
{
	struct open_how how = {
		.flags = (unsigned long long)(flags | O_CLOEXEC),
		.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			   RESOLVE_NO_MAGICLINKS,
	};

	return (int)syscall(SYS_openat2, dirfd, rel, &how, sizeof(how));
}

/* Is this errno openat2's way of saying it is missing or forbidden here? */
static bool openat2_missing(int err)
{
	/* ENOSYS: old kernel; EPERM: a seccomp filter that predates it */
	return err == ENOSYS || err == EPERM;
}

int beneath_open_walk(int dirfd, const char *rel, int flags, mode_t mode)
{
	char comp[NAME_MAX + 1];
	const char *p = rel;
	int cur = dirfd;

	if (rel[0] == '/') {
		errno = EXDEV;
		return -1;
	}
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		int next, err;

		if (n == 0 && slash) {               /* "a//b" */
			p = slash + 1;
			continue;
		}
		if (n > NAME_MAX || (n == 2 && p[0] == '.' && p[1] == '.')) {
			err = n > NAME_MAX ? ENAMETOOLONG : EXDEV;
			if (cur != dirfd)
				close(cur);
			errno = err;
			return -1;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		if (!slash || !slash[1]) {
			next = openat(cur, n ? comp : ".", flags | O_NOFOLLOW | O_CLOEXEC,
				      mode);
			err = errno;
			if (cur != dirfd)
				close(cur);
			errno = err;
			return next;
		}
		next = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		err = errno;
		if (next < 0 && err == ENOTDIR) {
			struct stat st;

			/* a link in the middle says ENOTDIR: call it what it is */
			if (fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISLNK(st.st_mode))
				err = ELOOP;
		}
		if (cur != dirfd)
			close(cur);
		if (next < 0) {
			errno = err;
			return -1;
		}
		cur = next;
		p = slash + 1;
	}
}

int beneath_open(int dirfd, const char *rel, int flags, mode_t mode)
{
	int known = __atomic_load_n(&have_openat2, __ATOMIC_RELAXED);
	int fd;

	if (known >= 0) {
		fd = sys_openat2(dirfd, rel, flags, mode);
		if (fd >= 0 || !openat2_missing(errno)) {
			if (!known)
				__atomic_store_n(&have_openat2, 1, __ATOMIC_RELAXED);
			return fd;
		}
		if (known == 0) {
			__atomic_store_n(&have_openat2, -1, __ATOMIC_RELAXED);
		} else if (errno == EPERM) {
			return -1;          /* a real EPERM from a working openat2 */
		}
	}
	return beneath_open_walk(dirfd, rel, flags, mode);
}

int beneath_parent(int dirfd, const char *rel, const char **leaf)
{
	const char *slash = strrchr(rel, '/');
	char dir[PATH_MAX];
	size_t n;

	if (!slash) {
		*leaf = rel;
		return dirfd;
	}
	n = (size_t)(slash - rel);
	if (n >= sizeof(dir)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(dir, rel, n);
	dir[n] = '\0';
	*leaf = slash + 1;
	return beneath_open(dirfd, dir, O_PATH | O_DIRECTORY, 0);
}

void beneath_close_parent(int dirfd, int pfd)
{
	if (pfd >= 0 && pfd != dirfd)
		close(pfd);
}

int beneath_mkdir(int dirfd, const char *rel, mode_t mode)
{
	const char *leaf;
	int pfd = beneath_parent(dirfd, rel, &leaf);
	int rc, err;

	if (pfd < 0)
		return -1;
	rc = mkdirat(pfd, leaf, mode);
	err = errno;
	beneath_close_parent(dirfd, pfd);
	errno = err;
	return rc;
}
