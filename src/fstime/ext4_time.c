// SPDX-License-Identifier: MIT
/*
 * ext4_time.c - ext4's 32+2-bit seconds / 30-bit nanoseconds timestamp.
 *
 * The kernel builds with -fno-strict-overflow, so its shifts and
 * subtractions wrap; here every such step is done in u32/u64, which gives
 * the same bits without undefined behaviour for any input.
 */
#include "ext4_time.h"

/* (s32)v without an implementation-defined conversion. */
static s64 sign_extend32(u32 v)
{
	return v & 0x80000000u ? (s64)v - ((s64)1 << 32) : (s64)v;
}

static u32 extra_epoch(time64_t sec)
{
	/* tv_sec - (s32)tv_sec is a multiple of 2^32; its bits 32..33 are the epoch. */
	u64 diff = (u64)sec - (u64)sign_extend32((u32)(u64)sec);

	return (u32)(diff >> 32) & EXT4_EPOCH_MASK;
}

static __le32 encode_extra(time64_t sec, long nsec)
{
	return cpu_to_le32(extra_epoch(sec) | ((u32)(unsigned long)nsec << EXT4_EPOCH_BITS));
}

__le32 ext4_encode_extra_time(struct timespec64 ts)
{
	return encode_extra(ts.tv_sec, ts.tv_nsec);
}

struct timespec64 ext4_decode_extra_time(__le32 base, __le32 extra)
{
	struct timespec64 ts = { .tv_sec = sign_extend32(le32_to_cpu(base)) };
	u32 e = le32_to_cpu(extra);

	ts.tv_sec += (s64)(e & EXT4_EPOCH_MASK) << 32;
	ts.tv_nsec = (long)((e & EXT4_NSEC_MASK) >> EXT4_EPOCH_BITS);
	return ts;
}

__le32 ext4_encode_extra_time_2016(const struct timespec64 *time)
{
	return encode_extra(time->tv_sec, time->tv_nsec);
}

void ext4_decode_extra_time_2016(struct timespec64 *time, __le32 extra)
{
	u32 e = le32_to_cpu(extra);
	u64 epoch = e & EXT4_EPOCH_MASK;

	/*
	 * Kernels before the 2015 fix encoded a negative tv_sec as epoch 3
	 * (the sign bits); v4.4 still reads that back as pre-1970.  Tested on
	 * bit 31 of tv_sec as the kernel does; tv_sec is the caller's.
	 */
	if (epoch == 3 && ((u64)time->tv_sec & 0x80000000u))
		epoch = 0;
	/* u64 addition: a caller-supplied tv_sec near S64_MAX wraps, as in the kernel. */
	time->tv_sec = (time64_t)((u64)time->tv_sec + (epoch << 32));
	time->tv_nsec = (long)((e & EXT4_NSEC_MASK) >> EXT4_EPOCH_BITS);
}

void ext4_inode_set_xtime(enum ext4_time_gen gen, bool has_extra, struct ext4_raw_time *raw,
			  struct timespec64 ts)
{
	if (has_extra) {
		raw->xtime = cpu_to_le32((u32)(u64)ts.tv_sec);
		raw->xtime_extra = gen == EXT4_TIME_2016 ? ext4_encode_extra_time_2016(&ts)
							 : ext4_encode_extra_time(ts);
		return;
	}
	if (gen == EXT4_TIME_MAINLINE) {
		/* clamp_t(int32_t, tv_sec, S32_MIN, S32_MAX) */
		if (ts.tv_sec < S32_MIN)
			ts.tv_sec = S32_MIN;
		if (ts.tv_sec > S32_MAX)
			ts.tv_sec = S32_MAX;
	}
	raw->xtime = cpu_to_le32((u32)(u64)ts.tv_sec);
}

struct timespec64 ext4_inode_get_xtime(enum ext4_time_gen gen, bool has_extra,
				       const struct ext4_raw_time *raw)
{
	struct timespec64 ts = { .tv_sec = sign_extend32(le32_to_cpu(raw->xtime)) };

	if (!has_extra)
		return ts;
	if (gen == EXT4_TIME_MAINLINE)
		return ext4_decode_extra_time(raw->xtime, raw->xtime_extra);
	ext4_decode_extra_time_2016(&ts, raw->xtime_extra);
	return ts;
}

bool ext4_time_representable(enum ext4_time_gen gen, bool has_extra, time64_t sec)
{
	if (!has_extra)
		return sec >= S32_MIN && sec <= S32_MAX;
	if (sec < EXT4_TIMESTAMP_MIN || sec > EXT4_EXTRA_TIMESTAMP_MAX)
		return false;
	/* 2016's legacy rule eats epoch 3 with a negative seconds word. */
	if (gen == EXT4_TIME_2016 && sec >= INT64_C(0x280000000) && sec <= INT64_C(0x2ffffffff))
		return false;
	return true;
}

void ext4_sb_set_time_limits(struct super_block *sb, bool has_extra)
{
	sb_set_time_gran(sb, has_extra ? 1 : NSEC_PER_SEC);
	sb->s_time_min = EXT4_TIMESTAMP_MIN;
	sb->s_time_max = has_extra ? EXT4_EXTRA_TIMESTAMP_MAX : EXT4_NON_EXTRA_TIMESTAMP_MAX;
}
