/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The reclaim agent's figures (nl_cgroup.agent, struct
 * nl_reclaim_agent_figs) in the top views: the AGT/s cell of the text and
 * TUI cgroup tables, the text view's RECLAIM AGENTS section and the JSON
 * view's "reclaim_agent" object (docs/json.md). Snapshot in, text out.
 */
#ifndef NL_VIEW_AGENT_H
#define NL_VIEW_AGENT_H

#include <stdio.h>
#include <cjson/cJSON.h>
#include "snapshot.h"
#include "view_sort.h"

/* Backend names by index of pages_total[] ("damos", "madvise", "memcg"). */
extern const char *const nl_agent_backend_names[NL_RA_NR_BACKENDS];
/* Draw source names by index of draws_total[] ("limit", "agent"). */
extern const char *const nl_agent_source_names[NL_RA_NR_SOURCES];

/* AGT/s of cgroup @c into @b: pages the agent freed per second over the
 * interval ("%.1f", or nl_fmt_num()'s K/M form when @compact), "dry" for
 * a dry-run agent, "-" when no agent manages it. */
void nl_agent_fmt_rate(char *b, size_t sz, const struct nl_snapshot *s, const struct nl_cgroup *c,
		       bool compact);

/* The RECLAIM AGENTS section of the text view: one line per managed
 * cgroup that passes @f (NULL: all; -c limits it to that subtree) and one
 * per node; nothing when no such cgroup has an agent. */
void nl_agent_text_section(FILE *out, const struct nl_snapshot *s, const struct nl_filter *f);

/* The "reclaim_agent" object of cgroup @c (docs/json.md), or a JSON null
 * when no agent manages it. NULL on -ENOMEM. */
cJSON *nl_agent_json(const struct nl_snapshot *s, const struct nl_cgroup *c);

#endif
