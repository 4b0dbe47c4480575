/* SPDX-License-Identifier: MIT */
/*
 * fuzz_input.h - read fixed-width fields from a libFuzzer input.  Short
 * inputs read as zero-padded, so every byte string is a valid input.
 */
#ifndef Y2038_FUZZ_INPUT_H
#define Y2038_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fuzz_input {
	const uint8_t *data;
	size_t size, pos;
};

static inline uint64_t fuzz_take(struct fuzz_input *in, size_t bytes)
{
	uint64_t v = 0;

	for (size_t i = 0; i < bytes; i++) {
		uint64_t byte = in->pos < in->size ? in->data[in->pos] : 0;

		in->pos++;
		v |= byte << (8 * i); /* little-endian, the same on every host */
	}
	return v;
}

static inline uint16_t fuzz_u16(struct fuzz_input *in) { return (uint16_t)fuzz_take(in, 2); }
static inline uint32_t fuzz_u32(struct fuzz_input *in) { return (uint32_t)fuzz_take(in, 4); }
static inline uint64_t fuzz_u64(struct fuzz_input *in) { return fuzz_take(in, 8); }
static inline int64_t fuzz_s64(struct fuzz_input *in)
{
	uint64_t v = fuzz_u64(in);

	return v >> 63 ? -(int64_t)(~v) - 1 : (int64_t)v; /* no implementation-defined cast */
}
static inline int32_t fuzz_s32(struct fuzz_input *in)
{
	uint32_t v = fuzz_u32(in);

	return v >> 31 ? -(int32_t)(~v) - 1 : (int32_t)v;
}
/* A long from 8 input bytes, wrapped to the ABI's long width. */
static inline long fuzz_long(struct fuzz_input *in)
{
	int64_t v = fuzz_s64(in);

	if (sizeof(long) < sizeof(int64_t)) {
		uint32_t low = (uint32_t)(uint64_t)v;

		return low >> 31 ? -(long)(~low) - 1 : (long)low;
	}
	return (long)v;
}

/* A property violated: print it and abort so libFuzzer saves the input. */
#define FUZZ_CHECK(cond, ...)                                                  \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fprintf(stderr, "fuzz check failed: %s: ", #cond);     \
			fprintf(stderr, __VA_ARGS__);                          \
			fputc('\n', stderr);                                   \
			abort();                                               \
		}                                                              \
	} while (0)

#endif /* Y2038_FUZZ_INPUT_H */
