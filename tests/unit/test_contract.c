/*
 * test_contract.c - the flowop contract (plan/flowop.h) as every family
 * fills it in: each flowop's attribute table is well formed (unique
 * names, a help line, indices inside its values, the common attributes
 * left to the common table, one type per name across families) and
 * documented in docs/wml.md; a statement's values land where its table
 * says; and the per-family thread slot (runtime/engine/thread.h) keeps
 * one state per family key; and the pattern written data carries is
 * the same bytes however long the buffer (common_fill_pattern()).
 */
#include <check.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/ast.h"
#include "lang/compile.h"
#include "lang/parse.h"
#include "plan/diag.h"
#include "flowops/registry.h"
#include "plan/flowop.h"
#include "flowops/common.h"
#include "runtime/engine/thread.h"

#include "tests/unit/check_main.h"

/* Every flowop the registry knows, and the composite's ops. */
static int all_ops(const struct flowop_ops **out, int cap)
{
	int n = 0;

	for (const struct flowop_ops *ops; n < cap &&
	     (ops = flowop_registry_at(&flowops_registry, n)); )
		out[n++] = ops;
	if (n < cap)
		out[n++] = flowops_registry.composite;
	return n;
}

/* A's type and B's agree: T_SECONDS is T_ANY with a check of its own. */
static bool same_type(enum attr_type a, enum attr_type b)
{
	if (a == T_SECONDS)
		a = T_ANY;
	if (b == T_SECONDS)
		b = T_ANY;
	return a == b;
}

START_TEST(test_tables)
{
	const struct flowop_ops *ops[128];
	int nops = all_ops(ops, 128);

	ck_assert_int_gt(nops, 30);
	for (int i = 0; i < nops; i++) {
		int nattr = flowop_nattr(ops[i]);

		ck_assert_int_ge(nattr, PA_OWN);
		for (const struct attr_spec *s = ops[i]->attrs; s && s->name; s++) {
			ck_assert_msg(s->help && *s->help, "%s: '%s' has no help line",
				      ops[i]->name, s->name);
			ck_assert_msg(s->index >= PA_FILENAME && s->index < nattr,
				      "%s: '%s' is stored at %d, outside %d..%d",
				      ops[i]->name, s->name, s->index, PA_FILENAME,
				      nattr - 1);
			ck_assert_msg(!flowop_attr_spec(flowops_registry.composite, s->name),
				      "%s: '%s' is one every flowop takes",
				      ops[i]->name, s->name);
			/* the first spec of that name is this one: no repeats */
			ck_assert_msg(flowop_attr_spec(ops[i], s->name) == s,
				      "%s: '%s' declared twice", ops[i]->name, s->name);
			/* another flowop's attribute is checked with its type */
			for (int j = 0; j < nops; j++) {
				const struct attr_spec *o = flowop_attr_spec(ops[j], s->name);

				ck_assert_msg(!o || same_type(o->type, s->type),
					      "'%s' has one type in %s, another in %s",
					      s->name, ops[i]->name, ops[j]->name);
			}
		}
	}
}
END_TEST

/*
 * A filebench variant (--compat filebench, flowop_ops.filebench) is the
 * same flowop with other functions: the script compiled against the
 * default table must mean the same to it (its `need` may ask for more).  At least the flowops whose
 * rules differ (issue 13) have one, and no variant has one of its own.
 */
START_TEST(test_filebench_variants)
{
	const struct flowop_ops *ops[128];
	int nops = all_ops(ops, 128), nvariants = 0;

	for (int i = 0; i < nops; i++) {
		const struct flowop_ops *v = ops[i]->filebench;

		if (!v)
			continue;
		nvariants++;
		ck_assert_str_eq(v->name, ops[i]->name);
		ck_assert_msg(v->cls == ops[i]->cls && v->rw == ops[i]->rw &&
			      v->attrs == ops[i]->attrs && v->nattr == ops[i]->nattr &&
			      v->validate == ops[i]->validate &&
			      (v->need || !ops[i]->need) &&
			      v->changes_names == ops[i]->changes_names,
			      "%s: its filebench variant differs in more than its functions",
			      ops[i]->name);
		ck_assert_msg(v->run && v->run != ops[i]->run,
			      "%s: its filebench variant runs the default", ops[i]->name);
		ck_assert_msg(!v->filebench, "%s: a variant of a variant", ops[i]->name);
	}
	for (const char *const *n = (const char *const[]){ "read", "write", "aiowrite",
		"appendfile", "appendfilerand", "readwholefile", "writewholefile",
		"finishoncount", "finishonbytes", "opslimit", "iopslimit", "bwlimit", NULL };
	     *n; n++)
		ck_assert_msg(flowop_registry_lookup(&flowops_registry, *n)->filebench,
			      "%s has no filebench variant", *n);
	ck_assert_int_ge(nvariants, 12);
}
END_TEST

/* Every attribute a flowop declares is in docs/wml.md, as `name`. */
START_TEST(test_documented)
{
	const char *top = getenv("TOP_SRCDIR");
	const struct flowop_ops *ops[128];
	int nops = all_ops(ops, 128);
	char *path = NULL, *doc;
	FILE *f;
	long len;

	ck_assert_int_ge(asprintf(&path, "%s/docs/wml.md", top ? top : "."), 0);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	doc = calloc((size_t)len + 1, 1);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(fread(doc, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	for (int i = 0; i < nops; i++) {
		for (const struct attr_spec *s = ops[i]->attrs; s && s->name; s++) {
			char quoted[64];

			snprintf(quoted, sizeof(quoted), "`%s`", s->name);
			ck_assert_msg(strstr(doc, quoted), "%s: '%s' is not in docs/wml.md",
				      ops[i]->name, s->name);
		}
	}
	free(doc);
	free(path);
}
END_TEST

/*
 * A statement's values follow its ops' table: each written attribute is
 * at the index its spec gives, everything else is unset.
 */
START_TEST(test_values_follow_table)
{
	static const char src[] =
		"define fileset name=fs,path=/tmp,size=64k,entries=4,dirwidth=4\n"
		"define process name=p { thread name=t {\n"
		"  flowop aioread name=r,filesetname=fs,iosize=8k,iodepth=4,random,iters=3\n"
		"  flowop sempost name=s,target=b,value=2,blocking\n"
		"  flowop semblock name=b,highwater=5\n"
		"} }\nrun 1\n";
	FILE *out = fopen("/dev/null", "w");
	struct ast_script script;
	struct compile_options opts = { .registry = &flowops_registry };
	struct diag d;
	struct plan p;

	ck_assert_ptr_nonnull(out);
	diag_init(&d, "t.f", src, strlen(src), out);
	ck_assert_int_eq(ast_parse("t.f", src, strlen(src), &d, &script), 0);
	ck_assert_int_eq(compile_script(&script, &opts, &d, &p), 0);
	ck_assert_int_eq(p.nflowops, 3);
	for (int k = 0; k < p.nflowops; k++) {
		const struct plan_flowop *f = &p.flowops[k];
		int given = 0;

		ck_assert_int_eq(f->nattr, flowop_nattr(f->ops));
		for (int a = 0; a < f->nattr; a++)
			given += f->attr[a].kind != PV_UNSET;
		/* name, and what the statement wrote: iters, filesetname, ... */
		ck_assert_int_eq(given, k == 0 ? 6 : k == 1 ? 4 : 2);
	}
	ck_assert_int_eq(p.flowops[0].attr[flowop_attr_spec(p.flowops[0].ops, "iodepth")->index].u.i, 4);
	ck_assert_int_eq(p.flowops[0].attr[PA_ITERS].u.i, 3);
	ck_assert_ptr_eq(plan_flowop_attr(&p.flowops[0], "filename"),
			 plan_flowop_attr(&p.flowops[0], "filesetname"));
	ck_assert_str_eq(plan_flowop_attr(&p.flowops[1], "target")->u.s, "b");
	ck_assert(plan_flowop_attr(&p.flowops[1], "blocking")->u.b);
	ck_assert_int_eq(plan_flowop_attr(&p.flowops[2], "highwater")->u.i, 5);
	/* one it does not take reads as unset */
	ck_assert_int_eq(plan_flowop_attr(&p.flowops[2], "iosize")->kind, PV_UNSET);
	plan_free(&p);
	ast_script_free(&script);
	fclose(out);
}
END_TEST

/* One slot per family key, found again by its key, empty until filled. */
START_TEST(test_family_slot)
{
	static const char key_a, key_b;
	struct fb_thread t;
	void **a, **b;
	int x, y;

	memset(&t, 0, sizeof(t));
	a = thread_family_slot(&t, &key_a);
	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_null(*a);
	*a = &x;
	b = thread_family_slot(&t, &key_b);
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_null(*b);
	*b = &y;
	ck_assert_int_eq(t.nfamilies, 2);
	ck_assert_ptr_eq(*thread_family_slot(&t, &key_a), &x);
	ck_assert_ptr_eq(*thread_family_slot(&t, &key_b), &y);
	ck_assert_int_eq(t.nfamilies, 2);
	thread_families_free(&t);
	ck_assert_ptr_null(t.families);
	ck_assert_int_eq(t.nfamilies, 0);
}
END_TEST

/* common_fill_pattern() gives byte i = key ^ (i * 131) for every length. */
START_TEST(test_fill_pattern)
{
	static const size_t lens[] = { 0, 1, 255, 256, 257, 511, 1000, 4096, 65537, (1 << 20) + 3 };

	for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++) {
		char *buf = malloc(lens[l] + 1);

		ck_assert_ptr_nonnull(buf);
		buf[lens[l]] = 0x11;
		common_fill_pattern(buf, lens[l], 0x5a);
		for (size_t i = 0; i < lens[l]; i++)
			ck_assert_msg(buf[i] == (char)(0x5a ^ (i * 131)),
				      "length %zu: byte %zu", lens[l], i);
		ck_assert_int_eq(buf[lens[l]], 0x11);      /* nothing past the end */
		free(buf);
	}
}
END_TEST

static int runs_direct, runs_via_ops;

static enum flowop_result run_direct(struct fb_thread *t, struct flowop_inst *fi)
{
	(void)t;
	(void)fi;
	runs_direct++;
	return FLOWOP_OK;
}

static enum flowop_result run_via_ops(struct fb_thread *t, struct flowop_inst *fi)
{
	(void)t;
	(void)fi;
	runs_via_ops++;
	return FLOWOP_OK;
}

/*
 * An entry runs through its instance's own run pointer and iters, read
 * from its one line, not through the plan and the ops table (issue 15:
 * no chain of loads to reach the run call).
 */
START_TEST(test_entry_runs_direct)
{
	static const struct flowop_ops ops = { .name = "x", .run = run_via_ops };
	struct plan_flowop pf;
	static struct flowop_inst fi[2];
	struct shared_ctl ctl;
	struct fb_thread t;

	memset(&pf, 0, sizeof(pf));
	memset(&ctl, 0, sizeof(ctl));
	memset(&t, 0, sizeof(t));
	pf.ops = &ops;
	fi[0] = (struct flowop_inst){ .run = run_direct, .iters = 3, .pf = &pf };
	t.fo = fi;
	t.nfo = 1;
	t.ctl = &ctl;
	ck_assert_int_eq(thread_run_entry(&t, 0), FLOWOP_OK);
	ck_assert_int_eq(runs_direct, 3);
	ck_assert_int_eq(runs_via_ops, 0);
}
END_TEST

/*
 * What one op reads of its thread and its flowop entry stays in three
 * lines and one: the clock, deadline, warm-up end and halt word in line
 * 0, the generator and the entries in line 1, slot 0 in line 2; an
 * entry is one line, its run call first.
 */
START_TEST(test_hot_layout)
{
	ck_assert_uint_eq(sizeof(struct flowop_inst), 64);
	ck_assert_uint_eq(_Alignof(struct flowop_inst), 64);
	ck_assert_uint_eq(offsetof(struct flowop_inst, run), 0);
	ck_assert_uint_le(offsetof(struct fb_thread, clk) + sizeof(struct clock_scale), 64);
	ck_assert_uint_le(offsetof(struct fb_thread, deadline_ticks) + 8, 64);
	ck_assert_uint_le(offsetof(struct fb_thread, warm_end_ticks) + 8, 64);
	ck_assert_uint_le(offsetof(struct fb_thread, ctl) + 8, 64);
	ck_assert_uint_eq(offsetof(struct fb_thread, rng), 64);
	ck_assert_uint_le(offsetof(struct fb_thread, fo) + 8, 128);
	ck_assert_uint_le(offsetof(struct fb_thread, nfo) + 4, 128);
	ck_assert_uint_eq(offsetof(struct fb_thread, slots), 128);
}
END_TEST

static Suite *contract_suite(void)
{
	Suite *s = suite_create("contract");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_tables);
	tcase_add_test(tc, test_documented);
	tcase_add_test(tc, test_values_follow_table);
	tcase_add_test(tc, test_family_slot);
	tcase_add_test(tc, test_filebench_variants);
	tcase_add_test(tc, test_fill_pattern);

	tcase_add_test(tc, test_entry_runs_direct);
	tcase_add_test(tc, test_hot_layout);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(contract_suite)
