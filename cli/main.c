/*
 * main.c - flowbench: every subcommand on this machine (command.h).
 * flowbench-mpi has its own entry, mpi/main.c.
 */
#include <stddef.h>

#include "cli/command.h"
#include "runtime/base/log.h"

int main(int argc, char **argv)
{
	log_init();
	return command_main(argc, argv, NULL);
}
