// SPDX-License-Identifier: MIT
/* history fixture: a file the "release" removed: its predicted site is in no count */
#include <linux/fs.h>

struct timespec eps_saved;

void eps_old(struct inode *inode)
{
	eps_saved = inode->i_ctime;
}
