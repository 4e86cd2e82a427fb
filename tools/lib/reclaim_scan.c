// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The scanned/rotated provider (reclaim_scan.h). Not connected yet: the
 * per memcg x node vmscan counters arrive with issue 5's snapshot fields;
 * this is the one place to wire them in.
 */
#include <errno.h>
#include <string.h>
#include "reclaim_scan.h"

int nl_scan_get(struct nl_scan_src *src, uint64_t cgid, int nr_nodes, struct nl_scan_node *out)
{
	(void)src;
	(void)cgid;
	if (nr_nodes > 0)
		memset(out, 0, sizeof(*out) * (size_t)nr_nodes);
	return -ENODATA;
}
