/* SPDX-License-Identifier: MIT */
/* churn fixture: gammalib's own header; its function gives the inode of a
 * gamma_file (as xfs's and ntfs's VFS_I() do).  spatch 1.1.1 gives a local
 * header's functions to the first file of a process that includes it only
 * (later files find its declarations in a name cache that lacks them), so
 * churn declares such functions to every file (run.py, inode_functions). */
struct gamma_file {
	struct inode *inode;
};

static inline struct inode *gamma_vfs(struct gamma_file *gf)
{
	return gf->inode;
}
