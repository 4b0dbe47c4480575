/* SPDX-License-Identifier: MIT */
/*
 * torn_read.h - the torn-read experiment, shared by tests/torn_read_test.c
 * and bench/torn.c (both compiled once per layout, linked to a
 * layout_<body>_<repr> target): it stands beside what it measures,
 * inode.h's accessors and inode_lockless.h's lockless ones.
 *
 * One writer stores, into the i_mtime of a real struct inode of this layout,
 * a fixed cycle of timestamps that straddle boundaries where many bits of the
 * stored fields change at once; readers load i_mtime the way stat()'s
 * lockless generic_fillattr() does (layouts/inode_lockless.h) and classify
 * each value as one that was stored, or not.
 *
 * The cycle: for each boundary B, pairs (B - 1 - j, NSEC_PER_SEC - 1 - k)
 * then (B + j, k), j = 0..TORN_PAIRS-1, k the pair's number over all
 * boundaries.  Every store thus crosses B (and back) and carries the
 * nanoseconds (999999xxx -> small -> 999999xxx).  Boundaries:
 *   2^32 (2106-02-07): the high 32 bits of tv_sec go 0 -> 1;
 *   0 (1970): the high half goes 0xffffffff -> 0, the low half ~0 -> 0;
 *   2^31 (2038-01-19): the sign of a 32-bit time_t;
 *   1452144973 (2016): an ordinary date, only the sec/nsec carry.
 * Each nsec value is used by exactly one entry, so the nsec a reader sees
 * names the write it came from: a read is consistent iff its tv_sec is that
 * write's tv_sec.  Where tv_nsec is a field of its own (one access), a torn
 * read is then a "sec/nsec mix" when its tv_sec is some other stored
 * tv_sec, or "sec halves mixed" when no write ever stored that tv_sec
 * (possible only when tv_sec is two 32-bit accesses).  Where seconds and
 * nanoseconds are one integer (INODE_REPR_ONE_WORD), a read cannot mix the
 * two: a torn read there is the halves of that 64-bit word from two writes
 * (two 32-bit accesses on ILP32), counted as "sec halves mixed" too.  What
 * counts as stored is what this layout holds after inode_set_mtime_to_ts()
 * and reports with inode_get_mtime() (a 32-bit time_t wraps: that is the
 * y2038 bug, not a torn read).
 */
#ifndef LAYOUTS_TORN_READ_H
#define LAYOUTS_TORN_READ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inode.h"
#include "inode_lockless.h"

#define TORN_PAIRS 256
#define TORN_BOUNDARIES 4
#define TORN_KEYS (TORN_PAIRS * TORN_BOUNDARIES) /* distinct k */
#define TORN_ENTRIES (2 * TORN_KEYS)              /* one cycle of stores */

static const time64_t torn_boundaries[TORN_BOUNDARIES] = {
	INT64_C(1) << 32, /* 2106-02-07T06:28:16Z */
	0,                /* 1970-01-01T00:00:00Z */
	INT64_C(1) << 31, /* 2038-01-19T03:14:08Z */
	1452144973,       /* 2016-01-07, the RFC's week */
};

static const char *const torn_boundary_names[TORN_BOUNDARIES] = {
	"2^32 s (2106)", "0 (1970)", "2^31 s (2038)", "2016 (carry only)",
};

struct torn_table {
	struct timespec64 writes[TORN_ENTRIES]; /* what the writer stores, in order */
	time64_t sec_after[TORN_KEYS];          /* stored tv_sec of the entry with nsec k */
	time64_t sec_before[TORN_KEYS];         /* ... with nsec NSEC_PER_SEC - 1 - k */
	time64_t sorted_secs[TORN_ENTRIES];     /* every stored tv_sec, sorted */
};

enum torn_kind {
	TORN_CONSISTENT,
	TORN_SEC_NSEC_MIXED,    /* both fields real, from different writes */
	TORN_SEC_HALVES_MIXED,  /* halves of two writes' seconds (or one-word value) */
	TORN_NSEC_NEVER_STORED, /* impossible (nsec is one access): detector check */
};

struct torn_counts {
	uint64_t reads, torn, sec_nsec_mixed, sec_halves_mixed, nsec_never_stored;
	uint64_t retries; /* read_seqcount_retry() said "again" */
	uint64_t torn_at[TORN_BOUNDARIES]; /* torn reads by the boundary of the nsec's write */
};

static int torn_compare_sec(const void *a, const void *b)
{
	time64_t x = *(const time64_t *)a, y = *(const time64_t *)b;

	return (x > y) - (x < y);
}

/* What this layout gives back for @ts: store and load through its accessors. */
static inline struct timespec64 torn_as_stored(struct inode *scratch, struct timespec64 ts)
{
	inode_set_mtime_to_ts(scratch, ts);
	return inode_get_mtime(scratch);
}

/** torn_table_init - fill @t (heap: it is ~50 KiB) with the cycle above. */
static inline void torn_table_init(struct torn_table *t)
{
	struct super_block sb = { .s_time_gran = 1 };
	struct inode *scratch = malloc(sizeof(*scratch));
	size_t n = 0;

	if (!scratch)
		abort();
	inode_init_always(&sb, scratch);

	for (int b = 0; b < TORN_BOUNDARIES; b++) {
		for (int j = 0; j < TORN_PAIRS; j++) {
			long k = (long)b * TORN_PAIRS + j;
			struct timespec64 before = { torn_boundaries[b] - 1 - j, NSEC_PER_SEC - 1 - k };
			struct timespec64 after = { torn_boundaries[b] + j, k };

			t->writes[n++] = before;
			t->writes[n++] = after;
			t->sec_before[k] = torn_as_stored(scratch, before).tv_sec;
			t->sec_after[k] = torn_as_stored(scratch, after).tv_sec;
		}
	}
	free(scratch);
	for (int k = 0; k < TORN_KEYS; k++) {
		t->sorted_secs[2 * k] = t->sec_before[k];
		t->sorted_secs[2 * k + 1] = t->sec_after[k];
	}
	qsort(t->sorted_secs, TORN_ENTRIES, sizeof(t->sorted_secs[0]), torn_compare_sec);
}

/**
 * torn_classify - was @ts (as read) ever stored by the writer?
 *
 * O(1) on the consistent path (the nsec names the write); a binary search
 * only for torn values, to tell the two kinds apart.
 */
static inline enum torn_kind torn_classify(const struct torn_table *t, struct timespec64 ts)
{
	time64_t expected;

	if (ts.tv_nsec >= 0 && ts.tv_nsec < TORN_KEYS)
		expected = t->sec_after[ts.tv_nsec];
	else if (ts.tv_nsec < NSEC_PER_SEC && ts.tv_nsec >= NSEC_PER_SEC - TORN_KEYS)
		expected = t->sec_before[NSEC_PER_SEC - 1 - ts.tv_nsec];
	else
		return INODE_REPR_ONE_WORD ? TORN_SEC_HALVES_MIXED : TORN_NSEC_NEVER_STORED;
	if (ts.tv_sec == expected)
		return TORN_CONSISTENT;
	if (INODE_REPR_ONE_WORD)
		return TORN_SEC_HALVES_MIXED;
	if (bsearch(&ts.tv_sec, t->sorted_secs, TORN_ENTRIES, sizeof(t->sorted_secs[0]),
		    torn_compare_sec))
		return TORN_SEC_NSEC_MIXED;
	return TORN_SEC_HALVES_MIXED;
}

/*
 * torn_boundary - the boundary a torn read happened at: the one of the
 * write its nsec names, or, when it names none (a one-word value whose
 * halves come from two writes), the boundary nearest its tv_sec (the
 * writes stay within TORN_PAIRS seconds of theirs, the boundaries are
 * years apart).
 */
static inline int torn_boundary(struct timespec64 ts)
{
	int nearest = 0;

	if (ts.tv_nsec >= 0 && ts.tv_nsec < TORN_KEYS)
		return (int)(ts.tv_nsec / TORN_PAIRS);
	if (ts.tv_nsec < NSEC_PER_SEC && ts.tv_nsec >= NSEC_PER_SEC - TORN_KEYS)
		return (int)((NSEC_PER_SEC - 1 - ts.tv_nsec) / TORN_PAIRS);
	for (int b = 1; b < TORN_BOUNDARIES; b++) {
		/* Unsigned distances: no overflow whatever tv_sec a torn read holds. */
		u64 d = ts.tv_sec > torn_boundaries[b] ? (u64)ts.tv_sec - (u64)torn_boundaries[b]
						       : (u64)torn_boundaries[b] - (u64)ts.tv_sec;
		u64 dn = ts.tv_sec > torn_boundaries[nearest]
				 ? (u64)ts.tv_sec - (u64)torn_boundaries[nearest]
				 : (u64)torn_boundaries[nearest] - (u64)ts.tv_sec;

		if (d < dn)
			nearest = b;
	}
	return nearest;
}

/* torn_check - classify @ts and count it in @c; returns the kind. */
static inline enum torn_kind torn_check(const struct torn_table *t, struct timespec64 ts,
					struct torn_counts *c)
{
	enum torn_kind kind = torn_classify(t, ts);

	c->reads++;
	switch (kind) {
	case TORN_CONSISTENT:
		return kind;
	case TORN_SEC_NSEC_MIXED:
		c->sec_nsec_mixed++;
		break;
	case TORN_SEC_HALVES_MIXED:
		c->sec_halves_mixed++;
		break;
	case TORN_NSEC_NEVER_STORED:
		c->nsec_never_stored++;
		c->torn++;
		return kind;
	}
	c->torn++;
	c->torn_at[torn_boundary(ts)]++;
	return kind;
}

static inline void torn_counts_add(struct torn_counts *sum, const struct torn_counts *c)
{
	sum->reads += c->reads;
	sum->torn += c->torn;
	sum->sec_nsec_mixed += c->sec_nsec_mixed;
	sum->sec_halves_mixed += c->sec_halves_mixed;
	sum->nsec_never_stored += c->nsec_never_stored;
	sum->retries += c->retries;
	for (int b = 0; b < TORN_BOUNDARIES; b++)
		sum->torn_at[b] += c->torn_at[b];
}

/*
 * The shared part: the inode whose i_mtime is written and read, and the
 * seqcount_t of the protected variant.  The kernel has no seqcount for the
 * timestamps (i_size_seqcount on 32-bit SMP is the precedent); this one sits
 * in its own cache line, as a new member away from i_mtime would, so a
 * protected read touches two lines.
 */
struct torn_shared {
	_Alignas(64) seqcount_t seq;
	_Alignas(64) struct inode inode;
};

/* Call before any reader starts: the first value of the cycle, no race. */
static inline void torn_shared_init(struct torn_shared *sh, struct super_block *sb,
				    const struct torn_table *t)
{
	seqcount_init(&sh->seq);
	inode_init_always(sb, &sh->inode);
	inode_lockless_set_mtime(&sh->inode, t->writes[0]);
}

/* One store of the writer (entry @n of the cycle), with or without the seqcount. */
static inline void torn_write(struct torn_shared *sh, const struct torn_table *t, size_t n,
			      int use_seqcount)
{
	if (use_seqcount)
		write_seqcount_begin(&sh->seq);
	inode_lockless_set_mtime(&sh->inode, t->writes[n % TORN_ENTRIES]);
	if (use_seqcount)
		write_seqcount_end(&sh->seq);
}

/* One lockless read (stat's), optionally in a read_seqcount_begin/retry loop. */
static inline struct timespec64 torn_read(const struct torn_shared *sh, int use_seqcount,
					  struct torn_counts *c)
{
	struct timespec64 ts;
	unsigned int seq;

	if (!use_seqcount)
		return inode_lockless_get_mtime(&sh->inode);
	for (;;) {
		seq = read_seqcount_begin(&sh->seq);
		ts = inode_lockless_get_mtime(&sh->inode);
		if (!read_seqcount_retry(&sh->seq, seq))
			return ts;
		c->retries++;
	}
}

#endif /* LAYOUTS_TORN_READ_H */
