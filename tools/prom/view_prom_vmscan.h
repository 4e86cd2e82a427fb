/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reclaim (vmscan) families of `numalens export`: the figures of
 * `numalens vmscan` as Prometheus
 * counters and a classic histogram, rendered by nl_prom_render() after
 * the other cgroup families. Names, labels and the series count are in
 * README.md ("numalens export", reclaim metrics).
 *
 * Pages become bytes (pages x page_size): freed and scanned memory is a
 * quantity of memory, and the export already gives memory in bytes
 * (allocated_bytes_total, memory_anon_bytes), so rates compare directly
 * in PromQL; numalens_page_size_bytes turns them back into the pages of
 * memory.stat pgscan/pgsteal.
 */
#ifndef NL_VIEW_PROM_VMSCAN_H
#define NL_VIEW_PROM_VMSCAN_H

#include <stddef.h>
#include <stdint.h>
#include "snapshot.h"
#include "strbuf.h"

/* Finite `le` bounds of numalens_cgroup_reclaim_duration_seconds. */
#define NL_PROM_RECLAIM_LE 13

/* For bound i, the last log2 bucket b (of struct nl_vs_time_figs.hist,
 * [2^b, 2^(b+1)) ns) it includes: every second bucket from b = 9 to 33,
 * so the bounds run from ~1 us to ~17 s by factors of 4. Its `le` is
 * (2^(b+1) - 1) ns in seconds: an integer-ns episode in bucket b is at
 * most that long, and one of exactly 2^(b+1) ns is in bucket b + 1, so
 * le = 2^(b+1) ns would leave it out of a bucket whose le it does not
 * exceed (a value must land in the first bucket whose le is >= it). */
extern const uint8_t nl_prom_reclaim_bucket[NL_PROM_RECLAIM_LE];

/* The exported cgroup rows, as view_prom.c selected them: @n cgroups
 * @cg[i], whose escaped label set (`cgroup="/a"`) is @lab + @off[i],
 * @len[i] bytes. */
struct nl_prom_cgroup_rows {
	int n;
	const struct nl_cgroup *const *cg;
	const char *lab;
	const size_t *off, *len;
};

/*
 * Append the reclaim families of @s for the cgroup rows @r, and per node,
 * to @b: scanned/rotated/freed bytes by context and lru, reclaim seconds
 * and the episode-duration histogram by context (for the root only unless
 * @all_histograms). Context "kswapd" only on
 * the root cgroup "/": kswapd's work is charged to the root (README
 * "numalens vmscan"), so it is zero by construction elsewhere. Nothing
 * when the vmscan program is not loaded (s->src.vmscan false).
 * Errors are left in b->err (-ENOMEM).
 */
void nl_prom_render_vmscan(struct nl_buf *b, const struct nl_snapshot *s,
			   const struct nl_prom_cgroup_rows *r, bool all_histograms);

#endif
