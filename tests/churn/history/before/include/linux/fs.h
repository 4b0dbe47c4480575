/* SPDX-License-Identifier: MIT */
/* history fixture: the inode, its timestamps of the VFS's type */
#include <linux/time64.h>

struct inode {
	unsigned int i_mode;
	struct timespec i_atime;
	struct timespec i_mtime;
	struct timespec i_ctime;
};

struct iattr {
	unsigned int ia_valid;
	struct timespec ia_atime;
	struct timespec ia_mtime;
	struct timespec ia_ctime;
};

struct inode_operations {
	int (*update_time)(struct inode *, struct timespec *, int);
};

struct file_system_type {
	const char *name;
};

struct timespec current_time(struct inode *inode);
