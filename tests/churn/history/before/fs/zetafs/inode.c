// SPDX-License-Identifier: MIT
/* history fixture: the issue-34 review's cases, before the flag day (each line's fate said here) */
#include <linux/fs.h>

struct zeta_inode {
	struct timespec crtime;
};

struct file_system_type zeta_fs_type = { .name = "zeta" };

void zeta_log(const char *fmt, long v);

void zeta_create(struct inode *inode, struct zeta_inode *zi)
{
	inode->i_mtime = inode->i_ctime = zi->crtime =   /* split assignment (was noise): struct copy, a site */
		current_time(inode);                     /* clock store: predicted, a site, converted */
}

void zeta_stamp(struct inode *inode, struct timespec *when) /* parameter retyped: a site, covered by line 21 */
{
	*when = current_time(inode);                     /* clock store: predicted, converted (line 19) */
}

void zeta_set(struct inode *inode, struct timespec *ts, int n)
{
	zeta_log("set", n);
	inode->i_ctime = *ts;                            /* struct copy: predicted, converted (ts64, new) */
}

long zeta_older(struct inode *inode)
{
	struct timespec tv;                              /* retyped: a site, covered by line 33 */
	tv = inode->i_atime;                             /* local copy: predicted, converted (line 32) */
	return tv.tv_sec;
}

int zeta_newer(struct inode *inode, struct zeta_inode *zi)
{
	return timespec_compare(&zi->crtime,             /* renamed helper: a site, covered by line 40 */
				&inode->i_mtime) > 0;    /* helper use: predicted, converted (line 39) */
}

void zeta_print(struct inode *inode)
{
	zeta_log("%ld",
		 inode->i_mtime.tv_sec);                 /* cast (was noise): a site, not predicted */
}

static int zeta_update_time(
	struct inode *inode,
	struct timespec *now,                            /* update_time signature over lines: predicted, converted */
	int flags)
{
	return flags;
}

struct inode_operations zeta_iops = { .update_time = zeta_update_time };
