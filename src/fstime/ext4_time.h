/* SPDX-License-Identifier: MIT */
/*
 * ext4_time.h - the ext4 on-disk inode timestamp: a 32-bit seconds word
 * (i_[cma]time) plus, when the inode is large enough, an "extra" word
 * (i_[cma]time_extra) holding 2 epoch bits (seconds bits 32..33) and 30 bits
 * of nanoseconds.
 *
 * Two generations, side by side:
 *  - 2016 (v4.4/v4.5, what RFC 07/15 converted to inode_timespec):
 *    ext4_encode_extra_time_2016()/ext4_decode_extra_time_2016() take a
 *    pointer; the decoder still honours the *legacy* encoding of pre-1970
 *    dates (epoch bits 1,1 with the sign bit of the seconds word set meant
 *    "negative", written by kernels before 2015); storing without an extra
 *    field simply truncates tv_sec to 32 bits.
 *  - mainline (v6.x): ext4_encode_extra_time()/ext4_decode_extra_time() by
 *    value, no legacy case (so epoch 3 is always 2310..2446), and storing
 *    without an extra field clamps tv_sec to S32_MIN..S32_MAX.
 * Both encoders compute the epoch as (tv_sec - (s32)tv_sec) >> 32, so with an
 * extra field the representable seconds are S32_MIN .. S32_MIN + 2^34 - 1
 * (1901-12-13T20:45:52Z .. 2446-05-10T22:38:55Z); the 2016 decoder reads
 * back [0x280000000, 0x2ffffffff] (2310..2378) as 1901..1970.
 */
#ifndef FSTIME_EXT4_TIME_H
#define FSTIME_EXT4_TIME_H

#include <stdbool.h>

#include "fs_time.h"
#include "kernel_types.h"
#include "time64.h"

#ifdef __cplusplus
extern "C" {
#endif

#define EXT4_EPOCH_BITS 2
#define EXT4_EPOCH_MASK ((1u << EXT4_EPOCH_BITS) - 1)
#define EXT4_NSEC_MASK (~0u << EXT4_EPOCH_BITS)

/* The v5.4 limits (fs/ext4/ext4.h), as ext4_fill_super() installs them. */
#define EXT4_EXTRA_TIMESTAMP_MAX ((((s64)1) << 34) - 1 + S32_MIN)
#define EXT4_NON_EXTRA_TIMESTAMP_MAX S32_MAX
#define EXT4_TIMESTAMP_MIN S32_MIN

/* Which kernel's behaviour a call models. */
enum ext4_time_gen {
	EXT4_TIME_2016,     /* v4.4/v4.5, the RFC's base */
	EXT4_TIME_MAINLINE, /* v6.x */
};

/* One timestamp as it sits in struct ext4_inode (little-endian words). */
struct ext4_raw_time {
	__le32 xtime;       /* i_[cma]time: low 32 bits of tv_sec */
	__le32 xtime_extra; /* i_[cma]time_extra: nsec << 2 | epoch */
};

/**
 * ext4_encode_extra_time - mainline: the extra word for @ts
 *
 * Epoch bits = ((tv_sec - (s32)tv_sec) >> 32) & 3, nanoseconds in bits 2..31.
 * tv_sec outside the extra range wraps (only bits 32..33 of the offset
 * survive); tv_nsec is not checked, its low 30 bits are stored.
 */
__le32 ext4_encode_extra_time(struct timespec64 ts);

/**
 * ext4_decode_extra_time - mainline: tv_sec = (s32)@base + epoch * 2^32,
 * tv_nsec = @extra >> 2 (0..2^30-1; values >= NSEC_PER_SEC come back as read).
 */
struct timespec64 ext4_decode_extra_time(__le32 base, __le32 extra);

/** ext4_encode_extra_time_2016 - v4.4: the same word as mainline, by pointer. */
__le32 ext4_encode_extra_time_2016(const struct timespec64 *time);

/**
 * ext4_decode_extra_time_2016 - v4.4: @time->tv_sec must already hold the
 * sign-extended seconds word; adds the epoch, except that epoch 3 with the
 * sign bit of tv_sec set is the legacy pre-1970 encoding and adds nothing.
 */
void ext4_decode_extra_time_2016(struct timespec64 *time, __le32 extra);

/**
 * ext4_inode_set_xtime - EXT4_INODE_SET_XTIME(): store @ts in @raw
 *
 * @has_extra: the inode has room for the _extra word (i_extra_isize large
 * enough).  Without it, 2016 stores the low 32 bits of tv_sec; mainline
 * clamps tv_sec to S32_MIN..S32_MAX first.  @raw->xtime_extra is untouched
 * then.
 */
void ext4_inode_set_xtime(enum ext4_time_gen gen, bool has_extra, struct ext4_raw_time *raw,
			  struct timespec64 ts);

/**
 * ext4_inode_get_xtime - EXT4_INODE_GET_XTIME(): read @raw back
 *
 * Without an extra word: tv_sec = (s32)xtime, tv_nsec = 0.
 */
struct timespec64 ext4_inode_get_xtime(enum ext4_time_gen gen, bool has_extra,
				       const struct ext4_raw_time *raw);

/**
 * ext4_time_representable - does @sec survive set + get unchanged?
 *
 * Exact for both generations (including the 2016 legacy hole); tv_nsec
 * survives iff it is 0..2^30-1 with an extra word, iff it is 0 without.
 */
bool ext4_time_representable(enum ext4_time_gen gen, bool has_extra, time64_t sec);

/**
 * ext4_sb_set_time_limits - what ext4_fill_super() sets since v5.4
 *
 * With extra: gran 1 ns, S32_MIN..EXT4_EXTRA_TIMESTAMP_MAX; without: gran
 * 1 s, S32_MIN..S32_MAX.
 */
void ext4_sb_set_time_limits(struct super_block *sb, bool has_extra);

#ifdef __cplusplus
}
#endif

#endif /* FSTIME_EXT4_TIME_H */
