// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Snapshot reclaim figures -> the lottery's scanned/rotated store
 * (reclaim_feed.h). */
#include <errno.h>
#include <string.h>
#include "reclaim_feed.h"
#include "vmscan_figs.h"

void nl_feed_delta_from_vmscan(const struct nl_vmscan_figs *v, int nr_nodes, bool mglru,
			       struct nl_scan_node *out)
{
	if (nr_nodes > NL_MAX_NODES)
		nr_nodes = NL_MAX_NODES;
	if (nr_nodes <= 0)
		return;
	memset(out, 0, sizeof(*out) * (size_t)nr_nodes);
	if (!v)
		return;
	for (int n = 0; n < nr_nodes; n++) {
		const struct nl_vs_page_figs *d = nl_vs_node(v, n)->delta;

		for (int c = 0; c < NL_VS_NR_CTX; c++)
			for (int t = 0; t < 2; t++) {
				out[n].scanned[t] += d[c].scanned[t];
				out[n].rotated[t] += d[c].rotated[t] + (mglru ? d[c].refill[t] : 0);
			}
	}
}

int nl_feed_snapshot(struct nl_scan_src *src, const struct nl_snapshot *s,
			  const uint64_t *ids, int n)
{
	int fed = 0;

	if (!src || !s || (n && !ids))
		return -EINVAL;
	if (!s->src.vmscan)
		return -ENODATA;
	for (int i = 0; i < n; i++)
		for (int k = 0; k < s->nr_cgroups; k++) {
			const struct nl_cgroup *g = &s->cgroups[k];
			struct nl_scan_node d[NL_MAX_NODES];

			if (g->id != ids[i] || g->removed)
				continue;
			nl_feed_delta_from_vmscan(nl_vmscan_figs_cgroup(s, g), NL_MAX_NODES, s->src.mglru, d);
			if (!nl_scan_feed(src, ids[i], d, NL_MAX_NODES))
				fed++;
			break;
		}
	return fed;
}
