// SPDX-License-Identifier: MIT
/*
 * layout_test.c - struct inode replica checks, compiled once per layout
 * (body x representation) and run on every ABI (natively or under qemu-user).
 *
 * Compile time: inode_sizes.h already _Static_asserts the size and first
 * timestamp offset per ABI (the rows of layouts/layouts.def).  Run time: the
 * same facts again (so a run on each ABI prints them), member order and
 * alignment, the representation's field list (INODE_TIMESTAMP_FIELDS)
 * against its members, then the accessors: one table of timestamps goes
 * through every getter/setter pair, the RFC macros and Chinner's boundary
 * conversions, with the results the representation declares it holds
 * (INODE_REPR_MIN/MAX, wrapping or clamping beyond).  Nothing here asks
 * which layout it is: only what the layout headers declare.
 */
#include <limits.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>

#include "fs_inode_info.h"
#include "inode.h"
#include "kunit.h"

/* Invariants per ABI, from the C types themselves. */
_Static_assert(sizeof(struct timespec64) == (sizeof(long) == 8 ? 16 : (alignof(s64) == 8 ? 16 : 12)),
	       "timespec64: 16 on LP64 and armhf, 12 on i386");
#if INODE_BODY_HONOURS_GENERATION_HOLE && INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE
_Static_assert(offsetof(struct inode, i_generation) == INODE_TIMESTAMP_OFFSET_END,
	       "i_generation fills the hole after the timestamps (v6.11)");
#endif

#define MAX_ALIGN(a, b) ((a) > (b) ? (a) : (b))
#if INODE_BODY_HAS_ATOMIC64
#define INODE_EXPECTED_ALIGN MAX_ALIGN(MAX_ALIGN(alignof(void *), alignof(s64)), alignof(atomic64_t))
#else
#define INODE_EXPECTED_ALIGN MAX_ALIGN(alignof(void *), alignof(s64))
#endif

#define TS(s, ns) ((struct timespec64){ .tv_sec = (s), .tv_nsec = (ns) })

/* The representation's timestamp members, from its field list. */
struct timestamp_field {
	const char *name;
	size_t offset, size, align;
};

#define TIMESTAMP_FIELD(m)                                                              \
	{ #m, offsetof(struct inode, m), sizeof(((struct inode *)0)->m),                 \
	  alignof(__typeof__(((struct inode *)0)->m)) },

static const struct timestamp_field timestamp_fields[] = {
	INODE_TIMESTAMP_FIELDS(TIMESTAMP_FIELD, i_atime)
	INODE_TIMESTAMP_FIELDS(TIMESTAMP_FIELD, i_mtime)
	INODE_TIMESTAMP_FIELDS(TIMESTAMP_FIELD, i_ctime)
};

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
	KUNIT_EXPECT_EQ(test, c, "layout name length", strlen(INODE_BODY_NAME) + 1 + strlen(INODE_REPR_NAME),
			strlen(INODE_LAYOUT_NAME));
}

/*
 * The field list against the members: every field aligned, no two
 * overlapping, together exactly the bytes from INODE_TIMESTAMP_FIRST to
 * INODE_TIMESTAMP_LAST (no hole, none left out) and INODE_TIMESTAMP_BYTES.
 */
static void test_fields(struct kunit *test)
{
	const char *c = INODE_LAYOUT_NAME " fields";
	size_t begin = SIZE_MAX, end = 0, bytes = 0;

	for (size_t i = 0; i < ARRAY_SIZE(timestamp_fields); i++) {
		const struct timestamp_field *f = &timestamp_fields[i];

		printf("%s: %s at %zu, %zu bytes\n", c, f->name, f->offset, f->size);
		KUNIT_EXPECT_EQ(test, f->name, "offset % alignment", 0, f->offset % f->align);
		for (size_t j = 0; j < i; j++) {
			const struct timestamp_field *g = &timestamp_fields[j];

			KUNIT_EXPECT_TRUE(test, f->name, f->offset >= g->offset + g->size ||
								 g->offset >= f->offset + f->size);
		}
		begin = f->offset < begin ? f->offset : begin;
		end = f->offset + f->size > end ? f->offset + f->size : end;
		bytes += f->size;
	}
	KUNIT_EXPECT_EQ(test, c, "first field", INODE_TIMESTAMP_OFFSET_BEGIN, begin);
	KUNIT_EXPECT_EQ(test, c, "end of the last field", INODE_TIMESTAMP_OFFSET_END, end);
	KUNIT_EXPECT_EQ(test, c, "sum of the fields", INODE_TIMESTAMP_BYTES, bytes);
	KUNIT_EXPECT_EQ(test, c, "no hole between the fields", end - begin, bytes);
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

/*
 * What the representation gives back for @tc: the input within its range
 * [INODE_REPR_MIN, INODE_REPR_MAX]; beyond it, the seconds wrapped as a
 * 32-bit time_t wraps them (the case's narrow_sec) or the value clamped to
 * the nearer end.
 */
static struct timespec64 expected_ts(const struct accessor_case *tc)
{
	const struct timespec64 min = INODE_REPR_MIN, max = INODE_REPR_MAX;
	int below = timespec64_compare(&tc->in, &min) < 0, above = timespec64_compare(&tc->in, &max) > 0;

	if (!below && !above)
		return tc->in;
	if (INODE_REPR_OUT_OF_RANGE_WRAPS)
		return TS(tc->narrow_sec, tc->in.tv_nsec);
	return below ? min : max;
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
		struct timespec64 want = expected_ts(tc);
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

/*
 * The ends of the representation's range come back exactly through every
 * setter; where it clamps, 1 ns beyond either end comes back as that end.
 */
static void test_range(struct kunit *test)
{
	static struct super_block sb;
	const struct timespec64 ends[] = { INODE_REPR_MIN, INODE_REPR_MAX };
	const char *names[] = { "INODE_REPR_MIN", "INODE_REPR_MAX" };
	struct inode *inode = calloc(1, sizeof(*inode));

	if (!inode) {
		KUNIT_EXPECT_TRUE(test, "calloc", inode != NULL);
		return;
	}
	printf("%s on %s: holds {%lld, %ld} .. {%lld, %ld} (tv_sec, tv_nsec)%s\n", INODE_LAYOUT_NAME, INODE_ABI_NAME,
	       (long long)ends[0].tv_sec, ends[0].tv_nsec, (long long)ends[1].tv_sec, ends[1].tv_nsec,
	       ends[0].tv_sec == TIME64_MIN && ends[1].tv_sec == TIME64_MAX ? " (all of timespec64)"
	       : INODE_REPR_OUT_OF_RANGE_WRAPS				    ? ", wraps beyond"
									    : ", clamps beyond");
	sb_init_rfc_defaults(&sb);
	inode_init_always(&sb, inode);
	for (int e = 0; e < 2; e++) {
		struct timespec64 beyond = ends[e];

		inode_set_atime_to_ts(inode, ends[e]);
		inode_set_mtime_to_ts(inode, ends[e]);
		inode_set_ctime_to_ts(inode, ends[e]);
		KUNIT_EXPECT_TS_EQ(test, names[e], "atime", ends[e], inode_get_atime(inode));
		KUNIT_EXPECT_TS_EQ(test, names[e], "mtime", ends[e], inode_get_mtime(inode));
		KUNIT_EXPECT_TS_EQ(test, names[e], "ctime", ends[e], inode_get_ctime(inode));
		KUNIT_EXPECT_EQ(test, names[e], "mtime_sec", ends[e].tv_sec, inode_get_mtime_sec(inode));
		KUNIT_EXPECT_EQ(test, names[e], "mtime_nsec", ends[e].tv_nsec, inode_get_mtime_nsec(inode));
		if (INODE_REPR_OUT_OF_RANGE_WRAPS)
			continue;
		/* 1 ns beyond the end, where a timespec64 can say it. */
		if (e == 0 && beyond.tv_nsec > 0)
			beyond.tv_nsec--;
		else if (e == 0 && beyond.tv_sec > TIME64_MIN)
			beyond = TS(beyond.tv_sec - 1, NSEC_PER_SEC - 1);
		else if (e == 1 && beyond.tv_nsec < NSEC_PER_SEC - 1)
			beyond.tv_nsec++;
		else if (e == 1 && beyond.tv_sec < TIME64_MAX)
			beyond = TS(beyond.tv_sec + 1, 0);
		else
			continue;
		inode_set_mtime_to_ts(inode, beyond);
		KUNIT_EXPECT_TS_EQ(test, names[e], "1 ns beyond: clamped", ends[e], inode_get_mtime(inode));
	}
	free(inode);
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
#if INODE_REPR_HAS_CTIME_QUERIED
	KUNIT_EXPECT_TRUE(test, "queried", inode_ctime_queried(&inode) == 0);
	KUNIT_EXPECT_TS_EQ(test, "queried: fine-grained, one gran later", "returned", TS(1700000000, 123457000), got);
#else
	KUNIT_EXPECT_TS_EQ(test, "no multigrain: same coarse time", "returned", TS(1700000000, 123456000), got);
#endif
	KUNIT_EXPECT_TS_EQ(test, "after second set", "stored", got, inode_get_ctime(&inode));

	/* Not queried, clock not advanced: the value stays, even for multigrain. */
	got = inode_set_ctime_current(&inode);
	KUNIT_EXPECT_TS_EQ(test, "unqueried repeat", "stored", got, inode_get_ctime(&inode));

#if INODE_REPR_HAS_CTIME_QUERIED
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
 * same representation.  On LP64 with the current body, ext4_inode_info
 * matches this host's BTF: vfs_inode at 272, and 504 bytes besides the inode
 * (1120 around the host's 616-byte struct inode, whose vendor i_kept the
 * vanilla v6 body lacks), with 36 bytes of timestamps.
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
#if INODE_ABI_LP64 && INODE_BODY_CURRENT
	KUNIT_EXPECT_EQ(test, "ext4 (host BTF)", "offsetof(vfs_inode)", 272,
			offsetof(struct ext4_inode_info, vfs_inode));
	if (INODE_TIMESTAMP_BYTES == 36)
		KUNIT_EXPECT_EQ(test, "ext4 (host BTF)", "sizeof - sizeof(inode)", 1120 - 616,
				sizeof(struct ext4_inode_info) - sizeof(struct inode));
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
	test_fields(&test);
	test_accessors(&test);
	test_range(&test);
	test_rfc_clamp(&test);
	test_ctime_current(&test);
	test_containers(&test);
	return kunit_finish(&test);
}
