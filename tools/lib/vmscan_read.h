/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Reading the vmscan BPF maps (vmscan_pages, vmscan_time) into per-cgroup
 * counter vectors; the only code that touches those maps. */
#ifndef NL_VMSCAN_READ_H
#define NL_VMSCAN_READ_H

#include "loader.h"
#include "vmscan_figs.h"

/* Sum the per-CPU values of both maps of @b into @r (cleared first), by
 * cgroup id. Entries with a context or node out of range are skipped.
 * Returns 0 (also without the vmscan object: @r stays empty) or -ENOMEM. */
int nl_vs_read(const struct nl_bpf *b, struct nl_vs_raw *r);

/* Delete the entries of the cgroups @ids[@n] (removed, their counts folded
 * into their parents) from both maps. Returns the number deleted. */
int nl_vs_forget(const struct nl_bpf *b, const uint64_t *ids, int n);

#endif
