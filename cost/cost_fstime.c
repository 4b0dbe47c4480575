/* SPDX-License-Identifier: MIT */
/*
 * cost_fstime.c - trampolines into src/fstime: the clamp/truncate
 * implementations and the on-disk codecs, called with their real signatures.
 *
 * The kernel calls these out of line too (timestamp_truncate() is exported),
 * so what counts is the function itself: cost.py leaves every cost_call_*
 * instruction (argument loads, the call, the result store) out and counts
 * the fstime function from its first instruction to its return, with every
 * helper it calls (__aeabi_uidivmod, __udivdi3, ...).
 */
#include "cost_fstime.h"

#include "cifs_time.h"
#include "ext4_time.h"
#include "fat_time.h"
#include "fs_time.h"

#define COST_NOINLINE __attribute__((noinline, noclone, used))

static COST_NOINLINE void cost_call_fs_time_trunc(struct cost_io *io)
{
	io->out = fs_time_trunc(io->in, io->sb);
}

static COST_NOINLINE void cost_call_timestamp_truncate(struct cost_io *io)
{
	io->out = timestamp_truncate(io->in, io->sb);
}

static COST_NOINLINE void cost_call_timestamp_truncate_reciprocal(struct cost_io *io)
{
	io->out = timestamp_truncate_reciprocal(io->in, io->sb);
}

static COST_NOINLINE void cost_call_timespec64_trunc(struct cost_io *io)
{
	io->out = timespec64_trunc(io->in, ((const struct super_block *)io->sb)->s_time_gran);
}

static COST_NOINLINE void cost_call_fs_time_range_check(struct cost_io *io)
{
	io->out = io->in;
	fs_time_range_check(io->sb, &io->out);
}

static COST_NOINLINE void cost_call_ext4_encode_extra_time(struct cost_io *io)
{
	io->raw[0] = (uint32_t)io->in.tv_sec;
	io->raw[1] = ext4_encode_extra_time(io->in);
}

static COST_NOINLINE void cost_call_ext4_decode_extra_time(struct cost_io *io)
{
	io->out = ext4_decode_extra_time(io->raw[0], io->raw[1]);
}

static COST_NOINLINE void cost_call_ext4_inode_set_xtime(struct cost_io *io)
{
	struct ext4_raw_time raw;

	ext4_inode_set_xtime(EXT4_TIME_MAINLINE, true, &raw, io->in);
	io->raw[0] = raw.xtime;
	io->raw[1] = raw.xtime_extra;
}

static COST_NOINLINE void cost_call_ext4_inode_get_xtime(struct cost_io *io)
{
	struct ext4_raw_time raw = { .xtime = io->raw[0], .xtime_extra = io->raw[1] };

	io->out = ext4_inode_get_xtime(EXT4_TIME_MAINLINE, true, &raw);
}

static COST_NOINLINE void cost_call_fat_time_unix2fat(struct cost_io *io)
{
	__le16 time, date;
	u8 time_cs;

	fat_time_unix2fat(io->sbi, &io->in, &time, &date, &time_cs);
	io->raw[0] = time;
	io->raw[1] = date;
	io->raw[2] = time_cs;
}

static COST_NOINLINE void cost_call_fat_time_fat2unix(struct cost_io *io)
{
	fat_time_fat2unix(io->sbi, &io->out, (__le16)io->raw[0], (__le16)io->raw[1],
			  (u8)io->raw[2]);
}

static COST_NOINLINE void cost_call_cifs_UnixTimeToNT(struct cost_io *io)
{
	io->raw64 = cifs_UnixTimeToNT(io->in);
}

static COST_NOINLINE void cost_call_cifs_NTtimeToUnix(struct cost_io *io)
{
	io->out = cifs_NTtimeToUnix(io->raw64);
}

/* The truncations, each run at every granularity of cost_granularities. */
const struct cost_fstime_op cost_truncations[] = {
	{ "fs_time_trunc", cost_call_fs_time_trunc, COST_EXPECT_TRUNCATED },
	{ "timestamp_truncate", cost_call_timestamp_truncate, COST_EXPECT_TRUNCATED },
	{ "timestamp_truncate_reciprocal", cost_call_timestamp_truncate_reciprocal,
	  COST_EXPECT_TRUNCATED },
	{ "timespec64_trunc", cost_call_timespec64_trunc, COST_EXPECT_TRUNCATED },
};
const size_t cost_truncation_count = sizeof(cost_truncations) / sizeof(cost_truncations[0]);

/* ns: nanosecond file systems, CIFS (100 ns), 1 us, 1 ms, and whole seconds. */
const uint32_t cost_granularities[] = { 1, 100, 1000, 1000000, 1000000000 };
const size_t cost_granularity_count = sizeof(cost_granularities) / sizeof(cost_granularities[0]);

/* Once each, in this order: every decode reads what the encode before it wrote. */
const struct cost_fstime_op cost_codecs[] = {
	{ "fs_time_range_check", cost_call_fs_time_range_check, COST_EXPECT_UNCHANGED },
	{ "ext4_encode_extra_time", cost_call_ext4_encode_extra_time, COST_EXPECT_NOTHING },
	{ "ext4_decode_extra_time", cost_call_ext4_decode_extra_time, COST_EXPECT_UNCHANGED },
	{ "ext4_inode_set_xtime", cost_call_ext4_inode_set_xtime, COST_EXPECT_NOTHING },
	{ "ext4_inode_get_xtime", cost_call_ext4_inode_get_xtime, COST_EXPECT_UNCHANGED },
	{ "fat_time_unix2fat", cost_call_fat_time_unix2fat, COST_EXPECT_NOTHING },
	{ "fat_time_fat2unix", cost_call_fat_time_fat2unix, COST_EXPECT_FAT },
	{ "cifs_UnixTimeToNT", cost_call_cifs_UnixTimeToNT, COST_EXPECT_NOTHING },
	{ "cifs_NTtimeToUnix", cost_call_cifs_NTtimeToUnix, COST_EXPECT_CIFS },
};
const size_t cost_codec_count = sizeof(cost_codecs) / sizeof(cost_codecs[0]);
