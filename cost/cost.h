/* SPDX-License-Identifier: MIT */
/*
 * cost.h - the counting harness: every operation as one out-of-line function,
 * called between two marker calls, so that an instruction trace (qemu-user,
 * scripts/y2038lab/cost.py) can count what each one executes.
 *
 * Naming contract with cost.py (it attributes trace lines by symbol):
 *  - cost_op_<operation>_<body>_<repr>: an accessor, counted whole (entry to
 *    return) with everything it calls;
 *  - cost_call_<function>: a trampoline that loads the arguments of an
 *    fstime function from struct cost_io, calls it and stores its result;
 *    not counted, only the fstime function it calls (and what that calls);
 *  - main, cost_mark_begin, cost_mark_end, cost_run_*: the driver, not
 *    counted;
 *  - cost_loop_<loop>_<body>_<repr>: the inner loops given to llvm-mca.
 */
#ifndef COST_COST_H
#define COST_COST_H

#include <stddef.h>
#include <stdint.h>

#include "time64.h"

/*
 * The arguments and results of one operation, in memory: every operation
 * reads its inputs from here and writes its result here, so that no ABI's
 * struct-passing convention (a timespec64 in two registers on LP64, on the
 * stack on i386) is part of the figure.
 */
struct cost_io {
	struct timespec64 in;  /* a value to store or truncate */
	struct timespec64 out; /* a value read or computed */
	int64_t fs_sec;        /* a file system's private timespec (boundary rows) */
	long fs_nsec;
	int cmp;               /* timespec64_compare() results */
	uint32_t raw[4];       /* on-disk words (codec rows) */
	uint64_t raw64;
	void *sb;              /* the super block of truncation rows */
	void *sbi;             /* FAT's msdos_sb_info */
};

typedef void cost_op_fn(void *fixture, struct cost_io *io);

/* What the driver checks after an accessor ran (the harness checks itself). */
enum cost_expect {
	COST_EXPECT_GET,      /* io->out == inode 0's time */
	COST_EXPECT_GET_SEC,  /* io->out.tv_sec == inode 0's seconds */
	COST_EXPECT_SET,      /* inode 0's time == io->in */
	COST_EXPECT_COMPARE,  /* io->cmp < 0: inode 0 is older than inode 1 */
	COST_EXPECT_SWAP,     /* inode 0 and inode 1 traded times */
	COST_EXPECT_TO_FS,    /* io->fs_* == inode 0's mtime */
	COST_EXPECT_FROM_FS,  /* inode 0's mtime == io->fs_* */
};

struct cost_layout_op {
	const char *name;
	cost_op_fn *fn;
	char xtime; /* 'a', 'm' or 'c': the timestamp it touches */
	enum cost_expect expect;
};

/* What one layout object exports (cost_layout.c, named per layout). */
struct cost_layout {
	const char *body, *repr;
	const struct cost_layout_op *ops;
	size_t op_count;
	/* A fixture: two inodes with known times, the loops' inodes and inputs. */
	size_t fixture_size;
	void (*fixture_init)(void *fixture); /* on fixture_size zeroed bytes */
	void (*fixture_reset)(void *fixture); /* inodes 0 and 1 back to their times */
	struct timespec64 (*read_time)(void *fixture, int inode, char xtime);
	/* The llvm-mca loops, run once each by the driver so that they are tested. */
	uint64_t (*loop_get_mtime)(void *fixture);
	void (*loop_set_mtime)(void *fixture);
	uint64_t (*loop_stat)(void *fixture);
};

/*
 * The harness's fixed inputs (also what the self-check expects):
 * 2033-05-18T03:33:20.123456789Z, a time every representation holds on every
 * ABI, so that every stored value can be checked exactly.  Only compare
 * and multigrain's ctime normalisation branch on the value; the truncation
 * rows take their common path (inside the super block's range, not at
 * either end).
 */
#define COST_IN_SEC ((time64_t)2000000000LL)
#define COST_IN_NSEC 123456789L
/* What inode 0 and inode 1 hold before each operation (a/m/c alike). */
#define COST_INODE0_SEC ((time64_t)1700000000LL)
#define COST_INODE0_NSEC 111111111L
#define COST_INODE1_SEC ((time64_t)1700000100LL)
#define COST_INODE1_NSEC 222222222L

/* The llvm-mca loops: the shape of bench/accessor.c's ACCESSOR_OP (16 rounds of an unrolled pass). */
#define COST_LOOP_BATCH 256
#define COST_LOOP_INODES 16

#endif /* COST_COST_H */
