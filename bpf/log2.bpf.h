/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * log2 of a 64-bit value for the opt-in histograms (BPF side only): the
 * bucket of a duration in ns. Unrolled halving: no loop for the verifier.
 */
#ifndef NL_LOG2_BPF_H
#define NL_LOG2_BPF_H

#include "vmlinux.h"

/* floor(log2(@v)), 0 for 0 and 1. */
static __always_inline u32 nl_log2(u64 v)
{
	u32 b = 0;

#pragma unroll
	for (int s = 32; s >= 1; s >>= 1)
		if (v >> s) {
			v >>= s;
			b += s;
		}
	return b;
}

#endif
