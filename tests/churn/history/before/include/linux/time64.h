/* SPDX-License-Identifier: MIT */
/* history fixture: the time types and helpers before the flag day */
struct timespec {
	long tv_sec;
	long tv_nsec;
};

static inline int timespec_equal(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

int timespec_compare(const struct timespec *a, const struct timespec *b);
