// SPDX-License-Identifier: MIT
/*
 * churn fixture: alphafs.  Each inode timestamp access is tagged with what
 * tests/churn_test.py expects it to count as: W = write, R = read, then its
 * use.  Totals: 12 writes, 12 reads, 8 member, 3 local, 2 struct, 1 value,
 * 1 address, 2 helper, 1 macro argument, 1 setattr, 1 getattr, 1
 * update_time, 2 clock calls (1 legacy).
 */
#include "alpha.h"

/* decode: on disk -> inode */
void alpha_read_inode(struct inode *inode, struct alpha_disk_inode *raw)
{
	inode->i_atime.tv_sec = le32_to_cpu(raw->i_atime);	/* W member */
	inode->i_atime.tv_nsec = 0;				/* W member */
	inode->i_mtime.tv_sec = le32_to_cpu(raw->i_mtime);	/* W member */
	inode->i_mtime.tv_nsec = 0;				/* W member */
	inode->i_ctime = inode->i_mtime;			/* W neutral, R neutral */
}

/* encode: inode -> on disk, through the macro, directly, by address */
void alpha_write_inode(struct inode *inode, struct alpha_disk_inode *raw)
{
	ALPHA_SET_XTIME(i_atime, inode, raw);			/* macro argument */
	raw->i_mtime = cpu_to_le32(inode->i_mtime.tv_sec);	/* R member */
	alpha_time_to_disk(&inode->i_ctime, &raw->i_ctime);	/* R address */
}

/* Bergmann: copies through local variables; addresses to VFS helpers */
int alpha_times_equal(struct inode *inode, struct inode *other)
{
	struct timespec64 mt = inode->i_mtime;			/* R local */
	struct timespec64 ct;

	ct = other->i_ctime;					/* R local */
	if (timespec64_equal(&mt, &inode->i_atime))		/* R helper */
		return 1;
	other->i_mtime = mt;					/* W local */
	return timespec64_equal(&ct, &other->i_ctime);		/* R helper */
}

/* a local that takes the clock's value: a flag day retypes its declaration */
void alpha_touch(struct inode *inode)
{
	struct timespec64 now;					/* retyped local */

	now = current_time(inode);				/* clock */
	inode->i_atime = now;					/* W local (the retyped local's copy) */
}

/* the filesystem's own structure and functions */
struct timespec64 alpha_cached(struct inode *inode)
{
	struct alpha_inode_info *ai = ALPHA_I(inode);

	ai->cached_mtime = inode->i_mtime;			/* R struct */
	alpha_log_time(inode->i_ctime);				/* R value */
	ai->vfs_inode.i_atime = current_time(inode);		/* W neutral; clock */
	return ai->vfs_inode.i_mtime;				/* R struct (returned) */
}

int alpha_newer(const struct inode *a)
{
	return a->i_mtime.tv_sec > 0;				/* R member */
}

void alpha_bump(struct inode *inode)
{
	++inode->i_mtime.tv_sec;				/* W member */
	inode->i_mtime.tv_nsec++;				/* W member */
}

void alpha_touch_legacy(struct inode *inode)
{
	inode->i_ctime = CURRENT_TIME_SEC;			/* W neutral; legacy clock */
}

/* the VFS boundary */
static int alpha_setattr(struct user_namespace *ns, struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	struct alpha_inode_info *ai = ALPHA_I(inode);

	if (attr->ia_valid & ATTR_MTIME)
		ai->cached_mtime = attr->ia_mtime;		/* setattr site */
	setattr_copy(ns, inode, attr);
	inode->i_ctime = attr->ia_ctime;			/* W neutral (iattr) */
	return 0;
}

static int alpha_getattr(struct user_namespace *ns, const struct path *path,
			 struct kstat *stat, unsigned int mask, unsigned int flags)
{
	struct inode *inode = d_inode(path->dentry);

	generic_fillattr(ns, inode, stat);
	stat->btime = ALPHA_I(inode)->i_crtime;			/* getattr site */
	stat->mtime = inode->i_mtime;				/* R neutral (kstat) */
	return 0;
}

static int alpha_update_time(struct inode *inode, struct timespec64 *now, int flags)
{
	inode->i_mtime = *now;					/* W neutral (the VFS's time) */
	return 0;
}

static const struct inode_operations alpha_iops = {
	.setattr = alpha_setattr,
	.getattr = alpha_getattr,
	.update_time = alpha_update_time,			/* update_time site */
};

static struct file_system_type alpha_fs_type = {
	.name = "alphafs",
};
