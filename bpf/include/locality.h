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
 * nl_loc_bucket - kernel-compatible locality bucket, one of 8:
 * 8 * L / (L + R + 1) in integer arithmetic.
 * @local:  local fault pages L
 * @remote: remote fault pages R
 *
 * Returns the bucket in [0, NL_LOC_BUCKETS - 1], or -1 when L + R == 0 (no
 * faults in the window: the sample goes to no bucket).
 *
 * The +1 bias in the denominator is the v2 patch's (Wang's change to
 * Peter's 8*L/(L+R)): it keeps 100% local at 7 without a clamp, and it pulls
 * small samples and exact boundaries down one bucket, e.g. (1,0) -> 4,
 * (1,1) -> 2, (50,50) -> 3, (126,874) -> 1 but (125,875) -> 0. Never the v1
 * formula (10*L/(L+R)) - 2, whose unsigned wrap put 0-19% in bucket 7
 * (never reproduced here): here (1,9) -> 0.
 * Overflow: exact for L < 2^61; callers pass per-window page counts.
 */
static inline __attribute__((always_inline)) int nl_loc_bucket(u64 local, u64 remote)
{
	u64 idx;

	if (local + remote == 0)
		return -1;
	idx = (NL_LOC_BUCKETS * local) / (local + remote + 1);
	/* cannot exceed 7 (8L < 8(L+R+1)); keep the bound visible to the verifier */
	if (idx > NL_LOC_BUCKETS - 1)
		idx = NL_LOC_BUCKETS - 1;
	return (int)idx;
}

/*
 * nl_loc_bucket_exact - "exact" locality bucket min(7, 8 * L / (L + R))
 * (Peter's equal-width formula, an optional mode). NOT kernel-compatible:
 * it differs from nl_loc_bucket() on small samples and bucket boundaries,
 * e.g. (1,0) -> 7 (compat 4), (1,1) -> 4 (compat 2), (50,50) -> 4 (compat 3).
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
