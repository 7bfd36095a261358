/*
 * envdiff.c - what differs between the machine a results file recorded
 * and this one, printed before `run --again` runs (record.h): a rerun on
 * another kernel, file system, disk or CPU is still a rerun, but its
 * numbers are not expected to match, and the user is told why before
 * comparing them.  Values are compared as text, so a key the recorded
 * file lacks (an older file) is "not recorded", never a difference.
 */
#include "runtime/results/record.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* A recorded value as text into buf; false when not recorded (absent, null). */
static bool recorded_text(const json_t *v, char *buf, size_t size)
{
	if (json_is_string(v))
		snprintf(buf, size, "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, size, "%s", json_is_true(v) ? "true" : "false");
	else
		return false;
	return true;
}

/* One line when `now` is known and the recorded value differs from it. */
static int results_env_line(FILE *out, const char *what, const json_t *rec, const char *now)
{
	char was[1024];

	if (!now || !*now || !recorded_text(rec, was, sizeof(was)) || strcmp(was, now) == 0)
		return 0;
	fprintf(out, "Environment differs: %s: recorded %s, now %s\n", what, was, now);
	return 1;
}

static const char *rotational_text(int r)
{
	return r < 0 ? NULL : r ? "true" : "false";
}

int results_env_diff(FILE *out, const json_t *recorded, const struct res_env *now)
{
	const json_t *fss = json_object_get(recorded, "filesystems");
	char cpus[32], mem[32];
	int n = 0;

	snprintf(cpus, sizeof(cpus), "%ld", now->cpus);
	snprintf(mem, sizeof(mem), "%" PRIu64, now->memory_bytes);
	n += results_env_line(out, "host", json_object_get(recorded, "hostname"),
			      now->hostname);
	n += results_env_line(out, "kernel", json_object_get(recorded, "kernel"),
			      now->kernel);
	n += results_env_line(out, "CPUs", json_object_get(recorded, "cpus"),
			      now->cpus > 0 ? cpus : NULL);
	n += results_env_line(out, "CPU model", json_object_get(recorded, "cpu_model"),
			      now->cpu_model);
	n += results_env_line(out, "memory bytes", json_object_get(recorded, "memory_bytes"),
			      now->memory_bytes ? mem : NULL);
	for (int i = 0; i < now->nfs; i++) {
		const struct res_filesystem *f = &now->fs[i];
		const json_t *r = json_array_get(fss, (size_t)i);
		const struct { const char *key, *now; } keys[] = {
			{ "path", f->path }, { "type", f->type }, { "device", f->device },
			{ "mount_options", f->options }, { "disk", f->disk },
			{ "disk_model", f->disk_model },
			{ "rotational", rotational_text(f->rotational) },
		};
		char what[96];

		for (size_t k = 0; r && k < sizeof(keys) / sizeof(keys[0]); k++) {
			snprintf(what, sizeof(what), "file system %d %s", i + 1, keys[k].key);
			n += results_env_line(out, what, json_object_get(r, keys[k].key), keys[k].now);
		}
	}
	if (json_array_size(fss) != (size_t)now->nfs) {
		fprintf(out, "Environment differs: %zu fileset path%s recorded, %d now\n",
			json_array_size(fss), json_array_size(fss) == 1 ? "" : "s", now->nfs);
		n++;
	}
	if (n == 0)
		fprintf(out, "Environment: as recorded (host, kernel, CPUs, memory, file "
			"systems and disks)\n");
	return n;
}
