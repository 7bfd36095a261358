/*
 * builtins.c - the read-only variables: $rank, $nranks, $hostname.
 *
 * One workload may run on many clients at once (flowbench-mpi); these
 * variables let it shape itself per client ("$dir/client-$rank", a share
 * of the files).  The caller chooses their values (compile_options); they
 * are in place before -D and the script's first statement, and every way
 * of assigning a global refuses them with a located error (vars.c), so that a
 * client can never silently run with a rank other than its own.
 */
#include "lang/compile.h"
#include "lang/compiler.h"

void compile_builtins_default(struct compile_builtin out[COMPILE_NBUILTINS],
			      const char *hostname)
{
	out[COMPILE_BUILTIN_RANK] = (struct compile_builtin){
		.name = "rank", .is_int = true, .i = 0,
		.why = "the rank of this client, set by flowbench-mpi",
	};
	out[COMPILE_BUILTIN_NRANKS] = (struct compile_builtin){
		.name = "nranks", .is_int = true, .i = 1,
		.why = "the number of clients, set by flowbench-mpi",
	};
	out[COMPILE_BUILTIN_HOSTNAME] = (struct compile_builtin){
		.name = "hostname", .s = hostname,
		.why = "the name of this host, set by flowbench",
	};
}

/* The value of builtin `b`, its strings copied into the plan's arena. */
static struct value builtin_value(struct compiler *c,
				  const struct compile_builtin *b)
{
	if (b->is_int)
		return (struct value){ .kind = V_INT, .i = b->i };
	return (struct value){
		.kind = V_STRING,
		.s = arena_strdup(&c->p->arena, b->s ? b->s : ""),
	};
}

/*
 * Put the caller's builtins in place, read-only, before anything else
 * (the same name twice: the last one counts).  They have no location:
 * the command that started flowbench set them.
 */
void builtins_seed(struct compiler *c)
{
	for (int i = 0; i < c->opts->nbuiltins; i++) {
		const struct compile_builtin *b = &c->opts->builtins[i];
		struct var *v = var_find(c, b->name);

		if (!v)
			v = var_add(c, arena_strdup(&c->p->arena, b->name));
		v->v = builtin_value(c, b);
		v->loc = (struct src_loc){ 0, 0 };
		v->read_only = arena_strdup(&c->p->arena,
					    b->why ? b->why : "a builtin variable");
	}
}
