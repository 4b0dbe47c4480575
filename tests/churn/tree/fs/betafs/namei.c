// SPDX-License-Identifier: MIT
/*
 * churn fixture: betafs, only what any approach converts mechanically.
 * 6 writes, 12 reads (3 member), 1 clock call; no local copy, no address
 * passed (one cast to another pointer type and two given to memcpy() between
 * inode timestamps: neutral; one given to memcpy() into betafs's own storage:
 * a struct copy); 4 manual sites (the addresses).
 */
#include <linux/fs.h>
#include <linux/string.h>

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

#define BETA_SEC(t) ((t).tv_sec)

long beta_secs(struct inode *inode)
{
	inode->i_atime = inode->i_mtime = inode->i_ctime;	/* W neutral, W neutral (the chain's middle), R neutral */
	return BETA_SEC(inode->i_mtime);			/* R member (a macro that takes its tv_sec) */
}

long beta_clear(struct inode *inode)
{
	*(unsigned long long *)&inode->i_ctime = 0;		/* R neutral (address cast to another pointer type) */
	return sizeof(inode->i_atime);				/* R neutral (its size) */
}

struct beta_raw {
	struct timespec64 t;
};

void beta_save(struct inode *inode, struct beta_raw *raw)
{
	memcpy(&raw->t, &inode->i_mtime, sizeof(raw->t));		/* R struct (bytes into betafs's storage) */
	memcpy(&inode->i_atime, &inode->i_ctime, sizeof(inode->i_atime));	/* R neutral x3 (inode to inode, sizeof) */
}
