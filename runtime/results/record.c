/*
 * record.c - a results file's record of its run, read back for `run
 * --again` (record.h).  Every key it needs is checked for its type and
 * a wrong or missing one is refused with its JSON path: a rerun must be
 * of exactly what ran, never of a default filled in for a key that was
 * not there.
 */
#include "runtime/results/record.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/base/log.h"
#include "runtime/results/format.h"

/* The whole file, for its SHA-256 (the tree comes from results_read_file()). */
static int file_sha256(const char *path, char out[65], FILE *err)
{
	FILE *in = fopen(path, "rbe");
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	char chunk[65536];
	size_t n;
	int rc = 0;

	if (!in) {
		log_error_to(err, "--again %s: cannot read it: %s", path, strerror(errno));
		return -1;
	}
	mem = open_memstream(&buf, &len);
	while (mem && (n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		if (fwrite(chunk, 1, n, mem) != n)
			rc = -1;
	if (ferror(in) || !mem)
		rc = -1;
	if (mem)
		fclose(mem);
	fclose(in);
	if (rc == 0)
		results_sha256_hex(buf ? buf : "", len, out);
	else
		log_error_to(err, "--again %s: cannot read it", path);
	free(buf);
	return rc;
}

/* A refusal naming the key: "r.json: workload.source.text: ...". */
#define BAD(err, ...) \
	(log_error_to((err), __VA_ARGS__), -1)

static const char *need_str(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

/* workload.defines: NAME -> "value as typed", in the file's order. */
static int read_defines(struct results_record *rec, const json_t *defs, FILE *err)
{
	const char *name;
	json_t *v;

	if (!json_is_object(defs))
		return BAD(err, "%s: workload.defines: not a mapping of -D values",
			   rec->path);
	rec->defines = calloc(json_object_size(defs) + 1, sizeof(*rec->defines));
	if (!rec->defines)
		return BAD(err, "out of memory");
	json_object_foreach((json_t *)defs, name, v) {
		if (!json_is_string(v))
			return BAD(err, "%s: workload.defines.%s: not a string (the -D "
				   "value as typed)", rec->path, name);
		rec->defines[rec->ndefines].name = name;
		rec->defines[rec->ndefines++].value = json_string_value(v);
	}
	return 0;
}

/* The fio job's files and the -D its import took (both lists may be empty). */
static int read_fio_parts(struct results_record *rec, const json_t *wl, FILE *err)
{
	const json_t *files = json_object_get(wl, "files");
	const json_t *imp = json_object_get(wl, "import_defines");
	size_t i;
	json_t *v;

	if ((files && !json_is_array(files)) || (imp && !json_is_array(imp)))
		return BAD(err, "%s: workload.files and workload.import_defines "
			   "are lists", rec->path);
	rec->files = calloc(json_array_size(files) + 1, sizeof(*rec->files));
	rec->import_defines = calloc(json_array_size(imp) + 1,
				     sizeof(*rec->import_defines));
	if (!rec->files || !rec->import_defines)
		return BAD(err, "out of memory");
	json_array_foreach(files, i, v) {
		const json_t *t = json_object_get(v, "text");

		if (!need_str(v, "name") || !json_is_string(t))
			return BAD(err, "%s: workload.files[%zu]: needs a \"name\" and "
				   "its \"text\"", rec->path, i);
		rec->files[rec->nfiles].name = need_str(v, "name");
		rec->files[rec->nfiles].text = json_string_value(t);
		rec->files[rec->nfiles++].len = json_string_length(t);
	}
	json_array_foreach(imp, i, v) {
		if (!json_is_string(v))
			return BAD(err, "%s: workload.import_defines[%zu]: not a "
				   "name", rec->path, i);
		rec->import_defines[rec->nimport_defines++] = json_string_value(v);
	}
	return 0;
}

/* A boolean of "options", false when absent; -1 when of another type. */
static int opt_bool(const json_t *o, const char *k, bool *out)
{
	const json_t *v = json_object_get(o, k);

	if (v && !json_is_boolean(v))
		return -1;
	*out = json_is_true(v);
	return 0;
}

/* "options": runtime, cache, repeat and the flags (docs/results-format.md). */
static int read_options(struct results_record *rec, const json_t *o, FILE *err)
{
	const json_t *rt = json_object_get(o, "runtime_s");
	const json_t *rep = json_object_get(o, "repeat");
	const char *cache = need_str(o, "cache");
	struct res_options *ro = &rec->options;

	if (!json_is_object(o))
		return BAD(err, "%s: no \"options\" (the run's command-line options): "
			   "written by a flowbench before run --again existed", rec->path);
	if (rt && !json_is_null(rt) && !(json_is_number(rt) && json_number_value(rt) > 0))
		return BAD(err, "%s: options.runtime_s: not a positive number of "
			   "seconds or null", rec->path);
	ro->runtime_given = rt && !json_is_null(rt);
	ro->runtime_s = ro->runtime_given ? json_number_value(rt) : 0;
	if (!cache || (strcmp(cache, "cold") != 0 && strcmp(cache, "warm") != 0 &&
		       strcmp(cache, "keep") != 0))
		return BAD(err, "%s: options.cache: \"cold\", \"warm\" or \"keep\"", rec->path);
	ro->cache = strcmp(cache, "warm") == 0 ? CACHE_WARM :
		    strcmp(cache, "keep") == 0 ? CACHE_KEEP : CACHE_COLD;
	if (!json_is_integer(rep) || json_integer_value(rep) < 1 ||
	    json_integer_value(rep) > 100000)
		return BAD(err, "%s: options.repeat: a whole number of runs from 1",
			   rec->path);
	ro->repeat = (int)json_integer_value(rep);
	if (opt_bool(o, "keep_going", &ro->keep_going) < 0 ||
	    opt_bool(o, "force", &ro->force) < 0 ||
	    opt_bool(o, "allow_system", &ro->allow_system) < 0 ||
	    opt_bool(o, "shared_files", &ro->shared_files) < 0)
		return BAD(err, "%s: options: keep_going, force, allow_system and "
			   "shared_files are true or false", rec->path);
	return 0;
}

/* seed, compat, warmup_s, interval_s, percentiles: the top level's. */
static int read_run_keys(struct results_record *rec, FILE *err)
{
	const json_t *root = rec->root, *seed = json_object_get(root, "seed");
	const json_t *pct = json_object_get(root, "percentiles");
	const json_t *w = json_object_get(root, "warmup_s");
	const json_t *iv = json_object_get(root, "interval_s");
	size_t i;
	json_t *v;

	if (!json_is_integer(seed) || json_integer_value(seed) < 0)
		return BAD(err, "%s: seed: not a non-negative integer", rec->path);
	rec->seed = (uint64_t)json_integer_value(seed);
	rec->compat = need_str(root, "compat") ? need_str(root, "compat") : "flowbench";
	if (strcmp(rec->compat, "flowbench") != 0 && strcmp(rec->compat, "filebench") != 0)
		return BAD(err, "%s: compat: \"flowbench\" or \"filebench\", not \"%s\"",
			   rec->path, rec->compat);
	if ((w && !json_is_number(w)) || (iv && !json_is_number(iv)))
		return BAD(err, "%s: warmup_s and interval_s are numbers", rec->path);
	rec->warmup_s = json_number_value(w);
	rec->interval_s = json_number_value(iv);
	if (!json_is_array(pct) || json_array_size(pct) > INTERVAL_MAX_PCT)
		return BAD(err, "%s: percentiles: a list of at most %d numbers",
			   rec->path, INTERVAL_MAX_PCT);
	json_array_foreach(pct, i, v) {
		double q = json_number_value(v);

		if (!json_is_number(v) || !(q > 0 && q < 100))
			return BAD(err, "%s: percentiles[%zu]: not above 0 and below 100",
				   rec->path, i);
		rec->pct[rec->npct++] = q;
	}
	return 0;
}

/* workload: its name, hash, text, -D and (fio) files. */
static int read_workload(struct results_record *rec, FILE *err)
{
	const json_t *wl = json_object_get(rec->root, "workload");
	const json_t *src = json_object_get(wl, "source");
	const json_t *text = json_object_get(src, "text");

	if (!json_is_object(wl))
		return BAD(err, "%s: no \"workload\" mapping", rec->path);
	rec->workload = need_str(wl, "file") ? need_str(wl, "file") : "?";
	rec->workload_sha256 = need_str(wl, "sha256") ? need_str(wl, "sha256") : "";
	if (!json_is_object(src))
		return BAD(err, "%s: workload.source: absent: the file does not "
			   "hold its workload's text (written by a flowbench before run "
			   "--again existed); rerun it with flowbench run %s and the "
			   "options of its \"command\"", rec->path, rec->workload);
	if (!json_is_string(text))
		return BAD(err, "%s: workload.source.text: not kept%s%s: nothing to "
			   "rerun", rec->path, need_str(src, "omitted") ? " (" : "",
			   need_str(src, "omitted") ? need_str(src, "omitted") : "");
	rec->kind = need_str(src, "kind") ? need_str(src, "kind") : "";
	if (strcmp(rec->kind, "wml") != 0 && strcmp(rec->kind, "fio") != 0)
		return BAD(err, "%s: workload.source.kind: \"wml\" or \"fio\", not "
			   "\"%s\"", rec->path, rec->kind);
	rec->text = json_string_value(text);
	rec->len = json_string_length(text);
	if (memchr(rec->text, '\0', rec->len))
		return BAD(err, "%s: workload.source.text: holds a NUL byte",
			   rec->path);
	if (read_defines(rec, json_object_get(wl, "defines"), err) < 0)
		return -1;
	return read_fio_parts(rec, wl, err);
}

int results_record_read(const char *path, struct results_record *rec, FILE *err)
{
	const char *fmt;

	memset(rec, 0, sizeof(*rec));
	rec->path = path;
	if (file_sha256(path, rec->sha256, err) < 0)
		return -1;
	rec->root = results_read_file(path, err, NULL);
	if (!rec->root)
		return -1;
	if (json_object_get(rec->root, "source"))
		return BAD(err, "%s: another tool's results (%s): nothing flowbench "
			   "can rerun", path,
			   need_str(json_object_get(rec->root, "source"), "tool") ?
			   need_str(json_object_get(rec->root, "source"), "tool") : "?");
	fmt = need_str(rec->root, "format");
	if (!fmt || strcmp(fmt, "flowbench-results/1") != 0)
		return BAD(err, "%s: not a flowbench-results/1 file (format %s)", path,
			   fmt ? fmt : "absent");
	if (read_workload(rec, err) < 0 || read_run_keys(rec, err) < 0 ||
	    read_options(rec, json_object_get(rec->root, "options"), err) < 0)
		return -1;
	rec->runs = json_object_get(rec->root, "runs");
	rec->nruns = (int)json_array_size(rec->runs);
	rec->environment = json_object_get(rec->root, "environment");
	return 0;
}

void results_record_free(struct results_record *rec)
{
	free(rec->defines);
	free(rec->import_defines);
	free(rec->files);
	json_decref(rec->root);
	memset(rec, 0, sizeof(*rec));
}
