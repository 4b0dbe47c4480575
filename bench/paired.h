/* SPDX-License-Identifier: MIT */
/*
 * paired.h - paired, alternating measurement of two timed loops, A and B.
 *
 * A host that changes speed in the middle of a run (the reference VM did, by
 * x0.6 to x1.7 within minutes) turns the repetitions of two separately timed
 * benchmarks bimodal, and their ratio undecidable.  A paired benchmark times
 * A and B in alternating blocks of about PAIRED_BLOCK_NS (8 us: short enough
 * that a change of host speed hits both blocks of a pair), each block a call
 * of a block function that runs the same loop as the unpaired benchmark;
 * order AB in even pairs and BA in odd ones, so that a drift within a pair
 * cancels.  One Google Benchmark iteration is one pair of blocks, timed by
 * clock_gettime(CLOCK_MONOTONIC) around each block (manual time: the
 * iteration time is A + B).  Each repetition reports counters:
 *
 *   ratio       sqrt(ratio_ab * ratio_ba): the block that runs first in a
 *               pair pays for what ran before it, so each order has its
 *               own bias and the geometric mean of the two cancels it;
 *   ratio_ab, ratio_ba  the median of t(B) / t(A) over the AB pairs, over
 *               the BA pairs (block times: for a comparison both blocks run
 *               the same number of operations, so it is the ratio of time
 *               per op);
 *   a_ns, b_ns  the median block time per operation of A and of B;
 *   pairs       pairs of blocks timed; ops_a, ops_b: operations per block;
 *   true_ratio  only on controls: 1 for a negative control (the same code
 *               on both sides, compiled twice), 17/16 for the positive one
 *               (B runs the same loop as A over 17 units where A runs 16).
 *
 * Repetitions (interleaved with every other benchmark; medians per process
 * where a run has several) are the sample the statistics use:
 * y2038lab.core.paired, a signed-rank test on their
 * log-ratios and the Hodges-Lehmann interval.
 *
 * Names: paired/<family>/<op>/<where...> where exactly one part is "a~b" (A
 * and B differ there: two representations, two operations, two variants);
 * the positive control is ".../units:16~17".
 */
#ifndef BENCH_PAIRED_H
#define BENCH_PAIRED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench.h"

/*
 * A block: @units units of work from input position @start (families with
 * a stream of inputs; others ignore it); returns a fold of the results.
 */
typedef uint64_t (*paired_block_fn)(void *fixture, size_t start, size_t units);

struct paired_side {
	void *(*setup)(const void *arg); /* the fixture, NULL when it cannot be made */
	void (*teardown)(void *fixture);
	paired_block_fn block;
	const void *arg;
	/*
	 * The fixture may serve the same pair's next run as it was left
	 * (paired.c keeps the last pair's two): Google Benchmark calls a
	 * benchmark several times per repetition while it finds the
	 * iteration count, and a walk's slab took longer to fill than the run.
	 */
	bool reuse;
};

enum paired_kind { PAIRED_COMPARE, PAIRED_NEGATIVE, PAIRED_POSITIVE };

/*
 * paired_register_pair - register @name (copied) timing @a against @b.
 * @ops_per_unit: operations in one unit of a block (for a_ns/b_ns);
 * @max_units: the most units a block may run from any start (the positive
 * control's B runs 17/16 of A's); @cycle: the input positions, @start goes
 * round [0, cycle) in steps of A's units (0: no input stream).
 */
void paired_register_pair(const char *name, const struct paired_side *a,
			  const struct paired_side *b, enum paired_kind kind,
			  unsigned int ops_per_unit, size_t max_units, size_t cycle);

/*
 * paired_alloc_huge - @bytes at a huge-page boundary drawn per call (0 to 8
 * huge pages into a longer block: paired.c), advised MADV_HUGEPAGE, not
 * zeroed (a block kept from an earlier fixture where one fits); NULL when out
 * of memory or when every slot holds a block in use.  Release with
 * paired_free_huge(), never free().
 */
void *paired_alloc_huge(size_t bytes);
void paired_free_huge(void *p);

/*
 * What a per-layout object hands over (accessor.c, walk.c): one family's
 * block functions over one fixture shape.  An op's @arg is its setup()'s
 * argument (walk.c: the walk case and the slab size; accessor.c: none), so
 * one layout may carry ops whose fixtures differ.
 */
struct paired_op {
	const char *name;
	paired_block_fn block;
	const void *arg;
};

struct paired_layout {
	const char *family;   /* the name's second part: "accessor", "walk" */
	const char *body, *repr;
	const char *where;    /* the name's parts after a~b ("4096"), NULL: none */
	void *(*setup)(const void *arg);
	void (*teardown)(void *fixture);
	const struct paired_op *ops;
	size_t n_ops;
	unsigned int ops_per_unit;
	size_t max_units;
	size_t cycle;         /* input positions a block starts at (paired_register_pair) */
	bool reuse;           /* paired_side.reuse */
	const char *positive; /* the op of the positive control (on the reference), NULL: none */
};

/*
 * Called by each layout's <family>_register_<id>() (accessor: not its
 * placement variants), once per family and where.
 */
void paired_add_layout(const struct paired_layout *layout);

/*
 * Copies of a layout's code (bench/CMakeLists.txt): the same source compiled
 * again, whose registration the generated registry wraps in
 * paired_copy_begin(@role) ... paired_copy_end(), so that every timed
 * function runs in one kind of pair only.  Code that is A of every
 * comparison runs several times as often as any B and ran slower than the
 * same code idle (fstime: up to 7 %).  @role is one of
 *   "<repr>"             the reference layout's copy that is A of the
 *                        comparisons with <repr> (each A as busy as its B);
 *   PAIRED_COPY_OPS      a layout's copy that runs its op pairs (paired.c),
 *                        so that the layout itself is B of its comparison
 *                        only;
 *   PAIRED_COPY_CONTROL  the reference's copy that is B of a negative
 *                        control against the reference (ABIs without a twin);
 *   PAIRED_COPY_POSITIVE the reference's copy that runs the positive
 *                        control (17 units against 16 of one function), so
 *                        that the reference itself is A of that negative
 *                        control only.
 * While a copy registers, paired_copy_for() returns @role (NULL otherwise):
 * the copy then registers its paired layouts only.
 */
#define PAIRED_COPY_OPS "@ops"
#define PAIRED_COPY_CONTROL "@control"
#define PAIRED_COPY_POSITIVE "@positive"
/* The B name of that control: paired/<family>/<op>/<body>/<reference>~copy[/<where>]. */
#define PAIRED_CONTROL_NAME "copy"
void paired_copy_begin(const char *role);
void paired_copy_end(void);
const char *paired_copy_for(void);

/*
 * After every layout handed its ops over (main.c): the pairs of every family
 * (paired.c's head lists them).  Its name is older than the walk pairs.
 */
void paired_register_accessor(void);


#endif /* BENCH_PAIRED_H */
