// SPDX-License-Identifier: MIT
/*
 * churn fixture: betafs, only what any approach converts mechanically.
 * 4 writes, 4 reads (2 member), 1 clock call; no local copy, no address.
 */
#include <linux/fs.h>

static struct file_system_type beta_fs_type = {
	.name = "betafs",
};

void beta_touch(struct inode *dir, struct inode *inode)
{
	dir->i_mtime = dir->i_ctime = current_time(dir);	/* W neutral, W neutral; clock */
	inode->i_ctime = dir->i_ctime;				/* W neutral, R neutral */
	if (inode->i_mtime.tv_sec < dir->i_mtime.tv_sec)	/* R member, R member */
		inode->i_mtime = dir->i_mtime;			/* W neutral, R neutral */
}
