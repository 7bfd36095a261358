/*
 * test_dio.c - the direct-I/O alignment check (flowops/dio.c) names both
 * numbers of an impossible combination and accepts the possible ones
 * (512-byte sizes on a 512-byte device, 4 KiB misaligned by 2 KiB); the
 * probe gives a power-of-two alignment for a real file; --compat
 * filebench's 512-byte buffers are refused where the device needs more;
 * thread memory (runtime/engine/threadmem.c) is aligned, zeroed and of
 * the type asked for, and under --compat untouched until released.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "flowops/dio.h"
#include "runtime/engine/threadmem.h"

#include "tests/unit/check_main.h"

static const struct dio_align sysfs512 = { DIO_SYSFS, 512, 512, "/dev/loop0" };
static const struct dio_align sysfs4k = { DIO_SYSFS, 4096, 4096, "/dev/sda1" };

START_TEST(test_check_accepts)
{
	static const uint64_t sizes[] = { 512, 1024, 2048, 4096, 1 << 20 };
	char msg[512] = "";
	char *buf = aligned_alloc(4096, 8192);

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		ck_assert_msg(dio_check(&sysfs512, "/f", sizes[i], 0, buf, 0, msg,
					sizeof(msg)) == 0, "%s", msg);
	/* the experiment's "4k misaligned by 2k" on a 512-byte device */
	ck_assert_int_eq(dio_check(&sysfs512, "/f", 4096, 2048, buf, 0, msg, sizeof(msg)), 0);
	ck_assert_int_eq(dio_check(&sysfs512, "/f", 4096, 0, buf + 512, 512, msg,
				   sizeof(msg)), 0);
	/* a random iosize (0) is not checked here */
	ck_assert_int_eq(dio_check(&sysfs4k, "/f", 0, 0, buf, 0, msg, sizeof(msg)), 0);
	/* not probed: nothing to say */
	ck_assert_int_eq(dio_check(&(struct dio_align){ 0 }, "/f", 7, 3, buf + 1, 1,
				   msg, sizeof(msg)), 0);
	free(buf);
}
END_TEST

START_TEST(test_check_rejects)
{
	char msg[512];
	char *buf = aligned_alloc(4096, 8192);

	ck_assert_int_eq(dio_check(&sysfs4k, "/f", 6000, 0, buf, 0, msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "directio needs I/O sizes and offsets in multiples of "
			 "4096 bytes (the logical block size of /dev/sda1), but iosize is 6000");
	ck_assert_int_eq(dio_check(&sysfs4k, "/f", 4096, 2048, buf, 0, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "4096 bytes"));
	ck_assert_ptr_nonnull(strstr(msg, "misalign is 2048"));
	ck_assert_int_eq(dio_check(&sysfs512, "/f", 1000, 0, buf, 0, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "multiples of 512 bytes"));
	ck_assert_ptr_nonnull(strstr(msg, "iosize is 1000"));
	ck_assert_int_eq(dio_check(&sysfs512, "/f", 4096, 0, buf + 100, 100, msg,
				   sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "aligned to 512 bytes in memory"));
	ck_assert_ptr_nonnull(strstr(msg, "memoffset 100"));
	ck_assert_int_eq(dio_check(&(struct dio_align){ .src = DIO_UNSUPPORTED }, "/x/f",
				   4096, 0, buf, 0, msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "the file system of /x/f does not support O_DIRECT (directio)");
	ck_assert_int_eq(dio_check(&(struct dio_align){ DIO_STATX, 512, 4, "/dev/vda" },
				   "/f", 768, 0, buf, 0, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "(the direct-I/O alignment of /dev/vda, from statx)"));
	free(buf);
}
END_TEST

/* A real file: some power-of-two alignment; a directory never has statx's. */
START_TEST(test_probe)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[4096];
	struct dio_align a;
	FILE *f;

	snprintf(path, sizeof(path), "%s/test_dio.%ld", dir, (long)getpid());
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	dio_probe(-1, path, &a);
	unlink(path);
	ck_assert(a.src != DIO_NONE || a.dev[0] == '\0');
	if (a.src == DIO_STATX || a.src == DIO_SYSFS || a.src == DIO_ASSUMED) {
		ck_assert_uint_ge(a.offset_align, 1);
		ck_assert_uint_eq(a.offset_align & (a.offset_align - 1), 0);
		ck_assert_uint_ge(a.mem_align, 1);
	}
	dio_probe(-1, dir, &a);
	ck_assert(a.src == DIO_NONE || a.src == DIO_SYSFS);
	if (a.src == DIO_SYSFS)
		ck_assert(strncmp(a.dev, "/dev/", 5) == 0);
	dio_probe(-1, "/nonexistent/flowbench", &a);
	ck_assert_int_eq(a.src, DIO_NONE);
}
END_TEST

START_TEST(test_mem_anon)
{
	struct thread_mem m;
	char err[256];

	ck_assert_int_eq(thread_mem_alloc(&m, 10000, PLAN_MEM_ANON,
					  THREAD_MEM_FILL_BEFORE_RUN, "t", 0,
					  err, sizeof(err)), 0);
	ck_assert_uint_eq((uintptr_t)m.addr % 4096, 0);
	ck_assert_uint_eq(m.size, 10000);
	ck_assert_uint_ge(m.mapped, 10000);
	for (size_t i = 0; i < m.size; i++)
		ck_assert_int_eq(((char *)m.addr)[i], 0);
	memset(m.addr, 1, m.size);
	thread_mem_free(&m);
	ck_assert_ptr_null(m.addr);
	ck_assert_int_eq(thread_mem_alloc(&m, 0, PLAN_MEM_HUGETLB,
					  THREAD_MEM_FILL_BEFORE_RUN, "t", 0,
					  err, sizeof(err)), 0);
	ck_assert_ptr_null(m.addr);
}
END_TEST

/* thp: aligned to a huge page, or the error names the sysfs switch. */
START_TEST(test_mem_thp)
{
	struct thread_mem m;
	char err[512];

	if (thread_mem_alloc(&m, 3 << 20, PLAN_MEM_THP,
			     THREAD_MEM_FILL_BEFORE_RUN, "t", 0, err,
			     sizeof(err)) != 0) {
		ck_assert_ptr_nonnull(strstr(err, "thread t: memtype=thp"));
		ck_assert_ptr_nonnull(strstr(err, "transparent_hugepage/enabled"));
		return;
	}
	ck_assert_uint_eq((uintptr_t)m.addr % (2 << 20), 0);
	ck_assert_uint_eq(m.mapped % (2 << 20), 0);
	ck_assert_uint_ge(m.mapped, 3 << 20);
	thread_mem_free(&m);
}
END_TEST

/* hugetlb without free pages: the error says how many and the sysctl. */
START_TEST(test_mem_hugetlb)
{
	uint64_t hp = thread_mem_hugepage_size();
	struct thread_mem m;
	char err[512];
	char want[64];

	if (!hp)
		return;         /* no huge pages in this kernel */
	/* far more than any machine has free */
	if (thread_mem_alloc(&m, hp * 100000, PLAN_MEM_HUGETLB,
			     THREAD_MEM_FILL_BEFORE_RUN, "t", 100000, err,
			     sizeof(err)) == 0) {
		thread_mem_free(&m);
		return;
	}
	ck_assert_ptr_nonnull(strstr(err, "thread t: memtype=hugetlb needs 100000 huge pages"));
	ck_assert_ptr_nonnull(strstr(err, "sysctl vm.nr_hugepages="));
	snprintf(want, sizeof(want), "(100000 for the whole run)");
	ck_assert_ptr_nonnull(strstr(err, want));
}
END_TEST

/* --compat filebench: buffers anywhere on a 512-byte boundary. */
START_TEST(test_check_filebench)
{
	char msg[512] = "";

	ck_assert_msg(dio_check_filebench(&sysfs512, "/f", 4096, 0, msg, sizeof(msg)) == 0,
		      "%s", msg);
	ck_assert_msg(dio_check_filebench(&(struct dio_align){ DIO_STATX, 512, 4, "/dev/vda" },
					  "/f", 4096, 0, msg, sizeof(msg)) == 0, "%s", msg);
	ck_assert_int_eq(dio_check_filebench(&(struct dio_align){ 0 }, "/f", 7, 3, msg,
					     sizeof(msg)), 0);
	/* sizes are checked as always */
	ck_assert_int_eq(dio_check_filebench(&sysfs512, "/f", 1000, 0, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "iosize is 1000"));
	/* a device that needs page-aligned buffers cannot take filebench's */
	ck_assert_int_eq(dio_check_filebench(&(struct dio_align){ DIO_STATX, 512, 4096, "/dev/nvme0n1" },
					     "/f", 4096, 0, msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "directio needs buffers aligned to 4096 bytes in memory (the "
			 "direct-I/O alignment of /dev/nvme0n1, from statx), but --compat "
			 "filebench places buffers on 512-byte boundaries as filebench does, "
			 "which this device refuses; run without --compat filebench");
	ck_assert_int_eq(dio_check_filebench(&sysfs4k, "/f", 4096, 0, msg, sizeof(msg)), -1);
	ck_assert_ptr_nonnull(strstr(msg, "aligned to 4096 bytes in memory"));
	ck_assert_int_eq(dio_check_filebench(&(struct dio_align){ .src = DIO_UNSUPPORTED },
					     "/x/f", 4096, 0, msg, sizeof(msg)), -1);
	ck_assert_str_eq(msg, "the file system of /x/f does not support O_DIRECT (directio)");
}
END_TEST

/* Pages of [addr, addr + len) resident in memory (mincore). */
static size_t resident_pages(void *addr, size_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = (len + page - 1) / page, r = 0;
	unsigned char *vec = malloc(n);

	ck_assert_ptr_nonnull(vec);
	ck_assert_int_eq(mincore(addr, len, vec), 0);
	for (size_t i = 0; i < n; i++)
		r += vec[i] & 1;
	free(vec);
	return r;
}

/*
 * The fill: flowbench's faults every page in at allocation; filebench's
 * (THREAD_MEM_FILL_AT_RELEASE) leaves them all to thread_mem_zero().
 */
START_TEST(test_mem_fill)
{
	size_t len = 4u << 20, pages = len / (size_t)sysconf(_SC_PAGESIZE);
	struct thread_mem m;
	char err[256];

	ck_assert_int_eq(thread_mem_fill_of(PLAN_SEM_FLOWBENCH), THREAD_MEM_FILL_BEFORE_RUN);
	ck_assert_int_eq(thread_mem_fill_of(PLAN_SEM_FILEBENCH), THREAD_MEM_FILL_AT_RELEASE);
	ck_assert_int_eq(thread_mem_alloc(&m, len, PLAN_MEM_ANON,
					  THREAD_MEM_FILL_BEFORE_RUN, "t", 0,
					  err, sizeof(err)), 0);
	ck_assert_uint_eq(resident_pages(m.addr, len), pages);
	thread_mem_free(&m);
	ck_assert_int_eq(thread_mem_alloc(&m, len, PLAN_MEM_ANON,
					  THREAD_MEM_FILL_AT_RELEASE, "t", 0,
					  err, sizeof(err)), 0);
	ck_assert_uint_eq(resident_pages(m.addr, len), 0);
	thread_mem_zero(m.addr, m.size);
	ck_assert_uint_eq(resident_pages(m.addr, len), pages);
	for (size_t i = 0; i < len; i += 4096)
		ck_assert_int_eq(((char *)m.addr)[i], 0);
	thread_mem_free(&m);
}
END_TEST

static Suite *dio_suite(void)
{
	Suite *s = suite_create("dio");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_check_accepts);
	tcase_add_test(tc, test_check_rejects);
	tcase_add_test(tc, test_check_filebench);
	tcase_add_test(tc, test_probe);
	tcase_add_test(tc, test_mem_anon);
	tcase_add_test(tc, test_mem_thp);
	tcase_add_test(tc, test_mem_hugetlb);
	tcase_add_test(tc, test_mem_fill);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(dio_suite)
