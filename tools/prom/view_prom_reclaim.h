/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reclaim agent's families of `numalens export`
 * (numalens_reclaim_agent_*): what `numalens reclaim` agents published
 * about the cgroups they manage (nl_cgroup.agent), read by collect.c.
 * Every managed cgroup is exported whatever --cgroup-depth says: running
 * an agent on it is the opt-in, and an agent manages at most 64 cgroups.
 * Counters run since that agent started (a restart is a counter reset;
 * the pid label of _info tells the runs apart). Pages become bytes, as in
 * the rest of the export. Names and labels: README "numalens reclaim".
 */
#ifndef NL_VIEW_PROM_RECLAIM_H
#define NL_VIEW_PROM_RECLAIM_H

#include "snapshot.h"
#include "strbuf.h"

/* Append the numalens_reclaim_agent_* families of @s to @b; nothing when
 * no cgroup has an agent. Errors are left in b->err (-ENOMEM). */
void nl_prom_render_reclaim_agent(struct nl_buf *b, const struct nl_snapshot *s);

#endif
