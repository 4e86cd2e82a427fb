/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Reading the vmscan BPF maps (vmscan_pages, vmscan_time) into per-cgroup
 * counter vectors; the only code that touches those maps. */
#ifndef NL_VMSCAN_READ_H
#define NL_VMSCAN_READ_H

#include "loader.h"
#include "vmscan_raw.h"

/* Tell the vmscan program whether MGLRU is on: bit 0 of @lru_gen_path
 * (normally /sys/kernel/mm/lru_gen/enabled; absent: classic LRU). Called
 * at open and before every read, since the mode can change at run time.
 * Returns 1 for MGLRU, 0 for the classic LRU (also without the vmscan
 * object). */
int nl_vmscan_read_set_lru_mode(const struct nl_bpf *b, const char *lru_gen_path);

/* Sum the per-CPU values of both maps of @b into @r (cleared first), by
 * cgroup id. Entries with a context or node out of range are skipped.
 * Returns 0 (also without the vmscan object: @r stays empty) or -ENOMEM. */
int nl_vmscan_read(const struct nl_bpf *b, struct nl_vs_raw *r);

/* Delete the entries of the cgroups @ids[@n] (removed, their counts folded
 * into their parents) from both maps. Returns the number deleted. */
int nl_vmscan_read_forget(const struct nl_bpf *b, const uint64_t *ids, int n);

#endif
