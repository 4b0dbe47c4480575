/* SPDX-License-Identifier: MIT */
/* churn fixture: d_inode(), whose return type spatch learns from here */
struct dentry {
	struct inode *d_inode;
};

static inline struct inode *d_inode(const struct dentry *dentry)
{
	return dentry->d_inode;
}
