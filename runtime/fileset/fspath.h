/*
 * fspath.h - making a fileset's missing <path>, as filebench does, without
 * ever following a symbolic link and without ever owning what was there.
 *
 * filebench makes every missing directory of a fileset's path (mkdir -p);
 * flowbench used to refuse the path.  It now makes them too, but only
 * below a directory that exists (resolved and judged by the guard, as an
 * existing path is: fsguard.h), one component at a time with mkdirat()
 * and openat(O_NOFOLLOW) relative to the directory it holds, so a link
 * met or planted on the way is refused (ELOOP), never followed.  Each
 * directory it makes gets a .flowbench file saying it was made for the
 * path (not a fileset's marker: marker.h refuses to take it for one), so
 * it is told from what was there before.  When the fileset's preparation
 * fails, the directories made for its path are removed again, deepest
 * first, each only if it holds nothing but that file: an existing parent
 * is never removed.  After a run they stay, like the tree below them.
 */
#ifndef FLOWBENCH_FSPATH_H
#define FLOWBENCH_FSPATH_H

#include <stdbool.h>

#define FSPATH_MAX_MADE 64

/* The directories one fspath_make() made, held open. */
struct fspath {
	int top;                          /* the existing directory below which
					     it made them (O_PATH), or -1 */
	int fd[FSPATH_MAX_MADE];          /* each made directory */
	char *name[FSPATH_MAX_MADE];      /* its name in the one above */
	char *shown[FSPATH_MAX_MADE];     /* its path, for messages */
	int n;
};

/*
 * The longest leading part of `path` that exists (`path` itself when it
 * does), newly allocated; "." for a relative path none of whose parts
 * exist.  NULL with errno on any error but ENOENT.
 */
char *fspath_existing(const char *path);

/*
 * Make the missing directories of `path`, the directory of the fileset
 * or file `name` (`is_file`), into *fp.  Nothing to do (0, fp->n == 0)
 * when it exists.  The would-be <path>/<name> is judged by the guard
 * first; a component that is "." or "..", or a symbolic link, is refused.
 * 0, or -1 after logging (what it made is undone).
 */
int fspath_make(const char *path, const char *name, bool is_file, struct fspath *fp);

/* Remove what fspath_make() made, deepest first, each if empty but its mark. */
void fspath_undo(struct fspath *fp);

/* Close what *fp holds (the directories stay). */
void fspath_release(struct fspath *fp);

/* The first line of the .flowbench file of a directory made for a path. */
#define FSPATH_MARK_LINE "flowbench-path 1"

#endif
