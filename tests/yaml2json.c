/*
 * yaml2json.c - print a YAML file as JSON (test helper): the end-to-end
 * test checks a YAML results file is valid and holds the same tree as
 * the JSON one.  Exit status 1 on unreadable or invalid YAML.
 */
#include "tests/unit/yamljson.h"

int main(int argc, char **argv)
{
	FILE *f;
	json_t *root;

	if (argc != 2) {
		fprintf(stderr, "usage: yaml2json FILE.yaml\n");
		return 2;
	}
	f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	root = yaml_to_json(f);
	fclose(f);
	if (!root) {
		fprintf(stderr, "yaml2json: %s: not valid YAML\n", argv[1]);
		return 1;
	}
	json_dumpf(root, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
	putchar('\n');
	json_decref(root);
	return 0;
}
