/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * scx_cling families of the Prometheus exposition: what
 * `scx_cling --delay` prints, from the snapshot's cling part (read from the
 * scheduler's pinned maps by collect.c).
 */
#ifndef NL_VIEW_PROM_CLING_H
#define NL_VIEW_PROM_CLING_H

#include "snapshot.h"
#include "strbuf.h"

/*
 * Append the scx_cling families of @s to @b. Always
 * numalens_scx_cling_running (0 or 1); when it runs, the scheduler's
 * settings (degree as a ratio, periods in seconds), per node the
 * monotonic dispatch/cling/attempt/failure counters and the queued, busy
 * and home gauges, and per NUMA group its home node, per-node failure
 * ratio (0..1), busy flag and resident bytes.
 * A group's `cgroup` label is its path from the snapshot's cgroup table,
 * or "#<cgroup id>" when the table does not hold it. Series: 1 + 4 + 9N
 * + G (1 + 3N) for N nodes and G groups (at most CLING_MAX_GROUPS).
 * Errors are left in b->err (-ENOMEM).
 */
void nl_prom_render_cling(struct nl_buf *b, const struct nl_snapshot *s);

#endif
