// SPDX-License-Identifier: MIT
/*
 * layout_test.c - struct inode replica checks, compiled once per layout
 * (body x representation) and run on every ABI (natively or under qemu-user).
 *
 * Compile time: inode_sizes.h already _Static_asserts the size and first
 * timestamp offset per ABI; this file adds the representation invariants.
 * Run time: the same facts again (so a run on each ABI prints them), member
 * order and alignment, then the accessors: one table of timestamps goes
 * through every getter/setter pair, the RFC macros and Chinner's boundary
 * conversions, with the results each representation can hold.
 */
#include <limits.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>

#include "fs_inode_info.h"
#include "inode.h"
#include "kunit.h"

/* Representation invariants, per ABI, from the C types themselves. */
_Static_assert(sizeof(struct timespec64) == (sizeof(long) == 8 ? 16 : (alignof(s64) == 8 ? 16 : 12)),
	       "timespec64: 16 on LP64 and armhf, 12 on i386");
#if INODE_TIME_REPR == INODE_REPR_PACKED12
_Static_assert(sizeof(struct inode_timespec) == 12 && alignof(struct inode_timespec) == 4,
	       "packed12 is 12 bytes aligned to 4 on every ABI");
#endif
#if INODE_TIME_REPR == INODE_REPR_SCALAR || INODE_TIME_REPR == INODE_REPR_MULTIGRAIN
_Static_assert(offsetof(struct inode, i_atime_nsec) == offsetof(struct inode, i_ctime_sec) + 8,
	       "scalar: nsec fields follow the three seconds directly");
#endif
#if INODE_BODY == INODE_BODY_V6 && INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE
_Static_assert(offsetof(struct inode, i_generation) == INODE_TIMESTAMP_OFFSET_END,
	       "v6 scalar: i_generation fills the hole after the nsec fields");
#endif

#define MAX_ALIGN(a, b) ((a) > (b) ? (a) : (b))
#if INODE_BODY == INODE_BODY_V6
#define INODE_EXPECTED_ALIGN MAX_ALIGN(MAX_ALIGN(alignof(void *), alignof(s64)), alignof(atomic64_t))
#else
#define INODE_EXPECTED_ALIGN MAX_ALIGN(alignof(void *), alignof(s64))
#endif

#define TS(s, ns) ((struct timespec64){ .tv_sec = (s), .tv_nsec = (ns) })
#define TIMESPEC_NARROW (INODE_TIME_REPR == INODE_REPR_TIMESPEC && sizeof(long) == 4)

static void test_layout(struct kunit *test)
{
	const char *c = INODE_LAYOUT_NAME;

	printf("%s on %s: sizeof(struct inode) %zu, align %zu, timestamps %zu..%zu (%zu bytes)\n",
	       INODE_LAYOUT_NAME, INODE_ABI_NAME, sizeof(struct inode), alignof(struct inode),
	       (size_t)INODE_TIMESTAMP_OFFSET_BEGIN, (size_t)INODE_TIMESTAMP_OFFSET_END,
	       inode_timestamp_bytes());
	KUNIT_EXPECT_TRUE(test, c, INODE_ABI != INODE_ABI_UNKNOWN);
	KUNIT_EXPECT_EQ(test, c, "sizeof(struct inode)", INODE_SIZE_CLAIM, sizeof(struct inode));
	KUNIT_EXPECT_EQ(test, c, "first timestamp offset", INODE_TIMESTAMP_OFFSET_CLAIM,
			INODE_TIMESTAMP_OFFSET_BEGIN);
	/* The strictest member: a pointer, a 64-bit integer, or (v6 only) atomic64_t. */
	KUNIT_EXPECT_EQ(test, c, "alignof(struct inode)", INODE_EXPECTED_ALIGN, alignof(struct inode));
	KUNIT_EXPECT_EQ(test, c, "sizeof %% alignof", 0, sizeof(struct inode) % alignof(struct inode));
	/* The timestamps sit between i_size and i_lock, in kernel order. */
	KUNIT_EXPECT_EQ(test, c, "timestamps follow i_size",
			offsetof(struct inode, i_size) + sizeof(kernel_loff_t), INODE_TIMESTAMP_OFFSET_BEGIN);
	KUNIT_EXPECT_TRUE(test, c, offsetof(struct inode, i_lock) >= INODE_TIMESTAMP_OFFSET_END);
	KUNIT_EXPECT_TRUE(test, c, INODE_TIMESTAMP_OFFSET_END - INODE_TIMESTAMP_OFFSET_BEGIN >=
					   inode_timestamp_bytes());
	/* stat()-hot members in their kernel order. */
	KUNIT_EXPECT_EQ(test, c, "offsetof(i_mode)", 0, offsetof(struct inode, i_mode));
	KUNIT_EXPECT_TRUE(test, c, offsetof(struct inode, i_uid) < offsetof(struct inode, i_gid));
	KUNIT_EXPECT_TRUE(test, c, offsetof(struct inode, i_sb) < offsetof(struct inode, i_ino));
	KUNIT_EXPECT_TRUE(test, c, offsetof(struct inode, i_ino) < offsetof(struct inode, i_nlink));
	KUNIT_EXPECT_TRUE(test, c, offsetof(struct inode, i_nlink) < offsetof(struct inode, i_size));
	KUNIT_EXPECT_TRUE(test, c, offsetof(struct inode, i_lock) < offsetof(struct inode, i_blocks));
	KUNIT_EXPECT_EQ(test, c, "i_size alignment", 0, offsetof(struct inode, i_size) % alignof(kernel_loff_t));
	KUNIT_EXPECT_EQ(test, c, "i_blocks alignment", 0,
			offsetof(struct inode, i_blocks) % alignof(kernel_blkcnt_t));
	KUNIT_EXPECT_EQ(test, c, "i_data alignment", 0,
			offsetof(struct inode, i_data) % alignof(struct address_space));
#if INODE_TIME_REPR == INODE_REPR_SCALAR || INODE_TIME_REPR == INODE_REPR_MULTIGRAIN
	KUNIT_EXPECT_EQ(test, c, "i_atime_sec alignment", 0, offsetof(struct inode, i_atime_sec) % alignof(time64_t));
	KUNIT_EXPECT_EQ(test, c, "ctime nsec end", offsetof(struct inode, i_atime_sec) + 36,
			INODE_TIMESTAMP_OFFSET_END);
#else
	KUNIT_EXPECT_EQ(test, c, "i_mtime follows i_atime",
			offsetof(struct inode, i_atime) + sizeof(((struct inode *)0)->i_atime),
			offsetof(struct inode, i_mtime));
	KUNIT_EXPECT_EQ(test, c, "i_atime alignment", 0,
			offsetof(struct inode, i_atime) % alignof(__typeof__(((struct inode *)0)->i_atime)));
#endif
	KUNIT_EXPECT_EQ(test, c, "layout name length", strlen(INODE_BODY_NAME) + 1 + strlen(INODE_REPR_NAME),
			strlen(INODE_LAYOUT_NAME));
}

struct accessor_case {
	const char *name;
	struct timespec64 in;
	/* What a y2038-unsafe 32-bit time_t (timespec on i386/armhf) gives back. */
	time64_t narrow_sec;
};

static const struct accessor_case accessor_cases[] = {
	{ .name = "epoch", .in = TS(0, 0), .narrow_sec = 0 },
	{ .name = "2016 RFC date with nsec", .in = TS(1452144972, 123456789), .narrow_sec = 1452144972 },
	{ .name = "last 32-bit second 2038-01-19T03:14:07Z", .in = TS(INT32_MAX, 999999999),
	  .narrow_sec = INT32_MAX },
	{ .name = "2038-01-19T03:14:08Z: 32-bit time_t wraps to 1901", .in = TS((time64_t)INT32_MAX + 1, 1),
	  .narrow_sec = INT32_MIN },
	{ .name = "2106-02-07T06:28:16Z: wraps to 0", .in = TS((time64_t)UINT32_MAX + 1, 2), .narrow_sec = 0 },
	{ .name = "ext4 max 2446-05-10", .in = TS(0x37fffffffLL, 999999999), .narrow_sec = INT32_MAX },
	{ .name = "before 1970", .in = TS(-1, 500000000), .narrow_sec = -1 },
	{ .name = "1901-12-13T20:45:52Z (INT32_MIN)", .in = TS(INT32_MIN, 7), .narrow_sec = INT32_MIN },
};

static time64_t expected_sec(const struct accessor_case *tc)
{
	return TIMESPEC_NARROW ? tc->narrow_sec : tc->in.tv_sec;
}

static void test_accessors(struct kunit *test)
{
	static struct super_block sb;
	struct inode *a, *b;
	size_t i;

	sb_init_rfc_defaults(&sb);
	/* Heap objects, so ASan sees any access beyond sizeof(struct inode). */
	a = calloc(1, sizeof(*a));
	b = calloc(1, sizeof(*b));
	if (!a || !b) {
		KUNIT_EXPECT_TRUE(test, "calloc", a && b);
		free(a);
		free(b);
		return;
	}
	inode_init_always(&sb, a);
	inode_init_always(&sb, b);
	KUNIT_EXPECT_TRUE(test, "inode_init_always", a->i_sb == &sb && a->i_mapping == &a->i_data &&
							  a->i_data.host == a && a->i_nlink == 0);

	for (i = 0; i < ARRAY_SIZE(accessor_cases); i++) {
		const struct accessor_case *tc = &accessor_cases[i];
		struct timespec64 want = { .tv_sec = expected_sec(tc), .tv_nsec = tc->in.tv_nsec };
		struct timespec64 back;

		KUNIT_EXPECT_TS_EQ(test, tc->name, "set_atime_to_ts return", tc->in,
				   inode_set_atime_to_ts(a, tc->in));
		KUNIT_EXPECT_TS_EQ(test, tc->name, "inode_get_atime", want, inode_get_atime(a));
		inode_set_mtime_to_ts(a, tc->in);
		KUNIT_EXPECT_EQ(test, tc->name, "inode_get_mtime_sec", want.tv_sec, inode_get_mtime_sec(a));
		KUNIT_EXPECT_EQ(test, tc->name, "inode_get_mtime_nsec", want.tv_nsec, inode_get_mtime_nsec(a));
		inode_set_ctime(a, tc->in.tv_sec, tc->in.tv_nsec);
		KUNIT_EXPECT_TS_EQ(test, tc->name, "inode_get_ctime", want, inode_get_ctime(a));
		KUNIT_EXPECT_EQ(test, tc->name, "inode_get_ctime_sec", want.tv_sec, inode_get_ctime_sec(a));
		KUNIT_EXPECT_EQ(test, tc->name, "inode_get_atime_nsec", want.tv_nsec, inode_get_atime_nsec(a));

		/* The RFC macros: same values, no clamp marker involved. */
		VFS_INODE_SET_XTIME(i_mtime, b, tc->in);
		back = VFS_INODE_GET_XTIME(i_mtime, b);
		KUNIT_EXPECT_TS_EQ(test, tc->name, "VFS_INODE_GET_XTIME(i_mtime)", want, back);

		/* Chinner: the boundary conversion round-trips where time_t is 64 bits. */
		back = timespec_to_vfs_time(vfs_time_to_timespec(tc->in));
		KUNIT_EXPECT_EQ(test, tc->name, "timespec boundary tv_sec",
				sizeof(long) == 8 ? tc->in.tv_sec : tc->narrow_sec, back.tv_sec);
		KUNIT_EXPECT_EQ(test, tc->name, "timespec boundary tv_nsec", tc->in.tv_nsec, back.tv_nsec);
	}

	/* Swap: each inode gets the other's value. */
	inode_set_atime_to_ts(a, TS(100, 1));
	inode_set_atime_to_ts(b, TS(200, 2));
	VFS_INODE_SWAP_XTIME(i_atime, a, b);
	KUNIT_EXPECT_TS_EQ(test, "VFS_INODE_SWAP_XTIME", "a", TS(200, 2), inode_get_atime(a));
	KUNIT_EXPECT_TS_EQ(test, "VFS_INODE_SWAP_XTIME", "b", TS(100, 1), inode_get_atime(b));
	free(a);
	free(b);
}

/* RFC 03/15: a clamped value (marker in tv_nsec) is stored with nsec 0 and reported. */
static unsigned int bad_timestamp_calls;
static void count_bad_timestamp(struct super_block *sb)
{
	(void)sb;
	bad_timestamp_calls++;
}

static void test_rfc_clamp(struct kunit *test)
{
	static const struct super_operations ops = { .bad_timestamp = count_bad_timestamp };
	static struct super_block sb;
	static struct inode inode;
	struct timespec64 clamped;

	sb_init_rfc_defaults(&sb);
	sb_set_time_gran(&sb, 1);
	sb.s_op = &ops;
	inode.i_sb = &sb;

	/* fs_time_trunc() of a post-2038 time on an RFC-default super block. */
	clamped = fs_time_trunc(TS((time64_t)INT32_MAX + 10, 5), &sb);
	KUNIT_EXPECT_EQ(test, "clamp", "fs_time_trunc marks", FS_TIMESTAMP_NSEC_NOT_VALID, clamped.tv_nsec);
	bad_timestamp_calls = 0;
	VFS_INODE_SET_XTIME(i_ctime, &inode, clamped);
	KUNIT_EXPECT_TS_EQ(test, "clamp", "stored ctime", TS(INT32_MAX, 0), inode_get_ctime(&inode));
	KUNIT_EXPECT_EQ(test, "clamp", "bad_timestamp calls", 1, bad_timestamp_calls);
	VFS_INODE_SET_XTIME(i_ctime, &inode, TS(5, 6));
	KUNIT_EXPECT_EQ(test, "in range", "bad_timestamp calls", 1, bad_timestamp_calls);
	KUNIT_EXPECT_TS_EQ(test, "in range", "stored ctime", TS(5, 6), inode_get_ctime(&inode));
}

/* A fixed clock, so that "now" is known. */
struct fixed_clock_ctx {
	struct timespec64 now;
};
static struct timespec64 fixed_now(void *ctx)
{
	return ((const struct fixed_clock_ctx *)ctx)->now;
}

static void test_ctime_current(struct kunit *test)
{
	static struct fixed_clock_ctx ctx = { .now = TS(1700000000, 123456789) };
	static const struct fs_time_clock clock = { .now = fixed_now, .ctx = &ctx };
	static struct super_block sb;
	static struct inode inode;
	struct timespec64 got;

	sb_init_rfc_defaults(&sb);
	sb.s_time_min = TIME64_MIN;
	sb.s_time_max = TIME64_MAX;
	sb_set_time_gran(&sb, 1000); /* 1 us, truncation visible */
	inode.i_sb = &sb;
	fs_time_set_clock(&clock);

	got = inode_set_ctime_current(&inode);
	KUNIT_EXPECT_TS_EQ(test, "set_ctime_current", "returned", TS(1700000000, 123456000), got);
	KUNIT_EXPECT_TS_EQ(test, "set_ctime_current", "stored", TS(1700000000, 123456000),
			   inode_get_ctime(&inode));
	KUNIT_EXPECT_TRUE(test, "set_ctime_current", !inode_ctime_queried(&inode));

	/* Queried ctime, clock not advanced: multigrain must still move forward. */
	inode_ctime_mark_queried(&inode);
	KUNIT_EXPECT_EQ(test, "queried", "nsec getter masks the flag", 123456000, inode_get_ctime_nsec(&inode));
	got = inode_set_ctime_current(&inode);
#if INODE_TIME_REPR == INODE_REPR_MULTIGRAIN
	KUNIT_EXPECT_TRUE(test, "queried", inode_ctime_queried(&inode) == 0);
	KUNIT_EXPECT_TS_EQ(test, "queried: fine-grained, one gran later", "returned", TS(1700000000, 123457000), got);
#else
	KUNIT_EXPECT_TS_EQ(test, "no multigrain: same coarse time", "returned", TS(1700000000, 123456000), got);
#endif
	KUNIT_EXPECT_TS_EQ(test, "after second set", "stored", got, inode_get_ctime(&inode));

	/* Not queried, clock not advanced: the value stays, even for multigrain. */
	got = inode_set_ctime_current(&inode);
	KUNIT_EXPECT_TS_EQ(test, "unqueried repeat", "stored", got, inode_get_ctime(&inode));

#if INODE_TIME_REPR == INODE_REPR_MULTIGRAIN
	/* The fine-grained step carries into the seconds. */
	ctx.now = TS(1700000001, 999999999);
	inode_set_ctime_to_ts(&inode, TS(1700000001, 999999000));
	inode_ctime_mark_queried(&inode);
	got = inode_set_ctime_current(&inode);
	KUNIT_EXPECT_TS_EQ(test, "queried at .999999: carry into next second", "returned",
			   TS(1700000002, 0), got);
	/* A non-normalised ctime (RFC macro path) must not overflow the step. */
	VFS_INODE_SET_XTIME(i_ctime, &inode, TS(1700000001, 0x7fffff00L));
	inode_ctime_mark_queried(&inode);
	got = inode_set_ctime_current(&inode);
	KUNIT_EXPECT_TRUE(test, "non-normalised queried ctime", got.tv_sec > 1700000001);
	KUNIT_EXPECT_TRUE(test, "non-normalised queried ctime: nsec valid",
			  got.tv_nsec >= 0 && got.tv_nsec < NSEC_PER_SEC);

	/* v6.13 normalises ctime on store, so nsec can never reach the flag bit. */
	got = inode_set_ctime_to_ts(&inode, TS(10, 2 * NSEC_PER_SEC + 5));
	KUNIT_EXPECT_TS_EQ(test, "normalise carry", "ctime", TS(12, 5), got);
	got = inode_set_ctime_to_ts(&inode, TS(10, -1));
	KUNIT_EXPECT_TS_EQ(test, "normalise borrow", "ctime", TS(9, 999999999), got);
	got = inode_set_ctime_to_ts(&inode, TS(TIME64_MAX, NSEC_PER_SEC));
	KUNIT_EXPECT_TS_EQ(test, "normalise saturates", "ctime", TS(TIME64_MAX, 0), got);
#endif
	fs_time_set_clock(NULL);
}

/*
 * Containers: the embedded inode, and the file system's own timestamp in the
 * same representation.  On LP64 with the v6 body, ext4_inode_info matches
 * this host's BTF (vfs_inode at 272; 1120 bytes for a 616-byte inode).
 */
static void test_containers(struct kunit *test)
{
	struct ext4_inode_info *ei = calloc(1, sizeof(*ei));
	struct msdos_inode_info *fi = calloc(1, sizeof(*fi));
	const struct timespec64 crtime = TS(1452144972, 999999999);
	struct timespec64 back;

	printf("%s on %s: ext4_inode_info %zu, msdos_inode_info %zu, cifsInodeInfo %zu\n",
	       INODE_LAYOUT_NAME, INODE_ABI_NAME, sizeof(struct ext4_inode_info),
	       sizeof(struct msdos_inode_info), sizeof(struct cifsInodeInfo));
	if (!ei || !fi) {
		KUNIT_EXPECT_TRUE(test, "calloc", ei && fi);
		free(ei);
		free(fi);
		return;
	}
	KUNIT_EXPECT_EQ(test, "cifs", "netfs inode first", 0, offsetof(struct cifsInodeInfo, netfs.inode));
	KUNIT_EXPECT_EQ(test, "ext4", "vfs_inode alignment", 0,
			offsetof(struct ext4_inode_info, vfs_inode) % alignof(struct inode));
#if INODE_ABI_LP64 && INODE_BODY == INODE_BODY_V6
	KUNIT_EXPECT_EQ(test, "ext4 (host BTF)", "offsetof(vfs_inode)", 272,
			offsetof(struct ext4_inode_info, vfs_inode));
	KUNIT_EXPECT_EQ(test, "ext4 (host BTF)", "sizeof", sizeof(struct inode) == 616 ? 1120 : 1128,
			sizeof(struct ext4_inode_info));
#endif
	INODE_REPR_STORE(ei, i_crtime, crtime);
	back = INODE_REPR_LOAD(ei, i_crtime);
	KUNIT_EXPECT_EQ(test, "ext4 i_crtime", "tv_nsec", crtime.tv_nsec, back.tv_nsec);
	KUNIT_EXPECT_EQ(test, "ext4 i_crtime", "tv_sec", crtime.tv_sec, back.tv_sec);
	INODE_REPR_STORE(fi, i_crtime, crtime);
	back = INODE_REPR_LOAD(fi, i_crtime);
	KUNIT_EXPECT_TS_EQ(test, "fat i_crtime", "round trip", crtime, back);
	/* The embedded inode works through the same accessors. */
	inode_set_mtime_to_ts(&ei->vfs_inode, crtime);
	KUNIT_EXPECT_TS_EQ(test, "ext4 vfs_inode", "mtime", crtime, inode_get_mtime(&ei->vfs_inode));
	free(ei);
	free(fi);
}

int main(void)
{
	struct kunit test = { .suite = "layout_test " INODE_LAYOUT_NAME };

	test_layout(&test);
	test_accessors(&test);
	test_rfc_clamp(&test);
	test_ctime_current(&test);
	test_containers(&test);
	return kunit_finish(&test);
}
