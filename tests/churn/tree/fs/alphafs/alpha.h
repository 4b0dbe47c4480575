/* SPDX-License-Identifier: MIT */
/* churn fixture: alphafs, an invented filesystem with every pattern once. */
#include <linux/fs.h>

/* on disk: the same field names, but not a struct inode: never counted */
struct alpha_disk_inode {
	__le32 i_atime;
	__le32 i_mtime;
	__le32 i_ctime;
};

struct alpha_inode_info {
	struct timespec64 i_crtime;
	struct timespec64 cached_mtime;
	struct inode vfs_inode;
};

static inline struct alpha_inode_info *ALPHA_I(struct inode *inode)
{
	return container_of(inode, struct alpha_inode_info, vfs_inode);
}

/* ext4-style: the field name is a macro argument, pasted inside */
#define ALPHA_SET_XTIME(xtime, inode, raw) \
	((raw)->xtime = cpu_to_le32((inode)->xtime.tv_sec))

void alpha_time_to_disk(struct timespec64 *ts, __le32 *out);
void alpha_log_time(struct timespec64 ts);
