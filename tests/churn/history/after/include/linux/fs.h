/* SPDX-License-Identifier: MIT */
/* history fixture: the inode, its timestamps of the VFS's type */
#include <linux/time64.h>

struct inode {
	unsigned int i_mode;
	struct timespec64 i_atime;
	struct timespec64 i_mtime;
	struct timespec64 i_ctime;
};

struct iattr {
	unsigned int ia_valid;
	struct timespec64 ia_atime;
	struct timespec64 ia_mtime;
	struct timespec64 ia_ctime;
};

struct inode_operations {
	int (*update_time)(struct inode *, struct timespec64 *, int);
};

struct file_system_type {
	const char *name;
};

struct timespec64 current_time(struct inode *inode);
