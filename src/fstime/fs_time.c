// SPDX-License-Identifier: MIT
/*
 * fs_time.c - clamp and truncate file timestamps per super block: the 2016
 * RFC, mainline's timestamp_truncate(), and a division-free variant.
 */
#define _POSIX_C_SOURCE 200809L
#include "fs_time.h"

#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static atomic_ulong gran_warnings;
static atomic_bool warn_verbose;

static void warn_illegal_gran(unsigned int gran)
{
	atomic_fetch_add_explicit(&gran_warnings, 1, memory_order_relaxed);
	if (atomic_load_explicit(&warn_verbose, memory_order_relaxed))
		fprintf(stderr, "fstime: WARNING: illegal file time granularity: %u\n", gran);
}

unsigned long fs_time_gran_warnings(void)
{
	return atomic_load_explicit(&gran_warnings, memory_order_relaxed);
}

void fs_time_reset_gran_warnings(void)
{
	atomic_store_explicit(&gran_warnings, 0, memory_order_relaxed);
}

void fs_time_set_warn_verbose(bool verbose)
{
	atomic_store_explicit(&warn_verbose, verbose, memory_order_relaxed);
}

static struct timespec64 realtime_coarse(void *ctx)
{
	struct timespec now;

	(void)ctx;
	/* current_kernel_time64() reads the tick-updated xtime: the coarse clock. */
	if (clock_gettime(CLOCK_REALTIME_COARSE, &now) != 0)
		clock_gettime(CLOCK_REALTIME, &now);
	return (struct timespec64){ .tv_sec = now.tv_sec, .tv_nsec = now.tv_nsec };
}

static const struct fs_time_clock default_clock = { .now = realtime_coarse };
static _Atomic(const struct fs_time_clock *) active_clock = &default_clock;

void fs_time_set_clock(const struct fs_time_clock *clock)
{
	atomic_store(&active_clock, clock ? clock : &default_clock);
}

struct timespec64 fs_time_fixed_clock(void *ctx)
{
	return *(const struct timespec64 *)ctx;
}

struct timespec64 fs_time_advancing_clock(void *ctx)
{
	struct timespec64 *now = ctx;

	if (++now->tv_nsec == NSEC_PER_SEC) {
		now->tv_nsec = 0;
		now->tv_sec++;
	}
	return *now;
}

/*
 * The clocks the benchmarks install are called directly: the one indirect
 * jump every clock-reading path shared (inode_set_ctime_current(), a
 * walk's touch and relatime) took its target prediction from the branches
 * of whichever copy of the caller ran, and in paired blocks of the same
 * code twice one side lost about 2 cycles per call for a whole repetition,
 * in steps (x1.05, x1.1, x1.2), more often B: 26 and 32 of 144 accessor
 * twins' repetitions B slower by over 3 %, A in 1 and 2 (set_ctime_current
 * and set_ctime_current_queried); with the direct calls 0 of 144 either way.
 * Other clocks (the tests') still go through ->now.
 */
struct timespec64 fs_time_now(void)
{
	const struct fs_time_clock *clock = atomic_load(&active_clock);

	if (clock->now == fs_time_fixed_clock)
		return fs_time_fixed_clock(clock->ctx);
	if (clock->now == fs_time_advancing_clock)
		return fs_time_advancing_clock(clock->ctx);
	if (clock->now == realtime_coarse)
		return realtime_coarse(clock->ctx);
	return clock->now(clock->ctx);
}

/* The division-free quotient needs a 128-bit product where the ABI has one. */
#ifdef __SIZEOF_INT128__
#define FS_TIME_RECIPROCAL_HIGH_HALF 1
#else
#define FS_TIME_RECIPROCAL_HIGH_HALF 0
#endif

void sb_set_time_gran(struct super_block *sb, uint32_t gran)
{
	struct fs_time_gran_reciprocal r = { 0 };

	sb->s_time_gran = gran;
	if (gran > 1 && gran < NSEC_PER_SEC) {
		r.gran = gran;
#if FS_TIME_RECIPROCAL_HIGH_HALF
		/*
		 * multiplier = ceil(2^64 / gran) = (2^64 + e) / gran with
		 * 0 <= e < gran, so n * multiplier / 2^64 = n / gran +
		 * n * e / (gran * 2^64): its floor is n / gran whenever
		 * n * e < 2^64, i.e. for every n < 2^34 since gran < 2^30.
		 * (UINT64_MAX / gran + 1 is that ceiling for every gran >= 2.)
		 */
		r.shift = 64;
		r.multiplier = UINT64_MAX / gran + 1;
#else
		uint32_t log2_ceil = 0;

		while ((UINT64_C(1) << log2_ceil) < gran)
			log2_ceil++;
		/*
		 * Granlund-Montgomery: with shift = 31 + ceil(log2(gran)) and
		 * multiplier = ceil(2^shift / gran), (n * multiplier) >> shift ==
		 * n / gran for every 0 <= n < 2^31; multiplier <= 2^32, so the
		 * product stays below 2^63 and fits a u64 on every ABI.
		 */
		r.shift = 31 + log2_ceil;
		r.multiplier = ((UINT64_C(1) << r.shift) + gran - 1) / gran;
#endif
	}
	sb->s_time_gran_reciprocal = r;
}

void sb_init_rfc_defaults(struct super_block *sb)
{
	*sb = (struct super_block){
		.s_time_min = FS_DEFAULT_MIN_TIMESTAMP,
		.s_time_max = FS_DEFAULT_MAX_TIMESTAMP,
	};
	sb_set_time_gran(sb, NSEC_PER_SEC);
}

/*
 * The RFC's clamp_val() (include/linux/kernel.h of 2016): min(max(val, lo),
 * hi).  With lo > hi every value comes out as hi.
 */
static time64_t clamp_val_2016(time64_t sec, time64_t lo, time64_t hi)
{
	if (sec < lo)
		sec = lo;
	if (sec > hi)
		sec = hi;
	return sec;
}

/*
 * Mainline's clamp() (include/linux/minmax.h, __clamp()): val >= hi ? hi :
 * val <= lo ? lo : val.  Only constant bounds are checked, at build time;
 * s_time_min and s_time_max are run-time values, so with lo > hi a value at
 * or above hi comes out as hi and any value below hi as lo.
 */
static time64_t clamp_mainline_sec(time64_t sec, time64_t lo, time64_t hi)
{
	return sec >= hi ? hi : sec <= lo ? lo : sec;
}

void fs_time_range_check(const struct super_block *sb, struct timespec64 *ts)
{
	if (ts->tv_sec > sb->s_time_max || ts->tv_sec < sb->s_time_min) {
		ts->tv_sec = clamp_val_2016(ts->tv_sec, sb->s_time_min, sb->s_time_max);
		ts->tv_nsec = FS_TIMESTAMP_NSEC_NOT_VALID;
		return;
	}
	if (ts->tv_nsec < 0 || ts->tv_nsec >= NSEC_PER_SEC)
		ts->tv_nsec = 0;
}

int is_fs_timestamp_bad(struct timespec64 ts)
{
	return ts.tv_nsec == FS_TIMESTAMP_NSEC_NOT_VALID ? -1 : 0;
}

/*
 * The kernel's granularity step, written with the kernel's types: tv_nsec is
 * a long and gran an unsigned int, so on ABIs where long is 32 bits the usual
 * arithmetic conversions make `tv_nsec % gran` an unsigned operation.  Valid
 * nanoseconds are unaffected; a negative tv_nsec truncates differently on
 * i386/armhf than on x86_64, exactly as in the kernel.
 */
static struct timespec64 trunc_nsec(struct timespec64 t, unsigned int gran)
{
	if (gran == 1)
		; /* nothing to do */
	else if (gran == NSEC_PER_SEC)
		t.tv_nsec = 0;
	else if (gran > 1 && gran < NSEC_PER_SEC)
		t.tv_nsec -= t.tv_nsec % gran;
	else
		warn_illegal_gran(gran);
	return t;
}

struct timespec64 fs_time_trunc(struct timespec64 t, const struct super_block *sb)
{
	fs_time_range_check(sb, &t);
	if (is_fs_timestamp_bad(t))
		return t;
	return trunc_nsec(t, sb->s_time_gran);
}

struct timespec64 timespec64_trunc(struct timespec64 t, unsigned int gran)
{
	return trunc_nsec(t, gran);
}

static struct timespec64 clamp_mainline(struct timespec64 t, const struct super_block *sb)
{
	t.tv_sec = clamp_mainline_sec(t.tv_sec, sb->s_time_min, sb->s_time_max);
	if (t.tv_sec == sb->s_time_max || t.tv_sec == sb->s_time_min)
		t.tv_nsec = 0;
	return t;
}

struct timespec64 timestamp_truncate(struct timespec64 t, const struct super_block *sb)
{
	return trunc_nsec(clamp_mainline(t, sb), sb->s_time_gran);
}

/* include/linux/compiler.h: the compiler forgets what it knew about @var. */
#define OPTIMIZER_HIDE_VAR(var) __asm__("" : "=r"(var) : "0"(var))

/* n / r->gran for 0 <= n < 2^31, without a divide (see sb_set_time_gran()). */
static inline uint64_t fs_time_reciprocal_divide(unsigned long n,
						 const struct fs_time_gran_reciprocal *r)
{
#if FS_TIME_RECIPROCAL_HIGH_HALF
	/*
	 * Knowing n < 2^31, GCC 12 widens it as if it were signed and then
	 * pays a sign correction (one more multiply on the critical path):
	 * hide the range, so that the product is a single 64 x 64 -> 128 mul.
	 */
	OPTIMIZER_HIDE_VAR(n);
	return (uint64_t)(((unsigned __int128)n * r->multiplier) >> 64);
#else
	return ((uint64_t)n * r->multiplier) >> r->shift;
#endif
}

/*
 * Where mainline's code branches on which end a value was clamped to (an
 * unpredictable branch when values fall out of range on both sides), this
 * asks one question, "strictly inside the range?", which a stream of values
 * answers the same way every time (in range, or clamped), and picks the end
 * without a branch.  A clamped value then has tv_nsec 0, a multiple of every
 * legal granularity: nothing is left to truncate (an illegal granularity
 * still takes trunc_nsec() and its warning).
 */
struct timespec64 timestamp_truncate_reciprocal(struct timespec64 t,
						const struct super_block *sb)
{
	const struct fs_time_gran_reciprocal *r = &sb->s_time_gran_reciprocal;
	time64_t lo = sb->s_time_min, hi = sb->s_time_max, sec = t.tv_sec;
	uint32_t gran = sb->s_time_gran;
	unsigned long inside = (unsigned long)(sec > lo) & (unsigned long)(sec < hi);
	unsigned long nsec;

	OPTIMIZER_HIDE_VAR(inside); /* one branch on the pair, not one per test */
	if (__builtin_expect(!inside, 0)) {
		/* clamp_mainline(): at or above hi gives hi, anything else lo (lo > hi too). */
		t.tv_sec = sec >= hi ? hi : lo;
		t.tv_nsec = 0;
		if (gran - 1 < (uint32_t)NSEC_PER_SEC)
			return t;
		return trunc_nsec(t, gran);
	}
	/*
	 * Inside: clamp_mainline() changes nothing.  Mainline's own fast paths
	 * first and in its order: where it divides nothing (gran 1 and 1 s),
	 * this multiplies nothing either.
	 */
	if (gran == 1)
		return t;
	if (gran == NSEC_PER_SEC) {
		t.tv_nsec = 0;
		return t;
	}
	/*
	 * A reciprocal for this very gran (so gran is legal and not 0: an
	 * illegal gran has none, r->gran == 0), and a tv_nsec in its domain
	 * (a negative tv_nsec is >= 2^31 as an unsigned long): multiply.
	 */
	nsec = (unsigned long)t.tv_nsec;
	if (r->gran == gran && gran != 0 && nsec < (1UL << 31)) {
		t.tv_nsec = (long)(fs_time_reciprocal_divide(nsec, r) * gran);
		return t;
	}
	return trunc_nsec(t, gran);
}

struct timespec64 current_fs_time(const struct super_block *sb)
{
	return fs_time_trunc(fs_time_now(), sb);
}

struct timespec64 current_fs_time_sec(const struct super_block *sb)
{
	struct timespec64 ts = { .tv_sec = fs_time_now().tv_sec, .tv_nsec = 0 };

	fs_time_range_check(sb, &ts);
	return ts;
}

int fs_mount_time_check(struct super_block *sb)
{
	if (is_fs_timestamp_bad(current_fs_time(sb)) && sb->s_op &&
	    sb->s_op->bad_timestamp_mount)
		return sb->s_op->bad_timestamp_mount(sb);
	return 0;
}

bool vfs_inode_xtime_check(struct super_block *sb, struct timespec64 *ts)
{
	if (!is_fs_timestamp_bad(*ts))
		return false;
	ts->tv_nsec = 0;
	if (sb->s_op && sb->s_op->bad_timestamp)
		sb->s_op->bad_timestamp(sb);
	return true;
}
