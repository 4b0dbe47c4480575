// SPDX-License-Identifier: MIT
/* history fixture: the review's cases, after the flag day (before/ says what each change is) */
#include <linux/fs.h>

struct zeta_inode {
	struct timespec crtime;
};

struct file_system_type zeta_fs_type = { .name = "zeta" };

void zeta_log(const char *fmt, ...);

void zeta_create(struct inode *inode, struct zeta_inode *zi)
{
	inode->i_mtime = inode->i_ctime = current_time(inode);
	zi->crtime = timespec64_to_timespec(inode->i_mtime);
}

void zeta_stamp(struct inode *inode, struct timespec64 *when)
{
	*when = current_time(inode);
}

void zeta_set(struct inode *inode, struct timespec *ts, int n)
{
	struct timespec64 ts64 = timespec_to_timespec64(*ts);
	zeta_log("set", n);
	inode->i_ctime = ts64;
}

long zeta_older(struct inode *inode)
{
	struct timespec64 tv;
	tv = inode->i_atime;
	return tv.tv_sec;
}

int zeta_newer(struct inode *inode, struct zeta_inode *zi)
{
	return timespec64_compare(&zi->crtime,
				  &inode->i_mtime) > 0;
}

void zeta_print(struct inode *inode)
{
	zeta_log("%lld",
		 (long long)inode->i_mtime.tv_sec);
}

static int zeta_update_time(
	struct inode *inode,
	struct timespec64 *now,
	int flags)
{
	return flags;
}

struct inode_operations zeta_iops = { .update_time = zeta_update_time };

void zeta_show(struct inode *inode, struct iattr *attr)
{
	zeta_log("%lu", inode->i_ctime.tv_sec);
	zeta_log("%lld\n", (long long)attr->ia_mtime.tv_sec);
	zeta_log("%lld.%09ld", (long long)inode->i_atime.tv_sec,
		 inode->i_atime.tv_nsec);
	zeta_log("%*s %lld", 4, "x",
		 (long long)inode->i_mtime.tv_sec);
}

#define ZETA_SEC(t) ((t).tv_sec)

long zeta_chain(struct inode *inode, struct inode *dir)
{
	dir->i_mtime = dir->i_ctime = inode->i_ctime;
	return ZETA_SEC(inode->i_mtime);
}

void zeta_clear(struct inode *inode)
{
	long n = sizeof(inode->i_atime);
	*(unsigned long long *)&inode->i_ctime = n;
}

void zeta_save(struct inode *inode, struct zeta_inode *zi)
{
	zi->crtime = timespec64_to_timespec(inode->i_mtime);
}

void zeta_attr(struct inode *inode, struct iattr *attr)
{
	attr->ia_ctime = attr->ia_mtime =
		current_time(inode);
}
