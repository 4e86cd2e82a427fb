/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * NUMA-fault locality bucket math, shared by BPF programs and user space.
 * BPF-safe: no libc, only u64 arithmetic on the types nl_types.h provides.
 *
 * L ("local") and R ("remote") are a task's local/remote NUMA-hinting-fault
 * page counts in its current scan window: local means the page's node
 * (after any migration) is the faulting CPU's node, and the kernel resets
 * both at each scan-window boundary.
 */
#ifndef NL_LOCALITY_H
#define NL_LOCALITY_H

#include "nl_types.h"

/*
 * nl_loc_bucket - locality bucket of x = L / (L + R + 1), the kernel
 * patch's locality with its +1 bias, in eighths
 * closed at the top: bucket 0 holds [0, 1/8], bucket b > 0 holds
 * (b/8, (b+1)/8]. That is the Prometheus histogram's reading of
 * le=(b+1)/8, so a locality exactly on a bound (L=1, R=0 gives 1/2) is
 * counted in the bucket whose le it equals; the kernel patch's
 * floor(8 * L / (L + R + 1)) differs only there (it puts 1/2 in bucket 4).
 * @local:  local fault pages L
 * @remote: remote fault pages R
 *
 * Returns the bucket in [0, NL_LOC_BUCKETS - 1], or -1 when L + R == 0 (no
 * faults in the window: the sample goes to no bucket).
 *
 * Integer form: ceil(8x) - 1 = (8L - 1) / (L + R + 1) for L > 0. The +1
 * bias keeps 100% local below 1 without a clamp and pulls small samples
 * down, e.g. (1,0) -> 3, (1,1) -> 2, (50,50) -> 3, (126,874) -> 1 but
 * (125,875) -> 0. Never the v1 formula (10*L/(L+R)) - 2, whose unsigned
 * wrap put 0-19% in bucket 7 (never reproduced here): here (1,9) -> 0.
 * Overflow: exact for L < 2^60; callers pass per-window page counts.
 */
static inline __attribute__((always_inline)) int nl_loc_bucket(u64 local, u64 remote)
{
	u64 idx;

	if (local + remote == 0)
		return -1;
	if (local == 0)
		return 0;
	idx = (NL_LOC_BUCKETS * local - 1) / (local + remote + 1);
	/* cannot exceed 7 (8L - 1 < 8(L+R+1)); keep the bound visible to the verifier */
	if (idx > NL_LOC_BUCKETS - 1)
		idx = NL_LOC_BUCKETS - 1;
	return (int)idx;
}

/*
 * nl_loc_bucket_exact - "exact" locality bucket min(7, 8 * L / (L + R))
 * (Peter's equal-width formula, an optional mode). NOT kernel-compatible:
 * it differs from nl_loc_bucket() on small samples and bucket boundaries,
 * e.g. (1,0) -> 7 (compat 3), (1,1) -> 4 (compat 2), (50,50) -> 4 (compat 3).
 * Anything shown from it must be labelled as such.
 *
 * Returns the bucket in [0, 7], or -1 when L + R == 0.
 */
static inline __attribute__((always_inline)) int nl_loc_bucket_exact(u64 local, u64 remote)
{
	u64 idx;

	if (local + remote == 0)
		return -1;
	idx = (NL_LOC_BUCKETS * local) / (local + remote);
	if (idx > NL_LOC_BUCKETS - 1)
		idx = NL_LOC_BUCKETS - 1;
	return (int)idx;
}

#endif /* NL_LOCALITY_H */
