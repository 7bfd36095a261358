/*
 * usage.c - the window's CPU and disk use printed after the report
 * (usage.h).
 *
 * The lines come after the IO Summary, its notes and the percentiles,
 * start with "CPU" or "Disk" and never with a flowop name, so that
 * everything filebench prints, and every parser of it, is unchanged.
 */
#include "runtime/measure/usage.h"

#include <stdlib.h>
#include <string.h>

#include "runtime/base/log.h"

int usage_take_disks(struct usage_report *r, const struct disk_set *s)
{
	double window_s = s->end_ns > s->start_ns ? (double)(s->end_ns - s->start_ns) / 1e9 : 0;

	r->disk_window_s = window_s;
	r->disk = s->ndev ? calloc((size_t)s->ndev, sizeof(*r->disk)) : NULL;
	r->none = s->nnone ? calloc((size_t)s->nnone, sizeof(*r->none)) : NULL;
	if ((s->ndev && !r->disk) || (s->nnone && !r->none))
		return -1;
	for (int i = 0; i < s->ndev; i++) {
		const struct disk_dev *d = &s->dev[i];
		struct usage_disk *u = &r->disk[i];

		snprintf(u->name, sizeof(u->name), "%s", d->name);
		snprintf(u->on, sizeof(u->on), "%s", d->on);
		u->major = d->major;
		u->minor = d->minor;
		u->found = d->started && d->ended;
		if (u->found)
			diskstats_delta(&d->at_start, &d->at_end, window_s, &u->u);
	}
	r->ndisk = s->ndev;
	if (s->nnone)
		memcpy(r->none, s->none, (size_t)s->nnone * sizeof(*r->none));
	r->nnone = s->nnone;
	return 0;
}

/* "CPU name (N processes): fields", the instances of one definition from r->cpu[*i]. */
static void print_process(FILE *out, const struct usage_report *r, int *i)
{
	const char *name = r->cpu[*i].process;
	struct cpu_usage sum = { 0 };
	int n = 0;

	for (; *i < r->ncpu && strcmp(r->cpu[*i].process, name) == 0; (*i)++, n++)
		cpuuse_add(&sum, &r->cpu[*i].u);
	log_stamp(out);
	fprintf(out, "CPU %s (%d process%s): ", name, n, n == 1 ? "" : "es");
	cpuuse_fields(out, &sum);
	fputc('\n', out);
}

static void print_disk(FILE *out, const struct usage_disk *d)
{
	log_stamp(out);
	fprintf(out, "Disk %s", d->name);
	if (d->on[0])
		fprintf(out, " (on %s)", d->on);
	if (d->found) {
		fputs(": ", out);
		diskstats_fields(out, &d->u);
		fputc('\n', out);
	} else {
		fputs(": not in /proc/diskstats at both ends of the window: no disk statistics\n", out);
	}
}

void usage_print(FILE *out, const struct usage_report *r, const char *note)
{
	if (!r->measured)
		return;
	log_stamp(out);
	fprintf(out, "CPU use over the %.3f s window (100%% = one CPU busy)%s%s\n",
		r->window_s, note ? ", " : "", note ? note : "");
	for (int i = 0; i < r->ncpu;)
		print_process(out, r, &i);
	log_stamp(out);
	fputs("CPU flowbench (master): ", out);
	cpuuse_fields(out, &r->master.u);
	fputc('\n', out);
	if (r->ndisk) {
		log_stamp(out);
		fprintf(out, "Disk stats (read/write) over %.3f s, every process's I/O on the device:\n",
			r->disk_window_s);
	}
	for (int i = 0; i < r->ndisk; i++)
		print_disk(out, &r->disk[i]);
	for (int i = 0; i < r->nnone; i++) {
		log_stamp(out);
		fprintf(out, "Disk dir %s: no block device (%s): no disk statistics\n",
			r->none[i].dir, r->none[i].fstype);
	}
	fflush(out);
}

void usage_summarize(const struct usage_report *r, struct usage_summary *s)
{
	memset(s, 0, sizeof(*s));
	if (!r || !r->measured)
		return;
	s->measured = true;
	s->window_s = r->window_s;
	s->disk_window_s = r->disk_window_s;
	for (int i = 0; i < r->ncpu; i++)
		cpuuse_add(&s->workers, &r->cpu[i].u);
	s->master = r->master.u;
	s->ndisk_total = r->ndisk;
	for (; s->ndisk < r->ndisk && s->ndisk < USAGE_SUMMARY_DISKS; s->ndisk++)
		s->disk[s->ndisk] = r->disk[s->ndisk];
}

int usage_copy(struct usage_report *dst, const struct usage_report *src)
{
	*dst = *src;
	dst->cpu = NULL;
	dst->disk = NULL;
	dst->none = NULL;
	if ((src->ncpu && !(dst->cpu = malloc((size_t)src->ncpu * sizeof(*dst->cpu)))) ||
	    (src->ndisk && !(dst->disk = malloc((size_t)src->ndisk * sizeof(*dst->disk)))) ||
	    (src->nnone && !(dst->none = malloc((size_t)src->nnone * sizeof(*dst->none))))) {
		usage_free(dst);
		return -1;
	}
	if (src->ncpu)
		memcpy(dst->cpu, src->cpu, (size_t)src->ncpu * sizeof(*dst->cpu));
	if (src->ndisk)
		memcpy(dst->disk, src->disk, (size_t)src->ndisk * sizeof(*dst->disk));
	if (src->nnone)
		memcpy(dst->none, src->none, (size_t)src->nnone * sizeof(*dst->none));
	return 0;
}

void usage_free(struct usage_report *r)
{
	free(r->cpu);
	free(r->disk);
	free(r->none);
	memset(r, 0, sizeof(*r));
}
