// SPDX-License-Identifier: MIT
/*
 * torn_read_test.c - torn timestamp reads, compiled once per layout (v6 body
 * x every representation) and run on every ABI, natively or under qemu-user.
 *
 * Deterministic checks first: the detector of layouts/torn_read.h classifies
 * every stored value as consistent and hand-made mixes as torn; the lockless
 * accessors of layouts/inode_lockless.h agree with the layout's own; the
 * seqcount_t model counts as the kernel's does.  Then the experiment: one
 * writer stores Y2038_TORN_WRITES (default 2^22) values into i_mtime while
 * one reader per spare CPU (at least one) loads it, without and with a
 * seqcount.  Asserted: the seqcount variant sees no torn read.  Printed, not
 * asserted: how many the unprotected variant saw (on two noisy cores it may
 * see none in a run).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kunit.h"
#include "torn_read.h"

#define TS(s, ns) ((struct timespec64){ .tv_sec = (s), .tv_nsec = (ns) })

struct detector_case {
	const char *name;
	struct timespec64 read;
	enum torn_kind kind;
	bool kind_exact; /* false: only "not consistent" (the kind depends on the ABI) */
	bool sec64_only; /* a torn value only where tv_sec holds 64 bits */
};

/* A 32-bit time_t (timespec on ILP32) stores 2^32 + j as j. */
#define STORED_SEC_HOLDS_2_32 (INODE_REPR_MAX.tv_sec >= (INT64_C(1) << 32))

/* k of the first pair at boundary 0 (1970): (-1, NSEC_PER_SEC-1-k), (0, k). */
#define K_EPOCH TORN_PAIRS

static const struct detector_case detector_cases[] = {
	{ .name = "sec of (2^32-1, 999999999), nsec of (2^32, 0): sec/nsec mix",
	  .read = TS((INT64_C(1) << 32) - 1, 0), .kind = TORN_SEC_NSEC_MIXED, .kind_exact = false },
	{ .name = "sec of (2^32, 0), nsec of (2^32-1, 999999999): sec/nsec mix",
	  .read = TS(INT64_C(1) << 32, NSEC_PER_SEC - 1), .kind = TORN_SEC_NSEC_MIXED,
	  .kind_exact = false },
	{ .name = "low half of 0, high half of -1: -2^32 was never stored",
	  .read = TS(-(INT64_C(1) << 32), K_EPOCH), .kind = TORN_SEC_HALVES_MIXED, .kind_exact = true },
	{ .name = "low half of 2^32 (0), high half of 2^32-1 (0): 0 with 2^32's nsec",
	  .read = TS(0, 0), .kind = TORN_SEC_NSEC_MIXED, .kind_exact = false, .sec64_only = true },
	{ .name = "low half of -1, high half of 0: 2^32-1 with 0's nsec",
	  .read = TS((INT64_C(1) << 32) - 1, K_EPOCH), .kind = TORN_SEC_NSEC_MIXED, .kind_exact = false },
	{ .name = "2016 carry: sec of the earlier write, nsec of the later",
	  .read = TS(1452144973 - 1, 3 * TORN_PAIRS), .kind = TORN_SEC_NSEC_MIXED, .kind_exact = true },
	{ .name = "nsec 500000000 was never stored", .read = TS(0, 500000000),
	  .kind = TORN_NSEC_NEVER_STORED, .kind_exact = true },
	{ .name = "negative nsec was never stored", .read = TS(0, -1),
	  .kind = TORN_NSEC_NEVER_STORED, .kind_exact = true },
};

static void test_detector(struct kunit *test, const struct torn_table *t)
{
	struct super_block sb = { .s_time_gran = 1 };
	struct inode *scratch = malloc(sizeof(*scratch));
	unsigned long consistent = 0;

	if (!scratch)
		abort();
	inode_init_always(&sb, scratch);
	for (size_t n = 0; n < TORN_ENTRIES; n++)
		consistent += torn_classify(t, torn_as_stored(scratch, t->writes[n])) == TORN_CONSISTENT;
	KUNIT_EXPECT_EQ(test, "every stored value", "classified consistent", TORN_ENTRIES, consistent);
	free(scratch);

	for (size_t i = 0; i < ARRAY_SIZE(detector_cases); i++) {
		const struct detector_case *tc = &detector_cases[i];
		enum torn_kind kind = torn_classify(t, tc->read);

		if (tc->sec64_only && !STORED_SEC_HOLDS_2_32)
			continue;
		KUNIT_EXPECT_TRUE(test, tc->name, kind != TORN_CONSISTENT);
		/* One word: any torn value is that word's halves from two writes. */
		if (INODE_REPR_ONE_WORD)
			KUNIT_EXPECT_EQ(test, tc->name, "kind (one word)", TORN_SEC_HALVES_MIXED, kind);
		else if (tc->kind_exact)
			KUNIT_EXPECT_EQ(test, tc->name, "kind", tc->kind, kind);
	}
}

/*
 * The lockless accessors against the layout's own, both directions, for
 * every value of the cycle and for mtime and ctime (multigrain: a queried
 * flag is masked on load and cleared by a store, as with the accessors).
 */
static void test_lockless_accessors(struct kunit *test, const struct torn_table *t)
{
	struct super_block sb = { .s_time_gran = 1 };
	struct inode *inode = malloc(sizeof(*inode));
	unsigned long agree = 0;

	if (!inode)
		abort();
	inode_init_always(&sb, inode);
	for (size_t n = 0; n < TORN_ENTRIES; n++) {
		struct timespec64 ts = t->writes[n], want, got;

		inode_set_mtime_to_ts(inode, ts);
		want = inode_get_mtime(inode);
		got = inode_lockless_get_mtime(inode);
		agree += timespec64_equal(&want, &got);

		inode_lockless_set_mtime(inode, TS(0, 0));
		inode_lockless_set_mtime(inode, ts);
		got = inode_get_mtime(inode);
		agree += timespec64_equal(&want, &got);

		inode_lockless_set_ctime(inode, ts);
		inode_ctime_mark_queried(inode);
		got = inode_lockless_get_ctime(inode);
		agree += timespec64_equal(&want, &got);
		want = inode_get_ctime(inode);
		agree += timespec64_equal(&want, &got);
		inode_lockless_set_ctime(inode, ts);
		agree += !inode_ctime_queried(inode);
	}
	KUNIT_EXPECT_EQ(test, "lockless accessors", "agreements with the layout's", 5 * TORN_ENTRIES,
			agree);
	free(inode);
}

static struct timespec64 fixed_clock(void *ctx)
{
	return *(const struct timespec64 *)ctx;
}

/*
 * inode_lockless_set_ctime_current() against the layout's own
 * inode_set_ctime_current(), single-threaded: same result, same ctime and
 * queried flag left behind, for a later, an equal and an earlier "now",
 * with and without the ctime queried (multigrain's fine-grained step).
 */
static void test_lockless_ctime_current(struct kunit *test)
{
	static const struct timespec64 nows[] = { TS(1452144972, 500), TS(1452144972, 400),
						  TS(1452144971, 999999999), TS(INT32_MAX, 999999999) };
	struct super_block sb = { .s_time_gran = 100 };
	struct inode *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct timespec64 now;
	struct fs_time_clock clock = { .now = fixed_clock, .ctx = &now };

	if (!a || !b)
		abort();
	sb.s_time_min = TIME64_MIN;
	sb.s_time_max = TIME64_MAX;
	fs_time_set_clock(&clock);
	for (int queried = 0; queried < 2; queried++) {
		for (size_t n = 0; n < sizeof(nows) / sizeof(nows[0]); n++) {
			struct timespec64 want, got, ca, cb;

			inode_init_always(&sb, a);
			inode_init_always(&sb, b);
			inode_set_ctime_to_ts(a, TS(1452144972, 400));
			inode_set_ctime_to_ts(b, TS(1452144972, 400));
			if (queried) {
				inode_ctime_mark_queried(a);
				inode_ctime_mark_queried(b);
			}
			now = nows[n];
			want = inode_set_ctime_current(a);
			got = inode_lockless_set_ctime_current(b);
			KUNIT_EXPECT_TS_EQ(test, queried ? "queried" : "not queried", "returned", want, got);
			ca = inode_get_ctime(a);
			cb = inode_get_ctime(b);
			KUNIT_EXPECT_TS_EQ(test, queried ? "queried" : "not queried", "stored", ca, cb);
			KUNIT_EXPECT_TS_EQ(test, queried ? "queried" : "not queried", "returned = stored",
					   cb, got);
			KUNIT_EXPECT_EQ(test, queried ? "queried" : "not queried", "queried flag",
					inode_ctime_queried(a), inode_ctime_queried(b));
		}
	}
	fs_time_set_clock(NULL);
	free(a);
	free(b);
}

static void test_seqcount(struct kunit *test)
{
	seqcount_t s;
	unsigned int start;

	seqcount_init(&s);
	start = read_seqcount_begin(&s);
	KUNIT_EXPECT_EQ(test, "seqcount", "initial count", 0, start);
	KUNIT_EXPECT_EQ(test, "seqcount", "retry without a write", 0, read_seqcount_retry(&s, start));
	write_seqcount_begin(&s);
	KUNIT_EXPECT_EQ(test, "seqcount", "count inside a write (odd)", 1,
			__atomic_load_n(&s.sequence, __ATOMIC_RELAXED));
	write_seqcount_end(&s);
	KUNIT_EXPECT_EQ(test, "seqcount", "retry after a write", 1, read_seqcount_retry(&s, start));
	start = read_seqcount_begin(&s);
	KUNIT_EXPECT_EQ(test, "seqcount", "count after one write", 2, start);
}

/* --- the experiment ------------------------------------------------------ */

struct torn_run {
	struct torn_shared *shared;
	const struct torn_table *table;
	int use_seqcount;
	int stop;             /* __atomic: the writer is done */
	unsigned int started; /* __atomic: readers running */
};

struct reader {
	pthread_t thread;
	struct torn_run *run;
	struct torn_counts counts; /* the reader's own; read after the join */
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct torn_run *run = r->run;

	__atomic_fetch_add(&run->started, 1, __ATOMIC_RELAXED);
	do {
		struct timespec64 ts = torn_read(run->shared, run->use_seqcount, &r->counts);

		torn_check(run->table, ts, &r->counts);
	} while (!__atomic_load_n(&run->stop, __ATOMIC_ACQUIRE));
	return NULL;
}

static struct torn_counts run_experiment(struct torn_shared *sh, const struct torn_table *t,
					 int use_seqcount, int readers, unsigned long writes)
{
	struct super_block sb = { .s_time_gran = 1 };
	struct torn_run run = { .shared = sh, .table = t, .use_seqcount = use_seqcount };
	struct reader *rd = calloc((size_t)readers, sizeof(*rd));
	struct torn_counts sum = { 0 };

	if (!rd)
		abort();
	torn_shared_init(sh, &sb, t);
	for (int i = 0; i < readers; i++) {
		rd[i].run = &run;
		if (pthread_create(&rd[i].thread, NULL, reader_main, &rd[i]) != 0) {
			perror("pthread_create");
			exit(EXIT_FAILURE);
		}
	}
	/* Start writing only when every reader is reading. */
	while (__atomic_load_n(&run.started, __ATOMIC_RELAXED) < (unsigned int)readers)
		sched_yield();
	for (unsigned long n = 1; n <= writes; n++)
		torn_write(sh, t, n, use_seqcount);
	__atomic_store_n(&run.stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < readers; i++) {
		pthread_join(rd[i].thread, NULL);
		torn_counts_add(&sum, &rd[i].counts);
	}
	free(rd);
	return sum;
}

static void print_counts(const char *variant, const char *access, const struct torn_counts *c,
			 unsigned long writes)
{
	printf("torn_read_test %s on %s (tv_sec %s): %-11s %8llu torn of %10llu reads, %lu writes"
	       " (sec/nsec mixed %llu, sec halves mixed %llu; retries %llu)\n",
	       INODE_LAYOUT_NAME, INODE_ABI_NAME, access, variant, (unsigned long long)c->torn,
	       (unsigned long long)c->reads, writes, (unsigned long long)c->sec_nsec_mixed,
	       (unsigned long long)c->sec_halves_mixed, (unsigned long long)c->retries);
	if (c->torn) {
		printf("  torn by boundary:");
		for (int b = 0; b < TORN_BOUNDARIES; b++)
			printf(" %s %llu%s", torn_boundary_names[b], (unsigned long long)c->torn_at[b],
			       b + 1 < TORN_BOUNDARIES ? "," : "\n");
	}
}

/* Y2038_TORN_WRITES: 1..ULONG_MAX stores per variant (env.h; a bad value exits 2). */
static unsigned long writes_from_env(void)
{
	return (unsigned long)env_u64("torn_read_test", "Y2038_TORN_WRITES", 1, ULONG_MAX, 1UL << 22);
}

int main(void)
{
	struct kunit test = { .suite = "torn_read_test " INODE_LAYOUT_NAME };
	struct torn_table *t = malloc(sizeof(*t));
	struct torn_shared *sh = aligned_alloc(_Alignof(struct torn_shared), sizeof(*sh));
	unsigned long writes = writes_from_env();
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	/* The writer has a CPU; every other one reads (one at least). */
	int readers = cpus > 2 ? (int)(cpus - 1 > 3 ? 3 : cpus - 1) : 1;
	struct torn_counts plain, seq;
	const char *access;

	if (!t || !sh)
		abort();
	torn_table_init(t);
	test_detector(&test, t);
	test_lockless_accessors(&test, t);
	test_lockless_ctime_current(&test);
	test_seqcount(&test);

	plain = run_experiment(sh, t, 0, readers, writes);
	access = inode_lockless_sec_access(&sh->inode);
	print_counts("unprotected", access, &plain, writes);
	seq = run_experiment(sh, t, 1, readers, writes);
	print_counts("seqcount", access, &seq, writes);

	KUNIT_EXPECT_EQ(&test, "seqcount", "torn reads", 0, seq.torn);
	/* nsec is one access: a value no write stored there is a model bug. */
	KUNIT_EXPECT_EQ(&test, "unprotected", "nsec never stored", 0, plain.nsec_never_stored);
	/* The whole timestamp in one 64-bit access (one word, LP64): nothing to tear. */
	if (INODE_REPR_ONE_WORD && strcmp(access, "1x64") == 0)
		KUNIT_EXPECT_EQ(&test, "unprotected, one 64-bit access", "torn reads", 0, plain.torn);
	KUNIT_EXPECT_TRUE(&test, "unprotected", plain.reads > 0);
	KUNIT_EXPECT_TRUE(&test, "seqcount", seq.reads > 0);
	free(sh);
	free(t);
	return kunit_finish(&test);
}
