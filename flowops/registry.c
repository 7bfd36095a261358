/*
 * registry.c - flowop names to ops tables.
 *
 * The families (io.c, later file.c, dir.c, ...) each export one
 * NULL-terminated table; the registry is their concatenation.  Adding a
 * family means adding one line to `families`.
 */
#include <string.h>

#include "plan/flowop.h"

static const struct flowop_ops *const *const families[] = {
	flowops_io,
	flowops_file,
	flowops_wholefile,
	flowops_dir,
	flowops_rate,
	flowops_finish,
	flowops_misc,
	flowops_sync,
	flowops_aio,
	NULL,
};

/* Every flowop type of WML 1.5 (reference 4.33). */
static const char *const wml_flowops[] = {
	"read", "write", "aiowrite", "aiowait", "openfile", "createfile",
	"closefile", "deletefile", "fsync", "fsyncset", "statfile",
	"readwholefile", "writewholefile", "appendfile", "appendfilerand",
	"makedir", "removedir", "listdir", "delay", "hog", "block", "wakeup",
	"semblock", "sempost", "eventlimit", "iopslimit", "opslimit", "bwlimit",
	"finishoncount", "finishonbytes", "print", "testrandvar", NULL,
};

#define REGISTRY_MAX 64

const struct flowop_ops *flowop_lookup(const char *name)
{
	for (int f = 0; families[f]; f++) {
		for (int i = 0; families[f][i]; i++) {
			if (!strcmp(families[f][i]->name, name))
				return families[f][i];
		}
	}
	return NULL;
}

int flowop_is_known_unimplemented(const char *name)
{
	if (flowop_lookup(name))
		return 0;
	for (int i = 0; wml_flowops[i]; i++) {
		if (!strcmp(wml_flowops[i], name))
			return 1;
	}
	return 0;
}

/*
 * The names are gathered from the tables on first use into a static
 * array: a one-time cache filled by the (single-threaded) compiler.
 */
const char *const *flowop_names(void)
{
	static const char *names[REGISTRY_MAX + 1];

	if (!names[0]) {
		int n = 0;

		for (int f = 0; families[f]; f++) {
			for (int i = 0; families[f][i] && n < REGISTRY_MAX; i++)
				names[n++] = families[f][i]->name;
		}
		names[n] = NULL;
	}
	return names;
}
