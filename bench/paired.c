/* SPDX-License-Identifier: MIT */
/*
 * paired.c - the driver of paired benchmarks (paired.h) and the list of the
 * layout pairs.  Compiled once, without the kernel's flags: it times and
 * counts, the timed loops are the block functions of the per-layout objects
 * and of fstime.c, compiled as the unpaired benchmarks are.
 *
 * Layout pairs, per family (accessor, walk), body and where (B / A):
 *   paired/<family>/<op>/<body>/<reference>~<repr>[/<where>]   every
 *       representation against the reference (timespec64) for every op;
 *       <repr> = the twin (timespec, on LP64 ABIs: the same layout, the same
 *       instructions compiled twice, bench_twin_codegen) is the negative
 *       control.  A is the reference's copy for <repr> where the build made
 *       one (paired_copy_begin()), so that every copy runs as often as its B.
 *       accessor: no where; walk: where = the slab's inodes, each side
 *       walking a slab of its own;
 *   paired/<family>/<op>/<body>/<reference>~copy[/<where>]   the negative
 *       control where the ABI has no twin (ILP32): the reference's code
 *       against a copy of it (PAIRED_COPY_CONTROL), every op and where;
 *   paired/accessor/<a>~<b>/<body>/<repr>   per layout, on its op pairs'
 *       copy (PAIRED_COPY_OPS): the RFC's macros
 *       against mainline's accessors, the boundary conversion against the
 *       same copy without one (to_fs: the store of the value into the file
 *       system's own struct, converted or not) and from_fs against a plain
 *       set, multigrain's queried ctime update against the unqueried one;
 *   paired/<family>/<op>/<body>/<reference>/units:16~17[/<where>]   the
 *       positive control, where the reference layout names one
 *       (paired_layout.positive: accessor get_mtime, walk stat_seq at one
 *       size), on the reference's copy for it (PAIRED_COPY_POSITIVE): B runs
 *       17 units where A runs 16 (true ratio 1.0625).
 */
#define _POSIX_C_SOURCE 200809L
#include "paired.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "bench_seed.h"
#include "fs_time.h"
#include "rng.h"

#define PAIRED_BLOCK_NS 8000 /* one block, ~8 us */
#define PAIRED_MAX_LAYOUTS 256 /* accessor: one per layout; walk: one per layout and size */
#define PAIRED_MAX_RECORDED 10000000
#define PAIRED_HUGE_PAGE ((size_t)2 << 20)
#define PAIRED_KEPT 6                    /* blocks paired_free_huge() keeps */
#define PAIRED_KEEP_MIN ((size_t)8 << 20) /* and from which size */
#define PAIRED_WARM_UNITS ((size_t)1 << 18) /* paired_warm(): units per side, at most */
#define PAIRED_WARM_CHUNK 256                /* and per block */

#ifndef Y2038_BENCH_REFERENCE_REPR
#define Y2038_BENCH_REFERENCE_REPR "timespec64"
#endif
#ifndef Y2038_BENCH_TWIN_REPR
#define Y2038_BENCH_TWIN_REPR "" /* no twin on this ABI */
#endif

struct paired_case {
	struct paired_side a, b;
	enum paired_kind kind;
	unsigned int ops_per_unit;
	size_t max_units, cycle;
};

static int64_t paired_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int paired_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

static double paired_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), paired_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A counter from a double, through the shim's integer interface (12 digits kept). */
static void paired_counter(struct bench_state *st, const char *name, double value)
{
	bench_counter_ratio(st, name, llround(value * 1e12), 1000000000000LL, BENCH_COUNTER_DEFAULT);
}

/* The process's own stream of draws: the run's seed, the process, a constant of its own (not main.c's). */
static struct rng *paired_rng(void)
{
	static struct rng rng;

	if (!rng.state)
		rng.state = bench_seed() ^ (uint64_t)getpid() ^ UINT64_C(0xd1b54a32d192ed03);
	return &rng;
}

/*
 * The two fixtures, set up in an order drawn per call (Google Benchmark's
 * calls of a repetition, which share kept fixtures); false (neither
 * left set up) if either cannot be.  The side set up first ran slower: with
 * the same code on both sides (timestamp_truncate and its twin, gran 1 ns,
 * latency) x0.997-0.999 in every repetition when A was set up first, and
 * x1.001-1.003 when B was, on the reference VM: a bias of where the
 * allocator puts the two sides' data, the same in every repetition and every
 * process.  Drawn per call, it becomes noise that the medians average
 * out instead of a bias.
 */
static bool paired_setup(const struct paired_case *c, void **fa, void **fb)
{
	bool b_first;
	void *first, *second;

	b_first = rng_next(paired_rng()) >> 63;
	first = b_first ? c->b.setup(c->b.arg) : c->a.setup(c->a.arg);
	second = !first ? NULL : b_first ? c->a.setup(c->a.arg) : c->b.setup(c->b.arg);
	if (first && !second) {
		(b_first ? c->b.teardown : c->a.teardown)(first);
		first = NULL;
	}
	*fa = b_first ? second : first;
	*fb = b_first ? first : second;
	return first && second;
}

/*
 * The fixtures of the last pair that ran, where both its sides allow reuse
 * (paired_side.reuse): its next run, usually Google Benchmark's next call
 * within the same repetition, takes them as they were left; any other pair
 * first tears them down.
 */
static const struct paired_case *paired_kept_case;
static void *paired_kept_a, *paired_kept_b;
static size_t paired_kept_pos, paired_kept_pos_b; /* and where its blocks went on: not back to inputs just cached */

static void paired_release_kept(void)
{
	if (paired_kept_case) {
		paired_kept_case->b.teardown(paired_kept_b);
		paired_kept_case->a.teardown(paired_kept_a);
		paired_kept_case = NULL;
	}
}

/*
 * A pair's first run over fresh fixtures, where the pair has an input
 * stream (walk, fstime; not accessor): both sides' input streams once
 * through (at most PAIRED_WARM_UNITS units each), in alternating chunks,
 * before anything is timed, so that the caches hold what alternating
 * blocks leave there rather than what setting up left: a walk's slab is
 * written when it is filled, and the side set up last started with its
 * inodes cached.  Returns a fold of the results.
 */
static uint64_t paired_warm(const struct paired_case *c, void *fa, void *fb, size_t *pos,
			    size_t *pos_b)
{
	size_t chunk = c->max_units / 17 < PAIRED_WARM_CHUNK ? c->max_units / 17 : PAIRED_WARM_CHUNK;
	size_t total = c->cycle < PAIRED_WARM_UNITS ? c->cycle : PAIRED_WARM_UNITS;
	uint64_t sink = 0;

	for (size_t done = 0; done < total; done += chunk) {
		sink += c->a.block(fa, *pos, chunk);
		sink += c->b.block(fb, *pos_b, chunk);
		*pos = (*pos + chunk) % c->cycle;
		*pos_b = (*pos_b + chunk) % c->cycle;
	}
	return sink;
}

static void paired_run(struct bench_state *st, const void *arg)
{
	const struct paired_case *c = arg;
	void *fa, *fb;
	bool set_up;
	int64_t best = INT64_MAX, n_max = bench_max_iterations(st), n = 0;
	uint64_t sink = 0;
	size_t k, ua, ub, pos = 0, pos_b = 0;
	double *ta = NULL, *tb = NULL, *ratio = NULL; /* AB pairs' ratios from the front, BA's from the back */
	size_t n_ab = 0, n_ba = 0;

	if (paired_kept_case == c) {
		fa = paired_kept_a;
		fb = paired_kept_b;
		pos = paired_kept_pos;
		pos_b = paired_kept_pos_b;
		paired_kept_case = NULL;
		set_up = true;
	} else {
		paired_release_kept();
		set_up = paired_setup(c, &fa, &fb);
		if (set_up)
			sink += paired_warm(c, fa, fb, &pos, &pos_b);
	}
	if (n_max > PAIRED_MAX_RECORDED)
		n_max = PAIRED_MAX_RECORDED;
	if (set_up) {
		ta = malloc((size_t)n_max * sizeof(*ta));
		tb = malloc((size_t)n_max * sizeof(*tb));
		ratio = malloc((size_t)n_max * sizeof(*ratio));
	}
	if (!ta || !tb || !ratio) {
		bench_skip_with_error(st, "paired: cannot set up the two sides");
		goto out;
	}
	/*
	 * Block size: 16k units of A take about PAIRED_BLOCK_NS.  With an input
	 * stream each trial starts where the last one ended, as the timed
	 * blocks do: a walk's 16 inodes timed five times at one start are
	 * cached from the second time on, and a slab beyond the caches then got
	 * blocks of 200 us instead of 8.  B does not run here: one block of B
	 * before A's trials (to warm it, as this loop once did) left B's code
	 * slower per operation for the rest of the call, by one or two steps of
	 * about 0.47 ns (2 cycles) a visit in the write walks' twins (touch_seq
	 * and relatime_seq at 64 and 1024 inodes, six processes of six
	 * repetitions: B slower by more than 3 % in 78 and 74 of 144, A in 1
	 * and 0, in two runs; without it, B in 1 to 30 and A in 0 to 8 in five
	 * runs, B still slower more often: not explained), whichever code was
	 * B; why is not measured here (no counters on the reference VM).
	 */
	for (int i = 0; i < 5; i++) {
		int64_t t0 = paired_now_ns();

		sink += c->a.block(fa, pos, 16);
		t0 = paired_now_ns() - t0;
		best = t0 < best ? t0 : best;
		pos = c->cycle ? (pos + 16) % c->cycle : 0;
		pos_b = c->cycle ? (pos_b + 16) % c->cycle : 0; /* in step with A's */
	}
	k = best > 0 ? (size_t)(PAIRED_BLOCK_NS / best) : 1;
	k = k < 1 ? 1 : k > c->max_units / 17 ? c->max_units / 17 : k;
	ua = 16 * k;
	ub = (c->kind == PAIRED_POSITIVE ? 17 : 16) * k;
	while (bench_keep_running(st)) {
		int64_t t0 = paired_now_ns(), t1, t2, da, db;

		if (n & 1) {
			sink += c->b.block(fb, pos_b, ub);
			t1 = paired_now_ns();
			sink += c->a.block(fa, pos, ua);
			t2 = paired_now_ns();
			db = t1 - t0;
			da = t2 - t1;
		} else {
			sink += c->a.block(fa, pos, ua);
			t1 = paired_now_ns();
			sink += c->b.block(fb, pos_b, ub);
			t2 = paired_now_ns();
			da = t1 - t0;
			db = t2 - t1;
		}
		bench_set_iteration_time_ns(st, da + db);
		if (n < n_max && da > 0 && db > 0) {
			ta[n] = (double)da;
			tb[n] = (double)db;
			if (n & 1)
				ratio[n_max - 1 - n_ba++] = (double)db / (double)da;
			else
				ratio[n_ab++] = (double)db / (double)da;
			n++;
		}
		/*
		 * Each side goes on from where its own last block stopped: the
		 * positive control's B, 17 units where A runs 16, would
		 * otherwise start each block on units it ran one pair before
		 * (a walk's inodes still cached).  A block may cover the cycle
		 * more than once (walk: 64 inodes).
		 */
		if (c->cycle) {
			pos = (pos + ua) % c->cycle;
			pos_b = (pos_b + ub) % c->cycle;
		}
	}
	bench_do_not_optimize(sink);
	if (n > 0) {
		double ops_a = (double)ua * c->ops_per_unit, ops_b = (double)ub * c->ops_per_unit;

		double ab = n_ab ? paired_median(ratio, n_ab) : 0;
		double ba = n_ba ? paired_median(ratio + n_max - n_ba, n_ba) : 0;

		/*
		 * The block that runs first in a pair pays what came before it
		 * (the loop's own stores, the harness) and the second does not:
		 * a penalty of A's in AB pairs and of B's in BA pairs.  The
		 * ratio is the geometric mean of the two orders' medians, where
		 * it cancels; a median over the mixture of both orders would sit
		 * in the gap between them.
		 */
		paired_counter(st, "ratio", ab > 0 && ba > 0 ? sqrt(ab * ba) : ab > 0 ? ab : ba);
		paired_counter(st, "ratio_ab", ab);
		paired_counter(st, "ratio_ba", ba);
		paired_counter(st, "a_ns", paired_median(ta, (size_t)n) / ops_a);
		paired_counter(st, "b_ns", paired_median(tb, (size_t)n) / ops_b);
		bench_counter_int(st, "pairs", n, BENCH_COUNTER_DEFAULT);
		bench_counter_int(st, "ops_a", (int64_t)ops_a, BENCH_COUNTER_DEFAULT);
		bench_counter_int(st, "ops_b", (int64_t)ops_b, BENCH_COUNTER_DEFAULT);
	}
	if (c->kind != PAIRED_COMPARE)
		bench_counter_ratio(st, "true_ratio", c->kind == PAIRED_POSITIVE ? 17 : 1,
				    c->kind == PAIRED_POSITIVE ? 16 : 1, BENCH_COUNTER_DEFAULT);
	bench_set_label(st, "time: A + B per pair of blocks; ratio = median t(B)/t(A)");
out:
	free(ta);
	free(tb);
	free(ratio);
	if (fa && fb && c->a.reuse && c->b.reuse) {
		/*
		 * Kept, but with the default clock again: each block installs
		 * its fixture's own, and a benchmark that never installs one
		 * (the threaded load benchmarks) must not find a walk slab's clock there.
		 */
		fs_time_set_clock(NULL);
		paired_kept_case = c;
		paired_kept_a = fa;
		paired_kept_b = fb;
		paired_kept_pos = pos;
		paired_kept_pos_b = pos_b;
		return;
	}
	if (fb)
		c->b.teardown(fb);
	if (fa)
		c->a.teardown(fa);
}

void paired_register_pair(const char *name, const struct paired_side *a,
			  const struct paired_side *b, enum paired_kind kind,
			  unsigned int ops_per_unit, size_t max_units, size_t cycle)
{
	struct paired_case *c = malloc(sizeof(*c));

	if (!c || max_units < 17) {
		fprintf(stderr, "bench: cannot register %s\n", name);
		exit(2);
	}
	*c = (struct paired_case){ .a = *a, .b = *b, .kind = kind, .ops_per_unit = ops_per_unit,
				   .max_units = max_units, .cycle = cycle };
	bench_use_manual_time(bench_register(name, paired_run, c));
}

/* --- large fixtures kept between benchmarks --------------------------------------------- */

/*
 * A paired walk's slab (walk.c) of 2^16 or 2^18 inodes took 50 to 150 ms per
 * side and repetition to fault in, against 2 ms timed: the pass spent its
 * time in the kernel's page-fault path.  paired_free_huge() keeps blocks of
 * PAIRED_KEEP_MIN bytes or more (up to PAIRED_KEPT blocks; a new one takes
 * the place of the first unused), and paired_alloc_huge() hands one back
 * when it fits (at most an eighth larger), still mapped; the caller fills it
 * as if new.  Both sides of a
 * pair and every fixture start at a huge-page boundary, so the two sides'
 * data map to the same cache sets whatever was allocated before
 * (bench_alloc_huge()'s reason, bench_fixtures.h).
 *
 * Which huge pages a fixture lies in is drawn per call: each block is
 * PAIRED_SLIDE huge pages longer than asked, and the fixture starts 0 to
 * PAIRED_SLIDE huge pages into it.  A kept block would otherwise give a
 * side the same pages, so the same physical addresses, in every repetition
 * of a process; the caches below L1 are indexed by physical address, and a
 * walk's twin control at the L3 size read x0.75 to x1.45 per link order
 * (16384 inodes, random order: each unit the median of six repetitions, two
 * processes) where both sides ran the same code over the same data.  The
 * draw changes most of a slab's pages where it spans a few huge pages (64
 * to 16384 inodes: 1 to 5 of them); a 2^18-inode slab (about 80) keeps
 * most of its pages.  A kept block costs up to PAIRED_SLIDE huge pages
 * (16 MiB) more memory once every start has been drawn.
 */
#define PAIRED_SLIDE 8

static struct {
	void *base, *start; /* the allocation, the fixture in it (NULL: slot free) */
	size_t bytes;       /* of the allocation */
	bool in_use;
} paired_blocks[PAIRED_KEPT];

void *paired_alloc_huge(size_t bytes)
{
	size_t slot = PAIRED_KEPT, slide;
	void *p;

	if (bytes == 0 || bytes > SIZE_MAX - (PAIRED_SLIDE + 1) * PAIRED_HUGE_PAGE)
		return NULL;
	bytes = (bytes + PAIRED_HUGE_PAGE - 1) / PAIRED_HUGE_PAGE * PAIRED_HUGE_PAGE +
		PAIRED_SLIDE * PAIRED_HUGE_PAGE;
	slide = (size_t)rng_below(paired_rng(), PAIRED_SLIDE + 1) * PAIRED_HUGE_PAGE;
	for (size_t i = 0; i < PAIRED_KEPT; i++) {
		if (paired_blocks[i].base && !paired_blocks[i].in_use &&
		    paired_blocks[i].bytes >= bytes && paired_blocks[i].bytes - bytes <= bytes / 8) {
			paired_blocks[i].in_use = true;
			paired_blocks[i].start = (char *)paired_blocks[i].base + slide;
			return paired_blocks[i].start;
		}
		/* A free slot, else the kept block nobody uses gives way. */
		if (!paired_blocks[i].in_use && (slot == PAIRED_KEPT || !paired_blocks[i].base))
			slot = i;
	}
	if (slot == PAIRED_KEPT) /* every slot in use: a pair holds two, the kept pair is released first */
		return NULL;
	p = aligned_alloc(PAIRED_HUGE_PAGE, bytes);
	for (size_t i = 0; !p && i < PAIRED_KEPT; i++) {
		/* Out of memory (a 32-bit address space, a small board): the unused kept blocks go first. */
		if (paired_blocks[i].base && !paired_blocks[i].in_use) {
			free(paired_blocks[i].base);
			paired_blocks[i].base = NULL;
			p = aligned_alloc(PAIRED_HUGE_PAGE, bytes);
		}
	}
	if (!p)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, bytes, MADV_HUGEPAGE); /* advice: without it, 4 KiB pages */
#endif
	free(paired_blocks[slot].base);
	paired_blocks[slot].base = p;
	paired_blocks[slot].start = (char *)p + slide;
	paired_blocks[slot].bytes = bytes;
	paired_blocks[slot].in_use = true;
	return paired_blocks[slot].start;
}

void paired_free_huge(void *p)
{
	for (size_t i = 0; p && i < PAIRED_KEPT; i++) {
		if (paired_blocks[i].in_use && paired_blocks[i].start == p) {
			paired_blocks[i].in_use = false;
			if (paired_blocks[i].bytes < PAIRED_KEEP_MIN + PAIRED_SLIDE * PAIRED_HUGE_PAGE) {
				free(paired_blocks[i].base);
				paired_blocks[i].base = NULL;
			}
			return;
		}
	}
}

/* --- the layout pairs -------------------------------------------------------------- */

static const struct paired_layout *paired_layouts[PAIRED_MAX_LAYOUTS];
static const char *paired_copy_of[PAIRED_MAX_LAYOUTS]; /* NULL, or the copy's role (paired.h) */
static size_t paired_n_layouts;
static const char *paired_copy_role;

void paired_copy_begin(const char *role)
{
	paired_copy_role = role;
}

void paired_copy_end(void)
{
	paired_copy_role = NULL;
}

const char *paired_copy_for(void)
{
	return paired_copy_role;
}

void paired_add_layout(const struct paired_layout *layout)
{
	if (paired_n_layouts == PAIRED_MAX_LAYOUTS) {
		fprintf(stderr, "bench: more than %d layouts for the paired benchmarks\n",
			PAIRED_MAX_LAYOUTS);
		exit(2);
	}
	if (paired_copy_role && strcmp(paired_copy_role, PAIRED_COPY_OPS) != 0 &&
	    strcmp(layout->repr, Y2038_BENCH_REFERENCE_REPR) != 0) {
		fprintf(stderr, "bench: a copy for %s of %s/%s, not of the reference layout\n",
			paired_copy_role, layout->body, layout->repr);
		exit(2);
	}
	paired_copy_of[paired_n_layouts] = paired_copy_role;
	paired_layouts[paired_n_layouts++] = layout;
}

/* Operation pairs within one layout: A (mainline, plain, unqueried) and B. */
static const char *const paired_op_pairs[][2] = {
	{ "get_mtime", "rfc_get_mtime" },
	{ "set_mtime", "rfc_set_mtime" },
	{ "swap_mtime", "rfc_swap_mtime" },
	{ "copy_to_fs_mtime", "boundary_to_fs_mtime" },
	{ "set_mtime", "boundary_from_fs_mtime" },
	{ "set_ctime_current", "set_ctime_current_queried" },
};

static const struct paired_op *paired_find_op(const struct paired_layout *l, const char *op)
{
	for (size_t i = 0; i < l->n_ops; i++)
		if (strcmp(l->ops[i].name, op) == 0)
			return &l->ops[i];
	return NULL;
}

/* Two layouts whose ops may be paired: the same family, body and where. */
static bool paired_same_place(const struct paired_layout *x, const struct paired_layout *y)
{
	return strcmp(x->family, y->family) == 0 && strcmp(x->body, y->body) == 0 &&
	       (x->where && y->where ? strcmp(x->where, y->where) == 0 : x->where == y->where);
}

static struct paired_side paired_side_of(const struct paired_layout *l, const struct paired_op *op)
{
	return (struct paired_side){ .setup = l->setup, .teardown = l->teardown, .block = op->block,
				     .arg = op->arg, .reuse = l->reuse };
}

/*
 * The copy in role @role (paired.h) of the layout *@ref and its op *@op:
 * true, with *@ref and *@op the copy's, where the build made one; false,
 * both left as they are, where it did not.
 */
static bool paired_copy_of_role(const struct paired_layout **ref, const struct paired_op **op,
				const char *role)
{
	for (size_t i = 0; i < paired_n_layouts; i++) {
		const struct paired_op *copy_op;

		if (!paired_copy_of[i] || strcmp(paired_copy_of[i], role) != 0 ||
		    strcmp(paired_layouts[i]->repr, (*ref)->repr) != 0 ||
		    !paired_same_place(paired_layouts[i], *ref))
			continue;
		copy_op = paired_find_op(paired_layouts[i], (*op)->name);
		if (!copy_op) {
			fprintf(stderr, "bench: the copy of %s/%s for %s has no op %s\n", (*ref)->body,
				(*ref)->repr, role, (*op)->name);
			exit(2);
		}
		*ref = paired_layouts[i];
		*op = copy_op;
		return true;
	}
	return false;
}

/* Registers @name + "/<where>" (if any): B / A, the sizes A's layout states. */
static void paired_layout_pair(const struct paired_layout *la, const struct paired_op *oa,
			       const struct paired_layout *lb, const struct paired_op *ob,
			       enum paired_kind kind, const char *name)
{
	struct paired_side a = paired_side_of(la, oa), b = paired_side_of(lb, ob);
	char full[224];

	if (snprintf(full, sizeof(full), "%s%s%s", name, la->where ? "/" : "",
		     la->where ? la->where : "") >= (int)sizeof(full)) {
		fprintf(stderr, "bench: paired benchmark name too long: %s\n", name);
		exit(2);
	}
	paired_register_pair(full, &a, &b, kind, la->ops_per_unit, la->max_units, la->cycle);
}

void paired_register_accessor(void)
{
	char name[192];

	for (size_t i = 0; i < paired_n_layouts; i++) {
		const struct paired_layout *ref = paired_layouts[i];

		if (paired_copy_of[i] || strcmp(ref->repr, Y2038_BENCH_REFERENCE_REPR) != 0)
			continue;
		for (size_t o = 0; o < ref->n_ops; o++) {
			for (size_t j = 0; j < paired_n_layouts; j++) {
				const struct paired_layout *l = paired_layouts[j], *a = ref;
				const struct paired_op *op = paired_find_op(l, ref->ops[o].name);
				const struct paired_op *oa = &ref->ops[o];
				enum paired_kind kind = strcmp(l->repr, Y2038_BENCH_TWIN_REPR) == 0
								? PAIRED_NEGATIVE
								: PAIRED_COMPARE;

				if (paired_copy_of[j] || l == ref || !paired_same_place(l, ref) || !op)
					continue;
				snprintf(name, sizeof(name), "paired/%s/%s/%s/%s~%s", ref->family,
					 ref->ops[o].name, ref->body, ref->repr, l->repr);
				paired_copy_of_role(&a, &oa, l->repr);
				paired_layout_pair(a, oa, l, op, kind, name);
			}
			const struct paired_layout *control = ref;
			const struct paired_op *oc = &ref->ops[o];

			if (paired_copy_of_role(&control, &oc, PAIRED_COPY_CONTROL)) {
				snprintf(name, sizeof(name), "paired/%s/%s/%s/%s~%s", ref->family,
					 oc->name, ref->body, ref->repr, PAIRED_CONTROL_NAME);
				paired_layout_pair(ref, &ref->ops[o], control, oc, PAIRED_NEGATIVE,
						   name);
			}
		}
		const struct paired_op *pos = ref->positive ? paired_find_op(ref, ref->positive) : NULL;
		const struct paired_layout *pl = ref;

		if (pos) {
			paired_copy_of_role(&pl, &pos, PAIRED_COPY_POSITIVE);
			snprintf(name, sizeof(name), "paired/%s/%s/%s/%s/units:16~17", ref->family,
				 pos->name, ref->body, ref->repr);
			paired_layout_pair(pl, pos, pl, pos, PAIRED_POSITIVE, name);
		}
	}
	for (size_t j = 0; j < paired_n_layouts; j++) {
		const struct paired_layout *l = paired_layouts[j];

		if (!paired_copy_of[j] || strcmp(paired_copy_of[j], PAIRED_COPY_OPS) != 0)
			continue;
		for (size_t p = 0; p < sizeof(paired_op_pairs) / sizeof(paired_op_pairs[0]); p++) {
			const struct paired_op *a = paired_find_op(l, paired_op_pairs[p][0]);
			const struct paired_op *b = paired_find_op(l, paired_op_pairs[p][1]);

			if (!a || !b)
				continue;
			snprintf(name, sizeof(name), "paired/%s/%s~%s/%s/%s", l->family, a->name,
				 b->name, l->body, l->repr);
			paired_layout_pair(l, a, l, b, PAIRED_COMPARE, name);
		}
	}
}
