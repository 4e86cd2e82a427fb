/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The agent's text status of one cgroup: what --status and -v print. */
#ifndef NL_RECLAIM_REPORT_H
#define NL_RECLAIM_REPORT_H

#include <stdio.h>
#include "reclaim_agent.h"

/* Status of @c: the `scan_weight=W N0=w0 ...` line of the 2011 NUMA-aware
 * memcg reclaim patches, plus
 * tickets, balance, draws and the agent's counters. */
void nl_report_status(struct nl_ra *a, struct nl_ra_cg *c, FILE *f);

/* The agent's own cost, one line: "agent_cost: loops=N polls=N records=N
 * publishes=N publishes_standing_by=N tracepoint_switches=N cpu_ms
 * tick=.. feed=.. publish=.. match=.. pause=.. wait=.. all=.." (struct
 * nl_ra_cost; CPU time of its thread by part of its loop, milliseconds). */
void nl_report_cost_print(const struct nl_ra *a, FILE *f);

struct cJSON;

/* nl_report_cost_obj - the agent_cost line of nl_report_cost_print() as an object
 * (counts; cpu_ms per part of the loop and in all); caller deletes. */
struct cJSON *nl_report_cost_obj(const struct nl_ra *a);

#endif
