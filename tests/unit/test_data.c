/*
 * test_data.c - what the write flowops write (flowops/data.c), from
 * compiled WML: fio's pattern forms in hex; zeros, a pattern from the
 * buffer's start, flowbench's default pattern; compress's chunks (a
 * random head of exactly (100 - N) % of each chunk, then the pattern from
 * its first byte, or zeros), one chunk with compresschunk=0; random
 * bytes the same for one seed and new for each fill; dedupe's repeats
 * (always at 100, never at 0, about half at 50); scramble's offset and
 * stamp in every whole 512-byte block; and every located error of the
 * attributes (and of blockalign), --compat filebench's refusal included.
 */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flowops/common.h"
#include "flowops/data.h"
#include "flowops/io.h"
#include "flowops/registry.h"

#include "tests/unit/check_main.h"
#include "tests/unit/compiled.h"

/* A workload of one flowop line `line` (writing to file f). */
static void compile_line(struct result *r, const char *line,
			 enum plan_semantics sem)
{
	struct compile_options opts = { .registry = &flowops_registry, .seed = 7,
					.semantics = sem };
	char *src;

	ck_assert_int_ge(asprintf(&src,
				  "define file name=f,path=/tmp,size=1m\n"
				  "define process name=p\n{\n  thread name=t\n  {\n"
				  "    %s\n  }\n}\nrun 1\n", line), 0);
	compile_with(r, src, &opts);
	free(src);
}

/* The data rule of the one flowop of `line` (which must compile). */
static void gen_of(struct data_gen *g, struct result *r, const char *line,
		   uint64_t seed)
{
	compile_line(r, line, PLAN_SEM_FLOWBENCH);
	ck_assert_msg(r->errors == 0, "%s", r->msgs);
	ck_assert(data_given(&r->plan.flowops[0], IO_DATA));
	ck_assert_int_eq(data_gen_setup(g, &r->plan.flowops[0], IO_DATA, seed), 0);
}

/* `line` fails to compile with a message containing `want`. */
static void refused(const char *line, const char *want, enum plan_semantics sem)
{
	struct result r;

	compile_line(&r, line, sem);
	ck_assert_msg(r.errors > 0, "accepted: %s", line);
	ck_assert_msg(strstr(r.msgs, want), "%s: wanted '%s' in:\n%s", line, want, r.msgs);
	release(&r);
}

START_TEST(test_pattern_forms)
{
	unsigned char b[DATA_PATTERN_MAX];
	char longhex[2 * DATA_PATTERN_MAX + 8] = "0x";

	ck_assert_uint_eq(data_parse_pattern("0xdeadbeef", b), 4);
	ck_assert(b[0] == 0xde && b[1] == 0xad && b[2] == 0xbe && b[3] == 0xef);
	/* an odd count: the first digit a byte of its own, as fio reads it */
	ck_assert_uint_eq(data_parse_pattern("0XaBc", b), 2);
	ck_assert(b[0] == 0x0a && b[1] == 0xbc);
	ck_assert_uint_eq(data_parse_pattern("deadbeef", b), 0);
	ck_assert_uint_eq(data_parse_pattern("0x", b), 0);
	ck_assert_uint_eq(data_parse_pattern("0x12g4", b), 0);
	for (int i = 0; i < DATA_PATTERN_MAX; i++)
		strcat(longhex, "ab");
	ck_assert_uint_eq(data_parse_pattern(longhex, b), DATA_PATTERN_MAX);
	strcat(longhex, "cd");
	ck_assert_uint_eq(data_parse_pattern(longhex, b), 0);
}
END_TEST

START_TEST(test_fixed_contents)
{
	struct result r;
	struct data_gen g;
	unsigned char buf[5000], want[5000];

	gen_of(&g, &r, "flowop write name=w,filename=f,iosize=4k,data=zero", 1);
	memset(buf, 0x77, sizeof(buf));
	data_fill(&g, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		ck_assert_uint_eq(buf[i], 0);
	ck_assert(!data_per_write(&g));
	data_gen_free(&g);
	release(&r);

	gen_of(&g, &r, "flowop write name=w,filename=f,iosize=4k,pattern=\"0xdeadbeef\"", 1);
	data_fill(&g, buf, sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		ck_assert_uint_eq(buf[i], ((const unsigned char[]){ 0xde, 0xad, 0xbe, 0xef })[i % 4]);
	data_gen_free(&g);
	release(&r);

	/* data=pattern alone: flowbench's own pattern, as without the attributes */
	gen_of(&g, &r, "flowop write name=w,filename=f,iosize=4k,data=pattern", 1);
	data_fill(&g, buf, sizeof(buf));
	common_fill_pattern((char *)want, sizeof(want), 0x5a);
	ck_assert_mem_eq(buf, want, sizeof(buf));
	data_gen_free(&g);
	release(&r);
}
END_TEST

/* How many of the n bytes at p differ from the byte before them. */
static size_t changes(const unsigned char *p, size_t n)
{
	size_t c = 0;

	for (size_t i = 1; i < n; i++)
		c += p[i] != p[i - 1];
	return c;
}

START_TEST(test_compress_chunks)
{
	struct result r;
	struct data_gen g;
	unsigned char buf[4096 + 100];

	/* fio's ZFS jobs: 66 % of each 4 KiB chunk the pattern 0xdeadbeef */
	gen_of(&g, &r, "flowop write name=w,filename=f,iosize=8k,compress=66,"
	       "compresschunk=4k,pattern=\"0xdeadbeef\",refill", 3);
	ck_assert(data_per_write(&g));
	data_fill(&g, buf, sizeof(buf));
	/* chunk 1: 4096 * 34 / 100 = 1392 random bytes, then the pattern */
	ck_assert_uint_gt(changes(buf, 1392), 1300);
	for (size_t i = 1392; i < 4096; i++)
		ck_assert_uint_eq(buf[i], ((const unsigned char[]){ 0xde, 0xad, 0xbe,
							     0xef })[(i - 1392) % 4]);
	/* the last, short chunk: 100 * 34 / 100 = 34 random bytes */
	ck_assert_uint_gt(changes(buf + 4096, 34), 20);
	ck_assert_uint_eq(buf[4096 + 34], 0xde);
	ck_assert_uint_eq(buf[4096 + 99], 0xad);     /* pattern byte 65 */
	/* the chunks' random heads differ */
	ck_assert(memcmp(buf, buf + 4096, 34) != 0);
	data_gen_free(&g);
	release(&r);

	/* zeros as the compressible part, 512-byte chunks by default */
	gen_of(&g, &r, "flowop write name=w,filename=f,iosize=4k,data=zero,compress=50", 3);
	data_fill(&g, buf, 4096);
	for (size_t c = 0; c < 4096; c += 512) {
		ck_assert_uint_gt(changes(buf + c, 256), 200);
		for (size_t i = 256; i < 512; i++)
			ck_assert_uint_eq(buf[c + i], 0);
	}
	data_gen_free(&g);
	release(&r);

	/* compresschunk=0: the whole write one chunk (fio's verify fill) */
	gen_of(&g, &r, "flowop write name=w,filename=f,iosize=4k,data=zero,compress=75,"
	       "compresschunk=0", 3);
	data_fill(&g, buf, 4000);
	ck_assert_uint_gt(changes(buf, 1000), 900);
	for (size_t i = 1000; i < 4000; i++)
		ck_assert_uint_eq(buf[i], 0);
	data_gen_free(&g);
	release(&r);
}
END_TEST

START_TEST(test_random_and_dedupe)
{
	struct result r;
	struct data_gen g, h;
	static unsigned char a[4096], b[4096], c[4096];
	int repeats = 0, n = 2000;

	gen_of(&g, &r, "flowop write name=w,filename=f,iosize=4k,data=random", 11);
	ck_assert_int_eq(data_gen_setup(&h, &r.plan.flowops[0], IO_DATA, 11), 0);
	data_fill(&g, a, sizeof(a));
	data_fill(&h, b, sizeof(b));
	ck_assert_mem_eq(a, b, sizeof(a));      /* one seed, the same bytes */
	ck_assert_uint_gt(changes(a, sizeof(a)), 4000);
	data_fill(&g, c, sizeof(c));
	ck_assert(memcmp(a, c, sizeof(a)) != 0);        /* each fill anew */
	data_gen_free(&h);
	ck_assert_int_eq(data_gen_setup(&h, &r.plan.flowops[0], IO_DATA, 12), 0);
	data_fill(&h, b, sizeof(b));
	ck_assert(memcmp(a, b, sizeof(a)) != 0);        /* another seed */
	data_gen_free(&g);
	data_gen_free(&h);
	release(&r);

	gen_of(&g, &r, "flowop write name=w,filename=f,iosize=4k,data=random,refill,dedupe=100", 5);
	data_fill(&g, a, sizeof(a));
	for (int i = 0; i < 10; i++) {
		data_fill(&g, b, sizeof(b));
		ck_assert_mem_eq(a, b, sizeof(a));
	}
	data_gen_free(&g);
	release(&r);

	gen_of(&g, &r, "flowop write name=w,filename=f,iosize=4k,data=random,refill,dedupe=0", 5);
	data_fill(&g, a, sizeof(a));
	data_fill(&g, b, sizeof(b));
	ck_assert(memcmp(a, b, sizeof(a)) != 0);
	data_gen_free(&g);
	release(&r);

	/* dedupe=50 with compress: whole writes repeat, about half of them */
	gen_of(&g, &r, "flowop write name=w,filename=f,iosize=4k,data=zero,compress=40,"
	       "refill,dedupe=50", 5);
	data_fill(&g, a, 1024);
	for (int i = 0; i < n; i++) {
		data_fill(&g, b, 1024);
		repeats += memcmp(a, b, 1024) == 0;
		memcpy(a, b, 1024);
	}
	/* binomial(2000, 0.5): sd 22.4; 4.5 sd */
	ck_assert_msg(fabs(repeats - n / 2.0) < 100, "%d repeats of %d", repeats, n);
	data_gen_free(&g);
	release(&r);
}
END_TEST

START_TEST(test_scramble)
{
	struct result r;
	struct data_gen g;
	static unsigned char a[2 * 4096 + 300], b[sizeof(a)];
	uint64_t v, s1, s2;

	gen_of(&g, &r, "flowop write name=w,filename=f,iosize=4k,data=zero,scramble", 9);
	ck_assert(data_per_write(&g));
	memset(a, 0, sizeof(a));
	data_scramble(&g, a, sizeof(a), 1 << 20);
	for (size_t blk = 0; blk + 512 <= sizeof(a); blk += 512) {
		size_t at = SIZE_MAX;

		for (size_t line = 0; line < 512; line += 64) {
			memcpy(&v, a + blk + line, 8);
			if (v == (1u << 20) + blk)
				at = line;
		}
		ck_assert_msg(at != SIZE_MAX, "block %zu has no offset", blk);
		memcpy(&s1, a + blk + 56, 8);
		ck_assert_uint_eq(s1, 1);       /* the first write */
	}
	/* the 300 bytes after the last whole block are left alone */
	for (size_t i = 2 * 4096; i < sizeof(a); i++)
		ck_assert_uint_eq(a[i], 0);
	memcpy(b, a, sizeof(a));
	data_scramble(&g, b, sizeof(b), 1 << 20);
	memcpy(&s2, b + 56, 8);
	ck_assert_uint_eq(s2, 2);               /* the second write */
	memcpy(&s1, a + 48, 8);
	memcpy(&s2, b + 48, 8);
	ck_assert_uint_eq(s1, s2);              /* the instance's own number */
	ck_assert(memcmp(a, b, 512) != 0);      /* a block never repeats */
	data_gen_free(&g);
	release(&r);
}
END_TEST

START_TEST(test_errors)
{
	const enum plan_semantics fb = PLAN_SEM_FLOWBENCH;

	refused("flowop write name=w,filename=f,iosize=4k,data=rand", "t.f:6:", fb);
	refused("flowop write name=w,filename=f,iosize=4k,data=rand",
		"data must be pattern, zero or random, not rand", fb);
	refused("flowop write name=w,filename=f,iosize=4k,pattern=\"deadbeef\"",
		"pattern must be hex digits \"0x...\"", fb);
	refused("flowop write name=w,filename=f,iosize=4k,data=zero,pattern=\"0x01\"",
		"pattern with data=zero", fb);
	refused("flowop write name=w,filename=f,iosize=4k,data=random,compress=50",
		"compress with data=random", fb);
	refused("flowop write name=w,filename=f,iosize=4k,compress=101",
		"compress must be 0 to 100", fb);
	refused("flowop write name=w,filename=f,iosize=4k,compresschunk=4k",
		"compresschunk needs compress", fb);
	refused("flowop write name=w,filename=f,iosize=4k,data=random,dedupe=20",
		"dedupe needs refill", fb);
	refused("flowop write name=w,filename=f,iosize=4k,refill,dedupe=20",
		"dedupe needs random bytes", fb);
	refused("flowop write name=w,filename=f,iosize=4k,data=zero,compress=100,refill,dedupe=2",
		"dedupe needs random bytes", fb);
	refused("flowop aiowrite name=w,filename=f,iosize=4k,data=random,scramble",
		"scramble on aiowrite needs iodepth", fb);
	refused("flowop aiowrite name=w,filename=f,iosize=4k,data=random,refill",
		"refill on aiowrite needs iodepth", fb);
	refused("flowop read name=w,filename=f,iosize=4k,data=random",
		"does not take attribute 'data'", fb);
	refused("flowop aioread name=w,filename=f,iosize=4k,refill",
		"does not take attribute 'refill'", fb);
	refused("flowop write name=w,filename=f,iosize=4k,data=random",
		"--compat filebench refuses them", PLAN_SEM_FILEBENCH);
	/* blockalign */
	refused("flowop read name=w,filename=f,iosize=4k,blockalign=512",
		"blockalign needs random", fb);
	refused("flowop read name=w,filename=f,iosize=4k,random,blockalign=0",
		"blockalign must be greater than 0", fb);
	refused("flowop read name=w,filename=f,iosize=4k,random,blockalign=512",
		"--compat filebench refuses it", PLAN_SEM_FILEBENCH);
}
END_TEST

START_TEST(test_accepted)
{
	static const char *const ok[] = {
		"flowop write name=w,filename=f,iosize=4k,data=random,scramble",
		"flowop write name=w,filename=f,iosize=4k,compress=0,refill,dedupe=10",
		"flowop aiowrite name=w,filename=f,iosize=4k,iodepth=4,data=random,refill,dedupe=5",
		"flowop aiowrite name=w,filename=f,iosize=4k,data=zero",
		"flowop aioread name=w,filename=f,iosize=4k,iodepth=2,misalign=4k,stride=8k",
		"flowop aiowrite name=w,filename=f,iosize=4k,random,seqfollows,blockalign=512",
		/* randommap over blocks of blockalign bytes (bmap.h) */
		"flowop read name=w,filename=f,iosize=4k,random,randommap,blockalign=512",
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		struct result r;

		compile_line(&r, ok[i], PLAN_SEM_FLOWBENCH);
		ck_assert_msg(r.errors == 0, "%s:\n%s", ok[i], r.msgs);
		release(&r);
	}
}
END_TEST

static Suite *data_suite(void)
{
	Suite *s = suite_create("data");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_pattern_forms);
	tcase_add_test(tc, test_fixed_contents);
	tcase_add_test(tc, test_compress_chunks);
	tcase_add_test(tc, test_random_and_dedupe);
	tcase_add_test(tc, test_scramble);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_accepted);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(data_suite)
