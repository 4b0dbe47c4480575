/* SPDX-License-Identifier: MIT */
/*
 * body_v4_4.h - struct inode as in Linux 4.4 (include/linux/fs.h), the tree
 * that Deepa Dinamani's January 2016 RFC patches, with the timestamp members
 * supplied by the representation header (INODE_TIMESTAMP_MEMBERS).
 *
 * Members keep their kernel names, order and (through kernel_standins.h)
 * their size and alignment on each ABI, for the configuration documented in
 * kernel_standins.h.  Include through layouts/inode.h only.
 */
#ifndef LAYOUTS_BODY_V4_4_H
#define LAYOUTS_BODY_V4_4_H

#include "fs_time.h"
#include "kernel_standins.h"

#define INODE_BODY_ID v4_4
#define INODE_BODY_NAME "v4_4"
#define INODE_BODY_CURRENT 0
#define INODE_BODY_HAS_ATOMIC64 0
/* i_generation stays where 4.4 had it, whatever the representation. */
#define INODE_BODY_HONOURS_GENERATION_HOLE 0

/* 4.4's struct mutex with CONFIG_MUTEX_SPIN_ON_OWNER, no debugging. */
struct mutex {
	atomic_t count;
	spinlock_t wait_lock;
	struct list_head wait_list;
	struct task_struct *owner;
	struct optimistic_spin_queue osq;
};

/* 4.4's xadd rw_semaphore with CONFIG_RWSEM_SPIN_ON_OWNER. */
struct rw_semaphore {
	long count;
	struct list_head wait_list;
	raw_spinlock_t wait_lock;
	struct optimistic_spin_queue osq;
	struct task_struct *owner;
};

struct radix_tree_root {
	unsigned int height;
	gfp_t gfp_mask;
	struct radix_tree_node *rnode;
};

/* 4.4's address_space, embedded in the inode as i_data. */
struct address_space {
	struct inode *host;
	struct radix_tree_root page_tree;
	spinlock_t tree_lock;
	atomic_t i_mmap_writable;
	struct rb_root i_mmap;
	struct rw_semaphore i_mmap_rwsem;
	unsigned long nrpages;
	unsigned long nrshadows;
	pgoff_t writeback_index;
	const struct address_space_operations *a_ops;
	unsigned long flags;
	spinlock_t private_lock;
	struct list_head private_list;
	void *private_data;
} __attribute__((aligned(sizeof(long))));

struct inode {
	umode_t i_mode;
	unsigned short i_opflags;
	kuid_t i_uid;
	kgid_t i_gid;
	unsigned int i_flags;

	struct posix_acl *i_acl;
	struct posix_acl *i_default_acl;

	const struct inode_operations *i_op;
	struct super_block *i_sb;
	struct address_space *i_mapping;

	void *i_security;

	/* Stat data, not accessed from path walking */
	unsigned long i_ino;
	union {
		const unsigned int i_nlink;
		unsigned int __i_nlink;
	};
	kernel_dev_t i_rdev;
	kernel_loff_t i_size;
	INODE_TIMESTAMP_MEMBERS
	spinlock_t i_lock; /* i_blocks, i_bytes, maybe i_size */
	unsigned short i_bytes;
	unsigned int i_blkbits;
	kernel_blkcnt_t i_blocks;

#if !INODE_ABI_LP64
	/* __NEED_I_SIZE_ORDERED: 32-bit SMP reads i_size under a seqcount. */
	seqcount_t i_size_seqcount;
#endif

	/* Misc */
	unsigned long i_state;
	struct mutex i_mutex;

	unsigned long dirtied_when; /* jiffies of first dirtying */
	unsigned long dirtied_time_when;

	struct hlist_node i_hash;
	struct list_head i_io_list; /* backing dev IO list */
	struct bdi_writeback *i_wb; /* the associated cgroup wb */

	/* foreign inode detection, see wbc_detach_inode() */
	int i_wb_frn_winner;
	u16 i_wb_frn_avg_time;
	u16 i_wb_frn_history;
	struct list_head i_lru; /* inode LRU list */
	struct list_head i_sb_list;
	union {
		struct hlist_head i_dentry;
		struct rcu_head i_rcu;
	};
	u64 i_version;
	atomic_t i_count;
	atomic_t i_dio_count;
	atomic_t i_writecount;
	atomic_t i_readcount; /* struct files open RO */
	const struct file_operations *i_fop;
	struct file_lock_context *i_flctx;
	struct address_space i_data;
	struct list_head i_devices;
	union {
		struct pipe_inode_info *i_pipe;
		struct block_device *i_bdev;
		struct cdev *i_cdev;
		char *i_link;
	};

	u32 i_generation;

	u32 i_fsnotify_mask; /* all events this inode cares about */
	struct hlist_head i_fsnotify_marks;

	void *i_private; /* fs or device private pointer */
};

#endif /* LAYOUTS_BODY_V4_4_H */
