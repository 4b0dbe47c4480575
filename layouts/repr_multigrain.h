/* SPDX-License-Identifier: MIT */
/*
 * repr_multigrain.h - v6.13 multigrain timestamps: the scalar layout, with
 * bit 31 of i_ctime_nsec (I_CTIME_QUERIED) recording that someone has looked
 * at the ctime since it was last set, so that the next ctime update must be
 * fine-grained to stay distinguishable.  Same bytes as repr_scalar.h; only
 * the accessors differ (every nsec read masks the flag; the ctime setter
 * normalises and inode_set_ctime_current() follows the v6.13 algorithm).
 * Include through layouts/inode.h only.
 */
#ifndef LAYOUTS_REPR_MULTIGRAIN_H
#define LAYOUTS_REPR_MULTIGRAIN_H

#include "kernel_standins.h"
#include "time64.h"

#define INODE_REPR_ID multigrain
#define INODE_REPR_NAME "multigrain"

/* Valid nanoseconds need 30 bits, so bit 31 is free for the flag. */
#define I_CTIME_QUERIED (1U << 31)

#define INODE_TIMESTAMP_MEMBERS   \
	time64_t i_atime_sec;    \
	time64_t i_mtime_sec;    \
	time64_t i_ctime_sec;    \
	u32 i_atime_nsec;        \
	u32 i_mtime_nsec;        \
	u32 i_ctime_nsec;

#define INODE_FS_TIMESTAMP(name) \
	time64_t name##_sec;     \
	u32 name##_nsec;

#define INODE_TIMESTAMP_FIRST i_atime_sec
#define INODE_TIMESTAMP_LAST i_ctime_nsec
#define INODE_TIMESTAMP_BYTES (3 * sizeof(time64_t) + 3 * sizeof(u32))
INODE_STATIC_ASSERT(INODE_TIMESTAMP_BYTES == 36, "multigrain timestamps take 36 bytes on every ABI");
#define INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE 1

#define INODE_REPR_SEC(obj, xtime) ((obj)->xtime##_sec)
/* Only i_ctime_nsec ever carries the flag; masking all three costs nothing. */
#define INODE_REPR_NSEC(obj, xtime) ((long)((obj)->xtime##_nsec & ~I_CTIME_QUERIED))
#define INODE_REPR_LOAD(obj, xtime) \
	((struct timespec64){ .tv_sec = INODE_REPR_SEC(obj, xtime), .tv_nsec = INODE_REPR_NSEC(obj, xtime) })
#define INODE_REPR_STORE(obj, xtime, ts) \
	((obj)->xtime##_sec = (ts).tv_sec, (obj)->xtime##_nsec = (u32)(ts).tv_nsec)

#endif /* LAYOUTS_REPR_MULTIGRAIN_H */
