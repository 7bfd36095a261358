/*
 * tree.c - populating a fileset's tree in memory (WML reference 5.3).
 *
 * The shape follows filebench so scripts see the same kind of tree: a mean
 * depth of ln(entries + leafdirs) / ln(width); every directory draws its
 * own depth target and width (Gamma with shape dirgamma/1000 around the
 * means, exact when dirgamma is 0, or a random variable's sample); a
 * directory at or below its depth target is a leaf container and holds
 * entries, any other directory holds subdirectories; the root holds only
 * subdirectories and has no width limit.  Files and leaf directories are
 * placed in two passes, depth first, so entries are numbered in path
 * order and each container's entries are one contiguous range.
 *
 * Everything is drawn from the caller's generator, so a seed gives the
 * same tree every time.
 */
#include "runtime/fileset/tree.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/rng.h"

/* Largest serial whose %08d name has exactly 8 digits. */
#define TREE_MAX_SERIAL 99999999u

struct builder {
	struct fs_tree *t;
	const struct tree_params *p;
	struct rng *r;
	double gamma;           /* shape, 0 = exact */
	uint64_t total;         /* entries of this pass */
	uint64_t placed;
	bool files;             /* pass: files (else leaf dirs) */
	char *err;
	size_t errlen;
	int failed;
};

static void fail(struct builder *b, const char *msg)
{
	if (!b->failed)
		snprintf(b->err, b->errlen, "%s", msg);
	b->failed = 1;
}

static uint32_t new_dir(struct builder *b, uint32_t parent, uint64_t serial)
{
	struct fs_tree *t = b->t;
	struct tree_dir *d;

	if (serial > TREE_MAX_SERIAL) {
		fail(b, "more than 99999999 directories under one directory "
		     "(increase dirwidth)");
		return TREE_NONE;
	}
	if (t->ndirs == t->capdirs) {
		uint32_t cap = t->capdirs ? t->capdirs * 2 : 64;
		struct tree_dir *n;

		if (t->capdirs >= UINT32_MAX / 2) {
			fail(b, "more than 2^31 directories");
			return TREE_NONE;
		}
		n = realloc(t->dirs, (size_t)cap * sizeof(*n));
		if (!n) {
			fail(b, "out of memory for the directory tree");
			return TREE_NONE;
		}
		t->dirs = n;
		t->capdirs = cap;
	}
	d = &t->dirs[t->ndirs];
	d->parent = parent;
	d->serial = (uint32_t)serial;
	d->first = (uint32_t)b->placed;
	d->count = 0;
	return t->ndirs++;
}

/* This directory's depth target: a whole number >= 1. */
static double depth_target(struct builder *b)
{
	double dt;

	if (b->p->depth_rv)
		dt = b->p->depth_rv(b->p->ctx, b->r);
	else if (b->gamma > 0)
		dt = rng_gamma(b->r, b->gamma) * (b->t->meandepth / b->gamma);
	else
		dt = b->t->meandepth;
	dt = floor(dt);
	return dt < 1 ? 1 : dt;
}

static double width_sample(struct builder *b)
{
	double w;

	if (b->p->width_rv)
		w = b->p->width_rv(b->p->ctx, b->r);
	else if (b->gamma > 0)
		w = rng_gamma(b->r, b->gamma) * (b->t->meanwidth / b->gamma);
	else
		w = b->t->meanwidth;
	return w < 1 ? 1 : w;
}

static void add_entry(struct builder *b, uint32_t dir)
{
	struct fs_tree *t = b->t;

	if (b->files) {
		uint64_t sz = t->size;

		if (t->sizes) {
			double v = b->p->size_rv(b->p->ctx, b->r);

			sz = v > 0 ? (uint64_t)v : 0;
			t->sizes[b->placed] = sz;
		}
		t->total_bytes += sz;
	}
	t->dirs[dir].count++;
	b->placed++;
}

/* Fill directory `dir` at level `depth` (root = 1) until the pass is done. */
static void fill_dir(struct builder *b, uint32_t dir, unsigned depth)
{
	double target = depth_target(b);
	double width = width_sample(b);
	bool leaf = depth >= target || depth >= TREE_MAX_DEPTH;

	if (depth > b->t->maxdepth)
		b->t->maxdepth = depth;
	for (uint64_t i = 1; (double)i < width + 1 && b->placed < b->total &&
	     !b->failed; i++) {
		if (leaf) {
			add_entry(b, dir);
		} else {
			uint32_t c = new_dir(b, dir, i);

			if (c != TREE_NONE)
				fill_dir(b, c, depth + 1);
		}
	}
}

/* One pass from the root; top-level serials continue after *serial. */
static void pass(struct builder *b, bool files, uint64_t total, uint64_t *serial)
{
	b->files = files;
	b->total = total;
	b->placed = 0;
	while (b->placed < b->total && !b->failed) {
		uint32_t c = new_dir(b, 0, ++*serial);

		if (c != TREE_NONE)
			fill_dir(b, c, 2);
	}
}

int tree_build(struct fs_tree *t, const struct tree_params *p, struct rng *r,
	       char *err, size_t errlen)
{
	struct builder b = { .t = t, .p = p, .r = r, .err = err, .errlen = errlen };
	uint64_t serial = 0, n = p->entries + p->leafdirs;

	memset(t, 0, sizeof(*t));
	if (p->entries >= UINT32_MAX || p->leafdirs >= UINT32_MAX) {
		snprintf(err, errlen, "more than %u entries", UINT32_MAX - 1);
		return -1;
	}
	t->size = p->size;
	t->meanwidth = p->width;
	/* A width below 2 cannot make levels: one level under the root. */
	t->meandepth = p->width >= 2 && n > 1 ? log((double)n) / log(p->width) : 1;
	if (t->meandepth > TREE_MAX_DEPTH)
		t->meandepth = TREE_MAX_DEPTH;
	b.gamma = (double)p->gamma1000 / 1000.0;
	if (p->size_rv && p->entries) {
		t->sizes = malloc(p->entries * sizeof(*t->sizes));
		if (!t->sizes) {
			snprintf(err, errlen, "out of memory for %llu file sizes",
				 (unsigned long long)p->entries);
			return -1;
		}
	}
	new_dir(&b, TREE_NONE, 0);                 /* the root */
	t->maxdepth = 1;
	pass(&b, true, p->entries, &serial);
	t->nfiles = b.placed;
	t->nfiledirs = t->ndirs;
	pass(&b, false, p->leafdirs, &serial);
	t->nleaf = b.placed;
	if (b.failed) {
		tree_free(t);
		return -1;
	}
	if (t->ndirs < t->capdirs) {            /* give back the doubling slack */
		struct tree_dir *fit = realloc(t->dirs, (size_t)t->ndirs * sizeof(*fit));

		if (fit) {
			t->dirs = fit;
			t->capdirs = t->ndirs;
		}
	}
	return 0;
}

void tree_free(struct fs_tree *t)
{
	free(t->dirs);
	free(t->sizes);
	memset(t, 0, sizeof(*t));
}

size_t tree_bytes(const struct fs_tree *t)
{
	return (size_t)t->capdirs * sizeof(*t->dirs) +
	       (t->sizes ? t->nfiles * sizeof(*t->sizes) : 0);
}

/*
 * The container of entry e among dirs[lo, hi): the last directory whose
 * `first` is <= e.  Directories are made depth first while entries are
 * placed, so `first` never decreases along the array and every directory
 * made after e's container starts after e's container's range.
 */
static uint32_t find_container(const struct fs_tree *t, uint32_t lo, uint32_t hi,
			       uint64_t e)
{
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (t->dirs[mid].first <= e)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

uint32_t tree_file_dir(const struct fs_tree *t, uint64_t e)
{
	return find_container(t, 1, t->nfiledirs, e);
}

uint32_t tree_leaf_dir(const struct fs_tree *t, uint64_t e)
{
	return find_container(t, t->nfiledirs, t->ndirs, e);
}

unsigned tree_dir_depth(const struct fs_tree *t, uint32_t d)
{
	unsigned n = 1;

	while (t->dirs[d].parent != TREE_NONE) {
		d = t->dirs[d].parent;
		n++;
	}
	return n;
}

/* "00" .. "99": two digits per step (put8()). */
static const char digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/*
 * Eight decimal digits of v (< 10^8) at p, two at a time: a path is
 * built at every open, create and delete (six components in a deep
 * tree), and a digit a step cost an open about 450 instructions.
 */
static void put8(char *p, uint32_t v)
{
	for (int i = 6; i >= 0; i -= 2) {
		memcpy(p + i, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
}

/* Path of dir d, then (if serial != 0) one more component. */
static size_t relpath(const struct fs_tree *t, uint32_t d, uint32_t serial, char *buf)
{
	uint32_t chain[TREE_MAX_DEPTH + 1];
	int n = 0;
	size_t len = 0;

	if (serial)
		chain[n++] = serial;
	for (; d != TREE_NONE && t->dirs[d].parent != TREE_NONE; d = t->dirs[d].parent)
		chain[n++] = t->dirs[d].serial;
	if (n == 0) {
		buf[0] = '.';
		buf[1] = '\0';
		return 1;
	}
	while (n-- > 0) {
		put8(buf + len, chain[n]);
		len += 8;
		buf[len++] = '/';
	}
	buf[--len] = '\0';
	return len;
}

void tree_serial_name(uint32_t serial, char *buf)
{
	put8(buf, serial);
	buf[8] = '\0';
}

size_t tree_dir_relpath(const struct fs_tree *t, uint32_t d, char *buf)
{
	return relpath(t, d, 0, buf);
}

size_t tree_file_relpath(const struct fs_tree *t, uint64_t e, char *buf)
{
	uint32_t d = tree_file_dir(t, e);

	return relpath(t, d, (uint32_t)(e - t->dirs[d].first + 1), buf);
}

size_t tree_leaf_relpath(const struct fs_tree *t, uint64_t e, char *buf)
{
	uint32_t d = tree_leaf_dir(t, e);

	return relpath(t, d, (uint32_t)(e - t->dirs[d].first + 1), buf);
}
