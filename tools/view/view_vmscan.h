/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The `numalens vmscan` report of a snapshot: the seed's memory.vmscan_stat
 * fields per cgroup, with the per-node
 * breakdown and the derived ratios, as text or as one JSON object per
 * interval (docs/json.md "numalens vmscan").
 */
#ifndef NL_VIEW_VMSCAN_H
#define NL_VIEW_VMSCAN_H

#include <stdbool.h>
#include <stdio.h>
#include <cjson/cJSON.h>
#include "snapshot.h"

struct nl_vs_view_opts {
	const char *cgroup;	/* show this cgroup and its descendants; NULL/"" all */
	bool all;		/* also cgroups and contexts without any reclaim */
	uint64_t wall_ns;	/* time since start, for reclaim_time_share of
				 * the totals (0: n/a) */
};

/* One field of the report: seed-style name ("scanned_anon_pages_by_limit")
 * and its value. */
struct nl_vs_field {
	char name[48];
	uint64_t v;
};

/* Max fields nl_vmscan_fields() writes for one context. */
#define NL_VS_MAX_FIELDS 20

/* Fields of context @ctx from pages @p and time @t (NULL: no time
 * fields, as for per-node figures), in report order: the seed's 10
 * (scanned/rotated/freed total, anon, file; elapsed_ns) then ours
 * (refill, pageout, episodes, throttled). Returns the number written. */
int nl_vmscan_fields(int ctx, const struct nl_vs_page_figs *p, const struct nl_vs_time_figs *t,
		 struct nl_vs_field out[NL_VS_MAX_FIELDS]);

/* The JSON object of @s (see docs/json.md), or NULL on -ENOMEM. */
cJSON *nl_vmscan_json_build(const struct nl_snapshot *s, const struct nl_vs_view_opts *o);

/* Write the report of @s as text / as one JSON line. 0 or -errno
 * (-EPIPE when the reader went away). */
int nl_vmscan_text_write(FILE *out, const struct nl_snapshot *s, const struct nl_vs_view_opts *o);
int nl_vmscan_json_write(FILE *out, const struct nl_snapshot *s, const struct nl_vs_view_opts *o);

#endif
