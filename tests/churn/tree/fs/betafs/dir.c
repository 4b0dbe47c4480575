// SPDX-License-Identifier: MIT
/* churn fixture: a betafs file with nothing to count (not read by spatch). */
int beta_dir_count(int n)
{
	return n + 1;
}
