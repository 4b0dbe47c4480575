/* SPDX-License-Identifier: MIT */
/*
 * fs_time.h - a model of the kernel's per-super-block timestamp policy.
 *
 * Two generations of the same idea live side by side so that they can be
 * compared input by input:
 *
 *  - the January 2016 RFC (Deepa Dinamani, "[RFC 03/15] kernel: time: Add
 *    macros and functions to support 64 bit time"): fs_time_range_check(),
 *    is_fs_timestamp_bad(), fs_time_trunc(), current_fs_time(),
 *    current_fs_time_sec(), and the mount-time check with the
 *    bad_timestamp_mount / bad_timestamp super-block callbacks;
 *  - mainline since v5.4 ("vfs: Add timestamp_truncate() api"):
 *    timestamp_truncate(), which takes the super block here instead of the
 *    inode, and the pre-RFC timespec64_trunc().
 *
 * Where they differ (documented per function, asserted in tests/):
 *  - a clamped value: the RFC sets tv_nsec = FS_TIMESTAMP_NSEC_NOT_VALID (so
 *    the caller can see the clamp and call ->bad_timestamp), mainline sets 0;
 *  - tv_sec exactly at s_time_min or s_time_max without clamping: the RFC
 *    keeps (truncated) nanoseconds, mainline zeroes them;
 *  - tv_nsec outside 0..NSEC_PER_SEC-1: the RFC zeroes it, mainline truncates
 *    it as it is (C's % rounds toward zero, so a negative value stays
 *    negative);
 *  - a misconfigured super block with s_time_min > s_time_max: the RFC's
 *    clamp_val() (min(max(val, lo), hi)) gives s_time_max for every value;
 *    mainline's clamp() tests hi first (val >= hi ? hi : val <= lo ? lo : val),
 *    so values at or above s_time_max give s_time_max and all others
 *    s_time_min.  The kernel checks lo <= hi only for constants, at build
 *    time; the super-block fields are never checked.
 *
 * The kernel's WARN(1, "illegal file time granularity") is a counted warning
 * here: see fs_time_gran_warnings().
 */
#ifndef FSTIME_FS_TIME_H
#define FSTIME_FS_TIME_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "time64.h"

#ifdef __cplusplus
extern "C" {
#endif

struct super_block;

struct super_operations {
	int (*bad_timestamp_mount)(struct super_block *sb); /* RFC 03/15 */
	void (*bad_timestamp)(struct super_block *sb);       /* RFC 03/15 */
};

/*
 * A reciprocal of s_time_gran for division-free truncation of tv_nsec,
 * computed once by sb_set_time_gran().  @gran records which granularity it
 * was computed for: when s_time_gran has been changed behind its back, the
 * division-free path notices and divides instead, so it is never wrong.
 * Where the compiler has a 64 x 64 -> 128-bit multiply (LP64 ABIs), the
 * quotient is the high half of n * multiplier; elsewhere (ILP32) it is
 * (n * multiplier) >> shift in 64 bits.
 */
struct fs_time_gran_reciprocal {
	uint32_t gran;
	uint32_t shift;      /* 64 (high half), or 31 + ceil(log2(gran)) */
	uint64_t multiplier; /* ceil(2^shift / gran) */
};

struct super_block {
	uint32_t s_time_gran; /* ns, valid 1..NSEC_PER_SEC */
	time64_t s_time_min, s_time_max;
	const struct super_operations *s_op;
	void *s_fs_info;
	struct fs_time_gran_reciprocal s_time_gran_reciprocal;
};

/* The RFC's marker for "this value was clamped"; never a valid tv_nsec. */
#define FS_TIMESTAMP_NSEC_NOT_VALID INT_MAX
/* The RFC's defaults: 1970-01-01T00:00:00Z .. 2038-01-19T03:14:07Z. */
#define FS_DEFAULT_MIN_TIMESTAMP 0
#define FS_DEFAULT_MAX_TIMESTAMP INT_MAX

/**
 * sb_set_time_gran - set s_time_gran and precompute its reciprocal
 *
 * Any value is stored as given (so that tests can install illegal ones); the
 * reciprocal is only meaningful for 2..NSEC_PER_SEC-1 and is zeroed otherwise.
 */
void sb_set_time_gran(struct super_block *sb, uint32_t gran);

/**
 * sb_init_rfc_defaults - the RFC's alloc_super(): gran 1 s, range 0..INT_MAX,
 * no callbacks.
 */
void sb_init_rfc_defaults(struct super_block *sb);

/**
 * fs_time_range_check - RFC: clamp @ts into [s_time_min, s_time_max]
 *
 * Out of range: tv_sec is clamped (clamp_val(): s_time_max wins when
 * s_time_min > s_time_max, where every value is out of range) and tv_nsec
 * becomes FS_TIMESTAMP_NSEC_NOT_VALID.  In range: a tv_nsec outside
 * 0..NSEC_PER_SEC-1 becomes 0; anything else is left alone.
 */
void fs_time_range_check(const struct super_block *sb, struct timespec64 *ts);

/** is_fs_timestamp_bad - RFC: -1 if @ts carries the clamp marker, else 0. */
int is_fs_timestamp_bad(struct timespec64 ts);

/**
 * fs_time_trunc - RFC: range-check, then truncate to s_time_gran
 *
 * A clamped value is returned as fs_time_range_check() left it (marker in
 * tv_nsec, no truncation).  Otherwise tv_nsec is rounded down to a multiple of
 * s_time_gran.  Illegal granularity (0 or > NSEC_PER_SEC): counted warning,
 * tv_nsec left as range-checked.
 */
struct timespec64 fs_time_trunc(struct timespec64 t, const struct super_block *sb);

/**
 * timestamp_truncate - mainline (v5.4+): clamp tv_sec, then truncate tv_nsec
 *
 * tv_sec is clamped to [s_time_min, s_time_max] by clamp(); if the result
 * equals either end, tv_nsec becomes 0 (clamped or not).  Then tv_nsec is
 * rounded toward zero to a multiple of s_time_gran; tv_nsec is not validated
 * (a negative value stays negative).  Illegal granularity: counted warning,
 * tv_nsec kept.  s_time_min > s_time_max: tv_sec >= s_time_max gives
 * s_time_max, anything else s_time_min, tv_nsec 0 either way.
 * The kernel takes the inode and uses inode->i_sb; this takes the super block.
 */
struct timespec64 timestamp_truncate(struct timespec64 t, const struct super_block *sb);

/**
 * timestamp_truncate_reciprocal - timestamp_truncate() without a divide
 *
 * Bit-identical to timestamp_truncate() for every input.  For the valid
 * tv_nsec range (indeed any 0 <= tv_nsec < 2^31) it multiplies by
 * s_time_gran_reciprocal instead of dividing; other tv_nsec, or a reciprocal
 * that does not match s_time_gran, take the division path.  The clamp asks
 * one question, s_time_min < tv_sec < s_time_max, and picks the end without
 * a branch; a clamped value (tv_nsec 0) needs no truncation.  Where mainline
 * divides nothing (gran 1 and 1 s) it takes mainline's path.
 */
struct timespec64 timestamp_truncate_reciprocal(struct timespec64 t,
						const struct super_block *sb);

/**
 * timespec64_trunc - pre-RFC: truncate tv_nsec to @gran, no range check
 *
 * gran 1: unchanged; gran NSEC_PER_SEC: tv_nsec = 0; 1 < gran < NSEC_PER_SEC:
 * rounded toward zero; anything else: counted warning, unchanged.
 */
struct timespec64 timespec64_trunc(struct timespec64 t, unsigned int gran);

/**
 * current_fs_time - RFC: now, through fs_time_trunc()
 *
 * "Now" comes from the fs_time clock (see fs_time_set_clock()).  A "now"
 * outside the super block's range comes back clamped with the marker set.
 */
struct timespec64 current_fs_time(const struct super_block *sb);

/** current_fs_time_sec - RFC: now in whole seconds, range-checked. */
struct timespec64 current_fs_time_sec(const struct super_block *sb);

/**
 * fs_mount_time_check - the RFC's check in mount_fs()
 *
 * If current_fs_time(@sb) is bad (the file system has already run out of
 * timestamps) and ->bad_timestamp_mount exists, return what it returns (a
 * negative errno refuses the mount); otherwise 0.
 */
int fs_mount_time_check(struct super_block *sb);

/**
 * vfs_inode_xtime_check - what the RFC's VFS_INODE_SET_XTIME() does to a
 * value it has just stored
 *
 * If *@ts carries the clamp marker, tv_nsec becomes 0 and ->bad_timestamp is
 * called (when @sb has one).  Return: true when the value was bad.
 */
bool vfs_inode_xtime_check(struct super_block *sb, struct timespec64 *ts);

/*
 * The clock behind current_fs_time*(): by default it models
 * current_kernel_time64(), i.e. clock_gettime(CLOCK_REALTIME_COARSE).  Tests
 * install their own to stand "now" in 2038, 2106, 2446, before 1970, or at
 * the ends of time64_t.  Passing NULL restores the default.  The clock is
 * swapped atomically; the ctx it is given must outlive its use.
 */
struct fs_time_clock {
	struct timespec64 (*now)(void *ctx);
	void *ctx;
};
void fs_time_set_clock(const struct fs_time_clock *clock);
struct timespec64 fs_time_now(void);

/*
 * Two clocks for code that times fs_time_now()'s callers, which it calls
 * directly rather than through ->now: fs_time_fixed_clock answers the
 * timespec64 at @ctx; fs_time_advancing_clock first moves it on by 1 ns
 * (seconds carried).  The kernel's current_time() calls its clock directly;
 * one call through a pointer, shared by every timed path that reads the
 * clock, was predicted from whichever code ran before it, and two copies of
 * the same code differed by steps of 5 to 20 % (fs_time.c).
 */
struct timespec64 fs_time_fixed_clock(void *ctx);
struct timespec64 fs_time_advancing_clock(void *ctx);

/*
 * The kernel's WARN(1, "illegal file time granularity: %u") as a counter:
 * every illegal-granularity truncation adds one (atomically), and prints a
 * line to stderr when fs_time_set_warn_verbose(true).
 */
unsigned long fs_time_gran_warnings(void);
void fs_time_reset_gran_warnings(void);
void fs_time_set_warn_verbose(bool verbose);

#ifdef __cplusplus
}
#endif

#endif /* FSTIME_FS_TIME_H */
