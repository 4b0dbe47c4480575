// SPDX-License-Identifier: MIT
/* history fixture: before the flag day (what after/ does with each line is said here) */
#include <linux/fs.h>

struct eps_inode {
	struct timespec cached;
};

void eps_encode(struct timespec *ts);
void eps_log(int n);

struct file_system_type eps_fs_type = { .name = "eps" };

void eps_read(struct inode *inode, struct eps_inode *ei, int flags)
{
	struct timespec now;                    /* clock local: predicted, retyped */
	struct timespec tv;                     /* retyped: changed, not predicted */
	struct timespec keep = inode->i_ctime;  /* local copy: predicted, left alone */

	ei->cached = inode->i_mtime;            /* struct copy: predicted, converted */
	eps_encode(&inode->i_ctime);            /* address passed: predicted, changed otherwise (noise) */
	now = current_time(inode);
	inode->i_atime = now;                   /* the clock local's copy: not predicted, left alone */
	if (flags) inode->i_mtime = inode->i_ctime; /* neutral; its condition changes: noise */
	eps_log(1);                             /* moved below, unchanged */
	eps_log(2);
}
