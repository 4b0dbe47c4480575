/* SPDX-License-Identifier: MIT */
/*
 * body_v6.h - today's struct inode: vanilla Linux 6.18.26's
 * include/linux/fs.h with the configuration of kernel_standins.h, checked
 * member by member on x86_64, i386, armhf, aarch64 and riscv64 by
 * `scripts/lab kernel-check` (reports/layouts/kernel-check.md), with the
 * timestamp members supplied by the representation header.  This host's
 * vendor 6.18 kernel adds a member vanilla lacks (i_kept, after i_lru); the
 * replica does not copy it: reports/layouts/btf-compare.md reports it as the
 * host kernel's own.
 *
 * i_generation: with the scalar and multigrain representations it fills the
 * 4-byte hole after the three 32-bit nsec fields, as mainline v6.11 moved it;
 * with the struct representations it stays where v6.10 had it, between the
 * i_pipe union and i_fsnotify_mask.  That move is why mainline's struct inode
 * went from 616 to 608 bytes on x86_64, not 12 bytes fewer.
 *
 * Members keep their kernel names, order and (through kernel_standins.h)
 * their size and alignment on each ABI.  Include through layouts/inode.h only.
 */
#ifndef LAYOUTS_BODY_V6_H
#define LAYOUTS_BODY_V6_H

#include "fs_time.h"
#include "kernel_standins.h"

#define INODE_BODY_ID v6
#define INODE_BODY_NAME "v6"
/* Today's kernel: the threaded (load) and torn-read runs use this body. */
#define INODE_BODY_CURRENT 1
/* i_version and i_sequence are atomic64_t (8-aligned even on i386). */
#define INODE_BODY_HAS_ATOMIC64 1
/* With INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE, i_generation follows the timestamps. */
#define INODE_BODY_HONOURS_GENERATION_HOLE 1

/* v6 rw_semaphore with CONFIG_RWSEM_SPIN_ON_OWNER, no debugging. */
struct rw_semaphore {
	atomic_long_t count;
	atomic_long_t owner;
	struct optimistic_spin_queue osq;
	raw_spinlock_t wait_lock;
	struct list_head wait_list;
};

struct xarray {
	spinlock_t xa_lock;
	gfp_t xa_flags;
	void *xa_head;
};

/* v6 address_space (no CONFIG_READ_ONLY_THP_FOR_FS), embedded as i_data. */
struct address_space {
	struct inode *host;
	struct xarray i_pages;
	struct rw_semaphore invalidate_lock;
	gfp_t gfp_mask;
	atomic_t i_mmap_writable;
	struct rb_root_cached i_mmap;
	unsigned long nrpages;
	pgoff_t writeback_index;
	const struct address_space_operations *a_ops;
	unsigned long flags;
	errseq_t wb_err;
	spinlock_t i_private_lock;
	struct list_head i_private_list;
	struct rw_semaphore i_mmap_rwsem;
	void *i_private_data;
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
#if INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE
	u32 i_generation;
#endif
	spinlock_t i_lock; /* i_blocks, i_bytes, maybe i_size */
	unsigned short i_bytes;
	u8 i_blkbits;
	u8 i_write_hint; /* enum rw_hint, one byte */
	kernel_blkcnt_t i_blocks;

#if !INODE_ABI_LP64
	/* __NEED_I_SIZE_ORDERED: 32-bit SMP reads i_size under a seqcount. */
	seqcount_t i_size_seqcount;
#endif

	/* Misc: enum inode_state_flags_t since 6.18 (unsigned long before) */
	u32 i_state;
	struct rw_semaphore i_rwsem;

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
	struct list_head i_wb_list; /* backing dev writeback list */
	union {
		struct hlist_head i_dentry;
		struct rcu_head i_rcu;
	};
	atomic64_t i_version;
	atomic64_t i_sequence; /* see futex */
	atomic_t i_count;
	atomic_t i_dio_count;
	atomic_t i_writecount;
	atomic_t i_readcount; /* struct files open RO */
	union {
		const struct file_operations *i_fop;
		void (*free_inode)(struct inode *inode);
	};
	struct file_lock_context *i_flctx;
	struct address_space i_data;
	union {
		struct list_head i_devices;
		int i_linklen;
	};
	union {
		struct pipe_inode_info *i_pipe;
		struct cdev *i_cdev;
		char *i_link;
		unsigned int i_dir_seq;
	};

#if !INODE_REPR_GENERATION_IN_TIMESTAMP_HOLE
	u32 i_generation;
#endif

	u32 i_fsnotify_mask; /* all events this inode cares about */
	struct fsnotify_mark_connector *i_fsnotify_marks;

	void *i_private; /* fs or device private pointer */
};

#endif /* LAYOUTS_BODY_V6_H */
