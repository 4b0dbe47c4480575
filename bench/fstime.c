/* SPDX-License-Identifier: MIT */
/*
 * fstime.c - the cost of clamping and truncating a timestamp, per
 * granularity: the RFC's fs_time_trunc(), mainline's timestamp_truncate()
 * and fstime's division-free timestamp_truncate_reciprocal().
 *
 * Registers, for every op, gran and input kind (ns/call, items_per_second =
 * calls per second):
 *
 *   fstime/<op>/gran:<g>/inputs:<in_range|clamped>/<throughput|latency>
 *       op = fs_time_trunc, timestamp_truncate, timestamp_truncate_reciprocal;
 *       g = 1 (ns, ext4 with large inodes), 100 (CIFS/NTFS), 1000 (NFSv2,
 *       us), 1000000 (ms), 1000000000 (s: FAT mtime, ext4 with small inodes)
 *       or mixed (each call's super block drawn at random from those five).
 *       in_range: tv_sec strictly inside the super block's range
 *       [-2^31, 2^31 - 1], tv_nsec in [0, NSEC_PER_SEC); clamped: tv_sec
 *       outside it, above or below at random.
 *   fstime/<path>/gran:<g>/clock:<fixed|coarse>/throughput
 *       the whole "ctime = now" path on a v6/scalar inode: path =
 *       inode_set_ctime_current (mainline: now through timestamp_truncate(),
 *       stored), inode_set_ctime_current_reciprocal (the same through the
 *       division-free variant), current_fs_time (the RFC: now through
 *       fs_time_trunc(), stored with VFS_INODE_SET_XTIME()).  clock:fixed is
 *       the fixtures' fixed clock (an indirect call returning a constant, the
 *       stand-in for the kernel's ktime_get_coarse_real_ts64(), which reads
 *       the tick-updated time); clock:coarse is this host's
 *       clock_gettime(CLOCK_REALTIME_COARSE), a vDSO call.
 *
 * Inputs: FSTIME_INPUTS (32 Ki) timestamps and super-block choices drawn at
 * run time from bench_seed() (printed at start, in the JSON context) and the
 * case's parameters, so every op sees the same inputs; with fewer, the
 * branch predictor learns a mixed stream and it looks faster than it is.
 * Throughput: independent calls; each result is folded into a sum that goes
 * through bench_do_not_optimize() at the end.  Latency: each call's input
 * is the previous call's result plus a step computed at set-up (the next
 * input minus what the op under test returns for this one), so the calls
 * see exactly the inputs of the throughput run, in the same order, but each
 * waits for the one before, seconds on seconds and nanoseconds on
 * nanoseconds: the figure is the op's result latency plus one add.
 *
 * The calls are real calls: the functions are out of line in fstime (built
 * with the kernel's flags), as timestamp_truncate() is in the kernel
 * (fs/inode.c, exported).  Every loop below is one skeleton, so the loops of
 * two ops differ only in the function they call.
 *
 * Each loop is a block function (paired.h) over @n inputs from @start; the
 * unpaired benchmark runs blocks of all FSTIME_INPUTS, the paired ones
 * (B / A, registered here too) alternate short blocks of two ops:
 *
 *   paired/fstime/timestamp_truncate~<op>/gran:<g>/inputs:<kind>/<mode>
 *       op = timestamp_truncate_reciprocal, fs_time_trunc, and
 *       timestamp_truncate_twin: fs_time.c compiled a second time into
 *       another object (bench/CMakeLists.txt), the negative control;
 *   paired/fstime/inode_set_ctime_current~<path>/gran:<g>/clock:<c>/throughput
 *       path = inode_set_ctime_current_reciprocal, current_fs_time, and
 *       inode_set_ctime_current_twin: the same path through the twin, the
 *       paths' negative control;
 *   paired/fstime/timestamp_truncate/gran:100/inputs:in_range/<mode>/units:16~17
 *       the positive control: B runs 17 inputs where A runs 16;
 *   paired/fstime/timestamp_truncate~result_chain/gran:<g>/inputs:in_range/latency
 *       x86_64, g = 100, 1000, 1000000: B is the division-free result chain
 *       alone (fstime_result_chain()), what code with that chain can gain.
 * A, named timestamp_truncate or inode_set_ctime_current, is a copy of
 * mainline's function of its own for each kind of pair (fstime_a()).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_fixtures.h"
#include "bench_seed.h"
#include "paired.h"
#include "fs_time.h"
#include "inode.h"
#include "rng.h"

void fstime_register(void); /* main.c calls it */

#define FSTIME_INPUTS 32768 /* distinct inputs per case, and calls per batch */
/* The inputs again from the start, so that a paired block may start at any input. */
#define FSTIME_PAD 4352
#define FSTIME_GRANS 5

/* The super blocks' range: a 32-bit on-disk time (ext4 small inodes, the RFC's defaults' width). */
#define FSTIME_TIME_MIN (-(INT64_C(1) << 31))
#define FSTIME_TIME_MAX ((INT64_C(1) << 31) - 1)
/* Clamped inputs: up to 2^33 s beyond either end. */
#define FSTIME_BEYOND (INT64_C(1) << 33)
/* The fixed clock: 2023-11-14T22:13:20.123456789Z, inside the range. */
#define FSTIME_CLOCK_SEC 1700000000LL
#define FSTIME_CLOCK_NSEC 123456789L

static const uint32_t fstime_grans[FSTIME_GRANS] = { 1, 100, NSEC_PER_USEC, NSEC_PER_MSEC,
						     NSEC_PER_SEC };

enum fstime_inputs { FSTIME_IN_RANGE, FSTIME_CLAMPED, FSTIME_CLOCK_FIXED, FSTIME_CLOCK_COARSE };

static const char *const fstime_inputs_names[] = {
	[FSTIME_IN_RANGE] = "inputs:in_range",
	[FSTIME_CLAMPED] = "inputs:clamped",
	[FSTIME_CLOCK_FIXED] = "clock:fixed",
	[FSTIME_CLOCK_COARSE] = "clock:coarse",
};

/* One benchmark's parameters: gran_index FSTIME_GRANS = mixed. */
struct fstime_case {
	unsigned int gran_index;
	enum fstime_inputs inputs;
};

#define FSTIME_CASE_ROW(g)                                                                        \
	{ g, FSTIME_IN_RANGE }, { g, FSTIME_CLAMPED }, { g, FSTIME_CLOCK_FIXED },                 \
	{                                                                                         \
		g, FSTIME_CLOCK_COARSE                                                            \
	}
static const struct fstime_case fstime_cases[] = {
	FSTIME_CASE_ROW(0), FSTIME_CASE_ROW(1), FSTIME_CASE_ROW(2),
	FSTIME_CASE_ROW(3), FSTIME_CASE_ROW(4), FSTIME_CASE_ROW(FSTIME_GRANS),
};

typedef struct timespec64 (*fstime_trunc_fn)(struct timespec64 t, const struct super_block *sb);

/*
 * fs_time.c compiled again into objects of their own, each with this symbol
 * alone global (bench/CMakeLists.txt): the same instructions as
 * timestamp_truncate() at other addresses.  The twin is B of the negative
 * controls; the others are A of one kind of pair each (fstime_a()).
 */
struct timespec64 timestamp_truncate_twin(struct timespec64 t, const struct super_block *sb);
struct timespec64 timestamp_truncate_rfc(struct timespec64 t, const struct super_block *sb);
struct timespec64 timestamp_truncate_control(struct timespec64 t, const struct super_block *sb);
struct timespec64 timestamp_truncate_chain(struct timespec64 t, const struct super_block *sb);

struct fstime_fixture {
	struct timespec64 inputs[FSTIME_INPUTS + FSTIME_PAD];
	struct timespec64 steps[FSTIME_INPUTS + FSTIME_PAD]; /* latency: input[i + 1] - op(input[i]) */
	const struct super_block *sb[FSTIME_INPUTS + FSTIME_PAD];
	struct inode *inode[FSTIME_INPUTS + FSTIME_PAD]; /* the path's inode: one per super block */
	struct super_block sbs[FSTIME_GRANS];
	struct inode inodes[FSTIME_GRANS]; /* inodes[k].i_sb = &sbs[k] */
	struct timespec64 clock_now;
	struct fs_time_clock clock;
	const struct fs_time_clock *active; /* the case's clock: &clock, or NULL (the coarse clock) */
};

static time64_t fstime_random_sec(struct rng *rng, enum fstime_inputs inputs)
{
	uint64_t span = (uint64_t)(FSTIME_TIME_MAX - FSTIME_TIME_MIN - 1);

	if (inputs != FSTIME_CLAMPED) /* strictly inside: the ends zero tv_nsec in mainline */
		return FSTIME_TIME_MIN + 1 + (time64_t)rng_below(rng, span);
	if (rng_next(rng) & 1)
		return FSTIME_TIME_MAX + 1 + (time64_t)rng_below(rng, FSTIME_BEYOND);
	return FSTIME_TIME_MIN - 1 - (time64_t)rng_below(rng, FSTIME_BEYOND);
}

struct fstime_op {
	const char *name;
	paired_block_fn throughput, latency; /* latency NULL: a path (clock:* cases only) */
	fstime_trunc_fn trunc;               /* the function of a clamp/truncate op */
	bool paired_only;                    /* a twin or A copy: a control or a side, not a figure */
};

/* What a benchmark (or one side of a paired one) runs: an op of fstime_ops in a mode. */
struct fstime_run {
	const struct fstime_case *c;
	const struct fstime_op *op;
	bool latency;
};

static void fstime_chain_steps(struct fstime_fixture *fx, fstime_trunc_fn op);

/*
 * fstime_new - the fixture of @arg (a struct fstime_run), or NULL
 *
 * The inputs depend only on the seed and the case, never on the op; the
 * latency steps on the op.  Installs the clock of a clock:* case;
 * bench_free_clocked() restores the default.
 */
static void *fstime_new(const void *arg)
{
	const struct fstime_run *run = arg;
	const struct fstime_case *c = run->c;
	size_t bytes = sizeof(struct fstime_fixture);
	struct fstime_fixture *fx = bench_alloc_huge(bytes); /* the same cache sets for every fixture */
	struct rng rng = { .state = bench_seed() ^
					 (UINT64_C(0x9e3779b97f4a7c15) * (c->gran_index * 4 + c->inputs + 1)) };

	if (!fx)
		return NULL;
	memset(fx, 0, bytes);
	for (int k = 0; k < FSTIME_GRANS; k++) {
		sb_init_rfc_defaults(&fx->sbs[k]);
		fx->sbs[k].s_time_min = FSTIME_TIME_MIN;
		fx->sbs[k].s_time_max = FSTIME_TIME_MAX;
		sb_set_time_gran(&fx->sbs[k], fstime_grans[k]);
		inode_init_always(&fx->sbs[k], &fx->inodes[k]);
	}
	for (size_t i = 0; i < FSTIME_INPUTS; i++) {
		fx->inputs[i].tv_sec = fstime_random_sec(&rng, c->inputs);
		fx->inputs[i].tv_nsec = (long)rng_below(&rng, NSEC_PER_SEC);
		size_t k = c->gran_index < FSTIME_GRANS ? c->gran_index
							 : (size_t)rng_below(&rng, FSTIME_GRANS);

		fx->sb[i] = &fx->sbs[k];
		fx->inode[i] = &fx->inodes[k];
	}
	if (run->latency)
		fstime_chain_steps(fx, run->op->trunc);
	for (size_t i = FSTIME_INPUTS; i < FSTIME_INPUTS + FSTIME_PAD; i++) {
		fx->inputs[i] = fx->inputs[i - FSTIME_INPUTS];
		fx->steps[i] = fx->steps[i - FSTIME_INPUTS];
		fx->sb[i] = fx->sb[i - FSTIME_INPUTS];
		fx->inode[i] = fx->inode[i - FSTIME_INPUTS];
	}
	fx->clock_now = (struct timespec64){ .tv_sec = FSTIME_CLOCK_SEC, .tv_nsec = FSTIME_CLOCK_NSEC };
	fx->clock = (struct fs_time_clock){ .now = fs_time_fixed_clock, .ctx = &fx->clock_now };
	fx->active = c->inputs == FSTIME_CLOCK_COARSE ? NULL : &fx->clock;
	fs_time_set_clock(fx->active);
	bench_escape(fx);
	return fx;
}


/*
 * The latency chain's steps for @op: from op(input[i]) to input[i + 1], the
 * last back to input[0], so the chain runs on across batches.  Seconds stay
 * within +-2^35 and nanoseconds within +-2^31: no overflow.
 */
static void fstime_chain_steps(struct fstime_fixture *fx, fstime_trunc_fn op)
{
	for (size_t i = 0; i < FSTIME_INPUTS; i++) {
		struct timespec64 r = op(fx->inputs[i], fx->sb[i]);
		const struct timespec64 *next = &fx->inputs[(i + 1) % FSTIME_INPUTS];

		fx->steps[i].tv_sec = next->tv_sec - r.tv_sec;
		fx->steps[i].tv_nsec = next->tv_nsec - r.tv_nsec;
	}
}

/* Folds a timestamp into the running sum; unsigned, so it wraps without UB. */
static inline uint64_t fstime_fold(struct timespec64 ts)
{
	return (uint64_t)ts.tv_sec + (uint64_t)ts.tv_nsec;
}

#define FSTIME_FN(op, mode) fstime_##op##_##mode

/*
 * The three skeletons, as block functions over inputs [start, start + n).
 * @call(ts, sb) returns a struct timespec64.  Latency: each call's input is
 * the previous result plus the step (the chain starts at inputs[start]).
 */
#define FSTIME_THROUGHPUT(op, call)                                                              \
	static uint64_t FSTIME_FN(op, throughput)(void *fixture, size_t start, size_t n)         \
	{                                                                                        \
		struct fstime_fixture *fx = fixture;                                             \
		uint64_t acc = 0;                                                                \
                                                                                                 \
		for (size_t i = start; i < start + n; i++)                                       \
			acc += fstime_fold(call(fx->inputs[i], fx->sb[i]));                      \
		return acc;                                                                      \
	}

#define FSTIME_LATENCY(op, call)                                                                 \
	static uint64_t FSTIME_FN(op, latency)(void *fixture, size_t start, size_t n)            \
	{                                                                                        \
		struct fstime_fixture *fx = fixture;                                             \
		struct timespec64 ts = fx->inputs[start];                                        \
		uint64_t acc = 0;                                                                \
                                                                                                 \
		for (size_t i = start; i < start + n; i++) {                                     \
			struct timespec64 r = call(ts, fx->sb[i]);                               \
                                                                                                 \
			ts.tv_sec = r.tv_sec + fx->steps[i].tv_sec;                              \
			ts.tv_nsec = r.tv_nsec + fx->steps[i].tv_nsec;                           \
			acc += fstime_fold(r);                                                   \
		}                                                                                \
		return acc;                                                                      \
	}

/* The path skeleton: @call(inode) for the inode of each input's super block. */
#define FSTIME_PATH(op, call)                                                                    \
	static uint64_t FSTIME_FN(op, throughput)(void *fixture, size_t start, size_t n)         \
	{                                                                                        \
		struct fstime_fixture *fx = fixture;                                             \
		uint64_t acc = 0;                                                                \
                                                                                                 \
		fs_time_set_clock(fx->active); /* its own, not the last fixture's */             \
		for (size_t i = start; i < start + n; i++)                                       \
			acc += fstime_fold(call(fx->inode[i]));                                  \
		return acc;                                                                      \
	}

FSTIME_THROUGHPUT(fs_time_trunc, fs_time_trunc)
FSTIME_THROUGHPUT(timestamp_truncate, timestamp_truncate)
FSTIME_THROUGHPUT(timestamp_truncate_reciprocal, timestamp_truncate_reciprocal)
FSTIME_THROUGHPUT(timestamp_truncate_twin, timestamp_truncate_twin)
FSTIME_THROUGHPUT(timestamp_truncate_rfc, timestamp_truncate_rfc)
FSTIME_THROUGHPUT(timestamp_truncate_control, timestamp_truncate_control)
FSTIME_THROUGHPUT(timestamp_truncate_chain, timestamp_truncate_chain)
FSTIME_LATENCY(fs_time_trunc, fs_time_trunc)
FSTIME_LATENCY(timestamp_truncate, timestamp_truncate)
FSTIME_LATENCY(timestamp_truncate_reciprocal, timestamp_truncate_reciprocal)
FSTIME_LATENCY(timestamp_truncate_twin, timestamp_truncate_twin)
FSTIME_LATENCY(timestamp_truncate_rfc, timestamp_truncate_rfc)
FSTIME_LATENCY(timestamp_truncate_control, timestamp_truncate_control)
FSTIME_LATENCY(timestamp_truncate_chain, timestamp_truncate_chain)

/* The RFC: inode->i_ctime = current_fs_time(inode->i_sb), through its setter macro. */
static inline struct timespec64 fstime_rfc_ctime_now(struct inode *inode)
{
	struct timespec64 now = current_fs_time(inode->i_sb);

	VFS_INODE_SET_XTIME(i_ctime, inode, now);
	return now;
}

/* Mainline's inode_set_ctime_current() with the division-free truncation. */
static inline struct timespec64 fstime_ctime_now_reciprocal(struct inode *inode)
{
	return inode_set_ctime_to_ts(inode, timestamp_truncate_reciprocal(fs_time_now(), inode->i_sb));
}

/* Mainline's inode_set_ctime_current() through another copy of timestamp_truncate(). */
#define FSTIME_CTIME_NOW_VIA(copy)                                                               \
	static inline struct timespec64 fstime_ctime_now_##copy(struct inode *inode)             \
	{                                                                                        \
		return inode_set_ctime_to_ts(inode, timestamp_truncate_##copy(fs_time_now(),     \
									      inode->i_sb));     \
	}
FSTIME_CTIME_NOW_VIA(twin)
FSTIME_CTIME_NOW_VIA(rfc)
FSTIME_CTIME_NOW_VIA(control)

FSTIME_PATH(inode_set_ctime_current, inode_set_ctime_current)
FSTIME_PATH(inode_set_ctime_current_twin, fstime_ctime_now_twin)
FSTIME_PATH(inode_set_ctime_current_rfc, fstime_ctime_now_rfc)
FSTIME_PATH(inode_set_ctime_current_control, fstime_ctime_now_control)
FSTIME_PATH(inode_set_ctime_current_reciprocal, fstime_ctime_now_reciprocal)
FSTIME_PATH(current_fs_time, fstime_rfc_ctime_now)

#define FSTIME_TRUNC_OP(op, kind) { #op, FSTIME_FN(op, throughput), FSTIME_FN(op, latency), op, kind }
#define FSTIME_PATH_OP(op, kind) { #op, FSTIME_FN(op, throughput), NULL, NULL, kind }

enum {
	FSTIME_OP_TRUNCATE = 0,
	FSTIME_OP_RECIPROCAL,
	FSTIME_OP_RFC,
	FSTIME_OP_CTIME_CURRENT,
	FSTIME_OP_CTIME_RECIPROCAL,
	FSTIME_OP_CURRENT_FS_TIME,
	FSTIME_OP_TWIN,
	FSTIME_OP_CTIME_CURRENT_TWIN,
	FSTIME_OP_COPIES, /* from here: A of one kind of pair (fstime_a()), never named */
	FSTIME_OP_TRUNCATE_RFC = FSTIME_OP_COPIES,
	FSTIME_OP_TRUNCATE_CONTROL,
	FSTIME_OP_CTIME_CURRENT_RFC,
	FSTIME_OP_CTIME_CURRENT_CONTROL,
	FSTIME_OP_TRUNCATE_CHAIN,
};

/* The first of each kind is A of every pair: mainline's function, or its path. */
static const struct fstime_op fstime_ops[] = {
	[FSTIME_OP_TRUNCATE] = FSTIME_TRUNC_OP(timestamp_truncate, false),
	[FSTIME_OP_RECIPROCAL] = FSTIME_TRUNC_OP(timestamp_truncate_reciprocal, false),
	[FSTIME_OP_RFC] = FSTIME_TRUNC_OP(fs_time_trunc, false),
	[FSTIME_OP_CTIME_CURRENT] = FSTIME_PATH_OP(inode_set_ctime_current, false),
	[FSTIME_OP_CTIME_RECIPROCAL] = FSTIME_PATH_OP(inode_set_ctime_current_reciprocal, false),
	[FSTIME_OP_CURRENT_FS_TIME] = FSTIME_PATH_OP(current_fs_time, false),
	[FSTIME_OP_TWIN] = FSTIME_TRUNC_OP(timestamp_truncate_twin, true),
	[FSTIME_OP_CTIME_CURRENT_TWIN] = FSTIME_PATH_OP(inode_set_ctime_current_twin, true),
	[FSTIME_OP_TRUNCATE_RFC] = FSTIME_TRUNC_OP(timestamp_truncate_rfc, true),
	[FSTIME_OP_TRUNCATE_CONTROL] = FSTIME_TRUNC_OP(timestamp_truncate_control, true),
	[FSTIME_OP_CTIME_CURRENT_RFC] = FSTIME_PATH_OP(inode_set_ctime_current_rfc, true),
	[FSTIME_OP_CTIME_CURRENT_CONTROL] = FSTIME_PATH_OP(inode_set_ctime_current_control, true),
	[FSTIME_OP_TRUNCATE_CHAIN] = FSTIME_TRUNC_OP(timestamp_truncate_chain, true),
};

/* The unpaired benchmark: blocks of every input. */
static void fstime_bench(struct bench_state *st, const void *arg)
{
	const struct fstime_run *run = arg;
	paired_block_fn block = run->latency ? run->op->latency : run->op->throughput;
	struct fstime_fixture *fx = fstime_new(run);
	uint64_t acc = 0, result;

	if (!fx) {
		bench_skip_with_error(st, "fstime: cannot allocate the fixture");
		return;
	}
	while (bench_keep_running_batch(st, FSTIME_INPUTS))
		acc += block(fx, 0, FSTIME_INPUTS);
	result = acc; /* a fresh local: acc itself never needs a memory home */
	bench_do_not_optimize(result);
	bench_free_clocked(fx);
	bench_set_items_processed(st, bench_iterations_done(st));
}

/* "gran:<g>/<inputs>/<mode>" of a case. */
static void fstime_params(char *out, size_t size, const struct fstime_case *c, bool latency)
{
	if (c->gran_index < FSTIME_GRANS)
		snprintf(out, size, "gran:%u/%s/%s", (unsigned int)fstime_grans[c->gran_index],
			 fstime_inputs_names[c->inputs], latency ? "latency" : "throughput");
	else
		snprintf(out, size, "gran:mixed/%s/%s", fstime_inputs_names[c->inputs],
			 latency ? "latency" : "throughput");
}

static const struct fstime_run *fstime_run_of(const struct fstime_case *c, size_t op, bool latency)
{
	struct fstime_run *run = malloc(sizeof(*run));

	if (!run) {
		fprintf(stderr, "bench: out of memory registering fstime/*\n");
		exit(2);
	}
	*run = (struct fstime_run){ .c = c, .op = &fstime_ops[op], .latency = latency };
	return run;
}

static struct paired_side fstime_side(const struct fstime_run *run)
{
	return (struct paired_side){ .setup = fstime_new, .teardown = bench_free_clocked, .arg = run,
				     .block = run->latency ? run->op->latency : run->op->throughput };
}

/*
 * The copy of mainline's function (or path) that is A of a pair.  Each kind
 * of pair has its own: the division-free variant's pairs and the positive
 * control timestamp_truncate() itself, the RFC's pairs
 * timestamp_truncate_rfc(), the negative control
 * timestamp_truncate_control() against timestamp_truncate_twin() (paths the
 * same through inode_set_ctime_current()), the result chain's
 * timestamp_truncate_chain().  So every copy runs in as many
 * pairs as the function it is timed against: with one copy A of every pair
 * (three times as busy as any B), the same code ran up to 7 % slower there
 * than as the idle twin (gran 1 s, in range: x0.93 in most processes), a
 * bias of use every comparison then carried.
 */
static size_t fstime_a(size_t a, size_t b, enum paired_kind kind)
{
	bool path = a == FSTIME_OP_CTIME_CURRENT;

	if (kind == PAIRED_NEGATIVE)
		return path ? FSTIME_OP_CTIME_CURRENT_CONTROL : FSTIME_OP_TRUNCATE_CONTROL;
	if (b == FSTIME_OP_RFC || b == FSTIME_OP_CURRENT_FS_TIME)
		return path ? FSTIME_OP_CTIME_CURRENT_RFC : FSTIME_OP_TRUNCATE_RFC;
	return a;
}

/* paired/fstime/<A>~<B>/<params>, or the positive control of A with A. */
static void fstime_register_pair(const struct fstime_case *c, size_t a, size_t b, bool latency,
				 enum paired_kind kind)
{
	char name[192], params[64];
	size_t run_a = fstime_a(a, b, kind);
	struct paired_side sa = fstime_side(fstime_run_of(c, run_a, latency));
	struct paired_side sb = fstime_side(fstime_run_of(c, kind == PAIRED_POSITIVE ? run_a : b, latency));

	fstime_params(params, sizeof(params), c, latency);
	if (kind == PAIRED_POSITIVE)
		snprintf(name, sizeof(name), "paired/fstime/%s/%s/units:16~17", fstime_ops[a].name, params);
	else
		snprintf(name, sizeof(name), "paired/fstime/%s~%s/%s", fstime_ops[a].name,
			 fstime_ops[b].name, params);
	paired_register_pair(name, &sa, &sb, kind, 1, FSTIME_PAD, FSTIME_INPUTS);
}

#if defined(__x86_64__)
/*
 * The division-free truncation's result chain alone, as fs_time.c's LP64
 * code runs it (the quotient as the high half of tv_nsec times the
 * reciprocal, `mov; mul`, then `imul` by s_time_gran) plus the latency
 * loop's add of a step: one step per input, without the call, the loads and
 * the branches around it.  B of paired/fstime/timestamp_truncate~result_chain
 * (its own copy of mainline's function A): mainline's time over it bounds
 * what code whose result waits on these two multiplies can gain in this
 * loop on this core.  The step adds back tv_nsec % gran, so tv_nsec stays
 * the same through a block, the first input's; x86 integer multiplies take
 * the same time whatever their operands.
 */
static uint64_t fstime_result_chain(void *fixture, size_t start, size_t n)
{
	const struct fstime_fixture *fx = fixture;
	const struct super_block *sb = fx->sb[start];
	uint64_t m = sb->s_time_gran_reciprocal.multiplier, g = sb->s_time_gran;
	uint64_t step = (uint64_t)fx->inputs[start].tv_nsec % g, scratch;
	/* In %rdx for the whole loop: a copy in and out of another register each step would join the chain. */
	register uint64_t nsec __asm__("rdx") = (uint64_t)fx->inputs[start].tv_nsec;

	for (size_t i = 0; i < n; i++)
		__asm__ volatile("mov %%rdx, %%rax\n\tmul %[m]\n\timul %[g], %%rdx\n\tadd %[s], %%rdx"
				 : "+d"(nsec), "=&a"(scratch)
				 : [m] "r"(m), [g] "r"(g), [s] "r"(step)
				 : "cc");
	return nsec;
}

/* paired/fstime/timestamp_truncate~result_chain/gran:<g>/inputs:in_range/latency */
static void fstime_register_chain(const struct fstime_case *c)
{
	char name[192], params[64];
	struct paired_side a = fstime_side(fstime_run_of(c, FSTIME_OP_TRUNCATE_CHAIN, true)), b = a;

	b.block = fstime_result_chain;
	fstime_params(params, sizeof(params), c, true);
	snprintf(name, sizeof(name), "paired/fstime/%s~result_chain/%s", fstime_ops[FSTIME_OP_TRUNCATE].name,
		 params);
	paired_register_pair(name, &a, &b, PAIRED_COMPARE, 1, FSTIME_PAD, FSTIME_INPUTS);
}
#endif

void fstime_register(void)
{
	for (size_t k = 0; k < sizeof(fstime_cases) / sizeof(fstime_cases[0]); k++) {
		const struct fstime_case *c = &fstime_cases[k];
		bool path_case = c->inputs == FSTIME_CLOCK_FIXED || c->inputs == FSTIME_CLOCK_COARSE;
		size_t first = path_case ? FSTIME_OP_CTIME_CURRENT : FSTIME_OP_TRUNCATE;

		for (int latency = 0; latency <= !path_case; latency++) {
			for (size_t o = 0; o < FSTIME_OP_COPIES; o++) {
				const struct fstime_op *op = &fstime_ops[o];
				char name[160], params[64];

				if (path_case != (op->latency == NULL))
					continue;
				if (o != first)
					fstime_register_pair(c, first, o, latency,
							     op->paired_only ? PAIRED_NEGATIVE
									     : PAIRED_COMPARE);
				if (op->paired_only)
					continue;
				fstime_params(params, sizeof(params), c, latency);
				snprintf(name, sizeof(name), "fstime/%s/%s", op->name, params);
				bench_register(name, fstime_bench, fstime_run_of(c, o, latency));
			}
			if (!path_case && c->gran_index == 1 && c->inputs == FSTIME_IN_RANGE)
				fstime_register_pair(c, first, first, latency, PAIRED_POSITIVE);
		}
#if defined(__x86_64__)
		/* Where mainline divides: 100 ns, 1 us, 1 ms. */
		if (c->inputs == FSTIME_IN_RANGE && c->gran_index >= 1 && c->gran_index <= 3)
			fstime_register_chain(c);
#endif
	}
}
