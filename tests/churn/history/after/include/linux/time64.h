/* SPDX-License-Identifier: MIT */
/* history fixture: the time types and helpers after the flag day */
struct timespec {
	long tv_sec;
	long tv_nsec;
};

struct timespec64 {
	long long tv_sec;
	long tv_nsec;
};

static inline int timespec64_equal(const struct timespec64 *a, const struct timespec64 *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

struct timespec timespec64_to_timespec(const struct timespec64 ts64);

int timespec64_compare(const struct timespec64 *a, const struct timespec64 *b);
struct timespec64 timespec_to_timespec64(const struct timespec ts);
