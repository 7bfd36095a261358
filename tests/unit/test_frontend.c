/*
 * test_frontend.c - the front end's one entry (lang/frontend.h): a
 * workload read from a file or given as bytes, -D values parsed and
 * applied, errors located and counted with one closing line, and a plan
 * that owns everything it points to.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flowops/registry.h"
#include "lang/frontend.h"

#include "tests/unit/check_main.h"

static const char workload[] =
	"set $dir=/tmp\n"
	"set $nthreads=2\n"
	"define file name=f1,path=$dir,size=1m,prealloc\n"
	"define process name=p {\n"
	"  thread name=t,instances=$nthreads {\n"
	"    flowop read name=r1,filename=f1,iosize=8k\n"
	"  }\n"
	"}\n"
	"run 5\n";

/* One front-end pass over `text` (or the file `path` when text is NULL). */
struct pass {
	struct frontend_result fe;
	char *msgs;
	size_t len;
	int errors;
};

static void compile(struct pass *p, const char *path, const char *text,
		    const struct frontend_define *defs, int ndefs)
{
	FILE *err;
	struct frontend_input in = {
		.path = path, .text = text, .len = text ? strlen(text) : 0,
		.defines = defs, .ndefines = ndefs,
		.compile = { .registry = &flowops_registry, .seed = 7 },
	};

	memset(p, 0, sizeof(*p));
	err = open_memstream(&p->msgs, &p->len);
	ck_assert_ptr_nonnull(err);
	in.err = err;
	p->errors = frontend_compile(&in, &p->fe);
	fclose(err);
}

static void release(struct pass *p)
{
	frontend_free(&p->fe);
	free(p->msgs);
}

static const char *plan_var(const struct plan *pl, const char *name)
{
	for (int i = 0; i < pl->nvars; i++)
		if (strcmp(pl->var_names[i], name) == 0)
			return pl->var_names[i];
	return NULL;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && strcmp(s + n - t, tail) == 0;
}

#define HAS(p, text) \
	ck_assert_msg(strstr((p)->msgs, (text)) != NULL, \
		      "expected \"%s\", got:\n%s", (text), (p)->msgs)

/* Bytes in, a plan out, -D applied; no message at all. */
START_TEST(test_bytes_and_define)
{
	struct frontend_define def = { "nthreads", "3" };
	struct pass p;

	compile(&p, "w.f", workload, &def, 1);
	ck_assert_int_eq(p.errors, 0);
	ck_assert_str_eq(p.msgs, "");
	ck_assert_ptr_eq(p.fe.text, workload);
	ck_assert_int_eq(p.fe.plan.nthreads, 1);
	ck_assert_int_eq(p.fe.plan.threads[0].instances, 3);
	ck_assert(p.fe.plan.runtime_s == 5);
	ck_assert_uint_eq(p.fe.plan.seed, 7);
	ck_assert_str_eq(p.fe.plan.filename, "w.f");
	release(&p);
}
END_TEST

/*
 * The plan outlives the input: the -D name and the path are the
 * caller's strings, overwritten here before the plan is read.
 */
START_TEST(test_plan_owns_its_strings)
{
	char name[] = "nthreads", path[] = "w.f";
	struct frontend_define def = { name, "4" };
	struct pass p;

	compile(&p, path, workload, &def, 1);
	ck_assert_int_eq(p.errors, 0);
	memset(name, 'x', sizeof(name) - 1);
	memset(path, 'x', sizeof(path) - 1);
	ck_assert_ptr_nonnull(plan_var(&p.fe.plan, "nthreads"));
	ck_assert_str_eq(p.fe.plan.filename, "w.f");
	release(&p);
}
END_TEST

/* A file is read, its bytes kept for the results files. */
START_TEST(test_reads_the_file)
{
	char path[] = "/tmp/flowbench-frontend-XXXXXX";
	int fd = mkstemp(path);
	struct pass p;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, workload, strlen(workload)), (int)strlen(workload));
	close(fd);
	compile(&p, path, NULL, NULL, 0);
	unlink(path);
	ck_assert_int_eq(p.errors, 0);
	ck_assert_uint_eq(p.fe.len, strlen(workload));
	ck_assert_str_eq(p.fe.text, workload);
	ck_assert_int_eq(p.fe.plan.threads[0].instances, 2);
	release(&p);
}
END_TEST

START_TEST(test_unreadable_file)
{
	struct pass p;

	compile(&p, "/nonexistent/w.f", NULL, NULL, 0);
	ck_assert_int_eq(p.errors, 1);
	ck_assert_ptr_null(p.fe.text);
	ck_assert_str_eq(p.msgs, "flowbench: error: cannot read '/nonexistent/w.f': No such file or directory\n");
	release(&p);
}
END_TEST

/*
 * A bad -D value is located in its own one-line source and counted: the
 * script is then not compiled, and one closing line gives the count.
 */
START_TEST(test_bad_define_value)
{
	struct frontend_define defs[] = {
		{ "nthreads", "16kb" }, { "dir", "\"$x\"" },
	};
	struct pass p;

	compile(&p, "w.f", workload, defs, 2);
	ck_assert_int_eq(p.errors, 2);
	HAS(&p, "-D nthreads:1:1: invalid number '16kb' (quote the value to pass it as text)\n");
	HAS(&p, "-D dir:1:2: a value on the command line cannot use variables ('$x')\n");
	ck_assert_int_eq(p.fe.plan.nflowops, 0);
	ck_assert(ends_with(p.msgs, "w.f: 2 errors\n"));
	release(&p);
}
END_TEST

/* A -D the script never mentions: a compile error with a suggestion. */
START_TEST(test_unused_define)
{
	struct frontend_define def = { "nthread", "3" };
	struct pass p;

	compile(&p, "w.f", workload, &def, 1);
	ck_assert_int_eq(p.errors, 1);
	HAS(&p, "w.f: -D nthread: the script has no variable '$nthread' (did you mean 'nthreads'?)\n");
	HAS(&p, "w.f: 1 error\n");
	release(&p);
}
END_TEST

/* More errors than are shown: the count says how many were shown. */
START_TEST(test_many_errors)
{
	char src[4096] = "define file name=f1,path=/tmp,size=1m\n"
			 "define process name=p { thread name=t {\n";
	struct pass p;

	for (int i = 0; i < 25; i++)
		snprintf(src + strlen(src), sizeof(src) - strlen(src),
			 "flowop read name=r%d,filename=f1,iosze=8k\n", i);
	strcat(src, "} }\nrun 1\n");
	compile(&p, "w.f", src, NULL, 0);
	ck_assert_int_eq(p.errors, 25);
	HAS(&p, "w.f: 25 errors (the first 20 shown)\n");
	release(&p);
}
END_TEST

static Suite *frontend_suite(void)
{
	Suite *s = suite_create("frontend");
	TCase *tc = tcase_create("entry");

	tcase_add_test(tc, test_bytes_and_define);
	tcase_add_test(tc, test_plan_owns_its_strings);
	tcase_add_test(tc, test_reads_the_file);
	tcase_add_test(tc, test_unreadable_file);
	tcase_add_test(tc, test_bad_define_value);
	tcase_add_test(tc, test_unused_define);
	tcase_add_test(tc, test_many_errors);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(frontend_suite)
