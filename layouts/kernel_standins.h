/* SPDX-License-Identifier: MIT */
/*
 * kernel_standins.h - user-space stand-ins for the kernel types that struct
 * inode embeds, each with the kernel's size and alignment on every ABI this
 * lab builds for (x86_64, i386, armhf, aarch64, riscv64).
 *
 * Only size and alignment matter: nobody takes these locks.  Composite types
 * are written member by member in the kernel's order with the kernel's member
 * names, so that the compiler (not a hand calculation) derives their size on
 * each ABI: a `long` or a pointer is 4 bytes on ILP32 and 8 on LP64, a s64 is
 * aligned to 4 on i386 and to 8 elsewhere, and so on.
 *
 * The kernel configuration these stand-ins assume (stated once, used by both
 * inode bodies; it is what distribution kernels enable), as .config lines in
 * the kernel-check block below: `scripts/lab kernel-check KERNEL_TREE`
 * appends them to each ABI's defconfig, runs `make olddefconfig` and reports
 * every line the result does not hold.  What they mean for struct inode:
 *  - SMP without lock debugging: spinlock_t and raw_spinlock_t are one 32-bit
 *    word, seqcount_t one counter;
 *  - RWSEM_SPIN_ON_OWNER and MUTEX_SPIN_ON_OWNER (the osq and owner members)
 *    on every ABI (true for x86 and arm64; assumed for the 32-bit ABIs so
 *    that the ABIs differ only in their C types);
 *  - FS_POSIX_ACL (i_acl, i_default_acl; selected by TMPFS_POSIX_ACL),
 *    SECURITY (i_security), CGROUP_WRITEBACK (i_wb, i_wb_frn_*; needs MEMCG
 *    and BLK_CGROUP), IMA (i_readcount; needs INTEGRITY), FSNOTIFY
 *    (i_fsnotify_*; selected by INOTIFY_USER);
 *  - no READ_ONLY_THP_FOR_FS (no address_space.nr_thps), no FS_ENCRYPTION /
 *    FS_VERITY members in struct inode;
 *  - on 32-bit ABIs with SMP, __NEED_I_SIZE_ORDERED, hence i_size_seqcount.
 * With these, the v6 body with the scalar representation reproduces vanilla
 * Linux 6.18.26's struct inode on the five ABIs (kernel-check.md); Linux 6.12
 * (Debian's linux-source-6.12, which `scripts/lab kernel` builds) is held to
 * the same body and differs from it by 6.18's i_linklen (kernel-check names it).
 *
 * The block also says which body and representation model which kernel tree
 * (`tree <major.minor> <body> <repr>`: the representation the tree stores its
 * timestamps in); kernel-check refuses a tree no line names.  Keep one item
 * per line, nothing else, between the markers.
 * kernel-check:begin
 * tree 4.4 v4_4 timespec
 * tree 6.12 v6 scalar
 * tree 6.18 v6 scalar
 * CONFIG_SMP=y
 * # CONFIG_DEBUG_SPINLOCK is not set
 * # CONFIG_DEBUG_LOCK_ALLOC is not set
 * # CONFIG_DEBUG_MUTEXES is not set
 * # CONFIG_DEBUG_RWSEMS is not set
 * CONFIG_RWSEM_SPIN_ON_OWNER=y
 * CONFIG_MUTEX_SPIN_ON_OWNER=y
 * CONFIG_TMPFS=y
 * CONFIG_TMPFS_POSIX_ACL=y
 * CONFIG_FS_POSIX_ACL=y
 * CONFIG_SECURITY=y
 * CONFIG_CGROUPS=y
 * CONFIG_MEMCG=y
 * CONFIG_BLK_CGROUP=y
 * CONFIG_CGROUP_WRITEBACK=y
 * CONFIG_INTEGRITY=y
 * CONFIG_IMA=y
 * CONFIG_INOTIFY_USER=y
 * CONFIG_FSNOTIFY=y
 * # CONFIG_READ_ONLY_THP_FOR_FS is not set
 * # CONFIG_FS_ENCRYPTION is not set
 * # CONFIG_FS_VERITY is not set
 * kernel-check:end
 *
 * Type names that glibc also defines (dev_t, loff_t, blkcnt_t, time_t) get a
 * kernel_ prefix so that consumers may include <sys/types.h> freely; the
 * member names of struct inode are the kernel's.
 */
#ifndef LAYOUTS_KERNEL_STANDINS_H
#define LAYOUTS_KERNEL_STANDINS_H

#include <stdint.h>

#include "kernel_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* C11 spelling in C, static_assert in C++ (the benchmark shim includes this). */
#ifdef __cplusplus
#define INODE_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define INODE_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

/* True on ABIs where the kernel's BITS_PER_LONG is 32. */
#define INODE_BITS_PER_LONG (sizeof(long) * 8)
#if defined(__LP64__) || defined(_LP64)
#define INODE_ABI_LP64 1
#else
#define INODE_ABI_LP64 0
#endif

typedef unsigned short umode_t;
typedef u32 kernel_dev_t;	/* the kernel's dev_t: always 32 bits */
typedef long long kernel_loff_t; /* loff_t */
typedef u64 kernel_blkcnt_t;	/* blkcnt_t with CONFIG_LBDAF (always, since 5.2) */
typedef long kernel_old_time_t; /* __kernel_old_time_t: the y2038-unsafe time_t */
typedef unsigned long pgoff_t;
typedef unsigned int gfp_t;
typedef u32 errseq_t;

/*
 * The kernel's pre-y2038 struct timespec (today __kernel_old_timespec): the
 * timespec representation's member type, and the file-system side of Dave
 * Chinner's boundary conversions for every representation.  It cannot be
 * called struct timespec here: <time.h> owns that name.
 */
struct kernel_old_timespec {
	kernel_old_time_t tv_sec;
	long tv_nsec;
};

typedef struct { u32 val; } kuid_t;
typedef struct { u32 val; } kgid_t;

typedef struct { int counter; } atomic_t;
typedef struct { long counter; } atomic_long_t;
/*
 * x86-32 declares its atomic64_t counter __aligned(8) (cmpxchg8b wants it);
 * everywhere else s64 is 8-aligned anyway, so one declaration fits all ABIs.
 */
typedef struct { s64 counter __attribute__((aligned(8))); } atomic64_t;

/* arch_spinlock_t is one 32-bit word on x86 (qspinlock), arm, arm64, riscv. */
typedef struct { u32 val; } arch_spinlock_t;
typedef struct { arch_spinlock_t raw_lock; } raw_spinlock_t;
typedef struct { raw_spinlock_t rlock; } spinlock_t;
/* seqcount_t without lockdep: one unsigned sequence counter. */
typedef struct { unsigned int sequence; } seqcount_t;
struct optimistic_spin_queue { atomic_t tail; };

struct list_head { struct list_head *next, *prev; };
struct hlist_head { struct hlist_node *first; };
struct hlist_node { struct hlist_node *next, **pprev; };
struct llist_node { struct llist_node *next; };
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};
#define rcu_head callback_head

struct rb_node;
struct rb_root { struct rb_node *rb_node; };
struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

/* Opaque kernel objects that struct inode only points to. */
struct posix_acl;
struct inode_operations;
struct file_operations;
struct address_space_operations;
struct file_lock_context;
struct pipe_inode_info;
struct block_device;
struct cdev;
struct bdi_writeback;
struct fsnotify_mark_connector;
struct task_struct;
struct radix_tree_node;

#ifdef __cplusplus
}
#endif

#endif /* LAYOUTS_KERNEL_STANDINS_H */
