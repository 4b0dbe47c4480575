/* SPDX-License-Identifier: MIT */
/* churn fixture: a type-generic helper of the kernel's string.h (sites.HELPER_HEADERS) */
void *memcpy(void *to, const void *from, unsigned long n);
