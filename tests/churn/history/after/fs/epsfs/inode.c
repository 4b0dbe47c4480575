// SPDX-License-Identifier: MIT
/* history fixture: after the flag day (before/ says what each change is) */
#include <linux/fs.h>

struct eps_inode {
	struct timespec cached;
};

void eps_encode(struct timespec *ts);
void eps_log(int n);

struct file_system_type eps_fs_type = { .name = "eps" };

void eps_read(struct inode *inode, struct eps_inode *ei, int flags)
{
	struct timespec64 now;                  /* clock local: predicted, retyped */
	struct timespec64 tv;                   /* retyped: changed, not predicted */
	struct timespec keep = inode->i_ctime;  /* local copy: predicted, left alone */

	ei->cached = timespec64_to_timespec(inode->i_mtime);            /* struct copy: predicted, converted */
	eps_encode(&inode->i_ctime); eps_log(3);            /* address passed: predicted, changed otherwise (noise) */
	now = current_time(inode);
	struct timespec64 unused;               /* support: added, replaces nothing */
	inode->i_atime = now;                   /* the clock local's copy: not predicted, left alone */
	if (flags > 1) inode->i_mtime = inode->i_ctime; /* neutral; its condition changes: noise */
	eps_log(2);
	eps_log(1);                             /* moved below, unchanged */
}
