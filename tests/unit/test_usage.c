/*
 * test_usage.c - the window's CPU and disk use from fixed kernel text:
 * /proc/diskstats lines of old and new kernels, a device that is not
 * there, the deltas and the utilisation, /proc/<pid>/stat with an awkward
 * command name, the context switches of /proc/<pid>/status, and the
 * printed lines (instances summed per process, the "no block device"
 * line), and finding a directory's mount in /proc/self/mountinfo (btrfs's
 * anonymous device numbers, escaped mount points, nested mounts).
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/measure/cpuuse.h"
#include "runtime/measure/diskstats.h"
#include "runtime/measure/usage.h"

#include "tests/unit/check_main.h"

/* Before 4.18: the 11 counters (14 fields). */
static const char line14[] = "   8       0 sda 1234 56 7890 123 456 78 9012 345 0 400 468\n";
/* 5.5 and later (6.x): discards and flushes too (20 fields). */
static const char line20[] =
	"   7       0 loop0 10 1 80 3 2000 4 16000 900 2 1000 903 5 0 40 1 6 7\n";

START_TEST(test_parse_14_fields)
{
	struct disk_counters c;
	unsigned ma, mi;
	char name[32];

	ck_assert_int_eq(diskstats_parse_line(line14, &ma, &mi, name, sizeof(name), &c), 0);
	ck_assert_uint_eq(ma, 8);
	ck_assert_uint_eq(mi, 0);
	ck_assert_str_eq(name, "sda");
	ck_assert_uint_eq(c.ios[DISK_READ], 1234);
	ck_assert_uint_eq(c.merges[DISK_READ], 56);
	ck_assert_uint_eq(c.sectors[DISK_READ], 7890);
	ck_assert_uint_eq(c.ticks[DISK_READ], 123);
	ck_assert_uint_eq(c.ios[DISK_WRITE], 456);
	ck_assert_uint_eq(c.merges[DISK_WRITE], 78);
	ck_assert_uint_eq(c.sectors[DISK_WRITE], 9012);
	ck_assert_uint_eq(c.ticks[DISK_WRITE], 345);
	ck_assert_uint_eq(c.io_ticks, 400);
	ck_assert_uint_eq(c.in_queue, 468);
}
END_TEST

START_TEST(test_parse_20_fields)
{
	struct disk_counters c;
	unsigned ma, mi;
	char name[32];

	ck_assert_int_eq(diskstats_parse_line(line20, &ma, &mi, name, sizeof(name), &c), 0);
	ck_assert_uint_eq(ma, 7);
	ck_assert_str_eq(name, "loop0");
	ck_assert_uint_eq(c.ios[DISK_WRITE], 2000);
	ck_assert_uint_eq(c.sectors[DISK_WRITE], 16000);
	ck_assert_uint_eq(c.ticks[DISK_WRITE], 900);
	ck_assert_uint_eq(c.io_ticks, 1000);
	ck_assert_uint_eq(c.in_queue, 903);     /* not a discard or flush field */
}
END_TEST

START_TEST(test_parse_refuses_short_lines)
{
	struct disk_counters c;
	unsigned ma, mi;
	char name[32];

	ck_assert_int_eq(diskstats_parse_line("   8  0 sda 1 2 3 4 5 6 7 8 9 10\n", &ma, &mi,
					      name, sizeof(name), &c), -1);
	ck_assert_int_eq(diskstats_parse_line("", &ma, &mi, name, sizeof(name), &c), -1);
	ck_assert_int_eq(diskstats_parse_line("8 0 sda x 2 3 4 5 6 7 8 9 10 11\n", &ma, &mi,
					      name, sizeof(name), &c), -1);
}
END_TEST

START_TEST(test_find_and_missing)
{
	char text[256];
	struct disk_counters c;
	char name[32];

	snprintf(text, sizeof(text), "%s%s", line14, line20);
	ck_assert_int_eq(diskstats_find(text, 7, 0, name, sizeof(name), &c), 0);
	ck_assert_str_eq(name, "loop0");
	ck_assert_uint_eq(c.ios[DISK_READ], 10);
	ck_assert_int_eq(diskstats_find(text, 8, 0, name, sizeof(name), &c), 0);
	ck_assert_str_eq(name, "sda");
	ck_assert_int_eq(diskstats_find(text, 8, 1, name, sizeof(name), &c), -1);
	ck_assert_int_eq(diskstats_find("", 8, 0, name, sizeof(name), &c), -1);
}
END_TEST

START_TEST(test_disk_delta_and_util)
{
	struct disk_counters a = { .ios = { 10, 20 }, .merges = { 1, 2 }, .sectors = { 80, 160 },
				   .ticks = { 5, 6 }, .io_ticks = 1000, .in_queue = 50 };
	struct disk_counters b = { .ios = { 15, 1020 }, .merges = { 1, 12 },
				   .sectors = { 120, 8160 }, .ticks = { 9, 606 },
				   .io_ticks = 1500, .in_queue = 660 };
	struct disk_usage u;

	diskstats_delta(&a, &b, 2.0, &u);
	ck_assert_uint_eq(u.d.ios[DISK_READ], 5);
	ck_assert_uint_eq(u.d.ios[DISK_WRITE], 1000);
	ck_assert_uint_eq(u.d.merges[DISK_WRITE], 10);
	ck_assert_uint_eq(u.d.sectors[DISK_WRITE], 8000);
	ck_assert_uint_eq(u.d.ticks[DISK_WRITE], 600);
	ck_assert_uint_eq(u.d.io_ticks, 500);
	ck_assert_uint_eq(u.d.in_queue, 610);
	ck_assert_double_eq_tol(u.util_pct, 25.0, 1e-9);   /* 500 ms of 2 s */
	b.io_ticks = 4000;
	diskstats_delta(&a, &b, 2.0, &u);
	ck_assert_double_eq_tol(u.util_pct, 100.0, 1e-9);  /* never above 100 */
	diskstats_delta(&b, &a, 2.0, &u);                  /* a counter that went back */
	ck_assert_uint_eq(u.d.ios[DISK_WRITE], 0);
	ck_assert_double_eq_tol(u.util_pct, 0.0, 1e-9);
	diskstats_delta(&a, &b, 0.0, &u);                  /* an empty window */
	ck_assert_double_eq_tol(u.util_pct, 0.0, 1e-9);
}
END_TEST

START_TEST(test_parse_stat)
{
	/* the command name holds a space and a parenthesis */
	const char *text = "4321 (my (odd) name) S 1 4321 4321 0 -1 4194560 300 7 5 2 "
			   "250 120 3 4 20 0 3 0 12345 1000000 200 18446744073709551615\n";
	struct cpu_sample s = { .ctx = 99 };

	ck_assert_int_eq(cpuuse_parse_stat(text, 100, &s), 0);
	ck_assert_uint_eq(s.minflt, 300);
	ck_assert_uint_eq(s.majflt, 5);
	ck_assert_uint_eq(s.user_us, 2500000);
	ck_assert_uint_eq(s.sys_us, 1200000);
	ck_assert_uint_eq(s.ctx, 99);           /* not stat's */
	ck_assert_int_eq(cpuuse_parse_stat("4321 no parentheses", 100, &s), -1);
	ck_assert_int_eq(cpuuse_parse_stat("4321 (x) S 1 2", 100, &s), -1);
	ck_assert_int_eq(cpuuse_parse_stat(text, 0, &s), -1);
}
END_TEST

START_TEST(test_parse_status_ctx)
{
	const char *text = "Name:\tw\nState:\tS (sleeping)\nvoluntary_ctxt_switches:\t120\n"
			   "nonvoluntary_ctxt_switches:\t7\n";
	uint64_t ctx = 0;

	ck_assert_int_eq(cpuuse_parse_status_ctx(text, &ctx), 0);
	ck_assert_uint_eq(ctx, 127);
	ck_assert_int_eq(cpuuse_parse_status_ctx("Name:\tw\nvoluntary_ctxt_switches:\t1\n", &ctx), -1);
}
END_TEST

START_TEST(test_cpu_delta)
{
	struct cpu_sample a = { .user_us = 1000000, .sys_us = 500000, .ctx = 10, .majflt = 1,
				.minflt = 100 };
	struct cpu_sample b = { .user_us = 2500000, .sys_us = 1000000, .ctx = 35, .majflt = 1,
				.minflt = 160 };
	struct cpu_usage u;

	cpuuse_delta(&a, &b, 2.0, &u);
	ck_assert_double_eq_tol(u.user_s, 1.5, 1e-9);
	ck_assert_double_eq_tol(u.sys_s, 0.5, 1e-9);
	ck_assert_double_eq_tol(u.user_pct, 75.0, 1e-9);   /* of one CPU over 2 s */
	ck_assert_double_eq_tol(u.sys_pct, 25.0, 1e-9);
	ck_assert_uint_eq(u.ctx, 25);
	ck_assert_uint_eq(u.majflt, 0);
	ck_assert_uint_eq(u.minflt, 60);
}
END_TEST

/* The printed lines of a fixed report, into a string (caller frees). */
static char *printed(const struct usage_report *r, const char *note)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	usage_print(f, r, note);
	fclose(f);
	return buf;
}

START_TEST(test_print)
{
	struct usage_cpu cpu[3] = {
		{ .process = "writer", .instance = 1,
		  .u = { .user_pct = 10, .sys_pct = 20, .ctx = 5, .minflt = 1 } },
		{ .process = "writer", .instance = 2,
		  .u = { .user_pct = 30, .sys_pct = 40, .ctx = 6, .minflt = 2 } },
		{ .process = "reader", .instance = 1,
		  .u = { .user_pct = 1.5, .sys_pct = 2.25, .ctx = 7, .majflt = 3 } },
	};
	struct usage_disk disk = { .name = "sda1", .on = "sda", .found = true,
				   .u = { .d = { .ios = { 3, 4 }, .in_queue = 9 },
					  .util_pct = 12.5 } };
	struct disk_none none = { .dir = "/dev/shm/x", .fstype = "tmpfs" };
	struct usage_report r = { .measured = true, .window_s = 2, .disk_window_s = 2,
				  .cpu = cpu, .ncpu = 3, .disk = &disk, .ndisk = 1,
				  .none = &none, .nnone = 1,
				  .master = { .u = { .sys_pct = 0.5, .ctx = 11 } } };
	char *out = printed(&r, NULL);

	ck_assert_ptr_nonnull(strstr(out, "CPU use over the 2.000 s window (100% = one CPU busy)\n"));
	ck_assert_ptr_nonnull(strstr(out, "CPU writer (2 processes): usr=40.00%, sys=60.00%, ctx=11, majf=0, minf=3\n"));
	ck_assert_ptr_nonnull(strstr(out, "CPU reader (1 process): usr=1.50%, sys=2.25%, ctx=7, majf=3, minf=0\n"));
	ck_assert_ptr_nonnull(strstr(out, "CPU flowbench (master): usr=0.00%, sys=0.50%, ctx=11, majf=0, minf=0\n"));
	ck_assert_ptr_nonnull(strstr(out, "Disk sda1 (on sda): ios=3/4, sectors=0/0, merge=0/0, ticks=0/0, in_queue=9, util=12.50%\n"));
	ck_assert_ptr_nonnull(strstr(out, "Disk dir /dev/shm/x: no block device (tmpfs): no disk statistics\n"));
	free(out);
	out = printed(&r, "this client's processes and host only");
	ck_assert_ptr_nonnull(strstr(out, "CPU use over the 2.000 s window (100% = one CPU busy), this client's processes and host only\n"));
	free(out);
	r.measured = false;
	out = printed(&r, NULL);
	ck_assert_str_eq(out, "");
	free(out);
}
END_TEST

/*
 * flowbench-mpi's fixed-size summary of a client with 11 devices: the
 * first 8 kept in order, and the real count carried (ndisk_total), so
 * the results file and rank 0's output can say that 3 are not shown.
 * A client with 3 keeps all 3; an unmeasured one has none.
 */
START_TEST(test_summary_counts_every_disk)
{
	struct usage_disk disk[11];
	struct usage_cpu cpu[2] = {
		{ .process = "w", .instance = 1, .u = { .user_pct = 10, .sys_pct = 20, .ctx = 3 } },
		{ .process = "w", .instance = 2, .u = { .user_pct = 5, .sys_pct = 6, .ctx = 4 } },
	};
	struct usage_report r = { .measured = true, .window_s = 2, .cpu = cpu, .ncpu = 2,
				  .disk = disk, .ndisk = 11 };
	struct usage_summary s;

	memset(disk, 0, sizeof(disk));
	for (int i = 0; i < 11; i++) {
		snprintf(disk[i].name, sizeof(disk[i].name), "vd%c", 'a' + i);
		disk[i].found = true;
		disk[i].u.util_pct = i;
	}
	usage_summarize(&r, &s);
	ck_assert(s.measured);
	ck_assert_int_eq(s.ndisk, USAGE_SUMMARY_DISKS);
	ck_assert_int_eq(USAGE_SUMMARY_DISKS, 8);
	ck_assert_int_eq(s.ndisk_total, 11);
	for (int i = 0; i < s.ndisk; i++)
		ck_assert_str_eq(s.disk[i].name, disk[i].name);
	ck_assert_double_eq(s.workers.user_pct, 15);
	ck_assert_uint_eq(s.workers.ctx, 7);

	r.ndisk = 3;
	usage_summarize(&r, &s);
	ck_assert_int_eq(s.ndisk, 3);
	ck_assert_int_eq(s.ndisk_total, 3);

	r.measured = false;
	usage_summarize(&r, &s);
	ck_assert(!s.measured);
	ck_assert_int_eq(s.ndisk, 0);
	ck_assert_int_eq(s.ndisk_total, 0);
}
END_TEST

/* A mount table: root on vda, btrfs (anonymous st_dev) on /data, a tmpfs
   on a point with a space, a tmpfs mounted over another on /scratch. */
static const char mountinfo[] =
	"22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
	"40 22 0:45 / /data rw,relatime shared:20 - btrfs /dev/vdb rw,space_cache=v2\n"
	"41 22 0:50 / /my\\040files rw - tmpfs tmpfs rw,size=1024k\n"
	"42 22 0:51 / /scratch rw - tmpfs first rw\n"
	"43 42 0:52 / /scratch rw - tmpfs second rw\n"
	"not a mount line\n";

/* Look `path` (device ma:mi) up in a fresh copy of `mountinfo`. */
static int lookup(const char *path, unsigned ma, unsigned mi, struct disk_mount *m)
{
	char *text = strdup(mountinfo);
	int rc;

	ck_assert_ptr_nonnull(text);
	rc = diskstats_mount_lookup(text, path, ma, mi, m);
	free(text);
	return rc;
}

START_TEST(test_mount_lookup)
{
	struct disk_mount *m = malloc(sizeof(*m));

	ck_assert_ptr_nonnull(m);
	/* by device number: btrfs's source names the block device */
	ck_assert_int_eq(lookup("/data/x", 0, 45, m), 0);
	ck_assert_str_eq(m->fstype, "btrfs");
	ck_assert_str_eq(m->source, "/dev/vdb");
	/* a subvolume's own anonymous number: the innermost mount point */
	ck_assert_int_eq(lookup("/data/sub/x", 0, 77, m), 0);
	ck_assert_str_eq(m->point, "/data");
	ck_assert_str_eq(m->source, "/dev/vdb");
	/* an escaped mount point */
	ck_assert_int_eq(lookup("/my files/d", 0, 99, m), 0);
	ck_assert_str_eq(m->point, "/my files");
	ck_assert_str_eq(m->fstype, "tmpfs");
	/* "/my filesX" is not under "/my files": the root */
	ck_assert_int_eq(lookup("/my filesX", 0, 99, m), 0);
	ck_assert_str_eq(m->point, "/");
	ck_assert_str_eq(m->fstype, "ext4");
	/* two mounts on one point: the later is on top */
	ck_assert_int_eq(lookup("/scratch/d", 0, 98, m), 0);
	ck_assert_str_eq(m->source, "second");
	/* nothing at all */
	{
		char empty[] = "garbage\n";

		ck_assert_int_eq(diskstats_mount_lookup(empty, "/x", 0, 1, m), -1);
	}
	free(m);
}
END_TEST

static Suite *usage_suite(void)
{
	Suite *s = suite_create("usage");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse_14_fields);
	tcase_add_test(tc, test_parse_20_fields);
	tcase_add_test(tc, test_parse_refuses_short_lines);
	tcase_add_test(tc, test_find_and_missing);
	tcase_add_test(tc, test_disk_delta_and_util);
	tcase_add_test(tc, test_parse_stat);
	tcase_add_test(tc, test_parse_status_ctx);
	tcase_add_test(tc, test_cpu_delta);
	tcase_add_test(tc, test_print);
	tcase_add_test(tc, test_summary_counts_every_disk);
	tcase_add_test(tc, test_mount_lookup);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(usage_suite)
