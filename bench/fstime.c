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
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "fs_time.h"
#include "inode.h"
#include "rng.h"

uint64_t bench_seed(void); /* main.c */
void fstime_register(void);

#define FSTIME_INPUTS 32768 /* distinct inputs per case, and calls per batch */
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

struct fstime_fixture {
	struct timespec64 inputs[FSTIME_INPUTS];
	struct timespec64 steps[FSTIME_INPUTS]; /* latency: input[i + 1] - op(input[i]) */
	const struct super_block *sb[FSTIME_INPUTS];
	struct inode *inode[FSTIME_INPUTS];     /* the path's inode: one per super block */
	struct super_block sbs[FSTIME_GRANS];
	struct inode inodes[FSTIME_GRANS]; /* inodes[k].i_sb = &sbs[k] */
	struct timespec64 clock_now;
	struct fs_time_clock clock;
};

static struct timespec64 fstime_fixed_clock(void *ctx)
{
	return *(const struct timespec64 *)ctx;
}

static time64_t fstime_random_sec(struct rng *rng, enum fstime_inputs inputs)
{
	uint64_t span = (uint64_t)(FSTIME_TIME_MAX - FSTIME_TIME_MIN - 1);

	if (inputs != FSTIME_CLAMPED) /* strictly inside: the ends zero tv_nsec in mainline */
		return FSTIME_TIME_MIN + 1 + (time64_t)rng_below(rng, span);
	if (rng_next(rng) & 1)
		return FSTIME_TIME_MAX + 1 + (time64_t)rng_below(rng, FSTIME_BEYOND);
	return FSTIME_TIME_MIN - 1 - (time64_t)rng_below(rng, FSTIME_BEYOND);
}

/*
 * fstime_setup - the fixture of @c, or NULL after bench_skip_with_error()
 *
 * The inputs depend only on the seed and @c, never on the op.  Installs the
 * clock of a clock:* case; fstime_teardown() restores the default.
 */
static struct fstime_fixture *fstime_setup(struct bench_state *st, const struct fstime_case *c)
{
	size_t bytes = (sizeof(struct fstime_fixture) + 63) / 64 * 64;
	struct fstime_fixture *fx = aligned_alloc(64, bytes);
	struct rng rng = { .state = bench_seed() ^
					 (UINT64_C(0x9e3779b97f4a7c15) * (c->gran_index * 4 + c->inputs + 1)) };

	if (!fx) {
		bench_skip_with_error(st, "fstime: aligned_alloc of the fixture failed");
		return NULL;
	}
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
	fx->clock_now = (struct timespec64){ .tv_sec = FSTIME_CLOCK_SEC, .tv_nsec = FSTIME_CLOCK_NSEC };
	fx->clock = (struct fs_time_clock){ .now = fstime_fixed_clock, .ctx = &fx->clock_now };
	fs_time_set_clock(c->inputs == FSTIME_CLOCK_COARSE ? NULL : &fx->clock);
	bench_escape(fx);
	return fx;
}

static void fstime_teardown(struct bench_state *st, struct fstime_fixture *fx, uint64_t acc)
{
	uint64_t result = acc; /* a fresh local: acc itself never needs a memory home */

	bench_do_not_optimize(result);
	bench_escape(fx);
	fs_time_set_clock(NULL);
	free(fx);
	bench_set_items_processed(st, bench_iterations_done(st));
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
 * The two skeletons.  @call(ts, sb) returns a struct timespec64; one
 * batch is one pass over the inputs, in order.
 */
#define FSTIME_THROUGHPUT(op, call)                                                              \
	static void FSTIME_FN(op, throughput)(struct bench_state * st, const void *arg)          \
	{                                                                                        \
		struct fstime_fixture *fx = fstime_setup(st, arg);                               \
		uint64_t acc = 0;                                                                \
                                                                                                 \
		if (!fx)                                                                         \
			return;                                                                  \
		while (bench_keep_running_batch(st, FSTIME_INPUTS)) {                            \
			for (size_t i = 0; i < FSTIME_INPUTS; i++)                               \
				acc += fstime_fold(call(fx->inputs[i], fx->sb[i]));              \
		}                                                                                \
		fstime_teardown(st, fx, acc);                                                    \
	}

#define FSTIME_LATENCY(op, call)                                                                 \
	static void FSTIME_FN(op, latency)(struct bench_state * st, const void *arg)             \
	{                                                                                        \
		struct fstime_fixture *fx = fstime_setup(st, arg);                               \
		struct timespec64 ts;                                                            \
		uint64_t acc = 0;                                                                \
                                                                                                 \
		if (!fx)                                                                         \
			return;                                                                  \
		fstime_chain_steps(fx, call);                                                    \
		ts = fx->inputs[0];                                                              \
		while (bench_keep_running_batch(st, FSTIME_INPUTS)) {                            \
			for (size_t i = 0; i < FSTIME_INPUTS; i++) {                             \
				struct timespec64 r = call(ts, fx->sb[i]);                       \
                                                                                                 \
				ts.tv_sec = r.tv_sec + fx->steps[i].tv_sec;                      \
				ts.tv_nsec = r.tv_nsec + fx->steps[i].tv_nsec;                   \
				acc += fstime_fold(r);                                           \
			}                                                                        \
		}                                                                                \
		fstime_teardown(st, fx, acc);                                                    \
	}

/* The path skeleton: @call(inode) for the inode of each input's super block. */
#define FSTIME_PATH(op, call)                                                                    \
	static void FSTIME_FN(op, throughput)(struct bench_state * st, const void *arg)          \
	{                                                                                        \
		struct fstime_fixture *fx = fstime_setup(st, arg);                               \
		uint64_t acc = 0;                                                                \
                                                                                                 \
		if (!fx)                                                                         \
			return;                                                                  \
		while (bench_keep_running_batch(st, FSTIME_INPUTS)) {                            \
			for (size_t i = 0; i < FSTIME_INPUTS; i++)                               \
				acc += fstime_fold(call(fx->inode[i]));                          \
		}                                                                                \
		fstime_teardown(st, fx, acc);                                                    \
	}

FSTIME_THROUGHPUT(fs_time_trunc, fs_time_trunc)
FSTIME_THROUGHPUT(timestamp_truncate, timestamp_truncate)
FSTIME_THROUGHPUT(timestamp_truncate_reciprocal, timestamp_truncate_reciprocal)
FSTIME_LATENCY(fs_time_trunc, fs_time_trunc)
FSTIME_LATENCY(timestamp_truncate, timestamp_truncate)
FSTIME_LATENCY(timestamp_truncate_reciprocal, timestamp_truncate_reciprocal)

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

FSTIME_PATH(inode_set_ctime_current, inode_set_ctime_current)
FSTIME_PATH(inode_set_ctime_current_reciprocal, fstime_ctime_now_reciprocal)
FSTIME_PATH(current_fs_time, fstime_rfc_ctime_now)

struct fstime_op {
	const char *name;
	bench_fn throughput, latency; /* latency NULL: a path (clock:* cases only) */
};

static const struct fstime_op fstime_ops[] = {
	{ "fs_time_trunc", FSTIME_FN(fs_time_trunc, throughput), FSTIME_FN(fs_time_trunc, latency) },
	{ "timestamp_truncate", FSTIME_FN(timestamp_truncate, throughput),
	  FSTIME_FN(timestamp_truncate, latency) },
	{ "timestamp_truncate_reciprocal", FSTIME_FN(timestamp_truncate_reciprocal, throughput),
	  FSTIME_FN(timestamp_truncate_reciprocal, latency) },
	{ "inode_set_ctime_current", FSTIME_FN(inode_set_ctime_current, throughput), NULL },
	{ "inode_set_ctime_current_reciprocal",
	  FSTIME_FN(inode_set_ctime_current_reciprocal, throughput), NULL },
	{ "current_fs_time", FSTIME_FN(current_fs_time, throughput), NULL },
};

static void fstime_register_one(const struct fstime_op *op, const struct fstime_case *c,
				const char *mode, bench_fn fn)
{
	char name[160], gran[32];

	if (c->gran_index < FSTIME_GRANS)
		snprintf(gran, sizeof(gran), "gran:%u", (unsigned int)fstime_grans[c->gran_index]);
	else
		snprintf(gran, sizeof(gran), "gran:mixed");
	snprintf(name, sizeof(name), "fstime/%s/%s/%s/%s", op->name, gran,
		 fstime_inputs_names[c->inputs], mode);
	bench_register(name, fn, c);
}

void fstime_register(void)
{
	for (size_t o = 0; o < sizeof(fstime_ops) / sizeof(fstime_ops[0]); o++) {
		const struct fstime_op *op = &fstime_ops[o];

		for (size_t k = 0; k < sizeof(fstime_cases) / sizeof(fstime_cases[0]); k++) {
			const struct fstime_case *c = &fstime_cases[k];
			bool path_case = c->inputs == FSTIME_CLOCK_FIXED ||
					 c->inputs == FSTIME_CLOCK_COARSE;

			if (path_case != (op->latency == NULL))
				continue;
			fstime_register_one(op, c, "throughput", op->throughput);
			if (op->latency)
				fstime_register_one(op, c, "latency", op->latency);
		}
	}
}
