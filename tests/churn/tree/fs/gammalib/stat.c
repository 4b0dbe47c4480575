// SPDX-License-Identifier: MIT
/* churn fixture: the second gammalib file including gamma.h (lib.c is the
 * first, in the same spatch process): 3 reads, typed through gamma_vfs(); one
 * tv_sec printed for %lu (a flag day's format site). */
#include <linux/fs.h>
#include "gamma.h"

long long gamma_stat_mtime(struct gamma_file *gf)
{
	return gamma_vfs(gf)->i_mtime.tv_sec;			/* R member */
}

void gamma_log(const char *fmt, ...);

void gamma_stat_show(struct gamma_file *gf)
{
	gamma_log("%lu\n", gamma_vfs(gf)->i_ctime.tv_sec);		/* R member; %lu: a tv_sec format site */
	gamma_log("%lld", (long long)gamma_vfs(gf)->i_atime.tv_sec);	/* R member; a cast: no format site */
}
