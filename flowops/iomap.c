/*
 * iomap.c - the random map that the members of a choice share.
 *
 * fio keeps one random map per file: in a pass of rw=randrw with the map
 * on, every block is done once, by a read or by a write, never by both.
 * import-fio writes such a job as a choice of a read and a write, each
 * with `randommap`; with a map of their own each, a pass of the reads
 * and a pass of the writes would each cover the file, so a block could
 * be read and written in one pass while another waits.  So the members
 * of one choice that draw from the same blocks (the same fileset,
 * iosize, blockalign, misalign and workingset: struct iomap_key) share
 * one map in each thread, and their offsets together make one pass over
 * the file.  Members that differ keep their own.  The shared maps live
 * in the thread's family slot, counted by the members holding them.
 */
#include "flowops/iomap.h"

#include <stdlib.h>
#include <string.h>

#include "flowops/common.h"
#include "runtime/engine/thread.h"

/* One shared map, its choice and key, and the members holding it. */
struct iomap_shared {
	struct iomap map;
	int choice;               /* the choice's index in the plan's flowops */
	struct iomap_key key;
	unsigned members;
	struct iomap_shared *next;
};

/* The family's slot in a thread: every shared map its choices made. */
struct iomap_thread {
	struct iomap_shared *maps;
};

static const char iomap_family_key;

static bool iomap_key_equal(const struct iomap_key *a, const struct iomap_key *b)
{
	return a->fileset == b->fileset && a->size_random == b->size_random &&
	       (a->size_random || a->iosize == b->iosize) &&
	       a->blockalign == b->blockalign && a->misalign == b->misalign &&
	       a->workingset == b->workingset;
}

int iomap_join(struct fb_thread *t, const struct plan_flowop *pf,
	       const struct iomap_key *key, struct iomap *own, struct iomap **map)
{
	int choice = common_choice_of(t->plan, (int)(pf - t->plan->flowops));
	void **slot;
	struct iomap_thread *th;
	struct iomap_shared *m;

	*map = own;
	if (choice < 0)
		return 0;
	slot = thread_family_slot(t, &iomap_family_key);
	if (!slot)
		goto oom;
	if (!*slot && !(*slot = calloc(1, sizeof(struct iomap_thread))))
		goto oom;
	th = *slot;
	for (m = th->maps; m; m = m->next)
		if (m->choice == choice && iomap_key_equal(&m->key, key))
			break;
	if (!m) {
		m = calloc(1, sizeof(*m));
		if (!m)
			goto oom;
		m->choice = choice;
		m->key = *key;
		m->next = th->maps;
		th->maps = m;
	}
	m->members++;
	*map = &m->map;
	return 0;
oom:
	thread_fail(t, "flowop %s: out of memory", pf->name);
	return -1;
}

void iomap_leave(struct fb_thread *t, struct iomap *own, struct iomap **map)
{
	void **slot;
	struct iomap_thread *th;

	bmap_free(&own->bmap);
	if (!*map || *map == own)
		goto done;
	slot = thread_family_slot(t, &iomap_family_key);
	th = slot ? *slot : NULL;
	for (struct iomap_shared **at = th ? &th->maps : NULL; at && *at; at = &(*at)->next) {
		struct iomap_shared *m = *at;

		if (&m->map != *map)
			continue;
		if (--m->members == 0) {
			*at = m->next;
			bmap_free(&m->map.bmap);
			free(m);
		}
		break;
	}
	if (th && !th->maps) {
		free(th);
		*slot = NULL;
	}
done:
	*map = NULL;
}
