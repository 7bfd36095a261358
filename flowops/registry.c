/*
 * registry.c - the registry value: the families' tables, in the order
 * FLOWOPS_FAMILIES (registry.h) lists them, and the ops of a composite's
 * invocation and of a choice's.
 * Looking a flowop up in it is plan/'s (plan/flowop.c), so that the
 * compiler, which is handed this value, never links against flowops/.
 */
#include <stddef.h>

#include "flowops/registry.h"

#define FLOWOP_FAMILY_ENTRY(family) flowops_##family,
static const struct flowop_ops *const *const families[] = {
	FLOWOPS_FAMILIES(FLOWOP_FAMILY_ENTRY)
	NULL,
};
#undef FLOWOP_FAMILY_ENTRY

const struct flowop_registry flowops_registry = {
	.families = families,
	.composite = &flowops_composite,
	.choice = &flowops_choice,
};
