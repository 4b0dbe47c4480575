/* SPDX-License-Identifier: MIT */
/*
 * rfc03_setter.h - RFC 03/15's VFS_INODE_SET_XTIME() as posted (include/linux/fs.h,
 * #ifdef CONFIG_FS_USES_64BIT_TIME), renamed RFC03_: the tests that run it
 * share this one copy.  The includer defines struct super_block (with s_op->
 * bad_timestamp) and is_fs_timestamp_bad() before expanding it.
 */
#ifndef TESTS_RFC03_SETTER_H
#define TESTS_RFC03_SETTER_H

#define inode_timespec timespec64	/* RFC 02/15, CONFIG_FS_USES_64BIT_TIME */
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

#define RFC03_VFS_INODE_SET_XTIME(xtime, inode, ts64)			\
	do {								\
		struct inode_timespec __ts = (ts64);			\
		struct super_block *__sb = inode->i_sb;			\
		(inode)->xtime##_sec = __ts.tv_sec;			\
		(inode)->xtime##_nsec = __ts.tv_nsec;			\
		if (unlikely(is_fs_timestamp_bad(ts64))) {		\
			(inode)->xtime##_nsec = 0;			\
			if (__sb->s_op->bad_timestamp)			\
				__sb->s_op->bad_timestamp(__sb);	\
		}							\
	} while (0)

#endif /* TESTS_RFC03_SETTER_H */
