// SPDX-License-Identifier: MIT
/* churn fixture: the second gammalib file including gamma.h (lib.c is the
 * first, in the same spatch process): 1 read, typed through gamma_vfs(). */
#include <linux/fs.h>
#include "gamma.h"

long long gamma_stat_mtime(struct gamma_file *gf)
{
	return gamma_vfs(gf)->i_mtime.tv_sec;			/* R member */
}
