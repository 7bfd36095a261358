/*
 * nameidx.h - finding things by name (and occurrence) in sorted arrays.
 *
 * `flowbench compare` and `report` match every flowop of every run of
 * every file by its name and occurrence (the k-th flowop of a name with
 * the k-th), and the report's header table matches keys across files.
 * A linear scan per lookup made them quadratic in the number of flowops
 * (83 s for 50,000); this index makes them O(n log n).  A sorted array
 * with binary search rather than a hash table: its worst case is the
 * same for any names (nothing to collide on), and it needs no dependency.
 */
#ifndef FLOWBENCH_COMPARE_NAMEIDX_H
#define FLOWBENCH_COMPARE_NAMEIDX_H

/* A name, which of that name it is, and what it stands for. */
struct nameidx_entry {
	const char *name;      /* borrowed: must outlive the index */
	int occurrence;
	int value;             /* the caller's: usually a position */
};

/* Entries sorted by name (bytewise, so case matters), occurrence, value. */
struct nameidx {
	struct nameidx_entry *e;
	int n;
};

/*
 * Sort e[0..n) and take it over (malloc'ed, or NULL when n is 0; freed
 * by nameidx_free).
 */
void nameidx_init(struct nameidx *ix, struct nameidx_entry *e, int n);
void nameidx_free(struct nameidx *ix);

/*
 * The smallest value of the entries with this name and occurrence, -1
 * when there is none.  O(log n).
 */
int nameidx_find(const struct nameidx *ix, const char *name, int occurrence);

/*
 * For entries all given the same occurrence (e.g. 0), with positions as
 * values: set each name's occurrences to 0, 1, 2 ... in value order, so
 * the k-th entry of a name (by position) becomes occurrence k.  The
 * index stays sorted and ready for nameidx_find.
 */
void nameidx_number(struct nameidx *ix);

/*
 * One value per distinct (name, occurrence): the smallest one of its
 * entries, written to values (room for ix->n) in ascending order.
 * Returns how many.  With positions as values: the first sight of every
 * name and occurrence, in order of first sight.
 */
int nameidx_firsts(const struct nameidx *ix, int *values);

#endif
