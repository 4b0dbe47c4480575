/* SPDX-License-Identifier: MIT */
/*
 * kernel_types.h - the kernel's fixed-width integer vocabulary for user space.
 *
 * u8..u64 / s8..s64 are the kernel's names for the <stdint.h> types.  The
 * __le* types hold little-endian values in plain integers; cpu_to_le*() and
 * le*_to_cpu() convert, and are the identity on little-endian hosts.  Every
 * on-disk codec in src/fstime uses these so that its code reads like fs/.
 */
#ifndef FSTIME_KERNEL_TYPES_H
#define FSTIME_KERNEL_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

typedef uint16_t __le16;
typedef uint32_t __le32;
typedef uint64_t __le64;

#define S32_MIN INT32_MIN
#define S32_MAX INT32_MAX
#define U32_MAX UINT32_MAX
#define S64_MIN INT64_MIN
#define S64_MAX INT64_MAX
#define U64_MAX UINT64_MAX

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
static inline __le16 cpu_to_le16(u16 v) { return __builtin_bswap16(v); }
static inline __le32 cpu_to_le32(u32 v) { return __builtin_bswap32(v); }
static inline __le64 cpu_to_le64(u64 v) { return __builtin_bswap64(v); }
#else
static inline __le16 cpu_to_le16(u16 v) { return v; }
static inline __le32 cpu_to_le32(u32 v) { return v; }
static inline __le64 cpu_to_le64(u64 v) { return v; }
#endif
/* The swap is its own inverse. */
static inline u16 le16_to_cpu(__le16 v) { return cpu_to_le16(v); }
static inline u32 le32_to_cpu(__le32 v) { return cpu_to_le32(v); }
static inline u64 le64_to_cpu(__le64 v) { return cpu_to_le64(v); }

#ifdef __cplusplus
}
#endif

#endif /* FSTIME_KERNEL_TYPES_H */
