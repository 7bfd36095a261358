/*
 * flowop.c - the part of the flowop contract that is data: the
 * attributes every flowop takes, an attribute's spec and value looked up
 * by name in a flowop's table, and a flowop looked up by name in a
 * registry (the compiler, tests; never the hot path, which indexes
 * plan_flowop.attr and calls the run function the engine copied).
 */
#include "plan/flowop.h"

#include <string.h>

#include "plan/oom.h"

const struct attr_spec plan_flowop_common_attrs[] = {
	{ "name", T_STRING, PA_NAME, "its name: its line in the report" },
	{ "iters", T_SIZE_RV, PA_ITERS,
	  "executions each time the thread's loop reaches it (default 1)" },
	{ "weight", T_SIZE, PA_WEIGHT,
	  "its odds among the flowops of a composite defined with choose (flowbench's own)" },
	{ NULL, 0, 0, NULL }
};

static const struct attr_spec *spec_in(const struct attr_spec *specs,
				       const char *name)
{
	for (; specs && specs->name; specs++)
		if (strcmp(specs->name, name) == 0)
			return specs;
	return NULL;
}

const struct attr_spec *flowop_attr_spec(const struct flowop_ops *ops,
					 const char *name)
{
	const struct attr_spec *s = spec_in(plan_flowop_common_attrs, name);

	return s ? s : spec_in(ops->attrs, name);
}

int flowop_nattr(const struct flowop_ops *ops)
{
	int n = ops->nattr > PA_OWN ? ops->nattr : PA_OWN;

	for (const struct attr_spec *s = ops->attrs; s && s->name; s++)
		if (s->index >= n)
			n = s->index + 1;
	return n;
}

const struct plan_value *plan_flowop_attr(const struct plan_flowop *f,
					  const char *name)
{
	static const struct plan_value unset = { .kind = PV_UNSET };
	const struct attr_spec *s = f->ops ? flowop_attr_spec(f->ops, name) : NULL;

	return s && s->index < f->nattr ? &f->attr[s->index] : &unset;
}

const struct flowop_ops *flowop_registry_lookup(const struct flowop_registry *r,
						const char *name)
{
	for (const struct flowop_ops *const *const *f = r->families; *f; f++)
		for (const struct flowop_ops *const *ops = *f; *ops; ops++)
			if (strcmp((*ops)->name, name) == 0)
				return *ops;
	return NULL;
}

const struct flowop_ops *flowop_registry_at(const struct flowop_registry *r,
					    int i)
{
	for (const struct flowop_ops *const *const *f = r->families; *f; f++)
		for (const struct flowop_ops *const *ops = *f; *ops; ops++)
			if (i-- == 0)
				return *ops;
	return NULL;
}

const char **flowop_registry_names(const struct flowop_registry *r)
{
	const char **names;
	int n = 0;

	while (flowop_registry_at(r, n))
		n++;
	names = xcalloc((size_t)n + 1, sizeof(*names));
	for (int i = 0; i < n; i++)
		names[i] = flowop_registry_at(r, i)->name;
	return names;
}

void plan_use_semantics(struct plan *p, enum plan_semantics sem)
{
	p->semantics = sem;
	if (sem != PLAN_SEM_FILEBENCH)
		return;
	for (int i = 0; i < p->nflowops; i++)
		if (p->flowops[i].ops->filebench)
			p->flowops[i].ops = p->flowops[i].ops->filebench;
}

const char *plan_semantics_name(enum plan_semantics sem)
{
	return sem == PLAN_SEM_FILEBENCH ? "filebench" : "flowbench";
}
