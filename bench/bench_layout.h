/* SPDX-License-Identifier: MIT */
/*
 * bench_layout.h - conventions for benchmark sources compiled once per layout.
 *
 * bench/CMakeLists.txt compiles every source of Y2038_BENCH_LAYOUT_SOURCES
 * once per body x representation of layouts/layouts.def, linked to
 * layout_<body>_<repr> and with BENCH_LAYOUT_ID=<body>_<repr> set.  Such a
 * source asks the layout what it offers (layouts/inode.h: field lists and
 * features), never which one it is.  Everything in such a source is static
 * except its registration function, named with BENCH_LAYOUT_SYMBOL():
 *
 *	void BENCH_LAYOUT_SYMBOL(accessor_register)(void) { ... }
 *
 * becomes accessor_register_v6_scalar() in the v6/scalar object, and the
 * generated bench_registry.c calls each of them.
 */
#ifndef BENCH_BENCH_LAYOUT_H
#define BENCH_BENCH_LAYOUT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "bench_seed.h"
#include "inode.h"

#ifndef BENCH_LAYOUT_ID
#error "BENCH_LAYOUT_ID must name the layout (<body>_<repr>): see bench/CMakeLists.txt"
#endif

#define BENCH_PASTE_(a, b) a##_##b
#define BENCH_PASTE(a, b) BENCH_PASTE_(a, b)
#define BENCH_LAYOUT_SYMBOL(name) BENCH_PASTE(name, BENCH_LAYOUT_ID)

/**
 * bench_register_layout - register @fn as "<family>/<operation>/<body>/<repr>"
 * followed by "/<suffix>" when @suffix_fmt is not NULL (printf format).
 */
static inline struct bench *bench_register_layout(const char *family, const char *operation,
						  bench_fn fn, const void *arg,
						  const char *suffix_fmt, ...)
{
	char name[160], suffix[64] = "";
	int len;

	if (suffix_fmt) {
		va_list ap;

		va_start(ap, suffix_fmt);
		suffix[0] = '/';
		vsnprintf(suffix + 1, sizeof(suffix) - 1, suffix_fmt, ap);
		va_end(ap);
	}
	len = snprintf(name, sizeof(name), "%s/%s/%s%s", family, operation, INODE_LAYOUT_NAME,
		       suffix);
	if (len < 0 || (size_t)len >= sizeof(name)) {
		fprintf(stderr, "bench: benchmark name too long: %s/%s/...\n", family, operation);
		exit(2);
	}
	return bench_register(name, fn, arg);
}

#endif /* BENCH_BENCH_LAYOUT_H */
