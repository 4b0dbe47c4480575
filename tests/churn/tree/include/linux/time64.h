/* SPDX-License-Identifier: MIT */
/* churn fixture: the time helpers the VFS offers (a VFS helper by name) */
struct timespec64 {
	long long tv_sec;
	long tv_nsec;
};

static inline int timespec64_equal(const struct timespec64 *a, const struct timespec64 *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}
