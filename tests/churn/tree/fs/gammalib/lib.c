// SPDX-License-Identifier: MIT
/* churn fixture: a library (no file_system_type): 1 read, typed through
 * file_inode() from include/linux/fs.h; the first file including gamma.h. */
#include <linux/fs.h>
#include "gamma.h"

long long gamma_mtime_sec(struct file *file)
{
	return file_inode(file)->i_mtime.tv_sec;		/* R member */
}
