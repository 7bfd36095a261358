/*
 * bufdata.c - what a job's writes write, as fio decides it, written as
 * the write flowops' data attributes (flowops/data.h, docs/wml.md
 * "Written data"): fio's buffer options as its option callbacks left
 * them (parse.c), resolved as fio's start-up fixups do, then the fill
 * each write gets in fio: verify's (random, compress honoured, per
 * write), refill_buffers' (the buffer filled anew per write, in chunks
 * of the smaller of the smallest write and buffer_compress_chunk when
 * compressing or deduplicating), or the fill of each buffer once, with
 * scramble_buffers' offset stamps per write (fio's default: random
 * bytes, scrambled).  On a compressing or deduplicating file system this
 * decides what the device stores.
 */
#include "lang/fio/emit.h"

#include <string.h>

/* The bytes of a fill without refill or compress: data=... (pattern, zero, random). */
static const char *data_kind(struct emit *e, const struct fio_opts *o, bool zero)
{
	if (o->buf_pattern)
		return arena_printf(&e->a, ",data=pattern,pattern=\"%s\"", o->buf_pattern);
	return zero ? ",data=zero" : ",data=random";
}

/*
 * A fill with compress: `pct` % of each chunk the pattern (or zeros),
 * the rest random; chunk 0 is the whole write.
 */
static const char *data_mixed(struct emit *e, const struct fio_opts *o,
			      long long pct, uint64_t chunk)
{
	char b[32];

	return arena_printf(&e->a, "%s,compress=%lld,compresschunk=%s",
			    o->buf_pattern ? arena_printf(&e->a, ",data=pattern,"
							  "pattern=\"%s\"", o->buf_pattern) :
			    ",data=zero", pct, fio_wml_size(b, sizeof(b), chunk));
}

/*
 * jp->data (the attributes of the job's write flowops) and jp->data_note
 * (its comment), or an error (verify_pattern on a job that writes and
 * verifies: fio writes that pattern with a header per write, which
 * flowbench cannot).  Jobs that do not write get neither.
 */
int fio_plan_data(struct emit *e, struct job_plan *jp)
{
	const struct fio_opts *o = &jp->s->opts;
	bool write = fio_is_write(o->rw) || fio_is_mixed(o->rw);
	bool refill = o->refill_buffers, zero = o->zero_buffers, scramble;
	long long pct = o->buf_compress;
	uint64_t minbs = fio_bs_extreme(o, false), chunk;

	if (!write)
		return 0;
	/* fio's fixups: 100 % compressible is zeros; compressing refills
	 * unless refill_buffers was given */
	if (pct == 100) {
		zero = true;
		pct = 0;
	} else if (pct && !fio_given(o, FIO_OPT_REFILL_BUFFERS)) {
		refill = true;
	}
	scramble = o->scramble_buffers &&
		   (fio_given(o, FIO_OPT_SCRAMBLE_BUFFERS) ||
		    !(o->zero_buffers && fio_given(o, FIO_OPT_ZERO_BUFFERS)));
	chunk = o->buf_chunk && o->buf_chunk < minbs ? o->buf_chunk : minbs;
	if (o->verify && o->verify_pattern) {
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_VERIFY_PATTERN), "job '%s': "
			   "verify_pattern on a job that writes and verifies: fio writes "
			   "that pattern with a verify header in each write, which "
			   "flowbench's writes cannot", jp->s->name);
		return -1;
	}
	if (o->verify) {
		/* verify fills every write: random, compress over the whole write */
		jp->data = arena_printf(&e->a, "%s,refill", pct ? data_mixed(e, o, pct, 0) :
					",data=random");
		jp->data_note = arena_printf(&e->a, "written data: verify=%s fills each "
			"write anew with random bytes%s (%s); fio also writes a verify "
			"header at the start of each write, flowbench does not",
			fio_commented(e, o->verify), pct ? arena_printf(&e->a, ", %lld %% of "
			"it %s (buffer_compress_percentage)", pct, o->buf_pattern ?
			"the pattern" : "zeros") : "", jp->data + 1);
		return 0;
	}
	if (refill && (pct || o->dedupe)) {
		jp->data = arena_printf(&e->a, "%s,refill%s", pct ?
					data_mixed(e, o, pct, chunk) : ",data=random",
					o->dedupe ? arena_printf(&e->a, ",dedupe=%lld",
								 o->dedupe) : "");
		jp->data_note = arena_printf(&e->a, "written data: each write filled "
			"anew%s%s, as fio (%s)", pct ? arena_printf(&e->a, ", each "
			"%llu-byte chunk %lld %% random and %lld %% %s (buffer_compress_"
			"percentage, the smaller of the smallest write and buffer_compress_"
			"chunk)", (unsigned long long)chunk, 100 - pct, pct, o->buf_pattern ?
			"the pattern" : "zeros") : " with random bytes", o->dedupe ?
			arena_printf(&e->a, "; %lld %% of the writes repeat the one before "
				     "(dedupe_percentage)", o->dedupe) : "", jp->data + 1);
		return 0;
	}
	if (refill) {
		jp->data = arena_printf(&e->a, "%s,refill", data_kind(e, o, zero));
		jp->data_note = arena_printf(&e->a, "written data: each write filled "
			"anew (refill_buffers%s), as fio (%s)", o->buf_pattern &&
			!fio_given(o, FIO_OPT_REFILL_BUFFERS) ? ", which "
			"buffer_pattern sets on a job that reads" : "", jp->data + 1);
		return 0;
	}
	if (o->dedupe) {
		diag_error(e->d, fio_opt_loc(jp->s, FIO_OPT_REFILL_BUFFERS), "job '%s': "
			   "dedupe_percentage with refill_buffers=0: fio then decides "
			   "only whether its buffers repeat each other when first filled, "
			   "which flowbench does not do", jp->s->name);
		return -1;
	}
	/* each buffer filled once; fio scrambles unless told not to, or
	 * compressing (or deduplicating) */
	scramble = scramble && !o->compress_flag;
	jp->data = arena_printf(&e->a, "%s%s", pct ? data_mixed(e, o, pct, chunk) :
				data_kind(e, o, zero), scramble ? ",scramble" : "");
	jp->data_note = arena_printf(&e->a, "written data: %s, filled once per "
		"buffer%s, as fio (%s)", o->buf_pattern ? "the pattern" : zero ?
		"zeros" : pct ? "chunks of random bytes and zeros" :
		"random bytes (fio's default)", scramble ? "; each write's 512-byte "
		"blocks stamped with their offset (scramble_buffers, fio's default)" :
		"", jp->data + 1);
	return 0;
}
