/* SPDX-License-Identifier: MIT */
/*
 * context.c - the representation's facts in the JSON context.
 *
 * Compiled once per layout (bench_layout.h); in the current body's object
 * (one per representation) it records "y2038_repr_<repr>": the facts its
 * header states on this ABI, for the report scripts (y2038lab.core.reprs),
 * next to "y2038_layouts":
 *
 *	min=<sec>.<nsec> max=<sec>.<nsec> one_word=0|1 wraps=0|1 origin=<text>
 *
 * min and max are INODE_REPR_MIN and _MAX (the seconds with their sign, the
 * nanoseconds counted up from them), one_word INODE_REPR_ONE_WORD, wraps
 * INODE_REPR_OUT_OF_RANGE_WRAPS, origin INODE_REPR_ORIGIN.  Registers no
 * benchmark.
 */
#include <inttypes.h>

#include "bench_layout.h"

void BENCH_LAYOUT_SYMBOL(context_register)(void)
{
#if INODE_BODY_CURRENT
	const struct timespec64 min = INODE_REPR_MIN, max = INODE_REPR_MAX;
	char text[200];

	snprintf(text, sizeof(text), "min=%" PRId64 ".%09ld max=%" PRId64 ".%09ld one_word=%d wraps=%d origin=%s",
		 (int64_t)min.tv_sec, min.tv_nsec, (int64_t)max.tv_sec, max.tv_nsec, INODE_REPR_ONE_WORD,
		 INODE_REPR_OUT_OF_RANGE_WRAPS, INODE_REPR_ORIGIN);
	bench_add_context("y2038_repr_" INODE_REPR_NAME, text);
#endif
}
