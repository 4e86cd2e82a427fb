/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Turning raw counters into the snapshot's per-interval figures. */
#ifndef NL_FIGS_H
#define NL_FIGS_H

#include <stdbool.h>
#include "counts.h"
#include "snapshot.h"

/*
 * nl_figs_compute - fill @f from the counters @cur (now) and @prev (the
 * previous interval's; NULL = first sight, counted from zero).
 * @interval_ns: measured interval length, > 0, for cpu_pct
 * @numa_balancing: kernel.numa_balancing != 0; when false, or when no
 *   locality sample landed in a bucket this interval, loc.available is
 *   false and loc.mean NAN (never a locality of 0)
 * Deltas of a counter that went backwards (map entry recreated) are 0.
 */
void nl_figs_compute(struct nl_figs *f, const struct nl_counts *cur, const struct nl_counts *prev,
		     uint64_t interval_ns, bool numa_balancing);

#endif
