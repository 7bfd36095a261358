/*
 * entities.c - the definitions collected by the walk, laid out as a plan.
 *
 * At `run`, each `define file`/`define fileset` becomes a plan_fileset and
 * each `define process` a plan_proc with its threads and their flowops, in
 * source order, every attribute read with the variables as they stand.  A
 * flowop naming a composite (`define flowop`) expands into the composite's
 * entry followed by a copy of its inner flowops, named "<invocation>.<inner>"
 * and evaluated with the composite's local variables bound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan/flowop.h"
#include "lang/compile.h"
#include "lang/compiler.h"
#include "plan/diag.h"
#include "plan/oom.h"

/* ---- evaluated attribute values ------------------------------------- */

/* A boolean attribute: false when not given. */
static bool flag_attr(const struct plan_value *v, int id)
{
	return attrs_given(v, id) && v[id].u.b;
}

/* A constant attribute (attrs.c refused random variables), or its default. */
static int64_t const_attr(const struct plan_value *v, int id, int64_t dflt)
{
	return attrs_given(v, id) ? v[id].u.i : dflt;
}

/* A random-variable attribute: its index, -1 when not given or constant. */
static int random_attr(const struct plan_value *v, int id)
{
	return v[id].kind == PV_RANDOM ? v[id].u.rv : -1;
}

/* ---- files and filesets --------------------------------------------- */

/* runtime/fileset/tree.c numbers a fileset's files and directories in 32 bits. */
static void count_limit(struct compiler *c, const struct plan_value *v,
			int id, const char *attr, const char *name)
{
	if (const_attr(v, id, 0) >= (int64_t)UINT32_MAX)
		diag_error(c->d, v[id].loc,
			   "fileset '%s': %s=%lld is more than flowbench's limit of %u",
			   name, attr, (long long)v[id].u.i, UINT32_MAX - 1);
}

/*
 * A device's size= or offset=: bytes, or a percentage of the device as a
 * string ("95%", "12.5%"), resolved when the device is opened.  0 or -1
 * after the message.
 */
static int device_extent(struct compiler *c, const struct plan_value *v,
			 const char *attr, const char *name, uint64_t *bytes,
			 double *pct)
{
	char *end;
	double d;

	*bytes = 0;
	*pct = 0;
	if (v->kind == PV_UNSET)
		return 0;
	if (v->kind == PV_INT && v->u.i >= 0) {
		*bytes = (uint64_t)v->u.i;
		return 0;
	}
	if (v->kind == PV_STRING) {
		d = strtod(v->u.s, &end);
		if (end != v->u.s && strcmp(end, "%") == 0 && d >= 0 && d <= 100) {
			*pct = d;
			if (d == 0 && strcmp(attr, "size") == 0)
				goto bad;
			return 0;
		}
	}
bad:
	diag_error(c->d, v->loc, "device '%s': %s must be bytes or a percentage of "
		   "the device (\"95%%\"), %s", name, attr,
		   strcmp(attr, "size") == 0 ? "above 0 and at most 100 %" :
		   "0 to 100 %");
	return -1;
}

/*
 * A new plan fileset named by the statement `pd` at `path` (a file, a
 * fileset or a device): its name registered (the first definition of
 * a name wins the lookups), the rest zero.
 */
static struct plan_fileset *push_fileset(struct compiler *c, const struct pending *pd,
					 const char *path)
{
	struct plan_fileset *fs;

	if (name_find(&c->fileset_names, pd->name) < 0)
		name_put(&c->fileset_names, pd->name, c->p->nfilesets);
	fs = PUSH(c->p->filesets, c->p->nfilesets, c->caps_filesets);
	memset(fs, 0, sizeof(*fs));
	fs->name = pd->name;
	fs->path = path;
	fs->loc = pd->st->loc;
	return fs;
}

/*
 * `define device name=N,path=/dev/X[,size=S][,offset=O]`: one entry, the
 * region [O, O + S) of the block device (its end without size).  What the
 * device is, and whether it may be written, is the runtime's
 * (runtime/fileset/blkdev.c); the path must at least be absolute.
 */
static void build_device(struct compiler *c, const struct pending *pd)
{
	struct plan_value v[E_COUNT] = { 0 };
	struct plan_fileset *fs;

	if (attrs_eval(c, FOR_DEVICE, pd->st->attrs, "device", v))
		return;
	if (!attrs_given(v, E_PATH)) {
		diag_error(c->d, pd->st->loc, "device '%s' needs a path (path=/dev/...)",
			   pd->name);
		return;
	}
	if (v[E_PATH].u.s[0] != '/') {
		diag_error(c->d, v[E_PATH].loc, "device '%s': path '%s' must be "
			   "absolute (a block device such as /dev/sdb)", pd->name,
			   v[E_PATH].u.s);
		return;
	}
	fs = push_fileset(c, pd, v[E_PATH].u.s);
	fs->is_device = true;
	fs->entries = 1;
	fs->dirwidth = 10;
	fs->size_rv = -1;
	fs->dirwidth_rv = -1;
	fs->dirdepth_rv = -1;
	fs->prealloc_pct = 100;
	device_extent(c, &v[E_SIZE], "size", pd->name, &fs->dev_size, &fs->dev_size_pct);
	device_extent(c, &v[E_OFFSET], "offset", pd->name, &fs->dev_offset,
		      &fs->dev_offset_pct);
	if (attrs_given(v, E_SIZE) && fs->dev_size_pct == 0 && fs->dev_size == 0 &&
	    v[E_SIZE].kind == PV_INT)
		diag_error(c->d, v[E_SIZE].loc, "device '%s': size must be above 0",
			   pd->name);
	/* the plan's size: what compile-time checks know (0 = unknown yet) */
	fs->size = fs->dev_size_pct > 0 ? 0 : fs->dev_size;
	if (strchr(fs->name, '/') || !fs->name[0])
		diag_error(c->d, pd->st->loc,
			   "device name '%s' must be a single word", fs->name);
}

/*
 * `define file` and `define fileset`: a file is a fileset of one entry
 * with a fixed shape (dirwidth 10, dirgamma 0, no leaf directories).
 */
void build_fileset(struct compiler *c, const struct pending *pd)
{
	bool is_file = pd->st->kind == ST_DEFINE_FILE;
	const char *what = is_file ? "file" : "fileset";
	struct plan_value v[E_COUNT] = { 0 };
	struct plan_fileset *fs;
	int64_t size;

	if (pd->st->kind == ST_DEFINE_DEVICE) {
		build_device(c, pd);
		return;
	}
	if (attrs_eval(c, is_file ? FOR_FILE : FOR_FILESET, pd->st->attrs,
		       what, v))
		return;
	if (!attrs_given(v, E_PATH)) {
		diag_error(c->d, pd->st->loc, "%s '%s' needs a path (path=...)",
			   what, pd->name);
		return;
	}
	if (attrs_given(v, E_CACHED))
		diag_warning(c->d, v[E_CACHED].loc,
			     "'cached' is ignored: the cache state is set by --cache (cold by default)");
	if (flag_attr(v, E_READONLY) && flag_attr(v, E_WRITEONLY))
		diag_error(c->d, v[E_WRITEONLY].loc,
			   "%s '%s' cannot be both readonly and writeonly",
			   what, pd->name);

	fs = push_fileset(c, pd, v[E_PATH].u.s);
	fs->is_file = is_file;
	size = attrs_given(v, E_SIZE) && v[E_SIZE].kind == PV_INT ?
	       v[E_SIZE].u.i : 1024;
	fs->size = (uint64_t)size;
	fs->size_rv = random_attr(v, E_SIZE);
	fs->prealloc_pct = (int)const_attr(v, E_PREALLOC, 0);
	fs->paralloc = flag_attr(v, E_PARALLOC);
	fs->reuse = flag_attr(v, E_REUSE);
	fs->trusttree = flag_attr(v, E_TRUSTTREE);
	fs->readonly = flag_attr(v, E_READONLY);
	fs->writeonly = flag_attr(v, E_WRITEONLY);
	fs->dirwidth_rv = -1;
	fs->dirdepth_rv = -1;
	if (is_file) {
		fs->entries = 1;
		fs->dirwidth = 10;
		fs->dirgamma = 0;
	} else {
		fs->entries = (uint64_t)const_attr(v, E_ENTRIES, 0);
		fs->leafdirs = (uint64_t)const_attr(v, E_LEAFDIRS, 0);
		fs->dirgamma = const_attr(v, E_DIRGAMMA, 1500);
		if (const_attr(v, E_FILESIZEGAMMA, 0) > 0 && fs->size_rv < 0)
			fs->size_rv = random_gamma(c, (double)fs->size,
						   (double)v[E_FILESIZEGAMMA].u.i,
						   v[E_FILESIZEGAMMA].loc);
		fs->dirwidth_rv = random_attr(v, E_DIRWIDTH);
		if (attrs_given(v, E_DIRWIDTH) && fs->dirwidth_rv < 0)
			fs->dirwidth = (double)v[E_DIRWIDTH].u.i;
		if (attrs_given(v, E_DIRDEPTHRV)) {
			fs->dirdepth_rv = random_attr(v, E_DIRDEPTHRV);
			if (fs->dirdepth_rv < 0)
				diag_error(c->d, v[E_DIRDEPTHRV].loc,
					   "fileset '%s': dirdepthrv must name a random variable",
					   pd->name);
		}
		if (fs->entries == 0 && fs->leafdirs == 0)
			diag_error(c->d, attrs_given(v, E_ENTRIES) ?
				   v[E_ENTRIES].loc : pd->st->loc,
				   "fileset '%s' has no entries and no leafdirs: it would be empty, and no flowop could use it",
				   pd->name);
		count_limit(c, v, E_ENTRIES, "entries", pd->name);
		count_limit(c, v, E_LEAFDIRS, "leafdirs", pd->name);
		if (!attrs_given(v, E_DIRWIDTH) &&
		    (fs->entries > 1 || fs->leafdirs > 1))
			diag_error(c->d, pd->st->loc,
				   "fileset '%s' needs a directory width (dirwidth=...)",
				   pd->name);
		else if (fs->dirwidth_rv < 0 && attrs_given(v, E_DIRWIDTH) &&
			 fs->dirwidth < 1)
			diag_error(c->d, v[E_DIRWIDTH].loc,
				   "fileset '%s': dirwidth must be at least 1",
				   pd->name);
	}
	if (!fs->path[0])
		diag_error(c->d, v[E_PATH].loc, "%s '%s': path is empty", what,
			   pd->name);
	if (strchr(fs->name, '/') || strcmp(fs->name, ".") == 0 ||
	    strcmp(fs->name, "..") == 0 || !fs->name[0])
		diag_error(c->d, pd->st->loc,
			   "%s name '%s' must be a single path component", what,
			   fs->name);
}

void devices_mark_writes(struct compiler *c)
{
	const struct plan *p = c->p;

	for (int t = 0; t < p->nthreads; t++) {
		int first = p->threads[t].first_flowop, end = first + p->threads[t].nflowops;
		bool fd_writes = false;

		for (int k = first; k < end; k++)
			if (p->flowops[k].fileset < 0 && (p->flowops[k].ops->rw & FLOWOP_RW_WRITE))
				fd_writes = true;
		for (int k = first; fd_writes && k < end; k++)
			if (p->flowops[k].fileset >= 0 &&
			    p->filesets[p->flowops[k].fileset].is_device)
				p->filesets[p->flowops[k].fileset].dev_writes = true;
	}
}

static int find_fileset(struct compiler *c, const char *name)
{
	return name_find(&c->fileset_names, name);
}

/* A file whose definition had errors: do not report it missing too. */
static bool defined_but_broken(struct compiler *c, const char *name)
{
	return name_find(&c->file_names, name) >= 0;
}

/* ---- flowops and composites ----------------------------------------- */

static struct composite *find_composite(struct compiler *c, const char *name)
{
	int i = name_find(&c->composite_names, name);

	return i < 0 ? NULL : &c->composites[i];
}

/*
 * What one invocation of composite `def` evaluates: its attributes and
 * locals, each inner flowop and their attributes (an inner invocation
 * counts its own when it is expanded).
 */
static long expansion_weight(const struct ast_entity *def)
{
	long w = 0;

	for (const struct ast_attr *a = def->attrs; a; a = a->next)
		w++;
	for (const struct ast_attr *a = def->trailing_attrs; a; a = a->next)
		w++;
	for (const struct ast_entity *in = def->body; in; in = in->next) {
		w++;
		for (const struct ast_attr *a = in->attrs; a; a = a->next)
			w++;
	}
	return w;
}

/*
 * `define flowop name=N [, iters=V] [, $local[=value]]... { flowop ... }`:
 * remembered by name; every invocation expands it (build_composite).
 */
void composite_define(struct compiler *c, const struct ast_stmt *st)
{
	const struct ast_entity *e = st->entity;
	const char *name = attrs_name(c, e->attrs, e->loc, "composite flowop");
	struct composite *cp;

	if (!name)
		return;
	if (flowop_registry_lookup(c->opts->registry, name)) {
		diag_error(c->d, e->loc,
			   "a composite flowop cannot be named '%s': that is a built-in flowop",
			   name);
		return;
	}
	if (find_composite(c, name)) {
		diag_error(c->d, e->loc, "composite flowop '%s' is defined twice", name);
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		const struct ast_attr *a = pass ? e->trailing_attrs : e->attrs;

		for (; a; a = a->next) {
			if (a->is_local || strcmp(a->name, "name") == 0 ||
			    strcmp(a->name, "iters") == 0 ||
			    strcmp(a->name, "choose") == 0)
				continue;
			diag_error(c->d, a->loc,
				   "'define flowop' takes name, iters, choose and local variables ($name=value), not '%s'",
				   a->name);
		}
	}
	name_put(&c->composite_names, name, c->ncomposites);
	cp = PUSH(c->composites, c->ncomposites, c->capcomposites);
	cp->name = name;
	cp->e = e;
	cp->expanding = false;
	cp->weight = expansion_weight(e);
	cp->choose = choose_define(c, e, name);
}

static void build_composite(struct compiler *c, const struct ast_entity *e,
			    struct composite *cp, int thread, const char *prefix,
			    int depth);

/*
 * The report line of a new flowop called `name`: the index of the first
 * flowop of that name (whose line its statistics join, as filebench
 * shows one line per name; said with a warning), else `self`, which is
 * then remembered as the first of its name (the caller pushes it next).
 */
static int report_line(struct compiler *c, const char *name, struct src_loc loc,
		       int self)
{
	int i = name_find(&c->flowop_names, name);

	if (i < 0) {
		name_put(&c->flowop_names, name, self);
		return self;
	}
	diag_warning(c->d, loc,
		     "flowop name '%s' is used again: its statistics join the first '%s' in one line",
		     name, name);
	diag_note(c->d, c->p->flowops[i].loc, "first used here");
	return c->p->flowops[i].line;
}

/*
 * Is there room for one more flowop in the plan?  Reported once, at the
 * flowop that would go over; every later one is then skipped at once, so
 * an exponential expansion stops after COMPILE_MAX_FLOWOPS steps.
 */
static bool room_for_flowop(struct compiler *c, const struct ast_entity *e)
{
	if (c->too_many_flowops)
		return false;
	if (c->p->nflowops < COMPILE_MAX_FLOWOPS)
		return true;
	diag_error(c->d, e->loc,
		   "more than flowbench's limit of %d flowops in one run (composite invocations included)",
		   COMPILE_MAX_FLOWOPS);
	c->too_many_flowops = true;
	return false;
}

/*
 * May `e` expand composite `cp` within COMPILE_MAX_EXPANSION?  Reported
 * once, at the invocation that would go over; every later one is skipped.
 */
static bool room_for_expansion(struct compiler *c, const struct ast_entity *e,
			       const struct composite *cp)
{
	if (c->too_much_expansion)
		return false;
	c->expanded += cp->weight;
	if (c->expanded <= COMPILE_MAX_EXPANSION)
		return true;
	diag_error(c->d, e->type_loc,
		   "composite invocations evaluate more than flowbench's limit of %d attributes, local variables and flowops",
		   COMPILE_MAX_EXPANSION);
	c->too_much_expansion = true;
	return false;
}

/*
 * The constant time attributes of `f` (type T_SECONDS in its table; a
 * random variable is sampled while the run goes and cannot be checked
 * here): not negative, and within PLAN_MAX_SECONDS like every time value
 * of a script.
 */
static void check_time_attrs(struct compiler *c, const struct plan_flowop *f)
{
	for (const struct attr_spec *s = f->ops->attrs; s && s->name; s++) {
		const struct plan_value *v = &f->attr[s->index];
		char what[96];
		double secs;

		if (s->type != T_SECONDS || (v->kind != PV_INT && v->kind != PV_DOUBLE))
			continue;
		secs = v->kind == PV_INT ? (double)v->u.i : v->u.d;
		snprintf(what, sizeof(what), "flowop %s", f->name);
		if (secs < 0)
			diag_error(c->d, v->loc, "%s: %s %s (seconds) must not be negative",
				   what, f->ops->name, s->name);
		else
			compiler_check_seconds(c, secs, v->loc, what);
	}
}

/*
 * One flowop statement of a thread (prefix NULL, depth 0) or of a
 * composite being expanded (prefix = the invocation's name: the copy is
 * named "<prefix>.<name>").
 */
static void build_flowop(struct compiler *c, const struct ast_entity *e,
			 int thread, const char *prefix, int depth)
{
	const struct flowop_ops *ops = flowop_registry_lookup(c->opts->registry,
							      e->type);
	struct plan_value *v;
	struct plan_flowop *f;
	struct composite *cp;
	const char *name;
	char what[96];
	char hint[160];
	int line;

	if (!room_for_flowop(c, e))
		return;
	if (!ops && (cp = find_composite(c, e->type))) {
		build_composite(c, e, cp, thread, prefix, depth);
		return;
	}
	if (!ops) {
		const char **names = flowop_registry_names(c->opts->registry);

		diag_error(c->d, e->type_loc, "unknown flowop '%s'%s", e->type,
			   diag_did_you_mean(hint, sizeof(hint), e->type, names));
		free(names);
		return;
	}
	snprintf(what, sizeof(what), "flowop %s", ops->name);
	/* the plan keeps the values: its arena owns them */
	v = arena_alloc(&c->p->arena, (size_t)flowop_nattr(ops) * sizeof(*v));
	if (attrs_eval_flowop(c, ops, e->attrs, what, v))
		return;
	if (!attrs_given(v, PA_NAME)) {
		diag_error(c->d, e->loc, "flowop %s needs a name (name=...)",
			   ops->name);
		return;
	}
	name = prefix ? arena_printf(&c->p->arena, "%s.%s", prefix,
				     v[PA_NAME].u.s) : v[PA_NAME].u.s;
	choose_member(c, name, &v[PA_WEIGHT], e->loc);
	line = report_line(c, name, v[PA_NAME].loc, c->p->nflowops);
	f = PUSH(c->p->flowops, c->p->nflowops, c->caps_flowops);
	memset(f, 0, sizeof(*f));
	f->ops = ops;
	f->name = name;
	f->line = line;
	f->depth = depth;
	f->loc = e->loc;
	f->thread = thread;
	f->fileset = -1;
	f->attr = v;
	f->nattr = flowop_nattr(ops);
	check_time_attrs(c, f);
	if (plan_attr_given(f, PA_ITERS) && f->attr[PA_ITERS].kind == PV_INT &&
	    f->attr[PA_ITERS].u.i < 1)
		diag_error(c->d, f->attr[PA_ITERS].loc,
			   "flowop %s: iters must be at least 1", f->name);
	if (plan_attr_given(f, PA_FILENAME)) {
		const char *fname = f->attr[PA_FILENAME].u.s;

		f->fileset = find_fileset(c, fname);
		if (f->fileset < 0 && defined_but_broken(c, fname))
			return;         /* its definition's error was reported */
		if (f->fileset < 0) {
			const char **names = diag_error_shown(c->d) ?
				calloc((size_t)c->p->nfilesets + 1, sizeof(*names)) : NULL;

			for (int i = 0; names && i < c->p->nfilesets; i++)
				names[i] = c->p->filesets[i].name;
			diag_error(c->d, f->attr[PA_FILENAME].loc,
				   "flowop %s: no file or fileset named '%s'%s",
				   f->name, fname,
				   names ? diag_did_you_mean(hint, sizeof(hint),
							     fname, names) : "");
			free(names);
		} else if (c->p->filesets[f->fileset].is_device) {
			struct plan_fileset *dev = &c->p->filesets[f->fileset];

			if (!ops->on_device)
				diag_error(c->d, f->attr[PA_FILENAME].loc,
					   "flowop %s: '%s' is a block device (define device): "
					   "%s works on files and names, which a device does "
					   "not have (read, write, aioread, aiowrite, openfile, "
					   "closefile, fsync and fsyncset work on one)",
					   f->name, fname, ops->name);
			if (ops->rw & FLOWOP_RW_WRITE)
				dev->dev_writes = true;
		}
	}
}

/*
 * An invocation `flowop <composite> name=inv, iters=N, $local=value...`:
 * a plan entry for the composite, then a copy of each inner flowop named
 * "inv.<inner>", evaluated with the composite's local variables bound
 * (invocation values over definition defaults, both read in the scope
 * around the invocation).
 */
static void build_composite(struct compiler *c, const struct ast_entity *e,
			    struct composite *cp, int thread, const char *prefix,
			    int depth)
{
	const struct ast_entity *def = cp->e;
	struct plan_value iters = { 0 }, weight = { 0 };
	const char *name = NULL;
	struct scope sc = { .composite = cp->name, .choose = cp->choose,
			    .up = c->scope };
	int nlocals = 0, index, line, errors;
	struct plan_flowop *f;

	if (cp->expanding) {
		diag_error(c->d, e->type_loc, "composite '%s' invokes itself", cp->name);
		return;
	}
	if (depth >= COMPOSITE_MAX_DEPTH) {
		diag_error(c->d, e->type_loc,
			   "composite flowops nested too deeply (more than %d levels)",
			   COMPOSITE_MAX_DEPTH);
		return;
	}
	if (!room_for_expansion(c, e, cp))
		return;
	for (int pass = 0; pass < 2; pass++)
		for (const struct ast_attr *a = pass ? def->trailing_attrs : def->attrs; a; a = a->next)
			nlocals += a->is_local;
	for (const struct ast_attr *a = e->attrs; a; a = a->next)
		nlocals += a->is_local;
	sc.vars = xcalloc((size_t)nlocals + 1, sizeof(*sc.vars));
	/* definition defaults, then the invocation's values */
	for (int pass = 0; pass < 2; pass++) {
		for (const struct ast_attr *a = pass ? def->trailing_attrs : def->attrs; a; a = a->next) {
			struct value v;

			if (a->is_local)
				scope_bind(c, &sc, a, true);
			else if (strcmp(a->name, "iters") == 0 && a->value &&
				 eval_expr(c, a->value, &v) == 0)
				attrs_convert(c, a, T_SIZE, &v, &iters);
		}
	}
	for (const struct ast_attr *a = e->attrs; a; a = a->next) {
		struct value v;

		if (a->is_local) {
			scope_bind(c, &sc, a, false);
		} else if (strcmp(a->name, "name") == 0 && a->value) {
			if (eval_expr(c, a->value, &v) == 0)
				name = value_text(c, &v);
		} else if (strcmp(a->name, "iters") == 0 && a->value) {
			if (eval_expr(c, a->value, &v) == 0)
				attrs_convert(c, a, T_SIZE, &v, &iters);
		} else if (strcmp(a->name, "weight") == 0) {
			/* a member of a choice; bare, a boolean: refused as such */
			if (!a->value)
				v = (struct value){ .kind = V_BOOL, .b = true };
			if ((!a->value || eval_expr(c, a->value, &v) == 0) &&
			    attrs_convert(c, a, T_SIZE, &v, &weight) < 0)
				weight.kind = PV_UNSET;
		} else {
			diag_error(c->d, a->loc,
				   "composite flowop '%s' takes name, iters, weight and its local variables, not '%s'",
				   cp->name, a->name);
		}
	}
	if (!name) {
		diag_error(c->d, e->loc, "flowop %s needs a name (name=...)", cp->name);
		free(sc.vars);
		name_index_free(&sc.names);
		return;
	}
	if (prefix)
		name = arena_printf(&c->p->arena, "%s.%s", prefix, name);
	choose_member(c, name, &weight, e->loc);
	index = c->p->nflowops;
	line = report_line(c, name, e->loc, index);
	f = PUSH(c->p->flowops, c->p->nflowops, c->caps_flowops);
	memset(f, 0, sizeof(*f));
	f->ops = cp->choose ? c->opts->registry->choice : c->opts->registry->composite;
	f->name = name;
	f->line = line;
	f->loc = e->loc;
	f->thread = thread;
	f->fileset = -1;
	f->depth = depth;
	f->nattr = flowop_nattr(f->ops);
	f->attr = arena_alloc(&c->p->arena, (size_t)f->nattr * sizeof(*f->attr));
	f->attr[PA_ITERS] = iters;
	f->attr[PA_WEIGHT] = weight;

	cp->expanding = true;
	c->scope = &sc;
	errors = c->d->errors;
	for (const struct ast_entity *inner = def->body; inner; inner = inner->next)
		build_flowop(c, inner, thread, name, depth + 1);
	c->scope = sc.up;
	cp->expanding = false;
	c->p->flowops[index].ndesc = c->p->nflowops - index - 1;
	if (cp->choose && c->d->errors == errors)
		choose_check_total(c, index, e->loc, cp->name);
	free(sc.vars);
	name_index_free(&sc.names);
}

/* ---- threads and processes ------------------------------------------ */

/* `memtype=anon|thp|hugetlb` (runtime/engine/threadmem.h); an error keeps anon. */
static enum plan_memtype thread_memtype(struct compiler *c, const struct plan_value *v,
					const char *thread)
{
	static const char *const names[] = { "anon", "thp", "hugetlb", NULL };
	char hint[80];

	if (!attrs_given(v, E_MEMTYPE))
		return PLAN_MEM_ANON;
	for (int i = 0; names[i]; i++)
		if (strcmp(v[E_MEMTYPE].u.s, names[i]) == 0)
			return (enum plan_memtype)i;
	diag_error(c->d, v[E_MEMTYPE].loc,
		   "thread '%s': memtype is anon, thp or hugetlb, not '%s'%s", thread,
		   v[E_MEMTYPE].u.s,
		   diag_did_you_mean(hint, sizeof(hint), v[E_MEMTYPE].u.s, names));
	return PLAN_MEM_ANON;
}

/* A thread of process `proc`, then its flowops in order. */
static void build_thread(struct compiler *c, const struct ast_entity *e,
			 int proc)
{
	struct plan_value v[E_COUNT] = { 0 };
	struct plan_thread *t;
	int index = c->p->nthreads;

	/* attributes in error keep their defaults: the flowops are checked too */
	attrs_eval(c, FOR_THREAD, e->attrs, "thread", v);
	if (!attrs_given(v, E_NAME)) {
		diag_error(c->d, e->loc, "thread needs a name (name=...)");
		v[E_NAME].u.s = "?";
	}
	if (attrs_given(v, E_USEISM))
		diag_warning(c->d, v[E_USEISM].loc,
			     "'useism' has no effect in flowbench: thread memory is always private");

	t = PUSH(c->p->threads, c->p->nthreads, c->caps_threads);
	memset(t, 0, sizeof(*t));
	t->name = v[E_NAME].u.s;
	t->loc = e->loc;
	t->proc = proc;
	t->instances = (uint64_t)const_attr(v, E_INSTANCES, 1);
	t->memsize = (uint64_t)const_attr(v, E_MEMSIZE, 0);
	t->ioprio = (int)const_attr(v, E_IOPRIO, 8);
	t->memtype = thread_memtype(c, v, t->name);
	if (t->memtype != PLAN_MEM_ANON && !t->memsize)
		diag_warning(c->d, v[E_MEMTYPE].loc,
			     "thread '%s': memtype has no effect without memsize", t->name);
	if (t->instances == 0)
		diag_error(c->d, v[E_INSTANCES].loc,
			   "thread '%s': instances must be at least 1", t->name);
	else if (t->instances > PLAN_MAX_THREAD_INSTANCES)
		diag_error(c->d, v[E_INSTANCES].loc,
			   "instances=%llu for thread '%s': more than flowbench's limit of %u thread instances in one run",
			   (unsigned long long)t->instances, t->name,
			   PLAN_MAX_THREAD_INSTANCES);
	if (t->ioprio > 8)
		diag_error(c->d, v[E_IOPRIO].loc,
			   "thread '%s': ioprio is 0..7 (or 8 to leave it unchanged), not %d",
			   t->name, t->ioprio);
	t->first_flowop = c->p->nflowops;
	for (const struct ast_entity *fo = e->body; fo; fo = fo->next)
		build_flowop(c, fo, index, NULL, 0);
	/* `t` may have moved if the threads array grew: index again */
	c->p->threads[index].nflowops = c->p->nflowops -
					c->p->threads[index].first_flowop;
}

/*
 * The run's thread instances, once process `index` is built, against
 * flowbench's limit (the shared region's slot table).  A thread over the
 * limit by itself was reported by build_thread(); here the process's
 * instances (at `loc`) or the processes together go over it.
 */
static void check_thread_total(struct compiler *c, int index, struct src_loc loc)
{
	const struct plan_proc *pr = &c->p->procs[index];
	uint64_t per = 0, before = c->thread_instances, total;
	bool one_over = false;

	for (int t = pr->first_thread; t < pr->first_thread + pr->nthreads; t++) {
		one_over |= c->p->threads[t].instances > PLAN_MAX_THREAD_INSTANCES;
		per = plan_sat_add(per, c->p->threads[t].instances);
	}
	total = plan_sat_add(before, plan_sat_mul(pr->instances, per));
	c->thread_instances = total;
	if (one_over || total <= PLAN_MAX_THREAD_INSTANCES ||
	    before > PLAN_MAX_THREAD_INSTANCES)
		return;
	if (pr->instances > 1)
		diag_error(c->d, loc,
			   "instances=%llu for process '%s' (%llu thread instance%s each): more than flowbench's limit of %u thread instances in one run",
			   (unsigned long long)pr->instances, pr->name,
			   (unsigned long long)per, per == 1 ? "" : "s",
			   PLAN_MAX_THREAD_INSTANCES);
	else
		diag_error(c->d, pr->loc,
			   "process '%s' brings the run to %llu thread instances: more than flowbench's limit of %u",
			   pr->name, (unsigned long long)total,
			   PLAN_MAX_THREAD_INSTANCES);
}

/* ---- run phases (a flowbench extension) ------------------------------ */

/*
 * Why each phase attribute exists, for messages: filebench runs every
 * process at once for the whole run, so --compat filebench refuses them.
 */
static const struct {
	int id;
	const char *name;
} phase_attrs[] = {
	{ E_AFTER, "after" },
	{ E_STARTDELAY, "startdelay" },
	{ E_RUNTIME, "runtime" },
};

/* Under --compat filebench: every phase attribute written is an error. */
static bool phases_refused(struct compiler *c, const struct plan_value *v,
			   const char *proc)
{
	bool refused = false;

	if (c->opts->semantics != PLAN_SEM_FILEBENCH)
		return false;
	for (size_t i = 0; i < sizeof(phase_attrs) / sizeof(phase_attrs[0]); i++) {
		if (!attrs_given(v, phase_attrs[i].id))
			continue;
		diag_error(c->d, v[phase_attrs[i].id].loc,
			   "process '%s': %s= is a flowbench extension (run phases); filebench has no such construct, so --compat filebench refuses it",
			   proc, phase_attrs[i].name);
		refused = true;
	}
	return refused;
}

/*
 * startdelay= or runtime= as seconds into *out (0 when not written):
 * a constant number, >= 0 (`positive`: > 0), within flowbench's limit.
 */
static void phase_seconds(struct compiler *c, const struct plan_value *v,
			  const char *proc, const char *what, bool positive,
			  double *out)
{
	double s;

	*out = 0;
	if (v->kind == PV_UNSET)
		return;
	if (v->kind != PV_INT && v->kind != PV_DOUBLE) {
		diag_error(c->d, v->loc, "process '%s': %s= needs a number of seconds%s",
			   proc, what, v->kind == PV_RANDOM ?
			   ", not a random variable (it is read once)" : "");
		return;
	}
	s = v->kind == PV_INT ? (double)v->u.i : v->u.d;
	if (positive ? !(s > 0) : !(s >= 0)) {
		diag_error(c->d, v->loc, "process '%s': %s=%g: the seconds must be %s",
			   proc, what, s, positive ? "more than 0" : "0 or more");
		return;
	}
	if (compiler_check_seconds(c, s, v->loc, what))
		*out = s;
}

/*
 * One name of after= that matched no earlier process: itself, a process
 * defined later, or no process at all (with the closest name).
 */
static void after_unknown(struct compiler *c, struct src_loc loc,
			  const char *name, int self)
{
	const char **names = xcalloc((size_t)c->nprocs + 1, sizeof(*names));
	char hint[160];

	if (strcmp(name, c->procs[self].name) == 0) {
		diag_error(c->d, loc, "process '%s' cannot wait for itself (after=)",
			   name);
		free(names);
		return;
	}
	for (int j = self + 1; j < c->nprocs; j++) {
		if (strcmp(c->procs[j].name, name) == 0) {
			diag_error(c->d, loc,
				   "process '%s' in after= is defined after process '%s' (line %d): after= names only processes defined before it",
				   name, c->procs[self].name, c->procs[j].st->loc.line);
			free(names);
			return;
		}
	}
	for (int j = 0; j < c->nprocs; j++)
		names[j] = c->procs[j].name;
	diag_error(c->d, loc, "unknown process '%s' in after=%s", name,
		   diag_did_you_mean(hint, sizeof(hint), name, names));
	free(names);
}

/* Can process `j` end before the run does: a runtime= or a finish flowop? */
static bool proc_can_end(const struct plan *p, int j)
{
	const struct plan_proc *pp = &p->procs[j];

	if (pp->runtime_s > 0)
		return true;
	for (int t = pp->first_thread; t < pp->first_thread + pp->nthreads; t++)
		for (int k = 0; k < p->threads[t].nflowops; k++)
			if (strncmp(p->flowops[p->threads[t].first_flowop + k].ops->name,
				    "finish", 6) == 0)
				return true;
	return false;
}

/*
 * In timeout mode a process that can never end holds back every process
 * after it until the run's end: warned about (the script may mean it).
 */
static void after_check_ends(struct compiler *c, const struct plan_value *v,
			     const struct plan_proc *pr)
{
	for (int i = 0; c->p->quit_mode == QUIT_TIMEOUT && i < pr->nafter; i++) {
		const struct plan_proc *before = &c->p->procs[pr->after[i]];

		if (!proc_can_end(c->p, pr->after[i]))
			diag_warning(c->d, v->loc,
				     "process '%s' waits for process '%s', which has no finish flowop (finishoncount, finishonbytes) and no runtime=: it runs until the run's end, so '%s' would never start",
				     pr->name, before->name, pr->name);
	}
}

/*
 * after="A:B": every earlier process named A or B (names may repeat),
 * into pr->after.  Each name must be non-empty and defined before
 * process `self`, so the waits can never form a cycle.
 */
static void build_after(struct compiler *c, const struct plan_value *v,
			int self, struct plan_proc *pr)
{
	const char *list = v->u.s;
	int *after = arena_alloc(&c->p->arena, sizeof(int) * ((size_t)self + 1));
	int n = 0;

	for (const char *p = list;; p++) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *name = arena_strndup(&c->p->arena, p, len);
		bool found = false;

		if (len == 0) {
			diag_error(c->d, v->loc, "process '%s': empty process name in after=\"%s\"",
				   pr->name, list);
		} else {
			for (int j = 0; j < self; j++) {
				if (strcmp(c->p->procs[j].name, name) != 0)
					continue;
				found = true;
				for (int k = 0; k < n && found; k++)
					found = after[k] != j;
				if (found)
					after[n++] = j;
				found = true;
			}
			if (!found)
				after_unknown(c, v->loc, name, self);
		}
		if (!end)
			break;
		p = end;
	}
	pr->after = after;
	pr->nafter = n;
	after_check_ends(c, v, pr);
}

/* The run-phase attributes of process `index` (already pushed as `pr`). */
static void build_phases(struct compiler *c, const struct plan_value *v,
			 int index, struct plan_proc *pr)
{
	pr->phased = attrs_given(v, E_AFTER) || attrs_given(v, E_STARTDELAY) ||
		     attrs_given(v, E_RUNTIME);
	if (!pr->phased || phases_refused(c, v, pr->name))
		return;
	c->p->has_phases = true;
	if (attrs_given(v, E_AFTER))
		build_after(c, &v[E_AFTER], index, pr);
	phase_seconds(c, &v[E_STARTDELAY], pr->name, "startdelay", false,
		      &pr->startdelay_s);
	phase_seconds(c, &v[E_RUNTIME], pr->name, "runtime", true, &pr->runtime_s);
}

/* A `define process`, then its threads in order. */
void build_process(struct compiler *c, const struct pending *pd)
{
	const struct ast_entity *e = pd->st->entity;
	struct plan_value v[E_COUNT] = { 0 };
	struct plan_proc *pr;
	int index = c->p->nprocs;

	/* attributes in error keep their defaults: the threads are checked too */
	attrs_eval(c, FOR_PROCESS, e->attrs, "process", v);
	pr = PUSH(c->p->procs, c->p->nprocs, c->caps_procs);
	memset(pr, 0, sizeof(*pr));
	pr->name = pd->name;
	pr->loc = e->loc;
	pr->instances = (uint64_t)const_attr(v, E_INSTANCES, 1);
	pr->nice = (int)const_attr(v, E_NICE, 0);
	if (pr->instances == 0)
		diag_error(c->d, v[E_INSTANCES].loc,
			   "process '%s': instances must be at least 1", pr->name);
	build_phases(c, v, index, pr);
	build_oplog(c, v, pr);
	pr->first_thread = c->p->nthreads;
	for (const struct ast_entity *t = e->body; t; t = t->next)
		build_thread(c, t, index);
	c->p->procs[index].nthreads = c->p->nthreads -
				      c->p->procs[index].first_thread;
	check_thread_total(c, index, attrs_given(v, E_INSTANCES) ?
			   v[E_INSTANCES].loc : e->loc);
}
