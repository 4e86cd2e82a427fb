/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Goodness-of-fit helpers for the lottery tests (R7): the per-node 5-sigma
 * band and Pearson's chi-square against the 0.001 critical value. Shared by
 * tests/unit/test_reclaim_weights.c (seeded PRNG) and tests/live/lot_dist.c
 * (draws through the BPF program).
 */
#ifndef NL_LOT_STATS_H
#define NL_LOT_STATS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>

/* Upper 0.001 quantiles of chi-square, df = 1..15 (standard tables). */
static const double nl_chi2_crit_001[16] = {
	0, 10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.124,
	27.877, 29.588, 31.264, 32.909, 34.528, 36.123, 37.697,
};

/*
 * Check @k cells of @counts (total @n) against probabilities @p. Writes a
 * one-line reason into @why on failure. Returns 1 when every cell is within
 * 5 sigma of n*p and chi-square is below the 0.001 critical value, else 0.
 * *@chi2 receives the statistic.
 */
static inline int nl_lot_fit(const unsigned long long *counts, const double *p, int k,
			     unsigned long long n,
			     double *chi2, char *why, size_t whylen)
{
	double x2 = 0;
	int df = -1;

	for (int i = 0; i < k; i++) {
		double e = p[i] * (double)n, f = (double)counts[i] / (double)n;
		double sd = sqrt(p[i] * (1 - p[i]) / (double)n);

		if (fabs(f - p[i]) > 5 * sd + 1e-12) {
			snprintf(why, whylen, "cell %d: share %.5f, expected %.5f +- %.5f (5 sigma)",
				 i, f, p[i], 5 * sd);
			return 0;
		}
		if (e > 0) {
			x2 += ((double)counts[i] - e) * ((double)counts[i] - e) / e;
			df++;
		}
	}
	*chi2 = x2;
	if (df < 1 || df > 15) {
		snprintf(why, whylen, "%d degrees of freedom: no table entry", df);
		return df < 1;
	}
	if (x2 > nl_chi2_crit_001[df]) {
		snprintf(why, whylen, "chi-square %.2f > %.3f (df %d, p < 0.001)", x2,
			 nl_chi2_crit_001[df], df);
		return 0;
	}
	return 1;
}

#endif
