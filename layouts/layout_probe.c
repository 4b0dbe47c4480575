// SPDX-License-Identifier: MIT
/*
 * layout_probe.c - one object per layout whose only job is to carry the
 * DWARF of struct inode and the containers, for pahole (scripts/lab pahole).
 * Compiled with the preset's -g flags; never linked into anything.
 */
#include "fs_inode_info.h"

/* Tentative definitions force the types into the object's debug info. */
struct inode layout_probe_inode;
struct ext4_inode_info layout_probe_ext4_inode_info;
struct msdos_inode_info layout_probe_msdos_inode_info;
struct cifsInodeInfo layout_probe_cifs_inode_info;
struct timespec64 layout_probe_timespec64;
struct kernel_old_timespec layout_probe_old_timespec;
#if INODE_TIME_REPR == INODE_REPR_PACKED12
struct inode_timespec layout_probe_inode_timespec;
#endif
