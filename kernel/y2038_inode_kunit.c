// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of the y2038 inode timestamp lab: struct inode's a/m/c
 * timestamps in the running kernel, in whichever representation its
 * include/linux/fs.h carries (the lab's hunk defines Y2038_INODE_*; a tree
 * without it is taken as v6.11's discrete integers, "scalar").
 *
 *  y2038_inode_layout  sizeof(struct inode), offset and size of each
 *                      timestamp member, for the host to set beside pahole
 *  y2038_inode_time    the real VFS paths on inodes of a private tmpfs (and
 *                      of tmpfs super blocks given other file systems'
 *                      ranges and granularities), over the edge instants
 *  y2038_inode_slab    slot size, objects per slab and slab bytes per inode
 *                      of shmem_inode_cache and inode_cache, from the slabs
 *                      that hold 10^5 inodes
 *  y2038_inode_timing  per-boot timings of those paths, in blocks
 *                      calibrated to 64 us (UML's clock steps by 256 ns)
 *
 * Figures leave as KTAP diagnostic lines "# y2038: KIND key=value ...", read
 * by the lab's one KTAP reader (scripts/y2038lab/kernel/ktap.py).
 */
#include <kunit/test.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/ktime.h>
#include <linux/mount.h>
#include <linux/namei.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stat.h>
#include <linux/utsname.h>
#include <linux/vmalloc.h>

#ifndef Y2038_INODE_REPR
/* An unpatched v6.11+ tree: discrete time64_t seconds, u32 nanoseconds. */
#define Y2038_INODE_REPR "scalar"
#define Y2038_INODE_MEMBERS(X) X(i_atime_sec) X(i_mtime_sec) X(i_ctime_sec) \
	X(i_atime_nsec) X(i_mtime_nsec) X(i_ctime_nsec) X(i_generation)
#define Y2038_INODE_TIME_MIN_SEC TIME64_MIN
#define Y2038_INODE_TIME_MAX_SEC TIME64_MAX
#define Y2038_INODE_TIME_FLOOR ((struct timespec64){ TIME64_MIN, 0 })
#define Y2038_INODE_TIME_CEIL ((struct timespec64){ TIME64_MAX, NSEC_PER_SEC - 1 })
#define Y2038_INODE_TIME_WRAPS 0
#endif

#define Y2038_SLAB_INODES 100000
#define Y2038_BLOCK_NS (64 * NSEC_PER_USEC)
#define Y2038_TIMING_BLOCKS 301

/* ---- a private tmpfs, and a ramfs for inodes of the generic inode_cache ---- */

static struct vfsmount *y2038_mount(struct kunit *test, const char *fstype)
{
	struct file_system_type *type = get_fs_type(fstype);
	struct vfsmount *mnt;

	KUNIT_ASSERT_NOT_NULL_MSG(test, type, "no file system type %s", fstype);
	mnt = kern_mount(type);
	module_put(type->owner);	/* get_fs_type()'s reference; the mount holds its own */
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mnt), "kern_mount(%s): %ld", fstype, PTR_ERR(mnt));
	return mnt;
}

KUNIT_DEFINE_ACTION_WRAPPER(y2038_kern_unmount, kern_unmount, struct vfsmount *);
KUNIT_DEFINE_ACTION_WRAPPER(y2038_fput, fput, struct file *);
KUNIT_DEFINE_ACTION_WRAPPER(y2038_kvfree, kvfree, const void *);

static void *y2038_kvzalloc(struct kunit *test, size_t size)
{
	void *p = kvzalloc(size, GFP_KERNEL);

	if (p && kunit_add_action_or_reset(test, y2038_kvfree, p))
		return NULL;
	return p;
}

/* A regular file on a tmpfs of the test's own, unmounted when the test ends. */
static struct file *y2038_tmpfs_file(struct kunit *test, struct vfsmount **mntp)
{
	struct vfsmount *mnt = y2038_mount(test, "tmpfs");
	struct file *file;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, y2038_kern_unmount, mnt));
	file = shmem_file_setup_with_mnt(mnt, "y2038", 0, 0);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(file), "shmem_file_setup: %ld", PTR_ERR(file));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, y2038_fput, file));
	if (mntp)
		*mntp = mnt;
	return file;
}

/* ---------------------------------- layout ---------------------------------- */

/* Each timestamp member the tree's representation declares, with i_generation. */
#define Y2038_MEMBER(m) { #m, offsetof(struct inode, m), sizeof_field(struct inode, m) },
static const struct {
	const char *name;
	size_t offset, size;
} y2038_members[] = { Y2038_INODE_MEMBERS(Y2038_MEMBER) };
#undef Y2038_MEMBER

static void y2038_layout_test(struct kunit *test)
{
	size_t i;

	kunit_info(test, "y2038: layout repr=%s machine=%s bits_per_long=%d sizeof_inode=%zu sizeof_shmem_inode_info=%zu first=%zu end=%zu\n",
		   Y2038_INODE_REPR, init_utsname()->machine, BITS_PER_LONG,
		   sizeof(struct inode), sizeof(struct shmem_inode_info),
		   offsetof(struct inode, i_rdev), offsetof(struct inode, i_lock));
	for (i = 0; i < ARRAY_SIZE(y2038_members); i++)
		kunit_info(test, "y2038: member name=%s offset=%zu size=%zu\n", y2038_members[i].name,
			   y2038_members[i].offset, y2038_members[i].size);
	KUNIT_EXPECT_GT(test, sizeof(struct inode), (size_t)0);
}

/* ------------------------------- correctness -------------------------------- */

struct y2038_edge {
	const char *name;
	time64_t sec;
	long nsec;
};

/* The lab's edge instants; each runs with nsec 0 and 999999999. */
static const struct y2038_edge y2038_edges[] = {
	{ "time64 min", TIME64_MIN },
	{ "1677 ktime floor - 1 s", KTIME_SEC_MIN - 1 },
	{ "1901-12-13 s32 min", S32_MIN },
	{ "1969-12-31 last second before the epoch", -1 },
	{ "1970-01-01 epoch", 0 },
	{ "2038-01-19 s32 max", S32_MAX },
	{ "2038-01-19 s32 max + 1", (time64_t)S32_MAX + 1 },
	{ "2106-02-07 u32 max", U32_MAX },
	{ "2106-02-07 u32 max + 1", (time64_t)U32_MAX + 1 },
	{ "2262-04-11 ktime ceiling - 1 s", KTIME_SEC_MAX - 1 },
	{ "2262-04-11 ktime ceiling", KTIME_SEC_MAX },
	{ "2446-05-10 ext4 max", 0x3ffffffffLL + S32_MIN },
	{ "2486-07-02 xfs bigtime max", 16299260424LL },
	{ "time64 max", TIME64_MAX },
};

#define Y2038_NR_EDGES (2 * ARRAY_SIZE(y2038_edges))

static struct y2038_edge y2038_edge_at(size_t i)
{
	struct y2038_edge e = y2038_edges[i / 2];

	e.nsec = (i & 1) ? NSEC_PER_SEC - 1 : 0;
	return e;
}

/* A parameter is a pointer into this array: its index is the edge's. */
static const u8 y2038_edge_idx[Y2038_NR_EDGES];

static const void *y2038_edge_gen(const void *prev, char *desc)
{
	const u8 *p = prev;
	size_t i = p ? (size_t)(p - y2038_edge_idx) + 1 : 0;
	struct y2038_edge e;

	if (i >= Y2038_NR_EDGES)
		return NULL;
	e = y2038_edge_at(i);
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s, nsec %ld", e.name, e.nsec);
	return &y2038_edge_idx[i];
}

static size_t y2038_edge_index(struct kunit *test)
{
	return (const u8 *)test->param_value - y2038_edge_idx;
}

/*
 * What this representation stores for @ts (tv_nsec in 0..NSEC_PER_SEC-1):
 * @ts itself within the instants it holds exactly, else its documented
 * floor or ceiling, or on a wrapping time_t the seconds cut to 32 bits.
 * @how says which, for the KTAP line.
 */
static struct timespec64 y2038_expected(struct timespec64 ts, const char **how)
{
	if (ts.tv_sec >= Y2038_INODE_TIME_MIN_SEC && ts.tv_sec <= Y2038_INODE_TIME_MAX_SEC) {
		*how = "exact";
		return ts;
	}
	if (Y2038_INODE_TIME_WRAPS) {
		*how = "wrapped";
		ts.tv_sec = (s32)(u32)(u64)ts.tv_sec;
		return ts;
	}
	*how = "clamped";
	return ts.tv_sec < Y2038_INODE_TIME_MIN_SEC ? Y2038_INODE_TIME_FLOOR : Y2038_INODE_TIME_CEIL;
}

#define Y2038_EXPECT_TS(test, what, got, want, e) \
	KUNIT_EXPECT_TRUE_MSG(test, timespec64_equal(&(got), &(want)), \
			      "%s, %s: got %lld.%09ld, want %lld.%09ld", (e).name, what, \
			      (long long)(got).tv_sec, (got).tv_nsec, (long long)(want).tv_sec, (want).tv_nsec)

/* The accessors: what goes in through each setter comes out of each getter. */
static void y2038_accessor_test(struct kunit *test)
{
	struct y2038_edge e = y2038_edge_at(y2038_edge_index(test));
	struct inode *inode = file_inode(y2038_tmpfs_file(test, NULL));
	struct timespec64 ts = { .tv_sec = e.sec, .tv_nsec = e.nsec }, want, got;
	const char *how;

	want = y2038_expected(ts, &how);
	inode_set_atime_to_ts(inode, ts);
	inode_set_mtime(inode, ts.tv_sec, ts.tv_nsec);
	inode_set_ctime_to_ts(inode, ts);
	got = inode_get_atime(inode);
	Y2038_EXPECT_TS(test, "atime", got, want, e);
	got = inode_get_mtime(inode);
	Y2038_EXPECT_TS(test, "mtime", got, want, e);
	got = inode_get_ctime(inode);
	Y2038_EXPECT_TS(test, "ctime", got, want, e);
#ifdef I_CTIME_QUERIED
	/* v6.13's queried flag in bit 31 of i_ctime_nsec: the getters never show it. */
	inode->i_ctime_nsec |= I_CTIME_QUERIED;
	got = inode_get_ctime(inode);
	Y2038_EXPECT_TS(test, "ctime with I_CTIME_QUERIED set", got, want, e);
	inode_set_ctime_to_ts(inode, ts);
#endif
	KUNIT_EXPECT_EQ_MSG(test, inode_get_mtime_sec(inode), want.tv_sec, "%s: mtime_sec", e.name);
	KUNIT_EXPECT_EQ_MSG(test, inode_get_mtime_nsec(inode), want.tv_nsec, "%s: mtime_nsec", e.name);
	kunit_info(test, "y2038: stored case=\"%s, nsec %ld\" how=%s sec=%lld nsec=%ld\n",
		   e.name, e.nsec, how, (long long)got.tv_sec, got.tv_nsec);
}

/* generic_fillattr(): stat's kstat gives what the getters give. */
static void y2038_fillattr_test(struct kunit *test)
{
	struct y2038_edge e = y2038_edge_at(y2038_edge_index(test));
	struct inode *inode = file_inode(y2038_tmpfs_file(test, NULL));
	struct timespec64 ts = { .tv_sec = e.sec, .tv_nsec = e.nsec }, want;
	struct kstat stat = { 0 };
	const char *how;

	want = y2038_expected(ts, &how);
	inode_set_atime_to_ts(inode, ts);
	inode_set_mtime_to_ts(inode, ts);
	inode_set_ctime_to_ts(inode, ts);
	generic_fillattr(&nop_mnt_idmap, STATX_BASIC_STATS, inode, &stat);
	Y2038_EXPECT_TS(test, "kstat.atime", stat.atime, want, e);
	Y2038_EXPECT_TS(test, "kstat.mtime", stat.mtime, want, e);
	Y2038_EXPECT_TS(test, "kstat.ctime", stat.ctime, want, e);
}

/*
 * inode_update_timestamps() and atime_needs_update() from a stored edge
 * instant: all three become the current time (the edge is never "now"), and
 * afterwards the atime is current.
 */
static void y2038_update_test(struct kunit *test)
{
	struct y2038_edge e = y2038_edge_at(y2038_edge_index(test));
	struct vfsmount *mnt;
	struct file *file = y2038_tmpfs_file(test, &mnt);
	struct inode *inode = file_inode(file);
	struct timespec64 ts = { .tv_sec = e.sec, .tv_nsec = e.nsec }, a, m, c, before, after;
	int updated;

	inode_set_atime_to_ts(inode, ts);
	inode_set_mtime_to_ts(inode, ts);
	inode_set_ctime_to_ts(inode, ts);
#if IS_BUILTIN(CONFIG_Y2038_INODE_KUNIT_TEST)
	KUNIT_EXPECT_TRUE_MSG(test, atime_needs_update(&file->f_path, inode),
			      "%s: an atime at the edge is not current", e.name);
#else
	kunit_info(test, "y2038: skipped check=atime_needs_update why=\"not exported to modules\"\n");
#endif
	before = current_time(inode);
	updated = inode_update_timestamps(inode, S_ATIME | S_MTIME | S_CTIME);
	after = current_time(inode);
	KUNIT_EXPECT_EQ_MSG(test, updated & (S_ATIME | S_MTIME | S_CTIME), S_ATIME | S_MTIME | S_CTIME,
			    "%s: flags updated", e.name);
	a = inode_get_atime(inode);
	m = inode_get_mtime(inode);
	c = inode_get_ctime(inode);
	Y2038_EXPECT_TS(test, "mtime = ctime", m, c, e);
	Y2038_EXPECT_TS(test, "atime = ctime", a, c, e);
	/* "now" by the kernel's own clock (kunit's arm config has no RTC driver: 1970) */
	KUNIT_EXPECT_TRUE_MSG(test, timespec64_compare(&c, &before) >= 0 && timespec64_compare(&c, &after) <= 0,
			      "%s: ctime %lld.%09ld not between %lld and %lld", e.name, (long long)c.tv_sec,
			      c.tv_nsec, (long long)before.tv_sec, (long long)after.tv_sec);
#if IS_BUILTIN(CONFIG_Y2038_INODE_KUNIT_TEST)
	/* A clock tick between setting and asking makes "now" move on: retry. */
	for (updated = 0; updated < 3; updated++) {
		inode_set_atime_to_ts(inode, current_time(inode));
		if (!atime_needs_update(&file->f_path, inode))
			break;
	}
	KUNIT_EXPECT_LT_MSG(test, updated, 3, "%s: an atime just set is never current", e.name);
#endif
	/* file_update_time(): a write's mtime/ctime update from the edge. */
	inode_set_mtime_to_ts(inode, ts);
	inode_set_ctime_to_ts(inode, ts);
	before = current_time(inode);
	KUNIT_EXPECT_EQ_MSG(test, file_update_time(file), 0, "%s: file_update_time", e.name);
	after = current_time(inode);
	m = inode_get_mtime(inode);
	c = inode_get_ctime(inode);
	Y2038_EXPECT_TS(test, "file_update_time: mtime = ctime", m, c, e);
	KUNIT_EXPECT_TRUE_MSG(test, timespec64_compare(&c, &before) >= 0 && timespec64_compare(&c, &after) <= 0,
			      "%s: file_update_time: ctime %lld not between %lld and %lld", e.name,
			      (long long)c.tv_sec, (long long)before.tv_sec, (long long)after.tv_sec);
}

/* A file system's limits, set on the test's own tmpfs super block. */
struct y2038_fs_range {
	const char *name;
	time64_t min, max;
	u32 gran;
};

static const struct y2038_fs_range y2038_ranges[] = {
	{ "tmpfs", TIME64_MIN, TIME64_MAX, 1 },
	{ "ext4 (256-byte inode)", S32_MIN, 0x3ffffffffLL + S32_MIN, 1 },
	{ "xfs (legacy)", S32_MIN, S32_MAX, 1 },
	{ "fat (the VFS part: 1 s)", 315532800, 4354819198LL, NSEC_PER_SEC },
	{ "ntfs/cifs (100 ns)", -11644473600LL, 910692730085LL, 100 },
	{ "2016 RFC default (0..INT_MAX)", 0, S32_MAX, 1 },
};

/*
 * timestamp_truncate() and inode_set_ctime_current() under each range: the
 * truncated edge is clamped to the range and rounded down to the
 * granularity, then stored; the representation keeps what it can.
 */
static void y2038_truncate_test(struct kunit *test)
{
	struct vfsmount *mnt;
	struct inode *inode = file_inode(y2038_tmpfs_file(test, &mnt));
	struct super_block *sb = mnt->mnt_sb;
	size_t r, i;

	for (r = 0; r < ARRAY_SIZE(y2038_ranges); r++) {
		const struct y2038_fs_range *fs = &y2038_ranges[r];
		struct timespec64 now, got;

		sb->s_time_min = fs->min;
		sb->s_time_max = fs->max;
		sb->s_time_gran = fs->gran;
		for (i = 0; i < Y2038_NR_EDGES; i++) {
			struct y2038_edge e = y2038_edge_at(i);
			struct timespec64 ts = { .tv_sec = e.sec, .tv_nsec = e.nsec };
			struct timespec64 want = ts, t;
			const char *how;

			/* At either end of the range (clamped or not) the nsec is 0. */
			want.tv_sec = clamp(want.tv_sec, fs->min, fs->max);
			if (want.tv_sec == fs->min || want.tv_sec == fs->max || fs->gran == NSEC_PER_SEC)
				want.tv_nsec = 0;
			else
				want.tv_nsec -= want.tv_nsec % fs->gran;
			t = timestamp_truncate(ts, inode);
			KUNIT_EXPECT_TRUE_MSG(test, timespec64_equal(&t, &want),
					      "%s, %s, nsec %ld: timestamp_truncate %lld.%09ld, want %lld.%09ld",
					      fs->name, e.name, e.nsec, (long long)t.tv_sec, t.tv_nsec,
					      (long long)want.tv_sec, want.tv_nsec);
			want = y2038_expected(t, &how);
			inode_set_mtime_to_ts(inode, t);
			got = inode_get_mtime(inode);
			KUNIT_EXPECT_TRUE_MSG(test, timespec64_equal(&got, &want),
					      "%s, %s, nsec %ld: stored %lld.%09ld, want %lld.%09ld (%s)",
					      fs->name, e.name, e.nsec, (long long)got.tv_sec, got.tv_nsec,
					      (long long)want.tv_sec, want.tv_nsec, how);
		}
		now = inode_set_ctime_current(inode);
		got = inode_get_ctime(inode);
		KUNIT_EXPECT_TRUE_MSG(test, timespec64_equal(&got, &now),
				      "%s: inode_set_ctime_current stored %lld.%09ld, returned %lld.%09ld",
				      fs->name, (long long)got.tv_sec, got.tv_nsec,
				      (long long)now.tv_sec, now.tv_nsec);
		KUNIT_EXPECT_EQ_MSG(test, now.tv_nsec % (long)fs->gran, 0L, "%s: granularity", fs->name);
	}
}

static struct kunit_case y2038_time_cases[] = {
	KUNIT_CASE_PARAM(y2038_accessor_test, y2038_edge_gen),
	KUNIT_CASE_PARAM(y2038_fillattr_test, y2038_edge_gen),
	KUNIT_CASE_PARAM(y2038_update_test, y2038_edge_gen),
	KUNIT_CASE(y2038_truncate_test),
	{}
};

/* ----------------------------------- slab ----------------------------------- */

struct y2038_slab_param {
	const char *cache;	/* the cache, as /proc/slabinfo names it */
	const char *fstype;	/* whose inodes come from it */
};

static const struct y2038_slab_param y2038_slab_params[] = {
	{ "shmem_inode_cache", "tmpfs" },
	{ "inode_cache", "ramfs" },
};

static void y2038_slab_desc(const struct y2038_slab_param *p, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", p->cache);
}

KUNIT_ARRAY_PARAM(y2038_slab, y2038_slab_params, y2038_slab_desc);

static int y2038_cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/*
 * 10^5 inodes of the cache, allocated and held, and the slabs that hold
 * them, found from each object's own folio: the slab bytes per inode (every
 * distinct slab's size over the inodes), the objects in the fullest slab
 * (objects per slab), its pages, and ksize() (the slot each object takes).
 * tmpfs inodes come from the super block's ->alloc_inode() (shmem_inode_info
 * in shmem_inode_cache, nothing else allocated) and go back by
 * ->free_inode(); ramfs has neither, so its new_inode()s come from the
 * generic inode_cache.
 */
static void y2038_slab_test(struct kunit *test)
{
	const struct y2038_slab_param *p = test->param_value;
	struct vfsmount *mnt = y2038_mount(test, p->fstype);
	struct super_block *sb = mnt->mnt_sb;
	bool tmpfs = !strcmp(p->fstype, "tmpfs");
	long i, n = Y2038_SLAB_INODES, slabs = 0, most = 0, run = 0;
	unsigned long *slab, bytes = 0, pages = 0;
	struct inode **inodes;
	size_t slot;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, y2038_kern_unmount, mnt));
	KUNIT_ASSERT_TRUE(test, !tmpfs || (sb->s_op->alloc_inode && sb->s_op->free_inode));
	inodes = y2038_kvzalloc(test, n * sizeof(*inodes));
	slab = y2038_kvzalloc(test, n * sizeof(*slab));
	KUNIT_ASSERT_NOT_NULL(test, inodes);
	KUNIT_ASSERT_NOT_NULL(test, slab);
	for (i = 0; i < n; i++) {
		inodes[i] = tmpfs ? sb->s_op->alloc_inode(sb) : new_inode(sb);
		if (!inodes[i])
			break;
		slab[i] = (unsigned long)virt_to_folio(tmpfs ? (void *)SHMEM_I(inodes[i]) : inodes[i]);
	}
	n = i;
	slot = n ? ksize(tmpfs ? (void *)SHMEM_I(inodes[0]) : inodes[0]) : 0;
	sort(slab, n, sizeof(*slab), y2038_cmp_ulong, NULL);
	for (i = 0; i < n; i++) {
		run = (i && slab[i] == slab[i - 1]) ? run + 1 : 1;
		most = max(most, run);
		if (run == 1) {
			struct folio *folio = (struct folio *)slab[i];

			slabs++;
			bytes += folio_size(folio);
			pages = max_t(unsigned long, pages, folio_nr_pages(folio));
		}
	}
	for (i = 0; i < n; i++) {
		if (tmpfs) {
			inodes[i]->i_mode = 0;	/* not a symlink: no i_link to free */
			sb->s_op->free_inode(inodes[i]);
		} else {
			iput(inodes[i]);
		}
	}
	KUNIT_ASSERT_EQ_MSG(test, n, (long)Y2038_SLAB_INODES, "allocated only %ld inodes", n);
	kunit_info(test, "y2038: slab cache=%s inodes=%ld object_size=%zu ksize=%zu objperslab=%ld pagesperslab=%lu page_size=%lu slabs=%ld slab_bytes=%lu\n",
		   p->cache, n, tmpfs ? sizeof(struct shmem_inode_info) : sizeof(struct inode),
		   slot, most, pages, PAGE_SIZE, slabs, bytes);
	KUNIT_EXPECT_GE(test, slot, tmpfs ? sizeof(struct shmem_inode_info) : sizeof(struct inode));
	KUNIT_EXPECT_GE(test, bytes, (unsigned long)n * slot);
}

static struct kunit_case y2038_slab_cases[] = {
	KUNIT_CASE_PARAM(y2038_slab_test, y2038_slab_gen_params),
	{}
};

/* ---------------------------------- timing ---------------------------------- */

/*
 * Each path runs over a small ring of inodes on the test's tmpfs, as many
 * operations a block as fit in Y2038_BLOCK_NS (calibrated once), and a
 * block's time per operation is one sample; the median of the boot's samples
 * is its figure.  The positive control "generic_fillattr_x17" runs 17 calls
 * for every 16 it counts: 1.0625 times generic_fillattr, alternated with it
 * block by block within the boot (a path of some nanoseconds: the getter's
 * one-cycle loop moves with the host CPU's state from block to block).  Results are summed into a sink the
 * compiler cannot drop.
 */
#define Y2038_RING 8

struct y2038_timing {
	struct inode *inode[Y2038_RING];
	struct file *file;
	struct kstat stat;
	u64 sink;
};

typedef void (*y2038_op_fn)(struct y2038_timing *t, unsigned long n);

static noinline void y2038_op_get_mtime(struct y2038_timing *t, unsigned long n)
{
	unsigned long i;
	u64 s = 0;

	for (i = 0; i < n; i++) {
		struct timespec64 ts = inode_get_mtime(t->inode[i % Y2038_RING]);

		s += ts.tv_sec ^ ts.tv_nsec;
		barrier();
	}
	t->sink += s;
}

static noinline void y2038_op_set_mtime(struct y2038_timing *t, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++) {
		struct timespec64 ts = { .tv_sec = 1700000000 + i, .tv_nsec = i & 0x3fffffff };

		inode_set_mtime_to_ts(t->inode[i % Y2038_RING], ts);
		barrier();
	}
}

static noinline void y2038_op_fillattr(struct y2038_timing *t, unsigned long n);

/*
 * The positive control: 16 and 17 generic_fillattr() calls for every 16
 * counted, both through a wrapper of the same shape.
 */
static noinline void y2038_op_fillattr_x16(struct y2038_timing *t, unsigned long n)
{
	y2038_op_fillattr(t, n);
}

static noinline void y2038_op_fillattr_x17(struct y2038_timing *t, unsigned long n)
{
	y2038_op_fillattr(t, n + n / 16);
}

static noinline void y2038_op_set_ctime_current(struct y2038_timing *t, unsigned long n)
{
	unsigned long i;
	u64 s = 0;

	for (i = 0; i < n; i++)
		s += inode_set_ctime_current(t->inode[i % Y2038_RING]).tv_nsec;
	t->sink += s;
}

static noinline void y2038_op_fillattr(struct y2038_timing *t, unsigned long n)
{
	unsigned long i;
	u64 s = 0;

	for (i = 0; i < n; i++) {
		generic_fillattr(&nop_mnt_idmap, STATX_BASIC_STATS, t->inode[i % Y2038_RING], &t->stat);
		s += t->stat.mtime.tv_nsec;
	}
	t->sink += s;
}

static noinline void y2038_op_update_timestamps(struct y2038_timing *t, unsigned long n)
{
	unsigned long i;
	u64 s = 0;

	for (i = 0; i < n; i++)
		s += inode_update_timestamps(t->inode[i % Y2038_RING], S_ATIME | S_MTIME | S_CTIME);
	t->sink += s;
}

static noinline void y2038_op_truncate(struct y2038_timing *t, unsigned long n)
{
	unsigned long i;
	u64 s = 0;

	for (i = 0; i < n; i++) {
		struct timespec64 ts = { .tv_sec = 1700000000 + i, .tv_nsec = (i * 7919) % NSEC_PER_SEC };

		ts = timestamp_truncate(ts, t->inode[i % Y2038_RING]);
		s += ts.tv_nsec;
	}
	t->sink += s;
}

struct y2038_path {
	const char *name;
	y2038_op_fn op;
};

static const struct y2038_path y2038_paths[] = {
	{ "get_mtime", y2038_op_get_mtime },
	{ "set_mtime", y2038_op_set_mtime },
	{ "set_ctime_current", y2038_op_set_ctime_current },
	{ "generic_fillattr", y2038_op_fillattr },
	{ "inode_update_timestamps", y2038_op_update_timestamps },
	{ "timestamp_truncate", y2038_op_truncate },
};

static u64 y2038_block(struct y2038_timing *t, y2038_op_fn op, unsigned long n)
{
	u64 start = ktime_get_ns();

	op(t, n);
	return ktime_get_ns() - start;
}

/* Operations a block: doubled until one block takes Y2038_BLOCK_NS. */
static unsigned long y2038_calibrate(struct y2038_timing *t, y2038_op_fn op)
{
	unsigned long n = 16;

	while (y2038_block(t, op, n) < Y2038_BLOCK_NS && n < (1UL << 28))
		n *= 2;
	return n;
}

static int y2038_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static u64 y2038_median(u64 *v, size_t n)
{
	sort(v, n, sizeof(*v), y2038_cmp_u64, NULL);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void y2038_timing_setup(struct kunit *test, struct y2038_timing *t)
{
	struct vfsmount *mnt = y2038_mount(test, "tmpfs");
	int i;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, y2038_kern_unmount, mnt));
	for (i = 0; i < Y2038_RING; i++) {
		struct file *f = shmem_file_setup_with_mnt(mnt, "y2038", 0, 0);

		KUNIT_ASSERT_FALSE(test, IS_ERR(f));
		KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, y2038_fput, f));
		t->inode[i] = file_inode(f);
	}
}

/* One line per path: the boot's median time per operation, in ps. */
static void y2038_timing_test(struct kunit *test)
{
	struct y2038_timing *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	u64 *v = kunit_kmalloc_array(test, 2 * Y2038_TIMING_BLOCKS, sizeof(u64), GFP_KERNEL);
	size_t p, b;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, v);
	y2038_timing_setup(test, t);
	for (p = 0; p < ARRAY_SIZE(y2038_paths); p++) {
		const struct y2038_path *path = &y2038_paths[p];
		unsigned long n = y2038_calibrate(t, path->op);

		for (b = 0; b < Y2038_TIMING_BLOCKS; b++)
			v[b] = div64_u64(y2038_block(t, path->op, n) * 1000, n);
		kunit_info(test, "y2038: time path=%s ps_per_op=%llu ops_per_block=%lu blocks=%d\n",
			   path->name, y2038_median(v, Y2038_TIMING_BLOCKS), n, Y2038_TIMING_BLOCKS);
	}
	/* Positive control: 17 against 16 units, alternated (AB, then BA). */
	{
		unsigned long n = y2038_calibrate(t, y2038_op_fillattr);
		u64 *r = v + Y2038_TIMING_BLOCKS, ta, tb;

		for (b = 0; b < Y2038_TIMING_BLOCKS; b++) {
			u64 a, x;

			if (b & 1) {
				x = y2038_block(t, y2038_op_fillattr_x17, n);
				a = y2038_block(t, y2038_op_fillattr_x16, n);
			} else {
				a = y2038_block(t, y2038_op_fillattr_x16, n);
				x = y2038_block(t, y2038_op_fillattr_x17, n);
			}
			r[b] = div64_u64(x * 1000000, a ?: 1);
			v[b] = a;
		}
		ta = y2038_median(v, Y2038_TIMING_BLOCKS);
		tb = y2038_median(r, Y2038_TIMING_BLOCKS);
		kunit_info(test, "y2038: pair a=generic_fillattr b=generic_fillattr_x17 ratio_ppm=%llu true_ppm=1062500 a_ns_per_block=%llu ops_per_block=%lu blocks=%d\n",
			   tb, ta, n, Y2038_TIMING_BLOCKS);
	}
	KUNIT_EXPECT_NE(test, t->sink, 0ULL);
}

static struct kunit_case y2038_timing_cases[] = {
	KUNIT_CASE_SLOW(y2038_timing_test),
	{}
};

static struct kunit_case y2038_layout_cases[] = {
	KUNIT_CASE(y2038_layout_test),
	{}
};

static struct kunit_suite y2038_inode_layout_suite = {
	.name = "y2038_inode_layout",
	.test_cases = y2038_layout_cases,
};

static struct kunit_suite y2038_inode_time_suite = {
	.name = "y2038_inode_time",
	.test_cases = y2038_time_cases,
};

static struct kunit_suite y2038_inode_slab_suite = {
	.name = "y2038_inode_slab",
	.test_cases = y2038_slab_cases,
};

static struct kunit_suite y2038_inode_timing_suite = {
	.name = "y2038_inode_timing",
	.test_cases = y2038_timing_cases,
};

kunit_test_suites(&y2038_inode_layout_suite, &y2038_inode_time_suite,
		  &y2038_inode_slab_suite, &y2038_inode_timing_suite);

MODULE_DESCRIPTION("y2038 inode timestamp lab: struct inode timestamps in a real kernel");
MODULE_LICENSE("GPL");
