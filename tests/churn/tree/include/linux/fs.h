/* SPDX-License-Identifier: MIT */
/* churn fixture: the VFS types and functions the invented filesystems use */
#include <linux/time64.h>

struct user_namespace;
struct dentry;

struct inode {
	unsigned int i_mode;
	struct timespec64 i_atime;
	struct timespec64 i_mtime;
	struct timespec64 i_ctime;
};

struct iattr {
	unsigned int ia_valid;
	struct timespec64 ia_atime;
	struct timespec64 ia_mtime;
	struct timespec64 ia_ctime;
};

struct kstat {
	struct timespec64 atime;
	struct timespec64 mtime;
	struct timespec64 ctime;
	struct timespec64 btime;
};

struct path {
	struct dentry *dentry;
};

struct file {
	struct inode *f_inode;
};

struct inode_operations {
	int (*setattr)(struct user_namespace *, struct dentry *, struct iattr *);
	int (*getattr)(struct user_namespace *, const struct path *, struct kstat *, unsigned int, unsigned int);
	int (*update_time)(struct inode *, struct timespec64 *, int);
};

struct file_system_type {
	const char *name;
};

static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}

struct timespec64 current_time(struct inode *inode);
struct timespec64 timestamp_truncate(struct timespec64 t, struct inode *inode);
void setattr_copy(struct user_namespace *ns, struct inode *inode, const struct iattr *attr);
void generic_fillattr(struct user_namespace *ns, struct inode *inode, struct kstat *stat);
