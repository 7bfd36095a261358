/*
 * marker.h - the .flowbench file that says a fileset directory is
 * flowbench's, what in it is, and that a run is using it.
 *
 * flowbench creates <path>/<name>/.flowbench when it creates the
 * directory, or when --force adopts an existing one.  The marker holds:
 *  - a first line saying which of the two happened;
 *  - the top-level entries flowbench reserved, as ranges of serial
 *    numbers (`owns 00000001-00000020`).  A tree's top level is always
 *    numbered directories; a name is reserved only while nothing holds
 *    it, before flowbench creates it, so an entry that was there before
 *    (a user's `20231231` in an adopted directory) never becomes ours.
 *    Everything below a reserved directory was made inside a directory
 *    flowbench made.
 * The marker's owner is the owner of everything flowbench makes in the
 * tree (the user running it, or what the file system maps it to, as
 * NFS's root_squash does): an entry owned by anybody else is not ours.
 *
 * While a run prepares and uses the tree it holds an exclusive flock()
 * on the marker, so two runs never clean or write one tree at once.
 *
 * Markers written before the ranges existed (no `flowbench-marker 2`
 * line) are upgraded on first use: a directory flowbench created owns the
 * 8-digit entries it holds then; an adopted one owns none of them.
 */
#ifndef FLOWBENCH_MARKER_H
#define FLOWBENCH_MARKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#define MARKER_NAME ".flowbench"

struct marker_range {
	uint32_t lo, hi;          /* serials lo..hi, inclusive */
};

struct fs_marker {
	int fd;                   /* open and locked for the run; -1 when closed */
	uid_t owner;              /* the marker's (and every entry's) owner */
	bool adopted;             /* made by --force on an existing directory */
	struct marker_range *owned;
	size_t nowned;            /* sorted, disjoint, not adjacent */
};

/* What marker_open() found. */
enum marker_found {
	MARKER_OURS,              /* our marker, now locked in *m */
	MARKER_NONE,              /* no marker: not flowbench's directory */
	MARKER_ERROR,             /* refused or failed (logged) */
};

/*
 * Open, check and lock the marker of the directory `rootfd` (`root` for
 * messages).  A marker that is not a regular file with one link, does
 * not say it is flowbench's, or is locked by another run is an error
 * that names the reason.
 */
enum marker_found marker_open(int rootfd, const char *root, struct fs_marker *m);

/*
 * The same with a shared lock, for the clients of one run that use a tree
 * another client prepared (flowbench-mpi --shared-files); a run holding
 * the exclusive lock keeps them out, and they keep out such a run.
 */
enum marker_found marker_attach(int rootfd, const char *root, struct fs_marker *m);

/* Turn the exclusive lock into a shared one, once the tree is prepared.  0 or -1. */
int marker_share(struct fs_marker *m, const char *root);

/* Create and lock a new marker (empty `owns` list).  0 or -1 (logged). */
int marker_create(int rootfd, const char *root, bool adopted, struct fs_marker *m);

/* Is top-level serial `serial` one flowbench reserved here? */
bool marker_owns(const struct fs_marker *m, uint32_t serial);

/* Add serials lo..hi to the reserved set (in memory).  0 or -1 (ENOMEM). */
int marker_reserve(struct fs_marker *m, uint32_t lo, uint32_t hi);

/* Write the marker back in place (the locked file).  0 or -1 (logged). */
int marker_save(const struct fs_marker *m, const char *root);

/* Unlock and forget. */
void marker_close(struct fs_marker *m);

/*
 * May flowbench write, truncate or remove the entry `st` describes (with
 * its own name)?  NULL if so: a directory or a regular file with one
 * link (or none: an open file removed since), owned by the marker's owner.  Else why not, written into `why`
 * ("it has 2 links (a hard link to a file elsewhere?)").
 */
const char *marker_foreign(const struct fs_marker *m, const struct stat *st,
			   char *why, size_t len);

/* The serial of an 8-digit name, or 0 for any other name (serials start at 1). */
uint32_t marker_serial_of(const char *name);

/* Parse a marker's text (for marker_open() and the tests).  0, or -1 if malformed. */
int marker_parse(const char *text, size_t len, struct fs_marker *m, bool *legacy);

#endif
