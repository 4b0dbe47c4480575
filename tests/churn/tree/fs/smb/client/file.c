// SPDX-License-Identifier: MIT
/* churn fixture: fs/smb/ holds only subfolders, so this row is smb/client.
 * 1 read, copied through a pointer (struct copy). */
#include <linux/fs.h>

static struct file_system_type cifs_fs_type = {
	.name = "cifs",
};

void cifs_copy_mtime(struct inode *inode, struct timespec64 *out)
{
	*out = inode->i_mtime;					/* R struct */
}
