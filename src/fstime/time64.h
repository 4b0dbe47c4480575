/* SPDX-License-Identifier: MIT */
/*
 * time64.h - struct timespec64 and its helpers, as include/linux/time64.h
 * defines them, for user space.
 *
 * time64_t is 64 bits on every ABI; struct timespec64 keeps the kernel's
 * `long tv_nsec`, so the struct is 16 bytes on LP64 ABIs, 12 on i386 (s64
 * aligned to 4) and 16 on armhf (EABI aligns s64 to 8, leaving a 4-byte tail).
 */
#ifndef FSTIME_TIME64_H
#define FSTIME_TIME64_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int64_t time64_t;

#define TIME64_MAX INT64_MAX
#define TIME64_MIN INT64_MIN

#define MSEC_PER_SEC 1000L
#define USEC_PER_MSEC 1000L
#define NSEC_PER_USEC 1000L
#define NSEC_PER_MSEC 1000000L
#define USEC_PER_SEC 1000000L
#define NSEC_PER_SEC 1000000000L

struct timespec64 {
	time64_t tv_sec; /* seconds since 1970-01-01T00:00:00Z */
	long tv_nsec;    /* nanoseconds, valid 0..NSEC_PER_SEC-1 */
};

/**
 * timespec64_compare - order two timestamps
 *
 * Return: <0 if @lhs is earlier than @rhs, 0 if equal, >0 if later.  Seconds
 * decide first, then nanoseconds.  Unlike the kernel (which returns the
 * nanosecond difference) this returns -1/0/1, so that unnormalised inputs such
 * as tv_nsec == LONG_MIN cannot overflow.
 */
static inline int timespec64_compare(const struct timespec64 *lhs,
				     const struct timespec64 *rhs)
{
	if (lhs->tv_sec != rhs->tv_sec)
		return lhs->tv_sec < rhs->tv_sec ? -1 : 1;
	if (lhs->tv_nsec != rhs->tv_nsec)
		return lhs->tv_nsec < rhs->tv_nsec ? -1 : 1;
	return 0;
}

/** timespec64_equal - true when both fields are equal (no normalisation). */
static inline bool timespec64_equal(const struct timespec64 *a,
				    const struct timespec64 *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/**
 * timespec64_valid - is @ts a valid time for settimeofday()?
 *
 * As the kernel: false for negative seconds (dates before 1970 are not valid
 * *system* times, though they are valid file times) and for tv_nsec outside
 * 0..NSEC_PER_SEC-1.
 */
static inline bool timespec64_valid(const struct timespec64 *ts)
{
	if (ts->tv_sec < 0)
		return false;
	/* The unsigned cast folds the "negative" and "too big" tests into one. */
	if ((unsigned long)ts->tv_nsec >= (unsigned long)NSEC_PER_SEC)
		return false;
	return true;
}

/**
 * set_normalized_timespec64 - set @ts to @sec + @nsec nanoseconds, with
 * tv_nsec in 0..NSEC_PER_SEC-1
 *
 * As kernel/time/time.c: whole seconds of @nsec carry into tv_sec, and a
 * negative @nsec borrows (tv_sec is the earlier second, tv_nsec counts up
 * from it).  The kernel loops once per second carried; this divides, so a
 * huge @nsec costs no more than a small one, and where the kernel would
 * overflow tv_sec (only for sums beyond the time64_t range) this saturates
 * at TIME64_MAX or TIME64_MIN, keeping the normalised tv_nsec.
 */
static inline void set_normalized_timespec64(struct timespec64 *ts, time64_t sec, int64_t nsec)
{
	/* Floor division without overflow: C's / truncates towards zero. */
	int64_t carry = nsec / NSEC_PER_SEC;

	nsec -= carry * NSEC_PER_SEC;
	if (nsec < 0) {
		nsec += NSEC_PER_SEC;
		carry--;
	}
	if (carry > 0 && sec > TIME64_MAX - carry)
		sec = TIME64_MAX;
	else if (carry < 0 && sec < TIME64_MIN - carry)
		sec = TIME64_MIN;
	else
		sec += carry;
	ts->tv_sec = sec;
	ts->tv_nsec = (long)nsec;
}

#ifdef __cplusplus
}
#endif

#endif /* FSTIME_TIME64_H */
