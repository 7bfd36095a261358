/*
 * oplog.c - per-op logs in fio's formats (oplog.h): the lines, the
 * windows and the buffers of one thread instance's log sets.
 *
 * fio keeps every sample in memory and writes its logs when the job ends
 * (iolog.c flush_log()); flowbench writes as it goes, so the memory stays
 * what oplog_writer_mem() says for any run length: the lines of a file go
 * into a buffer of OPLOG_BUF_BYTES, written with one write(2) (between
 * two ops, outside both's timed windows) when the next line might not
 * fit.  Averaged logs keep one accumulator per direction for the current
 * window, the histogram log one row of fio's bins per direction.
 *
 * Windows are fixed: [k W, (k+1) W) after the log's start, by each op's
 * end; a window's lines are written when the first op of a later window
 * comes (or at the end), stamped with the window's end.  fio closes a
 * window at the first sample past it and stamps it with that sample's
 * time (stat.c add_log_sample()); the means per window are the same
 * definition, the stamps differ by less than the gap between two ops.
 */
#include "runtime/measure/oplog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* What one line file buffers before a write(2): about 900 lines of ~35 bytes. */
#define OPLOG_BUF_BYTES 32768

static const char *const file_names[OPLOG_NFILES] = {
	[OPLOG_LAT] = "lat", [OPLOG_CLAT] = "clat", [OPLOG_SLAT] = "slat",
	[OPLOG_BW] = "bw", [OPLOG_IOPS] = "iops", [OPLOG_HIST] = "clat_hist",
};

static const enum plan_oplog_kind file_kinds[OPLOG_NFILES] = {
	[OPLOG_LAT] = PLAN_OPLOG_LAT, [OPLOG_CLAT] = PLAN_OPLOG_LAT,
	[OPLOG_SLAT] = PLAN_OPLOG_LAT, [OPLOG_BW] = PLAN_OPLOG_BW,
	[OPLOG_IOPS] = PLAN_OPLOG_IOPS, [OPLOG_HIST] = PLAN_OPLOG_HIST,
};

const char *oplog_file_name(enum oplog_file f)
{
	return file_names[f];
}

enum plan_oplog_kind oplog_file_kind(enum oplog_file f)
{
	return file_kinds[f];
}

size_t oplog_path(char *buf, size_t size, const char *prefix, enum oplog_file f,
		  uint64_t num, bool shared)
{
	int n = shared ? snprintf(buf, size, "%s_%s.log", prefix, file_names[f]) :
		snprintf(buf, size, "%s_%s.%" PRIu64 ".log", prefix, file_names[f], num);

	return n < 0 ? size : (size_t)n;
}

/* ---- the lines --------------------------------------------------------- */

/* Two decimal digits per entry, "00" to "99". */
static const char oplog_digits[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/*
 * `v` in decimal at `p`; the end.  Its length from compares, then two
 * digits per division by 100 from the end: a line per op costs a few
 * dozen instructions per number, not one division per digit.
 */
static char *oplog_put_u64(char *p, uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
		10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
		100000000000ull, 1000000000000ull, 10000000000000ull,
		100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
	};
	/* digits: log10 from the bit length (1233 / 4096 ~ log10(2)), then one compare */
	int bits = 64 - __builtin_clzll(v | 1);
	int n = (bits * 1233) >> 12;
	char *q;

	n += n < 20 && v >= pow10[n];
	q = p + (n ? n : 1);
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		q -= 2;
		q[0] = oplog_digits[2 * r];
		q[1] = oplog_digits[2 * r + 1];
	}
	if (v >= 10) {
		q[-2] = oplog_digits[2 * v];
		q[-1] = oplog_digits[2 * v + 1];
	} else {
		q[-1] = (char)('0' + v);
	}
	return p + (n ? n : 1);
}

/* ", " and `v`. */
static char *oplog_put_col(char *p, uint64_t v)
{
	*p++ = ',';
	*p++ = ' ';
	return oplog_put_u64(p, v);
}

/* A line's columns after its value: ", DIR, BS[, OFFSET], 0\n". */
static size_t oplog_format_tail(char *out, unsigned dir, uint64_t bs, bool offset,
				uint64_t off)
{
	char *p = oplog_put_col(out, dir);

	p = oplog_put_col(p, bs);
	if (offset)
		p = oplog_put_col(p, off);
	p = oplog_put_col(p, 0);
	*p++ = '\n';
	return (size_t)(p - out);
}

size_t oplog_format_line(char *out, uint64_t ms, uint64_t value, unsigned dir,
			 uint64_t bs, bool offset, uint64_t off)
{
	char *p = oplog_put_u64(out, ms);

	p = oplog_put_col(p, value);
	return (size_t)(p - out) + oplog_format_tail(p, dir, bs, offset, off);
}

size_t oplog_format_hist(char *out, uint64_t ms, unsigned dir, uint64_t bs,
			 const uint64_t *bins, int coarseness)
{
	unsigned stride = 1u << coarseness;
	char *p = oplog_put_u64(out, ms);

	p = oplog_put_col(p, dir);
	p = oplog_put_col(p, bs);
	for (unsigned j = 0; j < OPLOG_HIST_BINS; j += stride) {
		uint64_t sum = 0;

		for (unsigned k = 0; k < stride; k++)
			sum += bins[j + k];
		p = oplog_put_col(p, sum);
	}
	*p++ = '\n';
	return (size_t)(p - out);
}

size_t oplog_hist_line_max(int coarseness)
{
	/* each column at most ", " and 20 digits; the line's end */
	return ((size_t)(OPLOG_HIST_BINS >> coarseness) + 3) * 22 + 1;
}

uint64_t oplog_op_bw(uint64_t bytes, uint64_t clat_ns)
{
	return clat_ns ? (uint64_t)((unsigned __int128)bytes * 1000000 / clat_ns) : 0;
}

uint64_t oplog_window_bw(uint64_t bytes, uint64_t span_ns)
{
	return span_ns ? (uint64_t)((unsigned __int128)bytes * 1000000000 / span_ns / 1024) : 0;
}

uint64_t oplog_window_iops(uint64_t n, uint64_t span_ns)
{
	return span_ns ? (uint64_t)((unsigned __int128)n * 1000000000 / span_ns) : 0;
}

/* ---- buffers ----------------------------------------------------------- */

/* Write file f's pending lines.  0, or -1 with w->err set. */
static int oplog_flush(struct oplog_writer *w, enum oplog_file f)
{
	struct oplog_buf *b = &w->buf[f];
	size_t done = 0;

	while (done < b->len) {
		ssize_t n = write(w->fd[f], b->data + done, b->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			w->err = n < 0 ? errno : ENOSPC;
			w->err_file = f;
			return -1;
		}
		done += (size_t)n;
	}
	b->len = 0;
	return 0;
}

/* Room for `need` more bytes in file f's buffer; NULL after a failed write. */
static char *oplog_room(struct oplog_writer *w, enum oplog_file f, size_t need)
{
	struct oplog_buf *b = &w->buf[f];

	if (b->len + need > b->cap && oplog_flush(w, f) < 0)
		return NULL;
	return b->data + b->len;
}

/* A line of file f (if it is written): "MS, VALUE, DIR, BS[, OFFSET], 0". */
static int oplog_line(struct oplog_writer *w, enum oplog_file f, uint64_t ms,
		      uint64_t value, unsigned dir, uint64_t bs, uint64_t off)
{
	char *p;

	if (w->fd[f] < 0)
		return 0;
	p = oplog_room(w, f, OPLOG_LINE_MAX);
	if (!p)
		return -1;
	w->buf[f].len += oplog_format_line(p, ms, value, dir, bs, w->conf->offset, off);
	return 0;
}

/* ---- windows ----------------------------------------------------------- */

/*
 * The averaged lines of the window that ends `end_ns` after the start
 * and lasted `span_ns` (less for the last): per direction with ops, the
 * latencies' means, KiB/s and ops/s; block size and offset 0, as fio's.
 */
static int oplog_close_avg(struct oplog_writer *w, uint64_t end_ns, uint64_t span_ns)
{
	uint64_t ms = end_ns / 1000000;
	int rc = 0;

	for (unsigned d = 0; d < 2; d++) {
		struct oplog_acc *a = &w->acc[d];

		if (!a->n)
			continue;
		rc |= oplog_line(w, OPLOG_LAT, ms, oplog_mean(a->lat, a->n), d, 0, 0);
		rc |= oplog_line(w, OPLOG_CLAT, ms, oplog_mean(a->clat, a->n), d, 0, 0);
		if (a->nslat)
			rc |= oplog_line(w, OPLOG_SLAT, ms, oplog_mean(a->slat, a->nslat),
					 d, 0, 0);
		rc |= oplog_line(w, OPLOG_BW, ms, oplog_window_bw(a->bytes, span_ns), d, 0, 0);
		rc |= oplog_line(w, OPLOG_IOPS, ms, oplog_window_iops(a->n, span_ns), d, 0, 0);
		memset(a, 0, sizeof(*a));
	}
	return rc ? -1 : 0;
}

/* The histogram lines of the window ending `end_ns`: a line per direction with ops. */
static int oplog_close_hist(struct oplog_writer *w, uint64_t end_ns)
{
	int c = w->conf->hist_coarseness;

	for (unsigned d = 0; d < 2; d++) {
		uint64_t *bins = w->bins + (size_t)d * OPLOG_HIST_BINS;
		char *p;

		if (!w->hist_n[d])
			continue;
		p = oplog_room(w, OPLOG_HIST, oplog_hist_line_max(c));
		if (!p)
			return -1;
		w->buf[OPLOG_HIST].len += oplog_format_hist(p, end_ns / 1000000, d,
							    w->hist_bs[d], bins, c);
		memset(bins, 0, OPLOG_HIST_BINS * sizeof(*bins));
		w->hist_n[d] = 0;
	}
	return 0;
}

/* ---- the writer -------------------------------------------------------- */

/* File f's buffer size in set `c` (0: the file is not written). */
static size_t oplog_cap(const struct plan_oplog *c, enum oplog_file f)
{
	size_t hist;

	if (!c->prefix[file_kinds[f]])
		return 0;
	if (f != OPLOG_HIST)
		return OPLOG_BUF_BYTES;
	hist = 2 * oplog_hist_line_max(c->hist_coarseness);
	return hist > OPLOG_BUF_BYTES ? hist : OPLOG_BUF_BYTES;
}

uint64_t oplog_writer_mem(const struct plan_oplog *c)
{
	uint64_t m = sizeof(struct oplog_writer);

	if (!plan_oplog_any(c))
		return 0;
	for (int f = 0; f < OPLOG_NFILES; f++)
		m += oplog_cap(c, (enum oplog_file)f);
	if (c->prefix[PLAN_OPLOG_HIST])
		m += 2 * OPLOG_HIST_BINS * sizeof(uint64_t);
	return m;
}

int oplog_writer_init(struct oplog_writer *w, const struct oplog_target *tg)
{
	const struct plan_oplog *c = tg->conf;

	memset(w, 0, sizeof(*w));
	w->conf = c;
	for (int f = 0; f < OPLOG_NFILES; f++) {
		size_t cap = oplog_cap(c, (enum oplog_file)f);

		w->fd[f] = cap ? tg->fd[f] : -1;
		w->path[f] = tg->path[f];
		if (w->fd[f] < 0)
			continue;
		w->buf[f].data = malloc(cap);
		w->buf[f].cap = cap;
		if (!w->buf[f].data)
			goto fail;
	}
	w->avg_ns = c->avg_msec * 1000000;
	w->avg_end = w->avg_ns;
	if (c->prefix[PLAN_OPLOG_HIST] && c->hist_msec && w->fd[OPLOG_HIST] >= 0) {
		w->hist_ns = c->hist_msec * 1000000;
		w->hist_end = w->hist_ns;
		w->bins = calloc(2 * OPLOG_HIST_BINS, sizeof(*w->bins));
		if (!w->bins)
			goto fail;
	}
	return 0;
fail:
	oplog_writer_free(w);
	return -1;
}

void oplog_writer_free(struct oplog_writer *w)
{
	for (int f = 0; f < OPLOG_NFILES; f++) {
		free(w->buf[f].data);
		w->buf[f].data = NULL;
	}
	free(w->bins);
	w->bins = NULL;
}

/*
 * The op's lines, one per file: fio's per-I/O samples.  Every line of an
 * op shares its time and its columns after the value, formatted once,
 * and a line whose value is the previous one's (a synchronous op's lat
 * and clat) is that line again.
 */
static int oplog_op_lines(struct oplog_writer *w, const struct oplog_op *op)
{
	static const enum oplog_file files[] = {
		OPLOG_LAT, OPLOG_CLAT, OPLOG_SLAT, OPLOG_BW, OPLOG_IOPS,
	};
	char head[24], tail[OPLOG_LINE_MAX];
	size_t nh = (size_t)(oplog_put_u64(head, op->end_ns / 1000000) - head);
	size_t nt = oplog_format_tail(tail, op->dir, op->bytes, w->conf->offset, op->offset);
	const char *last = NULL;
	size_t nlast = 0;
	uint64_t vlast = 0;

	head[nh++] = ',';
	head[nh++] = ' ';
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		enum oplog_file f = files[i];
		uint64_t v;
		char *p, *line;

		if (w->fd[f] < 0 || (f == OPLOG_SLAT && !op->split))
			continue;
		v = f == OPLOG_LAT ? op->lat_ns : f == OPLOG_CLAT ? op->clat_ns :
		    f == OPLOG_SLAT ? op->slat_ns : f == OPLOG_IOPS ? 1 :
		    oplog_op_bw(op->bytes, op->clat_ns);
		line = p = oplog_room(w, f, OPLOG_LINE_MAX);
		if (!p)
			return -1;
		if (last && v == vlast) {
			memcpy(p, last, nlast);
			p += nlast;
		} else {
			memcpy(p, head, nh);
			p = oplog_put_u64(p + nh, v);
			memcpy(p, tail, nt);
			p += nt;
		}
		w->buf[f].len += (size_t)(p - line);
		last = line;
		nlast = (size_t)(p - line);
		vlast = v;
	}
	return 0;
}

/* The op's share of its averaging window, closing the one before. */
static int oplog_op_avg(struct oplog_writer *w, const struct oplog_op *op)
{
	struct oplog_acc *a = &w->acc[op->dir];

	if (op->end_ns >= w->avg_end) {
		if (oplog_close_avg(w, w->avg_end, w->avg_ns) < 0)
			return -1;
		w->avg_end = (op->end_ns / w->avg_ns + 1) * w->avg_ns;
	}
	a->n++;
	a->bytes += op->bytes;
	a->lat += op->lat_ns;
	a->clat += op->clat_ns;
	if (op->split) {
		a->slat += op->slat_ns;
		a->nslat++;
	}
	return 0;
}

/* The op's completion latency in its histogram window. */
static int oplog_op_hist(struct oplog_writer *w, const struct oplog_op *op)
{
	if (op->end_ns >= w->hist_end) {
		if (oplog_close_hist(w, w->hist_end) < 0)
			return -1;
		w->hist_end = (op->end_ns / w->hist_ns + 1) * w->hist_ns;
	}
	w->bins[(size_t)op->dir * OPLOG_HIST_BINS + oplog_hist_index(op->clat_ns)]++;
	w->hist_n[op->dir]++;
	w->hist_bs[op->dir] = op->bytes;
	return 0;
}

int oplog_writer_op(struct oplog_writer *w, const struct oplog_op *op)
{
	if (w->err)
		return -1;
	if (op->end_ns > w->last_ns)
		w->last_ns = op->end_ns;
	if (w->avg_ns ? oplog_op_avg(w, op) < 0 : oplog_op_lines(w, op) < 0)
		return -1;
	if (w->hist_ns && oplog_op_hist(w, op) < 0)
		return -1;
	return 0;
}

int oplog_writer_finish(struct oplog_writer *w, uint64_t end_ns)
{
	if (w->err)
		return -1;
	if (end_ns < w->last_ns)
		end_ns = w->last_ns;
	if (w->avg_ns && oplog_close_avg(w, end_ns, end_ns - (w->avg_end - w->avg_ns)) < 0)
		return -1;
	if (w->hist_ns && oplog_close_hist(w, end_ns) < 0)
		return -1;
	for (int f = 0; f < OPLOG_NFILES; f++)
		if (w->fd[f] >= 0 && w->buf[f].len && oplog_flush(w, (enum oplog_file)f) < 0)
			return -1;
	return 0;
}

/* ---- what a plan's logs come to ---------------------------------------- */

uint64_t oplog_slots(const struct plan *p)
{
	uint64_t n = 0;

	for (int t = 0; t < p->nthreads; t++)
		n = plan_sat_add(n, plan_sat_mul(p->threads[t].instances,
						   p->procs[p->threads[t].proc].instances));
	return n;
}

/* Files one set writes per thread instance (or in all, when shared). */
static uint64_t oplog_set_files(const struct plan_oplog *c)
{
	uint64_t n = 0;

	for (int f = 0; f < OPLOG_NFILES; f++)
		n += c->prefix[file_kinds[f]] != NULL;
	return n;
}

/* Thread instances of process `i`. */
static uint64_t oplog_proc_slots(const struct plan *p, int i)
{
	const struct plan_proc *pp = &p->procs[i];
	uint64_t n = 0;

	for (int t = pp->first_thread; t < pp->first_thread + pp->nthreads; t++)
		n = plan_sat_add(n, p->threads[t].instances);
	return plan_sat_mul(n, pp->instances);
}

uint64_t oplog_file_count(const struct plan *p)
{
	uint64_t n = 0;

	if (plan_oplog_any(&p->oplog))
		n = p->oplog.shared ? oplog_set_files(&p->oplog) :
		    plan_sat_mul(oplog_set_files(&p->oplog), oplog_slots(p));
	for (int i = 0; i < p->nprocs; i++) {
		const struct plan_oplog *c = &p->procs[i].log;

		if (plan_oplog_any(c))
			n = plan_sat_add(n, c->shared ? oplog_set_files(c) :
					 plan_sat_mul(oplog_set_files(c),
						      oplog_proc_slots(p, i)));
	}
	return n;
}

/* Lines a file of windows of `ms` holds at most in a run of `run_s` (0: unknown). */
static uint64_t oplog_window_lines(uint64_t ms, double run_s)
{
	double n = run_s * 1000 / (double)ms;

	return run_s > 0 && n < 1e15 ? 2 * ((uint64_t)n + 1) : 0;
}

/*
 * "lat, clat, slat, bw": set c's files, its lines and its memory, which
 * is fixed: the run's length changes only the files' sizes.
 */
static void oplog_describe_set(FILE *out, const struct plan_oplog *c, uint64_t slots,
			       const char *whose, double run_s)
{
	uint64_t mem = oplog_writer_mem(c), lines;
	const char *sep = "";
	char path[96];

	fprintf(out, "  %s: ", whose);
	for (int f = 0; f < OPLOG_NFILES; f++) {
		if (!c->prefix[file_kinds[f]])
			continue;
		oplog_path(path, sizeof(path), c->prefix[file_kinds[f]], (enum oplog_file)f,
			   1, c->shared);
		fprintf(out, "%s%s", sep, path);
		sep = ", ";
	}
	fprintf(out, "%s for %" PRIu64 " thread instance%s",
		c->shared ? " (one of each for all)" : " ...", slots, slots == 1 ? "" : "s");
	if (c->prefix[PLAN_OPLOG_LAT] || c->prefix[PLAN_OPLOG_BW] ||
	    c->prefix[PLAN_OPLOG_IOPS]) {
		lines = c->avg_msec ? oplog_window_lines(c->avg_msec, run_s) : 0;
		if (!c->avg_msec)
			fprintf(out, "; a line per op (about 30 to 60 bytes)");
		else if (lines)
			fprintf(out, "; a line per direction per %" PRIu64 " ms (at most %" PRIu64
				" lines per file in %g s)", c->avg_msec, lines, run_s);
		else
			fprintf(out, "; a line per direction per %" PRIu64 " ms", c->avg_msec);
	}
	if (c->prefix[PLAN_OPLOG_HIST]) {
		lines = oplog_window_lines(c->hist_msec, run_s);
		fprintf(out, "; histogram every %" PRIu64 " ms (%d bins", c->hist_msec,
			OPLOG_HIST_BINS >> c->hist_coarseness);
		if (lines)
			fprintf(out, ", at most %" PRIu64 " lines in %g s", lines, run_s);
		fprintf(out, ")");
	}
	fprintf(out, "; %" PRIu64 " KiB of memory per thread instance, whatever the "
		"run's length\n", (mem + 1023) / 1024);
}

void oplog_describe(FILE *out, const struct plan *p)
{
	bool any = plan_oplog_any(&p->oplog);

	for (int i = 0; i < p->nprocs; i++)
		any |= plan_oplog_any(&p->procs[i].log);
	if (!any)
		return;
	fprintf(out, "%s: per-op logs (%" PRIu64 " file%s):\n", p->filename,
		oplog_file_count(p), oplog_file_count(p) == 1 ? "" : "s");
	if (plan_oplog_any(&p->oplog))
		oplog_describe_set(out, &p->oplog, oplog_slots(p), "command line",
				   p->runtime_s);
	for (int i = 0; i < p->nprocs; i++) {
		char whose[96];

		if (!plan_oplog_any(&p->procs[i].log))
			continue;
		snprintf(whose, sizeof(whose), "process %s", p->procs[i].name);
		oplog_describe_set(out, &p->procs[i].log, oplog_proc_slots(p, i), whose,
				   p->procs[i].runtime_s > 0 ? p->procs[i].runtime_s :
				   p->runtime_s);
	}
}
