// SPDX-License-Identifier: MIT
/* churn fixture, row "vfs": 2 writes, one neutral (from iattr directly),
 * one a helper use (the result of the VFS helper timestamp_truncate(): a
 * flag day renames the helper). */
#include <linux/fs.h>

void setattr_copy(struct user_namespace *ns, struct inode *inode, const struct iattr *attr)
{
	unsigned int ia_valid = attr->ia_valid;

	if (ia_valid & ATTR_ATIME)
		inode->i_atime = attr->ia_atime;
	if (ia_valid & ATTR_MTIME)
		inode->i_mtime = timestamp_truncate(attr->ia_mtime, inode);
}
