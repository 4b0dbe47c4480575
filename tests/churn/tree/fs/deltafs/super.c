// SPDX-License-Identifier: MIT
/*
 * churn fixture: deltafs, what the count cannot attribute: an access in a
 * macro body (its base has no type) and one in a function spatch cannot
 * parse.  Both are reported as unresolved, never counted.  1 write, 1 read.
 */
#include <linux/fs.h>

#define DELTA_MTIME(i) ((i)->i_mtime)

static struct file_system_type delta_fs_type = {
	.name = "deltafs",
};

int delta_broken(struct inode *inode)
{
	return inode->i_mtime.tv_sec + ) ;
}

void delta_ok(struct inode *inode)
{
	inode->i_atime = inode->i_mtime;			/* W neutral, R neutral */
}
