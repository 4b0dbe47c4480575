/* SPDX-License-Identifier: MIT */
/* cost_fstime.h - the fstime rows of the counting harness (cost_fstime.c). */
#ifndef COST_COST_FSTIME_H
#define COST_COST_FSTIME_H

#include "cost.h"

/* What the driver checks after an fstime row ran. */
enum cost_fstime_expect {
	COST_EXPECT_NOTHING,   /* an encode: its decode row checks it */
	COST_EXPECT_TRUNCATED, /* io->out == io->in with tv_nsec rounded down to gran */
	COST_EXPECT_UNCHANGED, /* io->out == io->in */
	COST_EXPECT_FAT,       /* 2 s + 10 ms units: io->in.tv_nsec down to 10 ms */
	COST_EXPECT_CIFS,      /* 100 ns units: io->in.tv_nsec down to 100 ns */
};

struct cost_fstime_op {
	const char *name;
	void (*fn)(struct cost_io *io);
	enum cost_fstime_expect expect;
};

extern const struct cost_fstime_op cost_truncations[];
extern const size_t cost_truncation_count;
extern const uint32_t cost_granularities[];
extern const size_t cost_granularity_count;
extern const struct cost_fstime_op cost_codecs[];
extern const size_t cost_codec_count;

#endif /* COST_COST_FSTIME_H */
