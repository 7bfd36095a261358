/*
 * keep.c - the fio options `import-fio --lenient` never drops.  --lenient
 * runs a job without the options import-fio cannot honour, each said in
 * a `# NOT IMPORTED:` comment and a warning; but an option that changes
 * how much work the job does, for how long, or what kind of I/O it
 * measures, dropped, would make another experiment under the job's
 * name.  Those stay errors, with the reason, so --lenient never changes
 * the amount of work silently (fio 3.33's names, aliases included).
 */
#include "lang/fio/read.h"

#include <string.h>

#define WORK "it sets how much work the job does"
#define TIME "it sets how long the job runs"
#define PACE "it sets the pace of the I/O"
#define KIND "it sets what kind of I/O the job measures"
#define CHECK "it adds the data's read-back (verify) to the work"
#define ENDS "it decides when the job ends"
#define DATA "it sets the data written (what a compressing or deduplicating " \
	"file system stores)"

static const struct { const char *name, *why; } keep[] = {
	{ "size", WORK }, { "filesize", WORK }, { "io_size", WORK },
	{ "io_limit", WORK }, { "number_ios", WORK }, { "loops", WORK },
	{ "fill_device", WORK }, { "fill_fs", WORK }, { "numjobs", WORK },
	{ "nrfiles", WORK }, { "file_size", WORK }, { "filesize_range", WORK },
	{ "runtime", TIME }, { "timeout", TIME }, { "time_based", TIME },
	{ "ramp_time", TIME }, { "startdelay", TIME },
	{ "rate", PACE }, { "rate_iops", PACE }, { "rate_min", PACE },
	{ "rate_iops_min", PACE }, { "ratemin", PACE }, { "rate_process", PACE },
	{ "rate_cycle", PACE }, { "ratecycle", PACE }, { "rate_poisson", PACE },
	{ "thinktime", PACE }, { "thinktime_blocks", PACE },
	{ "thinktime_spin", PACE }, { "thinktime_iotime", PACE },
	{ "rate_ignore_thinktime", PACE }, { "flow", PACE }, { "flow_id", PACE },
	{ "flow_sleep", PACE }, { "flow_watermark", PACE },
	{ "latency_target", PACE }, { "latency_window", PACE },
	{ "latency_percentile", PACE }, { "latency_run", PACE },
	{ "max_latency", ENDS },
	{ "ioengine", KIND }, { "iodepth", KIND }, { "iodepth_batch", KIND },
	{ "iodepth_batch_submit", KIND }, { "iodepth_batch_complete", KIND },
	{ "iodepth_batch_complete_min", KIND },
	{ "iodepth_batch_complete_max", KIND }, { "iodepth_low", KIND },
	{ "iodepth_mode", KIND },
	{ "rw", KIND }, { "readwrite", KIND }, { "rwmixread", KIND },
	{ "rwmixwrite", KIND }, { "bs", KIND }, { "blocksize", KIND },
	{ "bsrange", KIND }, { "blocksize_range", KIND }, { "bssplit", KIND },
	{ "bs_unaligned", KIND }, { "blocksize_unaligned", KIND },
	{ "direct", KIND }, { "buffered", KIND }, { "sync", KIND },
	{ "fsync", KIND }, { "fdatasync", KIND }, { "end_fsync", KIND },
	{ "fsync_on_close", KIND }, { "write_barrier", KIND },
	{ "sync_file_range", KIND }, { "atomic", KIND }, { "oatomic", KIND },
	{ "trim_percentage", KIND }, { "trim_backlog", KIND },
	{ "verify", CHECK }, { "do_verify", CHECK }, { "verify_only", CHECK },
	{ "verify_backlog", CHECK }, { "verify_state_load", CHECK },
	{ "exitall", ENDS }, { "exit_what", ENDS }, { "exitall_on_error", ENDS },
	{ "continue_on_error", ENDS }, { "ignore_error", ENDS },
	{ "ss", ENDS }, { "steadystate", ENDS }, { "ss_dur", ENDS },
	{ "ss_ramp", ENDS }, { "steadystate_duration", ENDS },
	{ "steadystate_ramp_time", ENDS },
	{ "buffer_pattern", DATA }, { "buffer_compress_percentage", DATA },
	{ "buffer_compress_chunk", DATA }, { "zero_buffers", DATA },
	{ "refill_buffers", DATA }, { "scramble_buffers", DATA },
	{ "dedupe_percentage", DATA }, { "dedupe_mode", DATA },
	{ "dedupe_working_set_percentage", DATA }, { "dedupe_global", DATA },
	{ "verify_pattern", DATA },
};

const char *fio_keep_why(const char *key)
{
	for (size_t i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (strcmp(keep[i].name, key) == 0)
			return keep[i].why;
	return NULL;
}
