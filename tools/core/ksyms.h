/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Kernel text ranges from /proc/kallsyms, for BPF programs that must
 * recognise a caller on the kernel stack (vmscan: proactive reclaim).
 */
#ifndef NL_KSYMS_H
#define NL_KSYMS_H

#include <stdint.h>

/*
 * nl_ksym_ranges - text range [lo, hi) of each of the @n functions @names
 * in @kallsyms_path ("/proc/kallsyms" or a fixture of the same format).
 * hi is the next higher text symbol's address (kallsyms has no sizes).
 * A name that is absent (inlined, or addresses hidden by kptr_restrict,
 * which shows them as 0) gets lo = hi = 0.
 * Returns how many names were found, or -errno if the file cannot be read.
 */
int nl_ksym_ranges(const char *kallsyms_path, const char *const *names, int n,
		   uint64_t *lo, uint64_t *hi);

#endif
