/*
 * compile.c - from the AST of a script to the plan the runtime executes.
 *
 * WML is executed as it is read: `set` takes effect at once, `echo` prints
 * the values of its moment, and an attribute that names a variable reads
 * it only when the run needs it.  The compile stage reproduces those
 * semantics without executing anything: one pass in source order (this
 * file) keeps the variables and collects definitions; at `run` every
 * collected definition is evaluated with the variables as they stand,
 * checked against the attributes its entity accepts, and laid out as
 * plain arrays.  lang/compiler.h lists the files that do each part.
 *
 * Deliberate differences from filebench (documented in docs/wml.md):
 * entity names are read when defined but every other attribute at `run`
 * (filebench reads a few, like process instances and fd, when defined);
 * a `-D` variable replaces the script's own `set`; unknown attributes,
 * types and names are errors with suggestions; constructs whose runtime
 * flowbench does not have yet are errors that say so.
 */
#include "lang/compile.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/flowop.h"
#include "lang/compiler.h"
#include "plan/diag.h"
#include "plan/oom.h"

/* ---- the script walk: statements in source order --------------------- */

static void stmt_set(struct compiler *c, const struct ast_stmt *st)
{
	struct var *v = var_find(c, st->var);
	struct value val;
	int rc;

	if (v && v->from_cli)
		return;         /* -D wins over the script */
	if (var_refuse_read_only(c, v, st->var_loc, ""))
		return;
	c->setting = st->var;
	rc = eval_expr(c, st->expr, &val);
	c->setting = NULL;
	if (rc == 0)
		var_assign(c, st->var, st->var_loc, &val);
}

static void stmt_set_mode(struct compiler *c, const struct ast_stmt *st)
{
	const struct ast_word *w = st->words;

	if (w && strcmp(w->text, "nousestats") == 0 && !w->next)
		return;         /* a no-op in filebench as well */
	if (w && strcmp(w->text, "quit") == 0 && w->next && !w->next->next) {
		const char *m = w->next->text;
		static const char *const modes[] = {
			"timeout", "firstdone", "alldone", NULL
		};
		char hint[160];

		if (strcmp(m, "timeout") == 0) {
			c->p->quit_mode = QUIT_TIMEOUT;
		} else if (strcmp(m, "firstdone") == 0) {
			c->p->quit_mode = QUIT_FIRSTDONE;
		} else if (strcmp(m, "alldone") == 0) {
			c->p->quit_mode = QUIT_ALLDONE;
		} else {
			diag_error(c->d, w->next->loc,
				   "unknown quit mode '%s'%s", m,
				   diag_did_you_mean(hint, sizeof(hint), m, modes));
		}
		return;
	}
	diag_error(c->d, w ? w->loc : st->loc,
		   "expected 'set mode quit timeout|firstdone|alldone' or 'set mode nousestats'");
}

/*
 * The 1.4 form `define randvar name=$v, type=..., ...`: its attributes
 * but the name are those of randvar(...), evaluated now (eval.c), and
 * the variable is assigned as by `set`.
 */
static void stmt_define_randvar(struct compiler *c, const struct ast_stmt *st)
{
	const struct ast_attr *name = NULL;
	struct value val;
	struct var *v;

	for (const struct ast_attr *a = st->attrs; a; a = a->next)
		if (!a->is_local && strcmp(a->name, "name") == 0)
			name = a;
	if (!name || !name->value || name->value->kind != EX_VAR) {
		diag_error(c->d, name ? name->loc : st->loc,
			   "define randvar needs name=$variable");
		return;
	}
	v = var_find(c, name->value->u.var);
	if (v && v->from_cli)
		return;         /* -D gave the variable a value */
	if (var_refuse_read_only(c, v, name->value->loc, ""))
		return;
	c->setting = name->value->u.var;
	if (eval_random(c, "randvar", st->attrs, st->loc, name, &val) == 0)
		var_assign(c, name->value->u.var, name->value->loc, &val);
	c->setting = NULL;
}

/* echo/system: the adjacent strings, interpolated and joined (or NULL). */
static const char *concat_strings(struct compiler *c, const struct ast_stmt *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *text;
	bool ok = true;

	if (!f)
		oom_exit();
	for (const struct ast_string_list *s = st->strings; s; s = s->next) {
		struct value v;

		if (eval_expr(c, s->str, &v) < 0) {
			ok = false;
			continue;
		}
		fputs(value_text(c, &v), f);
	}
	fclose(f);
	text = ok ? arena_strndup(&c->p->arena, buf, len) : NULL;
	free(buf);
	return text;
}

/*
 * A number of seconds (run, psrun, sleep) into *out; false after an
 * error.  At most PLAN_MAX_SECONDS either way (plan.h): the runtime
 * turns it into nanoseconds added to the clock.
 */
static bool eval_seconds(struct compiler *c, const struct ast_expr *e,
			 const char *what, bool negative_ok, double *out)
{
	struct value v;
	double s;

	if (eval_expr(c, e, &v) < 0)
		return false;
	if (v.kind != V_INT && v.kind != V_DOUBLE) {
		diag_error(c->d, e->loc, "%s needs a number of seconds, not %s",
			   what, value_kind_name(v.kind));
		return false;
	}
	s = value_as_double(&v);
	if (!negative_ok && s < 0) {
		diag_error(c->d, e->loc, "%s: seconds must not be negative", what);
		return false;
	}
	if (!compiler_check_seconds(c, s, e->loc, what))
		return false;
	*out = s;
	return true;
}

/* A script-time action, run by the master in order before the run. */
static void push_action(struct compiler *c, enum plan_action_kind kind,
			const char *text, double num, struct src_loc loc)
{
	struct plan_action *act = PUSH(c->p->actions, c->p->nactions,
				       c->caps_actions);

	act->kind = kind;
	act->text = text;
	act->num = num;
	act->loc = loc;
}

/* `sleep N` before the run: the master pauses, nothing runs. */
static void stmt_sleep(struct compiler *c, const struct ast_stmt *st)
{
	double secs;

	if (eval_seconds(c, st->expr, "sleep", false, &secs))
		push_action(c, PLAN_ACTION_SLEEP, NULL, secs, st->loc);
}

/* `system "..."`: shell commands from a shared workload need consent. */
static void stmt_system(struct compiler *c, const struct ast_stmt *st)
{
	const char *text = concat_strings(c, st);

	if (!c->opts->allow_system) {
		diag_error(c->d, st->loc,
			   "'system' runs a shell command; flowbench runs it only with --allow-system");
		return;
	}
	if (text)
		push_action(c, PLAN_ACTION_SYSTEM, text, 0, st->loc);
}

/*
 * `eventgen rate=V[, poisson]`: remembered; both are read at `run`
 * (late-bound).  A statement without `poisson` makes the arrivals steady
 * again.
 */
static void stmt_eventgen(struct compiler *c, const struct ast_stmt *st)
{
	const struct ast_attr *poisson = NULL;

	for (const struct ast_attr *a = st->attrs; a; a = a->next) {
		static const char *const names[] = { "rate", "poisson", NULL };
		char hint[160];

		if (!a->is_local && strcmp(a->name, "poisson") == 0) {
			poisson = a;
			continue;
		}
		if (a->is_local || strcmp(a->name, "rate") != 0) {
			diag_error(c->d, a->loc, "unknown attribute '%s' for eventgen%s",
				   a->name, diag_did_you_mean(hint, sizeof(hint),
							      a->name, names));
		} else if (!a->value) {
			diag_error(c->d, a->loc, "eventgen: rate needs a value (rate=N)");
		} else {
			c->eventgen = a;
		}
	}
	c->eventgen_poisson = poisson;
	if (poisson && !c->eventgen)
		diag_error(c->d, poisson->loc, "eventgen: poisson needs a rate "
			   "(eventgen rate=N, poisson)");
}

/*
 * `poisson` of the last eventgen statement (bare: true): a boolean, and
 * a flowbench extension that --compat filebench refuses.
 */
static void eventgen_poisson(struct compiler *c, struct plan *p)
{
	const struct ast_attr *a = c->eventgen_poisson;
	struct value v = { .kind = V_BOOL, .b = true };

	if (!a || (a->value && eval_expr(c, a->value, &v) != 0))
		return;
	if (v.kind != V_BOOL) {
		diag_error(c->d, a->value->loc, "eventgen poisson needs true or "
			   "false, not %s", value_kind_name(v.kind));
		return;
	}
	if (v.b && c->opts->semantics == PLAN_SEM_FILEBENCH) {
		diag_error(c->d, a->loc, "eventgen poisson is a flowbench extension "
			   "(Poisson arrivals); filebench's generator is steady, so "
			   "--compat filebench refuses it");
		return;
	}
	p->eventgen_poisson = v.b;
}

static void stmt_enable(struct compiler *c, const struct ast_stmt *st)
{
	static const char *const what[] = { "lathist", "multi", NULL };
	const char *w = st->words ? st->words->text : "";
	char hint[160];

	if (strcmp(w, "lathist") == 0 && st->attrs)
		diag_error(c->d, st->attrs->loc, "'enable lathist' takes no attributes");
	else if (strcmp(w, "lathist") == 0)
		c->p->lathist = true;
	else if (strcmp(w, "multi") == 0)
		diag_error(c->d, st->loc,
			   "'enable multi' (filebench's multi-client synchronisation) is not supported by flowbench");
	else
		diag_error(c->d, st->loc, "unknown 'enable %s'%s", w,
			   diag_did_you_mean(hint, sizeof(hint), w, what));
}

static void stmt_list(struct compiler *c, const struct ast_stmt *st)
{
	static const char *const what[] = { "fileset", "filesets", "flowop", NULL };
	const char *w = st->words ? st->words->text : "";
	char hint[160];

	if (strcmp(w, "fileset") == 0 || strcmp(w, "filesets") == 0)
		push_action(c, PLAN_ACTION_LIST_FILESETS, NULL, 0, st->loc);
	else if (strcmp(w, "flowop") == 0)
		push_action(c, PLAN_ACTION_LIST_FLOWOPS, NULL, 0, st->loc);
	else
		diag_error(c->d, st->loc, "unknown 'list %s'%s", w,
			   diag_did_you_mean(hint, sizeof(hint), w, what));
}

static void stmt_debug(struct compiler *c, const struct ast_stmt *st)
{
	struct value v;

	if (eval_expr(c, st->expr, &v) < 0)
		return;
	if (v.kind != V_INT || v.i < 0) {
		diag_error(c->d, st->expr->loc,
			   "debug needs a level 0..10, not %s", value_text(c, &v));
		return;
	}
	diag_warning(c->d, st->loc,
		     "'debug' has no effect: flowbench has a single level of messages");
}

/*
 * `define file|fileset|process`: only the name is read now (as filebench
 * does); the rest waits for `run`.  Two files or filesets may not share a
 * name, since flowops find them by it.
 */
static void remember_define(struct compiler *c, const struct ast_stmt *st,
			    struct pending **list, int *n, int *cap,
			    const char *what)
{
	const struct ast_attr *attrs = st->entity ? st->entity->attrs : st->attrs;
	struct src_loc loc = st->entity ? st->entity->loc : st->loc;
	const char *name = attrs_name(c, attrs, loc, what);
	struct pending *pd;

	if (!name)
		return;
	if (list == &c->files) {
		int first = name_find(&c->file_names, name);

		if (first >= 0) {
			diag_error(c->d, loc, "%s '%s' is defined twice", what, name);
			diag_note(c->d, c->files[first].st->loc, "first defined here");
			return;
		}
		name_put(&c->file_names, name, c->nfiles);
	}
	pd = PUSH(*list, *n, *cap);
	pd->st = st;
	pd->name = name;
}

/* The script-order pass: everything up to (and including) `run`. */
static const struct ast_stmt *walk_script(struct compiler *c)
{
	for (const struct ast_stmt *st = c->script->stmts; st; st = st->next) {
		switch (st->kind) {
		case ST_SET:
			stmt_set(c, st);
			break;
		case ST_SET_MODE:
			stmt_set_mode(c, st);
			break;
		case ST_DEFINE_FILE:
			remember_define(c, st, &c->files, &c->nfiles,
					&c->capfiles, "file");
			break;
		case ST_DEFINE_PROCESS:
			remember_define(c, st, &c->procs, &c->nprocs,
					&c->capprocs, "process");
			break;
		case ST_DEFINE_FILESET:
			remember_define(c, st, &c->files, &c->nfiles,
					&c->capfiles, "fileset");
			break;
		case ST_DEFINE_DEVICE:
			remember_define(c, st, &c->files, &c->nfiles,
					&c->capfiles, "device");
			break;
		case ST_DEFINE_COMPOSITE:
			composite_define(c, st);
			break;
		case ST_DEFINE_RANDVAR:
			stmt_define_randvar(c, st);
			break;
		case ST_CREATE_FILES:
			if (!st->words || strcmp(st->words->text, "files") != 0)
				diag_error(c->d, st->loc,
					   "unknown 'create %s' (only 'create files' exists)",
					   st->words ? st->words->text : "");
			/* files are created at `run` in any case */
			break;
		case ST_RUN:
			return st;
		case ST_PSRUN:
			return st;
		case ST_ECHO: {
			const char *text = concat_strings(c, st);

			if (text)
				push_action(c, PLAN_ACTION_ECHO, text, 0, st->loc);
			break;
		}
		case ST_SLEEP:
			stmt_sleep(c, st);
			break;
		case ST_SYSTEM:
			stmt_system(c, st);
			break;
		case ST_USAGE:
			/* help text of 1.4 personalities: documentation, not run */
			break;
		case ST_EVENTGEN:
			stmt_eventgen(c, st);
			break;
		case ST_ENABLE:
			stmt_enable(c, st);
			break;
		case ST_DOMULTISYNC:
			diag_error(c->d, st->loc,
				   "'domultisync' (filebench's multi-client synchronisation) is not supported by flowbench");
			break;
		case ST_LIST:
			stmt_list(c, st);
			break;
		case ST_DEBUG:
			stmt_debug(c, st);
			break;
		case ST_VERSION:
			push_action(c, PLAN_ACTION_VERSION, NULL, 0, st->loc);
			break;
		case ST_QUIT:
			push_action(c, PLAN_ACTION_QUIT, NULL, 0, st->loc);
			return st;
		}
	}
	return NULL;
}

/* ---- run settings ------------------------------------------------------ */

/*
 * `run [N]` or `psrun [period [N]]`: the duration (0 or absent: 60 s in
 * timeout mode, "until the workload ends" in the other modes), then every
 * definition evaluated with the variables as they stand now.
 */
/*
 * The variables as they stand at `run` (-D ones included), for the
 * results file: names and values in the plan's arena.
 */
static void export_variables(struct compiler *c)
{
	struct plan *p = c->p;

	p->nvars = c->nvars;
	p->var_names = arena_alloc(&p->arena, sizeof(*p->var_names) * (size_t)(c->nvars + 1));
	p->var_values = arena_alloc(&p->arena, sizeof(*p->var_values) * (size_t)(c->nvars + 1));
	for (int i = 0; i < c->nvars; i++) {
		const struct value *v = &c->vars[i].v;
		struct plan_value *pv = &p->var_values[i];

		p->var_names[i] = c->vars[i].name;
		pv->loc = c->vars[i].loc;
		switch (v->kind) {
		case V_INT:
			pv->kind = PV_INT;
			pv->u.i = v->i;
			break;
		case V_DOUBLE:
			pv->kind = PV_DOUBLE;
			pv->u.d = v->d;
			break;
		case V_BOOL:
			pv->kind = PV_BOOL;
			pv->u.b = v->b;
			break;
		case V_STRING:
			pv->kind = PV_STRING;
			pv->u.s = v->s;
			break;
		case V_RANDVAR:
			pv->kind = PV_RANDOM;
			pv->u.rv = v->rv;
			break;
		}
	}
}

static void build_run(struct compiler *c, const struct ast_stmt *run)
{
	struct plan *p = c->p;
	const struct ast_expr *duration = NULL;
	double secs = 0;

	p->has_run = run != NULL || c->opts->runtime_given;
	if (run) {
		p->run_loc = run->loc;
		duration = run->kind == ST_PSRUN ? run->expr2 : run->expr;
		if (run->kind == ST_PSRUN) {
			p->psrun_period = 10;
			if (run->expr) {
				double period;

				if (!eval_seconds(c, run->expr, "psrun", true, &period))
					;
				else if (period == 0)
					diag_error(c->d, run->expr->loc,
						   "psrun: the period must not be 0");
				else
					p->psrun_period = period;
			}
		}
	}
	if (duration && !eval_seconds(c, duration,
				      run->kind == ST_PSRUN ? "psrun" : "run",
				      false, &secs))
		secs = 0;
	if (secs <= 0)
		secs = p->quit_mode == QUIT_TIMEOUT ? 60 : 0;
	p->runtime_s = c->opts->runtime_given ? c->opts->runtime_s : secs;
	if (c->eventgen) {
		struct value v;

		if (eval_expr(c, c->eventgen->value, &v) == 0) {
			if (v.kind != V_INT && v.kind != V_DOUBLE)
				diag_error(c->d, c->eventgen->value->loc,
					   "eventgen rate needs a number of events per second, not %s",
					   value_kind_name(v.kind));
			else if (!(value_as_double(&v) >= 0 &&
				   value_as_double(&v) <= PLAN_MAX_EVENT_RATE))
				diag_error(c->d, c->eventgen->value->loc,
					   "eventgen rate=%.15g: the rate must be from 0 (no events) to flowbench's limit of %.0f events per second",
					   value_as_double(&v), PLAN_MAX_EVENT_RATE);
			else {
				p->eventgen_rate.kind = PV_DOUBLE;
				p->eventgen_rate.u.d = value_as_double(&v);
				p->eventgen_rate.loc = c->eventgen->value->loc;
			}
		}
		eventgen_poisson(c, p);
	}

	for (int i = 0; i < c->nfiles; i++)
		build_fileset(c, &c->files[i]);
	for (int i = 0; i < c->nprocs; i++)
		build_process(c, &c->procs[i]);
	devices_mark_writes(c);
	if (c->d->errors == 0 && p->nprocs == 0 && p->has_run)
		diag_error(c->d, run ? run->loc : (struct src_loc){ 0, 0 },
			   "nothing to run: the script defines no process");
}

/* ---- entry ----------------------------------------------------------- */

/*
 * Builtins and -D variables first, then the walk up to `run`, then every definition
 * built with the variables as they stand, then each flowop's own checks.
 */
int compile_script(const struct ast_script *script,
		   struct compile_options *opts, struct diag *d,
		   struct plan *out)
{
	struct compiler c = {
		.script = script, .opts = opts, .d = d, .p = out,
	};
	const struct ast_stmt *run;
	int errors_before = d->errors;

	assert(opts->registry && "compile_options.registry is required");
	memset(out, 0, sizeof(*out));
	arena_init(&out->arena);
	out->filename = script->filename;
	out->quit_mode = QUIT_TIMEOUT;

	builtins_seed(&c);
	defines_seed(&c);
	run = walk_script(&c);
	if (run && run->next)
		diag_error(d, run->next->loc,
			   "commands after '%s' are never executed; remove them or move them before it",
			   run->kind == ST_QUIT ? "quit" : run->kind == ST_PSRUN ? "psrun" : "run");
	out->seed = opts->seed;
	out->allow_system = opts->allow_system;
	if (run && run->kind == ST_QUIT)
		run = NULL;     /* nothing runs; the actions end with PLAN_ACTION_QUIT */
	build_run(&c, run);
	export_variables(&c);
	defines_check_used(&c);

	out->semantics = opts->semantics;   /* validate() refuses extensions by it */
	for (int i = 0; i < out->nflowops; i++) {
		const struct plan_flowop *f = &out->flowops[i];

		if (f->ops->validate)
			f->ops->validate(out, f, d);
	}
	plan_use_semantics(out, opts->semantics);
	free(c.vars);
	free(c.composites);
	free(c.files);
	free(c.procs);
	name_index_free(&c.var_names);
	name_index_free(&c.file_names);
	name_index_free(&c.fileset_names);
	name_index_free(&c.flowop_names);
	name_index_free(&c.composite_names);
	return d->errors - errors_before;
}
