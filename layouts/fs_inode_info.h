/* SPDX-License-Identifier: MIT */
/*
 * fs_inode_info.h - the file-system inode containers the 2016 debate was
 * about, each embedding the selected struct inode: ext4_inode_info (fs/ext4/
 * ext4.h), msdos_inode_info (FAT, fs/fat/fat.h) and cifsInodeInfo (SMB client,
 * fs/smb/client/cifsglob.h).  Include after (or instead of) layouts/inode.h.
 *
 * The container members are today's (v6.18; ext4_inode_info is checked
 * against this host's BTF: 1120 bytes around its 616-byte struct inode, i.e.
 * 504 bytes besides the inode, with a timespec64 i_crtime), around whichever inode body is selected: the body
 * axis varies struct inode only.  A container's own timestamp follows the
 * representation (INODE_FS_TIMESTAMP): ext4's and FAT's i_crtime.  cifs keeps
 * no timespec in its inode (createtime is a u64 NT time), so only its
 * embedded inode changes with the representation.
 *
 * Configuration beyond kernel_standins.h: CONFIG_QUOTA (i_dquot[3]),
 * CONFIG_FS_ENCRYPTION (i_crypt_info), CONFIG_FSCACHE (netfs cache cookie);
 * rwlock_t is the queued rwlock (two 32-bit words) except on 32-bit arm,
 * whose arch_rwlock_t is one word.
 */
#ifndef LAYOUTS_FS_INODE_INFO_H
#define LAYOUTS_FS_INODE_INFO_H

#include <stdbool.h>

#include "inode.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__arm__)
typedef struct { u32 lock; } arch_rwlock_t;
#else
typedef struct { atomic_t cnts; arch_spinlock_t wait_lock; } arch_rwlock_t; /* qrwlock */
#endif
typedef struct { arch_rwlock_t raw_lock; } rwlock_t;

struct wait_queue_head {
	spinlock_t lock;
	struct list_head head;
};
typedef struct wait_queue_head wait_queue_head_t;

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);
struct work_struct {
	atomic_long_t data;
	struct list_head entry;
	work_func_t func;
};

/* v6 struct mutex with CONFIG_MUTEX_SPIN_ON_OWNER, no debugging. */
struct fs_mutex {
	atomic_long_t owner;
	raw_spinlock_t wait_lock;
	struct optimistic_spin_queue osq;
	struct list_head wait_list;
};

/* The file systems' rw_semaphore is the body's (same kernel). */
typedef u64 ext4_fsblk_t;
typedef u32 ext4_group_t;
typedef u32 ext4_lblk_t;
typedef long long qsize_t;
typedef unsigned int tid_t;
typedef struct { u32 val; } kprojid_t;

struct extent_status;
struct jbd2_inode;
struct dquot;
struct fscrypt_inode_info;
struct netfs_request_ops;
struct fscache_cookie;

struct ext4_es_tree {
	struct rb_root root;
	struct extent_status *cache_es;
};

struct ext4_pending_tree {
	struct rb_root root;
};

struct ext4_inode_info {
	__le32 i_data[15]; /* unconverted */
	u32 i_dtime;
	ext4_fsblk_t i_file_acl;
	ext4_group_t i_block_group;
	ext4_lblk_t i_dir_start_lookup;
	unsigned long i_flags;
	struct rw_semaphore xattr_sem;
	union {
		struct list_head i_orphan; /* unlinked but open inodes */
		unsigned int i_orphan_idx; /* index in orphan file */
	};
	struct list_head i_fc_dilist;
	struct list_head i_fc_list;
	ext4_lblk_t i_fc_lblk_start;
	ext4_lblk_t i_fc_lblk_len;
	spinlock_t i_raw_lock;
	wait_queue_head_t i_fc_wait;
	spinlock_t i_fc_lock;
	kernel_loff_t i_disksize;
	struct rw_semaphore i_data_sem;
	struct inode vfs_inode;
	struct jbd2_inode *jinode;
	/* File creation time: the representation's own timestamp. */
	INODE_FS_TIMESTAMP(i_crtime)
	atomic_t i_prealloc_active;
	unsigned int i_reserved_data_blocks;
	struct rb_root i_prealloc_node;
	rwlock_t i_prealloc_lock;
	struct ext4_es_tree i_es_tree;
	rwlock_t i_es_lock;
	struct list_head i_es_list;
	unsigned int i_es_all_nr;
	unsigned int i_es_shk_nr;
	ext4_lblk_t i_es_shrink_lblk;
	ext4_group_t i_last_alloc_group;
	struct ext4_pending_tree i_pending_tree;
	u16 i_extra_isize;
	u16 i_inline_off;
	u16 i_inline_size;
	qsize_t i_reserved_quota;
	spinlock_t i_block_reservation_lock;
	spinlock_t i_completed_io_lock;
	struct list_head i_rsv_conversion_list;
	struct work_struct i_rsv_conversion_work;
	tid_t i_sync_tid;
	tid_t i_datasync_tid;
	struct dquot *i_dquot[3];
	u32 i_csum_seed;
	kprojid_t i_projid;
	struct fscrypt_inode_info *i_crypt_info;
};

struct msdos_inode_info {
	spinlock_t cache_lru_lock;
	struct list_head cache_lru;
	int nr_caches;
	/* for avoiding the race between fat_free() and fat_get_cluster() */
	unsigned int cache_valid_id;

	kernel_loff_t mmu_private; /* physically allocated size */

	int i_start;    /* first cluster or 0 */
	int i_logstart; /* logical first cluster */
	int i_attrs;    /* unused attribute bits */
	kernel_loff_t i_pos; /* on-disk position of directory entry or 0 */
	struct hlist_node i_fat_hash; /* hash by i_location */
	struct hlist_node i_dir_hash; /* hash by i_logstart */
	struct rw_semaphore truncate_lock; /* protect bmap against truncate */
	INODE_FS_TIMESTAMP(i_crtime) /* File creation (birth) time */
	struct inode vfs_inode;
};

/* netfs's wrapper, which cifs embeds first. */
struct netfs_inode {
	struct inode inode; /* The VFS inode */
	const struct netfs_request_ops *ops;
	struct fscache_cookie *cache;
	struct fs_mutex wb_lock; /* Writeback serialisation */
	kernel_loff_t remote_i_size;
	kernel_loff_t zero_point;
	atomic_t io_count;
	unsigned long flags;
};

#define SMB2_LEASE_KEY_SIZE 16

struct cifsInodeInfo {
	struct netfs_inode netfs; /* Netfslib context and vfs inode */
	bool can_cache_brlcks;
	struct list_head llist; /* locks held by this inode */
	struct rw_semaphore lock_sem; /* protect the fields above */
	struct list_head openFileList;
	spinlock_t open_file_lock; /* protects openFileList */
	u32 cifsAttrs; /* e.g. DOS archive bit, sparse, compressed, system */
	unsigned int oplock; /* oplock/lease level we have */
	u16 epoch; /* used to track lease state changes */
	bool lease_granted;
	unsigned long flags;
	spinlock_t writers_lock;
	unsigned int writers; /* Number of writers on this inode */
	unsigned long time; /* jiffies of last update of inode */
	u64 uniqueid; /* server inode number */
	u64 createtime; /* creation time on server (NT time, not a timespec) */
	u8 lease_key[SMB2_LEASE_KEY_SIZE];
	struct list_head deferred_closes; /* list of deferred closes */
	spinlock_t deferred_lock; /* protection on deferred list */
	char *symlink_target;
	u32 reparse_tag;
};

#ifdef __cplusplus
}
#endif

#endif /* LAYOUTS_FS_INODE_INFO_H */
