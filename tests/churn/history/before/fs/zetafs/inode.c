// SPDX-License-Identifier: MIT
/* history fixture: the issue-34 review's cases, before the flag day (each line's fate said here) */
#include <linux/fs.h>

struct zeta_inode {
	struct timespec crtime;
};

struct file_system_type zeta_fs_type = { .name = "zeta" };

void zeta_log(const char *fmt, ...);

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
		 inode->i_mtime.tv_sec);                 /* tv_sec for %ld (was noise): a format site, predicted, converted (a cast) */
}

static int zeta_update_time(
	struct inode *inode,
	struct timespec *now,                            /* update_time signature over lines: predicted, converted */
	int flags)
{
	return flags;
}

struct inode_operations zeta_iops = { .update_time = zeta_update_time };

void zeta_show(struct inode *inode, struct iattr *attr)
{
	zeta_log("%lu", inode->i_ctime.tv_sec);          /* format site (%lu): predicted, left alone by the release */
	zeta_log("%ld\n", attr->ia_mtime.tv_sec);        /* format site (an iattr's, %ld): predicted, converted (a cast) */
	zeta_log("%lld.%09ld", (long long)inode->i_atime.tv_sec,   /* cast already: no site */
		 inode->i_atime.tv_nsec);                /* tv_nsec stays long: no site */
	zeta_log("%*s %ld", 4, "x",
		 inode->i_mtime.tv_sec);                 /* %ld after a '*' width and a %s: a format site, converted */
}

#define ZETA_SEC(t) ((t).tv_sec)

long zeta_chain(struct inode *inode, struct inode *dir)
{
	dir->i_mtime = dir->i_ctime = inode->i_ctime;   /* a chain of inode timestamps: no site, left alone */
	return ZETA_SEC(inode->i_mtime);                 /* a macro taking its tv_sec: no site, left alone */
}

void zeta_clear(struct inode *inode)
{
	long n = sizeof(inode->i_atime);                 /* a timestamp's size: no site */
	*(unsigned long long *)&inode->i_ctime = n;      /* its address cast to another pointer type: no site */
}

void zeta_save(struct inode *inode, struct zeta_inode *zi)
{
	memcpy(&zi->crtime, &inode->i_mtime, sizeof(zi->crtime));   /* bytes into zetafs's storage: a struct copy, predicted, converted */
}

void zeta_attr(struct inode *inode, struct iattr *attr)
{
	attr->ia_ctime = attr->ia_mtime =                /* a chain of iattr fields and the clock: no site */
		current_time(inode);
}
