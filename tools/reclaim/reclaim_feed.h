/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The agent's scanned/rotated input (docs/reclaim.md, How it chooses
 * a node) taken from the snapshot's reclaim figures (struct nl_vmscan_figs,
 * the vmscan tracepoints `numalens vmscan` counts): each
 * refresh, the per node deltas of a managed cgroup are fed into the
 * decaying store of reclaim_scan.h.
 *
 * Which reclaim counts: the recent_scanned/recent_rotated of the 2011 NUMA-aware memcg reclaim
 * patches lived in
 * the lruvec's reclaim_stat, bumped by every LRU scan of that lruvec
 * whoever ran it (limit reclaim, kswapd, direct reclaim); the question the
 * weight asks, "how much of what reclaim looks at here turns out active",
 * is a property of the pages, not of who looked. So the LRU figures
 * (scanned[t], rotated[t]) of all four contexts are summed: limit, direct,
 * kswapd and proactive (memory.reclaim scans the LRUs with the same
 * reference checks). The pageout_* figures (MADV_PAGEOUT, DAMOS pageout:
 * mm_vmscan_reclaim_pages) are left out: they have no anon/file split and
 * MADV_PAGEOUT ignores the referenced bit, so their "rotated" says nothing
 * about hotness; they are also the agent's own madvise/damos steps, which
 * must not feed back into the choice that caused them.
 * The figures are hierarchical (the subtree), as memory.numa_stat is.
 *
 * Under MGLRU, rotated here is rotated + refill: the folios the scan sorted
 * into a younger generation (their accessed bits harvested by aging) were
 * looked at and kept because they are in use, which is what those patches'
 * recent_rotated counted; MGLRU's own "rotated" (promoted by the eviction
 * pass) alone stays near 0 for mapped hot pages, which aging protects
 * before eviction sees them. Under the classic LRU refill is the
 * active-list deactivation, not a sign of use, and is left out.
 */
#ifndef NL_RECLAIM_FEED_H
#define NL_RECLAIM_FEED_H

#include <stdint.h>
#include "reclaim_scan.h"
#include "snapshot.h"

/* Sum @v's per node deltas (pages, this interval) over every context into
 * @out[0 .. @nr_nodes), indexed by nid: scanned[t] and rotated[t], t = 0
 * anon, 1 file, with refill[t] added to rotated[t] when @mglru (see
 * above); pageout_* excluded. @v NULL gives zeros. */
void nl_feed_delta_from_vmscan(const struct nl_vmscan_figs *v, int nr_nodes, bool mglru,
			       struct nl_scan_node *out);

/*
 * Feed the store @src one interval of snapshot @s for each memcg id in
 * @ids[@n]: a cgroup that never reclaimed feeds zeros (its history
 * decays); a cgroup absent from @s is skipped. Returns the number fed, or
 * -ENODATA when @s has no reclaim figures (vmscan program not loaded), or
 * -EINVAL.
 */
int nl_feed_snapshot(struct nl_scan_src *src, const struct nl_snapshot *s,
			  const uint64_t *ids, int n);

#endif
