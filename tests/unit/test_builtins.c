/*
 * test_builtins.c - the read-only variables $rank, $nranks and $hostname
 * (lang/builtins.c): plain flowbench's values through the front end, a
 * caller's own values (flowbench-mpi's) through compile_options, their use
 * wherever a variable may stand, their place in the plan's variable list,
 * and every way of assigning them refused with a located message.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flowops/registry.h"
#include "lang/frontend.h"

#include "tests/unit/check_main.h"

/* One front-end pass over `text`, its messages captured. */
struct pass {
	struct frontend_result fe;
	char *msgs;
	size_t len;
	int errors;
};

/* Compile `text` as t.f; `builtins` NULL: the front end's defaults. */
static void compile(struct pass *p, const char *text,
		    const struct frontend_define *defs, int ndefs,
		    const struct compile_builtin *builtins, int nbuiltins)
{
	FILE *err;
	struct frontend_input in = {
		.path = "t.f", .text = text, .len = strlen(text),
		.defines = defs, .ndefines = ndefs,
		.compile = { .registry = &flowops_registry, .seed = 7,
			     .builtins = builtins, .nbuiltins = nbuiltins },
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

/* The plan's variable `name`, or NULL; *index receives its place. */
static const struct plan_value *plan_var(const struct plan *pl,
					 const char *name, int *index)
{
	for (int i = 0; i < pl->nvars; i++)
		if (strcmp(pl->var_names[i], name) == 0) {
			*index = i;
			return &pl->var_values[i];
		}
	return NULL;
}

/* The text of the plan's first echo. */
static const char *first_echo(const struct plan *pl)
{
	for (int i = 0; i < pl->nactions; i++)
		if (pl->actions[i].kind == PLAN_ACTION_ECHO)
			return pl->actions[i].text;
	return NULL;
}

#define HAS(p, text) \
	ck_assert_msg(strstr((p)->msgs, (text)) != NULL, \
		      "expected \"%s\", got:\n%s", (text), (p)->msgs)
#define LACKS(p, text) \
	ck_assert_msg(strstr((p)->msgs, (text)) == NULL, \
		      "did not expect \"%s\", got:\n%s", (text), (p)->msgs)

/* Uses them in an echo, a string attribute, arithmetic and a count. */
static const char uses[] =
	"set $dir=/tmp\n"
	"echo \"$rank $nranks $hostname\"\n"
	"set $twice = $nranks * 2\n"
	"define file name=f1,path=\"$dir/client-$rank\",size=1m\n"
	"define process name=p {\n"
	"  thread name=t,instances=$nranks {\n"
	"    flowop read name=r1,filename=f1,iosize=8k\n"
	"  }\n"
	"}\n"
	"run 5\n";

/* Plain flowbench: rank 0 of 1 client, on this host. */
START_TEST(test_defaults_everywhere)
{
	char host[256] = "", want[300];
	const struct plan_value *v;
	struct pass p;
	int at;

	ck_assert_int_eq(gethostname(host, sizeof(host) - 1), 0);
	compile(&p, uses, NULL, 0, NULL, 0);
	ck_assert_msg(p.errors == 0, "%s", p.msgs);
	ck_assert_str_eq(p.msgs, "");
	snprintf(want, sizeof(want), "0 1 %s", host);
	ck_assert_str_eq(first_echo(&p.fe.plan), want);
	ck_assert_str_eq(p.fe.plan.filesets[0].path, "/tmp/client-0");
	ck_assert_int_eq(p.fe.plan.threads[0].instances, 1);
	v = plan_var(&p.fe.plan, "twice", &at);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->kind, PV_INT);
	ck_assert_int_eq(v->u.i, 2);
	release(&p);
}
END_TEST

/*
 * The plan's variables (the results file's) list the builtins first,
 * with their values, then the script's.
 */
START_TEST(test_plan_lists_them)
{
	char host[256] = "";
	const struct plan_value *v;
	struct pass p;
	int at;

	ck_assert_int_eq(gethostname(host, sizeof(host) - 1), 0);
	compile(&p, uses, NULL, 0, NULL, 0);
	ck_assert_int_eq(p.errors, 0);
	ck_assert_int_eq(p.fe.plan.nvars, 5);
	v = plan_var(&p.fe.plan, "rank", &at);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(at, 0);
	ck_assert_int_eq(v->kind, PV_INT);
	ck_assert_int_eq(v->u.i, 0);
	v = plan_var(&p.fe.plan, "nranks", &at);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(at, 1);
	ck_assert_int_eq(v->kind, PV_INT);
	ck_assert_int_eq(v->u.i, 1);
	v = plan_var(&p.fe.plan, "hostname", &at);
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(at, 2);
	ck_assert_int_eq(v->kind, PV_STRING);
	ck_assert_str_eq(v->u.s, host);
	ck_assert_str_eq(p.fe.plan.var_names[3], "dir");
	release(&p);
}
END_TEST

/*
 * flowbench-mpi's way: its own values through compile_options, seen
 * everywhere; the plan keeps copies (the caller's strings are
 * overwritten before it is read), and the caller's reason ends a refusal.
 */
START_TEST(test_custom_values)
{
	struct compile_builtin b[COMPILE_NBUILTINS];
	char host[] = "h1", why[] = "rank 7 of this MPI job";
	const struct plan_value *v;
	struct pass p;
	int at;

	compile_builtins_default(b, host);
	b[COMPILE_BUILTIN_RANK].i = 7;
	b[COMPILE_BUILTIN_NRANKS].i = 64;
	compile(&p, uses, NULL, 0, b, COMPILE_NBUILTINS);
	ck_assert_msg(p.errors == 0, "%s", p.msgs);
	memset(host, 'x', sizeof(host) - 1);
	ck_assert_str_eq(first_echo(&p.fe.plan), "7 64 h1");
	ck_assert_str_eq(p.fe.plan.filesets[0].path, "/tmp/client-7");
	ck_assert_int_eq(p.fe.plan.threads[0].instances, 64);
	v = plan_var(&p.fe.plan, "twice", &at);
	ck_assert_int_eq(v->u.i, 128);
	v = plan_var(&p.fe.plan, "rank", &at);
	ck_assert_int_eq(v->u.i, 7);
	v = plan_var(&p.fe.plan, "nranks", &at);
	ck_assert_int_eq(v->u.i, 64);
	v = plan_var(&p.fe.plan, "hostname", &at);
	ck_assert_str_eq(v->u.s, "h1");
	release(&p);

	b[COMPILE_BUILTIN_RANK].why = why;
	compile(&p, "set $rank = 1\nrun 1\n", NULL, 0, b, COMPILE_NBUILTINS);
	ck_assert_int_eq(p.errors, 1);
	HAS(&p, "t.f:1:5: '$rank' is read-only: rank 7 of this MPI job\n");
	release(&p);
}
END_TEST

/* `set` of a builtin: located at the variable, its value not evaluated. */
START_TEST(test_set_refused)
{
	static const char *const tries[][2] = {
		{ "set $x = 1\n\n\nset $rank = 3\nrun 1\n",
		  "t.f:4:5: '$rank' is read-only: the rank of this client, set by flowbench-mpi\n" },
		{ "set $nranks = $nosuch\nrun 1\n",
		  "t.f:1:5: '$nranks' is read-only: the number of clients, set by flowbench-mpi\n" },
		{ "set $hostname = \"h\"\nrun 1\n",
		  "t.f:1:5: '$hostname' is read-only: the name of this host, set by flowbench\n" },
	};

	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		struct pass p;

		compile(&p, tries[i][0], NULL, 0, NULL, 0);
		ck_assert_msg(p.errors == 1, "%s", p.msgs);
		HAS(&p, tries[i][1]);
		ck_assert_msg(strncmp(p.msgs, tries[i][1], strlen(tries[i][1])) == 0,
			      "the first message is not the refusal:\n%s", p.msgs);
		release(&p);
	}
}
END_TEST

/* `define randvar name=$rank`: refused at the name. */
START_TEST(test_randvar_refused)
{
	struct pass p;

	compile(&p, "define randvar name=$rank, type=uniform, min=1, mean=2\nrun 1\n",
		NULL, 0, NULL, 0);
	ck_assert_msg(p.errors == 1, "%s", p.msgs);
	HAS(&p, "t.f:1:21: '$rank' is read-only: the rank of this client, set by flowbench-mpi\n");
	release(&p);
}
END_TEST

/*
 * -D of a builtin: refused as a -D, once, and never reported as a
 * variable the script does not have (even when it does not use it).
 */
START_TEST(test_define_refused)
{
	struct frontend_define rank = { "rank", "2" };
	struct frontend_define host = { "hostname", "other" };
	struct pass p;

	compile(&p, uses, &rank, 1, NULL, 0);
	ck_assert_msg(p.errors == 1, "%s", p.msgs);
	HAS(&p, "t.f: -D rank: '$rank' is read-only: the rank of this client, set by flowbench-mpi\n");
	LACKS(&p, "no variable");
	release(&p);

	compile(&p, "set $x = 1\nrun 1\n", &host, 1, NULL, 0);
	ck_assert_msg(p.errors == 1, "%s", p.msgs);
	HAS(&p, "t.f: -D hostname: '$hostname' is read-only: the name of this host, set by flowbench\n");
	LACKS(&p, "no variable");
	release(&p);
}
END_TEST

/* A -D typo is not "corrected" to a builtin, which -D cannot set. */
START_TEST(test_define_typo_not_suggested_a_builtin)
{
	struct frontend_define typo = { "rnk", "2" };
	struct pass p;

	compile(&p, uses, &typo, 1, NULL, 0);
	ck_assert_int_eq(p.errors, 1);
	HAS(&p, "t.f: -D rnk: the script has no variable '$rnk'\n");
	release(&p);
}
END_TEST

static Suite *builtins_suite(void)
{
	Suite *s = suite_create("builtins");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_defaults_everywhere);
	tcase_add_test(tc, test_plan_lists_them);
	tcase_add_test(tc, test_custom_values);
	tcase_add_test(tc, test_set_refused);
	tcase_add_test(tc, test_randvar_refused);
	tcase_add_test(tc, test_define_refused);
	tcase_add_test(tc, test_define_typo_not_suggested_a_builtin);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(builtins_suite)
